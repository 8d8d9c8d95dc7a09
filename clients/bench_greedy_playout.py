"""greedy's games played inside the core against the same games stepped from Python.

    python -m brass_clients.bench_greedy_playout [--games 6] [--rounds 4] [--players 2 4]

For each ruleset and player count, rounds alternate the two ways of playing `--games` greedy
self-play games (dealt from the same seeds): A, `GreedyBot` chosen from Python and applied
decision by decision (as `brass selfplay --bot greedy` plays); B, `GreedyPlayout`
(`brass_greedy_playout_batch`: the game played in C, its ids returned). Printed: CPU seconds
a game of each (median and range over the rounds), B's speed-up, and the mean final VP of
each, which should be alike (the same policy; ties are drawn by other random numbers).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import brass
from brass_clients.bots.greedy import GreedyBot, GreedyPlayout


def stepped(ruleset: str, players: int, deal: int) -> list[int]:
    game = brass.Game.new(players, seed=deal, ruleset=ruleset)
    bots = [GreedyBot() for _ in range(players)]
    rng = random.Random(deal)
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        game.apply(bots[seat].choose(game, rng))
    return game.scores()


def in_core(ruleset: str, players: int, deal: int) -> list[int]:
    game = brass.Game.new(players, seed=deal, ruleset=ruleset)
    for option in GreedyPlayout().play(game, deal):
        game.apply(option)
    assert game.is_over
    return game.scores()


def timed(play: object, ruleset: str, players: int, deals: range) -> tuple[float, float]:
    """(CPU seconds a game, mean VP a seat) of `play` over `deals`."""
    started = time.thread_time()
    scores = [play(ruleset, players, deal) for deal in deals]  # type: ignore[operator]
    spent = (time.thread_time() - started) / len(deals)
    return spent, statistics.fmean(vp for game in scores for vp in game)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("ruleset | players | A: stepped s/game (range) | B: in the core s/game (range) | "
          "speed-up | VP a seat A / B")
    for ruleset in ("birmingham", "pittsburgh"):
        for players in args.players:
            a_times, b_times, a_vp, b_vp = [], [], [], []
            for r in range(args.rounds):
                deals = range(args.seed + r * args.games, args.seed + (r + 1) * args.games)
                for play, times, vps in ((stepped, a_times, a_vp), (in_core, b_times, b_vp)):
                    spent, vp = timed(play, ruleset, players, deals)
                    times.append(spent)
                    vps.append(vp)
            a, b = statistics.median(a_times), statistics.median(b_times)
            print(f"{ruleset} | {players} | {a:.3f} ({min(a_times):.3f}-{max(a_times):.3f}) | "
                  f"{b:.4f} ({min(b_times):.4f}-{max(b_times):.4f}) | {a / b:.1f}x | "
                  f"{statistics.fmean(a_vp):.1f} / {statistics.fmean(b_vp):.1f}", flush=True)


if __name__ == "__main__":
    main()
