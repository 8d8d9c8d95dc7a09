"""The store contract on both back ends: optimistic concurrency, idempotency keys, snapshots,
paging, and (SQLite) group commit keeping one write's failure from undoing the others."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import grpc
import pytest

from brass_clients.sdk import GameClient
from brass_service.errors import ServiceError
from brass_service.store import (
    CorruptRecord,
    DecisionRow,
    GameRow,
    HeadUpdate,
    IdempotencyConflict,
    Snapshot,
    StoreUnavailable,
    VersionConflict,
    open_store,
)

from .conftest import Backend
from .helpers import (
    LOOPBACK,
    CuttableProxy,
    ServerProcess,
    expect_error,
    expect_rest_error,
    fill_filesystem,
    full_disk_scenario,
    rest_once,
    small_filesystem,
)


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


async def _open_with_games(url: str, prefix: str, count: int = 5) -> Any:
    """The store at `url`, opened, with games prefix0 … prefix{count-1}, created in order."""
    store = open_store(url)
    await store.open()
    base = time.time()
    for index in range(count):
        await store.create_game(_game(f"{prefix}{index}", base + index), Snapshot(0, b"snap0"))
    return store


def test_store_contract(backend: Backend) -> None:
    url = backend.new_database_url()

    async def scenario() -> None:
        store = await _open_with_games(url, "g")
        try:
            row = await store.get_game("g0")
            # (the options come back whole: the row keeps those away from the defaults)
            assert row is not None and row.seed == 2**64 - 1 and row.options == {
                "beginner": False, "manufacturer_iv_cost": 8, "undo": True}
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
            # From inside a compound action (the rows start at the one holding the version,
            # found by the primary key), with bounds and a limit.
            await store.append_decision(_decision("g0", 4, None), _head(5), None)
            spans = {v: [(d.from_version, d.to_version)
                         for d in await store.decisions_after("g0", v)] for v in range(6)}
            assert spans == {0: [(0, 1), (1, 4), (4, 5)], 1: [(1, 4), (4, 5)],
                             2: [(1, 4), (4, 5)], 3: [(1, 4), (4, 5)], 4: [(4, 5)], 5: []}
            assert [d.to_version for d in await store.decisions_after("g0", 2, up_to=4)] == [4]
            assert [d.to_version for d in await store.decisions_after("g0", 0, limit=2)] == [1, 4]
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
    from brass_service.store.sqlite_conn import ChangeStamps

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


def test_sqlite_full_disk_refuses_writes_serves_reads_and_recovers(tmp_path: Path) -> None:
    """A full disk under a single server (issue 10 B): clean 503s, reads still served, the
    cause logged and on /healthz, and writes back by themselves once space returns (the
    change stamps file used to be sparse: a page fault with no free block was a SIGBUS)."""
    with small_filesystem(16) as disk:
        server = ServerProcess(tmp_path, f"sqlite:///{disk / 'games.sqlite3'}", name="full")
        server.start()
        try:
            full_disk_scenario(server, disk)
        finally:
            server.stop()


# A client deadline well under psycopg_pool's 30 s default wait for a connection, and well
# over the store's POOL_WAIT_SECONDS: an answer before it is an answer that did not hang.
_NO_HANG_SECONDS = 15.0


@contextlib.contextmanager
def _game_behind_a_relay(backend: Backend, name: str, key: str) -> Iterator[tuple[Any, ...]]:
    """A server whose PostgreSQL is reached through a CuttableProxy, and a new game on it:
    yields the proxy, the server, the game id, the token of the seat to act, a submission
    of its first legal option at version 0 with idempotency key `key`, and that seat's
    legal options."""
    url = urlsplit(backend.new_database_url())
    proxy = CuttableProxy((url.hostname or LOOPBACK, url.port or 5432)).start()
    through_proxy = urlunsplit(url._replace(netloc=f"postgres@{LOOPBACK}:{proxy.port}"))
    server = backend.start_server(name, database_url=through_proxy)
    port = server.http_port
    try:
        status, created = rest_once(port, "POST", "/v1/games", {"players": 2})
        assert status == 200, created
        game_id = created["gameId"]
        seat = created["state"]["summary"]["currentSeat"]
        token = created["seats"][seat]["token"]
        status, legal = rest_once(port, "GET", f"/v1/games/{game_id}/actions", token=token)
        assert status == 200, legal
        submission = {"action": {"optionId": legal["options"][0]["id"]},
                      "expectedVersion": 0, "idempotencyKey": key}
        yield proxy, server, game_id, token, submission, legal
    finally:
        server.stop()
        proxy.thaw()
        proxy.cut()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_postgres_gone_answers_unavailable_fast_and_recovers(
    backend: Backend, tmp_path: Path
) -> None:
    """PostgreSQL gone (issue 10 E): /healthz and every call answer 503 / UNAVAILABLE within a
    few seconds instead of hanging 30 s; SubmitAction with an idempotency key answers
    UNAVAILABLE (never INTERNAL), so its retry is safe; once the server is back, the same
    submission goes through."""
    with _game_behind_a_relay(backend, "pg-gone", "across-the-outage") as relayed:
        proxy, server, game_id, token, submission, legal = relayed
        port = server.http_port

        proxy.cut()
        took: dict[str, float] = {}

        def call(name: str, method: str, path: str, body: Any = None,
                 token: str | None = None) -> tuple[int, dict[str, Any]]:
            start = time.monotonic()
            answer = rest_once(port, method, path, body, token, timeout=_NO_HANG_SECONDS)
            took[name] = time.monotonic() - start
            return answer

        status, health = call("healthz", "GET", "/healthz")
        assert status == 503 and health["status"] == "NOT_SERVING", health
        assert health["store"]["readable"] is False and "postgresql" in health["store"]["error"]
        for name, method, path, body, bearer in (
            ("SubmitAction", "POST", f"/v1/games/{game_id}/actions", submission, token),
            ("GetGame", "GET", f"/v1/games/{game_id}", None, None),
            ("ListGames", "GET", "/v1/games", None, None),
            ("CreateGame", "POST", "/v1/games", {"players": 2}, None),
        ):
            status, refused = call(name, method, path, body, bearer)
            reason = refused.get("error", {}).get("reason")
            assert (status, reason) == (503, "UNAVAILABLE"), (name, status, refused)
        with GameClient(server.grpc_target, timeout=_NO_HANG_SECONDS, retries=0) as client:
            start = time.monotonic()
            error = expect_error(
                "UNAVAILABLE", client.submit_action, game_id, token,
                legal["options"][0]["id"], expected_version=0,
                idempotency_key="across-the-outage",
            )
            took["SubmitAction (gRPC)"] = time.monotonic() - start
            assert error.code == grpc.StatusCode.UNAVAILABLE
        print("answers with PostgreSQL gone (s):",
              ", ".join(f"{name} {seconds:.2f}" for name, seconds in took.items()))
        assert '"event": "store_reads_failing"' in server.log_text()

        proxy.restore()
        restored = time.monotonic()
        while rest_once(port, "GET", "/healthz")[0] != 200:
            assert time.monotonic() < restored + 60, "the store did not come back"
            time.sleep(0.2)
        print(f"healthy again {time.monotonic() - restored:.2f} s after PostgreSQL came back")
        status, moved = rest_once(port, "POST", f"/v1/games/{game_id}/actions", submission,
                                  token)
        assert status == 200 and int(moved["state"]["summary"]["version"]) == 1, moved
        assert moved["replayed"] is False


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_postgres_that_hangs_answers_unavailable_and_a_retry_applies_once(
    backend: Backend, tmp_path: Path
) -> None:
    """PostgreSQL hung (connections open, nothing answered): a statement is cancelled after
    STATEMENT_SECONDS (psycopg's cancellation adds up to 10 s) and the call answers
    UNAVAILABLE instead of waiting for ever. The cancelled commit may still land once the
    server answers again; the client's retry with the same idempotency key is then answered
    from it, never applied twice."""
    with _game_behind_a_relay(backend, "pg-hung", "while-it-hangs") as relayed:
        proxy, server, game_id, token, submission, legal = relayed
        port = server.http_port

        proxy.freeze()
        took: dict[str, float] = {}
        for name, path, body in (("SubmitAction", f"/v1/games/{game_id}/actions", submission),
                                 ("healthz", "/healthz", None)):
            start = time.monotonic()
            status, answer = rest_once(port, "POST" if body else "GET", path, body,
                                       token if body else None, timeout=_NO_HANG_SECONDS * 2)
            took[name] = time.monotonic() - start
            assert status == 503, (name, answer)
        print("answers with PostgreSQL hung (s):",
              ", ".join(f"{name} {seconds:.2f}" for name, seconds in took.items()))
        # (the hung statement, or a pool that cannot get a new connection through)
        assert answer["status"] == "NOT_SERVING", answer
        assert answer["store"]["error"].startswith("postgresql: "), answer
        assert "no answer within" in server.log_text()

        proxy.thaw()
        deadline = time.monotonic() + 60
        while rest_once(port, "GET", "/healthz")[0] != 200:
            assert time.monotonic() < deadline, "the store did not come back"
            time.sleep(0.2)
        status, moved = rest_once(port, "POST", f"/v1/games/{game_id}/actions", submission,
                                  token)
        assert status == 200, moved
        assert int(moved["state"]["summary"]["version"]) == 1, moved  # applied once
        status, game = rest_once(port, "GET", f"/v1/games/{game_id}")
        assert int(game["state"]["summary"]["version"]) == 1, game


def test_store_unavailable_is_unavailable_to_clients_on_every_path() -> None:
    """A store failure reaching the service by any path (here: the look-up of the idempotency
    key after a failed commit) is UNAVAILABLE, never INTERNAL."""
    error = StoreUnavailable("postgresql: connection refused")
    assert isinstance(error, ServiceError)
    assert (error.reason, error.grpc_code, error.http_status) == (
        "UNAVAILABLE", grpc.StatusCode.UNAVAILABLE, 503)
    assert "connection refused" not in error.message  # the cause is for the logs
    assert str(error) == "postgresql: connection refused"


def _execute(url: str, sql: str) -> None:
    """Runs `sql` on the store's database behind its back (to damage a row)."""
    if url.startswith("sqlite:///"):
        import sqlite3

        with contextlib.closing(sqlite3.connect(url[len("sqlite:///"):])) as conn:
            conn.execute(sql)
            conn.commit()
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]


