"""What keeps the store and the process tidy: the sweep of abandoned games, the gauges,
and waking watchers when another process on the same SQLite file writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import structlog

from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..observability import ACTIVE_GAMES, CACHED_GAMES
from ..store import Store, StoreUnavailable
from .live import LiveGames
from .settings import ServiceSettings
from .signals import ChangeBroker

log = structlog.get_logger("brass_service.games.upkeep")


# Games the expiry sweep deletes at once (one write each, sharing group commits).
_SWEEP_BATCH = 64


class Upkeep:
    """What keeps the store and this process tidy: the expiry sweep, the gauges, and
    following other processes' writes."""

    def __init__(self, store: Store, settings: ServiceSettings, broker: ChangeBroker,
                 live: LiveGames) -> None:
        self.store = store
        self.settings = settings
        self.broker = broker
        self.live = live
        self._follower: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.refresh_gauges()
        if self.store.change_mark() is not None:
            self._follower = asyncio.create_task(self.follow_other_processes())
        if self.settings.abandoned_game_days > 0:
            self._sweeper = asyncio.create_task(self.sweep_periodically())

    def close(self) -> None:
        for task in (self._follower, self._sweeper):
            if task is not None:
                task.cancel()

    async def sweep_periodically(self) -> None:
        while True:
            try:
                await self.delete_abandoned_games()
            except ServiceError as error:  # the store is down: try again next time
                log.warning("expiry_sweep_failed", error=error.message)
            except Exception:  # never let the sweep die quietly
                log.exception("expiry_sweep_failed")
            await asyncio.sleep(self.settings.expiry_sweep_seconds)

    async def delete_abandoned_games(self, now: float | None = None) -> int:
        """Deletes the games in progress whose last decision (or creation) is more than
        `abandoned_game_days` before `now`, and the games waiting for players that long
        since their creation or last change of seats; returns how many. A game moved
        meanwhile is kept (the store checks again as it deletes)."""
        days = self.settings.abandoned_game_days
        if days <= 0:
            return 0
        before = (time.time() if now is None else now) - days * 86_400

        async def delete(game_id: str, status: int) -> bool:
            async with self.live.lock_for(game_id):
                if not await self.store.delete_game_if_idle(game_id, status, before):
                    return False
                self.live.forget(game_id)
                return True

        deleted = 0
        for status in (pb.GAME_STATUS_IN_PROGRESS, pb.GAME_STATUS_WAITING):
            while True:
                game_ids = await self.store.idle_games(status, before, _SWEEP_BATCH)
                done = await asyncio.gather(*(delete(game_id, status) for game_id in game_ids))
                deleted += sum(done)
                if len(game_ids) < _SWEEP_BATCH or not any(done):
                    break
        if deleted:
            CACHED_GAMES.set(len(self.live))
            log.info("abandoned_games_deleted", games=deleted, idle_days=days)
            await self.refresh_gauges()
        return deleted

    async def refresh_gauges(self) -> None:
        """Sets the store-wide gauge from the store (other processes move it too)."""
        with contextlib.suppress(StoreUnavailable):
            ACTIVE_GAMES.set(await self.store.count_games(pb.GAME_STATUS_IN_PROGRESS))

    async def follow_other_processes(self) -> None:
        """Wakes this process's watchers soon after another process sharing the SQLite
        file (another worker of `brass serve --workers N`) writes: each woken watcher checks
        its game's stored version and sends what is new. Without this they would only
        notice at their next `watch_poll_seconds` re-check."""
        mark = self.store.change_mark()
        while True:
            await asyncio.sleep(self.settings.other_writers_poll_seconds)
            now = self.store.change_mark()
            if now != mark:
                mark = now
                self.broker.wake_all()
