"""Bulk export at scale (issue 25, item 4):

    python -m brass_service.tools.bench_export [--games 1000] [--players 2] [--keep DIR]

Fills a new SQLite store with `--games` finished random games of Birmingham (and one in
four of Pittsburgh), a decision row per decision with its events and state hash, through
the store's own methods (games written concurrently, so SQLite's writer commits many rows
at once); then starts `brass serve` on it, streams GET /v1/games:export of all of them to a
file, and reloads the file with brass.records.read_export, which rebuilds every game and
checks its final state hash. Prints the games, decisions and bytes, the export's wall time
and games/s, the server's peak memory (VmHWM), and the reload's time and games/s. A
measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import brass
from brass import records
from brass_service.gen import game_service_pb2 as pb
from brass_service.requests import RULESET_IDS
from brass_service.store import DecisionRow, GameRow, HeadUpdate, Snapshot, open_store

_CONCURRENT_GAMES = 200


async def _store_game(store: object, index: int, players: int, rng: random.Random) -> int:
    ruleset = "pittsburgh" if index % 4 == 3 else "birmingham"
    seed = rng.randrange(2**40)
    game = brass.Game.new(players, seed=seed, ruleset=ruleset)
    now = time.time()
    game_id = f"e{index:08d}{secrets.token_hex(4)}"
    row = GameRow(game_id=game_id, ruleset=RULESET_IDS[ruleset],
                  rules_edition=int(game.rules_edition), players=players, seed=seed,
                  options=game.replay_record()["options"], position_json=None,
                  seat_names=[f"P{i}" for i in range(players)], token_hashes=[""] * players,
                  created_at=now, updated_at=now, version=0, status=pb.GAME_STATUS_IN_PROGRESS,
                  current_seat=game.current_seat, decision=game.decision)
    await store.create_game(row, Snapshot(0, game.snapshot()))  # type: ignore[attr-defined]
    while not game.is_over:
        seat, version = game.current_seat, game.version
        option = rng.choice(game.legal_ids())
        events = game.apply(option)
        decision = DecisionRow(game_id, version, game.version, seat,
                               {"ids": [option], "compound": False}, None, f"f{version}",
                               events, b"", time.time(), int(game.state_hash()))
        head = HeadUpdate(game.version, pb.GAME_STATUS_FINISHED if game.is_over
                          else pb.GAME_STATUS_IN_PROGRESS, game.current_seat, game.decision,
                          time.time())
        await store.append_decision(decision, head, None)  # type: ignore[attr-defined]
    return game.version


async def _fill(url: str, games: int, players: int) -> int:
    store = open_store(url)
    await store.open()
    rng = random.Random(25)
    decisions = 0
    try:
        for start in range(0, games, _CONCURRENT_GAMES):
            batch = range(start, min(start + _CONCURRENT_GAMES, games))
            done = await asyncio.gather(*(_store_game(store, i, players, random.Random(
                rng.random())) for i in batch))
            decisions += sum(done)
    finally:
        await store.close()  # type: ignore[attr-defined]
    return decisions


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="work here (kept) instead of a temp dir")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="brass-export-"))
    work.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{work / 'games.sqlite3'}"
    started = time.perf_counter()
    decisions = asyncio.run(_fill(url, args.games, args.players))
    print(f"filled: {args.games} finished games, {decisions} decisions "
          f"in {time.perf_counter() - started:.1f} s")
    grpc_port, http_port, token = _free_port(), _free_port(), secrets.token_hex(16)
    server = subprocess.Popen(
        [sys.executable, "-m", "brass_service", "--port", str(grpc_port), "--http-port",
         str(http_port), "--database-url", url, "--log-level", "warning"],
        env={**os.environ, "BRASS_OPERATOR_TOKEN": token, "BRASS_HOST": "127.0.0.1"},
        start_new_session=True)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", http_port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        export = work / "games.jsonl"
        connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=600)
        started = time.perf_counter()
        connection.request("GET", f"/v1/games:export?limit={args.games}",
                           headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        with export.open("wb") as out:
            while chunk := response.read(1 << 16):
                out.write(chunk)
        took = time.perf_counter() - started
        peak = _peak_kib(server.pid)
        size = export.stat().st_size
        print(f"export: HTTP {response.status}, {size / 1e6:.1f} MB in {took:.2f} s: "
              f"{args.games / took:.0f} games/s; server peak memory {peak / 1024:.0f} MiB")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    started = time.perf_counter()
    with export.open("rb") as lines:
        loaded = sum(1 for _ in records.read_export(lines))
    took = time.perf_counter() - started
    print(f"reload: {loaded} games rebuilt, every state hash matching, in {took:.2f} s: "
          f"{loaded / took:.0f} games/s")
    assert loaded == args.games


if __name__ == "__main__":
    main()
