"""Webhooks in the store: their endpoints and the durable outbox of their deliveries (one
DDL text both stores run), and the queries of service/webhooks/, through the SqlRunner of
store/accounts.py plus one primitive each store provides: `sql_claim` (a read and the
writes it decides, in one transaction; PostgreSQL locks the rows it reads, skipping those
another process holds).

    webhook_endpoints  one row per webhook: its owner (an account, or a game's seat, or the
                       game's host: seat HOST_SEAT), URL, event types (a bit each, by
                       EVENT_TYPES; a bit test is far cheaper than matching text) and the
                       signing secret (the service must sign with it: it is kept, never
                       listed nor logged)
    webhook_outbox     one row per event per endpoint, written in the transaction of the
                       change that causes it (outbox_steps): pending, leased by the process
                       sending it, or dead (given up); a delivered row is deleted

Order: a row is only claimed when no earlier row of the same endpoint and game is pending,
so one receiver gets a game's events in order, one at a time. The queue of one endpoint is
bounded: an event finding MAX_PENDING rows pending for it is stored dead at once
(QUEUE_FULL), where its owner sees it, rather than growing the table without end.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .accounts import RowConflict, SqlRunner, Step

# {serial}: each store's auto-incrementing key (order of insertion).
SCHEMA_TEMPLATE = """
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    endpoint_id TEXT PRIMARY KEY,
    account_id TEXT,
    game_id TEXT,
    seat INTEGER,
    url TEXT NOT NULL,
    event_mask INTEGER NOT NULL,
    secret TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_by_account ON webhook_endpoints (account_id);
CREATE INDEX IF NOT EXISTS webhook_endpoints_by_seat ON webhook_endpoints (game_id, seat);
CREATE TABLE IF NOT EXISTS webhook_outbox (
    seq {serial},
    endpoint_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    state INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at DOUBLE PRECISION NOT NULL,
    lease_owner TEXT,
    lease_until DOUBLE PRECISION,
    last_error TEXT
);
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (state, next_attempt_at);
CREATE INDEX IF NOT EXISTS webhook_outbox_order
    ON webhook_outbox (endpoint_id, game_id, state, seq);
"""
SQLITE_SCHEMA = SCHEMA_TEMPLATE.format(serial="INTEGER PRIMARY KEY AUTOINCREMENT")
POSTGRES_SCHEMA = SCHEMA_TEMPLATE.format(serial="BIGSERIAL PRIMARY KEY")

# brass.v1 WebhookDeliveryState (the store does not import the API)
PENDING, DEAD = 1, 2
# The event types; a webhook's event_mask has bit i for EVENT_TYPES[i].
EVENT_TYPES = ("your_turn", "game_started", "game_over", "challenge", "seat_joined")
# The seat of a game's host's endpoints.
HOST_SEAT = -1
# Pending deliveries one endpoint may have; beyond, new events are stored dead.
MAX_PENDING = 1000
QUEUE_FULL = "QUEUE_FULL"


# A deleted game's seats' and host's webhooks go with it (their undelivered events first).
DELETE_GAME_WEBHOOKS_SQL = (
    "DELETE FROM webhook_outbox WHERE endpoint_id IN "
    "(SELECT endpoint_id FROM webhook_endpoints WHERE game_id = %s)")


class HookEvent:
    """One event for the webhooks of its recipients: the accounts named, and the endpoints
    of the game's seats named (HOST_SEAT: its host's). `body` is the JSON text sent.

    Made on a move's path at every change of turn, and only written when some endpoint
    exists: `deferred` leaves the body and the message id (a random read) to be made the
    first time they are asked for, which an event nobody listens to never is."""

    __slots__ = ("kind", "game_id", "created_at", "accounts", "seats", "_message_id",
                 "_body", "_data")

    def __init__(self, kind: str, game_id: str, message_id: str, body: str,
                 created_at: float, accounts: tuple[str, ...] = (),
                 seats: tuple[int, ...] = ()) -> None:
        self.kind = kind
        self.game_id = game_id  # "" for a challenge
        self.created_at = created_at
        self.accounts = accounts
        self.seats = seats
        self._message_id: str | None = message_id
        self._body: str | None = body
        self._data: dict[str, Any] = {}

    @classmethod
    def deferred(cls, kind: str, game_id: str, created_at: float, data: dict[str, Any],
                 accounts: tuple[str, ...] = (), seats: tuple[int, ...] = ()) -> HookEvent:
        event = cls(kind, game_id, "", "", created_at, accounts, seats)
        event._message_id = event._body = None
        event._data = data
        return event

    @property
    def message_id(self) -> str:
        """The webhook-id of the event's deliveries: the same at every attempt."""
        if self._message_id is None:
            self._message_id = new_message_id()
        return self._message_id

    @property
    def body(self) -> str:
        if self._body is None:
            self._body = event_body(self.kind, self.created_at, self._data)
        return self._body

    def __repr__(self) -> str:
        return (f"HookEvent({self.kind!r}, {self.game_id!r}, accounts={self.accounts!r}, "
                f"seats={self.seats!r})")


