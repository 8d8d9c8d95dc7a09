"""What each transport costs the server before any game work: the floor under issue 22's
goal that gRPC be no dearer than REST.

    python -m brass_service.tools.bench_transport_floor [--rounds 3] [--seconds 8] \\
        [--concurrency 12]

Servers, each in a process of its own (asyncio ones on uvloop), answer every call with the
same fixed bytes and do nothing else:
- grpc: a grpc.aio server with one unary method (bytes in, bytes out: no protobuf work);
- grpc-sync: the same method on grpcio's thread-pool server (the service is asyncio, so it
  would add a hand-over to the event loop that this floor leaves out);
- rest: the service's own lean HTTP/1.1 front (api/fast_http.py), its SubmitAction route
  answered by a gateway that returns a fixed JSON text.
With grpclib installed (it is no dependency), a fourth, grpclib, serves the gRPC method as
grpc does: the other asyncio gRPC server for Python.

This process is the client: CONCURRENCY calls in flight, one connection each (a grpc.aio
channel, or a raw HTTP/1.1 keep-alive connection), for SECONDS a run; rounds rotate the
servers' order. Printed: each run's calls per second and the server's CPU per call (user +
system time of its process, every thread, over the run), then per server the median and
range. A measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from types import SimpleNamespace
from typing import Any

from .bench_ab import LOOPBACK, _free_port, clock_ticks, rotation, thread_ticks

# About a Birmingham SubmitAction's answer with its next options (bytes).
ANSWER_BYTES = 1500
REQUEST_BYTES = 120
GRPC_METHOD = "/floor.Floor/Call"
SERVERS = ("grpc", "grpc-sync", "rest", "grpclib")


def _answer_text() -> str:
    return '{"accepted": true, "padding": "' + "x" * (ANSWER_BYTES - 34) + '"}'


def _floor_handlers(call: Any) -> Any:
    """grpcio's handlers of GRPC_METHOD served by `call` (bytes in, bytes out)."""
    import grpc

    service, method = GRPC_METHOD.strip("/").split("/")
    handler = grpc.unary_unary_rpc_method_handler(call)
    return (grpc.method_handlers_generic_handler(service, {method: handler}),)


async def _serve_grpc(port: int, ready: Any) -> None:
    import grpc

    answer = _answer_text().encode()

    async def call(_request: bytes, _context: Any) -> bytes:
        return answer

    server = grpc.aio.server()
    server.add_generic_rpc_handlers(_floor_handlers(call))
    server.add_insecure_port(f"{LOOPBACK}:{port}")
    await server.start()
    ready()
    await server.wait_for_termination()


def _serve_grpc_sync(port: int, concurrency: int) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import grpc

    answer = _answer_text().encode()

    def call(_request: bytes, _context: Any) -> bytes:
        return answer

    server = grpc.server(ThreadPoolExecutor(max_workers=concurrency))
    server.add_generic_rpc_handlers(_floor_handlers(call))
    server.add_insecure_port(f"{LOOPBACK}:{port}")
    server.start()
    print("ready", flush=True)
    server.wait_for_termination()


async def _serve_grpclib(port: int, ready: Any) -> None:
    from grpclib.const import Cardinality, Handler
    from grpclib.server import Server

    answer = _answer_text().encode()

    class RawCodec:
        __content_subtype__ = "proto"

        def encode(self, message: bytes, _message_type: Any) -> bytes:
            return message

        def decode(self, data: bytes, _message_type: Any) -> bytes:
            return data

    class Floor:
        async def call(self, stream: Any) -> None:
            await stream.recv_message()
            await stream.send_message(answer)

        def __mapping__(self) -> dict[str, Any]:
            return {GRPC_METHOD: Handler(self.call, Cardinality.UNARY_UNARY, bytes, bytes)}

    server = Server([Floor()], codec=RawCodec())
    await server.start(LOOPBACK, port)
    ready()
    await server.wait_closed()


