"""Bots return legal ids, never change the game they are given, and replay from seeds."""

from __future__ import annotations

import random
import re

import pytest

import brass
from brass_clients.bots import Bot, MctsBot, make_bot, parse_bot_spec, register
from brass_clients.bots.heuristic import PositionEvaluator, board_facts
from brass_clients.bots.mcts import STOP_CHECK_ITERATIONS
from brass_clients.eval import run_game

from .conftest import advance_randomly

FAST_SPECS = ["random", "greedy", "mcts:iterations=12", "mcts:iterations=8:rollout_depth=20"]


@pytest.mark.parametrize("spec", FAST_SPECS)
@pytest.mark.parametrize("players,depth", [(2, 0), (3, 37), (4, 120)])
def test_bot_returns_a_legal_id_and_leaves_the_game_unchanged(spec: str, players: int,
                                                              depth: int) -> None:
    game = advance_randomly(brass.Game.new(players, seed=11), depth, seed=depth)
    before = game.state_hash()
    bot = make_bot(spec)
    choice = bot.choose(game, random.Random(5))
    assert choice in game.legal_ids()
    assert game.state_hash() == before


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=6:rollout_depth=10"])
def test_bot_finishes_a_game_with_only_legal_decisions(spec: str) -> None:
    bot, rng = make_bot(spec), random.Random(3)
    game = brass.Game.new(2, seed=4)
    opponent = make_bot("random")
    while not game.is_over:
        player = bot if game.current_seat == 0 else opponent
        choice = player.choose(game, rng)
        assert choice in game.legal_ids()
        game.apply(choice)
    assert len(game.scores()) == 2


def test_same_rng_seed_gives_the_same_choices() -> None:
    game = advance_randomly(brass.Game.new(2, seed=2), 20, seed=1)
    for spec in ("greedy", "mcts:iterations=20"):
        first = make_bot(spec).choose(game, random.Random(9))
        second = make_bot(spec).choose(game, random.Random(9))
        assert first == second


def test_greedy_follows_through_a_chosen_compound_action() -> None:
    game = brass.Game.new(2, seed=6)
    bot, rng = make_bot("greedy"), random.Random(0)
    seat = game.current_seat
    steps = 0
    while game.current_seat == seat and steps < 30:
        game.apply(bot.choose(game, rng))
        steps += 1
    assert steps >= 2  # an action is several decisions; all were legal


def test_mcts_tree_reuse_keeps_choices_legal() -> None:
    game = brass.Game.new(2, seed=8)
    bot, rng = MctsBot(iterations=15), random.Random(1)
    for _ in range(6):
        choice = bot.choose(game, rng)
        assert choice in game.legal_ids()
        game.apply(choice)
    assert bot.last_iterations in (0, 15)


def test_mcts_time_budget_runs_at_least_one_iteration() -> None:
    game = brass.Game.new(2, seed=8)
    bot = MctsBot(seconds=0.01)
    assert bot.choose(game, random.Random(2)) in game.legal_ids()
    assert bot.last_iterations >= 1


def test_a_new_bot_is_a_dozen_lines() -> None:
    @register("first-legal")
    class FirstLegalBot(Bot):
        name = "first-legal"

        def choose(self, game: brass.Game, rng: random.Random) -> int:
            return game.legal_ids()[0]

    game = brass.Game.new(2, seed=1)
    assert make_bot("first-legal").choose(game, random.Random(0)) == game.legal_ids()[0]


