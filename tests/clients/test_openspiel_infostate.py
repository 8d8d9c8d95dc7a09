"""OpenSpiel: resample_from_infostate hides what the seat cannot see (extra `rl`)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="optional extra 'rl' (open-spiel) not installed")

import brass_clients.rl.openspiel_game  # noqa: E402, F401  (registers python_brass)


def _state(ruleset: str, players: int, decisions: int) -> pyspiel.State:
    game = pyspiel.load_game("python_brass", {"players": players, "ruleset": ruleset})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(players)
    for _ in range(decisions):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _hidden(state: pyspiel.State, seat: int) -> list[str]:
    """What only the full position says: the deck's order and the other seats' hands."""
    position = state.engine_game.position()
    seats = position.get("player_state") or position["players"]
    return [repr(position["deck"])] + [repr(seats[s].get("hand")) for s in range(len(seats))
                                       if s != seat]


@pytest.mark.parametrize(("ruleset", "players"), [("birmingham", 3), ("pittsburgh", 2)])
def test_a_resampled_state_agrees_with_the_seat_and_redeals_the_rest(ruleset: str,
                                                                     players: int) -> None:
    state = _state(ruleset, players, 25)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others_differ = False
    worlds = set()
    for _ in range(4):
        world = state.resample_from_infostate(seat, sampler)
        assert world.current_player() == seat
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        assert _hidden(world, seat) != _hidden(state, seat)
        worlds.add(repr(_hidden(world, seat)))
        others_differ |= any(world.observation_string(s) != state.observation_string(s)
                             for s in range(players) if s != seat)
        world.apply_action(world.legal_actions()[0])  # a copy: the state is left as it was
        assert state.current_player() == seat
    assert len(worlds) == 4 and others_differ


def test_before_the_deal_there_is_nothing_to_hide() -> None:
    game = pyspiel.load_game("python_brass", {"players": 2})
    root = game.new_initial_state()
    copy = root.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert copy.is_chance_node() and copy.history() == []


def test_openspiels_ismcts_searches_only_resampled_worlds() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    state = _state("birmingham", 2, 10)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game=state.get_game(), evaluator=mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
        max_simulations=6, use_observation_string=True, allow_inconsistent_action_sets=True,
        random_state=rng)
    searched: list[str] = []
    resample = bot.resample_from_infostate

    def spy(root: pyspiel.State) -> pyspiel.State:
        world = resample(root)
        searched.append(repr(world.engine_game.position()["deck"]))
        return world

    bot.resample_from_infostate = spy
    action = bot.step(state)
    assert action in state.legal_actions()
    assert len(searched) == 6 and repr(state.engine_game.position()["deck"]) not in searched
