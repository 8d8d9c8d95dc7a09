"""The REST port's two streams: WatchGame as Server-Sent Events and RunBatch as NDJSON, each
watching that its client is still there (aiohttp does not cancel a handler whose client
left) and ending when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import structlog
from aiohttp import web

from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..observability import RequestRecord, new_request_id, observe_request
from ..views.answers import WatchUpdate
from ..views.convert import message_to_json_dict
from .rest import RestGateway
from .rest_parse import (
    AiohttpRequest,
    ClientGone,
    error_response,
    export_filter,
    int_param,
    query_either,
    read_body,
)

log = structlog.get_logger("brass_service.rest")

SSE_HEARTBEAT_SECONDS = 15.0
# How long an SSE client waits before reconnecting after the server said it is shutting down.
SSE_RECONNECT_MS = 1000
# How often an idle stream handler (SSE, batches) checks that its client is still there (and
# the server is not shutting down), so a vanished client frees its watcher or batch slot
# promptly.
STREAM_LIVENESS_SECONDS = 0.5


def _sse_stream_end(event: str, reason: str, version: int) -> bytes:
    """The last message of a watch stream: `end` (the game is over: stop watching) or
    `shutdown` (this server is stopping: reconnect after `retry` ms with Last-Event-ID)."""
    data = json.dumps({"reason": reason, "version": str(version)}, separators=(",", ":"))
    retry = f"retry: {SSE_RECONNECT_MS}\n" if event == "shutdown" else ""
    return f"{retry}event: {event}\ndata: {data}\n\n".encode()


class RestStreams:
    """The stream handlers of the aiohttp app; `closing` is set when the server stops."""

    def __init__(self, gateway: RestGateway) -> None:
        self.gateway = gateway
        self.service = gateway.service
        self.closing = asyncio.Event()

    async def watch_game(self, request: web.Request) -> web.StreamResponse:
        """SSE: `id` is the version, so EventSource's Last-Event-ID resumes exactly."""
        record = RequestRecord(
            transport="rest",
            method="WatchGame",
            request_id=request.headers.get("X-Request-Id") or new_request_id(),
            game_id=request.match_info["gameId"],
        )
        with observe_request(record):
            try:
                caller = self.gateway.caller(AiohttpRequest(request))
                await self.service.accounts.resolve(caller)
                # both are checked; EventSource's header, when sent, says where to resume
                from_version = int_param(
                    query_either(AiohttpRequest(request), "fromVersion", "from_version"),
                    "fromVersion", 64, low=0,
                )
                last_event_id = request.headers.get("Last-Event-ID")
                if last_event_id is not None:
                    from_version = int_param(last_event_id, "Last-Event-ID", 64, low=0)
                message = pb.WatchGameRequest(
                    game_id=request.match_info["gameId"], from_version=from_version
                )
                stream = await self.service.watch_game(message, caller, record)
            except ServiceError as error:
                record.outcome = error.reason
                return error_response(error, request)
            response = web.StreamResponse(
                headers={
                    "Content-Type": "text/event-stream",
                    "Cache-Control": "no-cache",
                    "X-Accel-Buffering": "no",
                }
            )
            queue: asyncio.Queue[WatchUpdate | BaseException | None] = asyncio.Queue(
                maxsize=16
            )

            async def pump() -> None:
                try:
                    async for update in stream:
                        await queue.put(update)
                    await queue.put(None)
                except Exception as exc:  # handed to the writer, which ends the stream
                    await queue.put(exc)

            pump_task = asyncio.create_task(pump())
            try:
                await response.prepare(request)
                loop = asyncio.get_running_loop()
                last_write = loop.time()
                sent_version = message.from_version  # the version the client has seen
                while True:
                    try:
                        item = await asyncio.wait_for(queue.get(), STREAM_LIVENESS_SECONDS)
                    except TimeoutError:
                        transport = request.transport
                        if transport is None or transport.is_closing():
                            record.outcome = "CLIENT_GONE"
                            break
                        if self.closing.is_set():
                            # not the game's end: the client reconnects (to this server
                            # restarted, or another replica) and resumes from `version`
                            await response.write(_sse_stream_end(
                                "shutdown", "SERVER_SHUTTING_DOWN", sent_version))
                            break
                        if loop.time() - last_write >= SSE_HEARTBEAT_SECONDS:
                            await response.write(b": keep-alive\n\n")
                            last_write = loop.time()
                        continue
                    last_write = loop.time()
                    if item is None:
                        await response.write(_sse_stream_end("end", "GAME_OVER", sent_version))
                        break
                    if isinstance(item, BaseException):
                        error = item if isinstance(item, ServiceError) else ServiceError(
                            "INTERNAL", "the event stream failed"
                        )
                        record.outcome = error.reason
                        data = json.dumps(error.to_json())
                        await response.write(f"event: error\ndata: {data}\n\n".encode())
                        break
                    record.version = sent_version = item.version
                    data = item.to_json_text()
                    await response.write(
                        f"id: {item.version}\nevent: update\ndata: {data}\n\n".encode()
                    )
            except ConnectionResetError:
                record.outcome = "CLIENT_GONE"
            except asyncio.CancelledError:
                record.outcome = "CLIENT_GONE"
                raise
            finally:
                pump_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await pump_task
                await stream.aclose()
            return response

    async def account_events(self, request: web.Request) -> web.StreamResponse:
        """SSE StreamAccountEvents: `event` names the event's field, `data` is its JSON
        (a StreamAccountEventsResponse); a reconnection starts again with what is pending."""
        return await self._sse_messages(
            request, "StreamAccountEvents",
            lambda caller: self.service.account_streams.open(
                pb.StreamAccountEventsRequest(), caller),
            lambda event: event.WhichOneof("event"))

    async def watch_arena(self, request: web.Request) -> web.StreamResponse:
        """SSE WatchArena: `arena` events (a WatchArenaResponse each: the table as it
        stands), then `end` once the arena finished."""
        message = pb.WatchArenaRequest(arena_id=request.match_info["arenaId"])
        return await self._sse_messages(
            request, "WatchArena", lambda caller: self.service.arenas.watch(message, caller),
            lambda _update: "arena", end=b"event: end\ndata: {}\n\n")

    async def _sse_messages(self, request: web.Request, method: str,
                            open_stream: Callable[[Any], Awaitable[Any]],
                            kind_of: Callable[[Any], str | None],
                            end: bytes | None = None) -> web.StreamResponse:
        """A server stream of messages as Server-Sent Events (`event` from kind_of, `data`
        the message's JSON), with heartbeats; it ends when the client goes, the server
        stops, or the stream ends (then `end` is written, when given)."""
        record = RequestRecord(
            transport="rest", method=method,
            request_id=request.headers.get("X-Request-Id") or new_request_id())
        with observe_request(record):
            try:
                caller = self.gateway.caller(AiohttpRequest(request))
                await self.service.accounts.resolve(caller)
                stream = await open_stream(caller)
            except ServiceError as error:
                record.outcome = error.reason
                return error_response(error)
            response = web.StreamResponse(headers={
                "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no"})
            await response.prepare(request)
            events = stream.__aiter__()
            pending = asyncio.ensure_future(events.__anext__())
            loop = asyncio.get_running_loop()
            last_write = loop.time()
            try:
                while True:
                    done, _ = await asyncio.wait({pending}, timeout=STREAM_LIVENESS_SECONDS)
                    if not done:
                        transport = request.transport
                        if transport is None or transport.is_closing() or self.closing.is_set():
                            record.outcome = "CLIENT_GONE"
                            break
                        if loop.time() - last_write >= SSE_HEARTBEAT_SECONDS:
                            await response.write(b": keep-alive\n\n")
                            last_write = loop.time()
                        continue
                    try:
                        event = pending.result()
                    except StopAsyncIteration:
                        if end is not None:
                            await response.write(end)
                        break
                    pending = asyncio.ensure_future(events.__anext__())
                    data = json.dumps(message_to_json_dict(event), separators=(",", ":"))
                    await response.write(f"event: {kind_of(event)}\ndata: {data}\n\n".encode())
                    last_write = loop.time()
            except ConnectionResetError:
                record.outcome = "CLIENT_GONE"
            finally:
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await pending
                await stream.aclose()
            return response

    async def run_batch(self, request: web.Request) -> web.StreamResponse:
        """NDJSON: one RunBatchResponse per line as each game finishes; a failure after the
        first line is sent as a last line `{"error": {...}}` (the HTTP status is 200 by then)."""
        record = RequestRecord(
            transport="rest",
            method="RunBatch",
            request_id=request.headers.get("X-Request-Id") or new_request_id(),
        )
        with observe_request(record):
            try:
                caller = self.gateway.caller(AiohttpRequest(request))
                self.service.require_operator(caller, "RunBatch")  # before reading the body
                message = await read_body(
                    AiohttpRequest(request), pb.RunBatchRequest(), self.gateway.bodies)
                stream = await self.service.run_batch(
                    message, caller, record  # type: ignore[arg-type]
                )
            except ServiceError as error:
                record.outcome = error.reason
                return error_response(error, request)
            except ClientGone:
                record.outcome = "CLIENT_GONE"
                return web.Response(status=400)
            response = web.StreamResponse(
                headers={
                    "Content-Type": "application/x-ndjson",
                    "Cache-Control": "no-cache",
                    "X-Accel-Buffering": "no",
                }
            )
            results = stream.__aiter__()
            try:
                await response.prepare(request)
                try:
                    while True:
                        result = await self._next_while_connected(request, results)
                        if result is None:
                            break
                        record.extra["completed"] = result.completed
                        line = json.dumps(message_to_json_dict(result), separators=(",", ":"))
                        await response.write(line.encode() + b"\n")
                except ClientGone:
                    record.outcome = "CLIENT_GONE"
                    return response
                except ServiceError as error:
                    record.outcome = error.reason
                    await response.write(json.dumps(error.to_json()).encode() + b"\n")
                await response.write_eof()
            except ConnectionResetError:
                record.outcome = "CLIENT_GONE"
            except asyncio.CancelledError:
                record.outcome = "CLIENT_GONE"
                raise
            except Exception:
                record.outcome = "INTERNAL"
                log.exception("unexpected_error", method="RunBatch", request_id=record.request_id)
                error = ServiceError("INTERNAL", f"internal error (request id {record.request_id})")
                with contextlib.suppress(Exception):
                    await response.write(json.dumps(error.to_json()).encode() + b"\n")
            finally:
                await stream.aclose()
            return response

    async def export_games(self, request: web.Request) -> web.StreamResponse:
        """JSON Lines: one finished game per line (service/games/export.py). Each line is
        written and drained before the next is made, so a slow reader holds one line."""
        record = RequestRecord(
            transport="rest", method="ExportGames",
            request_id=request.headers.get("X-Request-Id") or new_request_id(),
        )
        with observe_request(record):
            try:
                caller = self.gateway.caller(AiohttpRequest(request))
                lines = self.service.export_games(export_filter(AiohttpRequest(request)),
                                                  caller)
            except ServiceError as error:
                record.outcome = error.reason
                return error_response(error, request)
            response = web.StreamResponse(headers={
                "Content-Type": "application/jsonl", "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no"})
            sent = 0
            try:
                await response.prepare(request)
                try:
                    async for line in lines:
                        if self.closing.is_set():
                            raise ServiceError("UNAVAILABLE", "the server is stopping; export "
                                               "again from the last game received")
                        await response.write(line)
                        sent += 1
                except ServiceError as error:
                    record.outcome = error.reason
                    await response.write(json.dumps(error.to_json()).encode() + b"\n")
                await response.write_eof()
            except (ConnectionResetError, ClientGone):
                record.outcome = "CLIENT_GONE"
            finally:
                record.extra["games"] = sent
                await lines.aclose()  # type: ignore[attr-defined]
            return response

    async def _next_while_connected(
        self, request: web.Request, results: AsyncIterator[pb.RunBatchResponse]
    ) -> pb.RunBatchResponse | None:
        """The batch's next result (None at its end), watching the connection meanwhile: a
        game can take minutes, and aiohttp does not cancel a handler whose client left, so
        without this a vanished client would hold its batch slot and workers until the next
        game ends. Raises ClientGone when the client left, and ends the batch with
        UNAVAILABLE when the server is stopping (within its grace period)."""
        pending = asyncio.ensure_future(anext(results, None))
        try:
            while True:
                done, _ = await asyncio.wait({pending}, timeout=STREAM_LIVENESS_SECONDS)
                if done:
                    return pending.result()
                transport = request.transport
                if transport is None or transport.is_closing():
                    raise ClientGone
                if self.closing.is_set():
                    raise ServiceError("UNAVAILABLE", "the server is stopping; retry the batch")
        finally:
            if not pending.done():
                # Cancelling the generator mid-wait runs its cleanup (stopping its games)
                # and finishes it, so the caller's aclose() has nothing left to wait for.
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pending
