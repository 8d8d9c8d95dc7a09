"""Spectator delay (GameOptions.spectator_delay_turns): the newest version a caller may see.

A **whole turn** is a maximal run of stored decisions made by one seat: the seat each
decision row was made by is the engine's seat to act then (the service checks it on every
submission), so the turns come from the decision log and the engine's seat to act at the
head, and no rule is decided here. A turn begins at version 0, at the first version of each
decision row whose seat differs from the row before, and at the head when the engine's seat
to act there is not the seat of the last row (its turn began, nothing is stored of it yet).
An undo is a row of the seat to act, so it stays within its turn.

With a delay of N turns a spectator (no seat token) sees the version at which the turn N
before the current one began: never the turn in progress nor the N turns completed last.
Seats see the game as now, and once the game is over (by the rules, a resignation or a
forfeit) everything is public. The turn starts of each game are kept (bounded LRU) and
extended with the rows stored since, so a read costs the new rows only.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

from .. import hosted
from ..errors import ServiceError
from ..model import LiveGame
from ..store import GameRow, Store

# Games whose turn starts are kept per process (a few hundred ints each).
_GAMES_KEPT = 1024
# Decision rows read at once while extending a game's turn starts.
_ROWS_PER_READ = 512


@dataclass
class _Turns:
    """The turn starts of a game's stored decisions up to `version`."""

    version: int = 0
    last_seat: int | None = None  # the seat of the row ending at `version`
    starts: list[int] = field(default_factory=lambda: [0])


def turn_starts(seats: list[tuple[int, int]], head: int, turns: _Turns | None = None
                ) -> _Turns:
    """`turns` (new when None) extended by decision rows given as (from_version, seat), in
    order, the last of them ending at version `head`."""
    turns = turns or _Turns()
    for from_version, seat in seats:
        if turns.last_seat is not None and seat != turns.last_seat \
                and turns.starts[-1] != from_version:
            turns.starts.append(from_version)
        turns.last_seat = seat
    turns.version = head
    return turns


def delayed_version(turns: _Turns, head: int, seat_to_act: int | None, delay: int) -> int:
    """The version at which the turn `delay` turns before the current one began."""
    starts = turns.starts
    if (turns.last_seat is not None and seat_to_act is not None
            and seat_to_act != turns.last_seat and starts[-1] != head):
        starts = [*starts, head]  # the head's seat began its turn
    return starts[max(len(starts) - 1 - delay, 0)]


class SpectatorDelay:
    """The newest version each caller may see of a game with a spectator delay."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._turns: OrderedDict[str, _Turns] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    @staticmethod
    def applies(row: GameRow, live: LiveGame, seat: int | None) -> bool:
        """Whether `seat` (None: a spectator) sees `row` delayed now."""
        return (seat is None and hosted.spectator_delay(hosted.hosting_of(row)) > 0
                and not live.game.is_over and not hosted.is_ended(row))

    async def visible_version(self, row: GameRow, live: LiveGame, seat: int | None) -> int:
        """The newest version of `row` (at the head `live`) that `seat` may see."""
        if not self.applies(row, live, seat):
            return live.version
        delay = hosted.spectator_delay(hosted.hosting_of(row))
        lock = self._locks.get(row.game_id)
        if lock is None:
            lock = self._locks[row.game_id] = asyncio.Lock()
        async with lock:  # one reader extends a game's turns; the others find them made
            turns = self._turns.pop(row.game_id, None)
            if turns is None or turns.version > live.version:
                turns = _Turns()
            while turns.version < live.version:
                rows = await self.store.decisions_after(
                    row.game_id, turns.version, up_to=live.version, limit=_ROWS_PER_READ)
                if not rows or rows[0].from_version != turns.version:
                    raise ServiceError(
                        "CORRUPT_GAME", f"game {row.game_id}: decision log is incomplete")
                turn_starts([(r.from_version, r.seat) for r in rows], rows[-1].to_version,
                            turns)
            self._turns[row.game_id] = turns
            while len(self._turns) > _GAMES_KEPT:
                self._turns.popitem(last=False)
        return delayed_version(turns, live.version, live.game.current_seat, delay)

    async def require_visible(self, row: GameRow, live: LiveGame, seat: int | None,
                              version: int, field_name: str) -> int:
        """The newest version `seat` may see; SPECTATOR_DELAY when `version` is newer."""
        visible = await self.visible_version(row, live, seat)
        if version > visible:
            delay = hosted.spectator_delay(hosted.hosting_of(row))
            raise ServiceError(
                "SPECTATOR_DELAY",
                f"game {row.game_id} shows spectators the game {delay} whole turns back "
                f"until it ends: {field_name} may be at most {visible} now",
                field=field_name, visible_version=visible, delay_turns=delay)
        return visible
