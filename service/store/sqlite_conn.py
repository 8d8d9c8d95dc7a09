"""The SQLite store's connection side: how a connection is opened, the schema and its
upgrade, the writer thread (GroupWriter) and the group commit it shares with the event
loop's writer of sqlite_loop.py (run_batch, commit_batch), the cross-process writer lock
(WriterLock) and the change stamps other processes read (ChangeStamps). The store's
queries are in sqlite.py."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import mmap
import os
import queue
import sqlite3
import threading
import time
import zlib
from typing import Any

import structlog

from .accounts import SCHEMA as ACCOUNTS_SCHEMA
from .arenas import SCHEMA as ARENAS_SCHEMA
from .base import FailureTracker, IdempotencyConflict, StoreUnavailable, VersionConflict
from .challenges import SCHEMA as CHALLENGES_SCHEMA
from .ratings import SCHEMA as RATINGS_SCHEMA
from .rows import DUE_INDEX, GAME_COLUMNS_ADDED, LIST_INDEXES
from .webhooks import SQLITE_SCHEMA as WEBHOOKS_SCHEMA

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
""" + ACCOUNTS_SCHEMA + RATINGS_SCHEMA + CHALLENGES_SCHEMA + WEBHOOKS_SCHEMA + ARENAS_SCHEMA

# Errors of one statement's own making (a constraint, a bad value), which say nothing of
# whether the store can write; every other sqlite3.Error does (disk full, I/O error, busy).
STATEMENT_ERRORS = (
    sqlite3.IntegrityError, sqlite3.DataError, sqlite3.ProgrammingError, sqlite3.InterfaceError
)


# Writes committed together at most; bounds how long the first of them waits.
MAX_GROUP = 64
# Under load, the writer waits this long before a commit so that more writes share it.
DEFAULT_COMMIT_WAIT_MS = 2.0
# "Under load": the previous commit ended less than this many waits ago.
BUSY_WAITS = 5


def open_connection(
    path: str, busy_timeout_ms: int = 5000, cache_mib: int = 2
) -> sqlite3.Connection:
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
        self.acquire()

    def __exit__(self, *_exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_EX)  # (releases the GIL while it waits)

    def try_acquire(self) -> bool:
        """Takes the lock if no one holds it; False at once otherwise."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def release(self) -> None:
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


class GroupWriter(threading.Thread):
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
            conn = open_connection(self.path, cache_mib=32)
            conn.executescript(SCHEMA)
            add_missing_columns(conn)
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
                if time.monotonic() - last_commit < BUSY_WAITS * self.commit_wait:
                    time.sleep(self.commit_wait)
                batch = [job]
                while len(batch) < MAX_GROUP:
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
                settle(outcomes)
                last_commit = time.monotonic()
        finally:
            conn.close()

    def _run_batch(self, conn: sqlite3.Connection, batch: list[Any]) -> list[Any]:
        return run_batch(conn, batch, self.lock, self.stamps, self.failures)


class WriterBusy(Exception):
    """Another writer holds the cross-process lock (`sqlite_lock` false) or SQLite's own
    (true: a writer outside this store's lock): nothing was done."""

    def __init__(self, sqlite_lock: bool) -> None:
        super().__init__("SQLite's write lock is taken" if sqlite_lock
                         else "the writers' lock is taken")
        self.sqlite_lock = sqlite_lock


def run_batch(conn: sqlite3.Connection, batch: list[Any], lock: WriterLock | None,
              stamps: ChangeStamps | None, failures: FailureTracker, wait: bool = True
              ) -> list[tuple[Any, Any, BaseException | None, Any]]:
    """Commits a batch of (fn, loop, future, game id) jobs holding the cross-process lock,
    moving the change stamps of its games around the transaction. Answers (loop, future,
    error, result) for each job; a successful write of a game has that game's new stamp
    as its result (None without stamps). `wait=False`: raises WriterBusy instead of
    waiting for another writer."""
    if lock is None or stamps is None:
        return [(loop, future, error, None)
                for loop, future, error, _result, _game in commit_batch(conn, batch, failures,
                                                                        wait)]
    groups = {stamps.group_of(job[3]) for job in batch if job[3] is not None}
    if wait:
        lock.acquire()
    elif not lock.try_acquire():
        raise WriterBusy(sqlite_lock=False)
    try:
        stamps.begin(groups)
        try:
            outcomes = commit_batch(conn, batch, failures, wait)
        finally:
            after = stamps.end(groups)
    finally:
        lock.release()
    return [
        (loop, future, error,
         after.get(stamps.group_of(game)) if game is not None and error is None else None)
        for loop, future, error, _result, game in outcomes
    ]


def commit_batch(conn: sqlite3.Connection, batch: list[Any], failures: FailureTracker,
                 wait: bool = True) -> list[Any]:
    """Runs the batch's jobs in one transaction and commits it once.

    A job either succeeds or refuses (VersionConflict, IdempotencyConflict) having
    changed nothing, which leaves the other jobs alone (no savepoint needed: a failed
    statement undoes itself, and append_decision checks before it writes for good).
    Any other failure in a job rolls the transaction back and the batch is run again
    without that job, which alone gets the error; a failure of BEGIN or COMMIT fails
    every job of the batch with StoreUnavailable, but for SQLite's write lock taken
    when `wait` is false: WriterBusy, before anything is done.
    """
    # (loop, future, error, result, game id) for each job of the batch
    outcomes: list[tuple[Any, Any, BaseException | None, Any, str | None]] = []
    pending = list(batch)
    while pending:
        results: list[tuple[Any, Any, BaseException | None, Any, str | None]] = []
        failed: tuple[int, BaseException] | None = None
        try:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not wait and not outcomes and exc.sqlite_errorcode == sqlite3.SQLITE_BUSY:
                    raise WriterBusy(sqlite_lock=True) from exc
                raise
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
            rollback(conn)
            failures.failed(FailureTracker.WRITES, f"sqlite: {exc}")
            failure = StoreUnavailable(f"sqlite: {exc}")
            outcomes += [(loop, future, failure, None, game)
                         for _fn, loop, future, game in pending]
            break
        if failed is None:
            failures.succeeded(FailureTracker.WRITES)
            outcomes += results
            break
        rollback(conn)
        index, exc = failed
        _fn, loop, future, game = pending.pop(index)
        error: BaseException = exc
        if isinstance(exc, sqlite3.Error):
            if not isinstance(exc, STATEMENT_ERRORS):
                failures.failed(FailureTracker.WRITES, f"sqlite: {exc}")
            error = StoreUnavailable(f"sqlite: {exc}")
        outcomes.append((loop, future, error, None, game))
    return outcomes


def rollback(conn: sqlite3.Connection) -> None:
    """Ends a failed transaction (SQLite may have rolled it back itself already, e.g. on
    SQLITE_FULL); a ROLLBACK that fails too must not stop the writer."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def settle(outcomes: list[tuple[Any, Any, BaseException | None, Any]]) -> None:
    """Settles (loop, future, error, result) outcomes from a store thread: one wake-up per
    event loop for the whole batch, not one per write."""
    by_loop: dict[Any, list[tuple[Any, BaseException | None, Any]]] = {}
    for loop, future, error, result in outcomes:
        by_loop.setdefault(loop, []).append((future, error, result))
    for loop, settled in by_loop.items():
        # (a loop already closed has no one left waiting: the thread must live on)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle_all, settled)


def _settle_all(settled: list[tuple[asyncio.Future[Any], BaseException | None, Any]]) -> None:
    for future, error, result in settled:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)



def add_missing_columns(conn: sqlite3.Connection) -> None:
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
        rollback(conn)
        raise

