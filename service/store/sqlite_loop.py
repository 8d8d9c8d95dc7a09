"""SQLite writes committed on the event loop's own thread (LoopWriter), made durable by a
helper thread that only syncs the write-ahead log and checkpoints it (WalSyncer).

Why: handing each write to GroupWriter's thread and back cost more CPU than its SQL (the
two threads waking each other and trading the GIL). Here the writes submitted during one
turn of the loop are committed together at the next, with synchronous=NORMAL (the COMMIT
writes the WAL without an fsync), and one fsync of the WAL on the helper thread makes
every commit before it durable. A write's future is settled only after that fsync: an
acknowledged write survives a power cut, as with GroupWriter's synchronous=FULL.

The difference from GroupWriter: between its COMMIT and the fsync after it (one fsync,
well under a millisecond on an SSD), a write is visible to other readers of the file
(other processes, this process's readers) before it is durable. A power cut in that
window loses a write that nobody was told was kept, though a reader may have seen it; a
process crash loses nothing (the WAL's bytes are in the kernel already).

The loop never waits for a lock: a batch that finds another process's writer holding the
cross-process lock waits for it on a thread of its own (LoopWriter's lock waiter), then is
committed on the loop, the lock held meanwhile; one that finds SQLite's own lock taken (a
writer outside this store) is handed to GroupWriter, which waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import structlog

from .base import FailureTracker, StoreUnavailable
from .sqlite_conn import (
    BUSY_WAITS,
    DEFAULT_COMMIT_WAIT_MS,
    MAX_GROUP,
    ChangeStamps,
    WriterBusy,
    WriterLock,
    open_connection,
    run_batch,
    settle,
)

log = structlog.get_logger("brass_service.store")

# The WAL is checkpointed into the database (by the helper thread, off the loop) after this
# many writes (about 3 pages each, scattered over the tables and indexes: ~1,000 pages, the
# period of SQLite's own automatic checkpoint, which would run on the loop's connection,
# inside a request).
CHECKPOINT_WRITES = 300


class WalSyncer(threading.Thread):
    """Makes the loop's commits durable: one fsync of the WAL for every commit made since
    the one before, then their futures settled (one wake-up per loop); checkpoints the WAL
    every CHECKPOINT_WRITES writes. A failed fsync fails its writes and turns `broken` on
    for good: after it, the kernel may report later syncs clean although pages were lost,
    so the commits the loop made before it saw `broken` fail too, unsynced, and every later
    write goes through GroupWriter, whose COMMIT syncs in SQLite's own way."""

    def __init__(self, path: str, failures: FailureTracker, lock: WriterLock | None) -> None:
        super().__init__(name="sqlite-wal-sync", daemon=True)
        self.path = path
        self.failures = failures
        self.lock = lock  # (an open file of its own, as every writer's)
        # the (loop, future, error, result) outcomes of each commit waiting for the next fsync
        self.jobs: queue.SimpleQueue[list[tuple[Any, Any, BaseException | None, Any]] | None] = (
            queue.SimpleQueue())
        self.broken = False
        self._wal = os.path.realpath(path) + "-wal"
        self._fd = -1
        self._conn: sqlite3.Connection | None = None

    def open(self) -> None:
        """Opens the WAL (which the loop's connection has made) and the connection that
        checkpoints; on the caller's thread, before `start`."""
        self._fd = os.open(self._wal, os.O_RDONLY)
        self._conn = open_connection(self.path)

    def run(self) -> None:
        assert self._conn is not None, "WalSyncer.open first"
        uncopied = 0  # writes synced since the last checkpoint
        try:
            while True:
                commit = self.jobs.get()
                if commit is None:
                    return
                batch = list(commit)
                stop = False
                while True:
                    try:
                        more = self.jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    batch += more
                # (it settles the batch in any case; the thread must live on whatever
                # happens, even a log line that cannot be written: the loop's writes wait
                # on it)
                with contextlib.suppress(Exception):
                    self._sync(batch)
                if stop:
                    return
                uncopied += len(batch)
                if uncopied >= CHECKPOINT_WRITES:
                    uncopied = 0
                    with contextlib.suppress(Exception):
                        self._checkpoint()
        finally:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._conn.close()
            if self.lock is not None:
                self.lock.close()

    def _sync(self, batch: list[tuple[Any, Any, BaseException | None, Any]]) -> None:
        """Syncs the WAL and settles the batch, whatever happens on the way."""
        failure: StoreUnavailable | None = None
        try:
            if self.broken:
                failure = StoreUnavailable("sqlite: the WAL's fsync failed before this "
                                           "write's: it may or may not be kept")
                return
            try:
                self._follow_the_wal()
                os.fsync(self._fd)
            except Exception as exc:  # (OSError; anything else must not end the thread)
                self.broken = True
                cause = (f"sqlite: the WAL's fsync failed ({exc}); the write may or may not "
                         "be kept")
                failure = StoreUnavailable(cause)
                self.failures.failed(FailureTracker.WRITES, cause)
                log.error("sqlite_wal_sync_failed", error=str(exc))
        finally:
            if failure is not None:
                batch = [(loop, future, error or failure, None if error is None else result)
                         for loop, future, error, result in batch]
            settle(batch)

    def _follow_the_wal(self) -> None:
        """Reopens the WAL when the file at its name is no longer the one open here. SQLite
        deletes it only when the database's last connection closes, which this process's
        are not, so this is for a file replaced behind the store's back; one stat a sync
        makes sure. Whatever the old file held was then checkpointed into the database
        (SQLite deletes no WAL before): its file is synced too."""
        if os.stat(self._wal).st_ino == os.fstat(self._fd).st_ino:
            return
        fd = os.open(self._wal, os.O_RDONLY)
        os.close(self._fd)
        self._fd = fd
        database = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(database)
        finally:
            os.close(database)

    def _checkpoint(self) -> None:
        """A checkpoint while the writers go on, which copies most of the WAL, then one
        holding the writers' lock, which copies the rest (the commits made meanwhile), so
        that the next write starts the WAL over: SQLite does so only when a write finds all
        of it copied, which writers that never stop would not otherwise let happen (the WAL
        would grow for ever). Writes that come while the lock is held wait for it."""
        assert self._conn is not None
        try:
            # PASSIVE: copies what no reader still needs, never waits for readers or writers
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            with self.lock or contextlib.nullcontext():
                self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except (OSError, sqlite3.Error) as exc:  # (one that cannot run now runs after the next)
            log.warning("sqlite_checkpoint_failed", error=str(exc))


