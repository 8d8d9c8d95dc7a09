"""The REST/JSON gateway (aiohttp), on the same event loop and GameService as gRPC.

Bodies are the canonical proto3 JSON of the brass.v1 messages; errors are the same reasons
and messages as over gRPC, with the matching HTTP status.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

import aiohttp_cors
import structlog
from aiohttp import ClientPayloadError, web
from aiohttp.http_exceptions import LineTooLong
from aiohttp.web_protocol import RequestHandler
from google.protobuf import json_format
from google.protobuf.message import Message

from .auth import bearer_token
from .errors import ServiceError
from .games import Caller, GameService, ServiceSettings
from .gen import game_service_pb2 as pb
from .observability import RequestRecord, metrics_text, new_request_id, observe_request
from .openapi import INT64_PATTERN, BodyValidator, Route, build_openapi
from .requests import MAX_COMPOUND_IDS, MAX_PAGE_TOKEN_CHARS, check_compound_length
from .rulesets import get_ruleset, parse_ruleset
from .store import StoreHealth
from .views.convert import message_to_json_dict, parse_json_into
from .views.reply import Reply
from .web import WebApp

log = structlog.get_logger("brass_service.rest")

SSE_HEARTBEAT_SECONDS = 15.0
# How long an SSE client waits before reconnecting after the server said it is shutting down.
SSE_RECONNECT_MS = 1000
# How often an idle stream handler (SSE, batches) checks that its client is still there (and
# the server is not shutting down), so a vanished client frees its watcher or batch slot
# promptly.
STREAM_LIVENESS_SECONDS = 0.5

_BOOL = {"type": "boolean"}
_VERSION = {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1}

ROUTES: list[Route] = [
    Route("POST", "/v1/games", "CreateGame", "Create a game; returns one token per seat.",
          request="CreateGameRequest", response="CreateGameResponse", authorization="none"),
    Route("POST", "/v1/games:fromPosition", "CreateGameFromPosition",
          "Create a game from a position in the core's JSON format.",
          request="CreateGameFromPositionRequest", response="CreateGameResponse",
          authorization="operator"),
    Route("GET", "/v1/games", "ListGames", "List games, newest first, a page at a time.",
          response="ListGamesResponse", authorization="none",
          query=(("pageSize", {"type": "integer", "format": "int32", "minimum": 1,
                               "maximum": ServiceSettings.max_page_size},
                  "Games per page, 1 to 100 (default 20)."),
                 ("pageToken", {"type": "string", "maxLength": MAX_PAGE_TOKEN_CHARS},
                  "nextPageToken of the previous page (empty or absent: the first page)."),
                 ("status", {"$ref": "#/components/schemas/GameStatus"},
                  "Only games of this status."),
                 ("ruleset", {"$ref": "#/components/schemas/Ruleset"},
                  "Only games of this rule set."),
                 ("hasOpenSeats", _BOOL,
                  "Only games with (true) or without (false) an open seat."))),
    Route("GET", "/v1/games/{gameId}", "GetGame",
          "The caller's view: a seat's with its token, a spectator's without.",
          response="GetGameResponse",
          query=(("atVersion", _VERSION,
                  "The game as it was at this version, 0 to the current one (default: now)."),
                 )),
    Route("GET", "/v1/games/{gameId}/actions", "ListLegalActions",
          "The current decision's options, for the seat to act.",
          response="ListLegalActionsResponse", authorization="required",
          query=(("includeCompoundActions", _BOOL, "Also list complete compound actions."),
                 ("includeUnavailable", _BOOL,
                  "Also list unavailable options with the engine's reason."))),
    Route("POST", "/v1/games/{gameId}/actions", "SubmitAction",
          "Apply a decision or a whole compound action.", request="SubmitActionRequest",
          response="SubmitActionResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:undo", "UndoAction",
          "Take back the caller's action in progress, else its previous action of this turn "
          "(the seat to act; never across the turn's start or a reveal).",
          request="UndoActionRequest", response="UndoActionResponse",
          authorization="required"),
    Route("POST", "/v1/games/{gameId}/actions:preview", "PreviewAction",
          "What SubmitAction would do; nothing is committed.", request="PreviewActionRequest",
          response="PreviewActionResponse", authorization="required"),
    Route("GET", "/v1/games/{gameId}/events", "WatchGame",
          "Server-Sent Events: updates after a version, then live ones.",
          content_type="text/event-stream",
          query=(("fromVersion", _VERSION,
                  "Send updates after this version, at most the current one (default 0)."),
                 ("Last-Event-ID", _VERSION,
                  "Set by EventSource on reconnection; wins over fromVersion."))),
    Route("GET", "/v1/games/{gameId}/replay", "GetReplay",
          "Seed and decisions: complete after the end, the public part before.",
          response="GetReplayResponse"),
    Route("GET", "/v1/rulesets/{ruleset}", "GetRuleset",
          "A ruleset's board (map coordinates, slots, routes, merchants, markets), action "
          "space, reasons and options; {ruleset} is its name, e.g. birmingham.",
          response="GetRulesetResponse", authorization="none"),
    Route("POST", "/v1/games/{gameId}:join", "JoinGame",
          "Take an open seat (a given one or the next); returns its token, once.",
          request="JoinGameRequest", response="JoinGameResponse", authorization="none"),
    Route("POST", "/v1/games/{gameId}:leave", "LeaveGame",
          "Give the caller's seat back before the start (its seat token).",
          request="LeaveGameRequest", response="LeaveGameResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:start", "StartGame",
          "Start a game whose seats are all taken (the host token).",
          request="StartGameRequest", response="StartGameResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:reissueSeatToken", "ReissueSeatToken",
          "Revoke a seat's token and return a new one, once (the host token).",
          request="ReissueSeatTokenRequest", response="ReissueSeatTokenResponse",
          authorization="required"),
    Route("POST", "/v1/games/{gameId}:resign", "ResignGame",
          "Resign the caller's seat (its seat token); the host's on_resign says whether a "
          "bot plays it on or the game ends.",
          request="ResignGameRequest", response="ResignGameResponse", authorization="required"),
    Route("POST", "/v1/games/{gameId}:revokeSeatToken", "RevokeSeatToken",
          "Revoke a seat's token without a new one (the host token): open again before the "
          "start, vacant after it.",
          request="RevokeSeatTokenRequest", response="RevokeSeatTokenResponse",
          authorization="required"),
    Route("POST", "/v1/games/{gameId}:setSeatBot", "SetSeatBot",
          "Put a server bot in an open (before the start) or vacant seat (the host token).",
          request="SetSeatBotRequest", response="SetSeatBotResponse",
          authorization="required"),
    Route("POST", "/v1/batches", "RunBatch",
          "Play a batch of bot-vs-bot games; one NDJSON line (a RunBatchResponse) per "
          "finished game.",
          request="RunBatchRequest", authorization="operator",
          content_type="application/x-ndjson",
          stream_item="RunBatchResponse"),
    Route("GET", "/healthz", "Health", "Liveness and store reachability.",
          authorization="none"),
    Route("GET", "/metrics", "Metrics", "Prometheus metrics.", authorization="none",
          content_type="text/plain"),
    Route("GET", "/openapi.json", "OpenApi", "This document.", authorization="none"),
    Route("GET", "/", "WebApp", "The reference web frontend (docs/WEB.md).",
          authorization="none", content_type="text/html"),
    Route("GET", "/web/{name}", "WebAsset", "A file of the web frontend (scripts, styles).",
          authorization="none",
          content_type="text/javascript, text/css, image/svg+xml, application/json"),
]


# The operations answered with one JSON document (every route but the streams, /healthz,
# /metrics and /openapi.json): both HTTP fronts (aiohttp, and fast_http for simple
# requests) run them through RestGateway.respond.
PLAIN_OPERATIONS = (
    "CreateGame", "CreateGameFromPosition", "ListGames", "GetGame", "ListLegalActions",
    "SubmitAction", "PreviewAction", "GetReplay", "GetRuleset", "JoinGame", "LeaveGame",
    "StartGame", "ReissueSeatToken", "ResignGame", "RevokeSeatToken", "SetSeatBot",
    "UndoAction",
)


# The plain operations a request without a token is refused at once (before its body).
_TOKEN_REQUIRED = frozenset(
    route.operation_id for route in ROUTES if route.authorization == "required"
)
# Refusals of a request's arguments, which a bad token takes precedence over.
_ARGUMENT_REASONS = frozenset({
    "INVALID_ARGUMENT", "UNKNOWN_ACTION", "BAD_PAGE_TOKEN", "BAD_POSITION",
})


class ClientGone(Exception):
    """The client left mid-request (before its body arrived, or during its stream):
    nobody to answer, and no fault of the server's."""


