"""WatchGame: a stream's admission (slots per game, client, address and connection), and
the stream of a game's changes, re-checking the seat's token at every wake-up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable

from .. import auth, hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..limits import WatchLimiter, WatchSlot
from ..model import LiveGame
from ..observability import ACTIVE_WATCHERS, RequestRecord
from ..requests import require
from ..store import GameRow, Store
from ..views.answers import StateParts, WatchUpdate, stored_event_messages
from ..views.view_cache import ViewCache
from .access import Access, Caller, address_identity, client_identity
from .delay import SpectatorDelay
from .live import LiveGames
from .settings import ServiceSettings
from .signals import ChangeBroker


class WatchStream:
    """The updates of one watcher. Always aclose() it: that frees the watcher's slot even
    when the stream was never iterated."""

    def __init__(
        self, updates: AsyncGenerator[WatchUpdate, None], release: Callable[[], None]
    ) -> None:
        self._updates = updates
        self._release = release

    def __aiter__(self) -> AsyncIterator[WatchUpdate]:
        return self._updates

    async def aclose(self) -> None:
        try:
            await self._updates.aclose()
        finally:
            self._release()


class Watching:
    """WatchGame: admission of a stream, and the stream of a game's changes."""

    def __init__(self, store: Store, settings: ServiceSettings, broker: ChangeBroker,
                 live: LiveGames, access: Access, watch_limiter: WatchLimiter,
                 delay: SpectatorDelay,
                 past: Callable[[GameRow, int], Awaitable[LiveGame]],
                 views: ViewCache) -> None:
        self.delay = delay
        self.past = past  # the game at a past version (Replays.game_at_version)
        self.views = views
        self.store = store
        self.settings = settings
        self.broker = broker
        self.live = live
        self.access = access
        self.watch_limiter = watch_limiter

    async def watch_game(
        self, request: pb.WatchGameRequest, caller: Caller, record: RequestRecord
    ) -> WatchStream:
        """Validates and registers the watcher, then returns its stream of updates.

        Everything that can be refused is checked before the first message, so the caller
        gets a plain error rather than a broken stream.
        """
        record.game_id = request.game_id
        row, live = await self.live.get(request.game_id)
        seat = self.access.seat_of(row, caller)
        record.seat = seat
        require(request.from_version >= 0, "from_version must not be negative", "from_version")
        require(
            request.from_version <= live.version,
            f"from_version {request.from_version} is ahead of the game "
            f"(version {live.version})",
            "from_version",
        )
        await self.delay.require_visible(row, live, seat, request.from_version, "from_version")
        slot = WatchSlot(client_identity(caller, request.game_id, seat),
                         address_identity(caller), caller.connection)
        self.watch_limiter.admit(slot, request.game_id, self.broker)
        wake = self.broker.subscribe(request.game_id)
        ACTIVE_WATCHERS.inc()
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.broker.unsubscribe(request.game_id, wake)
                self.watch_limiter.release(slot)
                ACTIVE_WATCHERS.dec()

        # The digest of the token the seat was resolved with: the stream checks at each
        # wake-up that the seat still has it (a reissue, revocation or leave ends it).
        # (an account's key: the token its seat was given)
        digest = (row.token_hashes[seat] if seat is not None and caller.account is not None
                  else auth.hash_token(caller.token) if seat is not None and caller.token
                  else None)
        updates = self._watch_stream(
            request.game_id, request.from_version, seat, wake, record, release, digest
        )
        return WatchStream(updates, release)

    def require_seat_held(self, row: GameRow, seat: int | None, digest: str | None) -> None:
        """Ends a seat's watch stream (SEAT_TOKEN_REVOKED) once `row`, or the newer row in
        memory, shows the seat without the token the stream was opened with."""
        if seat is None or digest is None:
            return
        entry = self.live.entry(row.game_id)
        if entry is not None and entry.row.seats_revision > row.seats_revision:
            row = entry.row  # changed by this process since `row` was read
        if not auth.holds_seat(digest, row.token_hashes, seat):
            raise ServiceError(
                "SEAT_TOKEN_REVOKED",
                f"the token of this stream no longer holds seat {seat} of game "
                f"{row.game_id} (reissued, revoked or left); watch again with the "
                "seat's current token, or as a spectator",
                game_id=row.game_id, seat=seat,
            )

    async def _watch_stream(
        self,
        game_id: str,
        from_version: int,
        seat: int | None,
        wake: asyncio.Event,
        record: RequestRecord,
        release: Callable[[], None],
        digest: str | None = None,
    ) -> AsyncIterator[WatchUpdate]:
        last = from_version
        sent_any = False
        revision: int | None = None  # the seats revision whose lobby events were sent
        idle_limit = self.settings.watch_idle_seconds
        loop = asyncio.get_running_loop()
        last_sent = loop.time()
        try:
            while True:
                wake.clear()
                row, live = await self.live.get(game_id)
                self.require_seat_held(row, seat, digest)
                head = live.version
                if revision is None:
                    revision = row.seats_revision
                # a delayed spectator's stream goes as far as its view of the game
                visible = await self.delay.visible_version(row, live, seat)
                delayed = visible < head
                if delayed:
                    head, revision = visible, row.seats_revision  # (no lobby events)
                game = live.game
                if head > last or not sent_any or row.seats_revision != revision:
                    rows = await self.store.decisions_after(
                        game_id, last, up_to=head, limit=self.settings.watch_batch
                    )
                    batch_end = rows[-1].to_version if rows else head
                    timed: list[tuple[float, pb.GameEvent]] = []
                    for stored in rows:
                        timed.extend((stored.created_at, e)
                                     for e in stored_event_messages(game.ruleset, stored))
                    state = None
                    if batch_end == head:
                        timed.extend(hosted.lobby_events_after(row, revision))
                        revision = row.seats_revision
                        state = StateParts(
                            row, await self.past(row, head) if delayed else live, seat,
                            self.views)
                    timed.sort(key=lambda pair: pair[0])  # (stable: a decision's stay in order)
                    update = WatchUpdate(batch_end, [event for _at, event in timed], state)
                    sent_any = True
                    last = batch_end
                    record.version = last
                    # The seats may have changed while the decisions were read.
                    self.require_seat_held(row, seat, digest)
                    yield update
                    last_sent = loop.time()
                    if batch_end < head:
                        continue  # more stored decisions to send before waiting
                if game.is_over or hosted.is_ended(row):
                    return
                wait = self.settings.watch_poll_seconds
                if idle_limit > 0:
                    left = last_sent + idle_limit - loop.time()
                    if left <= 0:  # nobody moved the game: free the slot
                        raise ServiceError(
                            "WATCH_IDLE",
                            f"game {game_id} did not change for {idle_limit:g} s; this "
                            f"stream ends at version {last}: watch again from it to go on",
                            game_id=game_id, version=last, idle_seconds=f"{idle_limit:g}",
                        )
                    wait = min(wait, left)
                # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that comes
                # as the wake-up does (the client left at a move), and the stream then went
                # on forever, holding its slot and blocking the server's shutdown.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await wake.wait()
        finally:
            release()
