"""SQLite store (the embedded default): one file, WAL journal, synchronous=FULL.

sqlite3 blocks, so statements run off the event loop: reads on a reader thread with its own
connection (WAL lets it read while a write is in progress), writes on one writer thread;
only the one-row head check runs on the loop (it never waits for a lock). The writer
commits whatever writes are waiting in one transaction (group commit), so the fsync that
makes a move durable is shared by all the moves that arrived meanwhile, and one write's
conflict does not undo the others (see _GroupWriter._commit). Other processes
sharing the file are kept honest by the same version checks and unique keys as PostgreSQL,
and see each other's writes through shared change stamps (ChangeStamps).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import mmap
import os
import queue
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import structlog

from .base import (
    DECISION_COLUMNS,
    DUE_INDEX,
    FROM_SPANNING_SQL,
    GAME_COLUMN_COUNT,
    GAME_COLUMNS,
    GAME_COLUMNS_ADDED,
    LIST_INDEXES,
    NO_VERSION_LIMIT,
    ChangeListener,
    DecisionRow,
    FailureTracker,
    GameRow,
    HeadUpdate,
    IdempotencyConflict,
    ListFilter,
    ListPage,
    SeatsUpdate,
    Snapshot,
    StoreHealth,
    StoreUnavailable,
    VersionConflict,
    decision_row_from_columns,
    dumps,
    game_row_from_columns,
    list_conditions,
    list_page,
    optional_dumps,
    snapshot_from_columns,
    version_from_column,
)

T = TypeVar("T")
log = structlog.get_logger("brass_service.store")

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
CREATE TABLE IF NOT EXISTS store_probe (
    id INTEGER PRIMARY KEY,
    probed_at REAL NOT NULL
);
"""

# The probe write of /healthz while writes fail (see Store.health).
_PROBE_SQL = "INSERT OR REPLACE INTO store_probe (id, probed_at) VALUES (1, ?)"
# Errors of one statement's own making (a constraint, a bad value), which say nothing of
# whether the store can write; every other sqlite3.Error does (disk full, I/O error, busy).
_STATEMENT_ERRORS = (
    sqlite3.IntegrityError, sqlite3.DataError, sqlite3.ProgrammingError, sqlite3.InterfaceError
)


# Writes committed together at most; bounds how long the first of them waits.
_MAX_GROUP = 64
# Under load, the writer waits this long before a commit so that more writes share it.
DEFAULT_COMMIT_WAIT_MS = 2.0
# "Under load": the previous commit ended less than this many waits ago.
_BUSY_WAITS = 5


def _connect(path: str, busy_timeout_ms: int = 5000, cache_mib: int = 2) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    # FULL: the WAL is synced at every commit, so an acknowledged move survives a power
    # cut, not just a process crash.
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    conn.execute(f"PRAGMA cache_size=-{cache_mib * 1024}")
    return conn


class WriterLock:
    """An exclusive file lock (flock) on `<database>-brass-writer.lock`, held by the writer of
    every process using this store for the whole of each write transaction.

    SQLite's own lock keeps writes correct without it, but a process that finds SQLite's lock
    taken polls for it with sleeps of up to 100 ms (its busy handler), which puts those
    sleeps into the latency of every move when several processes write (`brass serve
    --workers N`). Waiting on this lock instead wakes as soon as the other transaction ends.
    Uncontended, it costs two system calls per group commit.
    """

    def __init__(self, database_path: str) -> None:
        path = os.path.realpath(database_path) + "-brass-writer.lock"
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)

    def __enter__(self) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_EX)  # (releases the GIL while it waits)

    def __exit__(self, *_exc: object) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


