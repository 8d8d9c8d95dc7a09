"""The CPU of a REST decision inside the service, without HTTP or sockets, and the store's
share of it (issue 22, item 2).

    python -m brass_service.tools.bench_gateway [--decisions 4000] [--concurrency 12] \\
        [--rounds 3] [--ruleset birmingham|pittsburgh]

This process runs the service (GameService on a new SQLite file, no creation quota) and
plays random games through its REST gateway (`RestGateway.respond`, what the HTTP front
calls with each request it reads): CONCURRENCY games at once, each decision a SubmitAction
asking for the next options, ListLegalActions when the turn passes, a new game when one
ends. The same process chooses the moves (it reads the answers' JSON), so its figures hold a
client's part too: they are for comparing, not the server's CPU (bench_ab says that).

Each round measures three stores in turn, after a warm-up: `sqlite`, the store as served
(every decision committed on the event loop, its answer sent once the helper thread has
synced the WAL: store/sqlite_loop.py), `sqlite-thread`, the same store writing through its
writer thread alone (BRASS_SQLITE_LOOP_WRITES=false: every decision handed to that thread
and back), and `no-append`, the store whose decision append answers at once without
writing. The difference from the last is what appending a decision costs the process: the
SQL, the hand-overs between threads, and their waits for the GIL. Printed per
store: CPU per decision of the whole process, of the event loop's thread and of the other
threads (from /proc), decisions per second, and the medians over the rounds. A
measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..api.fast_http_parse import FastRequest
from ..api.rest import RestGateway
from ..games.service import GameService
from ..games.settings import ServiceSettings
from ..observability import configure_logging
from ..store.sqlite import SqliteStore
from .bench_ab import clock_ticks, thread_ticks
from .profile import on_service_loop

STORES = ("sqlite", "sqlite-thread", "no-append")
WARMUP_DECISIONS = 300
_JSON = {"content-type": "application/json"}
_REMOTE = "127.0.0.1"


class NoAppendStore(SqliteStore):
    """The SQLite store whose decision append answers at once and writes nothing (the
    games live in memory only): the baseline that shows what appending costs."""

    async def append_decision(self, *_args: Any, **_kwargs: Any) -> int | None:
        return None


@dataclass(frozen=True)
class Run:
    store: str
    decisions: int
    cpu_us: float  # the whole process, per decision
    loop_us: float  # the event loop's thread
    other_us: float  # every other thread (SQLite's writer, the reader)
    per_second: float


class _Player:
    """Plays games through the gateway until the shared count of decisions is reached."""

    def __init__(self, gateway: RestGateway, ruleset: str, rng: random.Random) -> None:
        self.gateway = gateway
        self.ruleset = ruleset
        self.rng = rng
        self.made = 0

    async def _call(self, operation: str, params: dict[str, str], token: str | None,
                    body: object = None) -> Any:
        headers = dict(_JSON)
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        raw = orjson.dumps(body) if body is not None else b""
        status, text, _ = await self.gateway.respond(
            operation, FastRequest(params, "", headers, raw, _REMOTE))
        if status != 200:
            raise RuntimeError(f"{operation} answered {status}: {text[:300]}")
        return orjson.loads(text)

    async def _options(self, game: dict[str, str], token: str) -> tuple[int, list[int]]:
        legal = await self._call("ListLegalActions", game, token)
        return int(legal["version"]), [option["id"] for option in legal["options"]]

    async def play(self, until: int) -> None:
        while self.made < until:
            body: dict[str, object] = {"players": self.rng.choice((2, 3, 4)),
                                       "seed": str(self.rng.getrandbits(32))}
            if self.ruleset != "birmingham":
                body["ruleset"] = f"RULESET_{self.ruleset.upper()}"
            created = await self._call("CreateGame", {}, None, body)
            game = {"gameId": created["gameId"]}
            tokens = [seat["token"] for seat in created["seats"]]
            seat = created["state"]["summary"]["currentSeat"]
            version, ids = await self._options(game, tokens[seat])
            while self.made < until:
                answer = await self._call("SubmitAction", game, tokens[seat], {
                    "action": {"optionId": self.rng.choice(ids)},
                    "expectedVersion": str(version), "includeLegalActions": True})
                self.made += 1
                summary = answer["state"]["summary"]
                if summary["status"] != "GAME_STATUS_IN_PROGRESS":
                    break
                following = answer.get("nextActions")
                if following:
                    version = int(following["version"])
                    ids = [option["id"] for option in following["options"]]
                else:
                    seat = summary["currentSeat"]
                    version, ids = await self._options(game, tokens[seat])


async def _measure(store_kind: str, decisions: int, concurrency: int, ruleset: str,
                   workdir: Path) -> Run:
    path = workdir / f"{store_kind}.sqlite3"
    store = (NoAppendStore(path) if store_kind == "no-append"
             else SqliteStore(path, loop_writes=store_kind == "sqlite"))
    await store.open()
    service = GameService(store, ServiceSettings(create_game_rate=""))
    await service.start()
    try:
        player = _Player(RestGateway(service, store.health), ruleset, random.Random(22))
        await asyncio.gather(*(player.play(WARMUP_DECISIONS) for _ in range(concurrency)))
        started_with = player.made
        loop_thread = threading.get_native_id()
        before, cpu_before, wall_before = thread_ticks(), time.process_time(), time.monotonic()
        await asyncio.gather(*(player.play(started_with + decisions)
                               for _ in range(concurrency)))
        cpu = time.process_time() - cpu_before
        wall = time.monotonic() - wall_before
        after = thread_ticks()
    finally:
        await service.stop()
        await store.close()
    made = player.made - started_with
    hertz = clock_ticks()
    loop_ticks = after.get(loop_thread, 0) - before.get(loop_thread, 0)
    other_ticks = sum(after.values()) - sum(before.get(t, 0) for t in after) - loop_ticks
    per = 1e6 / max(made, 1)
    return Run(store_kind, made, cpu * per, loop_ticks / hertz * per,
               other_ticks / hertz * per, made / wall)


def measure(store_kind: str, decisions: int, concurrency: int = 12,
            ruleset: str = "birmingham") -> Run:
    """One run on a new SQLite file, on the service's own event loop."""
    return on_service_loop(
        lambda workdir: _measure(store_kind, decisions, concurrency, ruleset, workdir),
        "brass-bench-gateway-")


