"""StreamAccountEvents (issue 24, item 2): one long-lived stream per account of what needs
it, in the manner of lichess's bot stream.

The stream does not replay a log: at each wake-up it reads what stands now (the account's
open challenges, and its games from the listing of its seats) and sends what it has not
sent yet: a challenge, a game started, a turn (game, version) to play, a game over. So it
starts with what is pending, and a client that reconnects misses no turn. It wakes when a
game of the account changes in this process (the games' ChangeBroker), when a challenge of
the account changes (notify), and every poll period otherwise (another replica's change).
Streams are limited per account and in all.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Protocol

from .. import hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..store import GameRow, Store
from ..views.summary import game_summary
from .accounts import AccountCaller, Accounts
from .challenges import Challenges, challenge_message

# Games and open challenges one read looks at (an account's games in progress beyond
# this many are not followed: max_account_games bounds how many it may have).
_MAX_FOLLOWED = 100
# A rated game's game over waits this long at most for its rating changes.
_RATINGS_WAIT_SECONDS = 5.0


class StreamSettings(Protocol):
    max_account_streams: int
    max_account_streams_per_account: int
    watch_poll_seconds: float


class Broker(Protocol):
    def attach(self, game_id: str, event: asyncio.Event) -> None: ...

    def detach(self, game_id: str, event: asyncio.Event) -> None: ...


class AccountStreams:
    """The accounts' streams of events, with their wake-ups and their limits."""

    def __init__(self, store: Store, settings: StreamSettings, accounts: Accounts,
                 broker: Broker) -> None:
        self.store = store
        self.settings = settings
        self.accounts = accounts
        self.broker = broker
        self.challenges: Challenges | None = None  # set once both exist
        self._wakes: dict[str, set[asyncio.Event]] = {}
        self._total = 0

    def notify(self, account_id: str) -> None:
        """A challenge of the account changed: its streams read again now."""
        for event in self._wakes.get(account_id, ()):
            event.set()

    async def open(self, request: pb.StreamAccountEventsRequest, caller: AccountCaller
                   ) -> AsyncIterator[pb.StreamAccountEventsResponse]:
        """Admits the stream (refusals come before its first event) and returns it."""
        account = await self.accounts.caller_account(caller, "StreamAccountEvents")
        held = self._wakes.get(account.account_id, set())
        if len(held) >= self.settings.max_account_streams_per_account:
            raise ServiceError("RATE_LIMITED", f"this account holds {len(held)} event "
                               "streams, the most it may hold at once",
                               limit="max_account_streams_per_account")
        if self._total >= self.settings.max_account_streams:
            raise ServiceError("RATE_LIMITED", "the server holds as many account streams as "
                               "it may", limit="max_account_streams")
        return self._events(account.account_id)

    async def _events(self, account_id: str) -> AsyncIterator[pb.StreamAccountEventsResponse]:
        shown: set[str] = set()  # challenges sent
        following: dict[str, int] = {}  # game -> the version of the turn sent (-1: none)
        waiting: dict[str, float] = {}  # rated game over -> when seen, before its ratings
        # (held from the first read: a stream never iterated holds nothing)
        wake = asyncio.Event()
        self._wakes.setdefault(account_id, set()).add(wake)
        self._total += 1
        try:
            while True:
                wake.clear()
                for event in await self._challenge_events(account_id, shown):
                    yield event
                for event in await self._game_events(account_id, following, wake, waiting):
                    yield event
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self.settings.watch_poll_seconds)
        finally:
            for game_id in following:
                self.broker.detach(game_id, wake)
            held = self._wakes.get(account_id, set())
            held.discard(wake)
            if not held:
                self._wakes.pop(account_id, None)
            self._total -= 1

    async def _challenge_events(self, account_id: str, shown: set[str]
                                ) -> list[pb.StreamAccountEventsResponse]:
        assert self.challenges is not None
        rows = await self.challenges.rows.open_of(account_id, _MAX_FOLLOWED)
        # a challenge shown open and closed since (accepted, declined, withdrawn) is sent
        # once more, closed, so that the other side hears of it too
        open_ids = {row.challenge_id for row in rows}
        for challenge_id in sorted(shown - open_ids):
            row = await self.challenges.rows.by_id(challenge_id)
            if row is None or row.status != pb.CHALLENGE_STATUS_OPEN:
                shown.discard(challenge_id)
                if row is not None:
                    rows.append(row)
        events = [pb.StreamAccountEventsResponse(challenge=challenge_message(
                      row, await self.challenges.rows.parts(row.challenge_id)))
                  for row in rows if row.challenge_id not in shown]
        shown.update(open_ids)
        return events

    @staticmethod
    def _ratings_wait(row: GameRow, waiting: dict[str, float]) -> bool:
        """Whether a rated game's game over waits for its rating changes (at most
        _RATINGS_WAIT_SECONDS from when the end was seen), so that the event carries them."""
        hosting = hosted.hosting_of(row)
        if not hosting.get("rated") or "ratings" in hosting:
            return False
        since = waiting.setdefault(row.game_id, time.monotonic())
        return time.monotonic() - since < _RATINGS_WAIT_SECONDS

    async def _game_events(self, account_id: str, following: dict[str, int],
                           wake: asyncio.Event, waiting: dict[str, float]
                           ) -> list[pb.StreamAccountEventsResponse]:
        events = []
        for row in await self.store.accounts.recent_games(account_id, _MAX_FOLLOWED):
            seat = _seat_of(row, account_id)
            if seat is None:
                continue
            over = row.status == pb.GAME_STATUS_FINISHED or hosted.is_ended(row)
            if row.game_id in following and over and self._ratings_wait(row, waiting):
                continue  # the rating changes come in a moment (their write wakes us)
            if row.game_id in following and over:
                events.append(pb.StreamAccountEventsResponse(game_over=pb.GameOver(
                    summary=game_summary(row))))
                del following[row.game_id]
                self.broker.detach(row.game_id, wake)
                continue
            if over or row.status != pb.GAME_STATUS_IN_PROGRESS:
                continue
            if row.game_id not in following:
                following[row.game_id] = -1
                self.broker.attach(row.game_id, wake)
                events.append(pb.StreamAccountEventsResponse(game_started=pb.GameStarted(
                    game_id=row.game_id, seat=seat)))
            if (row.current_seat == seat and following[row.game_id] != row.version
                    and seat not in hosted.hosting_of(row).get("resigned", ())):
                following[row.game_id] = row.version
                events.append(pb.StreamAccountEventsResponse(your_turn=pb.YourTurn(
                    game_id=row.game_id, seat=seat, version=row.version)))
        return events


def _seat_of(row: GameRow, account_id: str) -> int | None:
    for seat, holder in hosted.accounts_of(row).items():
        if holder == account_id:
            return seat
    return None
