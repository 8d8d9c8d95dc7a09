"""Arenas in the store: one table (one DDL text both stores run) and its queries, through
the SqlRunner of store/accounts.py. An arena's settings (`config`) and its progress
(`state`: the rounds, their tables, games and results) are JSON documents the arena
module makes (service/arena/); every change of the state is conditional on the revision
it was made from, and one process at a time runs an arena: the one holding its lease."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .accounts import RowConflict, SqlRunner

SCHEMA = """
CREATE TABLE IF NOT EXISTS arenas (
    arena_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    status INTEGER NOT NULL,
    config TEXT NOT NULL,
    state TEXT NOT NULL,
    revision BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until DOUBLE PRECISION NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS arenas_by_status ON arenas (status, created_at);
"""

# brass.v1 ArenaStatus (the store does not import the API)
RUNNING, FINISHED = 1, 2

_COLUMNS = "arena_id, name, status, config, state, revision, created_at, updated_at"


@dataclass
class ArenaRow:
    arena_id: str
    name: str
    status: int
    config: dict[str, Any]
    state: dict[str, Any]
    revision: int
    created_at: float
    updated_at: float


def _arena(columns: dict[str, Any]) -> ArenaRow:
    return ArenaRow(str(columns["arena_id"]), str(columns["name"]), int(columns["status"]),
                    json.loads(columns["config"]), json.loads(columns["state"]),
                    int(columns["revision"]), float(columns["created_at"]),
                    float(columns["updated_at"]))


def _text(document: dict[str, Any]) -> str:
    return json.dumps(document, separators=(",", ":"), sort_keys=True)


class ArenaRows:
    """The arenas' queries, on either store."""

    def __init__(self, runner: SqlRunner) -> None:
        self.runner = runner

    async def create(self, row: ArenaRow) -> bool:
        """Stores a new arena; False when one has its id already (a configured arena)."""
        try:
            await self.runner.sql_apply([(
                f"INSERT INTO arenas ({_COLUMNS}, lease_owner, lease_until) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, NULL, 0)",
                (row.arena_id, row.name, row.status, _text(row.config), _text(row.state),
                 row.revision, row.created_at, row.updated_at), 1)])
        except RowConflict:
            return False
        return True

    async def by_id(self, arena_id: str) -> ArenaRow | None:
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM arenas WHERE arena_id = %s", (arena_id,))
        return _arena(rows[0]) if rows else None

    async def revision(self, arena_id: str) -> int | None:
        rows = await self.runner.sql_rows(
            "SELECT revision FROM arenas WHERE arena_id = %s", (arena_id,))
        return int(rows[0]["revision"]) if rows else None

    async def page(self, status: int, limit: int, before: tuple[float, str] | None
                   ) -> list[ArenaRow]:
        """Arenas (of `status`, or every one for 0) newest first, after the cursor
        (created_at, arena_id) of the previous page."""
        sql = f"SELECT {_COLUMNS} FROM arenas WHERE (%s = 0 OR status = %s)"
        params: tuple[Any, ...] = (status, status)
        if before is not None:
            sql += " AND (created_at < %s OR (created_at = %s AND arena_id < %s))"
            params += (before[0], before[0], before[1])
        rows = await self.runner.sql_rows(
            sql + " ORDER BY created_at DESC, arena_id DESC LIMIT %s", (*params, limit))
        return [_arena(row) for row in rows]

    async def running_ids(self, limit: int) -> list[str]:
        rows = await self.runner.sql_rows(
            "SELECT arena_id FROM arenas WHERE status = %s ORDER BY created_at LIMIT %s",
            (RUNNING, limit))
        return [str(row["arena_id"]) for row in rows]

    async def count_running(self) -> int:
        rows = await self.runner.sql_rows(
            "SELECT COUNT(*) AS n FROM arenas WHERE status = %s", (RUNNING,))
        return int(rows[0]["n"])

    async def claim(self, arena_id: str, owner: str, now: float, until: float) -> bool:
        """Takes (or renews) the lease of a running arena: free, lapsed or already
        `owner`'s; whether it did."""
        try:
            await self.runner.sql_apply([(
                "UPDATE arenas SET lease_owner = %s, lease_until = %s WHERE arena_id = %s "
                "AND status = %s AND (lease_owner IS NULL OR lease_owner = %s OR "
                "lease_until < %s)", (owner, until, arena_id, RUNNING, owner, now), 1)])
        except RowConflict:
            return False
        return True

    async def release(self, arena_id: str, owner: str) -> None:
        await self.runner.sql_apply([(
            "UPDATE arenas SET lease_owner = NULL, lease_until = 0 WHERE arena_id = %s AND "
            "lease_owner = %s", (arena_id, owner), None)])

    async def save(self, row: ArenaRow, state: dict[str, Any], status: int,
                   now: float) -> bool:
        """Stores the arena's new state if it is still at `row.revision` (then the row
        moves to the next revision); False when another process changed it meanwhile."""
        try:
            await self.runner.sql_apply([(
                "UPDATE arenas SET state = %s, status = %s, revision = revision + 1, "
                "updated_at = %s WHERE arena_id = %s AND revision = %s",
                (_text(state), status, now, row.arena_id, row.revision), 1)])
        except RowConflict:
            return False
        row.state, row.status, row.revision, row.updated_at = state, status, \
            row.revision + 1, now
        return True
