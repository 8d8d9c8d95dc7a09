"""Throughput figure: accepted decisions per second through gRPC and through REST.

    python -m brass_service.tools.bench --grpc 127.0.0.1:50051 --http 127.0.0.1:8080 \\
        --seconds 30 --clients 2 --concurrency 8 [--only grpc|rest] [--calls both]

Each client process keeps `--concurrency` random games in flight (asyncio) against a
running server on loopback, each game on a connection of its own (as a browser tab or a bot
would hold one). A decision is one SubmitAction with include_legal_actions; ListLegalActions
is called only when the answer carries no next options (the seat to act changed).
`--calls list-and-submit` calls both for every decision instead (the older client pattern),
and `--calls both` measures the two one after the other and prints their ratio.

Printed: accepted decisions per second, the client-side latency (p50, p99) of SubmitAction
and of every request a decision needed (SubmitAction and ListLegalActions), and the client
processes' own CPU time per decision. It is a measurement, not a test: nothing is
asserted, but any error answer stops the run (so a figure printed is one with no errors),
with one sentence saying why: no server at the address, or the server's quota on creating
games (run the server with `BRASS_CREATE_GAME_RATE=`, no limit, for a benchmark).
The clients are kept cheap (a bare HTTP/1.1 connection read in one go and orjson for REST,
uvloop when installed), since they share the machine with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import re
import socket
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

# (version, option ids) of the decision the caller is to make
Options = tuple[int, list[int]]
# After a submission: (game goes on, seat to act, the caller's next options or None)
Outcome = tuple[bool, int, Options | None]


@dataclass
class Figure:
    transport: str
    decisions: int
    seconds: float
    submit_latencies: list[float] = field(default_factory=list)
    all_latencies: list[float] = field(default_factory=list)
    client_cpu_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    @staticmethod
    def percentile(latencies: list[float], fraction: float) -> float:
        """The latency at `fraction` (0.5, 0.99), in milliseconds."""
        if not latencies:
            return 0.0
        ordered = sorted(latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Session(Protocol):
    """One game's connection to the service."""

    async def create(self, players: int, seed: int, ruleset: str
                     ) -> tuple[str, list[str], int]: ...
    async def legal(self, game_id: str, token: str) -> Options: ...
    async def submit(self, game_id: str, token: str, option: int, version: int,
                     next_actions: bool) -> Outcome: ...
    async def close(self) -> None: ...


