"""`brass serve --workers N`: several processes on the same ports and store.

A supervisor starts the workers, which share the ports (SO_REUSEPORT) and the database;
games played over many connections land on every worker and stay consistent; a watcher
on one worker sees moves made through another; /metrics counts every worker's decisions;
a killed worker is replaced; SIGTERM stops them all.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import brass

from .helpers import (
    LOOPBACK,
    ServerProcess,
    full_disk_scenario,
    rest_once,
    small_filesystem,
    sse_events,
)

WORKERS = 2


def _children(pid: int) -> list[int]:
    """The worker processes of the supervisor `pid` (not multiprocessing's helper)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    pids = [int(p) for p in path.read_text().split()] if path.exists() else []
    workers = []
    for child in pids:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if b"spawn_main" in command:
            workers.append(child)
    return workers


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for(condition: Any, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture()
def workers_server(tmp_path: Path) -> Any:
    server = ServerProcess(
        tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}",
        # Watchers' own store re-check is pushed out of reach (10 min), so a watcher that
        # sees another worker's moves was woken by the change stamps.
        env={"BRASS_WORKERS": str(WORKERS), "BRASS_WATCH_BURST": "1000",
             "BRASS_WATCH_POLL_SECONDS": "600"}, name="workers",
    ).start()
    _wait_for(lambda: '"workers": 2' in server.log_text(), "the supervisor's serving line")
    try:
        yield server
    finally:
        server.stop()


def _play(port: int, game_id: str, tokens: list[str], decisions: int, seed: int) -> int:
    """Random legal moves over REST, a new connection per request; returns the version."""
    rng = random.Random(seed)
    version = 0
    legal: dict[str, Any] | None = None
    for _ in range(decisions):
        if legal is None:
            status, game = rest_once(port, "GET", f"/v1/games/{game_id}")
            assert status == 200, game
            summary = game["state"]["summary"]
            if summary["status"] != "GAME_STATUS_IN_PROGRESS":
                break
            status, legal = rest_once(port, "GET", f"/v1/games/{game_id}/actions",
                                  token=tokens[summary["currentSeat"]])
            assert status == 200, legal
        assert legal is not None
        seat = legal["seat"]
        status, answer = rest_once(
            port, "POST", f"/v1/games/{game_id}/actions",
            {"action": {"optionId": rng.choice(legal["options"])["id"]},
             "expectedVersion": legal["version"], "includeLegalActions": True},
            tokens[seat],
        )
        assert status == 200, answer
        version = int(answer["state"]["summary"]["version"])
        legal = answer.get("nextActions")
        if answer["state"]["summary"]["status"] != "GAME_STATUS_IN_PROGRESS":
            break
    return version


def test_workers_share_ports_and_store(workers_server: ServerProcess) -> None:
    server = workers_server
    assert server.process is not None
    children = _children(server.process.pid)
    assert len(children) == WORKERS, children

    games = []
    seeds: dict[str, int] = {}
    for i in range(6):
        status, created = rest_once(server.http_port, "POST", "/v1/games",
                                {"players": 2 + i % 3, "seed": str(100 + i)})
        assert status == 200, created
        games.append((created["gameId"], [s["token"] for s in created["seats"]]))
        seeds[created["gameId"]] = 100 + i
    versions: dict[str, int] = {}
    errors: list[BaseException] = []

    def run(index: int) -> None:
        game_id, tokens = games[index]
        try:
            versions[game_id] = _play(server.http_port, game_id, tokens, 60, index)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors

    # Every worker served requests (each request line names its worker).
    served = re.findall(r'"worker": (\d+), "event": "request"', server.log_text())
    assert {int(w) for w in served} == set(range(WORKERS)), set(served)

    # Each game is the same game on every worker: its stored log replays to the state
    # that any worker reports.
    with server.client() as client:
        for game_id, tokens in games:
            _complete, record = client.get_replay(game_id)
            assert len(record["decisions"]) == versions[game_id]
            record["seed"] = seeds[game_id]  # (not public before the end)
            rebuilt = brass.Game.replay(record)
            for _ in range(4):  # new connections: likely both workers
                status, view = rest_once(server.http_port, "GET", f"/v1/games/{game_id}",
                                     token=tokens[0])
                assert status == 200
                assert view["state"]["birmingham"] == json.loads(
                    rebuilt.view_json(0, keys="camel"))
                assert int(view["state"]["summary"]["version"]) == versions[game_id]

    # /metrics (answered by either worker) counts the decisions of both.
    total = sum(versions.values())
    for _ in range(4):
        connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=10)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
        match = re.search(r"^brass_decisions_total ([0-9.e+]+)$", text, re.M)
        assert match is not None, text[:500]
        assert float(match.group(1)) == total


def test_watcher_sees_moves_made_through_other_workers(workers_server: ServerProcess) -> None:
    server = workers_server
    status, created = rest_once(server.http_port, "POST", "/v1/games", {"players": 2, "seed": "7"})
    assert status == 200
    game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
    seen: list[int] = []
    done = threading.Event()

    def watch() -> None:
        for event, _id, data in sse_events(server.http_port,
                                           f"/v1/games/{game_id}/events?fromVersion=0"):
            if event == "update":
                seen.append(int(data["version"]))
                if seen[-1] >= 20:
                    break
        done.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    final = _play(server.http_port, game_id, tokens, 20, 3)  # new connection per request
    assert final == 20
    assert done.wait(30), f"the watcher saw {seen}"
    assert seen[-1] == 20 and seen == sorted(seen)


