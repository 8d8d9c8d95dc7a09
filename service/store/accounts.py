"""Accounts in the store: their tables (one DDL text both stores run), their rows, and the
queries the accounts module makes, through two primitives each store provides (SqlRunner):
a read, and a list of writes applied in one transaction, each with the number of rows it
must change (else nothing is written and RowConflict is raised).

    accounts        one row per account: its name (and the key names are compared by,
                    unique), bot or person, the SHA-256 digest of its API key (NULL once
                    revoked; the key itself is never stored)
    account_seats   (game, seat) -> account: which games list under an account; the game's
                    own hosting column says whether the binding still holds
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .rows import ACCOUNT_GAMES_SQL, GAME_COLUMNS, GameRow, game_row_from_columns

# Both stores run it (SQLite takes DOUBLE PRECISION as REAL).
SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    account_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    bot INTEGER NOT NULL,
    key_hash TEXT UNIQUE,
    created_at DOUBLE PRECISION NOT NULL,
    key_changed_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS account_seats (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS account_seats_by_account ON account_seats (account_id, game_id);
CREATE INDEX IF NOT EXISTS account_seats_recent ON account_seats (account_id, created_at);
"""

# (SQL with %s placeholders, parameters, rows it must change or None: any number)
Step = tuple[str, tuple[Any, ...], int | None]


class RowConflict(Exception):
    """A write of SqlRunner.apply changed another number of rows than it had to (a name
    taken, a key rotated meanwhile): the transaction was rolled back."""


class SqlRunner(Protocol):
    async def sql_rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        """The rows of a read (SQL with %s placeholders), as dicts by column name."""
        ...

    async def sql_apply(self, steps: Sequence[Step]) -> None:
        """Runs the writes in one transaction; RowConflict (and nothing written) when a
        write changes another number of rows than its step says, or breaks a unique key."""
        ...


@dataclass
class AccountRow:
    account_id: str
    name: str
    bot: bool
    key_hash: str | None
    created_at: float


_COLUMNS = "account_id, name, bot, key_hash, created_at"


def _account(columns: dict[str, Any]) -> AccountRow:
    return AccountRow(str(columns["account_id"]), str(columns["name"]), bool(columns["bot"]),
                      columns["key_hash"], float(columns["created_at"]))


class AccountRows:
    """The accounts' queries, on either store."""

    def __init__(self, runner: SqlRunner) -> None:
        self.runner = runner

    async def create(self, row: AccountRow, name_key: str) -> bool:
        """Stores a new account; False when another has the same name key."""
        try:
            await self.runner.sql_apply([(
                "INSERT INTO accounts (account_id, name, name_key, bot, key_hash, created_at, "
                "key_changed_at) SELECT %s, %s, %s, %s, %s, %s, %s WHERE NOT EXISTS "
                "(SELECT 1 FROM accounts WHERE name_key = %s)",
                (row.account_id, row.name, name_key, int(row.bot), row.key_hash,
                 row.created_at, row.created_at, name_key), 1)])
        except RowConflict:
            return False
        return True

    async def by_id(self, account_id: str) -> AccountRow | None:
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM accounts WHERE account_id = %s", (account_id,))
        return _account(rows[0]) if rows else None

    async def by_key_hash(self, key_hash: str) -> AccountRow | None:
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM accounts WHERE key_hash = %s", (key_hash,))
        return _account(rows[0]) if rows else None

    async def by_ids(self, account_ids: Sequence[str]) -> dict[str, AccountRow]:
        if not account_ids:
            return {}
        marks = ", ".join(["%s"] * len(account_ids))
        rows = await self.runner.sql_rows(
            f"SELECT {_COLUMNS} FROM accounts WHERE account_id IN ({marks})",
            tuple(account_ids))
        return {row.account_id: row for row in map(_account, rows)}

    async def set_key(self, account_id: str, old_hash: str | None, new_hash: str | None,
                      now: float, any_old: bool = False) -> bool:
        """Replaces the key digest if it is still `old_hash` (any, with `any_old`: the
        operator's); whether it did."""
        condition = "" if any_old else " AND key_hash = %s"
        params: tuple[Any, ...] = (new_hash, now, account_id)
        if not any_old:
            params += (old_hash,)
        try:
            await self.runner.sql_apply([(
                f"UPDATE accounts SET key_hash = %s, key_changed_at = %s "
                f"WHERE account_id = %s{condition}", params, 1)])
        except RowConflict:
            return False
        return True

    async def count_active_games(self, account_id: str) -> int:
        """The account's games waiting for players or in progress (seats it left count
        until their games end: a bound, not a listing)."""
        rows = await self.runner.sql_rows(
            "SELECT COUNT(*) AS n FROM games WHERE status IN (1, 3) AND "
            + ACCOUNT_GAMES_SQL.format(p="%s"), (account_id,))
        return int(rows[0]["n"])

    async def recent_games(self, account_id: str, limit: int) -> list[GameRow]:
        """The games of the account's `limit` most recent seats (one range of an index,
        then each game by its key: the account stream's read, whatever the store holds)."""
        rows = await self.runner.sql_rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id IN (SELECT game_id FROM "
            "account_seats WHERE account_id = %s ORDER BY created_at DESC LIMIT %s)",
            (account_id, limit))
        return [game_row_from_columns(row) for row in rows]

    async def bind_seat(self, game_id: str, seat: int, account_id: str, now: float) -> None:
        """Lists the game under the account (the seat's earlier account no longer)."""
        await self.runner.sql_apply([
            ("DELETE FROM account_seats WHERE game_id = %s AND seat = %s", (game_id, seat),
             None),
            ("INSERT INTO account_seats (game_id, seat, account_id, created_at) "
             "VALUES (%s, %s, %s, %s)", (game_id, seat, account_id, now), 1),
        ])