class RestSession:
    """A bare HTTP/1.1 keep-alive connection. A general client (aiohttp) costs about as much
    CPU per request as the server's whole handling of it; this one writes the request and
    reads the Content-Length body, which is all the service's JSON answers need."""

    def __init__(self, address: str) -> None:
        host, _, port = address.rpartition(":")
        self.host, self.port = host, int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.buffer = bytearray()

    async def _call(self, method: str, path: str, body: object = None,
                    token: str | None = None) -> Any:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = orjson.dumps(body) if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if payload:
            head += "Content-Type: application/json\r\n"
        head += f"Content-Length: {len(payload)}\r\n\r\n"
        self.writer.write(head.encode() + payload)
        # One read usually holds the whole answer: read whatever has come until the head
        # and its Content-Length body are in.
        buffer = self.buffer
        end = total = -1
        while total < 0 or len(buffer) < total:
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise ConnectionError(f"{method} {path}: the server closed the connection")
            buffer += chunk
            if end < 0:
                end = buffer.find(b"\r\n\r\n")
                if end >= 0:
                    length = 0
                    for line in bytes(buffer[:end]).split(b"\r\n")[1:]:
                        name, _, value = line.partition(b":")
                        if name.strip().lower() == b"content-length":
                            length = int(value)
                    total = end + 4 + length
        status = bytes(buffer[9:12])
        document = orjson.loads(buffer[end + 4:total])
        del buffer[:total]
        if status != b"200":
            raise RuntimeError(f"{method} {path}: {document}")
        return document

    async def create(self, players: int, seed: int, ruleset: str
                     ) -> tuple[str, list[str], int]:
        body: dict[str, object] = {"players": players, "seed": str(seed)}
        if ruleset != "birmingham":  # builds from before Pittsburgh know no such field
            body["ruleset"] = f"RULESET_{ruleset.upper()}"
        created = await self._call("POST", "/v1/games", body)
        summary = created["state"]["summary"]
        return created["gameId"], [s["token"] for s in created["seats"]], summary["currentSeat"]

    async def legal(self, game_id: str, token: str) -> Options:
        legal = await self._call("GET", f"/v1/games/{game_id}/actions", token=token)
        return int(legal["version"]), [o["id"] for o in legal["options"]]

    async def submit(self, game_id: str, token: str, option: int, version: int,
                     next_actions: bool) -> Outcome:
        answer = await self._call(
            "POST", f"/v1/games/{game_id}/actions",
            {"action": {"optionId": option}, "expectedVersion": version,
             "includeLegalActions": next_actions},
            token,
        )
        summary = answer["state"]["summary"]
        going_on = summary["status"] == "GAME_STATUS_IN_PROGRESS"
        following = answer.get("nextActions")
        options = ((int(following["version"]), [o["id"] for o in following["options"]])
                   if following else None)
        return going_on, summary.get("currentSeat", -1), options

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class GrpcSession:
    """The asyncio SDK on a channel (one HTTP/2 connection) of its own."""

    def __init__(self, target: str) -> None:
        from brass_clients.aio_sdk import AsyncGameClient

        self.client = AsyncGameClient(target)

    async def create(self, players: int, seed: int, ruleset: str
                     ) -> tuple[str, list[str], int]:
        options = {"ruleset": ruleset} if ruleset != "birmingham" else {}
        created = await self.client.create_game(players=players, seed=seed, **options)
        return (created.game_id, [s.token for s in created.seats],
                created.state.summary.current_seat)

    async def legal(self, game_id: str, token: str) -> Options:
        legal = await self.client.list_legal_actions(game_id, token)
        return legal.version, [o.id for o in legal.options]

    async def submit(self, game_id: str, token: str, option: int, version: int,
                     next_actions: bool) -> Outcome:
        from brass_clients.aio_sdk import pb

        response = await self.client.submit_action(
            game_id, token, option, expected_version=version,
            include_legal_actions=next_actions,
        )
        summary = response.state.summary
        following = response.next_actions if response.HasField("next_actions") else None
        options = (following.version, [o.id for o in following.options]) if following else None
        return (summary.status == pb.GAME_STATUS_IN_PROGRESS, summary.current_seat, options)

    async def close(self) -> None:
        await self.client.close()


async def _play_games(transport: str, address: str, seconds: float, seed: int,
                      concurrency: int, next_actions: bool, ruleset: str
                      ) -> tuple[int, list[float], list[float]]:
    deadline = time.monotonic() + seconds
    submit_latencies: list[float] = []
    all_latencies: list[float] = []
    counts = [0] * concurrency

    async def player(index: int) -> None:
        session: Session = RestSession(address) if transport == "rest" else GrpcSession(address)
        rng = random.Random(seed * 1000 + index)
        try:
            while time.monotonic() < deadline:
                game_id, tokens, seat = await session.create(rng.choice((2, 3, 4)),
                                                             rng.getrandbits(32), ruleset)
                options: Options | None = None
                going_on = True
                while going_on and time.monotonic() < deadline:
                    token = tokens[seat]
                    if options is None:
                        started = time.perf_counter()
                        options = await session.legal(game_id, token)
                        all_latencies.append(time.perf_counter() - started)
                    version, ids = options
                    started = time.perf_counter()
                    going_on, seat, options = await session.submit(
                        game_id, token, rng.choice(ids), version, next_actions)
                    elapsed = time.perf_counter() - started
                    submit_latencies.append(elapsed)
                    all_latencies.append(elapsed)
                    counts[index] += 1
        finally:
            await session.close()

    await asyncio.gather(*(player(i) for i in range(concurrency)))
    return sum(counts), submit_latencies, all_latencies


def _worker(transport: str, address: str, seconds: float, seed: int, concurrency: int,
            next_actions: bool, ruleset: str) -> tuple[int, list[float], list[float], float]:
    """(decisions, SubmitAction latencies, every request's latencies, this process's CPU
    seconds while playing)."""
    games = _play_games(transport, address, seconds, seed, concurrency, next_actions, ruleset)
    started = time.process_time()
    try:  # uvloop takes about a fifth off the clients' own CPU time
        import uvloop
    except ImportError:
        result = asyncio.run(games)
    else:
        result = uvloop.run(games)
    return (*result, time.process_time() - started)


