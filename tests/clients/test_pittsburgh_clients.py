"""Brass: Pittsburgh through the clients: the bots, `brass eval`, VectorEnv and the RL adapters.

Full games run on the synthetic `tiny` data file where the bots search (it keeps them fast)
and on the draft map where they do not.
"""

from __future__ import annotations

import copy
import json
import math
import random

import numpy as np
import pytest

import brass
from brass_clients import eval as evaluation
from brass_clients.bots import MctsBot, make_bot
from brass_clients.bots import mcts as mcts_module
from brass_clients.bots.greedy import (
    GreedyBot,
    card_ids,
    off_board_source_ids,
    ranked_actions,
    staged_values,
)
from brass_clients.bots.heuristic import evaluator_for
from brass_clients.bots.heuristic_pittsburgh import PittsburghEvaluator, board_facts
from brass_clients.vector import VectorEnv

from .test_cli import run

PITTSBURGH = brass.get_ruleset("pittsburgh")
TINY = {"data": "tiny"}


def _legal_mask(game: brass.Game) -> np.ndarray:
    mask = np.zeros(PITTSBURGH.num_actions, dtype=bool)
    mask[game.legal_ids()] = True
    return mask


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=6:rollout_depth=8"])
def test_each_bot_plays_a_pittsburgh_game_to_the_end(spec: str) -> None:
    bot, rng = make_bot(spec), random.Random(3)
    game = brass.Game.new(2, 5, ruleset="pittsburgh", options=TINY)
    while not game.is_over:
        legal = game.legal_ids()
        before = game.state_hash()
        choice = bot.choose(game, rng)
        assert game.state_hash() == before  # the bot looked ahead on copies only
        assert choice in legal
        game.apply(choice)
    assert game.winners() and len(game.scores()) == 2


def test_greedy_beats_random_on_pittsburgh() -> None:
    results = evaluation.run_games(["greedy", "random"], 2, seed=4, ruleset="pittsburgh",
                                   options=TINY)
    for result in results:
        greedy_seat = result.seat_entries.index(0)
        assert result.winners == [greedy_seat]
        assert result.scores[greedy_seat] >= result.scores[1 - greedy_seat] + 20


def test_greedy_reads_the_card_ids_of_the_game_it_plays() -> None:
    names = PITTSBURGH.action_names
    pittsburgh_cards = card_ids("pittsburgh")
    assert pittsburgh_cards and all(names[i].startswith("card:") for i in pittsburgh_cards)
    assert pittsburgh_cards == {i for i, n in enumerate(names) if n.startswith("card:")}
    assert pittsburgh_cards != card_ids("birmingham")


def test_mcts_cut_rollouts_use_pittsburghs_evaluator() -> None:
    bot = make_bot("mcts:iterations=5:rollout_depth=3")
    game = brass.Game.new(2, 1, ruleset="pittsburgh", options=TINY)
    bot.choose(game, random.Random(1))
    assert isinstance(bot._evaluators["pittsburgh"], PittsburghEvaluator)  # type: ignore[attr-defined]
    assert isinstance(evaluator_for("pittsburgh"), PittsburghEvaluator)
    with pytest.raises(ValueError, match="catan"):
        evaluator_for("catan")


def _view_after(decisions: int) -> dict:
    game = brass.Game.new(2, 2, ruleset="pittsburgh", options=TINY)
    game.playout(9, "sane", decisions)
    assert not game.is_over
    return game.view(None)


def test_evaluation_counts_vp_money_and_era_scorings() -> None:
    """The documented evaluation: one VP is worth one; a flipped tile of level II or more
    scores at both era ends from era 1 (P62), a level-I tile once (P63, removed after era
    1); a light train scores its endpoints' icons once (P60, P61)."""
    evaluator = PittsburghEvaluator()
    view = _view_after(20)
    assert view["era"] == 1
    base = evaluator.seat_worths(view)

    more_vp = copy.deepcopy(view)
    more_vp["players"][0]["vp"] += 10
    assert evaluator.seat_worths(more_vp)[0] == pytest.approx(base[0] + 10)
    assert evaluator.seat_worths(more_vp)[1] == pytest.approx(base[1])

    facts = board_facts("tiny")
    # a location that none of the view's links touches, so only the tile itself counts
    linked = {end for link in view["links"] for end in facts.rail_endpoints.get(link["route"], ())}
    slot = next(f"{loc}.0" for loc in ("alpha", "beta", "gamma", "delta") if loc not in linked)

    def with_tile(tile: str, flipped: bool) -> float:
        changed = copy.deepcopy(view)
        changed["spaces"] = [s for s in changed["spaces"] if s["slot"] != slot]
        changed["spaces"].append({"slot": slot, "owner": 0, "tile": tile, "flipped": flipped})
        return evaluator.seat_worths(changed)[0] - evaluator.seat_worths(
            {**changed, "spaces": [s for s in changed["spaces"] if s["slot"] != slot]})[0]

    assert with_tile("kero_3", True) == pytest.approx(2 * facts.tiles["kero_3"].vp)
    assert with_tile("coal_1", True) == pytest.approx(facts.tiles["coal_1"].vp)
    assert 0 < with_tile("kero_3", False) < with_tile("kero_3", True)


