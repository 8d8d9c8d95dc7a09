"""The value network (shipped weights, inference, training) and the `expert` bot."""

from __future__ import annotations

import random

import numpy as np
import pytest

import brass
from brass_clients.bots import expert, make_bot
from brass_clients.bots.expert import WORK_BY_RULESET, ExpertBot
from brass_clients.bots.heuristic import evaluator_for
from brass_clients.bots.mcts import final_rewards
from brass_clients.bots.value_net import (
    LAYER_KEYS,
    USED_ENTRIES,
    ValueNet,
    shipped_net,
    weights_path,
)
from brass_clients.eval import evaluate, run_game
from brass_clients.train_value import gradients, init_layers, run, target_rewards
from brass_clients.vector import outcome_rewards

from .conftest import advance_randomly

RULESETS = ("birmingham", "pittsburgh")
FAST = "expert:iterations=3:candidates=3"


def _reference_value(net: ValueNet, game: brass.Game, seat: int) -> float:
    """The network computed neuron by neuron in float64, independently of numpy's matmul,
    on the documented input: the observation's used entries and the evaluator's value / 20."""
    layers = {key: net.layers[key].astype(np.float64) for key in LAYER_KEYS}
    used = USED_ENTRIES[game.ruleset]
    heuristic = evaluator_for(game.ruleset).value(game, seat)
    x = np.append(game.observation(seat)[:used].astype(np.float64), heuristic / 20.0)
    assert game.observation(seat)[used:].tolist() == [0.0] * (game.observation_size - used)
    h1 = [max(0.0, float(np.dot(x, layers["w1"][:, j])) + layers["b1"][j])
          for j in range(layers["w1"].shape[1])]
    h2 = [max(0.0, float(np.dot(h1, layers["w2"][:, j])) + layers["b2"][j])
          for j in range(layers["w2"].shape[1])]
    z = float(np.dot(x, layers["w0"][:, 0])) + float(np.dot(h2, layers["w3"][:, 0])) \
        + layers["b3"][0]
    return 1.0 / (1.0 + np.exp(-z))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shipped_network_loads_and_matches_a_reference_computation(ruleset: str) -> None:
    path = weights_path(ruleset)
    assert path.stat().st_size <= 5 * 1024 * 1024
    net = shipped_net(ruleset)
    assert net.ruleset == ruleset and net.inputs == USED_ENTRIES[ruleset] + 1
    assert net.meta["positions"] > 0 and net.meta["target"] == "mcts.final_rewards"
    game = advance_randomly(brass.Game.new(3, seed=2, ruleset=ruleset), 40, seed=1)
    values = net.values(game)
    assert len(values) == 3 and all(0.0 < v < 1.0 for v in values)
    for seat in range(3):
        assert values[seat] == pytest.approx(_reference_value(net, game, seat), abs=1e-5)
        assert net.value(game, seat) == pytest.approx(values[seat], abs=1e-6)
        # only what the seat may see: a re-deal of the rest changes nothing
        twin = game.determinize(seat, 77)
        assert net.values(twin)[seat] == pytest.approx(values[seat], abs=1e-6)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_training_targets_are_mcts_final_rewards(players: int) -> None:
    for seed in range(4):
        game = brass.Game.new(players, seed=seed)
        game.playout(seed, "sane")
        expected = final_rewards(game)
        got = target_rewards(np.array(outcome_rewards(game)), np.array(game.scores()))
        assert got == pytest.approx(expected, abs=1e-9)


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(0)
    layers = {k: v.astype(np.float64) for k, v in init_layers(5, (4, 3), rng).items()}
    for key in ("b1", "b2", "b3"):  # off zero: no unit sits on its ReLU's kink
        layers[key] = rng.uniform(0.1, 0.3, layers[key].shape)
    x = rng.standard_normal((7, 5))
    y = rng.uniform(0, 1, 7)
    _, grads = gradients(layers, x, y)
    for key in LAYER_KEYS:
        flat = layers[key].reshape(-1)
        for k in range(min(flat.size, 6)):
            saved = flat[k]
            flat[k] = saved + 1e-6
            up, _ = gradients(layers, x, y)
            flat[k] = saved - 1e-6
            down, _ = gradients(layers, x, y)
            flat[k] = saved
            assert grads[key].reshape(-1)[k] == pytest.approx((up - down) / 2e-6, abs=1e-5)


def test_a_tiny_training_run_is_reproducible_from_its_seed(tmp_path) -> None:  # noqa: ANN001
    def train(out: str) -> ValueNet:
        return run("birmingham", 4, [(2, 2)], tmp_path / out, tmp_path / "data",
                   hidden=(8, 4), epochs=2, log=lambda _line: None)

    first, second = train("a.npz"), train("b.npz")
    for key in LAYER_KEYS:
        assert np.array_equal(first.layers[key], second.layers[key])
    loaded = ValueNet.load(tmp_path / "a.npz")
    assert loaded.meta["games"] == {"2": 2} and loaded.meta["hidden"] == [8, 4]
    game = brass.Game.new(2, seed=9)
    assert loaded.values(game) == first.values(game)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players,depth", [(2, 0), (3, 30), (4, 90)])
