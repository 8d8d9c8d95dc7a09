"""PostgreSQL store (psycopg 3): shared by several service replicas.

Concurrency: a decision is appended in one transaction that moves the game's head only if it
is still on the version the decision was computed from, and inserts the decision under a
(game_id, from_version) primary key; so of two replicas racing, exactly one commits.
Change notification: the same transaction NOTIFYs `brass_game_changes` with
"game_id:version", and every replica LISTENs, so watchers anywhere hear every move.

Failing fast: with the server gone, a request waits at most POOL_WAIT_SECONDS for a
connection (psycopg_pool's default is 30 s), a connection attempt at most
CONNECT_TIMEOUT_SECONDS, and TCP keepalives end a connection whose peer vanished without a
word; a server that hangs with its connections open is given STATEMENT_SECONDS (plus up to
10 s of psycopg's own cancellation); then the request answers UNAVAILABLE.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

import psycopg
import structlog
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from .accounts import SCHEMA as ACCOUNTS_SCHEMA
from .accounts import AccountRows, RowConflict, Step
from .arenas import SCHEMA as ARENAS_SCHEMA
from .arenas import ArenaRows
from .base import (
    ChangeListener,
    FailureTracker,
    IdempotencyConflict,
    StoreHealth,
    StoreUnavailable,
    VersionConflict,
)
from .challenges import SCHEMA as CHALLENGES_SCHEMA
from .challenges import ChallengeRows
from .options import stored_options
from .ratings import SCHEMA as RATINGS_SCHEMA
from .ratings import RatingRows
from .rows import (
    DECISION_COLUMNS,
    DUE_INDEX,
    FROM_SPANNING_SQL,
    GAME_COLUMN_COUNT,
    GAME_COLUMNS,
    GAME_COLUMNS_ADDED,
    LIST_INDEXES,
    NO_VERSION_LIMIT,
    DecisionRow,
    GameRow,
    HeadUpdate,
    ListFilter,
    ListPage,
    SeatsUpdate,
    Snapshot,
    decision_row_from_columns,
    dumps,
    game_row_from_columns,
    list_conditions,
    list_page,
    optional_dumps,
    snapshot_column,
    snapshot_from_columns,
    version_from_column,
)
from .webhooks import DELETE_GAME_WEBHOOKS_SQL, HookEvent, WebhookRows, outbox_steps
from .webhooks import POSTGRES_SCHEMA as WEBHOOKS_SCHEMA

NOTIFY_CHANNEL = "brass_game_changes"
_SCHEMA_LOCK_KEY = 0x42_52_41_53  # "BRAS": serializes schema creation between replicas

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    ruleset INTEGER NOT NULL,
    rules_edition INTEGER NOT NULL,
    players INTEGER NOT NULL,
    seed TEXT,
    options TEXT NOT NULL,
    position_json TEXT,
    seat_names TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    version BIGINT NOT NULL,
    status INTEGER NOT NULL,
    current_seat INTEGER,
    decision TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_creation ON games (created_at DESC, game_id DESC);
CREATE TABLE IF NOT EXISTS decisions (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    from_version BIGINT NOT NULL,
    to_version BIGINT NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    idempotency_key TEXT,
    fingerprint TEXT NOT NULL,
    events TEXT NOT NULL,
    response BYTEA NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    state_hash TEXT,
    CONSTRAINT decisions_version_key PRIMARY KEY (game_id, from_version),
    CONSTRAINT decisions_idempotency_key UNIQUE (game_id, idempotency_key)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    version BIGINT NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE IF NOT EXISTS store_probe (
    id INTEGER PRIMARY KEY,
    probed_at DOUBLE PRECISION NOT NULL
);
""" + ACCOUNTS_SCHEMA + RATINGS_SCHEMA + CHALLENGES_SCHEMA + WEBHOOKS_SCHEMA + ARENAS_SCHEMA \
    + "".join(
    # the columns a database made by an earlier version lacks
    f"ALTER TABLE games ADD COLUMN IF NOT EXISTS {name} {kind};\n"
    for name, kind in GAME_COLUMNS_ADDED
) + "".join(f"{index};\n" for index in (DUE_INDEX, *LIST_INDEXES))

