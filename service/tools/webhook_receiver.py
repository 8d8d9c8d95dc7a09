"""A webhook receiver on loopback for tests and the soak run: it records every request
(headers, body) and answers 204, or 500 while it is told to fail. Verification is left to
the caller (tests use the `standardwebhooks` package, an independent implementation)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_BODY_BYTES = 1 << 16


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: str
    at: float

    @property
    def message_id(self) -> str:
        return self.headers.get("webhook-id", "")

    @property
    def event(self) -> dict[str, Any]:
        return json.loads(self.body)  # type: ignore[no-any-return]


class Receiver:
    """`failures`: how many requests to each path are answered 500 before it succeeds
    (-1: always)."""

    def __init__(self) -> None:
        self.received: list[Received] = []  # answered 204
        self.attempts: list[Received] = []  # every request, those answered 500 too
        self.failures: dict[str, int] = {}
        self.delay_seconds = 0.0
        self._guard = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = min(int(self.headers.get("content-length", "0")), MAX_BODY_BYTES)
                body = self.rfile.read(length).decode()
                status = owner._record(self.path, {k.lower(): v for k, v in self.headers.items()},
                                       body)
                if owner.delay_seconds:
                    time.sleep(owner.delay_seconds)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _record(self, path: str, headers: dict[str, str], body: str) -> int:
        item = Received(path, headers, body, time.time())
        with self._guard:
            self.attempts.append(item)
            left = self.failures.get(path, 0)
            if left:
                self.failures[path] = left - 1 if left > 0 else left
                return 500
            self.received.append(item)
            return 204

    def on(self, path: str) -> list[Received]:
        with self._guard:
            return [item for item in self.received if item.path == path]

    def wait_for(self, path: str, count: int, seconds: float = 10.0) -> list[Received]:
        """The first `count` requests to `path`, once they arrived (AssertionError after
        `seconds`)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            got = self.on(path)
            if len(got) >= count:
                return got
            time.sleep(0.02)
        raise AssertionError(f"{path}: {len(self.on(path))} of {count} webhooks arrived: "
                             f"{[item.event['type'] for item in self.on(path)]}")

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
