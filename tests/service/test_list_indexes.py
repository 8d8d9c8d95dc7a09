"""ListGames, the gauge's count and the expiry sweep are served by indexes on both stores
(issue 20, item 7): each query's plan reads one of the store's indexes, without a scan of
the table or a sort of its rows; a database made before those indexes gets them when it is
opened; and the pages are the same as a filter of all games would give. The figures at
300,000 games are `python -m brass_service.tools.bench_list_games`'s."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from typing import Any

from brass_service.store import GameRow, ListFilter, Snapshot, open_store
from brass_service.store import postgres as pg_store
from brass_service.store import sqlite as sqlite_store
from brass_service.tools import bench_list_games

from .conftest import Backend

IN_PROGRESS, FINISHED, WAITING = 1, 2, 3
LIST_INDEX_NAMES = {
    "games_listed", "games_listed_by_status", "games_listed_by_ruleset", "games_listed_open",
    "games_listed_full", "games_by_status",
}


def _listings() -> list[tuple[str, int | None, ListFilter, tuple[float, str] | None]]:
    """Every filter ListGames can be given (the web lobby's: none and has_open_seats=true),
    with and without a cursor."""
    listings = []
    for status, ruleset, open_seats, cursor in itertools.product(
        (None, IN_PROGRESS, WAITING), (None, 2), (None, True, False),
        (None, (1_700_000_500.0, "g500")),
    ):
        where = ListFilter(ruleset=ruleset, has_open_seats=open_seats, public_only=True)
        name = f"status={status} ruleset={ruleset} open={open_seats} cursor={bool(cursor)}"
        listings.append((name, status, where, cursor))
    return listings


def _sqlite_plan(path: str, sql: str, params: Any) -> str:
    with sqlite3.connect(path) as conn:
        return "; ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))


def _postgres_plan(url: str, sql: str, params: Any) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(f"EXPLAIN {sql}", params).fetchall()  # type: ignore[arg-type]
    return "\n".join(row[0] for row in rows)


def _assert_indexed(plan: str, name: str, indexes: set[str]) -> None:
    # (SQLite: "USING INDEX name (...)"; PostgreSQL: "Index Scan using name on games",
    # "Index Only Scan using name", or "Bitmap Index Scan on name")
    used = {index for index in indexes
            if f"INDEX {index} " in f"{plan} " or f"using {index} on" in plan
            or f"Index Scan on {index} " in f"{plan} "}
    assert used, f"{name}: none of {sorted(indexes)} in the plan:\n{plan}"
    assert "Seq Scan" not in plan, f"{name}: a scan of the table:\n{plan}"
    assert "SCAN games" not in plan or "USING" in plan, f"{name}: a scan of the table:\n{plan}"
    assert "TEMP B-TREE" not in plan, f"{name}: a sort of the rows:\n{plan}"
    # PostgreSQL may sort what its indexes' conditions matched (when its statistics say
    # they are few): never the table.
    assert "Sort" not in plan or "Index Cond" in plan, f"{name}: a sort:\n{plan}"


def test_every_listing_count_and_sweep_reads_an_index(backend: Backend) -> None:
    """The plans on a store of 20,000 games (filled in bulk, with the planner's statistics),
    for each combination of filters, the count of games in progress and the sweep's read."""
    url = backend.new_database_url()

    async def open_and_close() -> None:
        store = open_store(url)
        await store.open()
        await store.close()

    asyncio.run(open_and_close())
    listed = LIST_INDEX_NAMES - {"games_by_status"}
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        bench_list_games._fill_sqlite(path, 20_000)
        module: Any = sqlite_store

        def plan(sql: str, params: Any) -> str:
            return _sqlite_plan(path, sql, params)
    else:
        bench_list_games._fill_postgres(url, 20_000)
        module = pg_store

        def plan(sql: str, params: Any) -> str:
            return _postgres_plan(url, sql, params)

    for name, status, where, cursor in _listings():
        sql, params = module.list_games_sql(20, cursor, status, where)
        _assert_indexed(plan(sql, params), name, listed)
    sweep = {"games_by_status"}
    for status in (IN_PROGRESS, WAITING):
        _assert_indexed(plan(module.COUNT_SQL, (status,)), f"count {status}", sweep)
        _assert_indexed(plan(module.IDLE_SQL, (status, 1_700_000_500.0, 1_700_000_500.0, 64)),
                        f"sweep {status}", sweep)


def _game(index: int) -> GameRow:
    """Games of every kind, several created at the same instant (the cursor's tie-break)."""
    return GameRow(
        game_id=f"g{index:03}", ruleset=1 + index % 2, rules_edition=1, players=2, seed=1,
        options={}, position_json=None, seat_names=["A", ""], token_hashes=["0" * 64, ""],
        created_at=1_700_000_000.0 + index // 3, updated_at=1_700_000_000.0 + index,
        version=0, status=(IN_PROGRESS, FINISHED, WAITING)[index % 3 if index % 5 else 0],
        current_seat=0, decision="action", visibility=2 if index % 7 == 0 else 1,
        open_seats=index % 4 % 2,
    )


def _kept(game: GameRow, status: int | None, where: ListFilter) -> bool:
    return (
        (status is None or game.status == status)
        and (where.ruleset is None or game.ruleset == where.ruleset)
        and (where.has_open_seats is None or (game.open_seats > 0) == where.has_open_seats)
        and game.visibility != 2
    )


def test_pages_of_every_filter_are_those_of_a_filter_of_all_games(backend: Backend) -> None:
    """Paged 4 at a time through 60 games, each listing gives exactly the games its filter
    keeps, newest first (ties by id, descending), each once."""
    url = backend.new_database_url()
    games = [_game(index) for index in range(60)]

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            for game in games:
                await store.create_game(game, Snapshot(0, b"snap"))
            newest_first = sorted(games, key=lambda g: (g.created_at, g.game_id), reverse=True)
            for name, status, where, _cursor in _listings():
                if _cursor is not None:
                    continue
                expected = [g.game_id for g in newest_first if _kept(g, status, where)]
                listed: list[str] = []
                cursor = None
                while True:
                    page = await store.list_games(4, cursor, status, where)
                    listed += [g.game_id for g in page.games]
                    cursor = page.next_cursor
                    if cursor is None:
                        break
                assert listed == expected, name
            assert await store.count_games(IN_PROGRESS) == sum(
                g.status == IN_PROGRESS for g in games)
            idle = await store.idle_games(WAITING, 1_700_000_030.0, 100)
            assert sorted(idle) == sorted(
                g.game_id for g in games
                if g.status == WAITING and g.updated_at < 1_700_000_030.0)
        finally:
            await store.close()

    asyncio.run(scenario())


def _index_names(url: str) -> set[str]:
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
        return {row[0] for row in rows}
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'games' "
                            "AND schemaname = current_schema()").fetchall()
    return {row[0] for row in rows}


def _drop_list_indexes(url: str) -> None:
    statements = [f"DROP INDEX {name}" for name in LIST_INDEX_NAMES]
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            for statement in statements:
                conn.execute(statement)
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]


