"""Where one SubmitAction's CPU goes, stage by stage, on each transport and ruleset.

    python -m brass_service.tools.profile [--decisions 400] [--warmup 100] \\
        [--transport rest grpc] [--ruleset birmingham pittsburgh]

For each transport (REST through the lean HTTP/1.1 front, gRPC) and ruleset, a server runs
in this process on a new SQLite file, and a client process plays real games on it, one
request at a time (each SubmitAction asks for the next options; ListLegalActions only when
the seat to act changes, as the bench does). The stages' functions are wrapped, in this
process only, by timers of the process's CPU time (every thread: SQLite's writer and gRPC's
own threads included); the server the service runs is never timed. Each stage's time is its
own, without the stages it calls (a stack of timers):

- parse: the request's bytes to its message (REST: the head and the JSON body; gRPC: the
  protobuf request)
- transport handler: the request record, metadata, the caller, errors as answers
- authenticate: the caller's address and the seat's token
- lock: the game's lock and the game as this replica holds it
- play bookkeeping: bounds, fingerprint, hosted play's checks, the clock, the rows to store
- engine apply: clone, apply (or compound, undo), state hash, snapshot
- store append: the decision, head and snapshot appended (SQLite, its writer thread)
- signals: the game's watchers and the timer woken
- encode view: the GameState (summary and the seat's view), bytes or JSON text
- encode events: the decision's events
- encode next actions: the seat's next legal options
- respond: the answer assembled and serialized, the HTTP response's bytes
- event loop and I/O: what no stage holds (the loop, sockets, gRPC's core), shared out over
  every request by count

Printed per transport and ruleset: µs of CPU per accepted decision and % of the total for
each stage (SubmitAction's own; the other requests' stages are left out), and the process's
CPU per decision over all requests. One request at a time on one process: figures are
per decision, not throughput (the bench measures that). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import multiprocessing
import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import brass

from ..api import fast_http, grpc_api, rest
from ..api.fast_http import FastHttpProtocol
from ..api.grpc_api import GameServicer
from ..api.rest import RestGateway
from ..games import act
from ..games.access import Access
from ..games.act import Play
from ..games.live import LiveGames
from ..games.signals import ChangeBroker, Signals
from ..store.sqlite import SqliteStore
from ..views.answers import LegalOptions, StateParts
from ..views.reply import Reply
from .bench import GrpcSession, RestSession

STAGES = (
    "parse", "transport handler", "authenticate", "lock", "play bookkeeping", "engine apply",
    "store append", "signals", "encode view", "encode events", "encode next actions",
    "respond", "event loop and I/O",
)
UNATTRIBUTED = "event loop and I/O"
SUBMIT = "SubmitAction"
RULESET_NAMES = {"birmingham": "RULESET_BIRMINGHAM", "pittsburgh": "RULESET_PITTSBURGH"}


class StageClock:
    """Per request kind and stage, the process CPU seconds spent in the stage itself (a
    stack: a stage's time leaves out the stages it calls). Requests run one at a time."""

    def __init__(self) -> None:
        self.seconds: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.requests: dict[str, int] = defaultdict(int)
        self.kind = "?"  # the request being answered (the last one to start)
        self.pending_parse = 0.0  # parsed before its handler said what it is
        self._stack: list[list[Any]] = []

    def reset(self) -> None:
        self.seconds.clear()
        self.requests.clear()
        self.pending_parse = 0.0

    def start_request(self, kind: str) -> None:
        self.kind = kind
        self.requests[kind] += 1
        self.seconds[kind]["parse"] += self.pending_parse
        self.pending_parse = 0.0

    def enter(self, stage: str) -> None:
        self._stack.append([stage, time.process_time(), 0.0])

    def leave(self) -> None:
        stage, started, inner = self._stack.pop()
        elapsed = time.process_time() - started
        if self._stack:
            self._stack[-1][2] += elapsed
        if stage == "parse" and not self._stack:
            self.pending_parse += elapsed - inner
        else:
            self.seconds[self.kind][stage] += elapsed - inner

    @contextmanager
    def stage(self, stage: str) -> Iterator[None]:
        self.enter(stage)
        try:
            yield
        finally:
            self.leave()


def _timed(clock: StageClock, stage: str, function: Callable[..., Any],
           kind_of: Callable[..., str] | None = None) -> Callable[..., Any]:
    """`function` with its calls counted as `stage`; `kind_of(*args)` names the request a
    transport's handler starts."""
    if inspect.iscoroutinefunction(function):
        @functools.wraps(function)
        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            if kind_of is not None:
                clock.start_request(kind_of(*args))
            clock.enter(stage)
            try:
                return await function(*args, **kwargs)
            finally:
                clock.leave()
        return timed_async

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        clock.enter(stage)
        try:
            return function(*args, **kwargs)
        finally:
            clock.leave()
    return timed


def _wrap_parser(clock: StageClock, make: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(make)
    def tolerant_parser(message_class: Any) -> Any:
        return _timed(clock, "parse", make(message_class))
    return tolerant_parser


@contextmanager
def instrumented(clock: StageClock) -> Iterator[None]:
    """The stages' functions wrapped by `clock` until the block ends (set before the
    server is built: gRPC's parsers and serializer are taken when it registers)."""
    points: list[tuple[Any, str, str, Callable[..., str] | None]] = [
        (FastHttpProtocol, "_next_request", "parse", None),
        (rest, "read_body", "parse", None),
        (RestGateway, "respond", "transport handler", lambda self, operation, *_: operation),
        (GameServicer, "_call", "transport handler", lambda self, method, *_: method),
        (RestGateway, "caller", "authenticate", None),
        (Access, "client_address", "authenticate", None),
        (Access, "require_seat", "authenticate", None),
        (LiveGames, "lock_for", "lock", None),
        (LiveGames, "get", "lock", None),
        (Play, "submit_action", "play bookkeeping", None),
        (Play, "undo_action", "play bookkeeping", None),
        (brass.Game, "clone", "engine apply", None),
        (brass.Game, "apply", "engine apply", None),
        (brass.Game, "apply_compound", "engine apply", None),
        (brass.Game, "undo", "engine apply", None),
        (brass.Game, "state_hash", "engine apply", None),
        (brass.Game, "snapshot", "engine apply", None),
        (SqliteStore, "append_decision", "store append", None),
        (ChangeBroker, "publish", "signals", None),
        (Signals, "wake_timer", "signals", None),
        (StateParts, "message", "encode view", None),
        (StateParts, "to_json_text", "encode view", None),
        (StateParts, "to_bytes", "encode view", None),
        (act, "event_messages", "encode events", None),
        (act, "events_json", "encode events", None),
        (LegalOptions, "parts", "encode next actions", None),
        (LegalOptions, "json_text", "encode next actions", None),
        (act, "add_compound_actions", "encode next actions", None),
        (Reply, "to_bytes", "respond", None),
        (Reply, "to_json_text", "respond", None),
        (grpc_api, "serialize", "respond", None),
        (fast_http, "response_bytes", "respond", None),
    ]
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _, _ in points]
    saved.append((grpc_api, "_tolerant_parser", grpc_api._tolerant_parser))
    try:
        for owner, name, stage, kind_of in points:
            timed = _timed(clock, stage, getattr(owner, name), kind_of)
            if isinstance(owner.__dict__[name], staticmethod):
                timed = staticmethod(timed)
            setattr(owner, name, timed)
        grpc_api._tolerant_parser = _wrap_parser(clock, grpc_api._tolerant_parser)
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


# ------------------------------------------------------------------------ the client

class _RestPlayer(RestSession):
    def __init__(self, address: str, ruleset: str) -> None:
        super().__init__(address)
        self.ruleset = ruleset

    async def create(self, players: int, seed: int) -> tuple[str, list[str], int]:
        created = await self._call("POST", "/v1/games", {
            "players": players, "seed": str(seed), "ruleset": RULESET_NAMES[self.ruleset]})
        summary = created["state"]["summary"]
        return created["gameId"], [s["token"] for s in created["seats"]], summary["currentSeat"]


class _GrpcPlayer(GrpcSession):
    def __init__(self, address: str, ruleset: str) -> None:
        super().__init__(address)
        self.ruleset = ruleset

    async def create(self, players: int, seed: int) -> tuple[str, list[str], int]:
        created = await self.client.create_game(players=players, seed=seed,
                                                ruleset=self.ruleset)
        return (created.game_id, [s.token for s in created.seats],
                created.state.summary.current_seat)


async def _play(transport: str, address: str, ruleset: str, warmup: int, decisions: int,
                warm: Any, go: Any) -> None:
    session = (_RestPlayer(address, ruleset) if transport == "rest"
               else _GrpcPlayer(address, ruleset))
    rng = random.Random(22)
    made = 0
    try:
        while made < warmup + decisions:
            game_id, tokens, seat = await session.create(rng.choice((2, 3, 4)),
                                                         rng.getrandbits(32))
            options = None
            going_on = True
            while going_on and made < warmup + decisions:
                if options is None:
                    options = await session.legal(game_id, tokens[seat])
                version, ids = options
                going_on, seat, options = await session.submit(
                    game_id, tokens[seat], rng.choice(ids), version, True)
                made += 1
                if made == warmup:  # the server starts counting before the next one
                    warm.set()
                    go.wait()
    finally:
        await session.close()


def _client(transport: str, address: str, ruleset: str, warmup: int, decisions: int,
            warm: Any, go: Any) -> None:
    asyncio.run(_play(transport, address, ruleset, warmup, decisions, warm, go))


# ------------------------------------------------------------------------ the server

def _wait_warm(warm: Any, client: Any) -> None:
    while not warm.wait(0.2) and client.is_alive():
        pass


@dataclass
class Profile:
    transport: str
    ruleset: str
    decisions: int
    process_cpu_seconds: float  # the whole process, every request
    stages: dict[str, float]  # SubmitAction's seconds per stage
    requests: dict[str, int]

    def lines(self) -> list[str]:
        total = sum(self.stages.values())
        per = 1e6 / max(1, self.decisions)
        others = {k: v for k, v in self.requests.items() if k != SUBMIT}
        out = [f"{self.transport} {self.ruleset}: {self.decisions} decisions; process CPU "
               f"{per * self.process_cpu_seconds:.0f} µs per decision over all requests "
               f"(other requests: {others or 'none'})",
               f"  {'stage':<22}{'µs/decision':>12}{'%':>8}"]
        for stage in STAGES:
            seconds = self.stages.get(stage, 0.0)
            out.append(f"  {stage:<22}{per * seconds:>12.1f}"
                       f"{100 * seconds / total if total else 0:>8.1f}")
        out.append(f"  {'SubmitAction':<22}{per * total:>12.1f}{100.0:>8.1f}")
        return out


async def _profile_async(transport: str, ruleset: str, warmup: int, decisions: int,
                         workdir: Path) -> Profile:
    from ..app.server import ServerInfo, serve_async

    clock = StageClock()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    started: asyncio.Future[ServerInfo] = loop.create_future()
    with instrumented(clock):
        server = asyncio.create_task(serve_async(
            0, 0, f"sqlite:///{workdir / 'games.sqlite3'}", "warning", host="127.0.0.1",
            stop=stop, started=started))
        try:
            info = await started
            address = f"127.0.0.1:{info.grpc_port if transport == 'grpc' else info.http_port}"
            context = multiprocessing.get_context("spawn")
            warm, go = context.Event(), context.Event()
            client = context.Process(target=_client, args=(
                transport, address, ruleset, warmup, decisions, warm, go))
            client.start()
            await loop.run_in_executor(None, _wait_warm, warm, client)
            clock.reset()
            cpu_started = time.process_time()
            go.set()
            await loop.run_in_executor(None, client.join)
            cpu = time.process_time() - cpu_started
            if client.exitcode != 0:
                raise RuntimeError(f"the profile's client failed (exit {client.exitcode})")
        finally:
            stop.set()
            await server
    stages = dict(clock.seconds.get(SUBMIT, {}))
    attributed = sum(sum(kind.values()) for kind in clock.seconds.values())
    requests = dict(clock.requests)
    share = requests.get(SUBMIT, 0) / max(1, sum(requests.values()))
    stages[UNATTRIBUTED] = max(0.0, cpu - attributed) * share
    return Profile(transport, ruleset, requests.get(SUBMIT, 0), cpu, stages, requests)


T = TypeVar("T")


def on_service_loop(work: Callable[[Path], Awaitable[T]], prefix: str) -> T:
    """`await work(workdir)` on the server's own event loop (uvloop where installed, as
    `brass serve`), in a new temporary directory; its result."""
    from ..app.server import run_event_loop

    results: list[T] = []

    async def run(workdir: Path) -> None:
        results.append(await work(workdir))

    with tempfile.TemporaryDirectory(prefix=prefix) as workdir:
        run_event_loop(run(Path(workdir)))
    return results[0]


def profile(transport: str, ruleset: str, warmup: int, decisions: int) -> Profile:
    """One transport and ruleset profiled on a new SQLite file."""
    return on_service_loop(
        lambda workdir: _profile_async(transport, ruleset, warmup, decisions, workdir),
        "brass-profile-")


def main(argv: list[str] | None = None) -> list[Profile]:
    parser = argparse.ArgumentParser(prog="python -m brass_service.tools.profile",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=400, help="measured decisions")
    parser.add_argument("--warmup", type=int, default=100, help="decisions before measuring")
    parser.add_argument("--transport", nargs="+", choices=("rest", "grpc"),
                        default=["rest", "grpc"])
    parser.add_argument("--ruleset", nargs="+", choices=tuple(RULESET_NAMES),
                        default=list(RULESET_NAMES))
    args = parser.parse_args(argv)
    profiles = []
    for transport in args.transport:
        for ruleset in args.ruleset:
            result = profile(transport, ruleset, max(1, args.warmup), args.decisions)
            profiles.append(result)
            print("\n".join(result.lines()), flush=True)
    return profiles


if __name__ == "__main__":
    main()
