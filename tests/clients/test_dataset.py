"""`brass selfplay` datasets: reproducible shards, contents that replay, the loader."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import brass
from brass_clients import cli
from brass_clients.dataset import iter_shards, load, write_dataset

SEARCHER = "mcts:iterations=3:rollout_depth=3"


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_same_seed_writes_identical_shards_for_any_workers(tmp_path: Path) -> None:
    one = write_dataset(tmp_path / "a", SEARCHER, games=3, players=2, seed=4, shard_games=2)
    two = write_dataset(tmp_path / "b", SEARCHER, games=3, players=2, seed=4, shard_games=2,
                        workers=2)
    assert one == two and len(one["shards"]) == 2
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    write_dataset(tmp_path / "c", SEARCHER, games=3, players=2, seed=5, shard_games=2)
    assert _files(tmp_path / "c")["shard-00000.npz"] != _files(tmp_path / "a")["shard-00000.npz"]


def test_rows_replay_the_games_and_hold_the_searchs_visits(tmp_path: Path) -> None:
    write_dataset(tmp_path, SEARCHER, games=2, players=3, seed=1, shard_games=1)
    data = load(tmp_path)
    assert list(data.game_index) == [0, 1] and data.game_offsets[-1] == len(data.actions)
    for k in range(2):
        rows = data.game_rows(k)
        game = brass.Game.new(3, seed=int(data.game_seeds[k]))
        for row in range(rows.start, rows.stop):
            seat = int(data.seats[row])
            assert data.games[row] == k and game.current_seat == seat
            assert np.array_equal(data.observations[row], game.observation(seat))
            assert np.array_equal(data.masks[row], game.legal_mask())
            game.apply(int(data.actions[row]), seat)
        assert game.is_over and list(data.scores[k]) == game.scores()
        assert data.rewards[k].sum() == pytest.approx(0.0, abs=1e-6)
    searched = data.has_visits
    assert 0 < searched.sum() < len(searched)  # single-id decisions are not searched
    assert np.allclose(data.visits[searched].sum(axis=1), 1.0)
    assert not (data.visits[searched] * ~data.masks[searched]).any()  # legal ids only
    assert not data.visits[~searched].any()


def test_the_loader_refuses_a_changed_shard(tmp_path: Path) -> None:
    write_dataset(tmp_path, "random", games=1, players=2, seed=1)
    shard = tmp_path / "shard-00000.npz"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="SHA-256"):
        list(iter_shards(tmp_path))


def test_cli_selfplay(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.main, ["selfplay", "--bot", "random", "--games", "2",
                                           "--players", "2", "--out", str(tmp_path),
                                           "--ruleset", "pittsburgh"])
    assert result.exit_code == 0, result.output
    data = load(tmp_path)
    assert data.manifest["ruleset"] == "pittsburgh" and len(data.scores) == 2
    assert data.observations.shape[1] == brass.get_ruleset("pittsburgh").observation_size
    assert not data.has_visits.any()  # random searches nothing
    result = CliRunner().invoke(cli.main, ["selfplay", "--bot", "nobody", "--games", "1",
                                           "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "unknown bot" in result.output
