"""The arena's figures for the note (issue 24), not part of the default test suite:

1. an arena of four bots, two external SDK bots (brass_clients.bot_api.run_bot, each in a
   process of its own, playing through the bot API with their keys) and two server bots,
   round-robin, run to the end: its table and the ratings it left;
2. a stronger bot's rating rising above a weaker one's over a few dozen rated games (an
   arena of the two, played `--games` times over, seats alternating).

    python -m brass_service.tools.arena_note [--games 30] [--strong mcts:iterations=100]
                                             [--weak random] [--beginner]

It starts its own server (a fresh SQLite file in a temporary folder) and stops it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from brass_clients.arena_api import create_arena, get_arena, watch_arena
from brass_clients.bot_api import first_option, random_option, run_bot
from brass_clients.sdk import GameClient

from ..gen import game_service_pb2 as pb
from .flood import OPERATOR_TOKEN, start_server

CHOICES = {"random": random_option, "first": first_option}


def _bot_process(target: str, key: str, account_id: str, games: int, choice: str
                 ) -> subprocess.Popen[bytes]:
    """An external SDK bot in a process of its own (this module with --bot)."""
    return subprocess.Popen([sys.executable, "-m", "brass_service.tools.arena_note", "--bot",
                             target, key, account_id, str(games), choice])


def _print_table(arena: pb.Arena, client: GameClient) -> None:
    print(f"arena {arena.name!r} ({arena.arena_id}): "
          f"{pb.ArenaStatus.Name(arena.status)}, {len(arena.tables)} games in "
          f"{arena.rounds} rounds, {arena.players} players a table")
    print(f"{'place':>5}  {'entrant':<28} {'kind':<8} {'points':>6} {'wins':>4} "
          f"{'games':>5} {'forfeits':>8} {'rating':>8} {'change':>8}")
    for line in arena.standings:
        kind = "server" if line.server_bot else "external"
        print(f"{line.place:>5}  {line.name[:28]:<28} {kind:<8} {line.points:>6} "
              f"{line.wins:>4} {line.games:>5} {line.forfeits:>8} {line.rating:>8.2f} "
              f"{line.rating_change:>+8.2f}")
    board = client.get_leaderboard(arena.players, kind=pb.ACCOUNT_KIND_BOTS, page_size=100)
    print("leaderboard (bots, 2 players): " + ", ".join(
        f"{entry.name} {entry.rating:.2f} (mu {entry.mu:.2f}, sigma {entry.sigma:.2f}, "
        f"{entry.games} games)" for entry in board.entries))


def four_bots(client: GameClient, target: str, options: pb.GameOptions) -> None:
    stamp = time.strftime("%H%M%S")
    accounts = [client.create_account(f"SDK {choice} {stamp}", bot=True)
                for choice in ("random", "first")]
    server_bots = ["greedy", "mcts:iterations=30"]
    games_each = 3  # a round-robin of four: three games each
    bots = [_bot_process(target, made.key, made.account.account_id, games_each, choice)
            for made, choice in zip(accounts, ("random", "first"), strict=True)]
    started = time.monotonic()
    arena = create_arena(client, f"Four bots {stamp}",
                         accounts=[made.account.account_id for made in accounts],
                         server_bots=server_bots, options=options, seed=2026)
    for update in watch_arena(client, arena.arena_id):
        done = sum(table.finished for table in update.tables)
        print(f"  [{time.monotonic() - started:6.1f} s] round {update.round}/{update.rounds}, "
              f"{done} games finished")
    for bot in bots:
        bot.wait(timeout=120)
    print(f"1. an arena of four bots (two external SDK bots in their own processes, two "
          f"server bots), {time.monotonic() - started:.1f} s:")
    _print_table(get_arena(client, arena.arena_id), client)


def stronger_rises(client: GameClient, strong: str, weak: str, games: int,
                   options: pb.GameOptions) -> None:
    started = time.monotonic()
    arena = create_arena(client, f"Strong vs weak {time.strftime('%H%M%S')}",
                         server_bots=[strong, weak], rounds=games, options=options, seed=7)
    for _ in watch_arena(client, arena.arena_id):
        pass
    arena = get_arena(client, arena.arena_id)
    ids = {line.server_bot: line.account_id for line in arena.standings}
    print(f"\n2. {strong} against {weak}, {games} rated games "
          f"({time.monotonic() - started:.1f} s): the displayed rating (mu - 3 sigma) of each "
          "after each game")
    ratings: dict[str, float] = {strong: 0.0, weak: 0.0}
    crossed = None
    print(f"{'game':>4}  {'seat 0':<22} {'winner':<22} {strong[:22]:>22} {weak[:22]:>22}")
    for number, table in enumerate(arena.tables, start=1):
        for account, change in zip(table.account_ids, table.rating_changes, strict=True):
            spec = next(spec for spec, account_id in ids.items() if account_id == account)
            ratings[spec] += change
        seat0 = next(spec for spec, account_id in ids.items()
                     if account_id == table.account_ids[0])
        winner = next(spec for spec, account_id in ids.items() if account_id ==
                      table.account_ids[list(table.ranks).index(1)])
        if ratings[strong] <= ratings[weak]:
            crossed = None  # from the next game on, if it stays above
        elif crossed is None:
            crossed = number
        print(f"{number:>4}  {seat0[:22]:<22} {winner[:22]:<22} {ratings[strong]:>22.2f} "
              f"{ratings[weak]:>22.2f}")
    print(f"the stronger bot's rating is above the weaker one's from game {crossed} to the "
          f"end ({ratings[strong]:.2f} against {ratings[weak]:.2f})" if crossed else
          "the stronger bot's rating did not stay above the weaker one's")
    _print_table(arena, client)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--bot"]:  # an external bot's process
        target, key, account_id, games, choice = argv[1:6]
        finished = run_bot(target, key, account_id, games=int(games), choose=CHOICES[choice])
        print(f"  external bot {account_id} ({choice}): {len(finished)} games over")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--strong", default="mcts:iterations=100")
    parser.add_argument("--weak", default="random")
    parser.add_argument("--beginner", action="store_true", help="the canal-only variant")
    args = parser.parse_args(argv)
    options = pb.GameOptions(beginner=True) if args.beginner else pb.GameOptions()
    with tempfile.TemporaryDirectory() as tmp:
        process, target = start_server(Path(tmp))
        try:
            with GameClient(target, timeout=60, operator_token=OPERATOR_TOKEN) as client:
                four_bots(client, target, options)
                stronger_rises(client, args.strong, args.weak, args.games, options)
        finally:
            process.terminate()
            process.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