def main(argv: list[str] | None = None) -> list[Run]:
    parser = argparse.ArgumentParser(prog="python -m brass_service.tools.bench_gateway",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ruleset", choices=("birmingham", "pittsburgh"), default="birmingham")
    args = parser.parse_args(argv)
    configure_logging("warning")
    runs: list[Run] = []
    for round_number in range(1, args.rounds + 1):
        order = STORES[round_number % len(STORES):] + STORES[:round_number % len(STORES)]
        for store_kind in order:
            run = measure(store_kind, args.decisions, args.concurrency, args.ruleset)
            runs.append(run)
            print(f"round {round_number} {store_kind}: {run.decisions} decisions, "
                  f"{run.per_second:.0f}/s; CPU per decision {run.cpu_us:.1f} µs "
                  f"(event loop {run.loop_us:.1f}, other threads {run.other_us:.1f})",
                  flush=True)
    medians = {}
    for store_kind in STORES:
        mine = [run for run in runs if run.store == store_kind]
        medians[store_kind] = statistics.median(run.cpu_us for run in mine)
        print(f"{store_kind}: median CPU per decision {medians[store_kind]:.1f} µs "
              f"(event loop {statistics.median(r.loop_us for r in mine):.1f}, other threads "
              f"{statistics.median(r.other_us for r in mine):.1f}), "
              f"{statistics.median(r.per_second for r in mine):.0f} decisions/s")
    for store_kind in STORES[:-1]:
        print(f"appending a decision ({store_kind}): "
              f"{medians[store_kind] - medians['no-append']:.1f} µs of CPU per decision "
              "(median difference)")
    return runs


if __name__ == "__main__":
    main()
