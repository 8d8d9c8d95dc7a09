"""The composition root: the store, GameService, the gRPC server and the REST fronts on one
asyncio loop. `serve_async(...)` serves until stopped; app/main.py's `serve(...)` (what
`brass serve` runs) starts it in this process or in each of N workers (app/workers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import socket
import sys
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from aiohttp import web
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer as AsyncReflectionServicer

from ..api.fast_http import FastHttpFront
from ..api.grpc_api import GameServicer, add_to_server
from ..api.rest import RestGateway
from ..api.rest_app import RestApp, with_json_errors
from ..games import GameService, ServiceSettings
from ..gen import game_service_pb2 as pb
from ..observability import configure_logging, request_lines
from ..store import open_store
from .config import (
    DEFAULT_GRPC_PORT,
    DEFAULT_HOST,
    DEFAULT_HTTP_PORT,
    Limits,
    parse_cors_origins,
    settings_from_env,
)

log = structlog.get_logger("brass_service.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["GameService"].full_name


class CannotListen(OSError):
    """A port the server was told to use cannot be bound (taken, or not allowed)."""


def bind_refusal(host: str, port: int, reuse_port: bool) -> str | None:
    """Why no address of `host:port` can be bound now (the system's words), or None. Asked
    before gRPC binds: its own failure is a C-core line on stderr and a bare RuntimeError,
    where the operator should read one JSON line saying why (as for the REST port)."""
    if port == 0:
        return None
    try:
        addresses = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
    except OSError as exc:
        return str(exc)
    refusal = None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            # as gRPC binds: a port in TIME_WAIT is free, one shared by workers too
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            try:
                probe.bind(address)
                return None  # gRPC listens if any of the addresses binds
            except OSError as exc:
                refusal = str(exc)
    return refusal


@dataclass
class ServerInfo:
    """Where a started server listens (ports resolved when 0 was asked)."""

    grpc_port: int
    http_port: int


# The cyclic collector's young-generation threshold while serving (Python's is 700).
GC_YOUNG_THRESHOLD = 7000


def _settle_garbage_collector() -> None:
    """Once started: the objects made so far (modules, descriptors, tables) are moved out of
    the collector's sight (gc.freeze), so its full passes stop walking them, and it runs a
    tenth as often; requests make many short-lived containers and few cycles. Measured: 7-14%
    less CPU per REST decision (docs/SERVICE.md, Throughput). It changes the whole process's
    collector, so only the server's own entry points (serve, the workers) ask for it."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)


def _raise_open_file_limit() -> None:
    """Every connection takes a file descriptor, and the usual soft limit (1,024) would let
    a few hundred slow clients lock new ones out: the soft limit is raised to the hard
    one (the connection limits in Limits are then what bounds them). It changes the whole
    process, so only the server's own entry points ask for it."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


async def serve_async(
    grpc_port: int = DEFAULT_GRPC_PORT,
    http_port: int = DEFAULT_HTTP_PORT,
    database_url: str | None = None,
    log_level: str = "info",
    *,
    host: str | None = None,
    settings: ServiceSettings | None = None,
    limits: Limits | None = None,
    stop: asyncio.Event | None = None,
    started: asyncio.Future[ServerInfo] | None = None,
    reuse_port: bool = False,
    tune_process: bool = False,
) -> None:
    """Serves until `stop` is set (or SIGINT/SIGTERM when no `stop` is given).

    `reuse_port`: listen with SO_REUSEPORT, so that several worker processes share the
    ports (the kernel spreads connections over them); only `serve(workers=N)` sets it, so
    that a second server started by mistake on a taken port still fails loudly.
    `tune_process`: raise the process's open-file limit (_raise_open_file_limit) and tune
    its garbage collector once serving (_settle_garbage_collector); for a process that is
    nothing but this server."""
    configure_logging(log_level)
    if tune_process:
        _raise_open_file_limit()
    env_settings, env_limits = settings_from_env()
    settings = settings or env_settings
    limits = limits or env_limits
    host = host or os.environ.get("BRASS_HOST", DEFAULT_HOST)
    cors_origins = parse_cors_origins(limits.cors_origins)
    if limits.gil_switch_interval_ms > 0:
        sys.setswitchinterval(limits.gil_switch_interval_ms / 1000)

    store = open_store(database_url, sqlite_commit_wait_ms=settings.sqlite_commit_wait_ms,
                       sqlite_loop_writes=settings.sqlite_loop_writes)
    await store.open()
    service = GameService(store, settings)
    await service.start()

    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", limits.max_message_bytes),
            ("grpc.max_send_message_length", limits.max_send_message_bytes),
            ("grpc.so_reuseport", 1 if reuse_port else 0),
        ]
    )
    add_to_server(GameServicer(service), server)
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    _enable_reflection(
        server, [SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name])
    async def give_up() -> None:
        """Before a start-up failure is raised: the service's background tasks (the expiry
        sweep, the timer) stop before the store closes under them."""
        service.close()
        await store.close()

    refusal = bind_refusal(host, grpc_port, reuse_port)
    try:
        bound_grpc = 0 if refusal else server.add_insecure_port(f"{host}:{grpc_port}")
    except RuntimeError:  # newer grpcio raises where older ones answered 0
        bound_grpc = 0
    if bound_grpc == 0:
        await give_up()
        raise CannotListen(f"cannot listen for gRPC on {host}:{grpc_port}"
                           + (f": {refusal}" if refusal else ""))

    gateway = RestGateway(service, store.health)
    # aiohttp serves every REST request but the simple plain ones, which the fast front
    # (which owns the port) answers itself; it hands aiohttp the other connections.
    runner = web.AppRunner(
        RestApp(gateway).app(limits.max_message_bytes, limits.http_request_read_seconds,
                             cors_origins=cors_origins),
        access_log=None, keepalive_timeout=limits.http_keepalive_seconds,
        auto_decompress=False,  # bodies are never decompressed (the guard refuses them)
        # How long aiohttp reads and drops a refused request's unread body before closing.
        lingering_time=min(10.0, limits.http_request_read_seconds),
    )
    await runner.setup()
    assert runner.server is not None
    front = FastHttpFront(
        gateway, lambda: with_json_errors(runner.server),  # type: ignore[arg-type]
        limits.max_message_bytes,
        keepalive_seconds=limits.http_keepalive_seconds, enabled=limits.http_fast_front,
        request_read_seconds=limits.http_request_read_seconds,
        max_connections_per_address=limits.http_max_connections_per_address,
        # a cross-origin request's answer needs CORS headers: aiohttp adds them
        hand_off_cross_origin=bool(cors_origins),
    )
    try:
        bound_http = await front.start(host, http_port, reuse_port=reuse_port)
    except OSError as exc:
        await runner.cleanup()
        await give_up()
        raise CannotListen(f"cannot listen for REST on {host}:{http_port}: {exc}") from exc

    await server.start()
    for name in ("", SERVICE_NAME):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info(
        "serving",
        grpc=f"{host}:{bound_grpc}",
        http=f"{host}:{bound_http}",
        store=type(store).__name__,
    )
    if tune_process:
        _settle_garbage_collector()
    if started is not None and not started.done():
        started.set_result(ServerInfo(bound_grpc, bound_http))

    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        log.info("stopping")
        await health.enter_graceful_shutdown()
        await server.stop(grace=2.0)
        await front.close(grace_seconds=2.0)
        await runner.cleanup()
        await service.stop()  # gives back the claims of the server's moves in progress
        await store.close()
        request_lines.flush()
        log.info("stopped")


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def _enable_reflection(server: grpc.aio.Server, services: list[str]) -> None:
    """Server reflection, v1 and v1alpha. grpcio-reflection ships only v1alpha; v1 (what
    current grpcurl and Postman ask first) has the same messages on the wire, so one
    servicer answers both."""
    names = [*services, reflection.SERVICE_NAME, REFLECTION_V1]
    servicer = AsyncReflectionServicer(names)
    handlers = {
        "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
        )
    }
    for service in (reflection.SERVICE_NAME, REFLECTION_V1):
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))


def run_event_loop(main: Coroutine[Any, Any, None]) -> None:
    """Runs the server's coroutine on uvloop where it is installed (a dependency wherever
    it builds): its C transports take about two thirds off the CPU time the REST front's
    socket handling costs on the standard loop (docs/SERVICE.md)."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    uvloop.run(main)
