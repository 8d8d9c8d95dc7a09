"""SQLite store (the embedded default): one file, WAL journal, synchronous=FULL.

sqlite3 blocks, so statements run off the event loop: reads on a reader thread with its own
connection (WAL lets it read while a write is in progress), writes on one writer thread;
only the one-row head check runs on the loop (it never waits for a lock). The writer
commits whatever writes are waiting in one transaction (group commit), so the fsync that
makes a move durable is shared by all the moves that arrived meanwhile, and one write's
conflict does not undo the others (see GroupWriter._commit). Other processes sharing the
file are kept honest by the same version checks and unique keys as PostgreSQL, and see each
other's writes through shared change stamps (ChangeStamps). The connections, the schema,
the writer thread and the stamps are in sqlite_conn.py; this module holds the queries.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from .accounts import AccountRows, RowConflict, Step
from .arenas import ArenaRows
from .base import (
    ChangeListener,
    FailureTracker,
    IdempotencyConflict,
    StoreHealth,
    StoreUnavailable,
    VersionConflict,
)
from .challenges import ChallengeRows
from .options import stored_options
from .ratings import RatingRows
from .rows import (
    DECISION_COLUMNS,
    FROM_SPANNING_SQL,
    GAME_COLUMN_COUNT,
    GAME_COLUMNS,
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
from .sqlite_conn import (
    DEFAULT_COMMIT_WAIT_MS,
    STATEMENT_ERRORS,
    ChangeStamps,
    GroupWriter,
    WriterLock,
    open_connection,
)
from .sqlite_loop import LoopWriter
from .webhooks import (
    ANY_ENDPOINT_SQL,
    DELETE_GAME_WEBHOOKS_SQL,
    HookEvent,
    WebhookRows,
    outbox_steps,
)

T = TypeVar("T")

# The probe write of /healthz while writes fail (see Store.health).
_PROBE_SQL = "INSERT OR REPLACE INTO store_probe (id, probed_at) VALUES (1, ?)"


class SqliteStore:
    def __init__(self, path: str | Path, commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS,
                 loop_writes: bool = True) -> None:
        self.path = str(path)
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-reader")
        self._reader_conn: sqlite3.Connection | None = None
        # The head check (one indexed row, a few microseconds in WAL mode, where readers
        # never wait for the writer) runs on the event loop itself: a thread hop would cost
        # more than the query. It never waits for a lock either (busy_timeout 0): when it
        # cannot read at once it goes to the reader thread.
        self._loop_conn: sqlite3.Connection | None = None
        self._writer = GroupWriter(self.path, commit_wait_ms)
        # Writes run on the event loop (sqlite_loop.py); GroupWriter's thread takes those
        # that find SQLite's own lock taken (a writer outside the store), those after a
        # failed WAL sync, and all of them without loop writes.
        self._loop_writes = loop_writes
        self._loop_writer: LoopWriter | None = None
        self._stamps: ChangeStamps | None = None
        self.accounts = AccountRows(self)
        self.ratings = RatingRows(self)
        self.challenges = ChallengeRows(self)
        self.webhooks = WebhookRows(self)
        self.arenas = ArenaRows(self)

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Runs a read on the reader thread."""

        failures = self._writer.failures

        def call() -> T:
            assert self._reader_conn is not None, "store is not open"
            try:
                result = fn(self._reader_conn)
            except sqlite3.Error as exc:
                if isinstance(exc, STATEMENT_ERRORS):
                    raise
                failures.failed(FailureTracker.READS, f"sqlite: {exc}")
                raise StoreUnavailable(f"sqlite: {exc}") from exc
            failures.succeeded(FailureTracker.READS)
            return result

        return await asyncio.get_running_loop().run_in_executor(self._reader, call)

    async def _write(
        self, fn: Callable[[sqlite3.Connection], Any], game_id: str | None = None
    ) -> Any:
        """Commits a write on the event loop, or else queues it for GroupWriter's next group
        commit; returns once it is durable (with the game's new change stamp when `game_id`
        is given and stamps are kept)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self._loop_writer is not None and self._loop_writer.open_for_writes:
            self._loop_writer.submit((fn, loop, future, game_id))
        else:
            self._writer.jobs.put((fn, loop, future, game_id))
        return await future

    async def sql_rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        text = sql.replace("%s", "?")
        return await self._run(
            lambda conn: [dict(row) for row in conn.execute(text, params).fetchall()])

    async def sql_apply(self, steps: Sequence[Step]) -> None:
        await self._write(lambda conn: apply_steps(conn, steps))

    async def sql_claim(self, select_sql: str, params: tuple[Any, ...],
                        lease: tuple[str, float]) -> list[dict[str, Any]]:
        # Through the writer: its transaction (BEGIN IMMEDIATE, and the file lock between
        # processes) makes the read and the lease one step no other process interleaves.
        # (Its result is the change stamp: the rows come back through the list.)
        rows: list[dict[str, Any]] = []
        await self._write(lambda conn: rows.extend(claim_rows(conn, select_sql, params, lease)))
        return rows

    async def open(self) -> None:
        try:
            self._writer.lock = WriterLock(self.path)
            self._stamps = ChangeStamps(self.path)
        except OSError as exc:
            if self._writer.lock is not None:
                self._writer.lock.close()
            self._writer.lock, self._stamps = None, None
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                # Going on without stamps would leave the other processes on this file
                # trusting games this one writes.
                raise StoreUnavailable(
                    f"sqlite: no space for the change stamps beside {self.path}: {exc}"
                ) from exc
            # otherwise no shared files (none can be made here): every read checks the store
        self._writer.stamps = self._stamps
        self._writer.start()
        await asyncio.get_running_loop().run_in_executor(None, self._writer.ready.wait)
        if self._writer.failure is not None:
            raise StoreUnavailable(f"sqlite: {self._writer.failure}") from self._writer.failure

        def connect() -> None:
            self._reader_conn = open_connection(self.path)

        await asyncio.get_running_loop().run_in_executor(self._reader, connect)
        self._loop_conn = open_connection(self.path, busy_timeout_ms=0)
        self._loop_conn.row_factory = None
        if self._loop_writes:
            self._loop_writer = LoopWriter.opened(
                self.path, self._stamps, self._writer.failures, self._writer.jobs,
                self._writer.commit_wait * 1000)

    async def close(self) -> None:
        def disconnect() -> None:
            if self._reader_conn is not None:
                self._reader_conn.close()
                self._reader_conn = None

        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None
        if self._loop_writer is not None:
            writer = self._loop_writer
            await writer.drain()
            self._loop_writer = None
            await asyncio.get_running_loop().run_in_executor(None, writer.close)
        self._writer.jobs.put(None)
        await asyncio.get_running_loop().run_in_executor(None, self._writer.join)
        await asyncio.get_running_loop().run_in_executor(self._reader, disconnect)
        self._reader.shutdown(wait=True)
        if self._stamps is not None:
            self._stamps.close()
        if self._writer.lock is not None:
            self._writer.lock.close()

    def change_mark(self, game_id: str | None = None) -> int | None:
        """See ChangeStamps. Without a game: a mark that moves when another process writes.
        With one: the stamp of the game's group, None while a write to it is under way."""
        if self._stamps is None:
            return None
        return self._stamps.mark() if game_id is None else self._stamps.stamp(game_id)

    def add_listener(self, listener: ChangeListener) -> None:
        # Only this process writes through this store object; the service notifies its own
        # watchers directly. Other processes on the same file are caught by polling.
        return None

    def _free_bytes(self) -> int | None:
        try:
            fs = os.statvfs(os.path.dirname(os.path.realpath(self.path)))
        except OSError:
            return None
        return fs.f_bavail * fs.f_frsize

    async def health(self) -> StoreHealth:
        failures = self._writer.failures
        with contextlib.suppress(StoreUnavailable):  # (recorded by the tracker)
            await self._run(lambda conn: conn.execute("SELECT 1 FROM games LIMIT 1").fetchall())
        free = self._free_bytes()
        # No space left: another process may be failing to write while this one has not
        # tried yet, so it finds out.
        if (failures.failing(FailureTracker.WRITES) or free == 0) and failures.probe_due():

            def probe(conn: sqlite3.Connection) -> None:
                conn.execute(_PROBE_SQL, (time.time(),))

            with contextlib.suppress(StoreUnavailable):
                await self._write(probe)
        return failures.health(free)

    async def create_game(self, game: GameRow, snapshot: Snapshot,
                          hooks: Sequence[HookEvent] = ()) -> int | None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES "
                "(" + ", ".join(["?"] * GAME_COLUMN_COUNT) + ")",
                _game_values(game),
            )
            conn.execute(
                "INSERT INTO snapshots (game_id, version, data) VALUES (?, ?, ?)",
                (game.game_id, snapshot.version, snapshot_column(snapshot)),
            )
            queue_hooks(conn, hooks)

        return await self._write(write, game.game_id)  # type: ignore[no-any-return]

    async def get_game(self, game_id: str) -> GameRow | None:
        def read(conn: sqlite3.Connection) -> GameRow | None:
            row = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            return game_row_from_columns(dict(row)) if row else None

        return await self._run(read)

    async def head_version(self, game_id: str) -> int | None:
        head = await self.head(game_id)
        return head[0] if head is not None else None

    async def head(self, game_id: str) -> tuple[int, int] | None:
        sql = "SELECT version, seats_revision FROM games WHERE game_id = ?"

        def decode(rows: list[Any]) -> tuple[int, int] | None:
            if not rows:
                return None
            return (version_from_column(game_id, rows[0][0]),
                    version_from_column(game_id, rows[0][1]))

        conn = self._loop_conn
        if conn is not None:
            try:
                return decode(conn.execute(sql, (game_id,)).fetchall())
            except sqlite3.OperationalError:
                pass  # busy (or worse): the reader thread waits, or reports it

        def read(conn: sqlite3.Connection) -> tuple[int, int] | None:
            return decode(conn.execute(sql, (game_id,)).fetchall())

        return await self._run(read)

    async def latest_snapshot(
        self, game_id: str, at_most: int | None = None
    ) -> Snapshot | None:
        def read(conn: sqlite3.Connection) -> Snapshot | None:
            row = conn.execute(
                "SELECT version, data FROM snapshots WHERE game_id = ? AND version <= ? "
                "ORDER BY version DESC LIMIT 1",
                (game_id, NO_VERSION_LIMIT if at_most is None else at_most),
            ).fetchone()
            return snapshot_from_columns(game_id, row["version"], row["data"]) if row else None

        return await self._run(read)

    async def decisions_after(
        self, game_id: str, version: int, up_to: int | None = None, limit: int | None = None
    ) -> list[DecisionRow]:
        def read(conn: sqlite3.Connection) -> list[DecisionRow]:
            sql = (f"SELECT {DECISION_COLUMNS} FROM decisions WHERE game_id = ? "
                   f"AND to_version > ? AND {FROM_SPANNING_SQL.replace('%s', '?')}")
            params: list[Any] = [game_id, version, game_id, version]
            if up_to is not None:
                sql += " AND to_version <= ?"
                params.append(up_to)
            sql += " ORDER BY from_version"
            if limit is not None:
                sql += " LIMIT ?"
                params.append(limit)
            return [decision_row_from_columns(dict(r)) for r in conn.execute(sql, params)]

        return await self._run(read)

    async def find_decision_by_key(self, game_id: str, key: str) -> DecisionRow | None:
        def read(conn: sqlite3.Connection) -> DecisionRow | None:
            row = conn.execute(
                f"SELECT {DECISION_COLUMNS} FROM decisions "
                "WHERE game_id = ? AND idempotency_key = ?",
                (game_id, key),
            ).fetchone()
            return decision_row_from_columns(dict(row)) if row else None

        return await self._run(read)

    async def append_decision(
        self, row: DecisionRow, head: HeadUpdate, snapshot: Snapshot | None,
        hooks: Sequence[HookEvent] = (),
    ) -> int | None:
        return await self._write(  # type: ignore[no-any-return]
            lambda conn: write_decision(conn, row, head, snapshot, hooks), row.game_id)

    async def list_games(
        self, limit: int, cursor: tuple[float, str] | None, status: int | None,
        where: ListFilter | None = None,
    ) -> ListPage:
        sql, params = list_games_sql(limit, cursor, status, where)

        def read(conn: sqlite3.Connection) -> ListPage:
            return list_page([dict(r) for r in conn.execute(sql, params)], limit)

        return await self._run(read)

    async def count_games(self, status: int | None) -> int:
        def read(conn: sqlite3.Connection) -> int:
            if status is None:
                return int(conn.execute(COUNT_ALL_SQL).fetchone()[0])
            return int(conn.execute(COUNT_SQL, (status,)).fetchone()[0])

        return await self._run(read)

    async def idle_games(self, status: int, updated_before: float, limit: int) -> list[str]:
        def read(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute(
                IDLE_SQL, (status, updated_before, updated_before, limit)
            ).fetchall()
            return [str(row[0]) for row in rows]

        return await self._run(read)

    async def due_games(self, now: float, limit: int) -> list[str]:
        def read(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute(
                "SELECT game_id FROM games WHERE next_due IS NOT NULL AND next_due <= ? "
                "ORDER BY next_due LIMIT ?",
                (now, limit),
            ).fetchall()
            return [str(row[0]) for row in rows]

        return await self._run(read)

    async def claim_due(
        self, game_id: str, version: int, seats_revision: int, now: float,
        until: float | None,
    ) -> bool:
        claimed = False

        def write(conn: sqlite3.Connection) -> None:
            nonlocal claimed
            claimed = conn.execute(
                "UPDATE games SET next_due = ? WHERE game_id = ? AND version = ? "
                "AND seats_revision = ? AND next_due IS NOT NULL AND next_due <= ?",
                (until, game_id, version, seats_revision, now),
            ).rowcount == 1

        await self._write(write, game_id)
        return claimed

    async def update_seats(self, game_id: str, update: SeatsUpdate,
                           hooks: Sequence[HookEvent] = ()) -> bool:
        applied = False

        hosting = update.hosting is not None
        extra = ", hosting = ?, clock = ?, next_due = ?" if hosting else ""
        extra_values = ((dumps(update.hosting), optional_dumps(update.clock), update.next_due)
                        if hosting else ())

        def write(conn: sqlite3.Connection) -> None:
            nonlocal applied
            applied = conn.execute(
                "UPDATE games SET seat_names = ?, token_hashes = ?, open_seats = ?, "
                f"status = COALESCE(?, status), updated_at = ?{extra}, "
                "seats_revision = seats_revision + 1 "
                "WHERE game_id = ? AND seats_revision = ?",
                (dumps(update.seat_names), dumps(update.token_hashes), update.open_seats,
                 update.status, update.updated_at, *extra_values, game_id,
                 update.from_revision),
            ).rowcount == 1
            if applied:
                queue_hooks(conn, hooks)

        # Through the writer, with the game's change stamp moved (other processes re-read).
        await self._write(write, game_id)
        return applied

    async def delete_game_if_idle(
        self, game_id: str, status: int, updated_before: float
    ) -> bool:
        deleted = False

        def write(conn: sqlite3.Connection) -> None:
            nonlocal deleted
            idle = conn.execute(
                "SELECT 1 FROM games WHERE game_id = ? AND status = ? AND updated_at < ?",
                (game_id, status, updated_before),
            ).fetchone()
            if idle is None:
                return
            conn.execute(DELETE_GAME_WEBHOOKS_SQL.replace("%s", "?"), (game_id,))
            conn.execute("DELETE FROM webhook_endpoints WHERE game_id = ?", (game_id,))
            for table in ("decisions", "snapshots", "games"):  # children first (foreign keys)
                conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            deleted = True

        # Through the writer, with the game's change stamp moved: other processes holding
        # the game in memory check the store before using it again.
        await self._write(write, game_id)
        return deleted


def write_decision(conn: sqlite3.Connection, row: DecisionRow, head: HeadUpdate,
                   snapshot: Snapshot | None, hooks: Sequence[HookEvent]) -> None:
    """append_decision's transaction: the decision, the head moved, the snapshot if any,
    the webhooks' events; refuses (VersionConflict, IdempotencyConflict) having changed
    nothing."""
    # The decision first: its keys refuse a move on a version someone else already
    # moved from, or a reused idempotency key, before anything is changed (the
    # failed INSERT undoes itself).
    try:
        conn.execute(
            f"INSERT INTO decisions ({DECISION_COLUMNS}) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _decision_values(row),
        )
    except sqlite3.IntegrityError as exc:
        if "idempotency_key" in str(exc):
            raise IdempotencyConflict(row.game_id) from exc
        raise VersionConflict(row.game_id) from exc
    values = (
        head.version,
        head.current_seat,
        head.decision,
        head.updated_at,
        optional_dumps(head.clock),
        head.next_due,
        row.game_id,
        row.from_version,
        head.seats_revision,
        head.seats_revision,
        head.status,
    )
    # Most decisions leave the status as it is: the head moves without naming it,
    # since SQLite rewrites the entries of every index of a column the UPDATE sets
    # (the status indexes of the listings), changed or not; otherwise with it.
    moved = conn.execute(_MOVE_HEAD_SQL + " AND status = ?", values).rowcount
    if moved != 1:
        moved = conn.execute(_MOVE_HEAD_SQL.replace("SET ", "SET status = ?, ", 1),
                             (head.status, *values[:-1])).rowcount
    if moved != 1:  # the head is elsewhere: take the decision back, change nothing
        conn.execute(
            "DELETE FROM decisions WHERE game_id = ? AND from_version = ?",
            (row.game_id, row.from_version),
        )
        raise VersionConflict(row.game_id)
    if snapshot is not None:
        conn.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, version, data) VALUES (?, ?, ?)",
            (row.game_id, snapshot.version, snapshot_column(snapshot)),
        )
    # the webhooks' events of the decision, in its transaction (store/webhooks.py)
    queue_hooks(conn, hooks)