class ChangeStamps:
    """Change stamps shared by every process that writes one SQLite file through this store,
    in a memory-mapped file beside it (`<database>-brass-changes`): one for the whole file
    and one per group of games (a game's group: the CRC-32 of its id, modulo GROUPS).

    The writer of each process, holding WriterLock, moves the stamps of the file and of every
    game group its transaction touches to an odd value before the transaction and to the
    next even value after it ends (a sequence lock). Hence:
    - a game in memory that was checked against the store under its group's stamp s (even,
      read before the check) is current while the stamp still reads s: no process has
      written a game of that group since;
    - an odd stamp means a write is under way: the game is checked, and not trusted after;
    - after its own commit a process records its game's new (even) stamp: it knows the head.
    The file's stamp tells `mark()` whether another process has written at all (to wake
    watchers). Stamps are hints for caches, never data: a lost, reset or shared stamp only
    makes the check happen. Processes that write the file by other means are not seen.

    The file's blocks are allocated when it is opened (posix_fallocate): a store into a
    memory-mapped page that has no block yet (on tmpfs, any touch of it) needs one from the
    filesystem, and with the disk full that is a SIGBUS, which kills the process. Opening
    refuses (ENOSPC) instead.
    """

    GROUPS = 4096
    _SIZE = 8 * (1 + GROUPS)

    def __init__(self, database_path: str) -> None:
        path = os.path.realpath(database_path) + "-brass-changes"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if os.fstat(fd).st_size < self._SIZE:
                os.ftruncate(fd, self._SIZE)
            # (also fills the holes of a file made sparse by an earlier version)
            os.posix_fallocate(fd, 0, self._SIZE)
            self._map = mmap.mmap(fd, self._SIZE)
        finally:
            os.close(fd)
        self._guard = threading.Lock()
        value = self._read(0)
        self._own = value  # the file's stamp after this process's last move of it
        self._mark = value  # the file's stamp when another process was last seen to write

    def _read(self, index: int) -> int:
        return int.from_bytes(self._map[8 * index : 8 * index + 8], "little")

    def _write(self, index: int, value: int) -> None:
        self._map[8 * index : 8 * index + 8] = value.to_bytes(8, "little")

    @classmethod
    def group_of(cls, game_id: str) -> int:
        return 1 + zlib.crc32(game_id.encode()) % cls.GROUPS

    def _move_file_stamp(self) -> None:
        with self._guard:
            value = self._read(0)
            if value != self._own:
                self._mark = max(self._mark, value)
            self._write(0, value + 1)
            self._own = value + 1

    def begin(self, groups: set[int]) -> None:
        """Writer, holding WriterLock, before its transaction: the stamps go odd."""
        self._move_file_stamp()
        for group in groups:
            value = self._read(group)
            self._write(group, value + 1 + (value & 1 == 1))

    def end(self, groups: set[int]) -> dict[int, int]:
        """Writer, still holding WriterLock, after its transaction: the stamps go even."""
        stamps = {}
        for group in groups:
            value = self._read(group)
            stamps[group] = value + 1 + (value & 1 == 0)
            self._write(group, stamps[group])
        self._move_file_stamp()
        return stamps

    def stamp(self, game_id: str) -> int | None:
        """The stamp of the game's group, or None while a write to it is under way."""
        value = self._read(self.group_of(game_id))
        return None if value & 1 else value

    def mark(self) -> int:
        """Moves whenever another process has written the file since the last call."""
        if self._read(0) != self._own:
            with self._guard:  # (so this process's writer is not caught mid-move)
                value = self._read(0)
                if value != self._own:
                    self._mark = max(self._mark, value)
        return self._mark

    def close(self) -> None:
        with contextlib.suppress(BufferError, ValueError):
            self._map.close()


