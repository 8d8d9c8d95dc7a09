"""greedy's policy played inside the core (brass_greedy_playout_batch, `brass.playouts.
greedy_playouts`, `GreedyPlayout`, the `greedy_playout` data source of `brass selfplay`):
each choice is one of the actions Python's `GreedyBot` ranks best, the games replay, the
same seed plays the same games, and what does not fit is refused."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import brass
from brass.errors import EngineError
from brass.playouts import MAX_GREEDY_BATCH, greedy_playouts
from brass_clients.bots.greedy import GreedyBot, GreedyPlayout, _id_drops
from brass_clients.bots.heuristic import evaluator_for
from brass_clients.dataset import load, playout_policy, write_dataset


class _Ties(random.Random):
    """An rng that records the lists `GreedyBot.choose` draws its action from."""

    def __init__(self) -> None:
        super().__init__(0)
        self.pools: list[list[Any]] = []

    def choice(self, seq: Any) -> Any:
        self.pools.append(list(seq))
        return seq[0]


def _python_best_first_ids(game: brass.Game) -> set[int] | None:
    """The first ids of the whole actions Python's greedy ranks best here (None where it
    stages the decision: its random completions cannot be compared)."""
    bot = GreedyBot()
    legal = game.legal_ids()
    if len(legal) == 1:
        return set(legal)
    budget = bot.budget(game.ruleset)
    listed, truncated = game.compound_actions(limit=budget or bot.max_candidates)
    if budget and truncated:
        return None
    if not listed:
        return None  # single ids: an rng.random tie-break, not a pool
    ties = _Ties()
    bot.choose(game, ties)
    [pool] = ties.pools
    return {ids[0] for ids in pool}


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_each_choice_is_one_greedy_ranks_best(ruleset: str) -> None:
    """At positions of greedy games, the core's first id (three seeds) starts one of the
    actions Python's GreedyBot ties for best: the same groups, values and tolerance."""
    evaluator = evaluator_for(ruleset)
    drop = _id_drops(ruleset)[0]
    budget = GreedyBot().budget(ruleset)
    compared = 0
    for deal in (3, 8):
        game = brass.Game.new(2, seed=deal, ruleset=ruleset)
        [played] = greedy_playouts([game], evaluator.worth_params, drop=drop,
                                   max_actions=budget or 20000, staged_evaluations=budget,
                                   seed=deal)
        for step, option in enumerate(played):
            if step % 9 == 0:
                best = _python_best_first_ids(game)
                if best is not None:
                    firsts = {greedy_playouts([game], evaluator.worth_params, drop=drop,
                                              max_actions=budget or 20000,
                                              staged_evaluations=budget, seed=s,
                                              max_decisions=1)[0][0] for s in range(3)}
                    assert firsts <= best, (step, firsts, best)
                    compared += 1
            game.apply(option)
        assert game.is_over
    assert compared >= 20


def test_the_same_seed_plays_the_same_game_and_the_game_is_unchanged() -> None:
    evaluator = evaluator_for("birmingham")
    game = brass.Game.new(3, seed=11)
    before = game.snapshot()
    first = greedy_playouts([game, game], evaluator.worth_params, seed=5)
    assert game.snapshot() == before
    again = greedy_playouts([game], evaluator.worth_params, seed=5)
    assert again[0] == first[0]
    replay = brass.Game.new(3, seed=11)
    for option in first[1]:
        replay.apply(option)
    assert replay.is_over
    # max_decisions stops a game where it is: a prefix of the same play
    assert greedy_playouts([game], evaluator.worth_params, seed=5,
                           max_decisions=7)[0] == first[0][:7]


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_a_listing_of_one_stages_the_decisions_to_a_legal_end(ruleset: str) -> None:
    """max_actions 1: every decision of more than one whole action is made id by id (the
    staged path, its ties pooled in scratch sized for every legal id), or by single ids."""
    evaluator = evaluator_for(ruleset)
    game = brass.Game.new(3, seed=6, ruleset=ruleset)
    for staged in (0, 6):
        [ids] = greedy_playouts([game], evaluator.worth_params, drop=_id_drops(ruleset)[0],
                                max_actions=1, staged_evaluations=staged, seed=1)
        replay = brass.Game.new(3, seed=6, ruleset=ruleset)
        for option in ids:
            replay.apply(option)
        assert replay.is_over


def test_epsilon_one_plays_random_listed_actions_to_a_legal_end() -> None:
    evaluator = evaluator_for("birmingham")
    game = brass.Game.new(2, seed=4)
    greedy = greedy_playouts([game], evaluator.worth_params, seed=2)[0]
    scores = []
    for ids in (greedy, greedy_playouts([game], evaluator.worth_params, seed=2,
                                        epsilon=1.0)[0]):
        replay = brass.Game.new(2, seed=4)
        for option in ids:
            replay.apply(option)
        assert replay.is_over
        scores.append(sum(replay.scores()))
    # random play scores far less than greedy's (about 20 against 70 VP in all)
    assert scores[1] < scores[0] - 20, scores


