"""BrassVectorEnv: gymnasium's vector-env interface (spaces, seeded reset, 5-tuple step,
same-step autoreset with the final observation in info), extra `rl`."""

from __future__ import annotations

import numpy as np
import pytest

import brass

gymnasium = pytest.importorskip("gymnasium", reason="optional extra 'rl' (gymnasium) not installed")

from gymnasium.vector import AutoresetMode  # noqa: E402

from brass_clients.rl.gym_vector import BrassVectorEnv  # noqa: E402

BIRMINGHAM = brass.get_ruleset("birmingham")


def test_spaces_are_gymnasiums_single_and_batched() -> None:
    envs = BrassVectorEnv(num_envs=3, players=2)
    assert isinstance(envs, gymnasium.vector.VectorEnv) and envs.num_envs == 3
    assert envs.single_observation_space.shape == (BIRMINGHAM.observation_size,)
    assert envs.single_action_space.n == BIRMINGHAM.num_actions
    assert envs.observation_space.shape == (3, BIRMINGHAM.observation_size)
    assert list(envs.action_space.nvec) == [BIRMINGHAM.num_actions] * 3
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    observations, info = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    actions = envs.sample_legal(np.random.default_rng(0))
    assert envs.action_space.contains(actions)
    for i, game in enumerate(envs.games):
        assert np.flatnonzero(info["action_mask"][i]).tolist() == sorted(game.legal_ids())
        assert info["acting_seat"][i] == game.current_seat
        assert np.array_equal(observations[i], game.observation(game.current_seat))
    with pytest.raises(ValueError, match="reset options"):
        envs.reset(options={"players": 4})


def _run(envs: BrassVectorEnv, seed: int, steps: int) -> list[np.ndarray]:
    observations, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [observations]
    for _ in range(steps):
        observations, *_ = envs.step(envs.sample_legal(rng))
        seen.append(observations)
    return seen


def test_reset_seed_makes_runs_repeatable() -> None:
    envs = BrassVectorEnv(num_envs=2, players=3)
    first, again = _run(envs, 5, 30), _run(envs, 5, 30)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    other = _run(envs, 6, 30)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_step_autoresets_in_the_same_step_keeping_the_final_observation() -> None:
    envs = BrassVectorEnv(num_envs=2, players=2, ruleset="birmingham")
    envs.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(2000):
        before = [game.clone() for game in envs.games]
        movers = [game.current_seat for game in before]
        actions = envs.sample_legal(rng)
        observations, rewards, terminations, truncations, info = envs.step(actions)
        assert rewards.shape == terminations.shape == truncations.shape == (2,)
        assert not truncations.any()
        assert np.all(rewards[~terminations] == 0)
        for i in np.flatnonzero(terminations):
            finished = before[i]
            finished.apply(int(actions[i]))
            assert finished.is_over and info["_final_obs"][i]
            assert np.array_equal(info["final_obs"][i], finished.observation(movers[i]))
            seat_rewards = info["final_info"]["rewards"][i]
            assert seat_rewards.sum() == 0.0 and rewards[i] == seat_rewards[movers[i]]
            assert list(info["final_info"]["scores"][i]) == finished.scores()
            game = envs.games[i]  # the same step dealt the next game
            assert game.version == 0
            assert np.array_equal(observations[i], game.observation(game.current_seat))
            ended += 1
        for i in np.flatnonzero(~terminations):
            assert "_final_obs" not in info or not info["_final_obs"][i]
        if ended >= 2:
            break
    assert ended >= 2


def test_gymnasiums_episode_statistics_wrapper_counts_the_games() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(BrassVectorEnv(num_envs=2, players=2))
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(2000):
        _, _, terminations, _, info = envs.step(envs.unwrapped.sample_legal(rng))
        if terminations.any():
            i = int(np.flatnonzero(terminations)[0])
            assert info["_episode"][i] and info["episode"]["l"][i] > 50
            return
    raise AssertionError("no game ended")


def test_make_vec_builds_it_from_its_registered_id() -> None:
    from brass_clients.rl.gym_vector import ENV_ID

    envs = gymnasium.make_vec(ENV_ID, num_envs=2, players=4, ruleset="pittsburgh")
    assert isinstance(envs, BrassVectorEnv) and envs.num_envs == 2 and envs.players == 4
    observations, info = envs.reset(seed=0)
    assert observations.shape == (2, brass.get_ruleset("pittsburgh").observation_size)
    assert info["action_mask"].any(axis=1).all()
