"""Test support: real server processes on loopback ports, a small REST client, random play."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from brass_clients.sdk import BrassError, GameClient, pb

LOOPBACK = "127.0.0.1"
STARTUP_SECONDS = 30.0


# Skips that must not go unnoticed (printed again at the end of the run by conftest.py).
LOUD_SKIPS: list[str] = []


def skip_loudly(message: str) -> None:
    if message not in LOUD_SKIPS:
        LOUD_SKIPS.append(message)
    pytest.skip(message)


@contextmanager
def small_filesystem(size_mib: int) -> Iterator[Path]:
    """A tmpfs of `size_mib` MiB mounted on a fresh directory (needs root, as in CI); the
    test is skipped loudly when it cannot be mounted."""
    if os.geteuid() != 0:
        skip_loudly("NOT ROOT: cannot mount a small filesystem, the full-disk test did NOT run")
    mount_point = Path(tempfile.mkdtemp(prefix="brass-small-fs-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(mount_point)],
        capture_output=True, text=True,
    )
    if mounted.returncode != 0:
        mount_point.rmdir()
        skip_loudly(f"CANNOT MOUNT a tmpfs ({mounted.stderr.strip()}): the full-disk test "
                    "did NOT run")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)
        mount_point.rmdir()


def fill_filesystem(directory: Path) -> Path:
    """Writes a filler file in `directory` until its filesystem has no free block left;
    returns the filler (delete it to give the space back)."""
    filler = directory / "filler"
    with filler.open("wb", buffering=0) as out:
        for chunk in (1 << 20, 1 << 12):
            block = b"\xff" * chunk
            while True:
                try:
                    out.write(block)
                except OSError:
                    break
    assert os.statvfs(directory).f_bavail == 0
    return filler


class PortTaken(RuntimeError):
    """The server could not listen on a port it was given."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


# Every test server has an operator token (ServerProcess.client() sends it) and no limit on
# the games one address creates, its bot games, its reads of past versions or its joins
# (every test connects from 127.0.0.1), unless its env says otherwise.
TEST_OPERATOR_TOKEN = "test-operator-token"
TEST_SERVER_DEFAULTS = {"BRASS_CREATE_GAME_RATE": "", "BRASS_PAST_READ_RATE": "",
                        "BRASS_OPERATOR_TOKEN": TEST_OPERATOR_TOKEN,
                        "BRASS_BOT_SEAT_RATE": "", "BRASS_BOT_GAME_RATE": "",
                        "BRASS_ALL_BOT_GAME_RATE": "", "BRASS_JOIN_GAME_RATE": "",
                        "BRASS_MAX_WAITING_SEATS_PER_ADDRESS": "0",
                        "BRASS_CREATE_ACCOUNT_RATE": "", "BRASS_ACCOUNT_READ_RATE": "",
                        "BRASS_ACCOUNT_KEY_RATE": ""}


