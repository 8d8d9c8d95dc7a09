"""SQLite writes on the event loop (service/store/sqlite_loop.py): a write is committed on
the loop and acknowledged only after the helper thread's fsync of the WAL; a write that
finds another process's writer waits for it off the loop, and one that finds SQLite's own
lock taken goes to GroupWriter's thread; a failed fsync fails its writes and turns the
loop's path off; the helper thread lives on whatever happens and checkpoints the WAL."""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from brass_service.store import Snapshot, StoreUnavailable, VersionConflict, sqlite_loop
from brass_service.store.base import FailureTracker
from brass_service.store.sqlite import SqliteStore
from brass_service.store.sqlite_conn import WriterLock

from .test_store import _decision, _game, _head

pytestmark = pytest.mark.timeout(120)


async def _store_with_game(path: Path, game_id: str = "g0") -> SqliteStore:
    store = SqliteStore(path)
    await store.open()
    await store.create_game(_game(game_id, time.time()), Snapshot(0, b"s"))
    return store


def _wal_inode(path: Path) -> int:
    return os.stat(str(path) + "-wal").st_ino


def _fail_with_eio(_fd: int) -> None:
    raise OSError(errno.EIO, "Input/output error")


def _on_the_sync_thread(monkeypatch: pytest.MonkeyPatch, before: Callable[[int], None]) -> None:
    """os.fsync calls `before(fd)` first on WalSyncer's thread (SQLite's own syncs are C)."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if threading.current_thread().name == "sqlite-wal-sync":
            before(fd)
        real_fsync(fd)

    monkeypatch.setattr(sqlite_loop.os, "fsync", fsync)


def test_a_write_commits_on_the_loop_and_is_acknowledged_after_the_wal_is_synced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "loop.sqlite3"
    synced: list[int] = []  # the inode of every file the helper thread synced
    release = threading.Event()

    def held(fd: int) -> None:
        release.wait(10)
        synced.append(os.fstat(fd).st_ino)

    async def scenario() -> None:
        store = await _store_with_game(path)
        try:
            writer = store._loop_writer
            assert writer is not None
            written = writer.written
            _on_the_sync_thread(monkeypatch, held)
            append = asyncio.ensure_future(
                store.append_decision(_decision("g0", 0, "k1"), _head(1), None))
            await asyncio.sleep(0.2)
            # committed on the loop (another connection reads it at once) ...
            assert writer.written == written + 1
            with sqlite3.connect(path) as other:
                assert other.execute("SELECT version FROM games WHERE game_id = 'g0'"
                                     ).fetchone() == (1,)
            # ... and not acknowledged before the WAL's fsync
            assert not append.done()
            release.set()
            stamp = await asyncio.wait_for(append, 10)
            assert synced == [_wal_inode(path)]
            assert stamp == store.change_mark("g0") and stamp % 2 == 0
            # a refusal waits for the sync as well, and says what it is
            with pytest.raises(VersionConflict):
                await store.append_decision(_decision("g0", 0, None), _head(1), None)
            assert len(synced) == 2
        finally:
            release.set()
            await store.close()

    asyncio.run(scenario())


def test_a_write_that_finds_another_writer_waits_for_it_off_the_loop(tmp_path: Path) -> None:
    """Another process's writer holds the cross-process lock: the loop does not wait for
    it (it goes on serving); the lock waiter's thread does, and the write, with one that
    came meanwhile, is committed on the loop, in one transaction, once the lock is free."""
    path = tmp_path / "busy.sqlite3"

    async def scenario() -> None:
        store = await _store_with_game(path)
        await store.create_game(_game("g1", time.time()), Snapshot(0, b"s"))
        other = WriterLock(str(path))  # an open file of its own, as another process's
        try:
            writer = store._loop_writer
            assert writer is not None
            written, waited = writer.written, writer.waited
            with other:
                first = asyncio.ensure_future(
                    store.append_decision(_decision("g0", 0, None), _head(1), None))
                ticks = 0
                for _ in range(10):  # the loop runs on meanwhile
                    await asyncio.sleep(0.01)
                    ticks += 1
                second = asyncio.ensure_future(
                    store.append_decision(_decision("g1", 0, None), _head(1), None))
                for _ in range(10):
                    await asyncio.sleep(0.01)
                    ticks += 1
                assert ticks == 20 and not first.done() and not second.done()
                assert writer.waited == waited + 1 and writer.written == written
            await asyncio.wait_for(asyncio.gather(first, second), 10)
            assert writer.written == written + 2 and writer.handed_over == 0
            assert await store.head_version("g0") == 1 == await store.head_version("g1")
        finally:
            other.close()
            await store.close()

    asyncio.run(scenario())


def test_a_write_that_finds_sqlites_lock_taken_goes_to_the_writer_thread(
        tmp_path: Path) -> None:
    """A writer outside the store (no cross-process lock) holds SQLite's own write lock:
    the batch goes to GroupWriter's thread, which waits for it (its busy timeout)."""
    path = tmp_path / "foreign.sqlite3"

    async def scenario() -> None:
        store = await _store_with_game(path)
        foreign = sqlite3.connect(path, isolation_level=None)
        try:
            writer = store._loop_writer
            assert writer is not None
            foreign.execute("BEGIN IMMEDIATE")
            append = asyncio.ensure_future(
                store.append_decision(_decision("g0", 0, None), _head(1), None))
            await asyncio.sleep(0.2)
            assert not append.done() and writer.handed_over == 1
            foreign.execute("COMMIT")
            await asyncio.wait_for(append, 10)
            assert await store.head_version("g0") == 1
        finally:
            foreign.close()
            await store.close()

    asyncio.run(scenario())


