"""Helpers of loadtest/run.sh: ports, readiness, PostgreSQL schemas, preloading, the report.

    python loadtest/support.py ports 2
    python loadtest/support.py wait-ready --pid PID --grpc-port P --http-port Q
    python loadtest/support.py pg-create URL          # prints schema and database URL
    python loadtest/support.py pg-drop URL SCHEMA
    python loadtest/support.py preload --grpc-target HOST:PORT --games N
    python loadtest/support.py memory PID            # VmRSS and VmHWM in kB
    python loadtest/support.py cpu PID               # CPU seconds used so far
    python loadtest/support.py decisions --http-port Q
    python loadtest/support.py report --out DIR ...  # exit status 1 on unexpected errors

Everything talks to loopback addresses only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import http.client
import json
import os
import random
import re
import socket
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

LOOPBACK = "127.0.0.1"


def free_ports(count: int) -> list[int]:
    sockets, ports = [], []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((LOOPBACK, 0))
            sockets.append(sock)
            ports.append(int(sock.getsockname()[1]))
    finally:
        for sock in sockets:
            sock.close()
    return ports


def http_get(port: int, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists()


def wait_ready(pid: int, grpc_port: int, http_port: int, timeout: float) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(f"{LOOPBACK}:{grpc_port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if not pid_alive(pid):
                raise SystemExit(f"the server (pid {pid}) exited during start-up")
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    if http_get(http_port, "/healthz")[0] == 200:
                        return
            except (grpc.RpcError, OSError):
                pass
            time.sleep(0.1)
    raise SystemExit(f"the server did not become ready within {timeout:.0f} s")


def pg_create(url: str) -> tuple[str, str]:
    import psycopg

    schema = "brass_load_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    return schema, f"{url}{separator}options={quote(f'-csearch_path={schema}')}"


def pg_drop(url: str, schema: str) -> None:
    import psycopg

    if not re.fullmatch(r"brass_load_[0-9a-f]{12}", schema):
        raise SystemExit(f"refusing to drop {schema!r}: not a schema this script made")
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def preload(target: str, games: int, moves: int, workers: int = 8) -> int:
    """Creates `games` games in progress (a few random moves each); returns the count."""
    from brass_clients.sdk import GameClient

    def one(index: int, client: GameClient) -> None:
        rng = random.Random(index)
        created = client.create_game(players=rng.choice((2, 3, 4)), seed=rng.getrandbits(63))
        tokens = [s.token for s in created.seats]
        state = created.state
        for _ in range(moves):
            seat = state.summary.current_seat
            legal = client.list_legal_actions(created.game_id, tokens[seat])
            state = client.submit_action(
                created.game_id, tokens[seat], rng.choice(legal.options).id,
                expected_version=legal.version,
            ).state

    with GameClient(target) as client, concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda i: one(i, client), range(games)))
    return games


def process_tree(pid: int) -> list[int]:
    """The server process and its descendants (the workers of `--workers N`)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        children = Path(f"/proc/{current}/task/{current}/children")
        if children.exists():
            queue += [int(c) for c in children.read_text().split()]
    return found


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) in KiB, summed over the server's processes."""
    figures: dict[str, int] = {"VmRSS": 0, "VmHWM": 0}
    for member in process_tree(pid):
        try:
            text = Path(f"/proc/{member}/status").read_text()
        except FileNotFoundError:
            continue
        for line in text.splitlines():
            key, _, value = line.partition(":")
            if key in figures:
                figures[key] += int(value.split()[0])
    return figures


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the server's processes have used so far (all threads)."""
    ticks = 0
    for member in process_tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rpartition(")")[2].split()
        except FileNotFoundError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


def metrics(http_port: int) -> dict[str, float]:
    """The service's own gauges and counters (Prometheus text), by metric name."""
    status, body = http_get(http_port, "/metrics")
    if status != 200:
        raise SystemExit(f"/metrics answered HTTP {status}")
    values: dict[str, float] = {}
    for line in body.decode().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, _, value = line.rpartition(" ")
        if name in ("brass_active_games", "brass_cached_games", "brass_decisions_total",
                    "brass_active_watchers"):
            values[name] = float(value)
    return values


# ----------------------------------------------------------------------------- report


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _number(row: dict[str, str], key: str) -> float:
    value = row.get(key, "") or "0"
    try:
        return float(value)
    except ValueError:
        return 0.0


