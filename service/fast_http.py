"""A lean HTTP/1.1 front for the REST gateway's plain JSON operations.

aiohttp spends about 130 µs of CPU on each request on this 2-core machine, more than the
engine and the store together spend on a move; a bare asyncio protocol reading the same
requests spends about 25 µs under uvloop (figures in docs/SERVICE.md). This front owns the
REST port and answers the requests it can read with certainty itself:

- `GET` or `POST`, `HTTP/1.1`, an ASCII head of at most MAX_HEAD_BYTES and MAX_HEADERS,
  header lines that are all `token: value` without control characters, no header named
  twice;
- a body framed by one plain Content-Length within the body limit (or no body), with no
  Transfer-Encoding, Expect or Upgrade, and Connection absent, `keep-alive` or `close`;
- a target of plain characters (no percent-encoding, `+` or `;`) that matches the route
  of one of rest.PLAIN_OPERATIONS.

Anything else (the event and batch streams, /healthz, /metrics, /openapi.json, unknown
routes, chunked or oversized bodies, `Expect: 100-continue`, HTTP/1.0, odd or huge heads)
is handed to aiohttp together with the connection and every byte not yet answered, and
aiohttp serves that connection to its end. So aiohttp still decides every error and corner
of HTTP, and both fronts give a plain operation the same answer, made by
RestGateway.respond.

Requests on one connection are answered one at a time, in order (pipelined ones wait in
the buffer). A connection with nothing in flight for KEEPALIVE_SECONDS is closed, as
aiohttp does.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import http
import re
import socket
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .rest import PLAIN_OPERATIONS, ROUTES

if TYPE_CHECKING:
    from .openapi import Route
    from .rest import RestGateway

# aiohttp's own limit on a request line or header field; a longer head goes to aiohttp,
# which refuses it with its usual error.
MAX_HEAD_BYTES = 8190
MAX_HEADERS = 128  # aiohttp's limit too
# Pipelined bytes buffered behind a request in flight before reading pauses.
MAX_BUFFERED_BYTES = 1 << 20
KEEPALIVE_SECONDS = 75.0
_SWEEP_SECONDS = 5.0

_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
# Characters a target may hold to be read here: no '%' (encoded characters), no '+' (a
# space in a query to aiohttp), no ';' (a query separator to some readers), no '#', no
# spaces or controls.
_PLAIN_TARGET = r"/[!$&'()*,\-./0-9:=?@A-Z_a-z~]*"
# A field value: printable ASCII, spaces and tabs (no controls, no bare CR or LF).
_VALUE = r"[\t\x20-\x7e]*"
_HEAD = re.compile(
    rf"(GET|POST) ({_PLAIN_TARGET}) HTTP/1\.1\r\n((?:{_TOKEN}:{_VALUE}\r\n){{0,{MAX_HEADERS}}})"
)
_FIELD = re.compile(rf"({_TOKEN}):[\t ]*({_VALUE})\r\n")
_FRAMING_WE_LEAVE = ("transfer-encoding", "expect", "upgrade")
_REASONS = {status.value: status.phrase for status in http.HTTPStatus}


def _route_pattern(path: str) -> re.Pattern[str]:
    """A route path with `{name}` parameters as a regex matching what aiohttp would match."""
    parts = re.split(r"\{(\w+)\}", path)
    regex = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{part}>[^{{}}/]+)"
        for index, part in enumerate(parts)
    )
    return re.compile(regex)


class FastRoutes:
    """The plain operations' routes, matched in the order aiohttp matches them."""

    def __init__(self, routes: Sequence[Route], operations: Sequence[str]) -> None:
        self._routes = [
            (route.method, _route_pattern(route.path), route.operation_id)
            for route in routes
            if route.operation_id in operations
        ]

    def match(self, method: str, path: str) -> tuple[str, dict[str, str]] | None:
        """The operation and path parameters, or None (an unknown route, or a method the
        path does not take: aiohttp's 404 or 405 to give)."""
        for route_method, pattern, operation_id in self._routes:
            if route_method == method:
                found = pattern.fullmatch(path)
                if found is not None:
                    return operation_id, found.groupdict()
        return None