class _GroupWriter(threading.Thread):
    """The one thread that writes: drains the queue, commits the batch once."""

    def __init__(self, path: str, commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS) -> None:
        super().__init__(name="sqlite-writer", daemon=True)
        self.path = path
        self.commit_wait = max(0.0, commit_wait_ms) / 1000
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        # Both or neither: the stamps are only moved under the lock.
        self.stamps: ChangeStamps | None = None
        self.lock: WriterLock | None = None
        self.failures = FailureTracker()

    def run(self) -> None:
        try:
            # The writer's page cache is larger than SQLite's 2 MiB default: its inserts
            # land at scattered places of the decisions' indexes (many games at once),
            # and each page missing from the cache costs a read() system call.
            conn = _connect(self.path, cache_mib=32)
            conn.executescript(SCHEMA)
            _add_missing_columns(conn)
        except BaseException as exc:
            self.failure = exc
            self.ready.set()
            return
        self.ready.set()
        last_commit = -1e9
        try:
            while True:
                job = self.jobs.get()
                if job is None:
                    return
                # Each commit costs a fixed amount (the WAL frames of the pages it touched,
                # the fsync, the wake-ups): under load, waiting a little for more writes
                # to share it saves more CPU than the wait costs in latency. An isolated
                # write is committed at once.
                if time.monotonic() - last_commit < _BUSY_WAITS * self.commit_wait:
                    time.sleep(self.commit_wait)
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
                try:
                    outcomes = self._run_batch(conn, batch)
                except Exception as exc:  # never seen; the thread must live on regardless
                    log.exception("sqlite_writer_failed")
                    failure = StoreUnavailable(f"sqlite: {type(exc).__name__}: {exc}")
                    outcomes = [(loop, future, failure, None) for _fn, loop, future, _g in batch]
                self._settle(outcomes)
                last_commit = time.monotonic()
        finally:
            conn.close()

    def _run_batch(self, conn: sqlite3.Connection, batch: list[Any]) -> list[Any]:
        """Commits the batch holding the cross-process lock, moving the change stamps of its
        games around the transaction; a successful write of a game returns that game's new
        stamp (None without stamps)."""
        if self.lock is None or self.stamps is None:
            return [(loop, future, error, None)
                    for loop, future, error, _result, _game in self._commit(conn, batch)]
        stamps = self.stamps
        groups = {stamps.group_of(job[3]) for job in batch if job[3] is not None}
        with self.lock:
            stamps.begin(groups)
            try:
                outcomes = self._commit(conn, batch)
            finally:
                after = stamps.end(groups)
        return [
            (loop, future, error,
             after.get(stamps.group_of(game)) if game is not None and error is None else None)
            for loop, future, error, _result, game in outcomes
        ]

    @staticmethod
    def _settle(outcomes: list[Any]) -> None:
        # One wake-up per event loop for the whole batch, not one per write.
        by_loop: dict[Any, list[tuple[Any, BaseException | None, Any]]] = {}
        for loop, future, error, result in outcomes:
            by_loop.setdefault(loop, []).append((future, error, result))
        for loop, settled in by_loop.items():
            loop.call_soon_threadsafe(_settle_all, settled)

    def _commit(self, conn: sqlite3.Connection, batch: list[Any]) -> list[Any]:
        """Runs the batch's jobs in one transaction and commits it once.

        A job either succeeds or refuses (VersionConflict, IdempotencyConflict) having
        changed nothing, which leaves the other jobs alone (no savepoint needed: a failed
        statement undoes itself, and append_decision checks before it writes for good).
        Any other failure in a job rolls the transaction back and the batch is run again
        without that job, which alone gets the error; a failure of BEGIN or COMMIT fails
        every job of the batch with StoreUnavailable.
        """
        # (loop, future, error, result, game id) for each job of the batch
        outcomes: list[tuple[Any, Any, BaseException | None, Any, str | None]] = []
        pending = list(batch)
        while pending:
            results: list[tuple[Any, Any, BaseException | None, Any, str | None]] = []
            failed: tuple[int, BaseException] | None = None
            try:
                conn.execute("BEGIN IMMEDIATE")
                for index, (fn, loop, future, game) in enumerate(pending):
                    try:
                        results.append((loop, future, None, fn(conn), game))
                    except (VersionConflict, IdempotencyConflict) as refusal:
                        results.append((loop, future, refusal, None, game))
                    except Exception as exc:
                        failed = (index, exc)
                        break
                if failed is None:
                    conn.execute("COMMIT")
            except sqlite3.Error as exc:
                _rollback(conn)
                self.failures.failed(FailureTracker.WRITES, f"sqlite: {exc}")
                failure = StoreUnavailable(f"sqlite: {exc}")
                outcomes += [(loop, future, failure, None, game)
                             for _fn, loop, future, game in pending]
                break
            if failed is None:
                self.failures.succeeded(FailureTracker.WRITES)
                outcomes += results
                break
            _rollback(conn)
            index, exc = failed
            _fn, loop, future, game = pending.pop(index)
            error: BaseException = exc
            if isinstance(exc, sqlite3.Error):
                if not isinstance(exc, _STATEMENT_ERRORS):
                    self.failures.failed(FailureTracker.WRITES, f"sqlite: {exc}")
                error = StoreUnavailable(f"sqlite: {exc}")
            outcomes.append((loop, future, error, None, game))
        return outcomes


