"""SQLite store (the embedded default): one file, WAL journal, synchronous=FULL.

sqlite3 blocks, so every statement runs on one dedicated worker thread, never on the event
loop. One thread also serializes writers inside this process; other processes sharing the
file are kept honest by the same version checks and unique keys as on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from .base import (
    DECISION_COLUMNS,
    GAME_COLUMNS,
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


class SqliteStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store")
        self._conn: sqlite3.Connection | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def call() -> T:
            assert self._conn is not None, "store is not open"
            try:
                return fn(self._conn)
            except sqlite3.OperationalError as exc:
                raise StoreUnavailable(f"sqlite: {exc}") from exc

        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def open(self) -> None:
        def connect() -> None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            # FULL: the WAL is synced at every commit, so an acknowledged move survives
            # a power cut, not just a process crash.
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.executescript(SCHEMA)
            self._conn = conn

        await asyncio.get_running_loop().run_in_executor(self._executor, connect)

    async def close(self) -> None:
        def disconnect() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await asyncio.get_running_loop().run_in_executor(self._executor, disconnect)
        self._executor.shutdown(wait=True)

    def add_listener(self, listener: ChangeListener) -> None:
        # Only this process writes through this store object; the service notifies its own
        # watchers directly. Other processes on the same file are caught by polling.
        return None

    async def create_game(self, game: GameRow, snapshot: Snapshot) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    f"INSERT INTO games ({GAME_COLUMNS}) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    _game_values(game),
                )
                conn.execute(
                    "INSERT INTO snapshots (game_id, version, data) VALUES (?, ?, ?)",
                    (game.game_id, snapshot.version, snapshot.data),
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

        await self._run(write)

    async def get_game(self, game_id: str) -> GameRow | None:
        def read(conn: sqlite3.Connection) -> GameRow | None:
            row = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            return game_row_from_columns(dict(row)) if row else None

        return await self._run(read)

    async def latest_snapshot(self, game_id: str) -> Snapshot | None:
        def read(conn: sqlite3.Connection) -> Snapshot | None:
            row = conn.execute(
                "SELECT version, data FROM snapshots WHERE game_id = ? "
                "ORDER BY version DESC LIMIT 1",
                (game_id,),
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
            conn.execute("BEGIN IMMEDIATE")
            try:
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
                if moved != 1:
                    raise VersionConflict(row.game_id)
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
                if snapshot is not None:
                    conn.execute(
                        "INSERT OR REPLACE INTO snapshots (game_id, version, data) "
                        "VALUES (?, ?, ?)",
                        (row.game_id, snapshot.version, snapshot.data),
                    )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

        await self._run(write)

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
