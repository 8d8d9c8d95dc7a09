"""Memory per live game in the server (issue 22): heap bytes one more live game costs.

``python -m brass_service.tools.bench_memory [--games 2000] [--ruleset birmingham]``

A child process with ``PYTHONMALLOC=malloc`` (so Python's objects and the core's allocations
are all in glibc's heap, which mallinfo2 counts) runs the service in-process on a SQLite
file: it creates GAMES two-player games through GameService, plays each a few decisions in
(so the undo barrier is held, as mid-turn), and prints the slope of heap bytes between a
sixth of them and all of them, beside the bytes of the engine ``Game`` objects alone (the
same slope over bare games: ``brass.bench_loop``). Everything a live game holds in this
process is counted: the cached row, the live game, the store's per-game memory, caches.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from brass.bench_loop import _MALLINFO2, _heap_bytes, game_bytes

DECISIONS = 3  # each game's own (after creation): mid-turn, its barrier held


async def _live_game_bytes(ruleset: str, games: int, folder: Path) -> float:
    from brass_service.games import Caller, GameService, ServiceSettings
    from brass_service.gen import game_service_pb2 as pb
    from brass_service.observability import RequestRecord
    from brass_service.store import open_store

    store = open_store(f"sqlite:///{folder / 'memory.sqlite3'}")
    await store.open()
    operator = Caller(token="op", peer="127.0.0.1")
    # every game stays live: the cache holds them all
    service = GameService(store, ServiceSettings(operator_token="op", cache_size=games + 1))
    engine_ruleset = {"birmingham": pb.RULESET_BIRMINGHAM,
                      "pittsburgh": pb.RULESET_PITTSBURGH}[ruleset]
    mark = 0
    for k in range(games):
        if k == games // 6:
            mark = _heap_bytes()
        created = await service.create_game(
            pb.CreateGameRequest(players=2, seed=k + 1, ruleset=engine_ruleset), operator,
            RequestRecord("bench", "CreateGame", str(k)))
        tokens = [seat.token for seat in created.seats]
        for _ in range(DECISIONS):
            _, live = await service.live.get(created.game_id)
            game = live.game
            request = pb.SubmitActionRequest(game_id=created.game_id,
                                             action=pb.Action(option_id=int(game.legal_ids()[0])),
                                             expected_version=live.version)
            await service.submit_action(request, Caller(token=tokens[game.current_seat],
                                                        peer="127.0.0.1"),
                                        RequestRecord("bench", "SubmitAction", str(k)))
    per_game = (_heap_bytes() - mark) / (games - games // 6)
    assert len(service.live) == games, "every game must still be live"
    await store.close()
    return per_game


def _measure_here(ruleset: str, games: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_live_game_bytes(ruleset, games, Path(folder)))


def live_game_bytes(ruleset: str, games: int) -> float:
    """Heap bytes per live game in the service (slope), measured in a child process."""
    code = ("import sys; from brass_service.tools.bench_memory import _measure_here as f; "
            "print(f(sys.argv[1], int(sys.argv[2])))")
    out = subprocess.run([sys.executable, "-c", code, ruleset, str(games)],
                         env={**os.environ, "PYTHONMALLOC": "malloc"}, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m brass_service.tools.bench_memory",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="live games (slope from a "
                        "sixth of them)")
    parser.add_argument("--ruleset", choices=["birmingham", "pittsburgh"], action="append")
    args = parser.parse_args(argv)
    if _MALLINFO2 is None:
        sys.exit("bench_memory needs glibc's mallinfo2 (Linux): not available here")
    for ruleset in args.ruleset or ["birmingham", "pittsburgh"]:
        server = live_game_bytes(ruleset, args.games)
        engine = game_bytes(ruleset, args.games // 6, args.games)
        print(f"{ruleset} server_bytes_per_live_game {server:.0f} "
              f"(engine Game objects {engine:.0f})", flush=True)


if __name__ == "__main__":
    main()
