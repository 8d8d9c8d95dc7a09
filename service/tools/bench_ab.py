"""Throughput of several builds of the service measured in turns, so that a before/after
figure comes from one period of a noisy machine.

    python -m brass_service.tools.bench_ab --server before=../old/.venv/bin/python \\
        --server after=.venv/bin/python --transport rest --rounds 6 --seconds 15

Each `--server NAME=PYTHON` is `PYTHON -m brass_service`: the build installed for that
interpreter (one venv per commit, say in a `git worktree`). Every run starts its server
afresh on free loopback ports, with `--workers` processes, a new SQLite file and no
creation quota, and measures it with this process's `brass_service.tools.bench` clients,
the same clients for every server. Round r runs the servers in an order rotated by r, so
none is always first or last.

Printed: each run's accepted decisions per second, the p99 of all its requests and the
server's CPU per accepted decision (the CPU time of the server's processes, its workers
included, during the run, over the decisions accepted), then per server the range and median
of each, and each server's per-round ratio to the first server (median and range). The
medians are the figures: single runs on a shared machine vary by a fifth either way. It is
a measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .bench import Figure, measure

LOOPBACK = "127.0.0.1"
STARTUP_SECONDS = 60.0
STOP_SECONDS = 20.0


@dataclass(frozen=True)
class Run:
    round: int
    server: str
    per_second: float
    p99_ms: float
    server_cpu_ms: float  # server CPU per accepted decision
    server_system_ms: float  # the kernel's part of it (system time)


def clock_ticks() -> int:
    return os.sysconf("SC_CLK_TCK")


def _stat_fields(path: str) -> list[bytes] | None:
    """The fields of a /proc stat file after the command: state, ppid, pgrp, ..., utime
    (the 12th), stime (the 13th); None when the process or thread is gone meanwhile."""
    try:
        with open(path, "rb") as stat:
            text = stat.read()
    except OSError:
        return None
    return text[text.rindex(b")") + 2:].split()


def group_cpu_seconds(group: int) -> tuple[float, float]:
    """The CPU time (user + system, and system alone) of the live processes of process group
    `group` (the server and its workers), from /proc."""
    ticks = system = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(f"/proc/{entry.name}/stat")
        if fields is not None and int(fields[2]) == group:
            ticks += int(fields[11]) + int(fields[12])
            system += int(fields[12])
    return ticks / clock_ticks(), system / clock_ticks()


def thread_ticks(pid: int | str = "self") -> dict[int, int]:
    """The CPU time (user + system, in clock ticks) of each live thread of process `pid`,
    from /proc."""
    ticks = {}
    for entry in os.listdir(f"/proc/{pid}/task"):
        fields = _stat_fields(f"/proc/{pid}/task/{entry}/stat")
        if fields is not None:
            ticks[int(entry)] = int(fields[11]) + int(fields[12])
    return ticks


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def _healthy(http_port: int) -> bool:
    connection = http.client.HTTPConnection(LOOPBACK, http_port, timeout=2)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (its workers too), SIGKILL if it lingers."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def running_server(python: str, workdir: Path, workers: int
                   ) -> Iterator[tuple[str, str, int]]:
    """A server of `python`'s build until the block ends: (gRPC address, REST address, its
    process group)."""
    grpc_port, http_port = _free_port(), _free_port()
    command = [
        python, "-m", "brass_service", "--port", str(grpc_port), "--http-port", str(http_port),
        "--database-url", f"sqlite:///{workdir / 'games.sqlite3'}", "--log-level", "warning",
        "--workers", str(workers),
    ]
    env = {**os.environ, "BRASS_HOST": LOOPBACK, "BRASS_CREATE_GAME_RATE": ""}
    log_path = workdir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=workdir, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not _healthy(http_port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{python} -m brass_service did not start:\n"
                                   + log_path.read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        yield f"{LOOPBACK}:{grpc_port}", f"{LOOPBACK}:{http_port}", process.pid
    finally:
        _stop(process)


def rotation(names: list[str], round_number: int) -> list[str]:
    """The servers' order in a round (1-based): rotated by the round's number."""
    shift = (round_number - 1) % len(names)
    return names[shift:] + names[:shift]


def summary(runs: list[Run], names: list[str]) -> list[str]:
    """Per server: decisions/s, p99 and server CPU per decision (range, median); then the
    ratio to the first server, from the rounds in which both ran."""
    lines = []
    for name in names:
        own = [r for r in runs if r.server == name]
        rates, p99s = [r.per_second for r in own], [r.p99_ms for r in own]
        cpus = [r.server_cpu_ms for r in own]
        systems = [r.server_system_ms for r in own]
        lines.append(
            f"{name}: {len(own)} runs, {min(rates):.0f}-{max(rates):.0f}/s, median "
            f"{statistics.median(rates):.0f}/s; p99 {min(p99s):.1f}-{max(p99s):.1f} ms, "
            f"median {statistics.median(p99s):.1f} ms; server CPU "
            f"{min(cpus):.3f}-{max(cpus):.3f} ms/decision, median "
            f"{statistics.median(cpus):.3f} (of it system, median "
            f"{statistics.median(systems):.3f})")
    first = names[0]
    for name in names[1:]:
        ratios, cpu_ratios = [], []
        for number in sorted({r.round for r in runs}):
            pair = {r.server: r.per_second for r in runs if r.round == number}
            if pair.get(first) and name in pair:
                ratios.append(pair[name] / pair[first])
            cpu = {r.server: r.server_cpu_ms for r in runs if r.round == number}
            if cpu.get(first) and name in cpu:
                cpu_ratios.append(cpu[name] / cpu[first])
        if ratios:
            lines.append(
                f"{name} / {first}: median ratio {statistics.median(ratios):.3f} "
                f"({min(ratios):.3f}-{max(ratios):.3f}) over {len(ratios)} rounds")
        if cpu_ratios:
            lines.append(
                f"{name} / {first} server CPU per decision: median ratio "
                f"{statistics.median(cpu_ratios):.3f} "
                f"({min(cpu_ratios):.3f}-{max(cpu_ratios):.3f})")
    return lines


def _server_spec(text: str) -> tuple[str, str]:
    name, sep, python = text.partition("=")
    if not sep or not name or not python:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=PYTHON")
    return name, python


def main(argv: list[str] | None = None) -> list[Run]:
    parser = argparse.ArgumentParser(prog="python -m brass_service.tools.bench_ab",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", type=_server_spec, action="append", required=True,
                        metavar="NAME=PYTHON", help="a build to measure (give two or more)")
    parser.add_argument("--transport", choices=("rest", "grpc"), default="rest")
    parser.add_argument("--ruleset", choices=("birmingham", "pittsburgh"), default="birmingham",
                        help="the games played (Pittsburgh needs builds that have it)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds a run")
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--concurrency", type=int, default=12,
                        help="games in flight per client process")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds between a server's start and its run")
    args = parser.parse_args(argv)
    servers = dict(args.server)
    if len(servers) != len(args.server):
        parser.error("each --server needs a name of its own")
    names = list(servers)
    runs: list[Run] = []
    for number in range(1, args.rounds + 1):
        for name in rotation(names, number):
            with tempfile.TemporaryDirectory(prefix="brass-bench-ab-") as workdir, \
                    running_server(servers[name], Path(workdir), args.workers) as (g, h, group):
                time.sleep(args.settle)
                cpu_before, system_before = group_cpu_seconds(group)
                figure = measure(args.transport, h if args.transport == "rest" else g,
                                 args.seconds, args.clients, args.concurrency,
                                 ruleset=args.ruleset)
                cpu_after, system_after = group_cpu_seconds(group)
            decisions = max(1, figure.decisions)
            run = Run(number, name, figure.per_second,
                      Figure.percentile(figure.all_latencies, 0.99),
                      1000 * (cpu_after - cpu_before) / decisions,
                      1000 * (system_after - system_before) / decisions)
            runs.append(run)
            print(f"round {number} {name} {args.transport}: {figure.decisions} decisions, "
                  f"{run.per_second:.0f}/s, p99 {run.p99_ms:.1f} ms, server CPU "
                  f"{run.server_cpu_ms:.3f} ms/decision (system {run.server_system_ms:.3f})",
                  flush=True)
    for line in summary(runs, names):
        print(line)
    return runs


if __name__ == "__main__":
    main()