def test_a_killed_worker_is_replaced_and_sigterm_stops_all(
    workers_server: ServerProcess,
) -> None:
    server = workers_server
    assert server.process is not None
    supervisor = server.process.pid
    first = _children(supervisor)
    assert len(first) == WORKERS
    os.kill(first[0], signal.SIGKILL)
    _wait_for(lambda: len([p for p in _children(supervisor) if _alive(p)]) == WORKERS
              and first[0] not in _children(supervisor), "a replacement worker")
    _wait_for(lambda: server.log_text().count('"event": "serving", "worker"') >= WORKERS + 1,
              "the replacement to serve")
    assert '"event": "worker_died"' in server.log_text()
    # Still serving on both ports, through any worker.
    for _ in range(6):
        status, created = rest_once(server.http_port, "POST", "/v1/games", {"players": 2})
        assert status == 200, created
    with server.client() as client:
        assert client.create_game(players=3).game_id
    children = _children(supervisor)
    server.stop()
    assert server.process.returncode == 0
    for pid in children:
        assert not _alive(pid), f"worker {pid} outlived the supervisor"
    assert '"workers": 2, "event": "stopped"' in server.log_text()


def test_workers_refuse_an_unusable_store(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "sqlite:////nonexistent-dir/x/games.sqlite3",
                           env={"BRASS_WORKERS": "2"}, name="bad")
    with pytest.raises(RuntimeError, match="exited early"):
        server.start()
    assert server.process is not None and server.process.returncode == 2
    assert "store_unavailable" in server.log_text()


def test_workers_refuse_a_taken_port(tmp_path: Path) -> None:
    import socket

    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind((LOOPBACK, 0))
    taken.listen()
    try:
        server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}",
                               env={"BRASS_WORKERS": "2"}, name="taken")
        server.http_port = taken.getsockname()[1]
        with pytest.raises(RuntimeError, match="exited early"):
            server.start()
        assert server.process is not None and server.process.returncode == 1
        assert '"event": "cannot_listen"' in server.log_text()
    finally:
        taken.close()


def test_workers_survive_a_full_disk_and_recover(tmp_path: Path) -> None:
    """A full disk under `--workers 2` (issue 10 B): the workers used to die of SIGBUS and the
    supervisor gave up; now no worker dies of it, one killed meanwhile is replaced by one
    that serves, writes answer 503, reads go on, and writes come back once space returns."""
    with small_filesystem(16) as disk:
        server = ServerProcess(tmp_path, f"sqlite:///{disk / 'games.sqlite3'}",
                               env={"BRASS_WORKERS": str(WORKERS)}, name="full-workers")
        server.start()
        try:
            _wait_for(lambda: '"workers": 2' in server.log_text(), "the serving line")
            assert server.process is not None
            workers = _children(server.process.pid)
            assert len(workers) == WORKERS
            victim, survivor = workers

            def replace_a_worker() -> None:
                # A worker that dies (for another reason) while the disk is full is replaced
                # by one that opens the store and serves.
                os.kill(victim, signal.SIGKILL)
                _wait_for(lambda: server.log_text().count('"event": "serving", "worker"')
                          >= WORKERS + 1, "the replacement to serve", seconds=60)

            full_disk_scenario(server, disk, replace_a_worker)
            assert _alive(survivor), "a worker died of the full disk"
            assert len([p for p in _children(server.process.pid) if _alive(p)]) == WORKERS
            assert server.log_text().count('"event": "worker_died"') == 1
        finally:
            server.stop()


def test_the_supervisor_never_gives_up_on_a_worker_that_keeps_dying(
    workers_server: ServerProcess,
) -> None:
    """A worker killed again and again (more often than the 5 deaths a minute after which the
    supervisor used to stop the whole server) is started again each time, after a growing
    delay; the other worker serves meanwhile (issue 10 B: a transient cause must not end the
    service)."""
    server = workers_server
    assert server.process is not None
    supervisor = server.process.pid
    deaths = 7
    for death in range(1, deaths + 1):
        victim = _children(supervisor)[0]
        os.kill(victim, signal.SIGKILL)
        _wait_for(lambda victim=victim: victim not in _children(supervisor)
                  and len([p for p in _children(supervisor) if _alive(p)]) == WORKERS,
                  f"a replacement after death {death}", seconds=60)
        _wait_for(lambda death=death: server.log_text().count('"event": "serving", "worker"')
                  >= WORKERS + death, f"the replacement to serve after death {death}",
                  seconds=60)
        status, created = rest_once(server.http_port, "POST", "/v1/games", {"players": 2})
        assert status == 200, created
    assert server.process.poll() is None, "the supervisor gave up"
    died = [json.loads(line) for line in server.log_text().splitlines()
            if '"event": "worker_died"' in line]
    assert len(died) == deaths
    delays = [line["restart_in_seconds"] for line in died]
    assert delays == sorted(delays) and delays[-1] > delays[0], delays
    server.stop()
    assert server.process.returncode == 0


def test_a_test_server_whose_picked_port_was_taken_moves_to_new_ones(tmp_path: Path) -> None:
    """The suite's own helper: a port picked free can be taken by another test before the
    server binds it; its first start then moves to new ports instead of failing the test."""
    import socket

    server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}", name="moved")
    picked = server.http_port
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind((LOOPBACK, picked))
    taken.listen()
    try:
        server.start()
        assert server.http_port != picked
        assert '"event": "cannot_listen"' in server.log_text()  # the first try, refused
    finally:
        server.stop()
        taken.close()