class FastRequest:
    """A request read by this front, seen as a rest.RestRequest."""

    __slots__ = ("_body", "_headers", "_params", "_query", "_query_text", "remote")

    def __init__(
        self,
        params: dict[str, str],
        query_text: str,
        headers: dict[str, str],
        body: bytes,
        remote: str,
    ) -> None:
        self._params = params
        self._query_text = query_text
        self._query: dict[str, str] | None = None
        self._headers = headers
        self._body = body
        self.remote = remote

    def path_param(self, name: str) -> str:
        return self._params[name]

    def query_param(self, name: str) -> str | None:
        if self._query is None:
            query: dict[str, str] = {}
            for part in self._query_text.split("&"):
                if part:
                    key, _, value = part.partition("=")
                    query.setdefault(key, value)  # the first of repeated keys, as aiohttp
            self._query = query
        return self._query.get(name)

    def header(self, lower_name: str) -> str | None:
        return self._headers.get(lower_name)

    async def body(self) -> bytes:
        return self._body


class _Head:
    __slots__ = ("close", "headers", "length", "method", "path", "query_text")

    def __init__(
        self, method: str, path: str, query_text: str, headers: dict[str, str], length: int,
        close: bool,
    ) -> None:
        self.method = method
        self.path = path
        self.query_text = query_text
        self.headers = headers
        self.length = length
        self.close = close


def parse_head(head: bytes, max_body_bytes: int) -> _Head | None:
    """The request head (without its closing blank line) if it is one this front reads with
    certainty, else None (the request is then aiohttp's)."""
    # One regex checks the whole head, one more splits its fields: both run in C, where a
    # loop over the lines in Python cost more than the rest of the request's reading.
    found = _HEAD.fullmatch(head.decode("latin-1") + "\r\n")
    if found is None:
        return None
    method, target, block = found.groups()
    fields = _FIELD.findall(block)
    headers = {name.lower(): value.rstrip(" \t") for name, value in fields}
    if len(headers) != len(fields):
        return None  # a header named twice
    for name in _FRAMING_WE_LEAVE:
        if name in headers:
            return None
    close = False
    connection = headers.get("connection")
    if connection is not None:
        connection = connection.lower()
        if connection == "close":
            close = True
        elif connection != "keep-alive":
            return None
    length = 0
    length_text = headers.get("content-length")
    if length_text is not None:
        if not length_text.isdigit() or len(length_text) > 12:
            return None
        length = int(length_text)
        if length > max_body_bytes:
            return None  # aiohttp answers it with MESSAGE_TOO_LARGE
    path, _, query_text = target.partition("?")
    return _Head(method, path, query_text, headers, length, close)


class _DateHeader:
    """The Date header's value, formatted once a second."""

    def __init__(self) -> None:
        self._second = -1
        self._value = b""

    def value(self) -> bytes:
        second = int(time.time())
        if second != self._second:
            self._second = second
            self._value = email.utils.formatdate(second, usegmt=True).encode("ascii")
        return self._value