def test_a_failed_fsync_fails_its_write_and_later_writes_go_to_the_writer_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "eio.sqlite3"

    async def scenario() -> None:
        store = await _store_with_game(path)
        try:
            writer = store._loop_writer
            assert writer is not None
            _on_the_sync_thread(monkeypatch, _fail_with_eio)
            with pytest.raises(StoreUnavailable, match="fsync failed"):
                await store.append_decision(_decision("g0", 0, "k1"), _head(1), None)
            assert writer.syncer.broken
            failures = store._writer.failures
            assert failures.failing(FailureTracker.WRITES)
            # (the decision was committed; whether it is kept a power cut would tell: a
            # retry with its key finds it, here, where the kernel still has it)
            assert await store.find_decision_by_key("g0", "k1") is not None
            # a commit the loop made before it saw the failure is failed too, unsynced
            # (the kernel may call a later sync clean though pages were lost)
            made_before = asyncio.get_running_loop().create_future()
            writer.syncer.jobs.put([(asyncio.get_running_loop(), made_before, None, 2)])
            with pytest.raises(StoreUnavailable, match="failed before this write"):
                await asyncio.wait_for(made_before, 10)
            written = writer.written
            await store.append_decision(_decision("g0", 1, None), _head(2), None)
            assert writer.written == written  # GroupWriter's thread stored it
            assert await store.head_version("g0") == 2
            assert not failures.failing(FailureTracker.WRITES)
            assert (await store.health()).writable
        finally:
            await store.close()

    asyncio.run(scenario())


def test_the_sync_thread_lives_on_when_its_log_line_cannot_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed fsync whose log line raises too (a log stream closed under the process, as
    pytest's capture of an earlier test that configured logging): the write still fails
    with UNAVAILABLE rather than waiting for ever, and the thread is still there."""
    path = tmp_path / "closed-log.sqlite3"
    real_log = sqlite_loop.log

    class ClosedLog:
        def error(self, *_args: object, **_kwargs: object) -> None:
            raise ValueError("I/O operation on closed file")

    async def scenario() -> None:
        store = await _store_with_game(path)
        try:
            writer = store._loop_writer
            assert writer is not None
            monkeypatch.setattr(sqlite_loop, "log", ClosedLog())
            _on_the_sync_thread(monkeypatch, _fail_with_eio)
            with pytest.raises(StoreUnavailable, match="fsync failed"):
                await asyncio.wait_for(
                    store.append_decision(_decision("g0", 0, None), _head(1), None), 10)
            assert writer.syncer.is_alive()
        finally:
            monkeypatch.setattr(sqlite_loop, "log", real_log)
            await store.close()

    asyncio.run(scenario())


def test_the_helper_thread_checkpoints_the_wal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's connection never checkpoints (it would, inside a request): the helper
    thread does, every CHECKPOINT_WRITES writes, and the WAL starts over; without it, as
    the control here, the WAL holds every commit."""

    async def wal_after_commits(path: Path) -> int:
        store = await _store_with_game(path)
        try:
            for version in range(300):
                await store.append_decision(
                    _decision("g0", version, None), _head(version + 1),
                    Snapshot(version + 1, os.urandom(2000)))
            assert await store.head_version("g0") == 300
            return os.path.getsize(str(path) + "-wal")
        finally:
            await store.close()

    monkeypatch.setattr(sqlite_loop, "CHECKPOINT_WRITES", 1 << 40)
    never = asyncio.run(wal_after_commits(tmp_path / "never.sqlite3"))
    monkeypatch.setattr(sqlite_loop, "CHECKPOINT_WRITES", 16)
    checkpointed = asyncio.run(wal_after_commits(tmp_path / "checkpointed.sqlite3"))
    assert never > 300 * 2000
    assert checkpointed < never / 3, (checkpointed, never)


def test_the_store_writes_through_the_writer_thread_alone_when_told(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = SqliteStore(tmp_path / "off.sqlite3", loop_writes=False)
        await store.open()
        try:
            assert store._loop_writer is None
            await store.create_game(_game("g0", time.time()), Snapshot(0, b"s"))
            await store.append_decision(_decision("g0", 0, None), _head(1), None)
            assert await store.head_version("g0") == 1
        finally:
            await store.close()

    asyncio.run(scenario())