def test_store_reports_a_corrupt_row_for_its_game_only(backend: Backend) -> None:
    """A row that does not decode is CORRUPT_GAME for that game (get_game, its decisions,
    its snapshot, its head), and ListGames leaves it out of the page while the cursor
    still moves past it."""
    url = backend.new_database_url()

    async def scenario() -> None:
        store = await _open_with_games(url, "c", count=7)
        try:
            await store.append_decision(_decision("c3", 0, "k"), _head(1), None)
            _execute(url, "UPDATE games SET options = '{broken' WHERE game_id = 'c2'")
            _execute(url, "UPDATE games SET seat_names = '{\"a\": 1}' WHERE game_id = 'c0'")
            _execute(url, "UPDATE decisions SET action = '{\"ids\": []}' WHERE game_id = 'c3'")
            # (a seed that is no number; a time that decodes but that no answer can carry)
            _execute(url, "UPDATE games SET seed = 'abc' WHERE game_id = 'c5'")
            _execute(url, "UPDATE games SET updated_at = 'NaN' WHERE game_id = 'c6'")
            for game_id in ("c2", "c0", "c5", "c6"):
                with pytest.raises(CorruptRecord) as raised:
                    await store.get_game(game_id)
                assert raised.value.reason == "CORRUPT_GAME" and raised.value.game_id == game_id
            with pytest.raises(CorruptRecord, match="c3"):
                await store.decisions_after("c3", 0)
            assert (await store.get_game("c3")).version == 1  # type: ignore[union-attr]
            if backend.name == "sqlite":  # (PostgreSQL's column types allow no such values)
                _execute(url, "UPDATE snapshots SET data = 'text' WHERE game_id = 'c1'")
                with pytest.raises(CorruptRecord, match="c1"):
                    await store.latest_snapshot("c1")
                _execute(url, "UPDATE games SET version = 'v' WHERE game_id = 'c4'")
                with pytest.raises(CorruptRecord, match="c4"):
                    await store.head_version("c4")
                _execute(url, "UPDATE games SET version = 0 WHERE game_id = 'c4'")
                _execute(url, "UPDATE games SET current_seat = 4294967296 WHERE game_id = 'c1'")
                with pytest.raises(CorruptRecord, match="32 bits"):
                    await store.get_game("c1")
                _execute(url, "UPDATE games SET current_seat = 0 WHERE game_id = 'c1'")

            page = await store.list_games(10, None, None)
            assert [g.game_id for g in page.games] == ["c4", "c3", "c1"]
            seen, cursor = [], None
            for _ in range(5):
                page = await store.list_games(2, cursor, None)
                seen.append([g.game_id for g in page.games])
                cursor = page.next_cursor
                if cursor is None:
                    break
            assert seen == [[], ["c4", "c3"], ["c1"], []]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_service_answers_corrupt_game_for_that_game_and_lists_the_others(
    backend: Backend,
) -> None:
    """GetGame of a game whose row or decision does not decode answers CORRUPT_GAME (it was
    INTERNAL), and ListGames lists the other games (it failed the whole page)."""
    url = backend.new_database_url()
    first = backend.start_server("corrupt-before", database_url=url)
    with first.client() as client:
        good, bad_row, bad_move = (client.create_game(players=2) for _ in range(3))
        seat = bad_move.state.summary.current_seat
        legal = client.list_legal_actions(bad_move.game_id, bad_move.seats[seat].token)
        client.submit_action(bad_move.game_id, bad_move.seats[seat].token, legal.options[0].id)
    first.stop()
    _execute(url, f"UPDATE games SET token_hashes = 'x' WHERE game_id = '{bad_row.game_id}'")
    _execute(url, "UPDATE decisions SET events = '[' "
                  f"WHERE game_id = '{bad_move.game_id}'")
    server = backend.start_server("corrupt-after", database_url=url)
    rest = server.rest()
    try:
        listed = rest.get("/v1/games")["games"]
        assert [g["gameId"] for g in listed] == [bad_move.game_id, good.game_id]
        for game_id in (bad_row.game_id, bad_move.game_id):
            error = expect_rest_error("CORRUPT_GAME", 500, rest.get, f"/v1/games/{game_id}")
            assert game_id in error.message
        assert rest.get(f"/v1/games/{good.game_id}")["state"]["summary"]["version"] == "0"
        with server.client() as client:
            assert [g.game_id for g in client.list_games().games] == [
                bad_move.game_id, good.game_id]
            failure = expect_error("CORRUPT_GAME", client.get_game, bad_row.game_id)
            assert failure.code == grpc.StatusCode.DATA_LOSS
        assert '"event": "corrupt_game_listed"' in server.log_text()
    finally:
        rest.close()