class FastHttpProtocol(asyncio.Protocol):
    """One connection, until it is closed or handed to aiohttp."""

    def __init__(self, front: FastHttpFront) -> None:
        self._front = front
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._remote = "unknown"
        self.busy = False
        self.last_active = time.monotonic()
        self._reading_paused = False
        self._writing_paused = False
        self._eof = False
        self._closing = False  # answer what is in flight, then close

    # -------------------------------------------------------------- asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]  # uvloop's is no subclass
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and peer:
            self._remote = str(peer[0])
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._front.connections.add(self)
        if not self._front.enabled:
            self._hand_off()

    def connection_lost(self, exc: Exception | None) -> None:
        self._front.connections.discard(self)
        self._transport = None

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self.busy:
            self._next_request()
        # A client that sends faster than its answers are taken (in flight, or waiting for
        # it to read what was written) is held back, not buffered without end. A request
        # still arriving is never held back: it needs its whole body before anything
        # moves.
        if (
            (self.busy or self._writing_paused)
            and len(self._buffer) > MAX_BUFFERED_BYTES
            and not self._reading_paused
            and self._transport is not None
        ):
            self._transport.pause_reading()
            self._reading_paused = True

    def eof_received(self) -> bool:
        self._eof = True
        if not self.busy:
            self._next_request()
        return True  # keep the transport open to answer what is in flight

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        if not self.busy:
            self._next_request()
        self._read_more_if_room()

    def _read_more_if_room(self) -> None:
        """Reading resumes when nothing waits for the client to read, and either no whole
        request is buffered (the one arriving needs more bytes) or the buffered ones have
        drained to half the limit (resuming at once would let one more read in per
        request answered)."""
        if (
            self._reading_paused
            and not self._writing_paused
            and self._transport is not None
            and (not self.busy or len(self._buffer) <= MAX_BUFFERED_BYTES // 2)
        ):
            self._reading_paused = False
            self._transport.resume_reading()

    # -------------------------------------------------------------- requests

    def close_when_idle(self) -> None:
        self._closing = True
        if not self.busy and self._transport is not None:
            self._transport.close()

    def _next_request(self) -> None:
        transport = self._transport
        if transport is None or self._writing_paused:
            return
        buffer = self._buffer
        end = buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(buffer) > MAX_HEAD_BYTES:
                self._hand_off()
            elif self._eof or self._closing:
                transport.close()
            return
        if end > MAX_HEAD_BYTES:
            self._hand_off()
            return
        head = parse_head(bytes(buffer[:end]), self._front.max_body_bytes)
        match = self._front.routes.match(head.method, head.path) if head is not None else None
        if head is None or match is None:
            self._hand_off()
            return
        start = end + 4
        if len(buffer) < start + head.length:
            if self._eof or self._closing:
                transport.close()
            return  # the rest of the body is on its way
        body = bytes(buffer[start:start + head.length])
        del buffer[:start + head.length]
        operation_id, params = match
        request = FastRequest(params, head.query_text, head.headers, body, self._remote)
        self.busy = True
        self._front.track(
            asyncio.get_running_loop().create_task(self._serve(operation_id, request, head.close))
        )

    async def _serve(self, operation_id: str, request: FastRequest, close: bool) -> None:
        try:
            status, text = await self._front.gateway.respond(operation_id, request)
        except asyncio.CancelledError:  # the server is stopping and the grace is over
            if self._transport is not None:
                self._transport.close()
            raise
        finally:
            self.busy = False
        transport = self._transport
        if transport is None:
            return  # the client left; the operation has done its work regardless
        body = text.encode()
        close = close or self._closing
        transport.write(
            b"HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\n"
            b"Content-Length: %d\r\nDate: %s\r\n%s\r\n%s"
            % (
                status, _REASONS.get(status, "Unknown").encode("ascii"), len(body),
                self._front.date.value(), b"Connection: close\r\n" if close else b"", body,
            )
        )
        self.last_active = time.monotonic()
        if close:
            transport.close()
            return
        if self._buffer or self._eof:
            self._next_request()
        self._read_more_if_room()

    def _hand_off(self) -> None:
        """Gives the connection, with every byte not yet answered, to aiohttp."""
        transport = self._transport
        assert transport is not None and not self.busy
        self._front.connections.discard(self)
        self._transport = None
        handler = self._front.make_aiohttp_protocol()
        transport.set_protocol(handler)
        handler.connection_made(transport)
        if self._reading_paused:
            self._reading_paused = False
            transport.resume_reading()
        data = bytes(self._buffer)
        self._buffer.clear()
        if data:
            handler.data_received(data)
        if self._eof:
            handler.eof_received()


class FastHttpFront:
    """Listens on the REST port; see the module's text."""

    def __init__(
        self,
        gateway: RestGateway,
        make_aiohttp_protocol: Callable[[], Any],
        max_body_bytes: int,
        keepalive_seconds: float = KEEPALIVE_SECONDS,
        enabled: bool = True,
    ) -> None:
        self.gateway = gateway
        self.make_aiohttp_protocol = make_aiohttp_protocol
        self.max_body_bytes = max_body_bytes
        self.keepalive_seconds = keepalive_seconds
        self.enabled = enabled  # False: every connection goes to aiohttp at once
        self.routes = FastRoutes(ROUTES, PLAIN_OPERATIONS)
        self.date = _DateHeader()
        self.connections: set[FastHttpProtocol] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None

    def track(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> int:
        """Listens; returns the port bound (resolved when 0 was asked)."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: FastHttpProtocol(self), host, port, reuse_port=reuse_port or None,
            backlog=1024,
        )
        self._sweeper = loop.create_task(self._sweep())
        return int(self._server.sockets[0].getsockname()[1])

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(min(_SWEEP_SECONDS, self.keepalive_seconds))
            idle_since = time.monotonic() - self.keepalive_seconds
            for connection in list(self.connections):
                if not connection.busy and connection.last_active < idle_since:
                    connection.close_when_idle()

    async def close(self, grace_seconds: float = 2.0) -> None:
        """Stops listening, lets requests in flight finish (up to the grace), closes the
        connections this front still holds (aiohttp closes the ones handed to it)."""
        if self._server is not None:
            self._server.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for connection in list(self.connections):
            connection.close_when_idle()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=grace_seconds)
        for task in list(self._tasks):
            task.cancel()