def report(args: argparse.Namespace) -> int:
    out = Path(args.out)
    stats = _read_csv(out / "locust_stats.csv")
    exceptions = _read_csv(out / "locust_exceptions.csv")
    failures = _read_csv(out / "locust_failures.csv")
    summary_path = out / "summary.json"
    counters = json.loads(summary_path.read_text())["counters"] if summary_path.exists() else {}
    server_log = Path(args.server_log).read_text(errors="replace") if args.server_log else ""
    server_unexpected = server_log.count('"unexpected_error"')

    rows = [r for r in stats if r.get("Name") != "Aggregated"]
    aggregated = next((r for r in stats if r.get("Name") == "Aggregated"), {})
    print(f"\n{'type':<6} {'request':<40} {'count':>8} {'errors':>6} {'req/s':>8} "
          f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}")
    for row in sorted(rows, key=lambda r: (r["Type"], r["Name"])):
        print(f"{row['Type']:<6} {row['Name'][:40]:<40} {int(_number(row, 'Request Count')):>8} "
              f"{int(_number(row, 'Failure Count')):>6} {_number(row, 'Requests/s'):>8.1f} "
              f"{row.get('50%', ''):>7} {row.get('95%', ''):>7} {row.get('99%', ''):>7}")
    unexpected = int(_number(aggregated, "Failure Count")) + len(exceptions) + server_unexpected
    submits = [r for r in rows if r["Name"] == "SubmitAction"]
    decisions = args.decisions_after - args.decisions_before
    per_second = decisions / args.run_seconds if args.run_seconds else 0.0
    submit_p99 = max((_number(r, "99%") for r in submits), default=0.0)
    submit_p50 = max((_number(r, "50%") for r in submits), default=0.0)
    all_p99 = _number(aggregated, "99%")
    expected = {k.split(".", 1)[1]: v for k, v in counters.items()
                if k.startswith("expected_rejections.")}
    live = args.live_games
    cpu_ms_per_decision = args.server_cpu_seconds * 1000 / decisions if decisions else 0.0
    # Client calls per accepted decision (locust's rows, every transport and outcome).
    def calls(prefix: str) -> int:
        return sum(int(_number(r, "Request Count")) for r in rows
                   if r["Name"] == prefix or r["Name"].startswith(prefix + " ["))
    legal_calls, submit_calls = calls("ListLegalActions"), calls("SubmitAction")
    all_calls = int(_number(aggregated, "Request Count"))
    legal_per_decision = legal_calls / decisions if decisions else 0.0
    growth_kb = max(0, args.peak_kb - args.baseline_kb)
    per_thousand_mb = growth_kb / 1024 / live * 1000 if live else 0.0
    result: dict[str, Any] = {
        "store": args.store,
        "users": args.users,
        "run_seconds": args.run_seconds,
        "accepted_decisions": decisions,
        "accepted_decisions_per_second": round(per_second, 1),
        "submit_p50_ms": submit_p50,
        "submit_p99_ms": submit_p99,
        "all_requests_p99_ms": all_p99,
        "requests_per_second": round(_number(aggregated, "Requests/s"), 1),
        "list_legal_actions_calls": legal_calls,
        "list_legal_actions_per_decision": round(legal_per_decision, 3),
        "submit_action_calls_per_decision": round(submit_calls / decisions, 3)
        if decisions else 0.0,
        "requests_per_decision": round(all_calls / decisions, 3) if decisions else 0.0,
        "unexpected_errors": unexpected,
        "unexpected_server_log_errors": server_unexpected,
        "expected_rejections": expected,
        "counters": counters,
        "server_peak_memory_mb": round(args.peak_kb / 1024, 1),
        "server_baseline_memory_mb": round(args.baseline_kb / 1024, 1),
        "live_games": live,
        "cached_games": args.cached_games,
        "peak_memory_growth_mb_per_1000_live_games": round(per_thousand_mb, 1),
        "server_cpu_seconds": round(args.server_cpu_seconds, 2),
        "server_cpu_ms_per_decision": round(cpu_ms_per_decision, 2),
        "client_cpu_seconds": round(args.client_cpu_seconds, 2),
        "client_cpu_ms_per_decision": round(args.client_cpu_seconds * 1000 / decisions, 2)
        if decisions else 0.0,
        "server_cores_busy": round(args.server_cpu_seconds / args.run_seconds, 2)
        if args.run_seconds else 0.0,
        "locust_exit_code": args.locust_exit,
        "server_alive": args.server_alive,
    }
    (out / "result.json").write_text(json.dumps(result, indent=2, sort_keys=True))
    print()
    print(f"store: {args.store}; users: {args.users}; run time: {args.run_seconds:.0f} s")
    print(f"accepted decisions: {decisions} = {per_second:.1f}/s (server counter); "
          f"SubmitAction p50 {submit_p50:.0f} ms, p99 {submit_p99:.0f} ms; all requests p99 "
          f"{all_p99:.0f} ms")
    print(f"client calls per accepted decision: ListLegalActions {legal_per_decision:.2f} "
          f"({legal_calls} calls), SubmitAction "
          f"{result['submit_action_calls_per_decision']:.2f}, all rows "
          f"{result['requests_per_decision']:.2f}"
          + (f"; options from SubmitAction's next_actions "
             f"{counters.get('options_from_submit', 0)}, listed "
             f"{counters.get('options_listed', 0)}, next_actions verified "
             f"{counters.get('next_actions_verified', 0)}"
             if "options_from_submit" in counters else ""))
    print(f"server CPU: {args.server_cpu_seconds:.1f} s over the run = "
          f"{result['server_cores_busy']:.2f} cores busy, {cpu_ms_per_decision:.1f} ms per "
          "accepted decision (all requests included)")
    if args.client_cpu_seconds:
        print(f"locust CPU: {args.client_cpu_seconds:.1f} s (start-up included) = "
              f"{result['client_cpu_ms_per_decision']:.1f} ms per accepted decision")
    print(f"expected rejections (races): {expected or 'none'}; "
          f"idempotent replays checked: {counters.get('idempotent_replays', 0)}; "
          f"games created {counters.get('games_created', 0)}, "
          f"finished {counters.get('games_finished', 0)}; "
          f"watch updates {counters.get('watch_updates', 0) + counters.get('sse_updates', 0)}")
    print(f"server memory: peak (VmHWM) {args.peak_kb / 1024:.1f} MB, "
          f"after start-up {args.baseline_kb / 1024:.1f} MB; live games {live} "
          f"(cached {args.cached_games}); growth per 1,000 live games "
          f"{per_thousand_mb:.1f} MB"
          + ("" if live >= 500 else " (too few live games to mean much: use --preload 2000)"))
    print(f"unexpected errors: {unexpected} (locust failures "
          f"{int(_number(aggregated, 'Failure Count'))}, exceptions {len(exceptions)}, "
          f"server log {server_unexpected})")
    for failure in failures[:20]:
        print(f"  failure: {failure.get('Method')} {failure.get('Name')}: "
              f"{failure.get('Error', '')[:200]} x{failure.get('Occurrences')}")
    for exception in exceptions[:10]:
        print(f"  exception: {exception.get('Message', '')[:200]}")
    ok = (unexpected == 0 and decisions > 0 and args.server_alive
          and args.locust_exit in (0, 1))
    print(f"RESULT: {'PASS' if ok else 'FAIL'}")
    if not ok:
        locust_log = out / "locust.log"
        for line in why_failed(
                decisions=decisions, unexpected=unexpected, server_alive=bool(args.server_alive),
                locust_exit=args.locust_exit, server_log=server_log,
                locust_log=locust_log.read_text(errors="replace") if locust_log.exists() else "",
                failures=[f.get("Error", "") for f in failures]
                + [e.get("Message", "") for e in exceptions], out=out):
            print(f"  why: {line}")
    return 0 if ok else 1


