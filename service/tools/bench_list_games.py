"""ListGames at scale (issue 20, item 7):

    python -m brass_service.tools.bench_list_games [--games 300000] [--reads 20]
        [--database sqlite|postgresql://...]

Opens a fresh store (a new SQLite file, or a new schema of the PostgreSQL database given),
fills it with `--games` games by one bulk INSERT ... SELECT (not through the API), and
prints, for each listing the service makes (no filter, has_open_seats, status, ruleset,
their combinations, a page deep in the cursor), the count of games in progress and the
expiry sweep's read, the median and max wall time of `--reads` calls of the store's own
method, and the rows returned.

The games, newest first by creation: one in 10 unlisted, one in 100 in progress, one in
10,000 waiting with open seats, one in 1,000 of Pittsburgh, the rest finished Birmingham
games: what a filter asks is rare and spread over the whole table, which is what makes a
scan of the table for it long. Only the store's public methods are called, so the script
measures an older checkout too (e.g. main's service/ as the package brass_service first
on PYTHONPATH, running this file). It is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

from brass_service.store import ListFilter, open_store

IN_PROGRESS, FINISHED, WAITING = 1, 2, 3
BIRMINGHAM, PITTSBURGH = 1, 2

# One row per game: i from 1 to n (created at BASE + i). Written once for both stores
# (CASE and integer arithmetic only; '%' is doubled for psycopg's placeholders).
_COLUMNS = (
    "game_id, ruleset, rules_edition, players, seed, options, position_json, seat_names, "
    "token_hashes, created_at, updated_at, version, status, current_seat, decision, "
    "visibility, open_seats"
)
_BASE = 1_700_000_000


def _values(mod: str) -> str:
    waiting = f"{mod}(i, 10000) = 3"
    in_progress = f"{mod}(i, 100) = 3"
    return (
        f"'g' || i, CASE WHEN {mod}(i, 1000) = 3 THEN {PITTSBURGH} ELSE {BIRMINGHAM} END, "
        "1, 2, NULL, '{}', NULL, '[\"A\", \"\"]', '[\"\", \"\"]', "
        f"{_BASE} + i, {_BASE} + i, 0, "
        f"CASE WHEN {waiting} THEN {WAITING} WHEN {in_progress} THEN {IN_PROGRESS} "
        f"ELSE {FINISHED} END, 0, 'action', "
        f"CASE WHEN {mod}(i, 10) = 5 THEN 2 ELSE 1 END, "
        f"CASE WHEN {waiting} THEN 1 ELSE 0 END"
    )


def _fill_sqlite(path: str, games: int) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    with conn:
        conn.create_function("mod", 2, lambda a, b: a % b, deterministic=True)
        conn.execute(
            f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            f"INSERT INTO games ({_COLUMNS}) SELECT {_values('mod')} FROM n",
            (games,),
        )
    conn.execute("ANALYZE")  # (what a long-running database has; changes no plan here)
    conn.close()


def _fill_postgres(url: str, games: int) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            f"INSERT INTO games ({_COLUMNS}) SELECT {_values('mod')} "  # type: ignore[arg-type]
            "FROM generate_series(1, %s) AS i",
            (games,),
        )
        conn.execute("VACUUM ANALYZE games")


def _listings(games: int) -> list[tuple[str, Any]]:
    """(name, the arguments of list_games after the page size)."""
    deep = (float(_BASE + games // 2), f"g{games // 2}")
    public = {"public_only": True}
    return [
        ("no filter", (None, None, ListFilter(**public))),
        ("has_open_seats=true (lobby)", (None, None, ListFilter(has_open_seats=True, **public))),
        ("has_open_seats=false", (None, None, ListFilter(has_open_seats=False, **public))),
        ("status=WAITING", (None, WAITING, ListFilter(**public))),
        ("status=IN_PROGRESS", (None, IN_PROGRESS, ListFilter(**public))),
        ("ruleset=PITTSBURGH", (None, None, ListFilter(ruleset=PITTSBURGH, **public))),
        ("status=IN_PROGRESS ruleset=PITTSBURGH",
         (None, IN_PROGRESS, ListFilter(ruleset=PITTSBURGH, **public))),
        ("status=WAITING has_open_seats=true",
         (None, WAITING, ListFilter(has_open_seats=True, **public))),
        ("ruleset=PITTSBURGH has_open_seats=true",
         (None, None, ListFilter(ruleset=PITTSBURGH, has_open_seats=True, **public))),
        ("no filter, cursor mid-table", (deep, None, ListFilter(**public))),
        ("status=IN_PROGRESS, cursor mid-table", (deep, IN_PROGRESS, ListFilter(**public))),
    ]


async def _time(reads: int, call: Any) -> tuple[float, float, int]:
    times, size = [], 0
    for _ in range(reads):
        start = time.perf_counter()
        result = await call()
        times.append(time.perf_counter() - start)
        size = len(result.games) if hasattr(result, "games") else (
            len(result) if isinstance(result, list) else int(result))
    return statistics.median(times) * 1000, max(times) * 1000, size


async def measure(url: str, games: int, reads: int, page_size: int) -> None:
    store = open_store(url)
    await store.open()
    await store.close()
    start = time.perf_counter()
    if url.startswith("sqlite:///"):
        _fill_sqlite(url[len("sqlite:///"):], games)
    else:
        _fill_postgres(url, games)
    print(f"filled {games:,} games in {time.perf_counter() - start:.1f} s")
    store = open_store(url)
    start = time.perf_counter()
    await store.open()  # (a database made before this version gets its indexes here)
    print(f"opened in {time.perf_counter() - start:.2f} s")
    try:
        print(f"{'listing':45} {'median ms':>10} {'max ms':>8} {'rows':>6}")
        for name, (cursor, status, where) in _listings(games):
            median, longest, size = await _time(reads, lambda c=cursor, s=status, w=where: (
                store.list_games(page_size, c, s, w)))
            print(f"{name:45} {median:10.2f} {longest:8.2f} {size:6}")
        for name, call in [
            ("count_games(IN_PROGRESS) (gauge)", lambda: store.count_games(IN_PROGRESS)),
            ("idle_games(IN_PROGRESS) (expiry sweep)",
             lambda: store.idle_games(IN_PROGRESS, _BASE + games // 2, 64)),
            ("idle_games(WAITING) (expiry sweep)",
             lambda: store.idle_games(WAITING, _BASE + games // 2, 64)),
        ]:
            median, longest, size = await _time(reads, call)
            print(f"{name:45} {median:10.2f} {longest:8.2f} {size:6}")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--page-size", type=int, default=20)
    parser.add_argument("--database", default="sqlite",
                        help="sqlite (a new file) or a postgresql:// URL (a new schema in it)")
    args = parser.parse_args()
    if args.database == "sqlite":
        with tempfile.TemporaryDirectory() as workdir:
            url = f"sqlite:///{Path(workdir) / 'bench.sqlite3'}"
            asyncio.run(measure(url, args.games, args.reads, args.page_size))
        return
    import psycopg

    schema = "brass_bench_" + uuid.uuid4().hex[:12]
    with psycopg.connect(args.database, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    try:
        separator = "&" if "?" in args.database else "?"
        url = f"{args.database}{separator}options={quote(f'-csearch_path={schema}')}"
        asyncio.run(measure(url, args.games, args.reads, args.page_size))
    finally:
        with psycopg.connect(args.database, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
