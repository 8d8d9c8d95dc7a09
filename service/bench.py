"""Quick throughput figure: accepted decisions per second through gRPC and through REST.

    python -m brass_service.bench --grpc 127.0.0.1:50051 --http 127.0.0.1:8080 \\
        --seconds 10 --clients 4

Each client process plays random games (ListLegalActions + SubmitAction per decision) against
a running server, on loopback only. It is a measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import random
import time
from dataclasses import dataclass


@dataclass
class Figure:
    transport: str
    decisions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


def _grpc_worker(target: str, seconds: float, seed: int) -> int:
    from brass_clients.sdk import GameClient, pb

    deadline = time.monotonic() + seconds  # counted from here: process start-up excluded
    rng = random.Random(seed)
    decisions = 0
    with GameClient(target) as client:
        while time.monotonic() < deadline:
            created = client.create_game(players=rng.choice((2, 3, 4)), seed=rng.getrandbits(32))
            tokens = [s.token for s in created.seats]
            state = created.state
            while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
                if time.monotonic() >= deadline:
                    return decisions
                token = tokens[state.summary.current_seat]
                legal = client.list_legal_actions(created.game_id, token)
                response = client.submit_action(
                    created.game_id, token, rng.choice(legal.options).id,
                    expected_version=legal.version,
                )
                state = response.state
                decisions += 1
    return decisions


def _rest_worker(address: str, seconds: float, seed: int) -> int:
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
    try:
        while time.monotonic() < deadline:
            created = call("POST", "/v1/games", {"players": rng.choice((2, 3, 4)),
                                                 "seed": str(rng.getrandbits(32))})
            game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
            state = created["state"]
            while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
                if time.monotonic() >= deadline:
                    return decisions
                token = tokens[state["summary"]["currentSeat"]]
                legal = call("GET", f"/v1/games/{game_id}/actions", token=token)
                state = call(
                    "POST", f"/v1/games/{game_id}/actions",
                    {"action": {"optionId": rng.choice(legal["options"])["id"]},
                     "expectedVersion": legal["version"]},
                    token,
                )["state"]
                decisions += 1
        return decisions
    finally:
        connection.close()


def measure(transport: str, address: str, seconds: float, clients: int) -> Figure:
    """Runs `clients` processes (not threads: the GIL would make the client the bottleneck)."""
    worker = _grpc_worker if transport == "grpc" else _rest_worker
    context = multiprocessing.get_context("spawn")
    with context.Pool(clients) as pool:
        counts = pool.starmap(worker, [(address, seconds, 1000 + i) for i in range(clients)])
    return Figure(transport, sum(counts), seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m brass_service.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grpc", default="127.0.0.1:50051", help="gRPC address")
    parser.add_argument("--http", default="127.0.0.1:8080", help="REST address")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args(argv)
    for transport, address in (("grpc", args.grpc), ("rest", args.http)):
        figure = measure(transport, address, args.seconds, args.clients)
        print(
            f"{transport}: {figure.decisions} accepted decisions in {figure.seconds:.1f} s "
            f"= {figure.per_second:.0f}/s ({args.clients} clients; each decision is one "
            "ListLegalActions + one SubmitAction)"
        )


if __name__ == "__main__":
    main()