def why_failed(*, decisions: int, unexpected: int, server_alive: bool, locust_exit: int,
               server_log: str, locust_log: str, failures: list[str], out: Path) -> list[str]:
    """What made a run FAIL and what to do about it, one sentence each (a bare FAIL told a
    newcomer nothing): locust not installed, the server dead, a quota of the server."""
    why = []
    if "No module named locust" in locust_log or "No module named 'locust'" in locust_log:
        why.append("locust is not installed for this Python: install the dev extra, "
                   "pip install -e '.[dev]'")
    elif locust_exit not in (0, 1):
        why.append(f"locust stopped with exit code {locust_exit}: see {out / 'locust.log'}")
    if not server_alive:
        last = [ln for ln in server_log.splitlines() if ln.strip()][-3:]
        why.append("the server died during the run; its last lines: " + " | ".join(last)
                   + f" ({out / 'server.log'})")
    # the limit a RATE_LIMITED answer names, in a failure's text (a dict or JSON)
    named = sorted({a or b for a, b in re.findall(
        r"'limit': '(\w+)'|\"limit\": \"(\w+)\"", "\n".join(failures))})
    if named:
        why.append("a quota of the server refused the users' requests (RATE_LIMITED, limit "
                   + ", ".join(named) + "): run.sh lifts the per-address ones it knows "
                   "(BRASS_CREATE_GAME_RATE= and the watch limits); lift this one too with "
                   + ", ".join(f"BRASS_{name.upper()}=" for name in named))
    elif unexpected:
        why.append(f"{unexpected} unexpected error answers (listed above; server log "
                   f"{out / 'server.log'}, locust log {out / 'locust.log'})")
    if decisions <= 0 and not why:
        why.append(f"no decision was accepted in the run: see {out / 'locust.log'}")
    return why


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="loadtest/support.py")
    commands = parser.add_subparsers(dest="command", required=True)
    ports = commands.add_parser("ports")
    ports.add_argument("count", type=int)
    ready = commands.add_parser("wait-ready")
    ready.add_argument("--pid", type=int, required=True)
    ready.add_argument("--grpc-port", type=int, required=True)
    ready.add_argument("--http-port", type=int, required=True)
    ready.add_argument("--timeout", type=float, default=60.0)
    create = commands.add_parser("pg-create")
    create.add_argument("url")
    drop = commands.add_parser("pg-drop")
    drop.add_argument("url")
    drop.add_argument("schema")
    load = commands.add_parser("preload")
    load.add_argument("--grpc-target", required=True)
    load.add_argument("--games", type=int, required=True)
    load.add_argument("--moves", type=int, default=2)
    memory = commands.add_parser("memory")
    memory.add_argument("pid", type=int)
    cpu = commands.add_parser("cpu")
    cpu.add_argument("pid", type=int)
    counted = commands.add_parser("decisions")
    counted.add_argument("--http-port", type=int, required=True)
    final = commands.add_parser("report")
    final.add_argument("--out", required=True)
    final.add_argument("--store", default="sqlite")
    final.add_argument("--users", type=int, default=0)
    final.add_argument("--run-seconds", type=float, required=True)
    final.add_argument("--decisions-before", type=int, default=0)
    final.add_argument("--decisions-after", type=int, default=0)
    final.add_argument("--peak-kb", type=int, default=0)
    final.add_argument("--baseline-kb", type=int, default=0)
    final.add_argument("--live-games", type=int, default=0)
    final.add_argument("--cached-games", type=int, default=0)
    final.add_argument("--locust-exit", type=int, default=0)
    final.add_argument("--server-alive", type=int, default=1)
    final.add_argument("--server-log", default="")
    final.add_argument("--server-cpu-seconds", type=float, default=0.0)
    final.add_argument("--client-cpu-seconds", type=float, default=0.0)
    args = parser.parse_args(argv)

    if args.command == "ports":
        print(" ".join(str(p) for p in free_ports(args.count)))
    elif args.command == "wait-ready":
        wait_ready(args.pid, args.grpc_port, args.http_port, args.timeout)
    elif args.command == "pg-create":
        schema, url = pg_create(args.url)
        print(schema)
        print(url)
    elif args.command == "pg-drop":
        pg_drop(args.url, args.schema)
    elif args.command == "preload":
        started = time.monotonic()
        made = preload(args.grpc_target, args.games, args.moves)
        print(f"preloaded {made} games in {time.monotonic() - started:.1f} s", file=sys.stderr)
    elif args.command == "memory":
        figures = memory_kb(args.pid)
        print(figures.get("VmRSS", 0), figures.get("VmHWM", 0))
    elif args.command == "cpu":
        print(f"{cpu_seconds(args.pid):.2f}")
    elif args.command == "decisions":
        values = metrics(args.http_port)
        print(int(values.get("brass_decisions_total", 0)),
              int(values.get("brass_active_games", 0)),
              int(values.get("brass_cached_games", 0)))
    elif args.command == "report":
        return report(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