def claim_rows(conn: sqlite3.Connection, select_sql: str, params: tuple[Any, ...],
               lease: tuple[str, float]) -> list[dict[str, Any]]:
    """sql_claim's transaction: the rows, each then leased."""
    rows = [dict(row) for row in conn.execute(
        select_sql.replace("{lock}", "").replace("%s", "?"), params)]
    if rows:
        conn.execute("UPDATE webhook_outbox SET lease_owner = ?, lease_until = ? WHERE seq IN ("
                     + ", ".join("?" * len(rows)) + ")", (*lease, *(row["seq"] for row in rows)))
    return rows


def queue_hooks(conn: sqlite3.Connection, hooks: Sequence[HookEvent]) -> None:
    """Writes the outbox rows of `hooks` in the writer's transaction; with no webhook at
    all (asked in the same transaction, so an endpoint another process has committed is
    seen), none is wanted and the events are neither written nor made."""
    if hooks and conn.execute(ANY_ENDPOINT_SQL).fetchone() is not None:
        apply_steps(conn, outbox_steps(hooks))


def apply_steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> None:
    """Runs SqlRunner steps (SQL with %s placeholders) in the writer's transaction.
    (RowConflict is no store failure: GroupWriter runs the batch again without this
    write, which alone gets it.)"""
    for sql, params, expect in steps:
        try:
            count = conn.execute(sql.replace("%s", "?"), params).rowcount
        except sqlite3.IntegrityError as exc:
            raise RowConflict(str(exc)) from exc
        if expect is not None and count != expect:
            raise RowConflict(sql.split(" ", 1)[0])