def test_expert_returns_a_legal_id_and_reports_its_visits(ruleset: str, players: int,
                                                         depth: int) -> None:
    game = advance_randomly(brass.Game.new(players, seed=5, ruleset=ruleset), depth, seed=3)
    while len(game.legal_ids()) == 1:
        game.apply(game.legal_ids()[0])
    before = game.state_hash()
    bot = make_bot(FAST)
    choice = bot.choose(game, random.Random(2))
    assert choice in game.legal_ids() and game.state_hash() == before
    shares = bot.visit_distribution()
    if bot.last_iterations:
        assert sum(shares.values()) == pytest.approx(1.0)
        assert set(shares) <= set(game.legal_ids()) and choice in shares


def test_expert_plays_whole_games_reproducibly_through_eval() -> None:
    spec = "expert:iterations=3:candidates=2:depth=0"
    report = evaluate([spec, "greedy"], players=2, games=1, seed=3, workers=1)
    assert report["per_bot"][spec]["games"] == 1
    assert report["timing"]["per_bot"][spec]["decisions"] > 0
    first, _, _ = run_game([spec, "greedy"], 3, 0)
    again, _, _ = run_game([spec, "greedy"], 3, 0)
    assert first.replay_record() == again.replay_record()
    assert first.scores()[0] == report["per_bot"][spec]["vp_mean"]


def test_a_decision_with_too_many_actions_is_made_id_by_id() -> None:
    game = brass.Game.new(2, seed=8, ruleset="pittsburgh")
    bot = ExpertBot(root_limit=1, evaluations=8)
    rng = random.Random(1)
    for _ in range(12):
        legal = game.legal_ids()
        choice = bot.choose(game, rng)
        assert choice in legal
        game.apply(choice)
    assert bot.visit_distribution() == {}


def test_a_decision_scores_no_more_positions_than_its_work_bound() -> None:
    # Pittsburgh's opening lists 8,611 whole actions (796 groups by board and source):
    # searched whole here (root_limit), its ranking and its replies are paid from `work`.
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    listed, truncated = game.compound_ids(limit=20000)
    assert len(listed) == 8611 and not truncated
    bounded = ExpertBot(root_limit=20000, work=2000)
    choice = bounded.choose(game, random.Random(1))
    assert choice in game.legal_ids()
    assert 796 < bounded.last_scored <= 2000
    assert 0 < bounded.last_iterations < bounded.iterations  # the bound stopped the search
    again = ExpertBot(root_limit=20000, work=2000)  # counted, not timed: the same decision
    assert again.choose(game, random.Random(1)) == choice
    assert again.last_scored == bounded.last_scored


def test_the_default_work_bound_holds_on_a_huge_pittsburgh_turn() -> None:
    # 8,611 whole actions, under the default root_limit: searched whole, within the bound.
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    bot = ExpertBot()
    choice = bot.choose(game, random.Random(1))
    assert 0 < bot.last_scored <= WORK_BY_RULESET["pittsburgh"]
    assert bot.last_iterations > 0 and choice in bot.visit_distribution()
    staged = ExpertBot(root_limit=4000)  # past root_limit: id by id, `evaluations` rows
    staged.choose(game, random.Random(1))  # (and the listing of the first 4,000)
    assert 0 < staged.last_scored <= 256 + 4000 // expert.LISTED_PER_POSITION
    assert staged.last_iterations == 0


def test_listed_actions_are_paid_from_the_work_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")  # 8,611 whole actions listed

    def scored(iterations: int) -> int:
        bot = ExpertBot(iterations=iterations, work=0)
        bot.choose(game, random.Random(1))
        return bot.last_scored

    charged = {iterations: scored(iterations) for iterations in (0, 2)}
    root = 8611 // expert.LISTED_PER_POSITION
    monkeypatch.setattr(expert, "LISTED_PER_POSITION", 10**9)  # listing free
    free = {iterations: scored(iterations) for iterations in (0, 2)}
    assert charged[0] - free[0] == root  # the root's listing, no reply searched
    assert charged[2] - free[2] > root  # and each reply's listing


def test_more_groups_than_half_the_work_are_decided_id_by_id() -> None:
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    bot = ExpertBot(root_limit=20000, work=1000, evaluations=64)  # 796 groups > 500
    assert bot.choose(game, random.Random(1)) in game.legal_ids()
    assert 0 < bot.last_scored <= 64 + 8611 // expert.LISTED_PER_POSITION
    assert bot.visit_distribution() == {}