def test_evaluation_of_a_finished_game_is_its_result() -> None:
    game = brass.Game.new(2, 3, ruleset="pittsburgh", options=TINY)
    game.playout(4)
    worth = PittsburghEvaluator().seat_worths(game.view(None))
    for seat, vp in enumerate(game.scores()):
        assert worth[seat] == pytest.approx(vp, abs=1.0)
    assert max(range(2), key=lambda s: worth[s]) == game.ranking()[0]


def test_eval_reports_the_ruleset_and_its_edition() -> None:
    report = evaluation.evaluate(["random", "random"], 2, 2, seed=3, workers=1,
                                 ruleset="pittsburgh", options=TINY)
    assert report["ruleset"] == "pittsburgh"
    assert report["rules_edition"] == PITTSBURGH.rules_edition
    assert report["options"]["data"] == "tiny"
    assert report["per_bot"]["random"]["games"] == 2
    other = evaluation.evaluate(["random", "random"], 2, 2, seed=3, workers=2,
                                ruleset="pittsburgh", options=TINY)
    assert other["per_bot"] == report["per_bot"]
    birmingham = evaluation.evaluate(["random", "random"], 2, 2, seed=3, workers=1)
    assert birmingham["ruleset"] == "birmingham"
    assert birmingham["per_bot"] != report["per_bot"]


def test_brass_eval_ruleset_pittsburgh_on_the_command_line() -> None:
    report = json.loads(run("eval", "--bots", "greedy,random", "--games", "2", "--seed", "2",
                            "--workers", "1", "--ruleset", "pittsburgh", "--option",
                            "data=tiny", "--json", "--no-progress"))
    assert (report["ruleset"], report["rules_edition"]) == ("pittsburgh", 2)
    assert report["per_bot"]["greedy"]["wins"] == 2
    table = run("eval", "--bots", "random", "--players", "2", "--games", "1", "--workers", "1",
                "--ruleset", "pittsburgh", "--no-progress")
    assert "pittsburgh (rules edition 2)" in table


def test_brass_eval_refuses_an_option_the_ruleset_lacks() -> None:
    from click.testing import CliRunner

    from brass_clients import cli

    for option in ("data=huge", "beginner=true", "data"):
        result = CliRunner().invoke(cli.main, ["eval", "--bots", "random", "--players", "2",
                                               "--ruleset", "pittsburgh", "--option", option])
        assert result.exit_code == 2, result.output
        assert "--option" in result.output


def test_vector_env_plays_pittsburgh_games_with_the_engines_masks() -> None:
    env = VectorEnv(n=3, players=4, seed=1, ruleset="pittsburgh")
    assert env.observations.shape == (3, PITTSBURGH.observation_size)
    assert env.masks.shape == (3, PITTSBURGH.num_actions)
    rng = np.random.default_rng(2)
    steps = 0
    while env.episodes_done < 3:
        for i, game in enumerate(env.games):
            assert np.array_equal(env.masks[i], _legal_mask(game))
            assert env.acting_seats[i] == game.current_seat
            assert np.array_equal(env.observations[i], game.observation(game.current_seat))
        _, _, rewards, dones = env.step(env.sample_actions(rng))
        for i in np.flatnonzero(dones):
            assert rewards[i].sum() == pytest.approx(0.0, abs=1e-6)
        steps += 1
        assert steps < 5000
    assert steps > 300  # a random 4-player Pittsburgh game is ~440 decisions


