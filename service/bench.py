"""Quick throughput figure: accepted decisions per second through gRPC and through REST.

    python -m brass_service.bench --grpc 127.0.0.1:50051 --http 127.0.0.1:8080 \\
        --seconds 10 --clients 4

Each client thread plays random games (ListLegalActions + SubmitAction per decision) against
a running server, on loopback only. It is a measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import threading
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


def _grpc_worker(target: str, deadline: float, seed: int, counter: list[int]) -> None:
    from brass_clients.sdk import GameClient, pb

    rng = random.Random(seed)
    with GameClient(target) as client:
        while time.monotonic() < deadline:
            created = client.create_game(players=rng.choice((2, 3, 4)), seed=rng.getrandbits(32))
            tokens = [s.token for s in created.seats]
            state = created.state
            while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
                if time.monotonic() >= deadline:
                    return
                token = tokens[state.summary.current_seat]
                legal = client.list_legal_actions(created.game_id, token)
                response = client.submit_action(
                    created.game_id, token, rng.choice(legal.options).id,
                    expected_version=legal.version,
                )
                state = response.state
                counter[0] += 1


def _rest_worker(address: str, deadline: float, seed: int, counter: list[int]) -> None:
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
    try:
        while time.monotonic() < deadline:
            created = call("POST", "/v1/games", {"players": rng.choice((2, 3, 4)),
                                                 "seed": str(rng.getrandbits(32))})
            game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
            state = created["state"]
            while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
                if time.monotonic() >= deadline:
                    return
                token = tokens[state["summary"]["currentSeat"]]
                legal = call("GET", f"/v1/games/{game_id}/actions", token=token)
                state = call(
                    "POST", f"/v1/games/{game_id}/actions",
                    {"action": {"optionId": rng.choice(legal["options"])["id"]},
                     "expectedVersion": legal["version"]},
                    token,
                )["state"]
                counter[0] += 1
    finally:
        connection.close()


def measure(transport: str, address: str, seconds: float, clients: int) -> Figure:
    worker = _grpc_worker if transport == "grpc" else _rest_worker
    counters = [[0] for _ in range(clients)]
    start = time.monotonic()
    deadline = start + seconds
    threads = [
        threading.Thread(target=worker, args=(address, deadline, 1000 + i, counters[i]))
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Figure(transport, sum(c[0] for c in counters), time.monotonic() - start)


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