def test_sqlite_change_stamps_file_is_allocated_at_open(tmp_path: Path) -> None:
    """The change stamps file is memory-mapped: every page of it has its block on disk once
    the store is open, including a file left sparse by an earlier version, so no later store
    into it can need space (a SIGBUS on a full disk)."""
    from brass_service.store.sqlite_conn import ChangeStamps

    database = tmp_path / "games.sqlite3"
    stamps = Path(str(database) + "-brass-changes")
    with stamps.open("wb") as sparse:
        sparse.truncate(ChangeStamps._SIZE)
    assert stamps.stat().st_blocks * 512 < ChangeStamps._SIZE

    async def scenario() -> None:
        store = open_store(f"sqlite:///{database}")
        await store.open()
        await store.close()

    asyncio.run(scenario())
    assert stamps.stat().st_blocks * 512 >= ChangeStamps._SIZE


def test_sqlite_store_refuses_to_open_without_space_for_its_change_stamps(
    tmp_path: Path,
) -> None:
    """With the disk full and no change stamps file yet, opening refuses (UNAVAILABLE, a
    clear cause) instead of mapping a sparse file whose first touched page (on tmpfs even
    by a read) would be a SIGBUS."""
    with small_filesystem(4) as disk:
        url = f"sqlite:///{disk / 'games.sqlite3'}"

        async def open_and_close() -> None:
            store = open_store(url)
            await store.open()
            await store.close()

        asyncio.run(open_and_close())  # the tables exist; the disk has room
        Path(str(disk / "games.sqlite3") + "-brass-changes").unlink()
        fill_filesystem(disk)
        with pytest.raises(StoreUnavailable, match="no space for the change stamps"):
            asyncio.run(open_and_close())
