"""Several server processes on the same ports and store: `brass serve --workers N`.

A Python process runs one thread of Python code at a time, so one server process uses about
one core. The supervisor here starts N worker processes, each a whole server (gRPC and
REST) listening with SO_REUSEPORT on the same two ports; the kernel spreads new connections
over them. The workers share the store like replicas do: PostgreSQL through per-game
versions and LISTEN/NOTIFY; SQLite through its file locks, the same version checks and the
shared change stamps (store/sqlite_conn.py, ChangeStamps) that tell each worker when another
one has written. Metrics are summed over the workers (prometheus_client's multiprocess
mode; any worker answers /metrics for all of them).

The supervisor creates the store's tables once before the workers start, restarts a
worker that dies (never giving up: see RESTART_FIRST_SECONDS), and on SIGTERM/SIGINT stops
them all gracefully and waits for them; the workers receive SIGTERM if the supervisor
itself is killed (Linux PR_SET_PDEATHSIG, procs.die_with_parent).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from typing import Any

import structlog

from ..bots.bot_seats import BOT_SECRET_ENV, new_bot_secret
from ..observability import configure_logging, request_lines
from ..procs import die_with_parent
from ..store import BadDatabaseUrl, StoreUnavailable, open_store
from .config import DEFAULT_HOST
from .server import run_event_loop, serve_async

log = structlog.get_logger("brass_service.workers")

# A worker must report ready within this time, or the start is abandoned.
READY_TIMEOUT_SECONDS = 60.0
# A worker that dies is started again after RESTART_FIRST_SECONDS, doubled for each further
# death of a worker that lived less than RESTART_RESET_SECONDS, up to RESTART_MAX_SECONDS.
# The supervisor never gives up: whatever kills a worker may pass (the other workers serve
# meanwhile), and giving up would take every worker down with it.
RESTART_FIRST_SECONDS = 0.1
RESTART_MAX_SECONDS = 30.0
RESTART_RESET_SECONDS = 60.0
STOP_GRACE_SECONDS = 10.0


def _reserve_port(host: str, port: int) -> socket.socket:
    """Binds (without listening) a SO_REUSEPORT socket on the port: it resolves port 0 to
    one port for every worker and keeps the port from other programs; it never takes a
    connection, since only listening sockets share them."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _worker_main(
    index: int,
    grpc_port: int,
    http_port: int,
    database_url: str | None,
    log_level: str,
    ready: Any,
) -> None:
    die_with_parent()

    async def main() -> None:
        started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        started.add_done_callback(
            lambda future: ready.put(index)
            if not future.cancelled() and future.exception() is None
            else None
        )
        await serve_async(
            grpc_port, http_port, database_url, log_level, started=started, reuse_port=True,
            tune_process=True,
        )

    structlog.contextvars.bind_contextvars(worker=index)
    request_lines.add_static_field("worker", index)
    try:
        run_event_loop(main())
    except StoreUnavailable as exc:
        log.error("store_unavailable", error=str(exc))
        sys.exit(2)


async def _prepare_store(database_url: str | None) -> None:
    """Opens the store once (creating its tables) so the workers never race to do it."""
    store = open_store(database_url)
    await store.open()
    await store.close()


def share_bot_secret() -> str:
    """The supervisor's bot secret, exported (unless BRASS_BOT_SECRET gives one) for the
    workers to inherit with the other settings: a game's bot decision is then the same
    whichever worker computes it."""
    if not os.environ.get(BOT_SECRET_ENV):
        os.environ[BOT_SECRET_ENV] = new_bot_secret()
    return os.environ[BOT_SECRET_ENV]


