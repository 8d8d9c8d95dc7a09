"""The webhooks' soak run (issue 25's "done when"): no webhook lost across SIGKILLs of a
`--workers 2` server under load, and duplicates counted.

    python -m brass_service.tools.webhook_soak [--kills 6] [--kill-every 5] [--games 6]
        [--database-url postgresql://…]   (default: a fresh SQLite file)

It starts `brass serve --workers 2` (loopback receivers allowed), a loopback receiver and
one client per game playing random legal moves in games between two accounts with a
webhook each; `--kills` times, every `--kill-every` seconds, it kills the server's
process group with SIGKILL and starts it again. Then it lets the outbox drain and prints,
as JSON: the events the store committed (counted by a trigger on the outbox, in the
database itself, so not by the service's own code), those delivered, lost (neither
delivered nor dead) and dead, the deliveries received more than once, and signatures that
failed `standardwebhooks`' verification (when that package is installed: the dev extra).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from brass_clients.sdk import BrassError, GameClient, pb

from .webhook_receiver import Receiver

_SERVER_ENV = {
    "BRASS_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
    "BRASS_WEBHOOK_POLL_SECONDS": "0.2",
    "BRASS_WEBHOOK_LEASE_SECONDS": "3",
    "BRASS_WEBHOOK_TIMEOUT_SECONDS": "2",
    "BRASS_WEBHOOK_RETRY_BASE_SECONDS": "0.2",
    "BRASS_WEBHOOK_RETRY_MAX_SECONDS": "1",
    "BRASS_CREATE_GAME_RATE": "", "BRASS_CREATE_ACCOUNT_RATE": "",
    "BRASS_JOIN_GAME_RATE": "", "BRASS_HOST": "127.0.0.1",
}
_SQLITE_AUDIT = """
CREATE TABLE IF NOT EXISTS soak_audit (message_id TEXT, endpoint_id TEXT);
CREATE TRIGGER IF NOT EXISTS soak_audit_insert AFTER INSERT ON webhook_outbox
BEGIN INSERT INTO soak_audit VALUES (NEW.message_id, NEW.endpoint_id); END;
"""
_POSTGRES_AUDIT = """
CREATE TABLE IF NOT EXISTS soak_audit (message_id TEXT, endpoint_id TEXT);
CREATE OR REPLACE FUNCTION soak_audit_row() RETURNS trigger AS $$
BEGIN INSERT INTO soak_audit VALUES (NEW.message_id, NEW.endpoint_id); RETURN NEW; END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS soak_audit_insert ON webhook_outbox;
CREATE TRIGGER soak_audit_insert AFTER INSERT ON webhook_outbox
FOR EACH ROW EXECUTE FUNCTION soak_audit_row();
"""


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Database:
    """The soak's own reads of the store: the audit trigger and the outbox's state."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _run(self, sql: str, script: bool = False) -> list[tuple[Any, ...]]:
        if self.url.startswith("sqlite:///"):
            with sqlite3.connect(self.url[len("sqlite:///"):], timeout=30) as conn:
                if script:
                    conn.executescript(sql)
                    return []
                return list(conn.execute(sql))
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            cursor = conn.execute(sql)  # type: ignore[arg-type]
            return list(cursor.fetchall()) if cursor.description else []

    def install_audit(self) -> None:
        self._run(_SQLITE_AUDIT if self.url.startswith("sqlite") else _POSTGRES_AUDIT,
                  script=True)

    def committed(self) -> set[tuple[str, str]]:
        return {(str(m), str(e)) for m, e in self._run(
            "SELECT message_id, endpoint_id FROM soak_audit")}

    def outbox(self, state: int) -> set[tuple[str, str]]:
        return {(str(m), str(e)) for m, e in self._run(
            f"SELECT message_id, endpoint_id FROM webhook_outbox WHERE state = {int(state)}")}


class Server:
    def __init__(self, workdir: Path, database_url: str, workers: int) -> None:
        self.workdir, self.database_url, self.workers = workdir, database_url, workers
        self.grpc_port, self.http_port = _free_port(), _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    def start(self) -> None:
        log = (self.workdir / "server.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "brass_service", "--port", str(self.grpc_port),
             "--http-port", str(self.http_port), "--workers", str(self.workers),
             "--database-url", self.database_url, "--log-level", "warning"],
            cwd=self.workdir, env={**os.environ, **_SERVER_ENV}, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 60
        with GameClient(self.target, timeout=2, retries=0) as probe:
            while time.monotonic() < deadline:
                try:
                    probe.list_games(page_size=1)
                    return
                except BrassError:
                    time.sleep(0.1)
        raise RuntimeError("the server did not start; see server.log")

    def kill(self) -> None:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


