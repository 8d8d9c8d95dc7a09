"""The store contract on both back ends: optimistic concurrency, idempotency keys, snapshots,
paging, and (SQLite) group commit keeping one write's failure from undoing the others."""

from __future__ import annotations

import asyncio
import time

import pytest

from brass_service.store import (
    DecisionRow,
    GameRow,
    HeadUpdate,
    IdempotencyConflict,
    Snapshot,
    VersionConflict,
    open_store,
)

from .conftest import Backend


def _game(game_id: str, created_at: float) -> GameRow:
    return GameRow(
        game_id=game_id, ruleset=1, rules_edition=1, players=2, seed=2**64 - 1,
        options={"beginner": False}, position_json=None, seat_names=["A", "B"],
        token_hashes=["0" * 64, "1" * 64], created_at=created_at, updated_at=created_at,
        version=0, status=1, current_seat=0, decision="action",
    )


def _decision(
    game_id: str, start: int, key: str | None, ids: tuple[int, ...] = (3,)
) -> DecisionRow:
    return DecisionRow(
        game_id=game_id, from_version=start, to_version=start + len(ids), seat=0,
        action={"ids": list(ids), "compound": len(ids) > 1}, idempotency_key=key,
        fingerprint="f", events=[{"type": "pass", "seat": 0}], response=b"\x00\x01",
        created_at=time.time(), state_hash=2**64 - 5,
    )


def _head(version: int) -> HeadUpdate:
    return HeadUpdate(version=version, status=1, current_seat=1, decision="action",
                      updated_at=time.time())


