"""One-step greedy: try every complete action on a copy, keep the best-scoring one."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

import brass
from brass.grouping import Grouping, group_actions, listed_groups
from brass.playouts import greedy_playouts
from brass_clients.bots.base import Bot, number_option, register
from brass_clients.bots.heuristic import Evaluator, checked_weights, evaluator_for

# The core lists compound actions into an int-sized count.
MAX_CANDIDATES = (1 << 31) - 1
# `evaluations` by ruleset (option -1): Pittsburgh's large turns list 20,000+ whole actions
# (two rails, each with its sources), 0.15 ms each to score; past this many the bot decides
# id by id (docs/BOTS.md). Birmingham's lists are scored whole, as before.
EVALUATIONS_BY_RULESET = {"pittsburgh": 200}
MAX_EVALUATIONS = 1 << 20
# Groups valued in one core call (`values_after`), and between looks at the clock.
SCORED_TOGETHER = 64


def finish_action(world: brass.Game, rng: random.Random) -> None:
    """Play the rest of the action in progress with random ids (none when it is about to
    start): the evaluator then scores a whole action, not half of one."""
    while not world.is_over and world.decision != "action":
        world.apply(rng.choice(world.legal_ids()))


@lru_cache(maxsize=8)
def card_ids(ruleset: str) -> frozenset[int]:
    """The ids that discard a card, in `ruleset`'s action space."""
    return frozenset(i for i, name in enumerate(brass.get_ruleset(ruleset).action_names)
                     if name.startswith("card:"))


def board_groups(ruleset: str, actions: Sequence[tuple[int, ...]],
                 ) -> list[list[tuple[int, ...]]]:
    """The actions grouped by what they do on the board (their ids without the cards
    discarded), in listing order, grouped by the core (`brass.grouping`): the evaluator
    does not look at hands, so actions that differ only in their cards mostly score alike
    and are evaluated once per group (then every variant of the best groups, as a card can
    cost something: whiskey in a Pittsburgh build its card does not allow)."""
    group, first = group_actions(actions, _id_drops(ruleset)[1], brass.get_ruleset(ruleset))
    groups: list[list[tuple[int, ...]]] = [[] for _ in first]
    for ids, board in zip(actions, group, strict=True):
        groups[board].append(ids)
    return groups


def plan_of(game: brass.Game, ids: tuple[int, ...]) -> dict[int, int]:
    """The rest of a chosen whole action, by the state hash each later id is played at."""
    plan = {}
    walk = game.clone()
    for this_id, next_id in zip(ids, ids[1:], strict=False):
        walk.apply(this_id)
        plan[walk.state_hash()] = next_id
    return plan


@lru_cache(maxsize=8)
def off_board_source_ids(ruleset: str) -> frozenset[int]:
    """The ids that take a cube from off the board (a market; Pittsburgh's Vanderbilt)."""
    return frozenset(i for i, name in enumerate(brass.get_ruleset(ruleset).action_names)
                     if name in ("market", "vanderbilt") or name.startswith("market:"))


# A group's source variants (numbered by first appearance) -> each one's card variants.
SourceGroup = dict[int, list[tuple[int, ...]]]


def source_groups(ruleset: str, actions: Sequence[tuple[int, ...]]) -> list[SourceGroup]:
    """The actions grouped by what they do on the board apart from where off-board cubes
    come from (their ids without cards and market/Vanderbilt sources), in listing order;
    each group maps its source variants (the ids without cards, as `board_groups`) to their card
    variants. The core groups them (`brass.grouping`)."""
    board_drop, card_drop = _id_drops(ruleset)
    rs = brass.get_ruleset(ruleset)
    return _assembled(actions, group_actions(actions, board_drop, rs),
                      group_actions(actions, card_drop, rs))


def listed_source_groups(game: brass.Game, limit: int
                         ) -> tuple[list[tuple[int, ...]], bool, list[SourceGroup]]:
    """`game.compound_ids(limit)` and `source_groups` of its actions, in one listing."""
    listed, truncated, (by_board, by_cards) = listed_groups(game, limit,
                                                            _id_drops(game.ruleset))
    return listed, truncated, _assembled(listed, by_board, by_cards)


def group_firsts(game: brass.Game, limit: int) -> tuple[list[tuple[int, ...]], int]:
    """The first action of each of `source_groups` (what a greedy actor scores) of the
    first `limit` actions listed, and how many were listed."""
    listed, _truncated, [(_group, first)] = listed_groups(game, limit,
                                                          _id_drops(game.ruleset)[:1])
    return [listed[k] for k in first], len(listed)


def _assembled(actions: Sequence[tuple[int, ...]], by_board: Grouping,
               by_cards: Grouping) -> list[SourceGroup]:
    group, first = by_board
    groups: list[SourceGroup] = [{} for _ in first]
    for ids, board, variant in zip(actions, group, by_cards[0], strict=True):
        groups[board].setdefault(variant, []).append(ids)
    return groups


