"""VectorEnv: shapes, masks from the engine, rewards at game end, auto-reset."""

from __future__ import annotations

import numpy as np

import brass
from brass_clients.vector import VectorEnv, benchmark, outcome_rewards

BIRMINGHAM = brass.get_ruleset("birmingham")


def test_shapes_and_masks_match_the_engine() -> None:
    env = VectorEnv(5, players=3, seed=10)
    obs, masks = env.reset()
    assert obs.shape == (5, BIRMINGHAM.observation_size) and obs.dtype == np.float32
    assert masks.shape == (5, BIRMINGHAM.num_actions) and masks.dtype == bool
    for i, game in enumerate(env.games):
        assert np.flatnonzero(masks[i]).tolist() == sorted(game.legal_ids())
        assert np.array_equal(obs[i], game.observation(int(env.acting_seats[i])))


def test_steps_until_games_finish_and_restart() -> None:
    env = VectorEnv(3, players=2, seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = env.sample_actions(rng)
        _, masks = env.observations, env.masks
        assert all(masks[i, actions[i]] for i in range(env.n))
        obs, masks, rewards, dones = env.step(actions)
        assert rewards.shape == (3, 2) and dones.shape == (3,)
        assert np.all(rewards[~dones] == 0)
        for i in np.flatnonzero(dones):
            assert rewards[i].sum() == 0.0 and rewards[i].max() >= 0
            assert not env.games[i].is_over and env.games[i].version == 0
        finished += int(dones.sum())
        assert masks.any(axis=1).all()
    assert finished >= 3


def test_wrong_action_shape_is_refused() -> None:
    env = VectorEnv(2)
    try:
        env.step(np.zeros(3, dtype=np.int64))
    except ValueError as exc:
        assert "shape" in str(exc)
    else:
        raise AssertionError("accepted a wrong shape")


def test_outcome_rewards_are_zero_sum_by_place() -> None:
    game = brass.Game.new(4, seed=3)
    game.playout(5)
    rewards = outcome_rewards(game)
    assert abs(float(rewards.sum())) < 1e-6
    assert rewards[game.ranking()[-1]] == -1.0 or len(game.winners()) == 4


def test_benchmark_reports_figures() -> None:
    figures = benchmark(envs=4, players=2, steps=100, seed=2)
    print(figures)
    assert figures["steps"] == 100
    assert figures["vector_steps_per_second"] > 0
