"""The REST port's aiohttp application: the routes' handlers (the plain operations through
RestGateway, the streams, /healthz, /metrics, /openapi.json and the web page), its
middlewares (the guard before a body is read, JSON errors for routing failures, CORS), and
the connection handler whose own refusals are JSON too.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp_cors
from aiohttp import web
from aiohttp.http_exceptions import LineTooLong
from aiohttp.web_protocol import RequestHandler

from brass import records
from brass.records import SCHEMA_NAMES

from ..errors import ServiceError
from ..i18n import Text
from ..observability import metrics_text
from .rest import RestGateway
from .rest_parse import (
    BODY_READ_SECONDS,
    AiohttpRequest,
    body_too_large,
    encoding_refused,
    error_response,
    json_response,
)
from .rest_routes import GAME_ID_CHARS, PLAIN_OPERATIONS, ROUTES
from .rest_streams import RestStreams
from .web import WebApp

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
async def _cors_off(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """With CORS off a preflight is refused saying so and how to turn it on (not 405: the
    route exists, only cross-origin calls are off). A browser blocks the call either way."""
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
        return error_response(cors_disabled(request.headers.get("Origin", "")), request)
    return await handler(request)


def cors_disabled(origin: str) -> ServiceError:
    return ServiceError(
        "CORS_DISABLED",
        f"cross-origin requests are off on this server: start it with --cors-origins "
        f"{origin or 'ORIGIN'} (or BRASS_CORS_ORIGINS; '*' allows any origin)",
        setting="--cors-origins", origin=origin or None)


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
        response = json_response(error.http_status, error.to_json_text(), error.http_headers())
        response.force_close()
        return response


def with_json_errors(server: web.Server) -> JsonErrorsRequestHandler:
    """A new connection handler of `server` (what `server()` makes), with JSON refusals."""
    return JsonErrorsRequestHandler(
        server, loop=server._loop, **server._kwargs  # what web.Server.__call__ passes
    )


@web.middleware
async def _http_guard(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Refuses, before its body is read, what the fast front refuses the same way: a
    Content-Encoding (bodies are never decompressed: a small compressed body can
    stand for a huge one) and a Content-Length over the limit."""
    encoding = request.headers.get("Content-Encoding")
    if encoding is not None and encoding.lower() != "identity":
        return error_response(encoding_refused(encoding), request)
    length = request.content_length
    if length is not None and length > request.client_max_size:
        return error_response(body_too_large(request.client_max_size), request)
    return await handler(request)


@web.middleware
async def _errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Routing failures and oversized bodies get the same JSON error shape."""
    try:
        return await handler(request)
    except web.HTTPRequestEntityTooLarge as exc:
        return error_response(
            ServiceError("MESSAGE_TOO_LARGE", f"the request body is too large ({exc.text})"),
            request)
    except web.HTTPMethodNotAllowed as exc:
        allowed = ", ".join(sorted(exc.allowed_methods))
        response = error_response(
            ServiceError(
                "METHOD_NOT_ALLOWED",
                f"{request.method} is not allowed on {request.path} (only {allowed})",
            ), request)
        response.headers["Allow"] = allowed  # RFC 9110: a 405 lists what is allowed
        return response
    except web.HTTPNotFound:
        return error_response(
            ServiceError("UNKNOWN_ROUTE", Text("unknown_route", path=request.path)), request)


class RestApp:
    """The handlers of the aiohttp app's routes, and the app."""

    def __init__(self, gateway: RestGateway) -> None:
        self.gateway = gateway
        self.streams = RestStreams(gateway)
        self._web = WebApp()

    def app(self, max_body_bytes: int, body_read_seconds: float = 30.0,
            cors_origins: Sequence[str] = ()) -> web.Application:
        middlewares = [_http_guard, _errors]
        middlewares.insert(0, _preflight_no_content if cors_origins else _cors_off)
        app = web.Application(client_max_size=max_body_bytes, middlewares=middlewares)
        app[BODY_READ_SECONDS] = body_read_seconds
        handlers: dict[str, Callable[[web.Request], Awaitable[web.StreamResponse]]] = {
            "WatchGame": self.streams.watch_game,
            "StreamAccountEvents": self.streams.account_events,
            "WatchArena": self.streams.watch_arena,
            "RunBatch": self.streams.run_batch,
            "ExportGames": self.streams.export_games,
            "GetSchema": self.get_schema,
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
                route.method, route.path.replace("{gameId}", "{gameId:" + GAME_ID_CHARS + "}")
                .replace("{accountId}", "{accountId:" + GAME_ID_CHARS + "}")
                .replace("{challengeId}", "{challengeId:" + GAME_ID_CHARS + "}")
                .replace("{arenaId}", "{arenaId:" + GAME_ID_CHARS + "}"),
                handlers[route.operation_id])
        if cors_origins:
            _allow_cross_origin(app, cors_origins)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_shutdown(self, app: web.Application) -> None:
        self.streams.closing.set()  # ends open SSE streams so shutdown does not wait on them

    async def _serve_plain(self, operation_id: str, request: web.Request) -> web.Response:
        status, text, headers = await self.gateway.respond(operation_id, AiohttpRequest(request))
        return json_response(status, text, headers)

    async def health(self, request: web.Request) -> web.Response:
        # 503 only when the store cannot be read: DEGRADED (writes failing) still serves reads.
        health = await self.gateway.health_check()
        return web.json_response(
            health.to_json(), status=503 if health.status == "NOT_SERVING" else 200
        )

    async def metrics(self, request: web.Request) -> web.Response:
        await self.gateway.service.refresh_gauges()
        body, content_type = metrics_text()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def get_schema(self, request: web.Request) -> web.Response:
        """A game record schema (brass.records), as the package has it."""
        name = request.match_info["schema"]
        if name not in SCHEMA_NAMES:
            error = ServiceError("UNKNOWN_SCHEMA", f"no schema {name[:64]!r}; there are "
                                 f"{', '.join(SCHEMA_NAMES)}", schemas=",".join(SCHEMA_NAMES))
            return json_response(error.http_status, error.to_json_text(), {})
        return web.json_response(records.schema(name))

    async def openapi(self, request: web.Request) -> web.Response:
        return web.json_response(self.gateway.openapi_document)
