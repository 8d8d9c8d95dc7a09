"""Property tests of Pittsburgh (issue 11), checked after every decision.

The heavy part runs in C (core_c/tests/pgh_selfplay.c `props`): 500 random games per player
count (2, 3, 4; every fifth on the tiny table set, every tenth with every alternative option
value), after every decision: money never negative, cards and link tiles conserved, tiles
never from nowhere, flipped tiles hold no cubes, 8 rounds an era, the state validates; every
25th game also at every fifth decision: every refused id gives its reason and leaves the
state unchanged, views hold nothing the seat cannot see (a determinized twin looks the same),
the full position reads back to the same bytes; each game ends, its position reads back, and
its replay from seed and decisions is the identical state. A smaller run goes through the
Python API.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from core._build import core_make, need

import brass

CORE = Path(__file__).resolve().parents[2] / "core_c"


def test_500_random_games_per_player_count_in_c(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    need("gcc", "make")
    build, directory = core_make(tmp_path_factory, "plain", "pgh_selfplay")
    assert build.returncode == 0, (build.stdout + build.stderr)[-4000:]
    run = subprocess.run([str(directory / "pgh_selfplay"), "props", "500"], capture_output=True,
                         text=True, timeout=1800, check=False)
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    m = re.search(r"pgh_props: (\d+) games per player count, (\d+) failures", run.stdout)
    assert m and (int(m.group(1)), int(m.group(2))) == (500, 0), run.stdout + run.stderr[-4000:]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_through_the_python_api(players: int) -> None:
    game = brass.Game.new(players, 40 + players, ruleset="pittsburgh", options={"data": "tiny"})
    rng = random.Random(players)
    rounds, step = [(1, 1)], 0
    while not game.is_over:
        step += 1
        legal = game.legal_ids()
        assert legal
        before = game.state_hash()
        for a in rng.sample(range(game.num_actions), 6):  # refused ids change nothing
            if a not in legal:
                with pytest.raises(brass.EngineError):
                    game.apply(a)
                assert game.state_hash() == before
        game.apply(rng.choice(legal))
        position = game.position()
        assert all(p["money"] >= 0 for p in position["players"])
        key = (position["era"], position["round"])
        if key != rounds[-1]:
            rounds.append(key)
        if step % 23 == 0:
            restored = brass.Game.restore(game.snapshot())
            assert restored.state_hash() == game.state_hash()
            assert brass.Game.from_position(position).state_hash() == game.state_hash()
    assert [r for e, r in rounds if e == 1] == list(range(1, 9))
    assert [r for e, r in rounds if e == 2] == list(range(1, 9))
    assert brass.Game.replay(game.replay_record()).state_hash() == game.state_hash()
