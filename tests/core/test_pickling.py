"""Copying and pickling games (issue 10 F): copy.copy and copy.deepcopy give independent
games, pickling goes through the validated snapshot with the replay record, and games (and
game batches) cross process boundaries: multiprocessing here, Ray when it is installed."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
from operator import methodcaller

import numpy as np
import pytest

import brass
from brass import EngineError

from ._support import play_random

BIRMINGHAM = brass.get_ruleset("birmingham")


def same_game(a: brass.Game, b: brass.Game) -> None:
    assert a.snapshot() == b.snapshot()
    assert a.replay_record() == b.replay_record()
    assert a.legal_ids() == b.legal_ids()


def test_copy_copy_does_not_share_the_state() -> None:
    """Regression: copy.copy shared the C state, so a move on the copy moved the original."""
    game = play_random(3, 41, steps=30)
    before, version = game.snapshot(), game.version
    twin = copy.copy(game)
    same_game(twin, game)
    twin.apply(twin.legal_ids()[0])
    assert game.snapshot() == before and game.version == version
    assert twin.version == version + 1


def test_deepcopy_gives_an_independent_game() -> None:
    """Regression: copy.deepcopy raised TypeError (cdata cannot be pickled)."""
    game = brass.Game.from_position(play_random(2, 42, steps=20).position())
    twin = copy.deepcopy(game)
    same_game(twin, game)
    assert twin.replay_record()["position"] is not game.replay_record()["position"]
    twin.apply(twin.legal_ids()[0])
    assert twin.version == game.version + 1


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_a_pickled_game_plays_on_exactly_as_the_original(protocol: int) -> None:
    """Regression: pickle.dumps(game) raised TypeError."""
    rng = random.Random(protocol)
    for seed in range(6):
        game = play_random(2 + seed % 3, 50 + seed, steps=rng.randrange(0, 120))
        loaded = pickle.loads(pickle.dumps(game, protocol=protocol))
        same_game(loaded, game)
        assert brass.Game.replay(loaded.replay_record()).snapshot() == game.snapshot()
        while not game.is_over:
            option = rng.choice(game.legal_ids())
            assert loaded.apply(option) == game.apply(option)
        assert loaded.scores() == game.scores()


def test_a_corrupt_pickle_is_refused_when_loaded() -> None:
    data = bytearray(pickle.dumps(brass.Game.new(2, 1)))
    snapshot = brass.Game.new(2, 1).snapshot()
    at = bytes(data).index(snapshot[20:60])
    data[at + 5] ^= 0x40
    with pytest.raises(EngineError) as error:
        pickle.loads(bytes(data))
    assert error.value.code == "BAD_SNAPSHOT"


def test_a_batch_game_copies_and_pickles_as_a_game_of_its_own() -> None:
    batch = brass.GameBatch(3, 2, [4, 5, 6])
    game = batch.games[1]
    for twin in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        same_game(twin, game)
        twin.apply(twin.legal_ids()[0])
        assert game.version == 0


def test_game_batches_pickle_and_copy_with_their_own_array() -> None:
    batch = brass.GameBatch(3, 2, [4, 5, 6])
    obs = np.zeros((3, BIRMINGHAM.observation_size), np.float32)
    masks = np.zeros((3, BIRMINGHAM.num_actions), bool)
    batch.step(np.array([g.legal_ids()[0] for g in batch.games]), obs, masks)
    for twin in (pickle.loads(pickle.dumps(batch)), copy.copy(batch), copy.deepcopy(batch)):
        for a, b in zip(twin.games, batch.games, strict=True):
            same_game(a, b)
        actions = np.array([g.legal_ids()[-1] for g in twin.games])
        twin_obs, twin_masks = obs.copy(), masks.copy()
        errors, _ = twin.step(actions, twin_obs, twin_masks)
        assert not errors.any() and [g.version for g in batch.games] == [1, 1, 1]
        batch_errors, _ = copy.copy(batch).step(actions, obs, masks)
        assert np.array_equal(obs, twin_obs) and np.array_equal(masks, twin_masks)
        assert not batch_errors.any()


def test_games_cross_process_pools() -> None:
    """Games go to worker processes (spawned: nothing inherited) and come back."""
    games = [play_random(2 + k % 3, 60 + k, steps=25 * k) for k in range(4)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        hashes = pool.map(methodcaller("state_hash"), games)
        twins = pool.map(methodcaller("determinize", 0, 7), games)
        batch = pool.apply(copy.copy, (brass.GameBatch(2, 3, [8, 9]),))
    assert hashes == [g.state_hash() for g in games]
    for twin, game in zip(twins, games, strict=True):
        same_game(twin, game.determinize(0, 7))
    assert [g.snapshot() for g in batch.games] == [brass.Game.new(3, s).snapshot()
                                                   for s in (8, 9)]


def test_games_cross_ray_tasks() -> None:
    ray = pytest.importorskip("ray", reason="Ray is optional (not installed by default)")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        game = play_random(3, 70, steps=40)

        def state_hash(game: brass.Game) -> int:  # local: Ray ships it by value (a test
            return game.state_hash()               # module is not importable by its workers)

        remote_hash = ray.remote(state_hash)
        assert ray.get(remote_hash.remote(game)) == game.state_hash()
        same_game(ray.get(ray.put(game)), game)
    finally:
        ray.shutdown()