def measure(transport: str, address: str, seconds: float, clients: int,
            concurrency: int = 1, next_actions: bool = True,
            ruleset: str = "birmingham") -> Figure:
    """Runs `clients` processes (not threads: the GIL would make the client the bottleneck),
    each with `concurrency` games in flight."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(clients) as pool:
        results = pool.starmap(
            _worker,
            [(transport, address, seconds, 1000 + i, concurrency, next_actions, ruleset)
             for i in range(clients)],
        )
    return Figure(transport, sum(r[0] for r in results), seconds,
                  [x for r in results for x in r[1]], [x for r in results for x in r[2]],
                  sum(r[3] for r in results))


def unreachable(address: str) -> str | None:
    """Why nothing answers at host:port (the system's words), or None when something does."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            return None
    except (OSError, ValueError) as exc:
        return str(exc)


def explain(exc: BaseException, transport: str, address: str) -> str:
    """What stopped a run, in a sentence that says what to do (no traceback): the server's
    game-creation quota above all, which a default server reaches in a second."""
    text = str(exc)
    reason = getattr(exc, "reason", "") or next(iter(re.findall(r"'reason': '(\w+)'", text)), "")
    limit = (getattr(exc, "metadata", None) or {}).get("limit") or next(
        iter(re.findall(r"'limit': '(\w+)'", text)), "")
    if reason == "RATE_LIMITED" and limit == "create_game_rate":
        return (f"the server's game-creation quota stopped the run ({transport} at {address}: "
                "RATE_LIMITED, limit create_game_rate, by default 5/second;60/minute;1000/day "
                "per address). The benchmark creates a game for each game in flight and "
                "another as each ends: start the server for it with no creation limit, "
                "BRASS_CREATE_GAME_RATE= brass serve")
    if reason == "RATE_LIMITED":
        return (f"a quota of the server stopped the run ({transport} at {address}: "
                f"RATE_LIMITED, limit {limit or 'unnamed'}): start the server with "
                f"BRASS_{(limit or 'THAT_LIMIT').upper()}= to lift it for a benchmark")
    if reason == "UNAVAILABLE" or isinstance(exc, ConnectionError):
        return (f"no server answers {transport} at {address} ({text}): start one, "
                "BRASS_CREATE_GAME_RATE= brass serve, or give its address "
                f"(--{'grpc' if transport == 'grpc' else 'http'} HOST:PORT)")
    return f"{transport} at {address} answered an error, which stops the run: {text}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m brass_service.tools.bench",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grpc", default="127.0.0.1:50051", help="gRPC address")
    parser.add_argument("--http", default="127.0.0.1:8080", help="REST address")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--concurrency", type=int, default=8,
                        help="games in flight per client process")
    parser.add_argument("--only", choices=("grpc", "rest"), help="measure one transport")
    parser.add_argument(
        "--calls", choices=("next-actions", "list-and-submit", "both"), default="next-actions",
        help="next-actions (default): SubmitAction with include_legal_actions, "
        "ListLegalActions only when the seat to act changes; list-and-submit: both calls "
        "for every decision (the baseline); both: one after the other, with their ratio",
    )
    args = parser.parse_args(argv)
    modes = ["list-and-submit", "next-actions"] if args.calls == "both" else [args.calls]
    for transport, address in (("grpc", args.grpc), ("rest", args.http)):
        if args.only and transport != args.only:
            continue
        rates = []
        why = unreachable(address)
        if why:
            raise SystemExit(explain(ConnectionError(why), transport, address))
        for mode in modes:
            try:
                figure = measure(transport, address, args.seconds, args.clients,
                                 args.concurrency, next_actions=mode == "next-actions")
            except Exception as exc:  # an error answer stops the run: say why, not how
                raise SystemExit(explain(exc, transport, address)) from None
            rates.append(figure.per_second)
            p = Figure.percentile
            print(
                f"{transport} [{mode}]: {figure.decisions} accepted decisions in "
                f"{figure.seconds:.1f} s = {figure.per_second:.0f}/s ({args.clients} clients x "
                f"{args.concurrency} games in flight); SubmitAction p50 "
                f"{p(figure.submit_latencies, 0.5):.1f} ms, p99 "
                f"{p(figure.submit_latencies, 0.99):.1f} ms; all requests p50 "
                f"{p(figure.all_latencies, 0.5):.1f} ms, p99 "
                f"{p(figure.all_latencies, 0.99):.1f} ms; client CPU "
                f"{1000 * figure.client_cpu_seconds / max(1, figure.decisions):.3f} ms/decision"
            )
        if len(rates) == 2 and rates[0]:
            print(f"{transport}: next-actions / list-and-submit = {rates[1] / rates[0]:.2f}x")


if __name__ == "__main__":
    main()