def test_pettingzoo_plays_a_full_pittsburgh_game() -> None:
    pytest.importorskip("pettingzoo", reason="optional extra 'rl' (pettingzoo) not installed")
    from pettingzoo.test import api_test

    from brass_clients.rl.pettingzoo_env import env

    environment = env(players=4, ruleset="pittsburgh")
    environment.reset(seed=6)
    rng = np.random.default_rng(6)
    game = environment.unwrapped.game
    assert game.ruleset == "pittsburgh"
    for _agent in environment.agent_iter(max_iter=5000):
        observation, _, terminated, truncated, _ = environment.last()
        assert observation["observation"].shape == (PITTSBURGH.observation_size,)
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.shape == (PITTSBURGH.num_actions,)
        assert np.array_equal(mask.astype(bool), _legal_mask(game))
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    assert game.is_over and not environment.agents
    api_test(env(players=2, ruleset="pittsburgh"), num_cycles=200, verbose_progress=False)


def test_openspiel_plays_a_full_pittsburgh_game() -> None:
    pyspiel = pytest.importorskip("pyspiel",
                                  reason="optional extra 'rl' (open-spiel) not installed")
    import brass_clients.rl.openspiel_game  # noqa: F401  (registers python_brass)

    game = pyspiel.load_game("python_brass", {"players": 4, "ruleset": "pittsburgh",
                                              "num_deals": 10})
    assert game.num_distinct_actions() == PITTSBURGH.num_actions
    assert game.observation_tensor_size() == PITTSBURGH.observation_size
    birmingham = pyspiel.load_game("python_brass", {"players": 4})
    assert birmingham.num_distinct_actions() == brass.get_ruleset("birmingham").num_actions
    state = game.new_initial_state()
    state.apply_action(3)
    engine = state.engine_game
    assert engine.ruleset == "pittsburgh" and engine.replay_record()["seed"] == 3
    rng = random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(state.engine_game.legal_ids())
        tensor = np.array(state.observation_tensor(state.current_player()))
        assert np.array_equal(tensor, state.engine_game.observation(state.current_player()))
        state.apply_action(rng.choice(legal))
    assert sum(state.returns()) == pytest.approx(0.0)
    tiny = pyspiel.load_game("python_brass", {"players": 2, "ruleset": "pittsburgh",
                                              "options": json.dumps(TINY), "num_deals": 5})
    pyspiel.random_sim_test(tiny, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(Exception, match="data"):
        pyspiel.load_game("python_brass", {"ruleset": "pittsburgh",
                                           "options": '{"data": "huge"}'})


def _action_start(seed: int, decisions: int) -> brass.Game:
    """A tiny-map Pittsburgh position at the start of an action with a choice to make."""
    game = brass.Game.new(2, seed, ruleset="pittsburgh", options=TINY)
    game.playout(seed, "sane", decisions)
    while game.decision != "action" or len(game.legal_ids()) < 2:
        game.apply(game.legal_ids()[0])
    assert not game.is_over
    return game


def _play_one_action(bot: MctsBot, game: brass.Game, rng: random.Random) -> tuple[int, ...]:
    """The ids `bot` plays from an action start to the next action start."""
    seat, ids = game.current_seat, []
    game = game.clone()
    while True:
        ids.append(bot.choose(game, rng))
        game.apply(ids[-1])
        if game.is_over or game.decision == "action" or game.current_seat != seat:
            return tuple(ids)


def test_pittsburgh_mcts_defaults_to_whole_action_search_scored_by_the_evaluator() -> None:
    bot = make_bot("mcts")
    assert isinstance(bot, MctsBot)
    assert bot.leaf_mode("pittsburgh") == "action" and bot.candidates_for("pittsburgh") == 8
    # Birmingham keeps its measured search: rollouts in C, one tree of decision ids
    assert bot.leaf_mode("birmingham") == "playout" and bot.candidates_for("birmingham") == 0
    forced = make_bot("mcts:leaf=playout:root_candidates=0")
    assert forced.leaf_mode("pittsburgh") == "playout"  # type: ignore[attr-defined]
    assert forced.candidates_for("pittsburgh") == 0  # type: ignore[attr-defined]


def test_pittsburgh_mcts_plays_no_random_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random play in Pittsburgh ends far below zero VP: its leaves are scored by the
    evaluator after the action in progress, never by a playout."""
    def no_playout(*args: object, **kwargs: object) -> int:
        raise AssertionError("a Pittsburgh leaf was played out")

    game = _action_start(3, 20)
    monkeypatch.setattr(brass.Game, "playout", no_playout)
    bot = make_bot("mcts:iterations=40")
    assert isinstance(bot, MctsBot)
    ids = _play_one_action(bot, game, random.Random(2))
    assert ids[0] in game.legal_ids()


def test_pittsburgh_mcts_leaf_reward_is_the_evaluators_and_ranks_more_vp_higher() -> None:
    game = _action_start(4, 16)
    bot = make_bot("mcts")
    assert isinstance(bot, MctsBot)
    position = game.position()
    position["players"] = [dict(p) for p in position["players"]]
    position["players"][0]["vp"] += 20
    richer = brass.Game.from_position(position)
    evaluator = PittsburghEvaluator()
    plain, rich = bot._rollout(game.clone(), random.Random(1)), bot._rollout(
        richer, random.Random(1))
    assert plain == pytest.approx([1 / (1 + math.exp(-v / 15)) for v in evaluator.values(game)])
    assert rich[0] > plain[0] and rich[1] < plain[1]


def test_pittsburgh_mcts_without_iterations_plays_the_evaluators_best_whole_action() -> None:
    game = _action_start(5, 24)
    seat = game.current_seat
    assert seat is not None
    ranked = ranked_actions(game, seat, PittsburghEvaluator(), 8)
    assert len(ranked) > 1 and ranked[0][0] >= ranked[-1][0]
    bot = make_bot("mcts:iterations=0")
    assert isinstance(bot, MctsBot)
    assert _play_one_action(bot, game, random.Random(1)) == ranked[0][1]


def test_pittsburgh_mcts_searches_among_the_ranked_actions_and_reports_its_visits() -> None:
    game = _action_start(6, 30)
    seat = game.current_seat
    assert seat is not None
    ranked = ranked_actions(game, seat, PittsburghEvaluator(), 8)
    bot = make_bot("mcts:iterations=40")
    assert isinstance(bot, MctsBot)
    bot.choose(game, random.Random(3))
    assert bot.last_iterations == 40
    assert sum(bot.last_visits.values()) == 40
    assert set(bot.last_visits) <= {ids[0] for _value, ids in ranked}
    assert sum(bot.visit_distribution().values()) == pytest.approx(1.0)
    played = _play_one_action(make_bot("mcts:iterations=40"), game,  # type: ignore[arg-type]
                              random.Random(3))
    assert played in {ids for _value, ids in ranked}


def test_ranked_actions_value_each_action_group_by_its_best_source_and_card() -> None:
    """Actions differing only in their cards and off-board cube sources are one group,
    scored once; each ranked action is its group's best source variant, then best card."""
    game = _action_start(7, 40)
    seat = game.current_seat
    assert seat is not None
    evaluator = PittsburghEvaluator()
    lists, _ = game.compound_ids()
    ranked = ranked_actions(game, seat, evaluator, 5)
    cards, off_board = card_ids("pittsburgh"), off_board_source_ids("pittsburgh")
    assert off_board and not off_board & cards

    def coarse(ids: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(i for i in ids if i not in cards and i not in off_board)

    assert len({coarse(ids) for _value, ids in ranked}) == len(ranked)  # one per group
    for value, ids in ranked:
        assert value == pytest.approx(GreedyBot._score(game, ids, seat, evaluator))
        same_board = [other for other in lists
                      if tuple(i for i in other if i not in cards)
                      == tuple(i for i in ids if i not in cards)]
        assert ids in same_board and value == pytest.approx(
            max(GreedyBot._score(game, other, seat, evaluator) for other in same_board))


def test_pittsburgh_mcts_searches_first_ids_when_a_turn_lists_too_many_actions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ROOT_ACTIONS_LIMIT listed actions the search's candidates are first ids by
    greedy's staged scoring, and each later decision of the action is searched again."""
    game = _action_start(6, 30)
    listed, truncated = game.compound_ids()
    assert not truncated
    monkeypatch.setattr(mcts_module, "ROOT_ACTIONS_LIMIT", len(listed) - 1)
    staged_calls = []

    def staged(*args: object, **kwargs: object) -> list[tuple[float, int]]:
        staged_calls.append(args[1])
        return staged_values(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(mcts_module, "staged_values", staged)
    bot = make_bot("mcts:iterations=12")
    assert isinstance(bot, MctsBot)
    rng = random.Random(5)
    first = bot.choose(game, rng)
    assert staged_calls == [game.legal_ids()] and first in game.legal_ids()
    assert set(bot.last_visits) <= set(game.legal_ids()) and len(bot.last_visits) > 1
    assert sum(bot.last_visits.values()) == 12
    played = _play_one_action(bot, game, rng)  # searched id by id to the action's end
    assert len(played) > 1 and played in set(listed)
