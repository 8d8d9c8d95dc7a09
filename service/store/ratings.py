"""Ratings in the store: their tables (one DDL text both stores run) and queries, through
the SqlRunner of store/accounts.py.

    ratings         (account, ruleset, players) -> the model's mu and sigma, the displayed
                    rating (mu - 3 sigma, the leaderboard's order), rated games, bot or not
    rating_history  one row per account and rated game: before, after, seat, rank
    rated_games     the games whose ratings were applied: each is applied once, whichever
                    replica gets there first
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .accounts import SqlRunner, Step

SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    account_id TEXT NOT NULL,
    ruleset INTEGER NOT NULL,
    players INTEGER NOT NULL,
    bot INTEGER NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, ruleset, players)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (ruleset, players, rating DESC, account_id);
CREATE TABLE IF NOT EXISTS rating_history (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    ruleset INTEGER NOT NULL,
    players INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX IF NOT EXISTS rating_history_by_time
    ON rating_history (account_id, created_at DESC, game_id DESC);
CREATE TABLE IF NOT EXISTS rated_games (
    game_id TEXT PRIMARY KEY,
    created_at DOUBLE PRECISION NOT NULL
);
"""


@dataclass
class RatingRow:
    account_id: str
    mu: float
    sigma: float
    games: int
    bot: bool = False
    name: str = ""
    rating: float = 0.0


@dataclass
class HistoryRow:
    account_id: str
    game_id: str
    ruleset: int
    players: int
    seat: int
    rank: int
    rating_before: float
    rating_after: float
    created_at: float


_HISTORY_COLUMNS = ("account_id, game_id, ruleset, players, seat, rank, rating_before, "
                    "rating_after, created_at")


class RatingRows:
    """The ratings' queries, on either store."""

    def __init__(self, runner: SqlRunner) -> None:
        self.runner = runner

    async def is_rated(self, game_id: str) -> bool:
        return bool(await self.runner.sql_rows(
            "SELECT 1 AS one FROM rated_games WHERE game_id = %s", (game_id,)))

    async def current(self, account_ids: Sequence[str], ruleset: int,
                      players: int) -> dict[str, RatingRow]:
        marks = ", ".join(["%s"] * len(account_ids))
        rows = await self.runner.sql_rows(
            "SELECT account_id, mu, sigma, games FROM ratings WHERE ruleset = %s AND "
            f"players = %s AND account_id IN ({marks})", (ruleset, players, *account_ids))
        return {str(row["account_id"]): RatingRow(str(row["account_id"]), float(row["mu"]),
                                                  float(row["sigma"]), int(row["games"]))
                for row in rows}

    async def apply(self, game_id: str, ruleset: int, players: int,
                    before: dict[str, RatingRow], after: list[RatingRow],
                    history: list[HistoryRow], now: float) -> None:
        """Marks the game rated and writes the new ratings (each only if it is still the
        one read: RowConflict otherwise) and the history, in one transaction."""
        steps: list[Step] = [(
            "INSERT INTO rated_games (game_id, created_at) VALUES (%s, %s) "
            "ON CONFLICT (game_id) DO NOTHING", (game_id, now), 1)]
        for row in after:
            known = before.get(row.account_id)
            if known is not None:
                steps.append((
                    "UPDATE ratings SET mu = %s, sigma = %s, rating = %s, games = %s, "
                    "updated_at = %s WHERE account_id = %s AND ruleset = %s AND players = %s "
                    "AND games = %s",
                    (row.mu, row.sigma, row.rating, row.games, now, row.account_id, ruleset,
                     players, known.games), 1))
            else:
                steps.append((
                    "INSERT INTO ratings (account_id, ruleset, players, bot, mu, sigma, "
                    "rating, games, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (account_id, ruleset, players) DO NOTHING",
                    (row.account_id, ruleset, players, int(row.bot), row.mu, row.sigma,
                     row.rating, row.games, now), 1))
        for entry in history:
            steps.append((
                f"INSERT INTO rating_history ({_HISTORY_COLUMNS}) VALUES "
                "(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (entry.account_id, entry.game_id, entry.ruleset, entry.players, entry.seat,
                 entry.rank, entry.rating_before, entry.rating_after, entry.created_at), 1))
        await self.runner.sql_apply(steps)

    async def board(self, ruleset: int, players: int, bot: bool | None, limit: int,
                    after: tuple[float, str] | None) -> list[RatingRow]:
        """Up to `limit` ratings, best first, after the cursor (rating, account id)."""
        sql = ("SELECT r.account_id, r.mu, r.sigma, r.games, r.bot, r.rating, a.name "
               "FROM ratings r JOIN accounts a ON a.account_id = r.account_id "
               "WHERE r.ruleset = %s AND r.players = %s")
        params: list[Any] = [ruleset, players]
        if bot is not None:
            sql += " AND r.bot = %s"
            params.append(int(bot))
        if after is not None:
            sql += " AND (r.rating < %s OR (r.rating = %s AND r.account_id > %s))"
            params += [after[0], after[0], after[1]]
        sql += " ORDER BY r.rating DESC, r.account_id LIMIT %s"
        params.append(limit)
        return [RatingRow(str(row["account_id"]), float(row["mu"]), float(row["sigma"]),
                          int(row["games"]), bool(row["bot"]), str(row["name"]),
                          float(row["rating"]))
                for row in await self.runner.sql_rows(sql, tuple(params))]

    async def history(self, account_id: str, limit: int,
                      after: tuple[float, str] | None) -> list[HistoryRow]:
        """Up to `limit` of the account's rated games, newest first, after the cursor."""
        sql = f"SELECT {_HISTORY_COLUMNS} FROM rating_history WHERE account_id = %s"
        params: list[Any] = [account_id]
        if after is not None:
            sql += " AND (created_at < %s OR (created_at = %s AND game_id < %s))"
            params += [after[0], after[0], after[1]]
        sql += " ORDER BY created_at DESC, game_id DESC LIMIT %s"
        params.append(limit)
        return [HistoryRow(str(row["account_id"]), str(row["game_id"]), int(row["ruleset"]),
                           int(row["players"]), int(row["seat"]), int(row["rank"]),
                           float(row["rating_before"]), float(row["rating_after"]),
                           float(row["created_at"]))
                for row in await self.runner.sql_rows(sql, tuple(params))]