def test_a_time_budget_replaces_the_iteration_budget() -> None:
    game = brass.Game.new(2, seed=6)
    bot = ExpertBot(iterations=1, ms=400.0, candidates=2)
    bot.choose(game, random.Random(1))
    assert bot.last_iterations > 1


def test_a_hard_deadline_cuts_the_search_and_still_plays_a_legal_action() -> None:
    # Pittsburgh's opening (8,611 whole actions): a 1 ms cap stops the ranking and the
    # search inside them (no iteration finishes), and the rest of the chosen action is
    # played from memory, legal id by legal id.
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    full = ExpertBot()
    full.choose(game, random.Random(1))
    capped = ExpertBot(max_ms=1.0)
    rng = random.Random(1)
    choice = capped.choose(game, rng)
    assert choice in game.legal_ids()
    assert capped.last_iterations == 0 and 0 < capped.last_scored < full.last_scored
    seat = game.current_seat
    game.apply(choice)
    while game.current_seat == seat and game.decision != "action":
        follow = capped.choose(game, rng)
        assert follow in game.legal_ids()
        game.apply(follow)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_deadline_that_does_not_come_changes_no_decision(ruleset: str) -> None:
    game = advance_randomly(brass.Game.new(2, seed=3, ruleset=ruleset), 30, seed=2)
    plain, capped = ExpertBot(iterations=6), ExpertBot(iterations=6, max_ms=3_600_000)
    assert plain.choose(game, random.Random(4)) == capped.choose(game, random.Random(4))
    assert (plain.last_scored, plain.last_iterations, plain.last_visits) == \
        (capped.last_scored, capped.last_iterations, capped.last_visits)


def test_a_hard_deadline_also_bounds_a_time_budget() -> None:
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    bot = ExpertBot(ms=3_600_000, max_ms=1.0)  # the hour is never reached: the cap is
    assert bot.choose(game, random.Random(1)) in game.legal_ids()
    assert bot.last_iterations <= 1


@pytest.mark.parametrize("spec,message", [
    ("expert:iterations=2.5", "iterations must be an integer"),
    ("expert:ms=-1", "ms must be from 0"),
    ("expert:ms=nan", "ms must be a number"),
    ("expert:candidates=0", "candidates must be from 1"),
    ("expert:depth=99", "depth must be from 0 to 16"),
    ("expert:root_limit=0", "root_limit must be from 1"),
    ("expert:work=-2", "work must be from -1"),
    ("expert:max_ms=-1", "max_ms must be from 0"),
    ("expert:speed=3", "unexpected keyword"),
])
def test_bad_expert_options_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_expert_is_an_opponent_in_the_pettingzoo_environment() -> None:
    pytest.importorskip("pettingzoo", reason="optional extra 'rl' (pettingzoo) not installed")
    from brass_clients.rl.opponents import BotOpponent
    from brass_clients.rl.pettingzoo_env import env

    environment = env(players=2)
    environment.reset(seed=3)
    opponent = BotOpponent("expert:iterations=2:candidates=2:depth=0", seed=1)
    rng = np.random.default_rng(0)
    moves = 0
    for agent in environment.agent_iter():
        _observation, _reward, done, _truncated, _info = environment.last()
        if done:
            environment.step(None)
            continue
        if agent == "player_1":
            action = opponent.act(environment.unwrapped.game)
        else:
            action = int(rng.choice(np.flatnonzero(environment.observe(agent)["action_mask"])))
        environment.step(action)
        moves += 1
    game = environment.unwrapped.game
    assert game.is_over and moves == game.version
    assert game.scores()[1] > game.scores()[0]  # the bot beats random play


def test_expert_is_an_opponent_on_an_openspiel_state() -> None:
    pyspiel = pytest.importorskip("pyspiel",
                                  reason="optional extra 'rl' (open-spiel) not installed")
    import brass_clients.rl.openspiel_game  # noqa: F401  (registers python_brass)
    from brass_clients.rl.opponents import BotOpponent

    state = pyspiel.load_game("python_brass", {"players": 2, "num_deals": 10}).new_initial_state()
    state.apply_action(4)  # the deal
    opponent = BotOpponent("expert:iterations=2:candidates=2", seed=2)
    action = opponent.act(state.engine_game)
    assert action in state.legal_actions()
    with pytest.raises(ValueError, match="no decision"):
        opponent.act(None)


def test_selfplay_datasets_of_expert_keep_its_visit_distributions(tmp_path) -> None:  # noqa: ANN001
    from brass_clients.dataset import load, write_dataset

    write_dataset(tmp_path, bot="expert:iterations=3:candidates=2:depth=0", games=1, players=2,
                  seed=2)
    data = load(tmp_path)
    searched = data.has_visits
    assert searched.any() and not searched.all()  # planned ids of chosen actions: none
    assert np.allclose(data.visits[searched].sum(axis=1), 1.0)
    rows = np.flatnonzero(searched)
    assert (data.visits[rows, data.actions[rows]] > 0).all()  # the move was visited