def test_what_does_not_fit_is_refused() -> None:
    birmingham = evaluator_for("birmingham").worth_params
    game = brass.Game.new(2, seed=1)
    pittsburgh = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    with pytest.raises(ValueError, match="evaluator's facts are birmingham's"):
        greedy_playouts([pittsburgh], birmingham)
    with pytest.raises(EngineError, match="several rulesets"):
        greedy_playouts([game, pittsburgh], birmingham)
    with pytest.raises(EngineError, match="epsilon"):
        greedy_playouts([game], birmingham, epsilon=1.5)
    with pytest.raises(EngineError, match="max_actions"):
        greedy_playouts([game], birmingham, max_actions=0)
    with pytest.raises(EngineError, match="staged_evaluations"):
        greedy_playouts([game], birmingham, staged_evaluations=(1 << 20) + 1)
    with pytest.raises(ValueError, match="drop has 3 entries"):
        greedy_playouts([game], birmingham, drop=b"\0\0\0")
    assert greedy_playouts([], birmingham) == []
    with pytest.raises(EngineError, match="games"):  # a call's record stays bounded
        greedy_playouts([game] * (MAX_GREEDY_BATCH + 1), birmingham)
    with pytest.raises(ValueError, match="epsilon"):
        GreedyPlayout(epsilon=-0.1)


def test_the_core_refuses_a_short_scratch_and_a_short_record() -> None:
    from brass._core import ffi, lib
    from brass.states import StateArray

    rs = brass.get_ruleset("birmingham")
    game = brass.Game.new(2, seed=1)
    states = StateArray(1, rs.state_size)
    lib.brass_clone(states.slot(0), game._g)
    policy = ffi.new("BrassGreedyPolicy *")
    params = evaluator_for("birmingham").worth_params  # kept: the policy points into it
    policy.params = params._params
    policy.num_ids, policy.max_actions = rs.num_actions, 100
    size = lib.brass_greedy_scratch_size(100)
    assert size > 0 and lib.brass_greedy_scratch_size(0) == 0
    assert lib.brass_greedy_scratch_size(lib.BRASS_GREEDY_MAX_ACTIONS + 1) == 0
    scratch = ffi.new("uint64_t[]", size // 8 + 1)
    record, lengths = ffi.new("uint16_t[]", 100), ffi.new("int32_t[]", 1)

    def run(scratch_size: int, record_stride: int) -> int:
        policy.scratch, policy.scratch_size = scratch, scratch_size
        return lib.brass_greedy_playout_batch(states.games, states.stride, 1, policy, 1, 100,
                                              record, record_stride, lengths)

    assert run(size - 1, 100) == lib.BRASS_E_BAD_ARGUMENT
    assert run(size, 99) == lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_decisions_applied(states.slot(0)) == 0  # nothing played
    assert run(size, 100) == lib.BRASS_OK and lengths[0] == 100


def test_a_greedy_playout_dataset_replays_and_is_reproducible(tmp_path: Any) -> None:
    """`brass selfplay --bot greedy_playout`: games played in the core, rows replayed in
    Python; the same bytes with any number of workers, the recorded scores reached."""
    assert playout_policy("greedy") is None
    assert isinstance(playout_policy("greedy_playout:epsilon=0.1"), GreedyPlayout)
    with pytest.raises(ValueError, match="unknown option .depth."):
        playout_policy("greedy_playout:depth=2")
    one = write_dataset(tmp_path / "one", bot="greedy_playout:epsilon=0.05", games=4,
                        players=3, seed=7, shard_games=2, ruleset="pittsburgh")
    two = write_dataset(tmp_path / "two", bot="greedy_playout:epsilon=0.05", games=4,
                        players=3, seed=7, shard_games=2, ruleset="pittsburgh", workers=2)
    assert [s["sha256"] for s in one["shards"]] == [s["sha256"] for s in two["shards"]]
    data = load(tmp_path / "one")
    for k in range(4):
        game = brass.Game.new(3, seed=int(data.game_seeds[k]), ruleset="pittsburgh")
        rows = data.game_rows(k)
        for option, mask in zip(data.actions[rows], data.masks[rows], strict=True):
            assert mask[option]
            game.apply(int(option))
        assert game.is_over and game.scores() == data.scores[k].tolist()
    assert not data.has_visits.any()
    assert np.all(data.scores.sum(axis=1) > 150)  # greedy's games, not random ones


def test_the_benchmark_prints_a_row_a_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    from brass_clients.bench_greedy_playout import main

    main(["--games", "1", "--rounds", "1", "--players", "2"])
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines()[1:]]
    assert [row[:2] for row in rows] == [["birmingham", "2"], ["pittsburgh", "2"]]
    assert all(row[4].endswith("x") and float(row[4][:-1]) > 0 for row in rows)