log = structlog.get_logger("brass_service.store")

T = TypeVar("T")

# How long a request waits for a pooled connection before it answers UNAVAILABLE.
POOL_WAIT_SECONDS = 3.0
# How long a request waits for the answer to its statements (pool wait included) before it
# is abandoned and answers UNAVAILABLE. Every statement here is an indexed one-row read or
# write, or one page of games: far below this unless the server hangs.
STATEMENT_SECONDS = 5.0
# Connection defaults, unless the URL sets them: give up connecting after this long
# (libpq's minimum is 2), and notice a vanished server by TCP keepalives (idle 5 s, then 2
# probes 2 s apart) and by data left unacknowledged for 5 s.
CONNECT_TIMEOUT_SECONDS = 3
_CONNECTION_DEFAULTS = {
    "connect_timeout": CONNECT_TIMEOUT_SECONDS,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 2,
    "tcp_user_timeout": 5000,
}
# What the driver raises when the server cannot be reached, went away or refused the work
# for want of resources (disk full, too many connections): the store is unavailable.
_UNREACHABLE = (psycopg.OperationalError, psycopg.InterfaceError)
_PROBE_SQL = (
    "INSERT INTO store_probe (id, probed_at) VALUES (1, %s) "
    "ON CONFLICT (id) DO UPDATE SET probed_at = EXCLUDED.probed_at"
)


def _connection_options(url: str) -> dict[str, Any]:
    given = conninfo_to_dict(url)
    return {key: value for key, value in _CONNECTION_DEFAULTS.items() if key not in given}