@lru_cache(maxsize=8)
def _id_drops(ruleset: str) -> tuple[bytes, bytes]:
    """By id, what a group leaves out: 1 for a card (`card_ids`) or an off-board source
    (`off_board_source_ids`); 1 for a card only (the source variants)."""
    cards, off_board = card_ids(ruleset), off_board_source_ids(ruleset)
    n = brass.get_ruleset(ruleset).num_actions
    return (bytes(i in cards or i in off_board for i in range(n)),
            bytes(i in cards for i in range(n)))


def ranked_actions(game: brass.Game, seat: int, evaluator: Evaluator, top: int,
                   max_candidates: int = 20000,
                   stop: Callable[[], bool] | None = None,
                   candidates: list[tuple[int, ...]] | None = None,
                   ) -> list[tuple[float, tuple[int, ...]]]:
    """The `top` best complete actions from the current decision by the static evaluator,
    best first, as (value for `seat`, ids). Empty when nothing complete is listed.
    `candidates`: the actions' ids already listed (else the first `max_candidates` are).

    Actions are ranked by group, one evaluation each: a group is the actions that differ
    only in their cards and in where off-board cubes come from (a Pittsburgh network of two
    rails lists each pair of rails with every source of its coal and steel: 45,000 actions
    in 1,000 groups). Each of the `top` groups is then worth its best action: its source
    variants scored, then the card variants of the best one (a card can cost something: a
    Pittsburgh whiskey)."""
    if candidates is None:
        _listed, _truncated, groups = listed_source_groups(game, max_candidates)
    else:
        groups = source_groups(game.ruleset, candidates)
    scored: list[tuple[float, int, SourceGroup]] = []
    for start in range(0, len(groups), SCORED_TOGETHER):
        if start > 0 and stop is not None and stop():
            break
        chunk = groups[start:start + SCORED_TOGETHER]
        values = evaluator.values_after(
            game, [next(iter(variants.values()))[0] for variants in chunk])
        scored.extend((row[seat], start + k, variants)
                      for k, (row, variants) in enumerate(zip(values, chunk, strict=True)))
    scored.sort(key=lambda entry: -entry[0])
    ranked = [_best_variant(game, seat, evaluator, value, variants)
              for value, _, variants in scored[:top]]
    ranked.sort(key=lambda entry: -entry[0])
    return ranked


def _best_variant(game: brass.Game, seat: int, evaluator: Evaluator, first_value: float,
                  variants: SourceGroup,
                  ) -> tuple[float, tuple[int, ...]]:
    """The best action of a ranked group: its best source variant, then that variant's best
    card (`first_value` is the score of the group's first action)."""
    lists = list(variants.values())
    best_value, best = first_value, lists[0]
    others = evaluator.values_after(game, [same_board[0] for same_board in lists[1:]])
    for row, same_board in zip(others, lists[1:], strict=True):
        if row[seat] > best_value:
            best_value, best = row[seat], same_board
    if len(best) == 1:
        return best_value, best[0]
    cards = evaluator.values_after(game, best)
    return max(((row[seat], ids) for row, ids in zip(cards, best, strict=True)),
               key=lambda entry: entry[0])


