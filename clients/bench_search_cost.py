"""What a server bot seat's search costs, in the budget's unit: decisions played out by mcts.

    python -m brass_clients.bench_search_cost [--positions 24] [--players 2 4]

The service counts a bot's search per decision in rollout decisions
(`brass_service.bots.bot_seats.search_cost`): mcts's iterations x rollout length, and
`expert`'s `iterations x (depth x DECISIONS_PER_REPLY + DECISIONS_PER_LEAF)`. This measures
the CPU behind those constants on positions of greedy games (`greedy_playouts`), both
rulesets, each bot run in turn on each position (so a noisy machine slows all alike):

- a rollout decision: mcts (default, `rollout_depth` 30) per decision / (iterations x 30);
- the expert's root ranking: `expert:iterations=0` (not counted, as greedy's decision);
- a leaf: (`expert:depth=0` − the root) / iterations;
- a reply: (`expert`, depth 1, − `expert:depth=0`) / iterations.

It prints each in microseconds and in rollout decisions, the constants in use, and the
expert's default search's real cost against what the budget charges.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import brass
from brass_clients.bots import make_bot
from brass_clients.bots.expert import DECISIONS_PER_LEAF, DECISIONS_PER_REPLY
from brass_clients.bots.greedy import GreedyPlayout

BOTS = {"mcts": "mcts", "root": "expert:iterations=0", "leaves": "expert:depth=0",
        "expert": "expert"}


def sample_positions(ruleset: str, players: int, count: int, seed: int) -> list[brass.Game]:
    """`count` positions of greedy games (a few per game, spread over it) where the seat
    to act starts an action with a choice."""
    greedy = GreedyPlayout()
    found: list[brass.Game] = []
    deal = seed
    while len(found) < count:
        game = brass.Game.new(players, seed=deal, ruleset=ruleset)
        ids = greedy.play(game, deal)
        picks = {len(ids) * k // 5 for k in range(1, 5)}
        for step, option in enumerate(ids):
            if step in picks and game.decision == "action" and len(game.legal_ids()) > 1:
                found.append(game.clone())
            game.apply(option)
        deal += 1
    return found[:count]


def decision_cpu(spec: str, game: brass.Game, seed: int) -> float:
    """CPU seconds of one fresh decision of `spec` at `game`."""
    bot = make_bot(spec)
    rng = random.Random(seed)
    started = time.thread_time()
    bot.choose(game, rng)
    return time.thread_time() - started


def measure(ruleset: str, players: int, positions: Sequence[brass.Game]) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in BOTS}
    for k, game in enumerate(positions):
        for name, spec in BOTS.items():
            times[name].append(decision_cpu(spec, game, k))
    mean = {name: statistics.fmean(values) for name, values in times.items()}
    mcts, expert = make_bot(BOTS["mcts"]), make_bot(BOTS["expert"])
    rollout = mean["mcts"] / (mcts.iterations * mcts.rollout_depth)
    leaf = max(0.0, mean["leaves"] - mean["root"]) / expert.iterations
    reply = max(0.0, mean["expert"] - mean["leaves"]) / (expert.iterations * expert.depth)
    return {"rollout_us": rollout * 1e6, "root_ms": mean["root"] * 1e3,
            "leaf_us": leaf * 1e6, "reply_us": reply * 1e6,
            "expert_ms": mean["expert"] * 1e3, "mcts_ms": mean["mcts"] * 1e3,
            "leaf_decisions": leaf / rollout, "reply_decisions": reply / rollout,
            "expert_max_ms": max(times["expert"]) * 1e3}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    expert = make_bot("expert")
    print(f"constants: DECISIONS_PER_REPLY {DECISIONS_PER_REPLY}, DECISIONS_PER_LEAF "
          f"{DECISIONS_PER_LEAF}; the default expert is charged {expert.search_cost():,} "
          "rollout decisions a decision")
    header = ("ruleset", "players", "rollout µs", "root ms", "leaf µs", "reply µs",
              "leaf (rollout decisions)", "reply (rollout decisions)", "expert ms (max)",
              "mcts ms", "expert's real cost")
    print(" | ".join(header))
    for ruleset in ("birmingham", "pittsburgh"):
        for players in args.players:
            found = sample_positions(ruleset, players, args.positions, args.seed)
            m = measure(ruleset, players, found)
            real = (m["expert_ms"] - m["root_ms"]) * 1e3 / m["rollout_us"]
            print(f"{ruleset} | {players} | {m['rollout_us']:.2f} | {m['root_ms']:.2f} | "
                  f"{m['leaf_us']:.0f} | {m['reply_us']:.0f} | {m['leaf_decisions']:.0f} | "
                  f"{m['reply_decisions']:.0f} | {m['expert_ms']:.1f} "
                  f"({m['expert_max_ms']:.0f}) | {m['mcts_ms']:.1f} | {real:,.0f}",
                  flush=True)


if __name__ == "__main__":
    main()
