"""Request limits that are not the transport's own (message size is set on the servers)."""

from __future__ import annotations

import time
from typing import Protocol

from .errors import ServiceError

# Remember at most this many peers; the oldest idle ones are forgotten first.
_MAX_TRACKED_PEERS = 10_000


class _WatcherCounter(Protocol):
    def watchers_of(self, game_id: str) -> int: ...


class WatchLimiter:
    """Admits new watch streams: a token bucket per peer, plus caps in total and per game."""

    def __init__(
        self, rate_per_second: float, burst: int, max_total: int, max_per_game: int
    ) -> None:
        self.rate = rate_per_second
        self.burst = burst
        self.max_total = max_total
        self.max_per_game = max_per_game
        self.open_streams = 0
        self._buckets: dict[str, tuple[float, float]] = {}  # peer -> (tokens, last refill)

    def admit(self, peer: str, game_id: str, counter: _WatcherCounter) -> None:
        if self.open_streams >= self.max_total:
            raise ServiceError(
                "RATE_LIMITED",
                f"this server already has {self.max_total} open watch streams; retry later",
                limit="max_watchers",
            )
        if counter.watchers_of(game_id) >= self.max_per_game:
            raise ServiceError(
                "RATE_LIMITED",
                f"game {game_id} already has {self.max_per_game} watchers on this server",
                limit="max_watchers_per_game",
            )
        now = time.monotonic()
        tokens, last = self._buckets.pop(peer, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[peer] = (tokens, now)
            raise ServiceError(
                "RATE_LIMITED",
                f"too many watch streams opened from this address: at most {self.burst} at "
                f"once and {self.rate:g} per second",
                limit="watch_rate",
                retry_after_seconds=f"{(1.0 - tokens) / self.rate:.1f}",
            )
        self._buckets[peer] = (tokens - 1.0, now)
        while len(self._buckets) > _MAX_TRACKED_PEERS:
            self._buckets.pop(next(iter(self._buckets)))
        self.open_streams += 1

    def release(self, game_id: str) -> None:
        self.open_streams = max(0, self.open_streams - 1)