def staged_values(game: brass.Game, legal: list[int], seat: int, rng: random.Random,
                  evaluator: Evaluator, budget: int,
                  stop: Callable[[], bool] | None = None) -> list[tuple[float, int]]:
    """(value, id) for the legal ids of a large action: each id is worth the best of a few
    random completions of the action after it, scored by the evaluator (`budget`
    evaluations shared among the ids). The next decision of the action is judged again,
    and once its whole actions fit in the budget they are scored whole."""
    per_id = max(1, budget // len(legal))
    scored = []
    for checked, option in enumerate(legal):
        if checked % 16 == 15 and stop is not None and stop():
            break  # the game is abandoned: what is scored so far will do
        after = game.clone()
        after.apply(option)
        value = float("-inf")
        for _ in range(per_id):
            trial = after.clone()
            finish_action(trial, rng)
            value = max(value, evaluator.value(trial, seat))
        scored.append((value, option))
    return scored


@register("greedy")
class GreedyBot(Bot):
    """Scores each complete compound action from the current decision with the static
    evaluator of the game's ruleset (`heuristic.evaluator_for`: Birmingham's
    `PositionEvaluator`, Pittsburgh's `PittsburghEvaluator`; the acting seat's worth minus
    its opponents') and plays the best.

    The chosen action's later decisions are remembered, so an action of five decisions
    is searched once. Ties are broken by `rng`.
    """

    name = "greedy"

    def __init__(self, max_candidates: int = 20000, evaluations: int = -1,
                 **weights: float) -> None:
        """`weights`: overrides of `HeuristicWeights` fields, e.g. ``money_vp=0.2``.
        `evaluations`: past this many whole actions a decision is made id by id with this
        many evaluations (0: never; -1: by ruleset, `EVALUATIONS_BY_RULESET`)."""
        self.weights = checked_weights(self.name, weights)
        self._evaluators: dict[str, Evaluator] = {}
        self.max_candidates = number_option(self.name, "max_candidates", max_candidates,
                                            integer=True, minimum=1, maximum=MAX_CANDIDATES)
        self.evaluations = number_option(self.name, "evaluations", evaluations, integer=True,
                                         minimum=-1, maximum=MAX_EVALUATIONS)
        self._plan: dict[int, int] = {}  # state hash -> next id of the chosen action

    @property
    def evaluator(self) -> Evaluator:
        """Birmingham's evaluator with this bot's weights."""
        return self.evaluator_of("birmingham")

    def evaluator_of(self, ruleset: str) -> Evaluator:
        evaluator = self._evaluators.get(ruleset)
        if evaluator is None:
            evaluator = self._evaluators[ruleset] = evaluator_for(ruleset, self.weights)
        return evaluator

    def reset(self) -> None:
        self._plan.clear()

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        planned = self._plan.pop(game.state_hash(), None)
        if planned is not None:
            return planned
        self._plan.clear()
        seat = game.current_seat
        assert seat is not None, "the game is over"
        legal = game.legal_ids()
        if len(legal) == 1:
            return legal[0]
        evaluator = self.evaluator_of(game.ruleset)
        budget = self.budget(game.ruleset)
        limit = self.listing_limit(game.ruleset)
        candidates, truncated = game.compound_actions(limit=limit)
        if budget and truncated:  # too many whole actions to score: this id first
            return self._staged(game, legal, seat, rng, evaluator, budget)
        if not candidates:  # nothing complete is listed: judge single decisions instead
            return self._best_single(game, legal, seat, rng, evaluator)
        best_value, best = float("-inf"), []
        groups = board_groups(game.ruleset, [compound.ids for compound in candidates])
        for checked, variants in enumerate(groups):
            if checked % 64 == 63 and self.stop is not None and self.stop():
                break  # the game is abandoned: the best so far will do
            value = self._score(game, variants[0], seat, evaluator)
            if value > best_value + 1e-9:
                best_value, best = value, list(variants)
            elif abs(value - best_value) <= 1e-9:
                best.extend(variants)
        if len(best) > 1:  # the variants of the best groups, each scored
            scored = [(self._score(game, ids, seat, evaluator), ids) for ids in best]
            top = max(value for value, _ in scored)
            best = [ids for value, ids in scored if value >= top - 1e-9]
        ids = rng.choice(best)
        self._remember(game, ids)
        return ids[0]

    def listing_limit(self, ruleset: str) -> int:
        """Whole actions listed a decision: past the budget's evaluations it is staged."""
        budget = self.budget(ruleset)
        return min(self.max_candidates, budget) if budget else self.max_candidates

    def budget(self, ruleset: str) -> int:
        """Evaluations past which a decision is staged (0: never)."""
        if self.evaluations >= 0:
            return self.evaluations
        return EVALUATIONS_BY_RULESET.get(ruleset, 0)

    def _staged(self, game: brass.Game, legal: list[int], seat: int, rng: random.Random,
                evaluator: Evaluator, budget: int) -> int:
        """One id of a large action, the best by `staged_values`."""
        scored = staged_values(game, legal, seat, rng, evaluator, budget, self.stop)
        top = max(value for value, _ in scored)
        return rng.choice([option for value, option in scored if value >= top - 1e-9])

    def _remember(self, game: brass.Game, ids: tuple[int, ...]) -> None:
        self._plan.update(plan_of(game, ids))

    @staticmethod
    def _score(game: brass.Game, ids: tuple[int, ...], seat: int, evaluator: Evaluator) -> float:
        trial = game.clone()
        trial.apply_compound(ids, events=False)
        return evaluator.value(trial, seat)

    def _best_single(self, game: brass.Game, legal: list[int], seat: int,
                     rng: random.Random, evaluator: Evaluator) -> int:
        scored = []
        for option in legal:
            trial = game.clone()
            trial.apply(option)
            scored.append((evaluator.value(trial, seat), rng.random(), option))
        return max(scored)[2]


class GreedyPlayout:
    """greedy's choice made inside C for whole games at a time (`brass.playouts.
    greedy_playouts`: the same groups, staging and evaluator, ties drawn by the core's own
    random numbers), with a chance `epsilon` of a random listed action instead: the
    `greedy_playout` data source of `brass selfplay` (its games about seven times as fast as
    stepping `GreedyBot` from Python: `brass_clients.bench_greedy_playout`). Not a Bot: it
    plays games, not one decision."""

    name = "greedy_playout"

    def __init__(self, epsilon: float = 0.0, max_candidates: int = 20000,
                 evaluations: int = -1, **weights: float) -> None:
        self.epsilon = number_option(self.name, "epsilon", epsilon, minimum=0.0, maximum=1.0)
        self._greedy = GreedyBot(max_candidates, evaluations, **weights)

    def play(self, game: brass.Game, seed: int) -> list[int]:
        """The ids greedy plays from `game` to the end (`game` unchanged), drawn from `seed`."""
        greedy = self._greedy
        [ids] = greedy_playouts(
            [game], greedy.evaluator_of(game.ruleset).worth_params,
            drop=_id_drops(game.ruleset)[0], max_actions=greedy.listing_limit(game.ruleset),
            staged_evaluations=greedy.budget(game.ruleset), epsilon=self.epsilon, seed=seed)
        return ids
