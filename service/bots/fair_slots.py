"""Turns at the bot workers for the server's own moves, shared fairly.

Every game due a bot decision (its bot's turn, or a stand-in's for a turn past its
deadline) waits for a turn in a lane; a lane has as many turns at once as it has worker
processes, and hands them out round-robin between the games' creators (first come, first
served within one creator). Games a person plays in (someone waits for the bot's reply)
are served before games of bots only (nobody waits). A game waits at most for the turns
under way and one turn of each other creator with such work waiting, however many games a
creator floods the server with. Forfeits on time need no worker and never wait in a lane.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator

_Lanes = OrderedDict[str, deque[asyncio.Future[None]]]


class FairSlots:
    """`slots` turns at once; waiters are served round-robin between keys (creators), the
    urgent ones (a person waits) before the others."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        # key -> its waiters in arrival order; the key served next is first.
        self._urgent: _Lanes = OrderedDict()
        self._other: _Lanes = OrderedDict()

    @property
    def waiting(self) -> int:
        return sum(len(lane) for lanes in (self._urgent, self._other)
                   for lane in lanes.values())

    @contextlib.asynccontextmanager
    async def turn(self, key: str, urgent: bool = False) -> AsyncIterator[None]:
        """Holds one of the slots for the body (after waiting for it, fairly)."""
        await self.acquire(key, urgent)
        try:
            yield
        finally:
            self.release()

    async def acquire(self, key: str, urgent: bool = False) -> None:
        if self.busy < self.slots and not self._urgent and not self._other:
            self.busy += 1
            return
        lanes = self._urgent if urgent else self._other
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        lanes.setdefault(key, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # granted just as the waiter was cancelled: pass it on
            else:
                lane = lanes.get(key)
                if lane is not None and future in lane:
                    lane.remove(future)
                    if not lane:
                        del lanes[key]
            raise

    def release(self) -> None:
        self.busy -= 1
        self._grant()

    def _grant(self) -> None:
        while self.busy < self.slots and (self._urgent or self._other):
            lanes = self._urgent or self._other
            key, lane = next(iter(lanes.items()))
            future = lane.popleft()
            if lane:
                lanes.move_to_end(key)  # the other keys' turn before its next
            else:
                del lanes[key]
            if future.done():  # (cancelled meanwhile)
                continue
            self.busy += 1
            future.set_result(None)