class Players:
    """One thread per game: random legal moves, a new game when one ends; errors while the
    server is down are waited out."""

    def __init__(self, server: Server, receiver: Receiver, games: int) -> None:
        self.server, self.receiver, self.games = server, receiver, games
        self.stop = threading.Event()
        self.decisions = 0
        self.errors = Counter[str]()
        self.webhooks: dict[str, tuple[str, str]] = {}  # receiver path -> (id, secret)
        self._guard = threading.Lock()

    def _setup(self, client: GameClient, index: int) -> tuple[str, dict[int, str]]:
        keys = []
        for seat in range(2):
            account = client.create_account(f"Soak {index}.{seat} {uuid.uuid4().hex[:6]}")
            path = f"/hook/{account.account.account_id}"
            made = client._call("CreateWebhook", pb.CreateWebhookRequest(
                account_id=account.account.account_id, url=self.receiver.url(path)),
                account.key, retry=False)
            with self._guard:
                self.webhooks[path] = (made.webhook.webhook_id, made.secret)
            keys.append(account.key)
        created = client.create_game(2, account_key=keys[0], open_seats=[1])
        joined = client.join_game(created.game_id, account_key=keys[1])
        client.start_game(created.game_id, created.host_token)
        return created.game_id, {0: created.seats[0].token, 1: joined.seat.token}

    def play(self, index: int) -> None:
        rng = random.Random(index)
        game: tuple[str, dict[int, str]] | None = None
        with GameClient(self.server.target, timeout=5, retries=8) as client:
            while not self.stop.is_set():
                try:
                    if game is None:
                        game = self._setup(client, index)
                    game_id, tokens = game
                    summary = client.get_game(game_id).summary
                    if summary.status == pb.GAME_STATUS_FINISHED:
                        game = None
                        continue
                    token = tokens[summary.current_seat]
                    options = client.list_legal_actions(game_id, token).options
                    client.submit_action(game_id, token, rng.choice(options).id,
                                         expected_version=summary.version)
                    with self._guard:
                        self.decisions += 1
                except BrassError as error:
                    with self._guard:
                        self.errors[error.reason] += 1
                    time.sleep(0.2)


def run(kills: int, kill_every: float, games: int, database_url: str | None,
        workers: int) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="brass-webhook-soak-"))
    url = database_url or f"sqlite:///{workdir / 'soak.sqlite3'}"
    database = Database(url)
    server = Server(workdir, url, workers)
    with Receiver() as receiver:
        server.start()
        database.install_audit()
        players = Players(server, receiver, games)
        threads = [threading.Thread(target=players.play, args=(index,), daemon=True)
                   for index in range(games)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        for _ in range(kills):
            time.sleep(kill_every)
            server.kill()
            server.start()
        time.sleep(kill_every)
        players.stop.set()
        seconds = time.monotonic() - started
        for thread in threads:
            thread.join(timeout=30)
        deadline = time.monotonic() + 60
        while database.outbox(1) and time.monotonic() < deadline:
            time.sleep(0.5)  # the outbox drains
        pending = database.outbox(1)
        server.kill()
        figures = _count(database, receiver, players, pending)
    figures.update(seconds=round(seconds, 1), kills=kills, workers=workers,
                   store="postgresql" if url.startswith("postgres") else "sqlite",
                   decisions=players.decisions, client_errors=dict(players.errors))
    return figures


def _count(database: Database, receiver: Receiver, players: Players,
           pending: set[tuple[str, str]]) -> dict[str, Any]:
    committed, dead = database.committed(), database.outbox(2)
    endpoint_of = {path: webhook_id for path, (webhook_id, _) in players.webhooks.items()}
    received = [(item.message_id, endpoint_of.get(item.path, "?"))
                for item in receiver.received]
    delivered = set(received)
    invalid = None
    try:
        from standardwebhooks import Webhook
    except ImportError:
        pass
    else:
        invalid = 0
        for item in receiver.received:
            try:
                Webhook(players.webhooks[item.path][1]).verify(item.body, item.headers)
            except Exception:
                invalid += 1
    return {
        "events_committed": len(committed),
        "delivered": len(delivered & committed),
        "lost": len(committed - delivered - dead - pending),
        "dead": len(dead),
        "still_pending": len(pending),
        "received": len(received),
        "duplicates": len(received) - len(delivered),
        "unknown": len(delivered - committed),
        "signatures_failed": invalid,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--kill-every", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    figures = run(args.kills, args.kill_every, args.games, args.database_url, args.workers)
    print(json.dumps(figures, indent=2))
    if figures["lost"] or figures["still_pending"] or figures["unknown"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
