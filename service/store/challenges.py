"""Challenges in the store: one table (one DDL text both stores run) and its queries,
through the SqlRunner of store/accounts.py. A challenge's request (ruleset, options,
rated) is kept as the proto3 JSON the service made of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .accounts import RowConflict, SqlRunner

SCHEMA = """
CREATE TABLE IF NOT EXISTS challenges (
    challenge_id TEXT PRIMARY KEY,
    challenger_id TEXT NOT NULL,
    challenged_id TEXT NOT NULL,
    request TEXT NOT NULL,
    status INTEGER NOT NULL,
    game_id TEXT,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges (challenged_id, status);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges (challenger_id, status);
"""

# brass.v1 ChallengeStatus (the store does not import the API)
OPEN, ACCEPTED, DECLINED = 1, 2, 3

_COLUMNS = "challenge_id, challenger_id, challenged_id, request, status, game_id, created_at"


@dataclass
class ChallengeRow:
    challenge_id: str
    challenger_id: str
    challenged_id: str
    request: str
    status: int
    game_id: str | None
    created_at: float


def _challenge(columns: dict[str, Any]) -> ChallengeRow:
    return ChallengeRow(str(columns["challenge_id"]), str(columns["challenger_id"]),
                        str(columns["challenged_id"]), str(columns["request"]),
                        int(columns["status"]), columns["game_id"],
                        float(columns["created_at"]))


class ChallengeRows:
    """The challenges' queries, on either store."""

    def __init__(self, runner: SqlRunner) -> None:
        self.runner = runner

    async def create(self, row: ChallengeRow) -> None:
        await self.runner.sql_apply([(
            f"INSERT INTO challenges ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (row.challenge_id, row.challenger_id, row.challenged_id, row.request, row.status,
             row.game_id, row.created_at), 1)])

    async def by_id(self, challenge_id: str) -> ChallengeRow | None:
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM challenges WHERE challenge_id = %s", (challenge_id,))
        return _challenge(rows[0]) if rows else None

    async def open_of(self, account_id: str, limit: int) -> list[ChallengeRow]:
        """The open challenges to and from the account, oldest first."""
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM challenges WHERE status = %s AND "
            "(challenged_id = %s OR challenger_id = %s) ORDER BY created_at LIMIT %s",
            (OPEN, account_id, account_id, limit))
        return [_challenge(row) for row in rows]

    async def count_open_from(self, account_id: str) -> int:
        rows = await self.runner.sql_rows(
            "SELECT COUNT(*) AS n FROM challenges WHERE challenger_id = %s AND status = %s",
            (account_id, OPEN))
        return int(rows[0]["n"])

    async def close(self, challenge_id: str, status: int, game_id: str | None) -> bool:
        """Moves an open challenge to `status` (with its game); False when it was not open
        any more (accepted or declined meanwhile, by any process)."""
        try:
            await self.runner.sql_apply([(
                "UPDATE challenges SET status = %s, game_id = %s WHERE challenge_id = %s "
                "AND status = %s", (status, game_id, challenge_id, OPEN), 1)])
        except RowConflict:
            return False
        return True

    async def set_game(self, challenge_id: str, game_id: str | None, status: int) -> None:
        await self.runner.sql_apply([(
            "UPDATE challenges SET game_id = %s, status = %s WHERE challenge_id = %s",
            (game_id, status, challenge_id), 1)])
