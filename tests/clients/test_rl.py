"""RL adapters: PettingZoo AEC API test and OpenSpiel random simulations (extra `rl`)."""

from __future__ import annotations

import numpy as np
import pytest

import brass
from brass_clients.vector import outcome_rewards

BIRMINGHAM = brass.get_ruleset("birmingham")


def test_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo", reason="optional extra 'rl' (pettingzoo) not installed")
    from pettingzoo.test import api_test

    from brass_clients.rl.pettingzoo_env import env

    api_test(env(players=2), num_cycles=400, verbose_progress=False)
    api_test(env(players=4), num_cycles=100, verbose_progress=False)


def test_pettingzoo_full_game_ends_with_terminal_rewards() -> None:
    pytest.importorskip("pettingzoo", reason="optional extra 'rl' (pettingzoo) not installed")
    from brass_clients.rl.pettingzoo_env import env

    environment = env(players=3)
    environment.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    for agent in environment.agent_iter(max_iter=5000):
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            mask = observation["action_mask"]
            assert observation["observation"].shape == (BIRMINGHAM.observation_size,)
            action = int(rng.choice(np.flatnonzero(mask)))
        environment.step(action)
    assert not environment.agents
    final = environment.unwrapped.game
    assert final.is_over
    expected = outcome_rewards(final)
    for seat, agent in enumerate(environment.possible_agents):
        assert totals[agent] == pytest.approx(float(expected[seat]))
    assert abs(sum(totals.values())) < 1e-6


def test_openspiel_random_simulations() -> None:
    pyspiel = pytest.importorskip("pyspiel",
                                  reason="optional extra 'rl' (open-spiel) not installed")
    import brass_clients.rl.openspiel_game  # noqa: F401  (registers python_brass)

    for players in (2, 4):
        game = pyspiel.load_game("python_brass", {"players": players, "num_deals": 20})
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_random_simulations_serialize_states() -> None:
    """Regression (issue 10 F): with serialize=True OpenSpiel pickles states, and a
    brass.Game could not be pickled (TypeError)."""
    pyspiel = pytest.importorskip("pyspiel",
                                  reason="optional extra 'rl' (open-spiel) not installed")
    import pickle

    import brass_clients.rl.openspiel_game  # noqa: F401

    for players in (2, 3):
        game = pyspiel.load_game("python_brass", {"players": players, "num_deals": 20})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(40):
        state.apply_action(state.legal_actions()[0])
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded.engine_game.snapshot() == state.engine_game.snapshot()
    assert loaded.history() == state.history()


def test_openspiel_state_clone_is_independent() -> None:
    pyspiel = pytest.importorskip("pyspiel",
                                  reason="optional extra 'rl' (open-spiel) not installed")
    import brass_clients.rl.openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_brass")
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(7)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) == 1 and len(copy.history()) == 2
    assert state.legal_actions() == sorted(state.engine_game.legal_ids())
    assert state.observation_tensor(state.current_player())
