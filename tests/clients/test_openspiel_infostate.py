"""OpenSpiel: resample_from_infostate hides what the seat cannot see (extra `rl`)."""

from __future__ import annotations

from typing import Any

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


def _ismcts(state: pyspiel.State, seed: int, *, use_observation_string: bool) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(
        game=state.get_game(), evaluator=mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
        max_simulations=6, use_observation_string=use_observation_string,
        allow_inconsistent_action_sets=True, random_state=rng)


def test_openspiels_ismcts_searches_only_resampled_worlds() -> None:
    state = _state("birmingham", 2, 10)
    bot = _ismcts(state, 0, use_observation_string=True)
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


@pytest.mark.parametrize(("ruleset", "players"), [("birmingham", 2), ("pittsburgh", 3)])
def test_the_information_state_is_what_the_seat_has_seen_and_remembers(ruleset: str,
                                                                       players: int) -> None:
    state = _state(ruleset, players, 30)
    seat = state.current_player()
    info = state.information_state_string(seat)
    view, decisions = info.split("\ndecisions: ")
    assert view == state.observation_string(seat)
    assert [int(option) for option in decisions.split()] == state.history()[1:]
    assert np.array_equal(state.information_state_tensor(seat), state.observation_tensor(seat))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):  # every world the seat cannot tell from this one has its info state
        world = state.resample_from_infostate(seat, sampler)
        assert _hidden(world, seat) != _hidden(state, seat)
        assert world.information_state_string(seat) == info
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
    # another seat's hand differs from this seat's: its information state does too
    other = (seat + 1) % players
    assert state.information_state_string(other) != info
    # the same view reached by other decisions is another information state
    before = _state(ruleset, players, 29)
    assert before.information_state_string(seat) != info


def test_openspiels_ismcts_keys_its_nodes_by_the_information_state() -> None:
    state = _state("birmingham", 2, 10)
    bot = _ismcts(state, 1, use_observation_string=False)
    action = bot.step(state)
    assert action in state.legal_actions()
    history = " ".join(str(option) for option in state.history()[1:])
    keys = [text for _player, text in bot._nodes]  # its nodes, by (player, key)
    assert keys and all(key.split("\ndecisions: ")[1].startswith(history) for key in keys)
