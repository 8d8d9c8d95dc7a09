"""Who is woken when a game changes: its watchers (ChangeBroker), and the timer when the
change makes the game due soon.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sized

from .settings import ServiceSettings


class ChangeBroker:
    """Wakes the watchers of a game when a decision is committed (here or elsewhere)."""

    def __init__(self) -> None:
        self._waiters: dict[str, set[asyncio.Event]] = {}

    def subscribe(self, game_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(event)
        return event

    def unsubscribe(self, game_id: str, event: asyncio.Event) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                del self._waiters[game_id]

    def publish(self, game_id: str, version: int) -> None:
        for event in self._waiters.get(game_id, ()):
            event.set()

    def attach(self, game_id: str, event: asyncio.Event) -> None:
        """Sets `event` too when the game changes (an account's stream follows several
        games with one event)."""
        self._waiters.setdefault(game_id, set()).add(event)

    def detach(self, game_id: str, event: asyncio.Event) -> None:
        self.unsubscribe(game_id, event)

    def watchers_of(self, game_id: str) -> int:
        return len(self._waiters.get(game_id, ()))

    def wake_all(self) -> None:
        for waiters in self._waiters.values():
            for event in waiters:
                event.set()


class Signals:
    """Who is woken when a game changes: its watchers (the broker), and the timer when a
    change makes a game due soon (a bot is to move)."""

    def __init__(self, broker: ChangeBroker, settings: ServiceSettings) -> None:
        self.broker = broker
        self.settings = settings
        # Set by GameService.start: the timer's wake-up (ServerMoves.run waits on it).
        self.timer_wake: asyncio.Event | None = None
        # Set by GameService: told of a game a change ended (the ratings settle it).
        self.on_game_over: Callable[[str], None] | None = None
        # Set by GameService.start: the webhooks' sender's wake-up.
        self.webhooks_wake: Callable[[], None] | None = None

    def game_over(self, game_id: str) -> None:
        if self.on_game_over is not None:
            self.on_game_over(game_id)

    def wake_timer(self, due: float | None) -> None:
        """Looks for due games now rather than at the next poll (a bot is to move)."""
        if (due is not None and self.timer_wake is not None
                and due <= time.time() + self.settings.timer_poll_seconds):
            self.timer_wake.set()

    def wake_webhooks(self, events: Sized) -> None:
        """Looks for webhook deliveries now when a change of this process queued events."""
        if events and self.webhooks_wake is not None:
            self.webhooks_wake()

    def on_store_change(self, game_id: str, version: int) -> None:
        self.broker.publish(game_id, version)