def test_bot_specs_parse_options() -> None:
    assert parse_bot_spec("mcts:iterations=50:exploration=0.5") == (
        "mcts", {"iterations": 50, "exploration": 0.5})
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nonesuch")
    with pytest.raises(ValueError, match="bad options"):
        make_bot("random:depth=3")
    with pytest.raises(ValueError, match="key=value"):
        parse_bot_spec("mcts:fast")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:rollout_policy=bogus", "rollout_policy must be one of random, sane"),
        ("mcts:iterations=inf", "iterations must be an integer"),
        ("mcts:iterations=2.5", "iterations must be an integer"),
        ("mcts:iterations=-1", "iterations must be from 0 to"),
        ("mcts:seconds=nan", "seconds must be a number"),
        ("mcts:exploration=lots", "exploration must be a number"),
        ("mcts:rollout_depth=99999999999", "rollout_depth must be from 0 to 1048576"),
        ("mcts:reuse_tree=1", "reuse_tree must be true or false"),
        ("mcts:iterations=5:iterations=6", "given twice"),
        ("mcts:leaf=rollout", "leaf must be one of auto, playout, action"),
        ("mcts:root_candidates=-2", "root_candidates must be from -1 to 1000"),
        ("greedy:money_vp=nan", "money_vp must be a number"),
        ("greedy:money_vp=-inf", "money_vp must be a number"),
        ("greedy:opponent_weight=1e308", "opponent_weight must be from -1000000 to 1000000"),
        ("greedy:liquidity_money=2.5", "liquidity_money must be an integer"),
        ("greedy:money_vp=true", "money_vp must be a number"),
        ("greedy:max_candidates=0", "max_candidates must be from 1 to"),
        ("greedy:speed=3", "unknown option 'speed'"),
    ],
)
def test_every_bot_option_is_checked_when_the_bot_is_made(spec: str, message: str) -> None:
    """Options that would only fail (or silently misbehave) mid-game are refused by
    make_bot, so `brass eval` and RunBatch refuse them before any game starts."""
    with pytest.raises(ValueError, match=re.escape(message)):
        make_bot(spec)


def test_checked_options_keep_their_values() -> None:
    bot = make_bot("mcts:iterations=3.0:exploration=1:rollout_policy=random:reuse_tree=false")
    assert isinstance(bot, MctsBot)
    assert (bot.iterations, bot.exploration, bot.rollout_policy, bot.reuse_tree) == (
        3, 1.0, "random", False)
    greedy = make_bot("greedy:money_vp=0.2:liquidity_money=10")
    assert greedy.evaluator.weights.money_vp == 0.2  # type: ignore[attr-defined]
    assert greedy.evaluator.weights.liquidity_money == 10  # type: ignore[attr-defined]


def test_evaluator_prefers_more_victory_points() -> None:
    game = brass.Game.new(2, seed=1)
    evaluator = PositionEvaluator()
    position = game.position()
    richer = position | {"player_state": [dict(p) for p in position["player_state"]]}
    richer["player_state"][0]["vp"] = 20
    better = brass.Game.from_position(richer)
    assert evaluator.value(better, 0) > evaluator.value(game, 0)
    assert evaluator.value(better, 1) < evaluator.value(game, 1)


def test_board_facts_are_loaded_from_the_engine_data() -> None:
    facts = board_facts()
    assert facts.tiles, "the engine's board data file was not found"
    assert facts.tile("cotton", 1).vp > 0
    assert facts.merchant_locations


def test_a_search_stops_early_once_its_game_is_abandoned() -> None:
    """Bot.stop is looked at every STOP_CHECK_ITERATIONS iterations: a batch whose client
    left frees its worker within a fraction of a decision."""
    game = brass.Game.new(4, seed=3)
    calls: list[int] = []
    bot = make_bot("mcts:iterations=400")
    bot.stop = lambda: calls.append(1) or len(calls) > 3
    assert bot.choose(game, random.Random(1)) in game.legal_ids()
    assert isinstance(bot, MctsBot) and bot.last_iterations == 3 * STOP_CHECK_ITERATIONS


def test_run_game_hands_its_stop_to_the_bots() -> None:
    seen: list[object] = []

    @register("sees-stop")
    class SeesStop(Bot):
        name = "sees-stop"

        def choose(self, game: brass.Game, rng: random.Random) -> int:
            seen.append(self.stop)
            return game.legal_ids()[0]

    def stop() -> bool:
        return len(seen) >= 4

    assert run_game(["sees-stop", "sees-stop"], 1, 0, stop=stop) is None
    assert seen == [stop] * 4


def test_mcts_reports_the_visits_of_its_last_search() -> None:
    game = advance_randomly(brass.Game.new(2, seed=7), 12, seed=3)
    legal = game.legal_ids()
    assert len(legal) > 1
    bot = make_bot("mcts:iterations=40")
    assert isinstance(bot, MctsBot)
    assert bot.visit_distribution() == {}
    choice = bot.choose(game, random.Random(4))
    assert sum(bot.last_visits.values()) == 40  # every iteration passes one root child
    assert set(bot.last_visits) <= set(legal)
    shares = bot.visit_distribution()
    assert sum(shares.values()) == pytest.approx(1.0)
    assert shares[choice] == max(shares.values())  # the move played is the most visited