def test_store_contract(backend: Backend) -> None:
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            base = time.time()
            for index in range(5):
                await store.create_game(_game(f"g{index}", base + index), Snapshot(0, b"snap0"))
            row = await store.get_game("g0")
            assert row is not None and row.seed == 2**64 - 1 and row.options == {"beginner": False}
            assert await store.get_game("nope") is None

            await store.append_decision(_decision("g0", 0, "k1"), _head(1), None)
            # A second writer on the same version loses, whatever its key.
            with pytest.raises(VersionConflict):
                await store.append_decision(_decision("g0", 0, "k2"), _head(1), None)
            # The same key again (on the new version) is an idempotency conflict.
            with pytest.raises(IdempotencyConflict):
                await store.append_decision(_decision("g0", 1, "k1"), _head(2), None)
            await store.append_decision(
                _decision("g0", 1, None, (4, 5, 6)), _head(4), Snapshot(4, b"snap4")
            )
            assert (await store.get_game("g0")).version == 4  # type: ignore[union-attr]
            stored = await store.decisions_after("g0", 0)
            assert [(d.from_version, d.to_version) for d in stored] == [(0, 1), (1, 4)]
            assert stored[0].state_hash == 2**64 - 5 and stored[1].action["compound"]
            assert (await store.find_decision_by_key("g0", "k1")).to_version == 1  # type: ignore[union-attr]
            assert await store.find_decision_by_key("g0", "k2") is None
            assert await store.latest_snapshot("g0") == Snapshot(4, b"snap4")

            seen, cursor = [], None
            while True:
                page = await store.list_games(2, cursor, None)
                seen += [g.game_id for g in page.games]
                cursor = page.next_cursor
                if cursor is None:
                    break
            assert seen == ["g4", "g3", "g2", "g1", "g0"]
            assert await store.count_games(1) == 5

            # Concurrent writers on one version: exactly one wins (on SQLite they share one
            # group commit, and the loser's refusal does not undo the winner).
            results = await asyncio.gather(
                *(store.append_decision(_decision("g1", 0, f"r{i}"), _head(1), None)
                  for i in range(6)),
                *(store.append_decision(_decision(f"g{i}", 0, "x"), _head(1), None)
                  for i in (2, 3)),
                return_exceptions=True,
            )
            # (a write answers the game's change mark: an int on SQLite, None on PostgreSQL)
            g1 = results[:6]
            won = [r for r in g1 if not isinstance(r, BaseException)]
            assert len(won) == 1
            assert all(isinstance(r, VersionConflict) for r in g1 if r not in won)
            assert not any(isinstance(r, BaseException) for r in results[6:])
            for game_id in ("g1", "g2", "g3"):
                assert (await store.get_game(game_id)).version == 1  # type: ignore[union-attr]

            # A decision whose version is free in the log but is not the head is refused and
            # leaves nothing behind.
            with pytest.raises(VersionConflict):
                await store.append_decision(_decision("g4", 5, "late"), _head(6), None)
            assert await store.decisions_after("g4", 0) == []
            assert await store.find_decision_by_key("g4", "late") is None
            assert await store.head_version("g4") == 0
            assert await store.head_version("g0") == 4
            assert await store.head_version("nope") is None
        finally:
            await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sqlite_group_commit_isolates_a_failing_write(backend: Backend) -> None:
    """A write that fails for an unexpected reason fails alone: the batch it shared a
    transaction with is committed without it."""
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            base = time.time()
            for index in range(4):
                await store.create_game(_game(f"h{index}", base + index), Snapshot(0, b"s"))

            def broken(conn: object) -> None:
                conn.execute("INSERT INTO games (game_id) VALUES ('half')")  # type: ignore[attr-defined]

            results = await asyncio.gather(
                *(store.append_decision(_decision(f"h{i}", 0, "k"), _head(1), None)
                  for i in range(2)),
                store._write(broken),  # type: ignore[attr-defined]
                *(store.append_decision(_decision(f"h{i}", 0, "k"), _head(1), None)
                  for i in range(2, 4)),
                return_exceptions=True,
            )
            # (each write answers the game's change mark: an int on SQLite, None on PostgreSQL)
            ok = [r for i, r in enumerate(results) if i != 2]
            assert not any(isinstance(r, BaseException) for r in ok), ok
            assert isinstance(results[2], Exception)
            for index in range(4):
                assert await store.head_version(f"h{index}") == 1
            assert await store.get_game("half") is None
        finally:
            await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sqlite_change_mark_moves_only_for_other_writers(backend: Backend) -> None:
    url = backend.new_database_url()

    async def scenario() -> None:
        mine, other = open_store(url), open_store(url)
        await mine.open()
        await other.open()
        try:
            mark = mine.change_mark()
            assert mark is not None
            await mine.create_game(_game("m0", time.time()), Snapshot(0, b"s"))
            await mine.append_decision(_decision("m0", 0, None), _head(1), None)
            assert mine.change_mark() == mark  # its own writes do not move it
            await other.append_decision(_decision("m0", 1, None), _head(2), None)
            moved = mine.change_mark()
            assert moved != mark  # another writer's do
            assert other.change_mark() != mark
            await mine.append_decision(_decision("m0", 2, None), _head(3), None)
            assert mine.change_mark() == moved
            assert await mine.head_version("m0") == 3
        finally:
            await mine.close()
            await other.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sqlite_game_marks_move_only_for_that_game_group(backend: Backend) -> None:
    """Per-game change marks (ChangeStamps): another process's write moves the mark of the
    game it wrote, not of other games; a write under way reads as None (unknown); a
    process's own write answers the game's new mark."""
    from brass_service.store.sqlite import ChangeStamps

    url = backend.new_database_url()
    first, second = "g-first", "g-second"
    assert ChangeStamps.group_of(first) != ChangeStamps.group_of(second)

    async def scenario() -> None:
        mine, other = open_store(url), open_store(url)
        await mine.open()
        await other.open()
        try:
            created = await mine.create_game(_game(first, time.time()), Snapshot(0, b"s"))
            await mine.create_game(_game(second, time.time()), Snapshot(0, b"s"))
            assert created is not None and created % 2 == 0
            written = await mine.append_decision(_decision(first, 0, None), _head(1), None)
            assert written is not None and written != created
            assert mine.change_mark(first) == written == other.change_mark(first)
            untouched = mine.change_mark(second)
            moved = await other.append_decision(_decision(second, 0, None), _head(1), None)
            assert mine.change_mark(first) == written  # not this game's group
            assert mine.change_mark(second) == moved != untouched
            # A write under way (stamps odd until the transaction ends) is never trusted.
            stamps = other._stamps  # type: ignore[attr-defined]
            group = ChangeStamps.group_of(first)
            stamps.begin({group})
            assert mine.change_mark(first) is None
            after = stamps.end({group})
            assert mine.change_mark(first) == after[group] != written
        finally:
            await mine.close()
            await other.close()

    asyncio.run(scenario())
