"""SIGTERM under load: the server stops cleanly and loses nothing it acknowledged.

Six REST players (on the lean front: keep-alive connections, plain SubmitAction requests)
and two gRPC players submit moves as fast as they can; the server gets SIGTERM in the
middle. It must exit with status 0 within its grace periods; every move it acknowledged
must be in the store after a restart; a move in flight when it stopped is either stored
(its answer lost) or absent, never half-applied (the game replays from its seed and log to
the stored state); and every game plays on.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import grpc

import brass
from brass_clients.sdk import BrassError
from brass_service.gen import game_service_pb2 as pb
from brass_service.store import open_store

from .conftest import GENEROUS_LIMITS, Backend
from .helpers import LOOPBACK, ServerProcess

REST_PLAYERS = 6
GRPC_PLAYERS = 2
FAILURES: list[str] = []


def _rest_player(port: int, game_id: str, tokens: list[str], seed: int,
                 acknowledged: dict[str, int], stop: threading.Event) -> None:
    """Plays until the server goes away, recording the last version it acknowledged."""
    rng = random.Random(seed)
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    try:
        connection.request("GET", f"/v1/games/{game_id}")
        state = json.loads(connection.getresponse().read())["state"]["summary"]
        options = None
        while not stop.is_set() and state["status"] == "GAME_STATUS_IN_PROGRESS":
            seat = state["currentSeat"]
            auth = {**headers, "Authorization": f"Bearer {tokens[seat]}"}
            if options is None:
                connection.request("GET", f"/v1/games/{game_id}/actions", headers=auth)
                legal = json.loads(connection.getresponse().read())
                options = (int(legal["version"]), [o["id"] for o in legal["options"]])
            version, ids = options
            body = {"action": {"optionId": rng.choice(ids)}, "expectedVersion": version,
                    "includeLegalActions": True}
            connection.request("POST", f"/v1/games/{game_id}/actions",
                               body=json.dumps(body), headers=auth)
            response = connection.getresponse()
            answer = json.loads(response.read())
            assert response.status == 200, answer
            state = answer["state"]["summary"]
            acknowledged[game_id] = int(state["version"])
            following = answer.get("nextActions")
            options = ((int(following["version"]), [o["id"] for o in following["options"]])
                       if following else None)
    except (OSError, http.client.HTTPException, json.JSONDecodeError):
        pass  # the server stopped: what was acknowledged is recorded
    except Exception as exc:  # a wrong answer: the test fails with it
        FAILURES.append(f"REST player of {game_id}: {exc!r}")
    finally:
        connection.close()


def _grpc_player(server: ServerProcess, game_id: str, tokens: list[str], seed: int,
                 acknowledged: dict[str, int], stop: threading.Event) -> None:
    rng = random.Random(seed)
    client = server.client()
    try:
        while not stop.is_set():
            state = client.get_game(game_id).summary
            if state.status != pb.GAME_STATUS_IN_PROGRESS:
                return
            token = tokens[state.current_seat]
            legal = client.list_legal_actions(game_id, token)
            option = rng.choice([o.id for o in legal.options])
            answer = client.submit_action(game_id, token, option,
                                          expected_version=legal.version)
            acknowledged[game_id] = answer.state.summary.version
    except (BrassError, grpc.RpcError, OSError):
        pass  # the server stopped: what was acknowledged is recorded
    except Exception as exc:
        FAILURES.append(f"gRPC player of {game_id}: {exc!r}")
    finally:
        client.close()


def _stored_decisions(database_url: str, game_id: str) -> list[Any]:
    async def read() -> list[Any]:
        store = open_store(database_url)
        await store.open()
        try:
            return list(await store.decisions_after(game_id, 0))
        finally:
            await store.close()

    return asyncio.run(read())


def test_sigterm_under_load_loses_nothing_acknowledged(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stop.sqlite3'}"
    server = ServerProcess(tmp_path / "a", database_url=database, env=GENEROUS_LIMITS,
                           name="stopping").start()
    rest = server.rest()
    games = []
    seeds: dict[str, int] = {}
    players_of: dict[str, int] = {}
    for k in range(REST_PLAYERS + GRPC_PLAYERS):
        created = rest.post("/v1/games", {"players": 2 + k % 3, "seed": str(100 + k)})
        games.append((created["gameId"], [seat["token"] for seat in created["seats"]]))
        seeds[created["gameId"]], players_of[created["gameId"]] = 100 + k, 2 + k % 3
    rest.close()
    acknowledged: dict[str, int] = {}
    stop = threading.Event()
    threads = [
        threading.Thread(target=_rest_player,
                         args=(server.http_port, game_id, tokens, k, acknowledged, stop))
        for k, (game_id, tokens) in enumerate(games[:REST_PLAYERS])
    ] + [
        threading.Thread(target=_grpc_player,
                         args=(server, game_id, tokens, 50 + k, acknowledged, stop))
        for k, (game_id, tokens) in enumerate(games[REST_PLAYERS:])
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < len(games) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # every player is mid-game

    started = time.monotonic()
    server.stop()  # SIGTERM; waits for the exit
    stopped_in = time.monotonic() - started
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert not FAILURES, FAILURES
    assert server.process is not None
    assert server.process.returncode == 0, server.log_text()[-3000:]
    assert stopped_in < 15, f"took {stopped_in:.1f} s to stop"
    assert len(acknowledged) == len(games), "some player never got a move acknowledged"

    restarted = ServerProcess(tmp_path / "b", database_url=database, env=GENEROUS_LIMITS,
                              name="restarted").start()
    try:
        rest = restarted.rest()
        for game_id, tokens in games:
            summary = rest.get(f"/v1/games/{game_id}")["state"]["summary"]
            stored = int(summary["version"])
            # Acknowledged moves are stored; at most the one in flight was added unanswered.
            assert acknowledged[game_id] <= stored, (game_id, acknowledged[game_id], stored)
            # The seed and the stored log rebuild the stored state, decision by decision
            # (nothing half-applied).
            rebuilt = brass.Game.new(players=players_of[game_id], seed=seeds[game_id])
            rows = _stored_decisions(database, game_id)
            for row in rows:
                rebuilt.apply(row.action["ids"][0], seat=row.seat)
                assert rebuilt.state_hash() == row.state_hash, (game_id, row.to_version)
            assert (rows[-1].to_version if rows else 0) == stored
            assert rest.get(f"/v1/games/{game_id}")["state"]["birmingham"] == json.loads(
                rebuilt.view_json(None, keys="camel"))
            # Play goes on from the stored state.
            if summary["status"] == "GAME_STATUS_IN_PROGRESS":
                seat = summary["currentSeat"]
                legal = rest.get(f"/v1/games/{game_id}/actions", token=tokens[seat])
                assert int(legal["version"]) == stored
                answer = rest.post(
                    f"/v1/games/{game_id}/actions",
                    {"action": {"optionId": legal["options"][0]["id"]},
                     "expectedVersion": legal["version"]},
                    token=tokens[seat],
                )
                assert int(answer["state"]["summary"]["version"]) > stored
        rest.close()
    finally:
        restarted.stop()
    assert "Traceback" not in server.log_text(), server.log_text()[-3000:]


def test_sigterm_gives_back_the_games_whose_bots_were_searching(backend: Backend) -> None:
    """Issue 20, item 8: SIGTERM while the server's bots search (three four-seat games of
    mcts:iterations=1000, each decision a fraction of a second) gives their claims back:
    every game is due no later than the stop, so a restarted server or another process
    takes it at once, not after the claim's lease (60 s here); and one does."""
    url = backend.new_database_url()
    env = {**GENEROUS_LIMITS, "BRASS_SERVER_MOVE_LEASE_SECONDS": "60"}
    first = backend.start_server("claims-a", database_url=url, env=env)
    bots = {seat: "mcts:iterations=1000" for seat in range(4)}
    with first.client() as client:
        games = [client.create_game(4, ruleset="pittsburgh", bot_seats=bots).game_id
                 for _ in range(3)]
        deadline = time.monotonic() + 60
        while not all(client.get_game(g).summary.version >= 1 for g in games):
            assert time.monotonic() < deadline, "the bots never moved"
            time.sleep(0.05)
    first.stop()  # SIGTERM: a graceful stop
    stopped = time.time()
    assert first.process is not None and first.process.returncode == 0

    async def read() -> list[Any]:
        store = open_store(url)
        await store.open()
        try:
            return [await store.get_game(game_id) for game_id in games]
        finally:
            await store.close()

    rows = asyncio.run(read())
    assert all(row is not None and row.next_due is not None and row.next_due <= stopped
               for row in rows), [row.next_due - stopped for row in rows if row]
    versions = {row.game_id: row.version for row in rows if row}
    second = backend.start_server("claims-b", database_url=url, env=env)
    with second.client() as client:
        deadline = time.monotonic() + 30  # well within the lease
        while not all(client.get_game(g).summary.version > versions[g] for g in games):
            assert time.monotonic() < deadline, "the games stalled after the restart"
            time.sleep(0.05)