class PostgresStore:
    def __init__(self, url: str, min_size: int = 1, max_size: int = 8) -> None:
        self.url = url
        self._options = _connection_options(url)
        self._pool = AsyncConnectionPool(
            url, min_size=min_size, max_size=max_size, open=False,
            kwargs={"autocommit": True, **self._options}, timeout=POOL_WAIT_SECONDS,
        )
        self._failures = FailureTracker()
        self._listeners: list[ChangeListener] = []
        self._listen_task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self.accounts = AccountRows(self)
        self.ratings = RatingRows(self)
        self.challenges = ChallengeRows(self)
        self.webhooks = WebhookRows(self)
        self.arenas = ArenaRows(self)

    async def open(self) -> None:
        try:
            await self._pool.open(wait=True, timeout=10)
            async with self._pool.connection() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK_KEY,))
                await conn.execute(SCHEMA)
        except (psycopg.Error, TimeoutError) as exc:
            raise StoreUnavailable(f"postgresql: {exc}") from exc
        self._listen_task = asyncio.create_task(self._listen_forever(), name="pg-listen")
        # Start serving only once LISTEN is in place, so no notification is lost.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), timeout=10)

    async def close(self) -> None:
        if self._listen_task is not None:
            self._listen_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listen_task
        await self._pool.close()

    def add_listener(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)

    async def _listen_forever(self) -> None:
        lost = False  # (logged once per outage, not at every attempt)
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, **self._options
                )
                async with conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._listening.set()
                    if lost:
                        log.info("listen_connection_restored")
                        lost = False
                    async for note in conn.notifies():
                        game_id, _, version = note.payload.rpartition(":")
                        for listener in self._listeners:
                            result = listener(game_id, int(version))
                            if asyncio.iscoroutine(result):
                                await result
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # reconnect: watchers poll meanwhile, nothing is lost
                if not lost:
                    log.warning("listen_connection_lost", error=str(exc))
                    lost = True
                await asyncio.sleep(1.0)

    def _unavailable(self, kind: str, exc: Exception) -> StoreUnavailable:
        cause = f"postgresql: {type(exc).__name__}: {exc}".strip()
        self._failures.failed(kind, cause)
        return StoreUnavailable(cause)

    async def _bounded(self, kind: str, work: Coroutine[Any, Any, T]) -> T:
        """Awaits `work` (the statements of one store call) for at most STATEMENT_SECONDS,
        then cancels it and answers UNAVAILABLE. psycopg's cancellation first asks the
        server to cancel the statement, which on a hung server waits up to 10 s more
        (measured: running the work as its own task, abandoned at the deadline, answers
        at once but costs 17 us of CPU per call; this, 6 us). A cancelled write may still
        have committed: its retry with the same idempotency key or expected version is
        then answered from it, never applied twice."""
        try:
            async with asyncio.timeout(STATEMENT_SECONDS):
                return await work
        except TimeoutError as exc:
            raise self._unavailable(
                kind, TimeoutError(f"no answer within {STATEMENT_SECONDS:g} s")
            ) from exc
        except _UNREACHABLE as exc:
            raise self._unavailable(kind, exc) from exc

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        async def fetch() -> list[dict[str, Any]]:
            async with self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
                await cur.execute(sql, params)
                return list(await cur.fetchall())

        rows = await self._bounded(FailureTracker.READS, fetch())
        self._failures.succeeded(FailureTracker.READS)
        return rows

    async def sql_rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        return await self._fetch(sql, params)

    async def sql_apply(self, steps: Sequence[Step]) -> None:
        async def apply() -> None:
            async with self._pool.connection() as conn, conn.transaction():
                await _apply_steps(conn, steps)

        try:
            await self._bounded(FailureTracker.WRITES, apply())
        except pg_errors.UniqueViolation as exc:  # two replicas at once: one wins
            raise RowConflict(str(exc)) from exc
        self._failures.succeeded(FailureTracker.WRITES)

    async def sql_claim(self, select_sql: str, params: tuple[Any, ...],
                        lease: tuple[str, float]) -> list[dict[str, Any]]:
        # FOR UPDATE SKIP LOCKED: replicas claiming at once each take other rows.
        async def claim() -> list[dict[str, Any]]:
            async with self._pool.connection() as conn, conn.transaction():
                cur = conn.cursor(row_factory=dict_row)
                await cur.execute(select_sql.replace("{lock}", "FOR UPDATE OF o SKIP LOCKED"),
                                  params)
                rows = list(await cur.fetchall())
                if rows:
                    await conn.execute(
                        "UPDATE webhook_outbox SET lease_owner = %s, lease_until = %s "
                        "WHERE seq = ANY(%s)", (*lease, [row["seq"] for row in rows]))
                return rows

        rows = await self._bounded(FailureTracker.WRITES, claim())
        self._failures.succeeded(FailureTracker.WRITES)
        return rows

    async def health(self) -> StoreHealth:
        with contextlib.suppress(StoreUnavailable):  # (recorded by the tracker)
            await self._fetch("SELECT 1", ())
        failures = self._failures
        if failures.failing(FailureTracker.WRITES) and failures.probe_due():

            async def probe() -> None:
                async with self._pool.connection() as conn:
                    await conn.execute(_PROBE_SQL, (time.time(),))

            with contextlib.suppress(StoreUnavailable):  # (recorded by the tracker)
                await self._bounded(FailureTracker.WRITES, probe())
                failures.succeeded(FailureTracker.WRITES)
        return failures.health()

    async def create_game(self, game: GameRow, snapshot: Snapshot,
                          hooks: Sequence[HookEvent] = ()) -> int | None:
        async def create() -> None:
            async with self._pool.connection() as conn, conn.transaction():
                await conn.execute(
                    f"INSERT INTO games ({GAME_COLUMNS}) VALUES "
                    "(" + ", ".join(["%s"] * GAME_COLUMN_COUNT) + ")",
                    _game_values(game),
                )
                await conn.execute(
                    "INSERT INTO snapshots (game_id, version, data) VALUES (%s, %s, %s)",
                    (game.game_id, snapshot.version, snapshot_column(snapshot)),
                )
                await _apply_steps(conn, outbox_steps(hooks))

        await self._bounded(FailureTracker.WRITES, create())
        self._failures.succeeded(FailureTracker.WRITES)
        return None  # no change marks: replicas check the head on every read

    async def get_game(self, game_id: str) -> GameRow | None:
        rows = await self._fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = %s", (game_id,))
        return game_row_from_columns(rows[0]) if rows else None

    def change_mark(self, game_id: str | None = None) -> int | None:
        return None  # other replicas write at any time: every read checks the head

    async def head_version(self, game_id: str) -> int | None:
        head = await self.head(game_id)
        return head[0] if head is not None else None

    async def head(self, game_id: str) -> tuple[int, int] | None:
        rows = await self._fetch(
            "SELECT version, seats_revision FROM games WHERE game_id = %s", (game_id,)
        )
        if not rows:
            return None
        return (version_from_column(game_id, rows[0]["version"]),
                version_from_column(game_id, rows[0]["seats_revision"]))

    async def latest_snapshot(
        self, game_id: str, at_most: int | None = None
    ) -> Snapshot | None:
        rows = await self._fetch(
            "SELECT version, data FROM snapshots WHERE game_id = %s AND version <= %s "
            "ORDER BY version DESC LIMIT 1",
            (game_id, NO_VERSION_LIMIT if at_most is None else at_most),
        )
        if not rows:
            return None
        return snapshot_from_columns(game_id, rows[0]["version"], rows[0]["data"])

    async def decisions_after(
        self, game_id: str, version: int, up_to: int | None = None, limit: int | None = None
    ) -> list[DecisionRow]:
        sql = (f"SELECT {DECISION_COLUMNS} FROM decisions WHERE game_id = %s "
               f"AND to_version > %s AND {FROM_SPANNING_SQL}")
        params: list[Any] = [game_id, version, game_id, version]
        if up_to is not None:
            sql += " AND to_version <= %s"
            params.append(up_to)
        sql += " ORDER BY from_version"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(limit)
        return [decision_row_from_columns(r) for r in await self._fetch(sql, tuple(params))]

    async def find_decision_by_key(self, game_id: str, key: str) -> DecisionRow | None:
        rows = await self._fetch(
            f"SELECT {DECISION_COLUMNS} FROM decisions "
            "WHERE game_id = %s AND idempotency_key = %s",
            (game_id, key),
        )
        return decision_row_from_columns(rows[0]) if rows else None

    async def append_decision(
        self, row: DecisionRow, head: HeadUpdate, snapshot: Snapshot | None,
        hooks: Sequence[HookEvent] = (),
    ) -> int | None:
        # One statement, so one round trip and its own transaction: the head moves only if
        # it is still on row.from_version, the decision (snapshot, webhooks' events) is
        # added only if it moved, and the notification goes out with the commit.
        snapshot_part = ""
        params: list[Any] = [
            head.version, head.status, head.current_seat, head.decision, head.updated_at,
            optional_dumps(head.clock), head.next_due, row.game_id, row.from_version,
            head.seats_revision, head.seats_revision,
            *_decision_values(row),
        ]
        if snapshot is not None:
            snapshot_part = (
                ", kept AS (INSERT INTO snapshots (game_id, version, data) "
                "SELECT game_id, %s, %s FROM moved "
                "ON CONFLICT (game_id, version) DO UPDATE SET data = EXCLUDED.data)"
            )
            params += [snapshot.version, snapshot_column(snapshot)]
        # the webhooks' events of the decision: inserts of the same statement, made only
        # if the decision was added (store/webhooks.py)
        hooks_part = ""
        for index, (step_sql, step_params, _) in enumerate(outbox_steps(hooks)):
            hooks_part += f", hook{index} AS ({step_sql} WHERE EXISTS (SELECT 1 FROM added))"
            params += step_params
        params += [NOTIFY_CHANNEL, f"{row.game_id}:{head.version}"]
        sql = (
            "WITH moved AS (UPDATE games SET version = %s, status = %s, current_seat = %s, "
            "decision = %s, updated_at = %s, clock = %s, next_due = %s "
            "WHERE game_id = %s AND version = %s "
            "AND (%s::BIGINT IS NULL OR seats_revision = %s) RETURNING game_id), "
            f"added AS (INSERT INTO decisions ({DECISION_COLUMNS}) "
            "SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s FROM moved RETURNING game_id)"
            f"{snapshot_part}{hooks_part} SELECT pg_notify(%s, %s) FROM added"
        )

        async def append() -> list[Any]:
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return await cur.fetchall()

        try:
            notified = await self._bounded(FailureTracker.WRITES, append())
        except pg_errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "decisions_idempotency_key":
                raise IdempotencyConflict(row.game_id) from exc
            raise VersionConflict(row.game_id) from exc
        self._failures.succeeded(FailureTracker.WRITES)
        if len(notified) != 1:
            raise VersionConflict(row.game_id)
        return None

    async def list_games(
        self, limit: int, cursor: tuple[float, str] | None, status: int | None,
        where: ListFilter | None = None,
    ) -> ListPage:
        sql, params = list_games_sql(limit, cursor, status, where)
        return list_page(await self._fetch(sql, tuple(params)), limit)

    async def count_games(self, status: int | None) -> int:
        if status is None:
            rows = await self._fetch(COUNT_ALL_SQL, ())
        else:
            rows = await self._fetch(COUNT_SQL, (status,))
        return int(rows[0]["n"])

    async def idle_games(self, status: int, updated_before: float, limit: int) -> list[str]:
        rows = await self._fetch(IDLE_SQL, (status, updated_before, updated_before, limit))
        return [str(row["game_id"]) for row in rows]

    async def due_games(self, now: float, limit: int) -> list[str]:
        rows = await self._fetch(
            "SELECT game_id FROM games WHERE next_due IS NOT NULL AND next_due <= %s "
            "ORDER BY next_due LIMIT %s",
            (now, limit),
        )
        return [str(row["game_id"]) for row in rows]

    async def claim_due(
        self, game_id: str, version: int, seats_revision: int, now: float,
        until: float | None,
    ) -> bool:
        async def claim() -> list[Any]:
            async with self._pool.connection() as conn:
                cur = await conn.execute(
                    "UPDATE games SET next_due = %s WHERE game_id = %s AND version = %s "
                    "AND seats_revision = %s AND next_due IS NOT NULL AND next_due <= %s "
                    "RETURNING game_id",
                    (until, game_id, version, seats_revision, now),
                )
                return await cur.fetchall()

        claimed = await self._bounded(FailureTracker.WRITES, claim())
        self._failures.succeeded(FailureTracker.WRITES)
        return len(claimed) == 1

    async def update_seats(self, game_id: str, update: SeatsUpdate,
                           hooks: Sequence[HookEvent] = ()) -> bool:
        hosting = update.hosting is not None
        extra = ", hosting = %s, clock = %s, next_due = %s" if hosting else ""
        extra_values = ((dumps(update.hosting), optional_dumps(update.clock), update.next_due)
                        if hosting else ())

        async def update_row() -> list[Any]:
            async with self._pool.connection() as conn, conn.transaction():
                # The replicas' watchers hear of the change (lobby events) at once.
                cur = await conn.execute(
                    "WITH moved AS (UPDATE games SET seat_names = %s, token_hashes = %s, "
                    "open_seats = %s, "
                    f"status = COALESCE(%s::INTEGER, status), updated_at = %s{extra}, "
                    "seats_revision = seats_revision + 1 "
                    "WHERE game_id = %s AND seats_revision = %s RETURNING game_id, version) "
                    "SELECT pg_notify(%s, game_id || ':' || version) FROM moved",
                    (dumps(update.seat_names), dumps(update.token_hashes), update.open_seats,
                     update.status, update.updated_at, *extra_values, game_id,
                     update.from_revision, NOTIFY_CHANNEL),
                )
                moved = await cur.fetchall()
                if len(moved) == 1:
                    await _apply_steps(conn, outbox_steps(hooks))
                return moved

        updated = await self._bounded(FailureTracker.WRITES, update_row())
        self._failures.succeeded(FailureTracker.WRITES)
        return len(updated) == 1

    async def delete_game_if_idle(
        self, game_id: str, status: int, updated_before: float
    ) -> bool:
        # One transaction; the games row is locked first, so a decision committed meanwhile
        # (which moves updated_at) either keeps the game or waits and then finds it gone.
        try:
            async with self._pool.connection() as conn, conn.transaction():
                cur = await conn.execute(
                    "SELECT 1 FROM games WHERE game_id = %s AND status = %s AND updated_at < %s "
                    "FOR UPDATE",
                    (game_id, status, updated_before),
                )
                if await cur.fetchone() is None:
                    return False
                await conn.execute(DELETE_GAME_WEBHOOKS_SQL, (game_id,))
                await conn.execute("DELETE FROM webhook_endpoints WHERE game_id = %s", (game_id,))
                for table in ("decisions", "snapshots", "games"):  # children first
                    await conn.execute(f"DELETE FROM {table} WHERE game_id = %s", (game_id,))
        except _UNREACHABLE as exc:
            raise StoreUnavailable(f"postgresql: {exc}") from exc
        return True


