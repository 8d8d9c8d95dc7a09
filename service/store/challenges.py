"""Challenges in the store: one table (one DDL text both stores run) and its queries,
through the SqlRunner of store/accounts.py. A challenge's request (ruleset, options,
rated) is kept as the proto3 JSON the service made of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .accounts import RowConflict, SqlRunner
from .webhooks import HookEvent, outbox_steps

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
CREATE TABLE IF NOT EXISTS challenge_parts (
    challenge_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    place INTEGER NOT NULL,
    accepted INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, account_id)
);
CREATE INDEX IF NOT EXISTS challenge_parts_by_account ON challenge_parts (account_id);
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

    async def create(self, row: ChallengeRow, challenged: list[str],
                     hooks: Sequence[HookEvent] = ()) -> None:
        """Stores the challenge and its challenged accounts (seats 1, 2, … in order), and
        the webhooks' events `hooks` in the same transaction."""
        await self.runner.sql_apply([(
            f"INSERT INTO challenges ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (row.challenge_id, row.challenger_id, row.challenged_id, row.request, row.status,
             row.game_id, row.created_at), 1), *[(
                 "INSERT INTO challenge_parts (challenge_id, account_id, place, accepted) "
                 "VALUES (%s, %s, %s, 0)", (row.challenge_id, account_id, place), 1)
                 for place, account_id in enumerate(challenged, start=1)],
            *outbox_steps(hooks)])

    async def parts(self, challenge_id: str) -> list[tuple[str, int, bool]]:
        """(account, seat, accepted) of each challenged account, by seat."""
        rows = await self.runner.sql_rows(
            "SELECT account_id, place, accepted FROM challenge_parts WHERE challenge_id = %s "
            "ORDER BY place", (challenge_id,))
        return [(str(row["account_id"]), int(row["place"]), bool(row["accepted"]))
                for row in rows]

    async def accept_part(self, challenge_id: str, account_id: str) -> None:
        """Marks the account's acceptance while the challenge is open (RowConflict: it
        accepted already, or the challenge closed)."""
        await self.runner.sql_apply([(
            "UPDATE challenge_parts SET accepted = 1 WHERE challenge_id = %s AND "
            "account_id = %s AND accepted = 0 AND EXISTS (SELECT 1 FROM challenges WHERE "
            "challenge_id = %s AND status = %s)",
            (challenge_id, account_id, challenge_id, OPEN), 1)])

    async def by_id(self, challenge_id: str) -> ChallengeRow | None:
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM challenges WHERE challenge_id = %s", (challenge_id,))
        return _challenge(rows[0]) if rows else None

    async def open_of(self, account_id: str, limit: int) -> list[ChallengeRow]:
        """The open challenges to and from the account, oldest first."""
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM challenges WHERE status = %s AND (challenger_id = %s "
            "OR challenge_id IN (SELECT challenge_id FROM challenge_parts WHERE "
            "account_id = %s)) ORDER BY created_at LIMIT %s",
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
