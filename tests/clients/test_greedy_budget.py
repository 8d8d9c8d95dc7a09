"""Greedy's evaluations per decision are bounded on Pittsburgh's large turns."""

from __future__ import annotations

import random

import pytest

import brass
from brass_clients.bots import GreedyBot, make_bot


def _large_turn(min_actions: int = 1000) -> brass.Game:
    """A Pittsburgh position whose decision has more than `min_actions` whole actions."""
    for seed in range(20):
        game = brass.Game.new(2, seed=seed, ruleset="pittsburgh")
        rng = random.Random(seed)
        while not game.is_over:
            if game.decision == "action":
                _, truncated = game.compound_actions(limit=min_actions)
                if truncated:
                    return game
            game.apply(rng.choice(game.legal_ids()))
    raise AssertionError("no large turn found")


class CountingEvaluator:
    def __init__(self, inner: object) -> None:
        self.inner, self.calls = inner, 0

    def value(self, game: brass.Game, seat: int) -> float:
        self.calls += 1
        return self.inner.value(game, seat)  # type: ignore[attr-defined]


def test_a_large_pittsburgh_turn_costs_at_most_the_budget_per_decision() -> None:
    game = _large_turn()
    bot = make_bot("greedy")
    assert isinstance(bot, GreedyBot) and bot.budget("pittsburgh") == 200
    counting = CountingEvaluator(bot.evaluator_of("pittsburgh"))
    bot._evaluators["pittsburgh"] = counting  # type: ignore[assignment]
    rng = random.Random(1)
    seat = game.current_seat
    while game.current_seat == seat and not game.is_over:  # every decision of the turn
        counting.calls = 0
        option = bot.choose(game, rng)
        assert option in game.legal_ids()
        assert counting.calls <= max(200, len(game.legal_ids())) + 16  # + a group's cards
        game.apply(option)


@pytest.mark.parametrize("spec", ["greedy:evaluations=0", "greedy:evaluations=5000"])
def test_budget_option_and_birmingham_unchanged(spec: str) -> None:
    """Birmingham scores every whole action, as before the budget (evaluations=0)."""
    assert make_bot("greedy").budget("birmingham") == 0
    game = brass.Game.new(2, seed=3)
    default, forced = make_bot("greedy"), make_bot("greedy:evaluations=0")
    for _ in range(40):
        option = default.choose(game, random.Random(game.version))
        assert option == forced.choose(game, random.Random(game.version))
        game.apply(option)
    assert make_bot(spec).budget("pittsburgh") == int(spec.split("=")[1])
    with pytest.raises(ValueError, match="evaluations"):
        make_bot("greedy:evaluations=-2")