def _rollback(conn: sqlite3.Connection) -> None:
    """Ends a failed transaction (SQLite may have rolled it back itself already, e.g. on
    SQLITE_FULL); a ROLLBACK that fails too must not stop the writer."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _settle_all(settled: list[tuple[asyncio.Future[Any], BaseException | None, Any]]) -> None:
    for future, error, result in settled:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


class SqliteStore:
    def __init__(self, path: str | Path, commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS) -> None:
        self.path = str(path)
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-reader")
        self._reader_conn: sqlite3.Connection | None = None
        # The head check (one indexed row, a few microseconds in WAL mode, where readers
        # never wait for the writer) runs on the event loop itself: a thread hop would cost
        # more than the query. It never waits for a lock either (busy_timeout 0): when it
        # cannot read at once it goes to the reader thread.
        self._loop_conn: sqlite3.Connection | None = None
        self._writer = _GroupWriter(self.path, commit_wait_ms)
        self._stamps: ChangeStamps | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Runs a read on the reader thread."""

        failures = self._writer.failures

        def call() -> T:
            assert self._reader_conn is not None, "store is not open"
            try:
                result = fn(self._reader_conn)
            except sqlite3.Error as exc:
                if isinstance(exc, _STATEMENT_ERRORS):
                    raise
                failures.failed(FailureTracker.READS, f"sqlite: {exc}")
                raise StoreUnavailable(f"sqlite: {exc}") from exc
            failures.succeeded(FailureTracker.READS)
            return result

        return await asyncio.get_running_loop().run_in_executor(self._reader, call)

    async def _write(
        self, fn: Callable[[sqlite3.Connection], Any], game_id: str | None = None
    ) -> Any:
        """Queues a write for the next group commit; returns once it is durable (with the
        game's new change stamp when `game_id` is given and stamps are kept)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._writer.jobs.put((fn, loop, future, game_id))
        return await future

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

    async def create_game(self, game: GameRow, snapshot: Snapshot) -> int | None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES "
                "(" + ", ".join(["?"] * GAME_COLUMN_COUNT) + ")",
                _game_values(game),
            )
            conn.execute(
                "INSERT INTO snapshots (game_id, version, data) VALUES (?, ?, ?)",
                (game.game_id, snapshot.version, snapshot.data),
            )

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
        self, row: DecisionRow, head: HeadUpdate, snapshot: Snapshot | None
    ) -> int | None:
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
                    (row.game_id, snapshot.version, snapshot.data),
                )

        return await self._write(write, row.game_id)  # type: ignore[no-any-return]

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

    async def update_seats(self, game_id: str, update: SeatsUpdate) -> bool:
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
            for table in ("decisions", "snapshots", "games"):  # children first (foreign keys)
                conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            deleted = True

        # Through the writer, with the game's change stamp moved: other processes holding
        # the game in memory check the store before using it again.
        await self._write(write, game_id)
        return deleted


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


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    """Brings a database made by an earlier version up to the games columns of this one
    (BEGIN IMMEDIATE: another process opening the file at once adds none twice)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        present = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        for name, kind in GAME_COLUMNS_ADDED:
            if name not in present:
                conn.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        for index in (DUE_INDEX, *LIST_INDEXES):
            conn.execute(index)
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


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
