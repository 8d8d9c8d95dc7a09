"""Quick throughput figure: accepted decisions per second through gRPC and through REST.

    python -m brass_service.bench --grpc 127.0.0.1:50051 --http 127.0.0.1:8080 \\
        --seconds 10 --clients 4 [--concurrency 8] [--only grpc|rest]

Each client process plays random games (ListLegalActions + SubmitAction per decision) against
a running server, on loopback only; with --concurrency K each process keeps K games in
flight (asyncio), otherwise it plays one game at a time, call after call. The figures are
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


def _grpc_worker(target: str, seconds: float, seed: int) -> WorkerResult:
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
            while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
                if time.monotonic() >= deadline:
                    return decisions, latencies
                token = tokens[state.summary.current_seat]
                legal = client.list_legal_actions(created.game_id, token)
                started = time.perf_counter()
                response = client.submit_action(
                    created.game_id, token, rng.choice(legal.options).id,
                    expected_version=legal.version,
                )
                latencies.append(time.perf_counter() - started)
                state = response.state
                decisions += 1
    return decisions, latencies


def _rest_worker(address: str, seconds: float, seed: int) -> WorkerResult:
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
            while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
                if time.monotonic() >= deadline:
                    return decisions, latencies
                token = tokens[state["summary"]["currentSeat"]]
                legal = call("GET", f"/v1/games/{game_id}/actions", token=token)
                started = time.perf_counter()
                state = call(
                    "POST", f"/v1/games/{game_id}/actions",
                    {"action": {"optionId": rng.choice(legal["options"])["id"]},
                     "expectedVersion": legal["version"]},
                    token,
                )["state"]
                latencies.append(time.perf_counter() - started)
                decisions += 1
        return decisions, latencies
    finally:
        connection.close()


async def _grpc_games(target: str, seconds: float, seed: int, concurrency: int) -> WorkerResult:
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
            while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
                if time.monotonic() >= deadline:
                    return
                token = tokens[state.summary.current_seat]
                legal = await client.list_legal_actions(created.game_id, token)
                started = time.perf_counter()
                response = await client.submit_action(
                    created.game_id, token, rng.choice(legal.options).id,
                    expected_version=legal.version,
                )
                latencies.append(time.perf_counter() - started)
                state = response.state
                counts[index] += 1

    async with AsyncGameClient(target) as client:
        await asyncio.gather(*(player(i, client) for i in range(concurrency)))
    return sum(counts), latencies


async def _rest_games(address: str, seconds: float, seed: int, concurrency: int) -> WorkerResult:
    import aiohttp

    deadline = time.monotonic() + seconds
    base = f"http://{address}"
    latencies: list[float] = []
    counts = [0] * concurrency

    async def call(session: aiohttp.ClientSession, method: str, path: str,
                   body: object = None, token: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with session.request(method, base + path, json=body, headers=headers) as reply:
            payload = await reply.json()
            if reply.status != 200:
                raise RuntimeError(f"{method} {path}: {payload}")
            return payload

    async def player(index: int, session: aiohttp.ClientSession) -> None:
        rng = random.Random(seed * 1000 + index)
        while time.monotonic() < deadline:
            created = await call(session, "POST", "/v1/games",
                                 {"players": rng.choice((2, 3, 4)),
                                  "seed": str(rng.getrandbits(32))})
            game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
            state = created["state"]
            while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
                if time.monotonic() >= deadline:
                    return
                token = tokens[state["summary"]["currentSeat"]]
                legal = await call(session, "GET", f"/v1/games/{game_id}/actions", token=token)
                started = time.perf_counter()
                state = (await call(
                    session, "POST", f"/v1/games/{game_id}/actions",
                    {"action": {"optionId": rng.choice(legal["options"])["id"]},
                     "expectedVersion": legal["version"]},
                    token,
                ))["state"]
                latencies.append(time.perf_counter() - started)
                counts[index] += 1

    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        await asyncio.gather(*(player(i, session) for i in range(concurrency)))
    return sum(counts), latencies


def _async_worker(transport: str, address: str, seconds: float, seed: int,
                  concurrency: int) -> WorkerResult:
    games = _grpc_games if transport == "grpc" else _rest_games
    return asyncio.run(games(address, seconds, seed, concurrency))


def measure(transport: str, address: str, seconds: float, clients: int,
            concurrency: int = 1) -> Figure:
    """Runs `clients` processes (not threads: the GIL would make the client the bottleneck),
    each with `concurrency` games in flight."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(clients) as pool:
        if concurrency <= 1:
            worker = _grpc_worker if transport == "grpc" else _rest_worker
            results = pool.starmap(
                worker, [(address, seconds, 1000 + i) for i in range(clients)]
            )
        else:
            results = pool.starmap(
                _async_worker,
                [(transport, address, seconds, 1000 + i, concurrency) for i in range(clients)],
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
    args = parser.parse_args(argv)
    for transport, address in (("grpc", args.grpc), ("rest", args.http)):
        if args.only and transport != args.only:
            continue
        figure = measure(transport, address, args.seconds, args.clients, args.concurrency)
        print(
            f"{transport}: {figure.decisions} accepted decisions in {figure.seconds:.1f} s "
            f"= {figure.per_second:.0f}/s ({args.clients} clients x {args.concurrency} games "
            "in flight; each decision is one ListLegalActions + one SubmitAction); "
            f"SubmitAction p50 {figure.percentile(0.5):.1f} ms, "
            f"p99 {figure.percentile(0.99):.1f} ms"
        )


if __name__ == "__main__":
    main()