# append_decision's move of the head (parameters: version, current_seat, decision,
# updated_at, clock, next_due, game_id, from_version, seats_revision twice).
_MOVE_HEAD_SQL = (
    "UPDATE games SET version = ?, current_seat = ?, decision = ?, updated_at = ?, "
    "clock = ?, next_due = ? WHERE game_id = ? AND version = ? "
    "AND (? IS NULL OR seats_revision = ?)"
)


def list_games_sql(
    limit: int, cursor: tuple[float, str] | None, status: int | None,
    where: ListFilter | None = None,
) -> tuple[str, list[Any]]:
    """ListGames' query and parameters (limit + 1 rows: one more says more follow)."""
    sql = f"SELECT {GAME_COLUMNS} FROM games WHERE 1 = 1"
    params: list[Any] = []
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    conditions, values = list_conditions(where, "?")
    sql += conditions
    params.extend(values)
    if cursor is not None:
        # (a row value: a range of the index, where an OR would be a filter on every
        # entry before the cursor)
        sql += " AND (created_at, game_id) < (?, ?)"
        params.extend(cursor)
    sql += " ORDER BY created_at DESC, game_id DESC LIMIT ?"
    params.append(limit + 1)
    return sql, params


# count_games (a count of the index's entries for one status, or of the smallest index's)
# and idle_games (the expiry sweep): both read games_by_status.
COUNT_ALL_SQL = "SELECT COUNT(*) FROM games"
COUNT_SQL = "SELECT COUNT(*) FROM games WHERE status = ?"
IDLE_SQL = (
    "SELECT game_id FROM games WHERE status = ? AND created_at < ? AND updated_at < ? "
    "LIMIT ?"
)


def _game_values(game: GameRow) -> tuple[Any, ...]:
    return (
        game.game_id,
        game.ruleset,
        game.rules_edition,
        game.players,
        # TEXT: a 64-bit unsigned seed does not fit SQLite's signed INTEGER.
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