class ServerProcess:
    """`python -m brass_service` in a subprocess, on free loopback ports."""

    def __init__(
        self,
        workdir: Path,
        database_url: str | None = None,
        env: dict[str, str] | None = None,
        name: str = "server",
    ) -> None:
        self.workdir = workdir
        self.database_url = database_url
        self.env = {**TEST_SERVER_DEFAULTS, **(env or {})}
        self.name = name
        self.grpc_port = free_port()
        self.http_port = free_port()
        self._picked = (self.grpc_port, self.http_port)  # ports a test did not choose
        self.log_path = workdir / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def grpc_target(self) -> str:
        return f"{LOOPBACK}:{self.grpc_port}"

    def start(self) -> ServerProcess:
        first = self.process is None
        for attempt in range(3):
            try:
                return self._start()
            except PortTaken:
                # A free port picked here can be taken by another test's socket before the
                # server binds it: a first start on ports picked here moves to new ones (a
                # restart keeps its ports, which its clients know; a test's own stay).
                if not first or attempt == 2 or (self.grpc_port, self.http_port) != self._picked:
                    raise
                self.grpc_port, self.http_port = self._picked = free_port(), free_port()
        raise AssertionError("unreachable")

    def _start(self) -> ServerProcess:
        self.workdir.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable, "-m", "brass_service",
            "--port", str(self.grpc_port),
            "--http-port", str(self.http_port),
            "--log-level", "info",
        ]
        if self.database_url:
            command += ["--database-url", self.database_url]
        env = {**os.environ, "BRASS_HOST": LOOPBACK, **self.env}
        log = self.log_path.open("ab")
        # Its own process group, so that a server that never became ready is killed with
        # every worker it started instead of outliving the test run.
        self.process = subprocess.Popen(
            command, cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        try:
            self._wait_ready()
        except BaseException:
            self._kill_group()
            raise
        return self

    def _kill_group(self) -> None:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        channel = grpc.insecure_channel(self.grpc_target)
        try:
            stub = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    text = self.log_text()
                    error = PortTaken if '"cannot_listen"' in text else RuntimeError
                    raise error(f"{self.name} exited early:\n{text}")
                try:
                    reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        if rest_get_status(self.http_port, "/healthz") == 200:
                            return
                except (grpc.RpcError, OSError):
                    pass
                time.sleep(0.05)
        finally:
            channel.close()
        raise RuntimeError(f"{self.name} did not become ready:\n{self.log_text()}")

    def stop(self, crash: bool = False) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGKILL if crash else signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def operator_token(self) -> str | None:
        """The server's operator token (BRASS_OPERATOR_TOKEN of its environment), if any."""
        return self.env.get("BRASS_OPERATOR_TOKEN") or None

    def client(self) -> GameClient:
        """An SDK client; it sends the server's operator token where it is needed."""
        return GameClient(self.grpc_target, timeout=30, operator_token=self.operator_token)

    def rest(self) -> RestClient:
        return RestClient(self.http_port)


def rest_get_status(port: int, path: str) -> int:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def rest_once(port: int, method: str, path: str, body: Any = None,
              token: str | None = None, timeout: float = 30) -> tuple[int, dict[str, Any]]:
    """One request on a new connection (with `--workers`, the kernel picks a worker for
    each); returns the status and the JSON body."""
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, json.dumps(body) if body is not None else None,
                           headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


class RestError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body
        self.reason = body.get("error", {}).get("reason")
        self.message = body.get("error", {}).get("message")


class RestClient:
    """A keep-alive JSON client over http.client (one connection; not thread-safe)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._connection = http.client.HTTPConnection(LOOPBACK, port, timeout=30)

    def close(self) -> None:
        self._connection.close()

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        raw_body: bytes | None = None,
    ) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw_body if raw_body is not None else (
            json.dumps(body).encode() if body is not None else None
        )
        for attempt in range(2):
            try:
                self._connection.request(method, path, body=data, headers=headers)
                response = self._connection.getresponse()
                payload = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self._connection.close()
                self._connection = http.client.HTTPConnection(LOOPBACK, self.port, timeout=30)
                if attempt:
                    raise
        document = json.loads(payload) if payload else {}
        if response.status >= 400:
            raise RestError(response.status, document)
        return document

    def get(self, path: str, token: str | None = None) -> dict[str, Any]:
        return self.request("GET", path, token=token)

    def post(self, path: str, body: Any, token: str | None = None) -> dict[str, Any]:
        return self.request("POST", path, body=body, token=token)


def sse_events(
    port: int, path: str, token: str | None = None, last_event_id: str | None = None
) -> Iterator[tuple[str, str | None, dict[str, Any]]]:
    """Yields (event, id, data) from a Server-Sent Events response until it ends."""
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
    headers = {"Accept": "text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    try:
        if response.status != 200:
            raise RestError(response.status, json.loads(response.read()))
        event, event_id, data = "message", None, []
        while True:
            line = response.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text == "":
                if data:
                    yield event, event_id, json.loads("\n".join(data))
                event, event_id, data = "message", None, []
            elif text.startswith(":"):
                continue
            else:
                key, _, value = text.partition(":")
                value = value.removeprefix(" ")
                if key == "event":
                    event = value
                elif key == "id":
                    event_id = value
                elif key == "data":
                    data.append(value)
    finally:
        connection.close()


# ------------------------------------------------------------------------ random play


def play_random_grpc(
    client: GameClient,
    game_id: str,
    tokens: list[str],
    rng: random.Random,
    max_submissions: int | None = None,
) -> int:
    """Plays random legal options (step by step) until the game ends or the budget is spent;
    returns the number of submissions."""
    state = client.get_game(game_id)
    done = 0
    while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
        if max_submissions is not None and done >= max_submissions:
            break
        seat = state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat])
        assert legal.version == state.summary.version
        assert legal.options, "a seat to act always has an option"
        choice = rng.choice(legal.options).id
        response = client.submit_action(
            game_id, tokens[seat], choice, expected_version=legal.version
        )
        assert response.state.summary.version > legal.version
        assert not response.replayed
        state = response.state
        done += 1
    return done


def play_random_rest(
    rest: RestClient,
    game_id: str,
    tokens: list[str],
    rng: random.Random,
    max_submissions: int | None = None,
) -> int:
    state = rest.get(f"/v1/games/{game_id}")["state"]
    done = 0
    while state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS":
        if max_submissions is not None and done >= max_submissions:
            break
        seat = state["summary"]["currentSeat"]
        legal = rest.get(f"/v1/games/{game_id}/actions", token=tokens[seat])
        assert legal["version"] == state["summary"]["version"]
        choice = rng.choice(legal["options"])["id"]
        response = rest.post(
            f"/v1/games/{game_id}/actions",
            {"action": {"optionId": choice}, "expectedVersion": legal["version"],
             "idempotencyKey": f"k{rng.random()}"},
            token=tokens[seat],
        )
        assert int(response["state"]["summary"]["version"]) > int(legal["version"])
        state = response["state"]
        done += 1
    return done


def expect_error(reason: str, call: Any, *args: Any, **kwargs: Any) -> BrassError:
    try:
        call(*args, **kwargs)
    except BrassError as error:
        assert error.reason == reason, f"expected {reason}, got {error.reason}: {error.message}"
        assert error.message, "every error carries a human message"
        return error
    raise AssertionError(f"expected {reason}, but the call succeeded")


def expect_rest_error(reason: str, status: int, call: Any, *args: Any, **kwargs: Any) -> RestError:
    try:
        call(*args, **kwargs)
    except RestError as error:
        assert error.reason == reason, f"expected {reason}, got {error.body}"
        assert error.status == status, f"expected HTTP {status} for {reason}, got {error.status}"
        assert error.message
        return error
    raise AssertionError(f"expected {reason}, but the call succeeded")


# ------------------------------------------------------------------------- full disk


def _move(port: int, game_id: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """Submits the first legal option of the seat to act (with an idempotency key)."""
    status, game = rest_once(port, "GET", f"/v1/games/{game_id}")
    assert status == 200, game
    seat = game["state"]["summary"]["currentSeat"]
    status, legal = rest_once(port, "GET", f"/v1/games/{game_id}/actions", token=tokens[seat])
    assert status == 200, legal
    return rest_once(
        port, "POST", f"/v1/games/{game_id}/actions",
        {"action": {"optionId": legal["options"][0]["id"]},
         "expectedVersion": legal["version"], "idempotencyKey": f"move-{legal['version']}"},
        tokens[seat],
    )


def _health(port: int) -> tuple[int, dict[str, Any]]:
    return rest_once(port, "GET", "/healthz")


def full_disk_scenario(
    server: ServerProcess, disk: Path, while_full: Callable[[], None] | None = None
) -> None:
    """`server` keeps its SQLite file on the small filesystem `disk`. With the disk full,
    every write is refused with UNAVAILABLE (503) while reads go on and /healthz says why;
    once space is back, writes succeed again by themselves and nothing acknowledged is lost.
    `while_full` runs once the disk is full, before the reads are checked."""
    port = server.http_port
    status, created = rest_once(port, "POST", "/v1/games", {"players": 2})
    assert status == 200, created
    game_id, tokens = created["gameId"], [seat["token"] for seat in created["seats"]]
    for _ in range(3):
        status, moved = _move(port, game_id, tokens)
        assert status == 200, moved
    version = int(moved["state"]["summary"]["version"])

    filler = fill_filesystem(disk)
    # New games land in many change-stamp groups, moves rewrite the game's head.
    for _ in range(24):
        status, refused = rest_once(port, "POST", "/v1/games", {"players": 2})
        assert (status, refused["error"]["reason"]) == (503, "UNAVAILABLE"), refused
    for _ in range(3):
        status, refused = _move(port, game_id, tokens)
        assert (status, refused["error"]["reason"]) == (503, "UNAVAILABLE"), refused
    with server.client() as client:
        try:
            client.create_game(players=3)
        except BrassError as error:
            assert error.reason == "UNAVAILABLE", error
        else:
            raise AssertionError("a game was created on a full disk")
    assert server.process is not None and server.process.poll() is None
    if while_full is not None:
        while_full()
    # Reads are served from what is stored.
    for _ in range(4):
        status, game = rest_once(port, "GET", f"/v1/games/{game_id}")
        assert status == 200 and int(game["state"]["summary"]["version"]) == version, game
        status, listed = rest_once(port, "GET", "/v1/games")
        assert status == 200 and [g["gameId"] for g in listed["games"]] == [game_id], listed
        # Every process that answers knows (it probes when its disk has no space left).
        status, health = _health(port)
        assert status == 200, health
        assert health["status"] == "DEGRADED", health
        assert health["store"]["writable"] is False and health["store"]["readable"] is True
        assert "full" in health["store"]["error"], health
    failing = [line for line in server.log_text().splitlines()
               if '"event": "store_writes_failing"' in line]
    assert failing and "full" in failing[0], failing

    filler.unlink()
    deadline = time.monotonic() + 60
    while _health(port)[1]["status"] != "SERVING":
        assert time.monotonic() < deadline, "writes did not recover once space was back"
        time.sleep(0.2)
    status, moved = _move(port, game_id, tokens)
    assert status == 200, moved
    assert int(moved["state"]["summary"]["version"]) == version + 1
    status, created = rest_once(port, "POST", "/v1/games", {"players": 2})
    assert status == 200, created
    # Each process logs its own recovery when its next write or probe succeeds: with
    # workers, the one that logged the failure may not have been the one that answered.
    deadline = time.monotonic() + 60
    while '"event": "store_writes_recovered"' not in server.log_text():
        assert time.monotonic() < deadline, "no process logged its recovery"
        time.sleep(0.2)
    assert server.process.poll() is None


# ------------------------------------------------------------------- a cuttable link


class CuttableProxy:
    """A TCP relay from a free loopback port to `target`, which the test can cut (every
    connection reset, new ones refused: the server behind it is "gone") and restore, or
    freeze (connections stay open and their bytes are acknowledged, but nothing is passed
    on: the server "hangs") and thaw (what was held is passed on)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._guard = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None
        self._flowing = threading.Event()
        self._flowing.set()

    def start(self) -> CuttableProxy:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((LOOPBACK, self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)  # (idle connections stay open, as without the relay)
            with self._guard:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        if self._listener is not None:
            try:  # (wakes the accepting thread, which close alone does not)
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()
            self._listener = None
        with self._guard:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            try:  # (shutdown wakes the relay threads blocked on the socket)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def restore(self) -> None:
        self.start()

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()


def without_defaults(value: Any) -> Any:
    """A proto3 JSON value with every member holding a default (null, 0, false, "", [], {}
    or "0", a 64-bit zero) left out, recursively: proto3 JSON lets a writer leave those out
    or write them, so two renderings of one message are compared through this."""
    if isinstance(value, dict):
        kept = {key: without_defaults(item) for key, item in value.items()}
        return {key: item for key, item in kept.items()
                if item is True or item not in (None, 0, "", "0", [], {})}
    if isinstance(value, list):
        return [without_defaults(item) for item in value]
    return value


def engine_view(document: dict[str, Any], ruleset: str = "birmingham") -> dict[str, Any]:
    """The engine's view dict (brass.Game.view) as the service sends it, read back with
    sdk.view_dict: the typed view's fields (absent optional fields left out, maps and lists
    always written)."""
    from brass_clients.sdk import view_dict
    from brass_service.views import typed

    return view_dict(pb.GameState(**{ruleset: typed.view_from_document(ruleset, document)}))


def engine_cost(cost: dict[str, Any], ruleset: str = "birmingham") -> dict[str, Any]:
    """A preview's cost dict (brass.Game.preview) as the service sends it, read back with
    sdk.cost_dict."""
    from brass_clients.sdk import cost_dict
    from brass_service.views import typed

    arm, message, _ = typed.cost_parts(ruleset, cost)
    return cost_dict(pb.PreviewActionResponse(**{arm: message}))