async def _serve_rest(port: int, ready: Any) -> None:
    from ..api.fast_http import FastHttpFront

    answer = _answer_text()

    class FixedGateway:
        """The front's one dependency, answering every operation with the same text."""

        service = SimpleNamespace(addresses=SimpleNamespace(is_trusted_peer=lambda _r: False))

        async def respond(self, _operation: str, _request: Any) -> tuple[int, str, dict[str, str]]:
            return 200, answer, {}

    def no_hand_off() -> Any:
        raise RuntimeError("the floor's requests never leave the lean front")

    front = FastHttpFront(FixedGateway(), no_hand_off, max_body_bytes=1 << 16)  # type: ignore[arg-type]
    await front.start(LOOPBACK, port)
    ready()
    await asyncio.Event().wait()


def serve(kind: str, port: int, concurrency: int) -> None:
    """The server process: serves until killed, printing "ready" once it listens (on the
    service's own event loop, uvloop where installed; grpc-sync on its threads)."""
    from ..app.server import run_event_loop

    if kind == "grpc-sync":
        _serve_grpc_sync(port, concurrency)
        return

    def ready() -> None:
        print("ready", flush=True)

    serving = {"grpc": _serve_grpc, "grpclib": _serve_grpclib, "rest": _serve_rest}[kind]
    run_event_loop(serving(port, ready))


async def _grpc_calls(port: int, seconds: float, concurrency: int) -> int:
    import grpc

    request = b"r" * REQUEST_BYTES
    done = 0

    async def one_channel() -> None:
        nonlocal done
        async with grpc.aio.insecure_channel(f"{LOOPBACK}:{port}") as channel:
            call = channel.unary_unary(GRPC_METHOD)
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                await call(request)
                done += 1

    await asyncio.gather(*(one_channel() for _ in range(concurrency)))
    return done


async def _rest_calls(port: int, seconds: float, concurrency: int) -> int:
    body = b'{"action": {"id": 1}, "padding": "' + b"p" * (REQUEST_BYTES - 34) + b'"}'
    request = (
        b"POST /v1/games/g/actions HTTP/1.1\r\nHost: floor\r\nAuthorization: Bearer t\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    ) + body
    done = 0

    async def one_connection() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
            done += 1
        writer.close()

    await asyncio.gather(*(one_connection() for _ in range(concurrency)))
    return done


def _cpu_seconds(pid: int) -> float:
    return sum(thread_ticks(pid).values()) / clock_ticks()


def measure(kind: str, seconds: float, concurrency: int) -> tuple[float, float]:
    """One run: (calls per second, server CPU µs per call)."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "brass_service.tools.bench_transport_floor", "--serve", kind,
         "--port", str(port), "--concurrency", str(concurrency)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        if process.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the {kind} server did not start")
        calls = _rest_calls if kind == "rest" else _grpc_calls
        asyncio.run(calls(port, 0.3, concurrency))  # warm-up: connections, first calls
        before = _cpu_seconds(process.pid)
        started = time.monotonic()
        done = asyncio.run(calls(port, seconds, concurrency))
        elapsed = time.monotonic() - started
        cpu = _cpu_seconds(process.pid) - before
    finally:
        process.kill()
        process.wait()
    return done / elapsed, cpu / max(done, 1) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m brass_service.tools.bench_transport_floor",
        description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--concurrency", type=int, default=12)
    parser.add_argument("--serve", choices=SERVERS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.port, args.concurrency)
        return
    kinds = ["grpc", "grpc-sync", "rest"]
    try:
        import grpclib  # noqa: F401
        kinds.append("grpclib")
    except ImportError:
        print("grpclib is not installed: measuring the others only")
    runs: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    for round_number in range(1, args.rounds + 1):
        for kind in rotation(kinds, round_number):
            per_second, cpu_us = measure(kind, args.seconds, args.concurrency)
            runs[kind].append((per_second, cpu_us))
            print(f"round {round_number} {kind}: {per_second:.0f} calls/s, "
                  f"server CPU {cpu_us:.1f} µs/call", flush=True)
    for kind, figures in runs.items():
        rates = [rate for rate, _ in figures]
        cpus = [cpu for _, cpu in figures]
        print(f"{kind}: {len(figures)} runs, {statistics.median(rates):.0f} calls/s median; "
              f"server CPU {min(cpus):.1f}-{max(cpus):.1f} µs/call, "
              f"median {statistics.median(cpus):.1f}")


if __name__ == "__main__":
    main()
