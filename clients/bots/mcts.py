"""Information-set MCTS with determinization (single-observer ISMCTS).

Every iteration re-deals what the searching seat cannot see (`game.determinize`), walks
one shared tree of decision ids with UCT restricted to the ids legal in that deal
(availability counts), expands one new id, then finishes the game inside C with
`playout(policy="sane")`, optionally cut after `rollout_depth` decisions and scored with the
static evaluator of the game's ruleset (`heuristic.evaluator_for`). Rewards are per seat, in
[0, 1]: finishing rank plus VP margin.
"""

from __future__ import annotations

import math
import random
import time

import brass
from brass.engine import PLAYOUT_POLICIES
from brass_clients.bots.base import (
    Bot,
    bool_option,
    choice_option,
    number_option,
    register,
)
from brass_clients.bots.greedy import finish_action, plan_of, ranked_actions, staged_values
from brass_clients.bots.heuristic import Evaluator, evaluator_for

RANK_WEIGHT = 0.7     # share of the reward given by the finishing rank
MARGIN_SCALE = 40.0   # VP margin that moves the margin part from 0.5 to 0 or 1
HEURISTIC_SCALE = 15.0  # evaluator points that move a cut-off rollout's reward by ~0.27
# Options beyond these are refused: the core counts playout decisions in an int, and a
# rollout of this many decisions already plays any game to its end.
MAX_ROLLOUT_DEPTH = 1 << 20
MAX_ITERATIONS = 1 << 30
STOP_CHECK_ITERATIONS = 8  # how often a search looks at Bot.stop
LEAF_MODES = ("auto", "playout", "action")
MAX_ROOT_CANDIDATES = 1000
# A whole-action search ranks the listed actions (by group, `ranked_actions`) to pick its
# candidates. Past this many (a few Pittsburgh turns list more), its candidates are the
# first ids best by greedy's staged scoring (`staged_values`, STAGED_EVALUATIONS random
# completions in all) and the action's next decision is searched again: a decision's cost
# stays bounded (docs/BOTS.md).
ROOT_ACTIONS_LIMIT = 60000
STAGED_EVALUATIONS = 200


