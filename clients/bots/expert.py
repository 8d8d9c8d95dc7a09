"""`expert`: information-set search over whole actions with a learned value network.

At each decision that starts a choice (not the rest of an action it already chose) the bot:

1. re-deals what its seat cannot see (`game.determinize`) and lists every complete action
   from here (`compound_actions`); the static evaluator (`heuristic.evaluator_for`, as
   greedy) ranks them by group (`greedy.source_groups`: actions that differ only in the
   cards discarded and in where off-board cubes come from) and the `candidates` best
   groups are kept, each as its best source variant by the evaluator and that variant's
   card variant the value net (`value_net.ValueNet`) likes best, starting with the net's
   value as one visit;
2. runs iterations: a candidate picked by UCB1, a fresh re-deal, the candidate applied, then
   `depth` more whole actions, each its actor's best by the static evaluator (among the
   first `reply_limit` listed: the opponents are modelled as greedy), and the position
   valued by the net (trained by expert iteration on the expert's own games) for the seat
   (a finished game by `mcts.final_rewards`);
3. plays the most visited candidate (ties: the higher mean), its later decisions from memory.

A decision with more whole actions than `root_limit` (or more groups than half of `work`)
is made id by id (as greedy's `evaluations`): each legal id is valued by the net after
random completions of the action.
With `ms` > 0 every step (the ranking, the iterations, the id-by-id choice) stops once the
deciding thread has used that much CPU time (`time.thread_time`: the budget means the same
on a busy machine); otherwise `iterations` bound the search, and `work` bounds the positions
a decision scores (by the evaluator or the net: 0.05-0.35 ms each when the bound was set,
2-8 µs for the evaluator since it runs in the core, about 50 µs for the net; every
LISTED_PER_POSITION actions listed count as one): an iteration whose reply would pass it is
not started. Counted, not timed, so a decision is
the same for a seed on any machine, and its worst time is bounded on Pittsburgh's largest
turns too. `max_ms` > 0 is a hard cap on top (CPU time, looked at inside the search: every
CHECK_EVERY positions scored); a cut search plays its best candidate so far.
The evaluator reads positions from the core's summary (`Game.summary`), not the view's JSON.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

import numpy as np

import brass
from brass_clients.bots.base import Bot, number_option, register
from brass_clients.bots.greedy import (
    SourceGroup,
    finish_action,
    group_firsts,
    listed_source_groups,
    plan_of,
)
from brass_clients.bots.heuristic import Evaluator
from brass_clients.bots.mcts import (
    MAX_ITERATIONS,
    ROOT_ACTIONS_LIMIT,
    MctsBot,
    final_rewards,
)
from brass_clients.bots.value_net import ValueNet, shipped_net

MAX_MS = 3_600_000.0
MAX_CANDIDATES = 1000
MAX_DEPTH = 16
MAX_LIMIT = 200_000  # brass.args.MAX_COMPOUND_LIMIT
MAX_WORK = 1 << 30
# Positions scored per decision by default (`work` -1), by ruleset: set when a valuation
# cost about 0.05 ms in Birmingham and 0.08-0.13 ms in Pittsburgh (2-4 players), so that a
# decision's worst stayed well under a second of one core. The evaluator now runs in the
# core (2-8 µs a position), and the worst decisions are 0.1-0.2 s; the bound is kept, as
# the shipped networks and the strength runs were made with it.
WORK_BY_RULESET = {"birmingham": 8000, "pittsburgh": 4000}
# Listing and grouping whole actions costs about 4 µs an action (Pittsburgh, mid-game)
# against 0.25-0.35 ms a position scored: the work bound counts this many listed actions
# as one position (a 50,000-action turn's root listing as 780 positions).
LISTED_PER_POSITION = 64
VALUE_CHUNK = 256  # positions valued per net call (and between looks at the clock)
CHECK_EVERY = 16  # positions scored by the evaluator between looks at the clock
# The service's bot budget counts a search in playout decisions (service/bots/bot_seats.py).
# Measured by `python -m brass_clients.bench_search_cost` (both rulesets, 2 and 4 players,
# in the unit of each ruleset's own mcts rollout decision): a reply costs 98-200 rollout
# decisions and a leaf 2-31 (two runs); these are the largest with a quarter more. The
# root's ranking, a greedy bot's whole decision, is not counted (greedy's is not either).
DECISIONS_PER_REPLY = 250
DECISIONS_PER_LEAF = 40


class _WorkSpent(Exception):
    """The work budget cannot pay for the rest of this iteration."""


@register("expert")
class ExpertBot(Bot):
    """Whole-action ISMCTS with value-net leaves. `iterations` per decision (or `ms`
    milliseconds per decision when > 0: not reproducible)."""

    name = "expert"

    def __init__(self, iterations: int = 32, ms: float = 0.0, candidates: int = 8,
                 depth: int = 1, exploration: float = 0.3, reply_limit: int = 1000,
                 root_limit: int = ROOT_ACTIONS_LIMIT, evaluations: int = 256,
                 work: int = -1, max_ms: float = 0.0) -> None:
        name = self.name
        self.iterations = number_option(name, "iterations", iterations, integer=True,
                                        minimum=0, maximum=MAX_ITERATIONS)
        self.ms = number_option(name, "ms", ms, minimum=0, maximum=MAX_MS)
        self.candidates = number_option(name, "candidates", candidates, integer=True,
                                        minimum=1, maximum=MAX_CANDIDATES)
        self.depth = number_option(name, "depth", depth, integer=True, minimum=0,
                                   maximum=MAX_DEPTH)
        self.exploration = number_option(name, "exploration", exploration, minimum=0,
                                         maximum=1e6)
        self.reply_limit = number_option(name, "reply_limit", reply_limit, integer=True,
                                         minimum=1, maximum=MAX_LIMIT)
        self.root_limit = number_option(name, "root_limit", root_limit, integer=True,
                                        minimum=1, maximum=MAX_LIMIT)
        self.evaluations = number_option(name, "evaluations", evaluations, integer=True,
                                         minimum=1, maximum=MAX_LIMIT)
        self.work = number_option(name, "work", work, integer=True, minimum=-1,
                                  maximum=MAX_WORK)
        # A hard cap on a decision's CPU time (0: none), on top of `iterations` and `work`
        # or `ms`: looked at inside the search too (every few positions scored), and the
        # decision plays the best found so far. Not reproducible when it cuts a search.
        self.max_ms = number_option(name, "max_ms", max_ms, minimum=0, maximum=MAX_MS)
        self._plan: dict[int, int] = {}  # state hash -> next id of a chosen whole action
        self._deadline: float | None = None
        self._budget: int | None = None  # positions this decision may score (None: any)
        self._scored = 0
        self.last_iterations = 0
        # Positions scored by the last decision (the evaluator's or the net's valuations).
        self.last_scored = 0
        # Root visits of the last search by the first id of each candidate action (its
        # starting visit, the net's value, left out).
        self.last_visits: dict[int, int] = {}

    def search_cost(self) -> int:
        """The search's cost per decision in playout decisions (the service's bot budget)."""
        return self.iterations * (self.depth * DECISIONS_PER_REPLY + DECISIONS_PER_LEAF)

    def reset(self) -> None:
        self._plan.clear()

    def value_net(self, ruleset: str) -> ValueNet:
        """The network that values this bot's leaves: the one shipped for the ruleset
        (`brass_clients.expert_iteration.ExpertWithWeights` reads another from a file)."""
        return shipped_net(ruleset)

    # The last search's root visits as shares summing to 1, by id (empty when the last
    # decision was not searched): mcts's reading of `last_visits`.
    visit_distribution = MctsBot.visit_distribution

    # ------------------------------------------------------------------ the decision

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        self.last_visits = {}
        self.last_iterations = 0
        self.last_scored = 0
        planned = self._plan.pop(game.state_hash(), None)
        if planned is not None:
            return planned
        self._plan.clear()
        legal = game.legal_ids()
        seat = game.current_seat
        assert seat is not None, "the game is over"
        if len(legal) == 1:
            return legal[0]
        started = time.thread_time()
        limits = [ms for ms in (self.ms, self.max_ms) if ms > 0]
        self._deadline = started + min(limits) / 1000 if limits else None
        work = WORK_BY_RULESET.get(game.ruleset, 0) if self.work < 0 else self.work
        self._budget = work if self.ms == 0 and work > 0 else None
        self._scored = 0
        try:
            return self._decide(game, legal, seat, rng)
        finally:
            self.last_scored = self._scored

    def _decide(self, game: brass.Game, legal: list[int], seat: int,
                rng: random.Random) -> int:
        net = self.value_net(game.ruleset)
        world = game.determinize(seat, rng.getrandbits(64))
        listed, truncated, groups = listed_source_groups(world, self.root_limit)
        self._scored += len(listed) // LISTED_PER_POSITION
        if truncated or not listed or (self._budget is not None
                                       and len(groups) > self._budget // 2):
            return self._staged(world, legal, seat, net, rng)
        ranked = self._rank_groups(world, groups, seat, net)
        ids = self._search(game, seat, ranked, net, rng)
        self._plan.update(plan_of(game, ids))
        return ids[0]

    def _room(self) -> float:
        """Positions this decision may still score."""
        return math.inf if self._budget is None else self._budget - self._scored

    def _out_of_time(self) -> bool:
        if self.stop is not None and self.stop():
            return True
        return self._deadline is not None and time.thread_time() >= self._deadline

    def _rank_groups(self, world: brass.Game, groups: list[SourceGroup], seat: int,
                     net: ValueNet) -> list[tuple[float, tuple[int, ...]]]:
        """The `candidates` best actions, best first, with the net's value for `seat` after
        each: the groups (`source_groups`) ranked by the static evaluator on their first
        action, then each kept group's best source variant by the evaluator and that
        variant's card variant the net likes best (as many variants as the work budget
        leaves room for, the first always)."""
        evaluator = net.evaluator
        firsts = [next(iter(variants.values()))[0] for variants in groups]
        values = self._heuristic_after(world, firsts, seat, evaluator)
        order = sorted(range(len(values)), key=lambda k: -values[k])[: self.candidates]
        ranked: list[tuple[float, tuple[int, ...]]] = []
        for k in order:
            late = self._out_of_time()
            if ranked and late:
                break  # the deadline: the groups valued so far
            sources = list(groups[k].values())
            # past the deadline the first group is kept as its first variant only
            room = 0 if late else max(0, int(min(self._room(), len(sources))) - 1)
            source_values = [values[k]] + self._heuristic_after(
                world, [same_board[0] for same_board in sources[1:1 + room]], seat, evaluator)
            cards = sources[int(np.argmax(source_values))]
            variants = 1 if late else max(1, int(min(self._room(), len(cards))))
            scores = self._values_after(world, cards[:variants], seat, net)
            best = int(np.argmax(scores))
            ranked.append((scores[best], cards[best]))
        ranked.sort(key=lambda entry: -entry[0])
        return ranked

    def _heuristic_after(self, world: brass.Game, actions: Sequence[tuple[int, ...]],
                         seat: int, evaluator: Evaluator) -> list[float]:
        """The static evaluator's value for `seat` after each action (those valued before
        the time ran out; at least one)."""
        values: list[float] = []
        for start in range(0, len(actions), CHECK_EVERY):
            if start > 0 and self._out_of_time():
                break
            values.extend(row[seat] for row in evaluator.values_after(
                world, actions[start:start + CHECK_EVERY]))
        self._scored += len(values)
        return values

    def _values_after(self, world: brass.Game, actions: Sequence[tuple[int, ...]],
                      seat: int, net: ValueNet) -> list[float]:
        values: list[float] = []
        for start in range(0, len(actions), VALUE_CHUNK):
            if start > 0 and self._out_of_time():
                break
            rows = []
            for ids in actions[start:start + VALUE_CHUNK]:
                trial = world.clone()
                trial.apply_compound(ids, events=False)
                rows.append(net.features(trial, seat))
            values.extend(float(v) for v in net.predict(np.stack(rows)))
            self._scored += len(rows)
        return values

    def _search(self, game: brass.Game, seat: int,
                ranked: list[tuple[float, tuple[int, ...]]], net: ValueNet,
                rng: random.Random) -> tuple[int, ...]:
        visits = [1] * len(ranked)
        totals = [value for value, _ids in ranked]
        done = 0
        while len(ranked) > 1:
            if self.ms == 0 and done >= self.iterations:
                break
            # `ms` runs one iteration at least; a `max_ms` cap (or a stop) none
            if ((self._deadline is not None and (done > 0 or self.max_ms > 0))
                    or self.stop is not None):
                if self._out_of_time():
                    break
            log_total = math.log(sum(visits))
            pick = max(range(len(ranked)), key=lambda k: totals[k] / visits[k]
                       + self.exploration * math.sqrt(log_total / visits[k]))
            world = game.determinize(seat, rng.getrandbits(64))
            world.apply_compound(ranked[pick][1], events=False)
            try:
                totals[pick] += self._leaf_value(world, seat, net, rng)
            except _WorkSpent:
                break
            visits[pick] += 1
            done += 1
        self.last_iterations = done
        for (_value, ids), count in zip(ranked, visits, strict=True):
            self.last_visits[ids[0]] = self.last_visits.get(ids[0], 0) + count - 1
        best = max(range(len(ranked)), key=lambda k: (visits[k], totals[k] / visits[k]))
        return ranked[best][1]

    def _leaf_value(self, world: brass.Game, seat: int, net: ValueNet,
                    rng: random.Random) -> float:
        """`depth` whole actions more, each its actor's best by the evaluator, then the
        net's value (_WorkSpent when the work budget cannot pay for it)."""
        for _ in range(self.depth):
            if world.is_over:
                break
            actor = world.current_seat
            assert actor is not None
            reply = self._best_reply(world, actor, net)
            if reply is None:
                finish_action(world, rng)
                if world.decision == "action" and not world.is_over:
                    continue
                break
            world.apply_compound(reply, events=False)
        if world.is_over:
            return final_rewards(world)[seat]
        if self._room() < 1:
            raise _WorkSpent
        self._scored += 1
        return net.value(world, seat)

    def _best_reply(self, world: brass.Game, actor: int,
                    net: ValueNet) -> tuple[int, ...] | None:
        actions, listed = group_firsts(world, self.reply_limit)
        self._scored += listed // LISTED_PER_POSITION
        if not listed:
            return None
        if self._room() < len(actions) + 1:  # its evaluations and the leaf's
            raise _WorkSpent
        values = self._heuristic_after(world, actions, actor, net.evaluator)
        if len(values) < len(actions):  # the deadline came: this iteration is not counted
            raise _WorkSpent
        return actions[int(np.argmax(values))]

    def _staged(self, world: brass.Game, legal: list[int], seat: int, net: ValueNet,
                rng: random.Random) -> int:
        """One id of a decision with too many whole actions: each legal id is worth the
        best net value over a few random completions of the action after it."""
        per_id = max(1, self.evaluations // len(legal))
        best_value, best = -math.inf, legal[0]
        for checked, option in enumerate(legal):
            if checked > 0 and self._out_of_time() or self._room() < per_id:
                break
            after = world.clone()
            after.apply(option)
            rows = []
            for _ in range(per_id):
                trial = after.clone()
                finish_action(trial, rng)
                rows.append(net.features(trial, seat))
            value = float(np.max(net.predict(np.stack(rows))))
            self._scored += len(rows)
            if value > best_value:
                best_value, best = value, option
        return best

