"""The static evaluators value the core's summary (`Game.summary`) in the core
(`brass.worths`: the C evaluators of core_c/src/bots/), not the view's JSON: the same
values, float for float, as the Python formula on the spectator view (`values_of_view`), on
positions of random and of greedy play (tiles flipped, links built, money spent), 2-4 players, and
at the end of a game."""

from __future__ import annotations

import random

import pytest

import brass
from brass.worths import summary_worths
from brass_clients.bots import make_bot
from brass_clients.bots.heuristic import HeuristicWeights, evaluator_for

RULESETS = ("birmingham", "pittsburgh")


def _greedy_positions(ruleset: str, players: int, seed: int, decisions: int,
                      every: int, options: dict | None = None) -> list[brass.Game]:
    """Every `every`-th position of a game of greedy bots, `decisions` long at most."""
    game = brass.Game.new(players, seed=seed, ruleset=ruleset, options=options)
    bots = [make_bot("greedy") for _ in range(players)]
    rngs = [random.Random(seed * 10 + seat) for seat in range(players)]
    kept = []
    for step in range(decisions):
        if game.is_over:
            break
        if step % every == 0:
            kept.append(game.clone())
        seat = game.current_seat
        game.apply(bots[seat].choose(game, rngs[seat]), seat)
    kept.append(game)
    return kept


def _random_game_to_the_end(ruleset: str, players: int, seed: int) -> list[brass.Game]:
    game = brass.Game.new(players, seed=seed, ruleset=ruleset)
    rng = random.Random(seed)
    kept = []
    while not game.is_over:
        if rng.random() < 0.1:
            kept.append(game.clone())
        game.apply(rng.choice(game.legal_ids()))
    kept.append(game)
    return kept


def _assert_same_values(ruleset: str, positions: list[brass.Game],
                        weights: HeuristicWeights | None = None) -> None:
    evaluator = evaluator_for(ruleset, weights)
    for game in positions:
        fast = evaluator.values(game)
        assert fast == evaluator.values_of_view(game.view(None))  # exactly the same floats
        assert [evaluator.value(game, seat) for seat in range(game.num_players)] == fast


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_summary_gives_the_views_values_in_greedy_play(ruleset: str, players: int) -> None:
    decisions = 160 if ruleset == "pittsburgh" else 240
    positions = _greedy_positions(ruleset, players, seed=players, decisions=decisions, every=5)
    views = [game.view(None) for game in positions]
    assert any(tile["flipped"] for view in views
               for tile in (view["spaces"] if ruleset == "pittsburgh" else view["slots"].values()))
    assert any(view["links"] for view in views)
    _assert_same_values(ruleset, positions)
    _assert_same_values(ruleset, positions, HeuristicWeights(money_vp=0.3, opponent_weight=0.5,
                                                            unflipped_resources=0.6))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_summary_gives_the_views_values_to_the_end_of_a_game(ruleset: str) -> None:
    positions = _random_game_to_the_end(ruleset, 3, seed=5)
    assert positions[-1].is_over
    _assert_same_values(ruleset, positions)


def test_a_pittsburgh_game_on_other_data_is_valued_from_its_view() -> None:
    # the summary's indexes are named by the default table set's names: other data files
    # (the synthetic `tiny`) are read from the view, with the same result
    positions = _greedy_positions("pittsburgh", 2, seed=1, decisions=60, every=6,
                                  options={"data": "tiny"})
    evaluator = evaluator_for("pittsburgh")
    assert summary_worths(positions[-1].summary(), evaluator.worth_params) is None
    _assert_same_values("pittsburgh", positions)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_values_after_actions_are_the_values_of_the_actions_applied(ruleset: str) -> None:
    evaluator = evaluator_for(ruleset)
    for game in _greedy_positions(ruleset, 2, seed=7, decisions=80, every=20)[:-1]:
        listed, _ = game.compound_ids(limit=200)
        expected = []
        for ids in listed:
            trial = game.clone()
            trial.apply_compound(ids)
            expected.append(evaluator.values_of_view(trial.view(None)))
        assert evaluator.values_after(game, listed) == expected


def test_values_after_actions_on_other_pittsburgh_data_come_from_the_view() -> None:
    game = brass.Game.new(2, seed=2, ruleset="pittsburgh", options={"data": "tiny"})
    listed, _ = game.compound_ids(limit=50)
    evaluator = evaluator_for("pittsburgh")
    expected = []
    for ids in listed:
        trial = game.clone()
        trial.apply_compound(ids)
        expected.append(evaluator.values(trial))
    assert evaluator.values_after(game, listed) == expected