class RestRequest(Protocol):
    """What a plain operation reads of an HTTP request, whichever front parsed it."""

    remote: str

    def path_param(self, name: str) -> str: ...

    def query_param(self, name: str) -> str | None: ...

    def header(self, lower_name: str) -> str | None: ...

    async def body(self) -> bytes: ...


# Refusals given with the request's body unread: the connection is closed after them.
BODY_UNREAD_STATUSES = frozenset({408, 413, 415})
# How long an aiohttp handler waits for a request's body (the fast front times whole
# requests itself).
BODY_READ_SECONDS = web.AppKey("body_read_seconds", float)


def body_too_large(limit: int) -> ServiceError:
    return ServiceError(
        "MESSAGE_TOO_LARGE", f"the request body is larger than the {limit} bytes accepted",
        limit=str(limit),
    )


def encoding_refused(encoding: str) -> ServiceError:
    return ServiceError(
        "UNSUPPORTED_ENCODING",
        "request bodies are read as they are sent: no Content-Encoding is accepted",
        encoding=encoding[:64],
    )


def _require_json_media_type(content_type: str | None) -> None:
    """A request body is JSON and says so. A browser sends text/plain, form and multipart
    bodies across origins without asking the server first (no preflight): refusing them
    keeps any web page from making its visitors create games or join seats here."""
    media_type = (content_type or "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        sent = f"not {content_type[:100]!r}" if content_type else "and this one has none"
        raise ServiceError(
            "UNSUPPORTED_MEDIA_TYPE",
            f"a request body must be sent with Content-Type: application/json, {sent}",
            content_type=(content_type or "")[:100],
        )


def read_timeout(seconds: float) -> ServiceError:
    return ServiceError(
        "REQUEST_TIMEOUT", f"the request did not arrive whole within {seconds:g} s",
        limit="http_request_read_seconds",
    )


class AiohttpRequest:
    """An aiohttp request seen as a RestRequest."""

    __slots__ = ("_request", "remote")

    def __init__(self, request: web.Request) -> None:
        self._request = request
        self.remote = request.remote or "unknown"

    def path_param(self, name: str) -> str:
        return self._request.match_info[name]

    def query_param(self, name: str) -> str | None:
        return self._request.query.get(name)

    def header(self, lower_name: str) -> str | None:
        """A header's value; a repeated header's values joined with commas (RFC 9110)."""
        values = self._request.headers.getall(lower_name, None)
        if not values:
            return None
        return values[0] if len(values) == 1 else ", ".join(values)

    async def body(self) -> bytes:
        seconds = self._request.app[BODY_READ_SECONDS]
        try:
            async with asyncio.timeout(seconds):
                return await self._request.read()
        except web.HTTPRequestEntityTooLarge as exc:
            raise body_too_large(self._request.client_max_size) from exc
        except TimeoutError as exc:
            raise read_timeout(seconds) from exc
        except (ConnectionError, ClientPayloadError) as exc:
            raise ClientGone from exc


def _json_response(
    status: int, text: str, headers: Mapping[str, str] | None = None
) -> web.Response:
    response = web.Response(
        text=text, status=status, content_type="application/json", headers=headers
    )
    if status in BODY_UNREAD_STATUSES:
        response.force_close()
    return response


# What a game id in a path may hold: no ':' (the custom methods, /v1/games/{id}:join, are
# routes of their own) and no '/'.
GAME_ID_CHARS = "[^/:]+"

# aiohttp's limit on a request line and on each header line (its default).
MAX_LINE_BYTES = 8190

# What a browser on an allowed origin may send and read (the preflight's answer is cached
# for CORS_MAX_AGE_SECONDS).
CORS_REQUEST_HEADERS = ("Authorization", "Content-Type", "Last-Event-ID", "X-Request-Id")
CORS_EXPOSED_HEADERS = ("Retry-After", "X-Request-Id")
CORS_MAX_AGE_SECONDS = 600


def _allow_cross_origin(app: web.Application, origins: Sequence[str]) -> None:
    """CORS (aiohttp-cors) on every route, SSE included: preflights answered 204 with the
    allowed methods and headers; answers carry Access-Control-Allow-Origin for an allowed
    Origin only. No credentials mode: the API's bearer tokens travel in Authorization."""
    options = aiohttp_cors.ResourceOptions(
        allow_credentials=False, allow_headers=CORS_REQUEST_HEADERS,
        expose_headers=CORS_EXPOSED_HEADERS, max_age=CORS_MAX_AGE_SECONDS,
    )
    cors = aiohttp_cors.setup(app, defaults={origin: options for origin in origins})
    for route in list(app.router.routes()):
        cors.add(route)
    app.on_response_prepare.append(_vary_by_origin)


async def _vary_by_origin(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer of a server with CORS on depends on the request's Origin (its CORS
    headers, or their absence): `Vary: Origin` keeps a shared cache from giving one
    origin's answer to another (aiohttp-cors does not say so). Streams and errors too:
    the signal runs as any answer's headers are sent."""
    varies = [name.strip() for line in response.headers.getall("Vary", ())
              for name in line.split(",") if name.strip()]
    if not {"*", "origin"} & {name.lower() for name in varies}:
        response.headers["Vary"] = ", ".join([*varies, "Origin"])


@web.middleware
async def _preflight_no_content(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """aiohttp-cors answers an accepted preflight 200 with an empty body: 204 says so."""
    response = await handler(request)
    if (request.method == "OPTIONS" and response.status == 200
            and "Access-Control-Allow-Origin" in response.headers):
        headers = {k: v for k, v in response.headers.items()
                   if k.lower() not in ("content-length", "content-type")}
        return web.Response(status=204, headers=headers)
    return response


class JsonErrorsRequestHandler(RequestHandler):  # type: ignore[misc]
    """aiohttp's handler of one connection, whose own refusals (a request it cannot parse,
    a request line or header longer than it reads) are JSON error bodies like every other
    answer, not aiohttp's text/plain."""

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        super().handle_error(request, status, exc, message)  # logs; raises if already answered
        if isinstance(exc, LineTooLong):
            error = ServiceError("HEADERS_TOO_LARGE", "the request line or a header is longer "
                                 f"than the {MAX_LINE_BYTES} bytes read", limit=MAX_LINE_BYTES)
        elif 400 <= status < 500:
            error = ServiceError(
                "INVALID_ARGUMENT", f"the request is not valid HTTP: {(message or '')[:200]}")
        else:
            error = ServiceError("INTERNAL", "internal error")
        response = _json_response(error.http_status, _error_text(error), error.http_headers())
        response.force_close()
        return response


def with_json_errors(server: web.Server) -> JsonErrorsRequestHandler:
    """A new connection handler of `server` (what `server()` makes), with JSON refusals."""
    return JsonErrorsRequestHandler(
        server, loop=server._loop, **server._kwargs  # what web.Server.__call__ passes
    )


def _sse_stream_end(event: str, reason: str, version: int) -> bytes:
    """The last message of a watch stream: `end` (the game is over: stop watching) or
    `shutdown` (this server is stopping: reconnect after `retry` ms with Last-Event-ID)."""
    data = json.dumps({"reason": reason, "version": str(version)}, separators=(",", ":"))
    retry = f"retry: {SSE_RECONNECT_MS}\n" if event == "shutdown" else ""
    return f"{retry}event: {event}\ndata: {data}\n\n".encode()


def _error_response(error: ServiceError) -> web.Response:
    return _json_response(error.http_status, _error_text(error), error.http_headers())


NO_HEADERS: Mapping[str, str] = {}


def _ok_text(message: Message | Reply) -> str:
    if type(message) is Reply:
        return message.to_json_text()
    return json.dumps(message_to_json_dict(message), separators=(",", ":"))


def _error_text(error: ServiceError) -> str:
    return json.dumps(error.to_json(), separators=(",", ":"))


_INTEGER_TEXT = re.compile(r"-?[0-9]{1,19}")
# The texts the document's int64 pattern admits (no leading zeros, in range).
_INT64_TEXT = re.compile(INT64_PATTERN)
_SIMPLE_SUBMIT_KEYS = frozenset(
    {"action", "expectedVersion", "idempotencyKey", "includeLegalActions"}
)


def _int64(value: object) -> int | None:
    """A proto3 JSON int64 (a number or a decimal string), or None to leave it to the
    schema check and ParseDict."""
    if type(value) is str and _INT64_TEXT.fullmatch(value):
        value = int(value)
    if type(value) is int and -(2**63) <= value < 2**63:
        return value
    return None


def _is_utf8_text(text: str) -> bool:
    """False for a str a proto string field refuses (a lone surrogate, from a JSON escape
    like "\\ud800")."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _simple_submit(document: dict[str, Any]) -> pb.SubmitActionRequest | None:
    """The usual SubmitAction body ({"action": {"optionId": n}, "expectedVersion": v,
    "idempotencyKey": k}) straight into the message; anything else (or anything odd) is
    left to json_format, which also words the errors."""
    if not document.keys() <= _SIMPLE_SUBMIT_KEYS:
        return None
    action = document.get("action")
    if type(action) is not dict or action.keys() != {"optionId"}:
        return None
    option = action["optionId"]
    if type(option) is not int or not -(2**31) <= option < 2**31:
        return None
    message = pb.SubmitActionRequest(action=pb.Action(option_id=option))
    if "expectedVersion" in document:
        version = _int64(document["expectedVersion"])
        if version is None:
            return None
        message.expected_version = version
    if "idempotencyKey" in document:
        key = document["idempotencyKey"]
        if type(key) is not str or not _is_utf8_text(key):
            return None
        message.idempotency_key = key
    if "includeLegalActions" in document:
        if type(document["includeLegalActions"]) is not bool:
            return None
        message.include_legal_actions = document["includeLegalActions"]
    return message


# An action's body is a few hundred bytes (at most MAX_COMPOUND_IDS ids, two short keys):
# a longer one is refused before it is decoded (200,000 ids took 14-37 ms to decode).
MAX_ACTION_BODY_BYTES = 16 * 1024


def _check_action_body_size(raw: bytes) -> None:
    if len(raw) > MAX_ACTION_BODY_BYTES:
        raise ServiceError(
            "INVALID_ARGUMENT",
            f"an action's body is at most {MAX_ACTION_BODY_BYTES} bytes (a compound action "
            f"has at most {MAX_COMPOUND_IDS} ids)",
            field="action.compound.ids",
        )


def _check_compound_before_parsing(document: dict[str, Any]) -> None:
    """A compound action's length is checked on the decoded JSON, before json_format turns
    the list into a message (its costliest step for long lists)."""
    action = document.get("action")
    compound = action.get("compound") if type(action) is dict else None
    ids = compound.get("ids") if type(compound) is dict else None
    if type(ids) is list:
        check_compound_length(len(ids))


def _bool_param(value: str | None, name: str) -> bool:
    """A boolean query parameter: `true` or `false` (absent: false), as the document says."""
    if value is None or value == "false":
        return False
    if value == "true":
        return True
    raise ServiceError("INVALID_ARGUMENT", f"{name} must be true or false", field=name)


def _int_param(value: str | None, name: str, bits: int, low: int | None = None) -> int:
    """A query parameter or header holding a signed integer of the message field's width
    (0 when absent), in ASCII digits, at least `low` when given: anything else (an empty
    value too) is INVALID_ARGUMENT, not a fault when the field is set."""
    if value is None:
        return 0
    high = 2 ** (bits - 1) - 1
    low = -(2 ** (bits - 1)) if low is None else low
    number = int(value) if _INTEGER_TEXT.fullmatch(value) else None
    if number is None or not low <= number <= high:
        raise ServiceError(
            "INVALID_ARGUMENT", f"{name} must be an integer from {low} to {high}", field=name
        )
    return number


def _query(request: RestRequest, camel: str, snake: str) -> str | None:
    value = request.query_param(camel)
    return request.query_param(snake) if value is None else value


class RestGateway:
    def __init__(
        self, service: GameService, health_check: Callable[[], Awaitable[StoreHealth]]
    ):
        self.service = service
        self.health_check = health_check
        # Relative: the document is the same whatever Host a client sends.
        self._openapi = build_openapi(ROUTES, server_url="/", settings=service.settings)
        self._bodies = BodyValidator(self._openapi)
        self._closing = asyncio.Event()
        self._web = WebApp()

    def app(self, max_body_bytes: int, body_read_seconds: float = 30.0,
            cors_origins: Sequence[str] = ()) -> web.Application:
        middlewares = [self._http_guard, self._errors]
        if cors_origins:
            middlewares.insert(0, _preflight_no_content)
        app = web.Application(client_max_size=max_body_bytes, middlewares=middlewares)
        app[BODY_READ_SECONDS] = body_read_seconds
        handlers: dict[str, Callable[[web.Request], Awaitable[web.StreamResponse]]] = {
            "WatchGame": self.watch_game,
            "RunBatch": self.run_batch,
            "Health": self.health,
            "Metrics": self.metrics,
            "OpenApi": self.openapi,
            "WebApp": self._web.index,
            "WebAsset": self._web.asset,
        }
        for operation_id in PLAIN_OPERATIONS:
            handlers[operation_id] = functools.partial(self._serve_plain, operation_id)
        for route in ROUTES:
            app.router.add_route(
                route.method, route.path.replace("{gameId}", "{gameId:" + GAME_ID_CHARS + "}"),
                handlers[route.operation_id])
        if cors_origins:
            _allow_cross_origin(app, cors_origins)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_shutdown(self, app: web.Application) -> None:
        self._closing.set()  # ends open SSE streams so shutdown does not wait on them

    @web.middleware
    async def _http_guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Refuses, before its body is read, what the fast front refuses the same way: a
        Content-Encoding (bodies are never decompressed: a small compressed body can
        stand for a huge one) and a Content-Length over the limit."""
        encoding = request.headers.get("Content-Encoding")
        if encoding is not None and encoding.lower() != "identity":
            return _error_response(encoding_refused(encoding))
        length = request.content_length
        if length is not None and length > request.client_max_size:
            return _error_response(body_too_large(request.client_max_size))
        return await handler(request)

    @web.middleware
    async def _errors(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Routing failures and oversized bodies get the same JSON error shape."""
        try:
            return await handler(request)
        except web.HTTPRequestEntityTooLarge as exc:
            return _error_response(
                ServiceError("MESSAGE_TOO_LARGE", f"the request body is too large ({exc.text})")
            )
        except web.HTTPMethodNotAllowed as exc:
            allowed = ", ".join(sorted(exc.allowed_methods))
            response = _error_response(
                ServiceError(
                    "METHOD_NOT_ALLOWED",
                    f"{request.method} is not allowed on {request.path} (only {allowed})",
                )
            )
            response.headers["Allow"] = allowed  # RFC 9110: a 405 lists what is allowed
            return response
        except web.HTTPNotFound:
            return _error_response(ServiceError("UNKNOWN_ROUTE", f"no route {request.path}"))

    async def _serve_plain(self, operation_id: str, request: web.Request) -> web.Response:
        status, text, headers = await self.respond(operation_id, AiohttpRequest(request))
        return _json_response(status, text, headers)

    async def respond(
        self, operation_id: str, request: RestRequest
    ) -> tuple[int, str, Mapping[str, str]]:
        """Runs a plain operation: (HTTP status, JSON text of the answer or of the error,
        extra headers: Retry-After on a 429)."""
        record = RequestRecord(
            transport="rest",
            method=operation_id,
            request_id=request.header("x-request-id") or new_request_id(),
        )
        with observe_request(record):
            try:
                caller = self._caller(request)
                if caller.token is None and operation_id in _TOKEN_REQUIRED:
                    raise ServiceError(  # before anything of the request is read
                        "UNAUTHENTICATED",
                        f"{operation_id} needs a token (Authorization: Bearer …)",
                    )
                try:
                    answer = await self._plain[operation_id](request, caller, record)
                except ServiceError as error:
                    await self._authenticate_first(error, request, caller)
                    raise
                return 200, _ok_text(answer), NO_HEADERS
            except ServiceError as error:
                record.outcome = error.reason
                return error.http_status, _error_text(error), error.http_headers()
            except ClientGone:
                record.outcome = "CLIENT_GONE"
                return 400, "", NO_HEADERS
            except Exception:
                record.outcome = "INTERNAL"
                log.exception(
                    "unexpected_error", method=operation_id, request_id=record.request_id
                )
                error = ServiceError("INTERNAL", f"internal error (request id {record.request_id})")
                return error.http_status, _error_text(error), NO_HEADERS

    async def _authenticate_first(
        self, error: ServiceError, request: RestRequest, caller: Caller
    ) -> None:
        """A request refused for its arguments whose token is no token of its game is
        refused as UNAUTHENTICATED instead: authentication comes before the body. Checked
        only when the request is refused anyway, so accepted requests pay nothing."""
        if error.reason not in _ARGUMENT_REASONS or caller.token is None:
            return
        try:
            game_id = request.path_param("gameId")
        except KeyError:
            return  # no game in the path: the operator token is checked before the body
        await self.service.authenticate(game_id, caller)

    def _caller(self, request: RestRequest) -> Caller:
        return Caller(
            token=bearer_token(request.header("authorization")),
            peer=self.service.client_address(request.remote, request.header),
        )

    async def _body(self, request: RestRequest, message: Message) -> Message:
        raw = await request.body()
        if raw:
            _require_json_media_type(request.header("content-type"))
        if isinstance(message, (pb.SubmitActionRequest, pb.PreviewActionRequest)):
            _check_action_body_size(raw)
        document = RestGateway._json_document(raw)
        if document is not None and isinstance(
                message, (pb.SubmitActionRequest, pb.PreviewActionRequest)):
            _check_compound_before_parsing(document)
        if isinstance(message, pb.SubmitActionRequest) and document is not None:
            simple = _simple_submit(document)
            if simple is not None:  # already as strict as the schema
                return simple
        self._bodies.check(message.DESCRIPTOR.name, {} if document is None else document)
        return RestGateway._parse_body(document, message)

    @staticmethod
    def _json_document(raw: bytes) -> dict[str, Any] | None:
        if not raw:
            return None
        try:
            document = json.loads(raw)
        except ValueError as exc:
            raise ServiceError("INVALID_ARGUMENT", f"the body is not JSON: {exc}") from exc
        except RecursionError as exc:
            raise ServiceError("INVALID_ARGUMENT", "the body is nested too deeply") from exc
        if not isinstance(document, dict):
            raise ServiceError("INVALID_ARGUMENT", "the body must be a JSON object")
        return document

    @staticmethod
    def _parse_body(document: dict[str, Any] | None, message: Message) -> Message:
        if document is None:
            return message
        try:
            return parse_json_into(document, message)
        except json_format.ParseError as exc:
            raise ServiceError("INVALID_ARGUMENT", f"the body does not fit: {exc}") from exc
        except RecursionError as exc:
            raise ServiceError("INVALID_ARGUMENT", "the body is nested too deeply") from exc

    @staticmethod
    def _path_game_id(request: RestRequest, message: Message) -> None:
        """The path names the game (the body schema has no gameId)."""
        message.game_id = request.path_param("gameId")  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ plain operations

    @functools.cached_property
    def _plain(
        self,
    ) -> Mapping[str, Callable[[RestRequest, Caller, RequestRecord], Awaitable[Message | Reply]]]:
        return {
            "CreateGame": self._create_game,
            "CreateGameFromPosition": self._create_game_from_position,
            "ListGames": self._list_games,
            "GetGame": self._get_game,
            "ListLegalActions": self._list_legal_actions,
            "SubmitAction": self._submit_action,
            "PreviewAction": self._preview_action,
            "GetReplay": self._get_replay,
            "GetRuleset": self._get_ruleset,
            "JoinGame": functools.partial(
                self._lobby, pb.JoinGameRequest, self.service.join_game),
            "LeaveGame": functools.partial(
                self._lobby, pb.LeaveGameRequest, self.service.leave_game),
            "StartGame": functools.partial(
                self._lobby, pb.StartGameRequest, self.service.start_game),
            "ReissueSeatToken": functools.partial(
                self._lobby, pb.ReissueSeatTokenRequest, self.service.reissue_seat_token),
            "ResignGame": functools.partial(
                self._lobby, pb.ResignGameRequest, self.service.resign_game),
            "RevokeSeatToken": functools.partial(
                self._lobby, pb.RevokeSeatTokenRequest, self.service.revoke_seat_token),
            "SetSeatBot": functools.partial(
                self._lobby, pb.SetSeatBotRequest, self.service.set_seat_bot),
            "UndoAction": functools.partial(
                self._lobby, pb.UndoActionRequest, self.service.undo_action),
        }

    async def _lobby(
        self,
        message_class: type[Message],
        call: Callable[[Any, Caller, RequestRecord], Awaitable[Message]],
        request: RestRequest,
        caller: Caller,
        record: RequestRecord,
    ) -> Message | Reply:
        """JoinGame, LeaveGame, StartGame, UndoAction…: the body (optional) and the path's
        game id."""
        message = await self._body(request, message_class())
        self._path_game_id(request, message)
        return await call(message, caller, record)

    async def _create_game(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        body = await self._body(request, pb.CreateGameRequest())
        return await self.service.create_game(body, caller, record)  # type: ignore[arg-type]

    async def _create_game_from_position(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        self.service.require_operator(caller, "CreateGameFromPosition")  # before the body
        body = await self._body(request, pb.CreateGameFromPositionRequest())
        return await self.service.create_game_from_position(
            body, caller, record  # type: ignore[arg-type]
        )

    async def _list_games(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.ListGamesRequest(
            page_size=_int_param(_query(request, "pageSize", "page_size"), "pageSize", 32,
                                 low=1),
            page_token=_query(request, "pageToken", "page_token") or "",
        )
        for name, enum in (("status", pb.GameStatus), ("ruleset", pb.Ruleset)):
            value = request.query_param(name)
            if value is not None:
                # by name only, as the document says (not by number)
                if value not in enum.keys():
                    raise ServiceError(
                        "INVALID_ARGUMENT",
                        f"{name} {value[:64]!r} is not a {enum.DESCRIPTOR.name} name",
                        field=name,
                    )
                setattr(message, name, enum.Value(value))
        open_seats = _query(request, "hasOpenSeats", "has_open_seats")
        if open_seats is not None:
            message.has_open_seats = _bool_param(open_seats, "hasOpenSeats")
        return await self.service.list_games(message, record)

    async def _get_game(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.GetGameRequest(game_id=request.path_param("gameId"))
        at_version = _query(request, "atVersion", "at_version")
        if at_version is not None:
            message.at_version = _int_param(at_version, "atVersion", 64, low=0)
        return await self.service.get_game(message, caller, record)

    async def _list_legal_actions(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.ListLegalActionsRequest(
            game_id=request.path_param("gameId"),
            include_compound_actions=_bool_param(
                _query(request, "includeCompoundActions", "include_compound_actions"),
                "includeCompoundActions",
            ),
            include_unavailable=_bool_param(
                _query(request, "includeUnavailable", "include_unavailable"),
                "includeUnavailable",
            ),
        )
        return await self.service.list_legal_actions(message, caller, record)

    async def _submit_action(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = await self._body(request, pb.SubmitActionRequest())
        self._path_game_id(request, message)
        return await self.service.submit_action(message, caller, record)  # type: ignore[arg-type]

    async def _preview_action(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = await self._body(request, pb.PreviewActionRequest())
        self._path_game_id(request, message)
        return await self.service.preview_action(message, caller, record)  # type: ignore[arg-type]

    async def _get_replay(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.GetReplayRequest(game_id=request.path_param("gameId"))
        return await self.service.get_replay(message, caller, record)

    async def _get_ruleset(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        ruleset = parse_ruleset(request.path_param("ruleset"))
        return await get_ruleset(pb.GetRulesetRequest(ruleset=ruleset))

    # ------------------------------------------------------------------ streams and the rest

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
                caller = self._caller(AiohttpRequest(request))
                # both are checked; EventSource's header, when sent, says where to resume
                from_version = _int_param(
                    _query(AiohttpRequest(request), "fromVersion", "from_version"),
                    "fromVersion", 64, low=0,
                )
                last_event_id = request.headers.get("Last-Event-ID")
                if last_event_id is not None:
                    from_version = _int_param(last_event_id, "Last-Event-ID", 64, low=0)
                message = pb.WatchGameRequest(
                    game_id=request.match_info["gameId"], from_version=from_version
                )
                stream = await self.service.watch_game(message, caller, record)
            except ServiceError as error:
                record.outcome = error.reason
                return _error_response(error)
            response = web.StreamResponse(
                headers={
                    "Content-Type": "text/event-stream",
                    "Cache-Control": "no-cache",
                    "X-Accel-Buffering": "no",
                }
            )
            queue: asyncio.Queue[pb.WatchGameResponse | BaseException | None] = asyncio.Queue(
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
                        if self._closing.is_set():
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
                    data = json.dumps(message_to_json_dict(item), separators=(",", ":"))
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
                caller = self._caller(AiohttpRequest(request))
                self.service.require_operator(caller, "RunBatch")  # before reading the body
                message = await self._body(AiohttpRequest(request), pb.RunBatchRequest())
                stream = await self.service.run_batch(
                    message, caller, record  # type: ignore[arg-type]
                )
            except ServiceError as error:
                record.outcome = error.reason
                return _error_response(error)
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
                if self._closing.is_set():
                    raise ServiceError("UNAVAILABLE", "the server is stopping; retry the batch")
        finally:
            if not pending.done():
                # Cancelling the generator mid-wait runs its cleanup (stopping its games)
                # and finishes it, so the caller's aclose() has nothing left to wait for.
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pending

    async def health(self, request: web.Request) -> web.Response:
        # 503 only when the store cannot be read: DEGRADED (writes failing) still serves reads.
        health = await self.health_check()
        return web.json_response(
            health.to_json(), status=503 if health.status == "NOT_SERVING" else 200
        )

    async def metrics(self, request: web.Request) -> web.Response:
        await self.service.refresh_gauges()
        body, content_type = metrics_text()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def openapi(self, request: web.Request) -> web.Response:
        return web.json_response(self._openapi)