def new_message_id() -> str:
    return "msg_" + os.urandom(16).hex()


# Whether any webhook exists at all: most servers have none, and then no event of a move
# needs its INSERT ... SELECT (SQLite asks this first, in the same transaction).
ANY_ENDPOINT_SQL = "SELECT 1 FROM webhook_endpoints LIMIT 1"


def outbox_steps(events: Sequence[HookEvent]) -> list[Step]:
    """The writes that queue `events` for every endpoint that wants them, to run in the
    transaction of the change that causes them (SQL with %s placeholders). An event nobody
    has an endpoint for writes nothing."""
    steps: list[Step] = []
    for event in events:
        owners, params = [], []
        if event.accounts:
            owners.append("e.account_id IN (" + ", ".join(["%s"] * len(event.accounts)) + ")")
            params += event.accounts
        if event.seats and event.game_id:
            owners.append("(e.game_id = %s AND e.seat IN ("
                          + ", ".join(["%s"] * len(event.seats)) + "))")
            params += [event.game_id, *event.seats]
        if not owners:
            continue
        steps.append((
            "INSERT INTO webhook_outbox (endpoint_id, game_id, message_id, kind, body, "
            "created_at, state, attempts, next_attempt_at, last_error) "
            "SELECT endpoint_id, %s, %s, %s, %s, %s, "
            "CASE WHEN queued >= %s THEN %s ELSE %s END, 0, %s, "
            "CASE WHEN queued >= %s THEN %s ELSE NULL END FROM ("
            "SELECT e.endpoint_id, (SELECT COUNT(*) FROM webhook_outbox q WHERE "
            "q.endpoint_id = e.endpoint_id AND q.state = %s) AS queued "
            "FROM webhook_endpoints e WHERE (e.event_mask & %s) <> 0 AND ("
            + " OR ".join(owners)
            + ")) AS targets",
            (event.game_id, event.message_id, event.kind, event.body, event.created_at,
             MAX_PENDING, DEAD, PENDING, event.created_at, MAX_PENDING, QUEUE_FULL,
             PENDING, event_mask((event.kind,)), *params),
            None,
        ))
    return steps


@dataclass
class EndpointRow:
    endpoint_id: str
    account_id: str | None
    game_id: str | None
    seat: int | None
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: float


@dataclass
class DeliveryRow:
    """A row of the outbox, as the sender and the listing see it."""

    seq: int
    endpoint_id: str
    game_id: str
    message_id: str
    kind: str
    body: str
    created_at: float
    state: int
    attempts: int
    next_attempt_at: float
    last_error: str | None
    url: str = ""
    secret: str = ""


_ENDPOINT_COLUMNS = (
    "endpoint_id, account_id, game_id, seat, url, event_mask, secret, created_at")
