"""Test support: real server processes on loopback ports, a small REST client, random play."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from brass_clients.sdk import BrassError, GameClient, pb

LOOPBACK = "127.0.0.1"
STARTUP_SECONDS = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


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
        self.env = env or {}
        self.name = name
        self.grpc_port = free_port()
        self.http_port = free_port()
        self.log_path = workdir / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def grpc_target(self) -> str:
        return f"{LOOPBACK}:{self.grpc_port}"

    def start(self) -> ServerProcess:
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
        self.process = subprocess.Popen(
            command, cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        channel = grpc.insecure_channel(self.grpc_target)
        try:
            stub = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.name} exited early:\n{self.log_text()}")
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

    def client(self) -> GameClient:
        return GameClient(self.grpc_target, timeout=30)

    def rest(self) -> RestClient:
        return RestClient(self.http_port)


def rest_get_status(port: int, path: str) -> int:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
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