def test_a_database_made_before_the_indexes_gets_them_when_opened(backend: Backend) -> None:
    """The indexes of a database of the previous release (its games table complete, the
    listing indexes missing) are made at start-up, and its games are listed."""
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        await store.create_game(_game(1), Snapshot(0, b"snap"))
        await store.close()
        _drop_list_indexes(url)
        assert not LIST_INDEX_NAMES & _index_names(url)
        store = open_store(url)
        await store.open()
        try:
            assert LIST_INDEX_NAMES <= _index_names(url)
            page = await store.list_games(10, None, None, ListFilter(public_only=True))
            assert [g.game_id for g in page.games] == ["g001"]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_decision_moves_the_status_only_when_it_changes(backend: Backend) -> None:
    """The head's status is stored whether a decision keeps it or changes it (SQLite writes
    it only in the second case), and the listings follow it; a stale decision changes
    nothing either way."""
    from brass_service.store import DecisionRow, HeadUpdate, VersionConflict

    url = backend.new_database_url()

    def decision(start: int) -> DecisionRow:
        return DecisionRow(
            game_id="g003", from_version=start, to_version=start + 1, seat=0,
            action={"ids": [3], "compound": False}, idempotency_key=None, fingerprint="f",
            events=[], response=b"", created_at=1_700_000_100.0 + start,
        )

    def head(version: int, status: int) -> HeadUpdate:
        return HeadUpdate(version=version, status=status, current_seat=0, decision="action",
                          updated_at=1_700_000_100.0 + version)

    async def listed(store: Any, status: int) -> list[str]:
        page = await store.list_games(10, None, status, ListFilter(public_only=True))
        return [g.game_id for g in page.games]

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            game = _game(3)
            assert game.status == IN_PROGRESS and game.visibility == 1
            await store.create_game(game, Snapshot(0, b"snap"))
            await store.append_decision(decision(0), head(1, IN_PROGRESS), None)
            row = await store.get_game("g003")
            assert row is not None and (row.version, row.status) == (1, IN_PROGRESS)
            await store.append_decision(decision(1), head(2, FINISHED), None)
            row = await store.get_game("g003")
            assert row is not None and (row.version, row.status) == (2, FINISHED)
            assert await listed(store, FINISHED) == ["g003"]
            assert await listed(store, IN_PROGRESS) == []
            for status in (FINISHED, IN_PROGRESS):  # stale: on version 1, not 2
                try:
                    await store.append_decision(decision(1), head(2, status), None)
                except VersionConflict:
                    pass
                else:
                    raise AssertionError("a stale decision was stored")
            row = await store.get_game("g003")
            assert row is not None and (row.version, row.status) == (2, FINISHED)
            assert await store.count_games(FINISHED) == 1
        finally:
            await store.close()

    asyncio.run(scenario())