async def _apply_steps(conn: psycopg.AsyncConnection[Any], steps: Sequence[Step]) -> None:
    """Runs SqlRunner steps in the connection's transaction (RowConflict: a step changed
    another number of rows than it had to)."""
    for sql, params, expect in steps:
        cursor = await conn.execute(sql, params)
        if expect is not None and cursor.rowcount != expect:
            raise RowConflict(sql.split(" ", 1)[0])


def list_games_sql(
    limit: int, cursor: tuple[float, str] | None, status: int | None,
    where: ListFilter | None = None,
) -> tuple[str, list[Any]]:
    """ListGames' query and parameters (limit + 1 rows: one more says more follow)."""
    sql = f"SELECT {GAME_COLUMNS} FROM games WHERE TRUE"
    params: list[Any] = []
    if status is not None:
        sql += " AND status = %s"
        params.append(status)
    conditions, values = list_conditions(where, "%s")
    sql += conditions
    params.extend(values)
    if cursor is not None:
        sql += " AND (created_at, game_id) < (%s, %s)"
        params.extend(cursor)
    sql += " ORDER BY created_at DESC, game_id DESC LIMIT %s"
    params.append(limit + 1)
    return sql, params


# count_games and idle_games (the expiry sweep): both read games_by_status.
COUNT_ALL_SQL = "SELECT COUNT(*) AS n FROM games"
COUNT_SQL = "SELECT COUNT(*) AS n FROM games WHERE status = %s"
IDLE_SQL = (
    "SELECT game_id FROM games WHERE status = %s AND created_at < %s AND updated_at < %s "
    "LIMIT %s"
)


def _game_values(game: GameRow) -> tuple[Any, ...]:
    return (
        game.game_id,
        game.ruleset,
        game.rules_edition,
        game.players,
        str(game.seed) if game.seed is not None else None,
        stored_options(game.ruleset, game.rules_edition, game.options),
        game.position_json,
        dumps(game.seat_names),
        dumps(game.token_hashes),
        game.created_at,
        game.updated_at,
        game.version,
        game.status,
        game.current_seat,
        game.decision,
        game.visibility,
        game.host_token_hash,
        game.open_seats,
        game.seats_revision,
        optional_dumps(game.hosting),
        optional_dumps(game.clock),
        game.next_due,
    )


def _decision_values(row: DecisionRow) -> tuple[Any, ...]:
    return (
        row.game_id,
        row.from_version,
        row.to_version,
        row.seat,
        dumps(row.action),
        row.idempotency_key,
        row.fingerprint,
        dumps(row.events),
        row.response,
        row.created_at,
        # TEXT: an unsigned 64-bit hash does not fit a signed integer column.
        str(row.state_hash) if row.state_hash is not None else None,
    )
