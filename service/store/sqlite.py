"""SQLite store (the embedded default): one file, WAL journal, synchronous=FULL.

sqlite3 blocks, so statements run off the event loop: reads on a reader thread with its own
connection (WAL lets it read while a write is in progress), writes on one writer thread;
only the one-row head check runs on the loop (it never waits for a lock). The writer
commits whatever writes are waiting in one transaction (group commit), so the fsync that
makes a move durable is shared by all the moves that arrived meanwhile, and one write's
conflict does not undo the others (see _GroupWriter._commit). Other processes
sharing the file are kept honest by the same version checks and unique keys as PostgreSQL,
and see each other's writes through a shared change counter (ChangeCounter).
"""

from __future__ import annotations

import asyncio
import contextlib
import mmap
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from .base import (
    DECISION_COLUMNS,
    GAME_COLUMNS,
    NO_VERSION_LIMIT,
    ChangeListener,
    DecisionRow,
    GameRow,
    HeadUpdate,
    IdempotencyConflict,
    ListPage,
    Snapshot,
    StoreUnavailable,
    VersionConflict,
    decision_row_from_columns,
    dumps,
    game_row_from_columns,
)

T = TypeVar("T")

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
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    version INTEGER NOT NULL,
    status INTEGER NOT NULL,
    current_seat INTEGER,
    decision TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_creation ON games (created_at DESC, game_id DESC);
