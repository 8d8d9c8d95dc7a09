"""One-step greedy: try every complete action on a copy, keep the best-scoring one."""

from __future__ import annotations

import random

import brass
from brass_clients.bots.base import Bot, number_option, register
from brass_clients.bots.heuristic import PositionEvaluator, checked_weights

# The core lists compound actions into an int-sized count.
MAX_CANDIDATES = (1 << 31) - 1
CARD_IDS = frozenset(i for i, name in enumerate(brass.get_ruleset("birmingham").action_names)
                     if name.startswith("card:"))


def _board_key(ids: tuple[int, ...]) -> tuple[int, ...]:
    """The ids without the cards discarded: the evaluator does not look at hands, so
    actions that differ only in their cards score alike and are evaluated once."""
    return tuple(i for i in ids if i not in CARD_IDS)


@register("greedy")
class GreedyBot(Bot):
    """Scores each complete compound action from the current decision with
    `PositionEvaluator` (acting seat's worth minus its opponents') and plays the best.

    The chosen action's later decisions are remembered, so an action of five decisions
    is searched once. Ties are broken by `rng`.
    """

    name = "greedy"

    def __init__(self, max_candidates: int = 20000, **weights: float) -> None:
        """`weights`: overrides of `HeuristicWeights` fields, e.g. ``money_vp=0.2``."""
        self.evaluator = PositionEvaluator(checked_weights(self.name, weights))
        self.max_candidates = number_option(self.name, "max_candidates", max_candidates,
                                            integer=True, minimum=1, maximum=MAX_CANDIDATES)
        self._plan: dict[int, int] = {}  # state hash -> next id of the chosen action

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
        candidates, _truncated = game.compound_actions(limit=self.max_candidates)
        if not candidates:  # nothing complete is listed: judge single decisions instead
            return self._best_single(game, legal, seat, rng)
        groups: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for compound in candidates:
            groups.setdefault(_board_key(compound.ids), []).append(compound.ids)
        best_value, best = float("-inf"), []
        for checked, variants in enumerate(groups.values()):
            if checked % 64 == 63 and self.stop is not None and self.stop():
                break  # the game is abandoned: the best so far will do
            trial = game.clone()
            trial.apply_compound(variants[0])
            value = self.evaluator.value(trial, seat)
            if value > best_value + 1e-9:
                best_value, best = value, list(variants)
            elif abs(value - best_value) <= 1e-9:
                best.extend(variants)
        ids = rng.choice(best)
        self._remember(game, ids)
        return ids[0]

    def _remember(self, game: brass.Game, ids: tuple[int, ...]) -> None:
        walk = game.clone()
        for this_id, next_id in zip(ids, ids[1:], strict=False):
            walk.apply(this_id)
            self._plan[walk.state_hash()] = next_id

    def _best_single(self, game: brass.Game, legal: list[int], seat: int,
                     rng: random.Random) -> int:
        scored = []
        for option in legal:
            trial = game.clone()
            trial.apply(option)
            scored.append((self.evaluator.value(trial, seat), rng.random(), option))
        return max(scored)[2]
