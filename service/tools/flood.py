"""A flood of all-bot games against a person's bot reply and a clock: how long do they wait?

    python -m brass_service.tools.flood [--games 40] [--bot mcts:iterations=1000:rollout_depth=0]
                                        [--grpc HOST:PORT --operator-token TOKEN] [--samples 5]

Starts a server (SQLite in a temporary directory; or uses the one at --grpc, whose operator
token is given), creates `--games` four-seat Pittsburgh games whose every seat is the bot
`--bot`, as the operator (a spec the server refuses as too costly is replaced by the
costliest one it accepts, and said), waits a few seconds for their bot turns to queue up,
then measures, from a client that is not the operator:

* a victim's bot reply: a two-player Birmingham game, a person against `--victim-bot`;
  the time from the person's last acknowledged decision of a turn until the bot's turn
  (one or two decisions) is over (GetGame polled every 20 ms), `--samples` times;
* a victim's forfeit delay: a two-player game with a 1 s turn clock and
  TIMEOUT_POLICY_FORFEIT whose first seat never moves; the time from the turn's deadline
  until the forfeit is seen, `--samples` times (given up after --give-up seconds).

Prints one JSON object. Not a test: it takes a minute or two and its figures depend on the
machine.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

from brass_clients.sdk import BrassError, GameClient

from ..gen import game_service_pb2 as pb

OPERATOR_TOKEN = "flood-operator-token-0123456789abcdef"
FALLBACK_BOT = "mcts:iterations=1000"  # the costliest mcts the default caps accept


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a fresh SQLite file in `workdir`, with OPERATOR_TOKEN; (process, gRPC
    target). The arena note (tools/arena_note.py) starts its server so too."""
    grpc_port, http_port = _free_port(), _free_port()
    env = {**os.environ, "BRASS_HOST": "127.0.0.1", "BRASS_OPERATOR_TOKEN": OPERATOR_TOKEN,
           "BRASS_LOG_LEVEL": "warning"}
    log = (workdir / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "brass_service", "--port", str(grpc_port),
         "--http-port", str(http_port), "--database-url",
         f"sqlite:///{workdir / 'flood.sqlite3'}"],
        cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    target = f"127.0.0.1:{grpc_port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            grpc.channel_ready_future(grpc.insecure_channel(target)).result(timeout=1)
            return process, target
        except grpc.FutureTimeoutError:
            if process.poll() is not None:
                break
    process.kill()
    raise SystemExit(f"the server did not start (see {workdir / 'server.log'})")


def _wait(predicate: Callable[[], Any], give_up: float, interval: float = 0.02) -> Any:
    deadline = time.monotonic() + give_up
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(interval)
    return None


def _flood(operator: GameClient, games: int, bot: str) -> tuple[str, list[str]]:
    created: list[str] = []
    while len(created) < games:
        try:
            answer = operator.create_game(4, ruleset="pittsburgh",
                                          bot_seats={seat: bot for seat in range(4)})
        except BrassError as error:
            if error.reason != "INVALID_ARGUMENT" or bot == FALLBACK_BOT:
                raise
            print(f"the server refuses {bot!r} ({error.message}); flooding with "
                  f"{FALLBACK_BOT!r}", file=sys.stderr)
            bot = FALLBACK_BOT
            continue
        created.append(answer.game_id)
    return bot, created


def _bot_replies(client: GameClient, bot: str, samples: int, give_up: float) -> list[float]:
    created = client.create_game(2, seed=7, bot_seats={1: bot})
    game_id, token = created.game_id, created.seats[0].token
    waits: list[float] = []
    while len(waits) < samples:
        if not _wait(lambda: client.get_game(game_id).summary.current_seat == 0, give_up):
            waits.append(float("inf"))
            break
        while True:  # the person's whole turn (one or two actions)
            legal = client.list_legal_actions(game_id, token)
            answer = client.submit_action(game_id, token, legal.options[0].id,
                                          expected_version=legal.version)
            if answer.state.summary.current_seat != 0:
                break
        start = time.monotonic()
        seen = _wait(lambda: client.get_game(game_id).summary.current_seat == 0, give_up)
        waits.append(time.monotonic() - start if seen else float("inf"))
        if not seen:
            break
    return waits


def _forfeit_delays(client: GameClient, samples: int, give_up: float) -> list[float]:
    delays = []
    for _ in range(samples):
        created = client.create_game(
            2, clock=pb.ClockOptions(turn_ms=1000), on_timeout=pb.TIMEOUT_POLICY_FORFEIT,
            on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        game_id = created.game_id
        deadline = created.state.summary.clock.turn_deadline.ToNanoseconds() / 1e9
        seen = _wait(lambda: client.get_game(game_id).summary.status  # noqa: B023
                     == pb.GAME_STATUS_FINISHED, give_up + 1.0)
        delays.append(time.time() - deadline if seen else float("inf"))
    return delays


def _figures(values: list[float]) -> dict[str, Any]:
    finite = [v for v in values if v != float("inf")]
    return {"samples": [round(v, 3) if v != float("inf") else "gave up" for v in values],
            "median_s": round(statistics.median(values), 3) if finite and len(finite) == len(
                values) else None,
            "max_s": round(max(values), 3) if len(finite) == len(values) else "gave up"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bot", default="mcts:iterations=1000:rollout_depth=0")
    parser.add_argument("--victim-bot", default="mcts")
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds between the flood and the first measurement")
    parser.add_argument("--give-up", type=float, default=90.0)
    parser.add_argument("--grpc", help="an existing server (default: start one)")
    parser.add_argument("--operator-token", default=OPERATOR_TOKEN)
    args = parser.parse_args(argv)

    process = None
    with tempfile.TemporaryDirectory(prefix="brass-flood-") as tmp:
        if args.grpc:
            target = args.grpc
        else:
            process, target = start_server(Path(tmp))
        try:
            operator = GameClient(target, operator_token=args.operator_token, timeout=120)
            client = GameClient(target, timeout=120)
            quiet = _bot_replies(client, args.victim_bot, 2, args.give_up)
            started = time.monotonic()
            bot, games = _flood(operator, args.games, args.bot)
            flood_seconds = time.monotonic() - started
            time.sleep(args.settle)
            replies = _bot_replies(client, args.victim_bot, args.samples, args.give_up)
            forfeits = _forfeit_delays(client, args.samples, args.give_up)
            moved = sum(operator.get_game(g).summary.version for g in games)
            print(json.dumps({
                "flood": {"games": len(games), "bot": bot, "created_in_s": round(
                    flood_seconds, 2), "bot_decisions_meanwhile": moved},
                "victim_bot": args.victim_bot,
                "victim_bot_reply_quiet": _figures(quiet),
                "victim_bot_reply": _figures(replies),
                "victim_forfeit_delay": _figures(forfeits),
                "cpus": len(os.sched_getaffinity(0)),
            }, indent=2))
        finally:
            if process is not None:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    main()
