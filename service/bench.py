"""Quick throughput figure: accepted decisions per second through gRPC and through REST.

    python -m brass_service.bench --grpc 127.0.0.1:50051 --http 127.0.0.1:8080 \\
        --seconds 10 --clients 4 [--concurrency 8] [--only grpc|rest]

Each client process plays random games against a running server (SubmitAction with
include_legal_actions, ListLegalActions only when the seat to act changes; `--calls
list-and-submit` calls both for every decision), on loopback only; with --concurrency K
each process keeps K games in flight (asyncio), otherwise it plays one game at a time, call
after call. The figures are
accepted decisions per second and the client-side latency of SubmitAction (p50, p99). It is
a measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import random
import time
from dataclasses import dataclass, field

# One worker's result: accepted decisions and the latencies (seconds) of its SubmitActions.
WorkerResult = tuple[int, list[float]]


@dataclass
class Figure:
    transport: str
    decisions: int
    seconds: float
    submit_latencies: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    def percentile(self, fraction: float) -> float:
        """Client-side SubmitAction latency at `fraction` (0.5, 0.99), in milliseconds."""
        if not self.submit_latencies:
            return 0.0
        ordered = sorted(self.submit_latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _grpc_worker(target: str, seconds: float, seed: int, next_actions: bool) -> WorkerResult:
    from brass_clients.sdk import GameClient, pb

    deadline = time.monotonic() + seconds  # counted from here: process start-up excluded
    rng = random.Random(seed)
    decisions = 0
    latencies: list[float] = []
    with GameClient(target) as client:
        while time.monotonic() < deadline:
            created = client.create_game(players=rng.choice((2, 3, 4)), seed=rng.getrandbits(32))
            tokens = [s.token for s in created.seats]
            state = created.state
            legal = None
            while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
                if time.monotonic() >= deadline:
                    return decisions, latencies
                token = tokens[state.summary.current_seat]
                if legal is None:
                    legal = client.list_legal_actions(created.game_id, token)
                started = time.perf_counter()
                response = client.submit_action(
                    created.game_id, token, rng.choice(legal.options).id,
                    expected_version=legal.version, include_legal_actions=next_actions,
                )
                latencies.append(time.perf_counter() - started)
                state = response.state
                legal = response.next_actions if response.HasField("next_actions") else None
                decisions += 1
    return decisions, latencies


def _rest_worker(address: str, seconds: float, seed: int, next_actions: bool) -> WorkerResult:
    deadline = time.monotonic() + seconds
    host, _, port = address.rpartition(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def call(method: str, path: str, body: object = None, token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        payload = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {payload}")
        return payload

    rng = random.Random(seed)
    decisions = 0
    latencies: list[float] = []
    try:
        while time.monotonic() < deadline:
            created = call("POST", "/v1/games", {"players": rng.choice((2, 3, 4)),
                                                 "seed": str(rng.getrandbits(32))})
            game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
            state = created["state"]
            legal = None
            while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
                if time.monotonic() >= deadline:
                    return decisions, latencies
                token = tokens[state["summary"]["currentSeat"]]
                if legal is None:
                    legal = call("GET", f"/v1/games/{game_id}/actions", token=token)
                started = time.perf_counter()
                answer = call(
                    "POST", f"/v1/games/{game_id}/actions",
                    {"action": {"optionId": rng.choice(legal["options"])["id"]},
                     "expectedVersion": legal["version"],
                     "includeLegalActions": next_actions},
                    token,
                )
                latencies.append(time.perf_counter() - started)
                state, legal = answer["state"], answer.get("nextActions")
                decisions += 1
        return decisions, latencies
    finally:
        connection.close()


async def _grpc_games(
    target: str, seconds: float, seed: int, concurrency: int, next_actions: bool
) -> WorkerResult:
    from brass_clients.aio_sdk import AsyncGameClient, pb

    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    counts = [0] * concurrency

    async def player(index: int, client: AsyncGameClient) -> None:
        rng = random.Random(seed * 1000 + index)
        while time.monotonic() < deadline:
            created = await client.create_game(
                players=rng.choice((2, 3, 4)), seed=rng.getrandbits(32)
            )
            tokens = [s.token for s in created.seats]
            state = created.state
            legal = None  # the options of the seat to act, when the last answer had them
            while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
                if time.monotonic() >= deadline:
                    return
                token = tokens[state.summary.current_seat]
                if legal is None:
                    legal = await client.list_legal_actions(created.game_id, token)
                started = time.perf_counter()
                response = await client.submit_action(
                    created.game_id, token, rng.choice(legal.options).id,
                    expected_version=legal.version, include_legal_actions=next_actions,
                )
                latencies.append(time.perf_counter() - started)
                state = response.state
                legal = response.next_actions if response.HasField("next_actions") else None
                counts[index] += 1

    async with AsyncGameClient(target) as client:
        await asyncio.gather(*(player(i, client) for i in range(concurrency)))
    return sum(counts), latencies


class _HttpConnection:
    """A bare HTTP/1.1 keep-alive connection: the bench's REST client. A general client
    (aiohttp) costs about as much CPU per request as the server's whole handling of it,
    and the bench runs on the server's machine; this one only writes the request line and
    reads Content-Length bodies, which is all the service's JSON answers need."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: object = None,
                   token: str | None = None) -> dict:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = json.dumps(body, separators=(",", ":")).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if payload:
            head += "Content-Type: application/json\r\n"
        head += f"Content-Length: {len(payload)}\r\n\r\n"
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readline()
        headers = await self.reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in headers.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        document = json.loads(await self.reader.readexactly(length))
        if status_line.split()[1] != b"200":
            raise RuntimeError(f"{method} {path}: {document}")
        return document

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _rest_games(
    address: str, seconds: float, seed: int, concurrency: int, next_actions: bool
) -> WorkerResult:
    deadline = time.monotonic() + seconds
    host, _, port = address.rpartition(":")
    latencies: list[float] = []
    counts = [0] * concurrency

    async def player(index: int) -> None:
        # One connection per game in flight, as a browser tab or a bot would hold.
        connection = _HttpConnection(host, int(port))
        call = connection.call
        rng = random.Random(seed * 1000 + index)
        try:
            while time.monotonic() < deadline:
                created = await call("POST", "/v1/games",
                                     {"players": rng.choice((2, 3, 4)),
                                      "seed": str(rng.getrandbits(32))})
                game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
                state = created["state"]
                legal = None
                while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
                    if time.monotonic() >= deadline:
                        return
                    token = tokens[state["summary"]["currentSeat"]]
                    if legal is None:
                        legal = await call("GET", f"/v1/games/{game_id}/actions", token=token)
                    started = time.perf_counter()
                    answer = await call(
                        "POST", f"/v1/games/{game_id}/actions",
                        {"action": {"optionId": rng.choice(legal["options"])["id"]},
                         "expectedVersion": legal["version"],
                         "includeLegalActions": next_actions},
                        token,
                    )
                    latencies.append(time.perf_counter() - started)
                    state, legal = answer["state"], answer.get("nextActions")
                    counts[index] += 1
        finally:
            connection.close()

    await asyncio.gather(*(player(i) for i in range(concurrency)))
    return sum(counts), latencies