_DELIVERY_COLUMNS = ("o.seq, o.endpoint_id, o.game_id, o.message_id, o.kind, o.body, "
                     "o.created_at, o.state, o.attempts, o.next_attempt_at, o.last_error")


# A row the sender may claim (parameters: PENDING, now, now, PENDING): pending, due, not
# leased (or its lease ran out), and the oldest pending one of its endpoint and game.
_CLAIMABLE = (
    "o.state = %s AND o.next_attempt_at <= %s AND (o.lease_until IS NULL OR "
    "o.lease_until <= %s) AND NOT EXISTS (SELECT 1 FROM webhook_outbox p WHERE "
    "p.endpoint_id = o.endpoint_id AND p.game_id = o.game_id AND p.state = %s AND "
    "p.seq < o.seq)")


def _endpoint(columns: dict[str, Any]) -> EndpointRow:
    return EndpointRow(
        str(columns["endpoint_id"]), columns["account_id"], columns["game_id"],
        None if columns["seat"] is None else int(columns["seat"]), str(columns["url"]),
        tuple(kind for bit, kind in enumerate(EVENT_TYPES)
              if int(columns["event_mask"]) >> bit & 1),
        str(columns["secret"]), float(columns["created_at"]))


def _delivery(columns: dict[str, Any]) -> DeliveryRow:
    return DeliveryRow(
        int(columns["seq"]), str(columns["endpoint_id"]), str(columns["game_id"]),
        str(columns["message_id"]), str(columns["kind"]), str(columns["body"]),
        float(columns["created_at"]), int(columns["state"]), int(columns["attempts"]),
        float(columns["next_attempt_at"]), columns["last_error"],
        str(columns.get("url") or ""), str(columns.get("secret") or ""))


def event_mask(events: Sequence[str]) -> int:
    """The event types as stored: a bit each (EVENT_TYPES)."""
    return sum(1 << EVENT_TYPES.index(kind) for kind in set(events))


class ClaimRunner(SqlRunner, Protocol):
    async def sql_claim(self, select_sql: str, params: tuple[Any, ...],
                        lease: tuple[str, float]) -> list[dict[str, Any]]:
        """In one transaction: the rows of `select_sql` (a SELECT of webhook_outbox `o`
        with a {lock} mark where PostgreSQL adds FOR UPDATE OF o SKIP LOCKED), each then
        leased: lease_owner and lease_until set to `lease`."""
        ...