class LoopWriter:
    """Commits writes on the event loop's thread: the writes submitted meanwhile are run
    together in one transaction at the loop's next turn, or under load after the commit
    wait (a group commit, as GroupWriter's, without its thread), holding the cross-process
    lock (an open file of its own: flock's locks belong to open files, and this one must
    exclude GroupWriter's) and moving the change stamps around it. Their futures are
    settled by WalSyncer once the WAL is synced.

    When another process's writer holds the lock, a thread of its own waits for it (trying
    again every 0.2 ms instead spun: about 1.5 tries a commit with two workers) and the
    batch, with the writes that came meanwhile, is committed once it has it."""

    def __init__(self, path: str, stamps: ChangeStamps | None, failures: FailureTracker,
                 hand_over: queue.SimpleQueue[Any],
                 commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS) -> None:
        self.path = path
        self.commit_wait = max(0.0, commit_wait_ms) / 1000
        self._last_commit = -1e9
        self.stamps = stamps
        self.failures = failures
        self.hand_over = hand_over  # GroupWriter's queue
        self.lock = WriterLock(path) if stamps is not None else None
        self._lock_waiter = ThreadPoolExecutor(1, thread_name_prefix="sqlite-lock-wait")
        self._waiting = False  # the lock waiter is waiting for the pending writes' turn
        self._closing = False
        self.conn: sqlite3.Connection | None = None
        self.syncer = WalSyncer(path, failures,
                                WriterLock(path) if stamps is not None else None)
        self._pending: list[tuple[Any, Any, Any, str | None]] = []
        # writes committed here; batches that waited for the lock; writes handed to
        # GroupWriter (SQLite's lock taken by a writer outside the store, or the path off)
        self.written = self.waited = self.handed_over = 0

    @classmethod
    def opened(cls, path: str, stamps: ChangeStamps | None, failures: FailureTracker,
               hand_over: queue.SimpleQueue[Any],
               commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS) -> LoopWriter | None:
        """A LoopWriter open on the file, or None (logged) where it cannot be: GroupWriter
        then writes alone."""
        writer = cls(path, stamps, failures, hand_over, commit_wait_ms)
        try:
            writer.open()
        except (OSError, sqlite3.Error) as exc:
            log.warning("sqlite_loop_writes_off", error=str(exc))
            writer.close()
            return None
        return writer

    def open(self) -> None:
        # (the schema exists: GroupWriter made it before this opens)
        self.conn = open_connection(self.path, busy_timeout_ms=0, cache_mib=32)
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA wal_autocheckpoint=0")
        self.conn.execute("SELECT 1 FROM games LIMIT 1").fetchall()  # (makes the WAL)
        self.syncer.open()
        self.syncer.start()

    async def drain(self) -> None:
        """On the loop, before `close`: later writes go to GroupWriter, and the pending ones
        are committed (waiting for the lock, if it comes to that)."""
        self._closing = True
        while self._pending or self._waiting:
            await asyncio.sleep(0.001)

    def close(self) -> None:
        """Waits for the syncs under way (on the caller's thread)."""
        log.info("sqlite_loop_writes", written=self.written, waited=self.waited,
                 handed_over=self.handed_over)
        self._closing = True
        self._lock_waiter.shutdown(wait=True)
        if self.syncer.is_alive():
            self.syncer.jobs.put(None)
            self.syncer.join()
        elif self.syncer.lock is not None:  # (the thread closes it when it ran)
            self.syncer.lock.close()
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.lock is not None:
            self.lock.close()

    @property
    def open_for_writes(self) -> bool:
        """False once closing, or after a failed sync (see WalSyncer)."""
        return self.conn is not None and not self._closing and not self.syncer.broken

    def submit(self, job: tuple[Callable[[sqlite3.Connection], Any], asyncio.AbstractEventLoop,
                                asyncio.Future[Any], str | None]) -> None:
        """Queues a (fn, loop, future, game id) job for the next commit: at the loop's next
        turn, or under load (the last commit less than BUSY_WAITS waits ago) after the
        commit wait, so that more writes share it, as GroupWriter's do: each commit costs
        a fixed amount (the WAL's frames of the pages it touched, the fsync, the wake-ups)."""
        self._pending.append(job)
        if len(self._pending) == 1:
            loop = job[1]
            if loop.time() - self._last_commit < BUSY_WAITS * self.commit_wait:
                loop.call_later(self.commit_wait, self._flush)
            else:
                loop.call_soon(self._flush)
        elif len(self._pending) == MAX_GROUP:
            job[1].call_soon(self._flush)

    def _flush(self) -> None:
        # (nothing pending: committed already, the group having filled up before its wait;
        # waiting: the lock waiter's commit will take them)
        if not self._pending or self._waiting:
            return
        loop = self._pending[0][1]
        try:
            self._commit(self.lock)
        except WriterBusy:
            self._waiting = True
            self.waited += 1
            assert self.lock is not None  # (without one no writer is waited for)
            waited = loop.run_in_executor(self._lock_waiter, self.lock.acquire)
            waited.add_done_callback(self._lock_taken)

    def _lock_taken(self, waited: Future[None] | asyncio.Future[None]) -> None:
        """On the loop, the lock waiter having taken the lock for the pending writes."""
        self._waiting = False
        if waited.cancelled() or waited.exception() is not None:  # (never seen)
            log.error("sqlite_lock_wait_failed", error=repr(waited.exception()))
            self._hand_over()
            return
        # (run_batch's try_acquire takes it at once: flock's lock is the open file's, and
        # the waiter took it on this one)
        self._commit(self.lock)

    def _commit(self, lock: WriterLock | None) -> None:
        """Commits the pending writes (all of them, in one transaction) holding `lock`;
        raises WriterBusy, with the writes left pending, if another writer holds it."""
        conn = self.conn
        if conn is None or self.syncer.broken:
            if lock is not None:  # (the lock waiter's, if it took it; else a no-op)
                lock.release()
            self._hand_over()
            return
        batch, self._pending = self._pending, []
        self._last_commit = batch[0][1].time()
        try:
            outcomes = run_batch(conn, batch, lock, self.stamps, self.failures, wait=False)
        except WriterBusy as busy:
            self._pending[:0] = batch
            if busy.sqlite_lock:  # a writer outside this store: GroupWriter waits for it
                self._hand_over()
                return
            raise
        except Exception as exc:  # never seen; the writes must be answered regardless
            failure = StoreUnavailable(f"sqlite: {type(exc).__name__}: {exc}")
            settle([(loop, future, failure, None) for _fn, loop, future, _g in batch])
            log.exception("sqlite_loop_writer_failed")
            return
        self.written += len(batch)
        # Refusals wait for the sync too: a refusal may rest on a write not yet durable
        # (the decision of a retry's first try, say), which must be before it is told.
        self.syncer.jobs.put(outcomes)

    def _hand_over(self) -> None:
        batch, self._pending = self._pending, []
        self.handed_over += len(batch)
        for job in batch:
            self.hand_over.put(job)