def _async_worker(transport: str, address: str, seconds: float, seed: int,
                  concurrency: int, next_actions: bool) -> WorkerResult:
    games = _grpc_games if transport == "grpc" else _rest_games
    return asyncio.run(games(address, seconds, seed, concurrency, next_actions))


def measure(transport: str, address: str, seconds: float, clients: int,
            concurrency: int = 1, next_actions: bool = True) -> Figure:
    """Runs `clients` processes (not threads: the GIL would make the client the bottleneck),
    each with `concurrency` games in flight. With `next_actions`, SubmitAction asks for the
    caller's next options, so ListLegalActions is only called when the seat to act changes;
    without, every decision is ListLegalActions + SubmitAction."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(clients) as pool:
        if concurrency <= 1:
            worker = _grpc_worker if transport == "grpc" else _rest_worker
            results = pool.starmap(
                worker, [(address, seconds, 1000 + i, next_actions) for i in range(clients)]
            )
        else:
            results = pool.starmap(
                _async_worker,
                [(transport, address, seconds, 1000 + i, concurrency, next_actions)
                 for i in range(clients)],
            )
    return Figure(transport, sum(r[0] for r in results), seconds,
                  [latency for r in results for latency in r[1]])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m brass_service.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grpc", default="127.0.0.1:50051", help="gRPC address")
    parser.add_argument("--http", default="127.0.0.1:8080", help="REST address")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="games in flight per client process (default 1: sequential)")
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
        for mode in modes:
            figure = measure(transport, address, args.seconds, args.clients, args.concurrency,
                             next_actions=mode == "next-actions")
            rates.append(figure.per_second)
            print(
                f"{transport} [{mode}]: {figure.decisions} accepted decisions in "
                f"{figure.seconds:.1f} s = {figure.per_second:.0f}/s ({args.clients} clients x "
                f"{args.concurrency} games in flight); "
                f"SubmitAction p50 {figure.percentile(0.5):.1f} ms, "
                f"p99 {figure.percentile(0.99):.1f} ms"
            )
        if len(rates) == 2 and rates[0]:
            print(f"{transport}: next-actions / list-and-submit = {rates[1] / rates[0]:.2f}x")


if __name__ == "__main__":
    main()
