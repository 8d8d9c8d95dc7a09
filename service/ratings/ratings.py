"""Ratings (issue 24, item 3): a rated game that ends with every seat bound to a distinct
account updates each account's rating in the game's ruleset and player count; the changes
go into the game's hosting column (GameSummary.rating_changes) and the ratings' tables
(store/ratings.py); GetLeaderboard and GetRatingHistory read them.

The model is openskill's Plackett-Luce: it rates a free-for-all of 2 to 4 players from one
full ranking (each place a win over every seat below it), so a 4-player Brass game is one
update of four ratings rather than six pairwise Elo/Glicko games that pretend to be
independent; Glicko-2 is a two-player model and its rating periods suit batches of games,
not a rating per game. Ratings are kept apart per ruleset and player count because
a 2-player and a 4-player game of Brass reward different play. The displayed rating is
the conservative mu - 3 sigma (it rises as the model grows sure); an account is
provisional for its first `rating_provisional_games` games of a class.

Resigned and forfeited seats are last (a loss to every other seat), whoever played on for
them; the other seats keep the engine's ranking (a game a resignation ended: they share
first place). Unrated games and games with an anonymous or server-bot seat count for
nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import structlog
from openskill.models import PlackettLuce

from .. import hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..limits import RateQuota, rate_key
from ..model import LiveGame
from ..observability import RequestRecord
from ..requests import decode_cursor, encode_cursor, require
from ..store import GameRow, Store, StoreUnavailable
from ..store.accounts import RowConflict
from ..store.ratings import HistoryRow, RatingRow
from ..views.summary import timestamp_message

log = structlog.get_logger("brass_service.ratings")

MODEL = PlackettLuce()
T = TypeVar("T")
_ATTEMPTS = 4


class RatingSettings(Protocol):
    rating_provisional_games: int
    ratings_read_rate: str
    default_page_size: int
    max_page_size: int


class RatingCaller(Protocol):
    peer: str


def displayed(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 3)


def ranks_of(row: GameRow, game: Any) -> list[int]:
    """Each seat's place (1: first): resigned and forfeited seats last; the others by the
    engine's ranking (its winners share first place), or all first when a resignation
    ended the game before the rules did."""
    hosting = row.hosting or {}
    out = set(hosting.get("resigned", ())) | set(hosting.get("forfeited", ()))
    if game.is_over:
        winners = set(game.winners())
        order = [seat for seat in game.ranking() if seat not in out]
        ranks = {seat: 1 if seat in winners else place + 1
                 for place, seat in enumerate(order)}
    else:
        ranks = {seat: 1 for seat in range(row.players) if seat not in out}
    last = max(ranks.values(), default=0) + 1
    return [ranks.get(seat, last) for seat in range(row.players)]


class Ratings:
    """Settles rated games as they end; the leaderboard and the rating history."""

    def __init__(self, store: Store, settings: RatingSettings,
                 game_of: Callable[[str], Awaitable[tuple[GameRow, LiveGame]]],
                 record_changes: Callable[[str, list[dict[str, Any]]], Awaitable[None]]) -> None:
        self.store = store
        self.rows = store.ratings
        self.settings = settings
        self.game_of = game_of
        self.record_changes = record_changes
        self.read_quota = RateQuota(settings.ratings_read_rate, "rating reads",
                                    "ratings_read_rate")
        self._settling: dict[str, asyncio.Task[None]] = {}

    def game_over(self, game_id: str) -> None:
        """A change ended the game (or may have): its ratings are settled in the
        background, once."""
        if game_id not in self._settling:
            self._settling[game_id] = asyncio.create_task(self._settle_logged(game_id))

    async def _settle_logged(self, game_id: str) -> None:
        try:
            await self.settle(game_id)
        except Exception:  # (a rating left unsettled is logged; the game stands)
            log.exception("ratings_not_settled", game_id=game_id)
        finally:
            self._settling.pop(game_id, None)

    async def settle(self, game_id: str) -> None:
        for _ in range(_ATTEMPTS):
            row, live = await self.game_of(game_id)
            hosting = row.hosting or {}
            if (not hosting.get("rated") or "ratings" in hosting
                    or not (live.game.is_over or hosted.is_ended(row))):
                return
            accounts = hosted.accounts_of(row)
            ids = [accounts.get(seat, "") for seat in range(row.players)]
            if "" in ids or len(set(ids)) != row.players:
                await self.record_changes(game_id, [])  # an anonymous seat: not rated
                return
            if await self.rows.is_rated(game_id):
                return  # another process settled it
            try:
                changes = await self._apply(row, live, ids)
            except RowConflict:
                continue  # a rating moved meanwhile (another game): read again
            await self.record_changes(game_id, changes)
            return

    async def _apply(self, row: GameRow, live: LiveGame, ids: list[str]) -> list[dict[str, Any]]:
        ranks = ranks_of(row, live.game)
        before = await self.rows.current(ids, row.ruleset, row.players)
        bots = {account_id: account.bot for account_id, account in
                (await self.store.accounts.by_ids(ids)).items()}
        olds = [before.get(account_id) or RatingRow(account_id, MODEL.mu, MODEL.sigma, 0)
                for account_id in ids]
        teams = MODEL.rate([[MODEL.rating(mu=old.mu, sigma=old.sigma)] for old in olds],
                           ranks=ranks)
        now = time.time()
        after, history, changes = [], [], []
        for seat, (old, team) in enumerate(zip(olds, teams, strict=True)):
            new = RatingRow(old.account_id, team[0].mu, team[0].sigma, old.games + 1,
                            bots.get(old.account_id, False),
                            rating=displayed(team[0].mu, team[0].sigma))
            after.append(new)
            history.append(HistoryRow(old.account_id, row.game_id, row.ruleset, row.players,
                                      seat, ranks[seat], displayed(old.mu, old.sigma),
                                      new.rating, now))
            changes.append({"seat": seat, "account_id": old.account_id,
                            "rating_before": displayed(old.mu, old.sigma),
                            "rating_after": new.rating, "rank": ranks[seat],
                            "games": new.games, "provisional": self._provisional(new.games)})
        await self.rows.apply(row.game_id, row.ruleset, row.players, before, after, history,
                              now)
        return changes

    def _provisional(self, games: int) -> bool:
        return games < self.settings.rating_provisional_games

    def _page(self, page_size: int, page_token: str) -> tuple[int, tuple[float, str] | None]:
        size = page_size or self.settings.default_page_size
        require(1 <= size <= self.settings.max_page_size,
                f"page_size must be between 1 and {self.settings.max_page_size}", "page_size")
        return size, decode_cursor(page_token) if page_token else None

    async def get_leaderboard(self, request: pb.GetLeaderboardRequest, caller: RatingCaller,
                              record: RequestRecord) -> pb.GetLeaderboardResponse:
        self.read_quota.admit(f"address:{rate_key(caller.peer)}")
        require(2 <= request.players <= 4, "players must be 2, 3 or 4", "players")
        require(request.kind in pb.AccountKind.values(), "kind is not an AccountKind", "kind")
        size, cursor = self._page(request.page_size, request.page_token)
        bot = {pb.ACCOUNT_KIND_PEOPLE: False, pb.ACCOUNT_KIND_BOTS: True}.get(request.kind)
        rows, token = await _page_of(self.rows.board(
            request.ruleset or pb.RULESET_BIRMINGHAM, request.players, bot, size + 1, cursor),
            size, lambda row: (row.rating, row.account_id))
        return pb.GetLeaderboardResponse(
            entries=[pb.LeaderboardEntry(
                account_id=row.account_id, name=row.name, bot=row.bot, rating=row.rating,
                mu=row.mu, sigma=row.sigma, games=row.games,
                provisional=self._provisional(row.games)) for row in rows],
            next_page_token=token)

    async def get_rating_history(self, request: pb.GetRatingHistoryRequest,
                                 caller: RatingCaller,
                                 record: RequestRecord) -> pb.GetRatingHistoryResponse:
        self.read_quota.admit(f"address:{rate_key(caller.peer)}")
        require(0 < len(request.account_id) <= 64, "account_id is required (at most 64 "
                "characters)", "account_id")
        size, cursor = self._page(request.page_size, request.page_token)
        rows, token = await _page_of(self.rows.history(request.account_id, size + 1, cursor),
                                     size, lambda row: (row.created_at, row.game_id))
        return pb.GetRatingHistoryResponse(
            entries=[pb.RatingHistoryEntry(
                game_id=row.game_id, ruleset=row.ruleset, players=row.players, seat=row.seat,
                rank=row.rank, rating_before=row.rating_before, rating_after=row.rating_after,
                create_time=timestamp_message(row.created_at)) for row in rows],
            next_page_token=token)


async def _page_of(read: Awaitable[list[T]], size: int,
                   cursor_of: Callable[[T], tuple[float, str]]) -> tuple[list[T], str]:
    """A page of up to `size` rows read as size + 1 (one more: more follow), and the
    token of the next page."""
    try:
        rows = await read
    except StoreUnavailable as exc:
        raise ServiceError("UNAVAILABLE", "the rating store is unavailable; retry") from exc
    more = len(rows) > size
    rows = rows[:size]
    return rows, encode_cursor(cursor_of(rows[-1])) if more else ""