CREATE TABLE IF NOT EXISTS decisions (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    from_version INTEGER NOT NULL,
    to_version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    idempotency_key TEXT,
    fingerprint TEXT NOT NULL,
    events TEXT NOT NULL,
    response BLOB NOT NULL,
    created_at REAL NOT NULL,
    state_hash TEXT,
    PRIMARY KEY (game_id, from_version),
    UNIQUE (game_id, idempotency_key)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    version INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (game_id, version)
);
"""


# Writes committed together at most; bounds how long the first of them waits.
_MAX_GROUP = 64


def _connect(path: str, busy_timeout_ms: int = 5000) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    # FULL: the WAL is synced at every commit, so an acknowledged move survives a power
    # cut, not just a process crash.
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    return conn


class ChangeCounter:
    """A counter shared by every process that writes one SQLite file through this store,
    in a small memory-mapped file beside it (`<database>-brass-changes`).

    Each write transaction increments it while it holds SQLite's write lock, before its
    commit; so a process that reads the counter and finds only its own increments knows
    that no other process has changed the file since, and may answer from the games it
    holds in memory without reading the store. When another process has written, the
    counter says so (`mark` moves) and the games in memory are checked against the store
    again before use. It is a hint for caches, never data: a lost or reset counter only
    makes the check happen. Processes that write the file by other means are not seen.
    """

    _SIZE = 8

    def __init__(self, database_path: str) -> None:
        path = os.path.realpath(database_path) + "-brass-changes"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if os.fstat(fd).st_size < self._SIZE:
                os.ftruncate(fd, self._SIZE)
            self._map = mmap.mmap(fd, self._SIZE)
        finally:
            os.close(fd)
        self._guard = threading.Lock()
        value = self._read()
        self._own = value  # the counter after this process's last increment
        self._mark = value  # the counter when another process was last seen to write

    def _read(self) -> int:
        return int.from_bytes(self._map[: self._SIZE], "little")

    def bump(self) -> None:
        """Called by the writer inside each write transaction, before its commit."""
        with self._guard:
            value = self._read()
            if value != self._own:
                self._mark = max(self._mark, value)
            self._map[: self._SIZE] = (value + 1).to_bytes(self._SIZE, "little")
            self._own = value + 1

    def mark(self) -> int:
        """Moves whenever another process has written the file since the last call."""
        if self._read() != self._own:
            with self._guard:  # (so this process's writer is not caught mid-increment)
                value = self._read()
                if value != self._own:
                    self._mark = max(self._mark, value)
        return self._mark

    def close(self) -> None:
        with contextlib.suppress(BufferError, ValueError):
            self._map.close()


class _GroupWriter(threading.Thread):
    """The one thread that writes: drains the queue, commits the batch once."""

    def __init__(self, path: str) -> None:
        super().__init__(name="sqlite-writer", daemon=True)
        self.path = path
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        self.counter: ChangeCounter | None = None

    def run(self) -> None:
        try:
            conn = _connect(self.path)
            conn.executescript(SCHEMA)
        except BaseException as exc:
            self.failure = exc
            self.ready.set()
            return
        self.ready.set()
        try:
            while True:
                job = self.jobs.get()
                if job is None:
                    return
                batch = [job]
                while len(batch) < _MAX_GROUP:
                    try:
                        more = self.jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self.jobs.put(None)  # stop after this batch
                        break
                    batch.append(more)
                self._commit(conn, batch)
        finally:
            conn.close()

    def _commit(self, conn: sqlite3.Connection, batch: list[Any]) -> None:
        """Runs the batch's jobs in one transaction and commits it once.

        A job either succeeds or refuses (VersionConflict, IdempotencyConflict) having
        changed nothing, which leaves the other jobs alone (no savepoint needed: a failed
        statement undoes itself, and append_decision checks before it writes for good).
        Any other failure in a job rolls the transaction back and the batch is run again
        without that job, which alone gets the error; a failure of BEGIN or COMMIT fails
        every job of the batch with StoreUnavailable.
        """
        # (loop, future, error, result) for each job of the batch
        outcomes: list[tuple[Any, Any, BaseException | None, Any]] = []
        pending = list(batch)
        while pending:
            results: list[tuple[Any, Any, BaseException | None, Any]] = []
            failed: tuple[int, BaseException] | None = None
            try:
                conn.execute("BEGIN IMMEDIATE")
                if self.counter is not None:
                    self.counter.bump()  # under the write lock, before the commit
                for index, (fn, loop, future) in enumerate(pending):
                    try:
                        results.append((loop, future, None, fn(conn)))
                    except (VersionConflict, IdempotencyConflict) as refusal:
                        results.append((loop, future, refusal, None))
                    except Exception as exc:
                        failed = (index, exc)
                        break
                if failed is None:
                    conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                failure = StoreUnavailable(f"sqlite: {exc}")
                outcomes += [(loop, future, failure, None) for _fn, loop, future in pending]
                break
            if failed is None:
                outcomes += results
                break
            conn.execute("ROLLBACK")
            index, exc = failed
            _fn, loop, future = pending.pop(index)
            error = StoreUnavailable(f"sqlite: {exc}") if isinstance(exc, sqlite3.Error) else exc
            outcomes.append((loop, future, error, None))
        # One wake-up per event loop for the whole batch, not one per write.
        by_loop: dict[Any, list[tuple[Any, BaseException | None, Any]]] = {}
        for loop, future, error, result in outcomes:
            by_loop.setdefault(loop, []).append((future, error, result))
        for loop, settled in by_loop.items():
            loop.call_soon_threadsafe(_settle_all, settled)


def _settle_all(settled: list[tuple[asyncio.Future[Any], BaseException | None, Any]]) -> None:
    for future, error, result in settled:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


class SqliteStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-reader")
        self._reader_conn: sqlite3.Connection | None = None
        # The head check (one indexed row, a few microseconds in WAL mode, where readers
        # never wait for the writer) runs on the event loop itself: a thread hop would cost
        # more than the query. It never waits for a lock either (busy_timeout 0): when it
        # cannot read at once it goes to the reader thread.
        self._loop_conn: sqlite3.Connection | None = None
        self._writer = _GroupWriter(self.path)
        self._counter: ChangeCounter | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Runs a read on the reader thread."""

        def call() -> T:
            assert self._reader_conn is not None, "store is not open"
            try:
                return fn(self._reader_conn)
            except sqlite3.OperationalError as exc:
                raise StoreUnavailable(f"sqlite: {exc}") from exc

        return await asyncio.get_running_loop().run_in_executor(self._reader, call)

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Queues a write for the next group commit; returns once it is durable."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._writer.jobs.put((fn, loop, future))
        return await future

    async def open(self) -> None:
        try:
            self._counter = ChangeCounter(self.path)
        except OSError:
            self._counter = None  # no shared counter: every read checks the store
        self._writer.counter = self._counter
        self._writer.start()
        await asyncio.get_running_loop().run_in_executor(None, self._writer.ready.wait)
        if self._writer.failure is not None:
            raise StoreUnavailable(f"sqlite: {self._writer.failure}") from self._writer.failure

        def connect() -> None:
            self._reader_conn = _connect(self.path)

        await asyncio.get_running_loop().run_in_executor(self._reader, connect)
        self._loop_conn = _connect(self.path, busy_timeout_ms=0)
        self._loop_conn.row_factory = None

    async def close(self) -> None:
        def disconnect() -> None:
            if self._reader_conn is not None:
                self._reader_conn.close()
                self._reader_conn = None

        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None
        self._writer.jobs.put(None)
        await asyncio.get_running_loop().run_in_executor(None, self._writer.join)
        await asyncio.get_running_loop().run_in_executor(self._reader, disconnect)
        self._reader.shutdown(wait=True)
        if self._counter is not None:
            self._counter.close()

    def change_mark(self) -> int | None:
        """See ChangeCounter: equal marks mean no other process wrote in between."""
        return self._counter.mark() if self._counter is not None else None

    def add_listener(self, listener: ChangeListener) -> None:
        # Only this process writes through this store object; the service notifies its own
        # watchers directly. Other processes on the same file are caught by polling.
        return None

    async def create_game(self, game: GameRow, snapshot: Snapshot) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _game_values(game),
            )
            conn.execute(
                "INSERT INTO snapshots (game_id, version, data) VALUES (?, ?, ?)",
                (game.game_id, snapshot.version, snapshot.data),
            )

        await self._write(write)

    async def get_game(self, game_id: str) -> GameRow | None:
        def read(conn: sqlite3.Connection) -> GameRow | None:
            row = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            return game_row_from_columns(dict(row)) if row else None

        return await self._run(read)

    async def head_version(self, game_id: str) -> int | None:
        sql = "SELECT version FROM games WHERE game_id = ?"
        conn = self._loop_conn
        if conn is not None:
            try:
                rows = conn.execute(sql, (game_id,)).fetchall()
                return int(rows[0][0]) if rows else None
            except sqlite3.OperationalError:
                pass  # busy (or worse): the reader thread waits, or reports it

        def read(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(sql, (game_id,)).fetchone()
            return int(row[0]) if row else None

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
            return Snapshot(int(row["version"]), bytes(row["data"])) if row else None

        return await self._run(read)

    async def decisions_after(
        self, game_id: str, version: int, up_to: int | None = None, limit: int | None = None
    ) -> list[DecisionRow]:
        def read(conn: sqlite3.Connection) -> list[DecisionRow]:
            sql = f"SELECT {DECISION_COLUMNS} FROM decisions WHERE game_id = ? AND to_version > ?"
            params: list[Any] = [game_id, version]
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
        self, row: DecisionRow, head: HeadUpdate, snapshot: Snapshot | None
    ) -> None:
        def write(conn: sqlite3.Connection) -> None:
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
            moved = conn.execute(
                "UPDATE games SET version = ?, status = ?, current_seat = ?, decision = ?, "
                "updated_at = ? WHERE game_id = ? AND version = ?",
                (
                    head.version,
                    head.status,
                    head.current_seat,
                    head.decision,
                    head.updated_at,
                    row.game_id,
                    row.from_version,
                ),
            ).rowcount
            if moved != 1:  # the head is elsewhere: take the decision back, change nothing
                conn.execute(
                    "DELETE FROM decisions WHERE game_id = ? AND from_version = ?",
                    (row.game_id, row.from_version),
                )
                raise VersionConflict(row.game_id)
            if snapshot is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, version, data) VALUES (?, ?, ?)",
                    (row.game_id, snapshot.version, snapshot.data),
                )

        await self._write(write)

    async def list_games(
        self, limit: int, cursor: tuple[float, str] | None, status: int | None
    ) -> ListPage:
        def read(conn: sqlite3.Connection) -> ListPage:
            sql = f"SELECT {GAME_COLUMNS} FROM games WHERE 1 = 1"
            params: list[Any] = []
            if status is not None:
                sql += " AND status = ?"
                params.append(status)
            if cursor is not None:
                sql += " AND (created_at < ? OR (created_at = ? AND game_id < ?))"
                params.extend([cursor[0], cursor[0], cursor[1]])
            sql += " ORDER BY created_at DESC, game_id DESC LIMIT ?"
            params.append(limit + 1)
            rows = [game_row_from_columns(dict(r)) for r in conn.execute(sql, params)]
            more = len(rows) > limit
            rows = rows[:limit]
            next_cursor = (rows[-1].created_at, rows[-1].game_id) if more and rows else None
            return ListPage(rows, next_cursor)

        return await self._run(read)

    async def count_games(self, status: int | None) -> int:
        def read(conn: sqlite3.Connection) -> int:
            if status is None:
                return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            return int(
                conn.execute("SELECT COUNT(*) FROM games WHERE status = ?", (status,)).fetchone()[0]
            )

        return await self._run(read)


def _game_values(game: GameRow) -> tuple[Any, ...]:
    return (
        game.game_id,
        game.ruleset,
        game.rules_edition,
        game.players,
        # TEXT: a 64-bit unsigned seed does not fit SQLite's signed INTEGER.
        str(game.seed) if game.seed is not None else None,
        dumps(game.options),
        game.position_json,
        dumps(game.seat_names),
        dumps(game.token_hashes),
        game.created_at,
        game.updated_at,
        game.version,
        game.status,
        game.current_seat,
        game.decision,
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