class Node:
    __slots__ = ("actor", "availability", "children", "reward_sum", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor  # seat that chose the id leading here (-1 at the root)
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.availability = 0
        self.reward_sum = 0.0  # summed reward of `actor`


def final_rewards(game: brass.Game) -> list[float]:
    """Per-seat reward of a finished game: rank (shared places averaged) and VP margin."""
    scores = game.scores()
    n = len(scores)
    ranking = game.ranking()
    rank_of = {seat: place for place, seat in enumerate(ranking)}
    winners = set(game.winners())
    rewards = []
    for seat in range(n):
        if seat in winners:
            rank_part = 1.0 - (len(winners) - 1) / (2 * (n - 1))
        else:
            rank_part = 1.0 - rank_of[seat] / (n - 1)
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        margin = 0.5 + (scores[seat] - best_other) / (2 * MARGIN_SCALE)
        rewards.append(RANK_WEIGHT * rank_part + (1 - RANK_WEIGHT) * min(1.0, max(0.0, margin)))
    return rewards


@register("mcts")
class MctsBot(Bot):
    """`iterations` per decision (or `seconds` per decision when > 0; not reproducible).

    `rollout_depth` = 0 plays rollouts to the end; otherwise rollouts stop after that many
    decisions and the position is scored with the static evaluator.
    """

    name = "mcts"

    def __init__(self, iterations: int = 100, seconds: float = 0.0,
                 exploration: float = 0.7, rollout_depth: int = 30,
                 rollout_policy: str = "sane", reuse_tree: bool = True,
                 leaf: str = "auto", root_candidates: int = -1) -> None:
        name = self.name
        self.iterations = number_option(name, "iterations", iterations, integer=True,
                                        minimum=0, maximum=MAX_ITERATIONS)
        self.seconds = number_option(name, "seconds", seconds, minimum=0, maximum=3600)
        self.exploration = number_option(name, "exploration", exploration, minimum=0,
                                         maximum=1e6)
        self.rollout_depth = number_option(name, "rollout_depth", rollout_depth,
                                           integer=True, minimum=0, maximum=MAX_ROLLOUT_DEPTH)
        self.rollout_policy = choice_option(name, "rollout_policy", rollout_policy,
                                            PLAYOUT_POLICIES)
        self.reuse_tree = bool_option(name, "reuse_tree", reuse_tree)
        self.leaf = choice_option(name, "leaf", leaf, LEAF_MODES)
        self.root_candidates = number_option(name, "root_candidates", root_candidates,
                                             integer=True, minimum=-1,
                                             maximum=MAX_ROOT_CANDIDATES)
        self._plan: dict[int, int] = {}  # state hash -> next id of a chosen whole action
        self._evaluators: dict[str, Evaluator] = {}  # by ruleset, for cut-off rollouts
        self._kept: tuple[int, Node] | None = None  # (state hash, subtree) for reuse
        self.last_iterations = 0
        # Root visits of the last search, by the id then chosen (whole-action search: by
        # the first id of each candidate action, its prior visit left out).
        self.last_visits: dict[int, int] = {}

    def reset(self) -> None:
        self._kept = None
        self._plan.clear()

    def visit_distribution(self) -> dict[int, float]:
        """The last search's root visits as shares summing to 1, by id (empty when the
        last decision was not searched)."""
        total = sum(self.last_visits.values())
        if total == 0:
            return {}
        return {option: visits / total for option, visits in self.last_visits.items()}

    def leaf_mode(self, ruleset: str) -> str:
        if self.leaf != "auto":
            return self.leaf
        return "action" if ruleset == "pittsburgh" else "playout"

    def candidates_for(self, ruleset: str) -> int:
        if self.root_candidates >= 0:
            return self.root_candidates
        return 8 if ruleset == "pittsburgh" else 0

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        self.last_visits = {}
        planned = self._plan.pop(game.state_hash(), None)
        if planned is not None:
            return planned  # the rest of a whole action chosen by search
        self._plan.clear()
        legal = game.legal_ids()
        seat = game.current_seat
        assert seat is not None, "the game is over"
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        top = self.candidates_for(game.ruleset)
        if top > 0:
            chosen = self._choose_action(game, seat, top, rng)
            if chosen is not None:
                return chosen
        root = self._root_for(game)
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done > 0:
                    break
            elif done >= self.iterations:
                break
            if done % STOP_CHECK_ITERATIONS == 0 and self.stop is not None and self.stop():
                break  # the game is abandoned: any legal choice will do
            self._iterate(game, seat, root, rng)
            done += 1
        self.last_iterations = done
        self.last_visits = {option: child.visits for option, child in root.children.items()
                            if option in legal}
        choices = [(child.visits, child.reward_sum, option)
                   for option, child in root.children.items() if option in legal]
        if not choices:  # no search was possible (iterations=0, or stopped at once)
            self._kept = None
            return rng.choice(legal)
        best = max(choices)[2]
        if self.reuse_tree:
            after = game.clone()
            after.apply(best)
            self._kept = (after.state_hash(), root.children[best])
        return best

    def _choose_action(self, game: brass.Game, seat: int, top: int,
                       rng: random.Random) -> int | None:
        """Search over the `top` whole actions the static evaluator ranks best: each
        starts with the evaluator's value as one visit, then iterations re-deal, apply a
        candidate chosen by UCB and go on down a tree of decision ids below it."""
        self._kept = None
        evaluator = self._evaluator(game.ruleset)
        listed, truncated = game.compound_ids(limit=ROOT_ACTIONS_LIMIT)
        if truncated:
            staged = staged_values(game, game.legal_ids(), seat, rng, evaluator,
                                   STAGED_EVALUATIONS, self.stop)
            staged.sort(key=lambda entry: -entry[0])
            ranked = [(value, (option,)) for value, option in staged[:top]]
        else:
            ranked = ranked_actions(game, seat, evaluator, top, stop=self.stop,
                                    candidates=listed)
        if not ranked:
            return None
        nodes = []
        for value, _ids in ranked:
            node = Node(seat)
            node.visits = 1
            node.reward_sum = _squash(value)
            nodes.append(node)
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        c = self.exploration
        while len(ranked) > 1:
            if deadline is not None:
                if time.perf_counter() >= deadline and done > 0:
                    break
            elif done >= self.iterations:
                break
            if done % STOP_CHECK_ITERATIONS == 0 and self.stop is not None and self.stop():
                break
            total = sum(node.visits for node in nodes)
            log_total = math.log(total)
            pick = max(range(len(nodes)), key=lambda k: nodes[k].reward_sum / nodes[k].visits
                       + c * math.sqrt(log_total / nodes[k].visits))
            world = game.determinize(seat, rng.getrandbits(64))
            for option in ranked[pick][1]:  # a whole action, or a staged first id
                world.apply(option)
            self._descend(world, nodes[pick], rng)
            done += 1
        self.last_iterations = done
        self.last_visits = {}
        for (_value, ids), node in zip(ranked, nodes, strict=True):
            self.last_visits[ids[0]] = self.last_visits.get(ids[0], 0) + node.visits - 1
        best = max(range(len(nodes)), key=lambda k: (nodes[k].visits,
                                                      nodes[k].reward_sum / nodes[k].visits))
        ids = ranked[best][1]
        self._plan.update(plan_of(game, ids))
        return ids[0]

    def _root_for(self, game: brass.Game) -> Node:
        if self._kept is not None and self._kept[0] == game.state_hash():
            return self._kept[1]
        return Node(actor=-1)

    def _iterate(self, game: brass.Game, seat: int, root: Node, rng: random.Random) -> None:
        self._descend(game.determinize(seat, rng.getrandbits(64)), root, rng)

    def _descend(self, world: brass.Game, root: Node, rng: random.Random) -> None:
        """One iteration from `root` (whose position `world` is, re-dealt): select down the
        tree, expand one id, evaluate the leaf and back the rewards up."""
        node, path = root, [root]
        while not world.is_over:
            legal = world.legal_ids()
            actor = world.current_seat
            untried = [option for option in legal if option not in node.children]
            if untried:
                option = rng.choice(untried)
                child = Node(actor)
                node.children[option] = child
                for other in legal:
                    sibling = node.children.get(other)
                    if sibling is not None:
                        sibling.availability += 1
                world.apply(option)
                path.append(child)
                break
            option = self._select(node, legal)
            world.apply(option)
            node = node.children[option]
            path.append(node)
        rewards = self._rollout(world, rng)
        for visited in path:
            visited.visits += 1
            if visited.actor >= 0:
                visited.reward_sum += rewards[visited.actor]

    def _select(self, node: Node, legal: list[int]) -> int:
        best_score, best_option = float("-inf"), legal[0]
        c = self.exploration
        for option in legal:
            child = node.children[option]
            child.availability += 1
            score = (child.reward_sum / child.visits
                     + c * math.sqrt(math.log(child.availability) / child.visits))
            if score > best_score:
                best_score, best_option = score, option
        return best_option

    def _evaluator(self, ruleset: str) -> Evaluator:
        evaluator = self._evaluators.get(ruleset)
        if evaluator is None:
            evaluator = self._evaluators[ruleset] = evaluator_for(ruleset)
        return evaluator

    def _rollout(self, world: brass.Game, rng: random.Random) -> list[float]:
        if self.leaf_mode(world.ruleset) == "action":
            finish_action(world, rng)
            if world.is_over:
                return final_rewards(world)
            return [_squash(v) for v in self._evaluator(world.ruleset).values(world)]
        if not world.is_over:
            if self.rollout_depth > 0:
                world.playout(rng.getrandbits(64), self.rollout_policy, self.rollout_depth)
            else:
                world.playout(rng.getrandbits(64), self.rollout_policy)
        if world.is_over:
            return final_rewards(world)
        return [_squash(value) for value in self._evaluator(world.ruleset).values(world)]


def _squash(value: float) -> float:
    """An evaluator value (VP units) as a reward in (0, 1)."""
    return 1.0 / (1.0 + math.exp(-value / HEURISTIC_SCALE))