def serve_workers(
    count: int,
    grpc_port: int,
    http_port: int,
    database_url: str | None,
    log_level: str,
) -> int:
    """Runs `count` worker processes until SIGTERM/SIGINT; returns the exit status."""
    configure_logging(log_level)
    host = os.environ.get("BRASS_HOST", DEFAULT_HOST)
    try:
        asyncio.run(_prepare_store(database_url))
    except StoreUnavailable as exc:
        log.error("store_unavailable", error=str(exc))
        return 2
    except BadDatabaseUrl as exc:
        log.error("bad_database_url", error=str(exc))
        return 2
    reserved: list[socket.socket] = []
    try:
        for port in (grpc_port, http_port):
            reserved.append(_reserve_port(host, port))
    except OSError as exc:
        log.error("cannot_listen", host=host, error=str(exc))
        for sock in reserved:
            sock.close()
        return 1
    grpc_port, http_port = (sock.getsockname()[1] for sock in reserved)
    metrics_dir = tempfile.mkdtemp(prefix="brass-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    share_bot_secret()
    context = multiprocessing.get_context("spawn")
    ready = context.Queue()
    stopping = False

    def request_stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}

    def start(index: int) -> multiprocessing.process.BaseProcess:
        process = context.Process(
            target=_worker_main,
            args=(index, grpc_port, http_port, database_url, log_level, ready),
            name=f"brass-worker-{index}",
        )
        process.start()
        return process

    processes = {index: start(index) for index in range(count)}
    started_at = dict.fromkeys(processes, time.monotonic())
    due: dict[int, float] = {}  # dead worker -> when it is started again
    quick_deaths: dict[int, int] = {}  # worker -> deaths in a row, each soon after its start
    status = 0
    try:
        status = _await_ready(processes, ready, count, lambda: stopping)
        if status == 0:
            log.info("serving", grpc=f"{host}:{grpc_port}", http=f"{host}:{http_port}",
                     workers=count, pids=[p.pid for p in processes.values()])
        while status == 0 and not stopping:
            now = time.monotonic()
            for index, when in list(due.items()):
                if when <= now:
                    del due[index]
                    processes[index] = start(index)
                    started_at[index] = now
            living = [p.sentinel for index, p in processes.items() if index not in due]
            wait = min([0.5, *(when - now for when in due.values())])
            multiprocessing.connection.wait(living, max(0.0, wait))
            for index, process in list(processes.items()):
                if index in due or process.is_alive() or stopping:
                    continue
                _forget(process)
                now = time.monotonic()
                if now - started_at[index] >= RESTART_RESET_SECONDS:
                    quick_deaths[index] = 0
                deaths = quick_deaths[index] = quick_deaths.get(index, 0) + 1
                doubled = RESTART_FIRST_SECONDS * 2 ** min(deaths - 1, 16)
                delay = min(RESTART_MAX_SECONDS, doubled)
                due[index] = now + delay
                log.error("worker_died", worker=index, exitcode=process.exitcode,
                          action="restarting", restart_in_seconds=round(delay, 3),
                          deaths_in_a_row=deaths)
    finally:
        _stop_all(processes)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sock in reserved:
            sock.close()
        shutil.rmtree(metrics_dir, ignore_errors=True)
        log.info("stopped", workers=count)
    return status


def _await_ready(
    processes: dict[int, Any], ready: Any, count: int, stopping: Any
) -> int:
    waiting = set(range(count))
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while waiting:
        if stopping():
            return 0
        with contextlib.suppress(Exception):
            waiting.discard(ready.get(timeout=0.2))
        for index in list(waiting):
            process = processes[index]
            if not process.is_alive():
                log.error("worker_failed_to_start", worker=index, exitcode=process.exitcode)
                return 2 if process.exitcode == 2 else 1
        if time.monotonic() > deadline:
            log.error("workers_not_ready", waiting=sorted(waiting))
            return 1
    return 0


def _forget(process: Any) -> None:
    """Drops a dead worker's live gauges from the shared metrics."""
    from prometheus_client import multiprocess

    if process.pid is not None:
        with contextlib.suppress(OSError):
            multiprocess.mark_process_dead(process.pid)


def _stop_all(processes: dict[int, Any]) -> None:
    for process in processes.values():
        if process.is_alive():
            with contextlib.suppress(OSError):
                process.terminate()  # SIGTERM: a graceful stop
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for process in processes.values():
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
        _forget(process)