class WebhookRows:
    """The webhooks' queries, on either store."""

    def __init__(self, runner: ClaimRunner) -> None:
        self.runner = runner

    async def create(self, row: EndpointRow, limit: int) -> bool:
        """Stores the endpoint unless its owner (account, or game seat) has `limit`
        already; whether it did."""
        if row.account_id is not None:
            owner, owner_params = "account_id = %s", (row.account_id,)
        else:
            owner, owner_params = "game_id = %s AND seat = %s", (row.game_id, row.seat)
        try:
            await self.runner.sql_apply([(
                f"INSERT INTO webhook_endpoints ({_ENDPOINT_COLUMNS}) SELECT %s, %s, %s, %s, "
                "%s, %s, %s, %s WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE "
                f"{owner}) < %s",
                (row.endpoint_id, row.account_id, row.game_id, row.seat, row.url,
                 event_mask(row.events), row.secret, row.created_at, *owner_params, limit),
                1)])
        except RowConflict:
            return False
        return True

    async def by_id(self, endpoint_id: str) -> EndpointRow | None:
        rows = await self.runner.sql_rows(
            f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = %s",
            (endpoint_id,))
        return _endpoint(rows[0]) if rows else None

    async def of_account(self, account_id: str) -> list[EndpointRow]:
        rows = await self.runner.sql_rows(
            f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = %s "
            "ORDER BY created_at, endpoint_id", (account_id,))
        return [_endpoint(row) for row in rows]

    async def of_seat(self, game_id: str, seat: int) -> list[EndpointRow]:
        rows = await self.runner.sql_rows(
            f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE game_id = %s AND "
            "seat = %s ORDER BY created_at, endpoint_id", (game_id, seat))
        return [_endpoint(row) for row in rows]

    async def delete(self, endpoint_id: str) -> None:
        """Deletes the endpoint and what its outbox still holds."""
        await self.runner.sql_apply([
            ("DELETE FROM webhook_outbox WHERE endpoint_id = %s", (endpoint_id,), None),
            ("DELETE FROM webhook_endpoints WHERE endpoint_id = %s", (endpoint_id,), None),
        ])

    async def deliveries(self, endpoint_id: str, before_seq: int | None, limit: int
                         ) -> list[DeliveryRow]:
        """The endpoint's pending and dead deliveries, newest first (limit + 1 rows: one
        more says more follow)."""
        rows = await self.runner.sql_rows(
            f"SELECT {_DELIVERY_COLUMNS} FROM webhook_outbox o WHERE o.endpoint_id = %s "
            "AND o.seq < %s ORDER BY o.seq DESC LIMIT %s",
            (endpoint_id, 2**62 if before_seq is None else before_seq, limit + 1))
        return [_delivery(row) for row in rows]

    async def any_due(self, now: float) -> bool:
        """Whether a delivery can be claimed now (the sender's read before it claims, so
        that a look finding nothing writes nothing)."""
        rows = await self.runner.sql_rows(
            f"SELECT 1 AS due FROM webhook_outbox o WHERE {_CLAIMABLE} LIMIT 1",
            (PENDING, now, now, PENDING))
        return bool(rows)

    async def claim(self, now: float, owner: str, lease_until: float, limit: int
                    ) -> list[DeliveryRow]:
        """Leases up to `limit` due deliveries to `owner`, each the oldest pending one of
        its endpoint and game, with their endpoints' URLs and secrets."""
        rows = await self.runner.sql_claim(
            f"SELECT {_DELIVERY_COLUMNS}, e.url, e.secret FROM webhook_outbox o "
            f"JOIN webhook_endpoints e ON e.endpoint_id = o.endpoint_id WHERE {_CLAIMABLE} "
            "ORDER BY o.seq LIMIT %s {lock}",
            (PENDING, now, now, PENDING, limit), (owner, lease_until))
        return [_delivery(row) for row in rows]

    async def delivered(self, seq: int, owner: str) -> None:
        await self.runner.sql_apply([(
            "DELETE FROM webhook_outbox WHERE seq = %s AND lease_owner = %s", (seq, owner),
            None)])

    async def failed(self, seq: int, owner: str, attempts: int, next_attempt_at: float,
                     dead: bool, error: str) -> None:
        """Records a failed attempt: due again at `next_attempt_at`, or dead."""
        await self.runner.sql_apply([(
            "UPDATE webhook_outbox SET attempts = %s, state = %s, next_attempt_at = %s, "
            "last_error = %s, lease_owner = NULL, lease_until = NULL "
            "WHERE seq = %s AND lease_owner = %s",
            (attempts, DEAD if dead else PENDING, next_attempt_at, error[:200], seq, owner),
            None)])

    async def release(self, owner: str) -> None:
        """Gives back `owner`'s leases (a graceful stop): due again at once elsewhere."""
        await self.runner.sql_apply([(
            "UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL "
            "WHERE lease_owner = %s AND state = %s", (owner, PENDING), None)])

    async def prune_dead(self, created_before: float) -> None:
        await self.runner.sql_apply([(
            "DELETE FROM webhook_outbox WHERE state = %s AND created_at < %s",
            (DEAD, created_before), None)])


def event_body(kind: str, at: float, data: dict[str, Any]) -> str:
    """An event's JSON body, as Standard Webhooks suggests: type, timestamp, data. (Made on
    a move's path for every turn: plain formatting, no datetime objects.)"""
    whole = int(at)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
    return (f'{{"type":"{kind}","timestamp":"{stamp}.{int((at - whole) * 1000):03d}Z",'
            f'"data":{json.dumps(data, separators=(",", ":"))}}}')
