"""A lean HTTP/1.1 front for the REST gateway's plain JSON operations.

aiohttp spends about 130 µs of CPU on each request on this 2-core machine, more than the
engine and the store together spend on a move; a bare asyncio protocol reading the same
requests spends about 25 µs under uvloop (figures in docs/SERVICE.md). This front owns the
REST port. Request heads are parsed by httptools (llhttp, the parser under uvicorn and,
in its own copy, under aiohttp); the front answers itself the requests that are:

- `GET` or `POST` over `HTTP/1.1` with a Host header, a head of at most MAX_HEAD_BYTES and
  MAX_HEADERS, no header named twice, header values in ASCII;
- a body framed by one Content-Length (or no body), with no Transfer-Encoding, Expect or
  Upgrade, and Connection absent, `keep-alive` or `close`;
- a target of plain characters (no percent-encoding, `+` or `;`) that matches the route
  of one of api/rest_routes.PLAIN_OPERATIONS.

Of those it refuses, without reading the body, a Content-Encoding (415: bodies are not
decompressed) and a Content-Length over the body limit (413). Anything else (the event and
batch streams, /healthz, /metrics, /openapi.json, unknown routes, chunked bodies,
`Expect: 100-continue`, HTTP/1.0, heads llhttp refuses, huge heads) is handed to aiohttp
together with the connection and every byte not yet answered, and aiohttp serves that
connection to its end. So aiohttp decides every other error and corner of HTTP, and both
fronts give a plain operation the same answer, made by RestGateway.respond; the aiohttp
app's _http_guard middleware (api/rest_app.py) refuses encodings and oversized bodies the
same way.

Requests on one connection are answered one at a time, in order (pipelined ones wait in
the buffer). Every connection, handed over or not, is bounded:

- at most max_connections_per_address at once from one client address (429 beyond; a
  trusted proxy, --trusted-proxies, is not counted: it carries many clients);
- a request must arrive whole within request_read_seconds of its first byte (408);
- a connection with nothing in flight for keepalive_seconds is closed, as aiohttp does,
  and aborted when the client has left answers unread (closing would wait for it to read
  them); so is a handed-over one whose client has read nothing for that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import ServiceError
from .fast_http_parse import (
    MAX_HEAD_BYTES,
    PARSER_REFUSALS,
    DateHeader,
    FastRequest,
    FastRoutes,
    RequestHead,
    RequestReader,
    response_bytes,
)
from .rest_parse import BODY_UNREAD_STATUSES, body_too_large, encoding_refused, read_timeout
from .rest_routes import PLAIN_OPERATIONS, ROUTES

if TYPE_CHECKING:
    from .rest import RestGateway

# Pipelined bytes buffered behind a request in flight before reading pauses.
MAX_BUFFERED_BYTES = 1 << 20
KEEPALIVE_SECONDS = 75.0
REQUEST_READ_SECONDS = 30.0
MAX_CONNECTIONS_PER_ADDRESS = 256
_SWEEP_SECONDS = 5.0


class FastHttpProtocol(asyncio.Protocol):
    """One connection, until it is closed or handed to aiohttp."""

    def __init__(self, front: FastHttpFront) -> None:
        self._front = front
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._reader = RequestReader()
        self._fed = 0  # bytes of the buffer fed to the parser (the request being read)
        self._head: RequestHead | None = None  # the head read, its body still arriving
        self._match: tuple[str, dict[str, str]] = ("", {})
        self._remote = "unknown"
        self._admitted = False
        self.busy = False
        self.last_active = time.monotonic()
        self.reading_since = 0.0  # when a request began to arrive (0: none is arriving)
        self._reading_paused = False
        self._writing_paused = False
        self._eof = False
        self._closing = False  # answer what is in flight, then close
        self._discarding = False  # refused with the body unread: read and drop until closed

    # -------------------------------------------------------------- asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]  # uvloop's is no subclass
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and peer:
            self._remote = str(peer[0])
        self._front.connections.add(self)  # swept, admitted or not
        if not self._front.admit(self._remote):
            limit = self._front.max_connections_per_address
            self._refuse(ServiceError(
                "RATE_LIMITED", f"more than {limit} connections at once from one address",
                limit="max_connections_per_address",
            ))
            return
        self._admitted = True
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if not self._front.enabled:
            self._hand_off()

    def connection_lost(self, exc: Exception | None) -> None:
        self._front.connections.discard(self)
        if self._admitted:
            self._front.release(self._remote)
        self._transport = None

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            return
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
        if self._discarding and self._transport is not None:
            self._transport.close()
        elif not self.busy:
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
        """Closes now if nothing is in flight (else once it is answered); aborts when
        answers are still unsent, since closing would wait for the client to read them."""
        self._closing = True
        transport = self._transport
        if not self.busy and transport is not None:
            if self._writing_paused or transport.get_write_buffer_size():
                transport.abort()
            else:
                transport.close()

    def sweep(self, now: float, idle_since: float) -> None:
        """The deadlines, checked by the front every few seconds."""
        if self.busy or self._transport is None:
            return
        if self.reading_since and now - self.reading_since > self._front.request_read_seconds:
            if self._discarding:
                self._transport.abort()  # its refusal was sent; it is still sending
                return
            self._refuse(read_timeout(self._front.request_read_seconds))
        elif self.last_active < idle_since:
            self.close_when_idle()

    def _waiting_for_bytes(self) -> None:
        transport = self._transport
        assert transport is not None
        if self._eof or self._closing:
            transport.close()
        elif not self.reading_since and (self._buffer or self._head is not None):
            self.reading_since = time.monotonic()

    def _next_request(self) -> None:
        transport = self._transport
        if transport is None or self._writing_paused:
            return
        buffer = self._buffer
        reader = self._reader
        head = self._head
        if head is None:
            if not self._fed:
                while buffer[:2] == b"\r\n":  # empty lines before a request are ignored
                    del buffer[:2]
            end = buffer.find(b"\r\n\r\n", max(self._fed - 3, 0))
            stop = len(buffer) if end < 0 else end + 4
            if stop > MAX_HEAD_BYTES:
                self._hand_off()
                return
            if stop > self._fed:
                try:
                    reader.parser.feed_data(buffer[self._fed:stop])
                except PARSER_REFUSALS:
                    self._hand_off()  # aiohttp words the 400
                    return
                self._fed = stop
            if not reader.head_done:
                self._waiting_for_bytes()
                return
            head = reader.head()
            match = self._front.routes.match(head.method, head.path) if head else None
            if head is None or match is None or (
                    self._front.hand_off_cross_origin and "origin" in head.headers):
                self._hand_off()
                return
            encoding = head.headers.get("content-encoding")
            if encoding is not None and encoding.lower() != "identity":
                self._refuse(encoding_refused(encoding))
                return
            if head.length > self._front.max_body_bytes:
                self._refuse(body_too_large(self._front.max_body_bytes))
                return
            self._head = head
            self._match = match
        need = self._fed + head.length
        if len(buffer) < need:
            self._waiting_for_bytes()
            return
        if head.length:
            with contextlib.suppress(*PARSER_REFUSALS):
                reader.parser.feed_data(buffer[self._fed:need])
        if not reader.complete:  # never with Content-Length framing: the parser is lost
            transport.abort()
            return
        body = b"".join(reader.body) if reader.body else b""
        del buffer[:need]
        reader.next_request()
        self._fed = 0
        self._head = None
        self.reading_since = 0.0
        operation_id, params = self._match
        request = FastRequest(params, head.query_text, head.headers, body, self._remote)
        self.busy = True
        self._front.track(
            asyncio.get_running_loop().create_task(self._serve(operation_id, request, head.close))
        )

    async def _serve(self, operation_id: str, request: FastRequest, close: bool) -> None:
        try:
            status, text, headers = await self._front.gateway.respond(operation_id, request)
        except asyncio.CancelledError:  # the server is stopping and the grace is over
            if self._transport is not None:
                self._transport.close()
            raise
        finally:
            self.busy = False
        transport = self._transport
        if transport is None:
            return  # the client left; the operation has done its work regardless
        close = close or self._closing
        transport.write(
            response_bytes(status, text, self._front.date.value(), close, headers,
                           self._front.hand_off_cross_origin)
        )
        self.last_active = time.monotonic()
        if close:
            transport.close()
            return
        if self._buffer or self._eof:
            self._next_request()
        self._read_more_if_room()

    def _refuse(self, error: ServiceError) -> None:
        """Answers `error` and ends the connection without reading the request's body: its
        bytes are read and dropped until the client closes (so that it sees the answer
        rather than a reset), for at most request_read_seconds."""
        transport = self._transport
        assert transport is not None
        assert error.http_status in BODY_UNREAD_STATUSES or error.reason == "RATE_LIMITED"
        transport.write(
            response_bytes(
                error.http_status, error.to_json_text(), self._front.date.value(), True,
                error.http_headers(), self._front.hand_off_cross_origin,
            )
        )
        self._discarding = True
        self._buffer.clear()
        self._head = None
        self.reading_since = time.monotonic()
        if self._reading_paused:
            self._reading_paused = False
            transport.resume_reading()
        if transport.can_write_eof():
            transport.write_eof()
        else:
            transport.close()

    def _hand_off(self) -> None:
        """Gives the connection, with every byte not yet answered, to aiohttp."""
        transport = self._transport
        assert transport is not None and not self.busy
        self._front.connections.discard(self)
        self._transport = None
        handler = self._front.make_aiohttp_protocol()
        handed = HandedOff(self._front, handler, transport, self._remote)
        self._admitted = False  # HandedOff releases the address
        transport.set_protocol(handed)
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


class HandedOff(asyncio.Protocol):
    """A connection served by aiohttp: passes the transport's calls on to aiohttp's
    handler, and keeps the front's count of the address and its watch on a client that
    leaves answers unread."""

    def __init__(
        self, front: FastHttpFront, handler: Any, transport: asyncio.BaseTransport, remote: str
    ) -> None:
        self._front = front
        self._handler = handler
        self._transport = transport
        self._remote = remote
        self.writing_paused_since = 0.0
        front.handed_off.add(self)

    def data_received(self, data: bytes) -> None:
        self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self._handler.eof_received()  # type: ignore[no-any-return]

    def pause_writing(self) -> None:
        self.writing_paused_since = time.monotonic()
        self._handler.pause_writing()

    def resume_writing(self) -> None:
        self.writing_paused_since = 0.0
        self._handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._front.handed_off.discard(self)
        self._front.release(self._remote)
        self._handler.connection_lost(exc)

    def sweep(self, idle_since: float) -> None:
        if self.writing_paused_since and self.writing_paused_since < idle_since:
            self._transport.abort()  # type: ignore[attr-defined]


class FastHttpFront:
    """Listens on the REST port; see the module's text."""

    def __init__(
        self,
        gateway: RestGateway,
        make_aiohttp_protocol: Callable[[], Any],
        max_body_bytes: int,
        keepalive_seconds: float = KEEPALIVE_SECONDS,
        enabled: bool = True,
        request_read_seconds: float = REQUEST_READ_SECONDS,
        max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        hand_off_cross_origin: bool = False,
    ) -> None:
        self.gateway = gateway
        # with CORS on, a request with an Origin header goes to aiohttp, which adds the
        # CORS headers (browsers play at a person's pace: the lean path is for programs)
        self.hand_off_cross_origin = hand_off_cross_origin
        self.make_aiohttp_protocol = make_aiohttp_protocol
        self.max_body_bytes = max_body_bytes
        self.keepalive_seconds = keepalive_seconds
        self.request_read_seconds = request_read_seconds
        self.max_connections_per_address = max_connections_per_address
        self.enabled = enabled  # False: every connection goes to aiohttp at once
        self.routes = FastRoutes(ROUTES, PLAIN_OPERATIONS)
        self.date = DateHeader()
        self.connections: set[FastHttpProtocol] = set()
        self.handed_off: set[HandedOff] = set()
        self._per_address: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None

    def admit(self, remote: str) -> bool:
        """Counts a new connection from `remote`; False (not counted) when it has the most
        it may have."""
        if self.gateway.service.addresses.is_trusted_peer(remote):
            return True  # a trusted proxy carries many clients (release() tolerates it)
        count = self._per_address.get(remote, 0)
        if count >= self.max_connections_per_address:
            return False
        self._per_address[remote] = count + 1
        return True

    def release(self, remote: str) -> None:
        count = self._per_address.pop(remote, 1) - 1
        if count > 0:
            self._per_address[remote] = count

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
        period = min(_SWEEP_SECONDS, self.keepalive_seconds, self.request_read_seconds / 2)
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            idle_since = now - self.keepalive_seconds
            for connection in list(self.connections):
                connection.sweep(now, idle_since)
            for handed in list(self.handed_off):
                handed.sweep(idle_since)

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
