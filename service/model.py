"""What the service holds of a game besides its row: LiveGame (an engine game exactly at a
stored version) and the plain facts read off a row and its live game (waiting, playing, its
status, its clock at that version).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import hosted
from .gen import game_service_pb2 as pb
from .store import GameRow


@dataclass(frozen=True, slots=True)
class LiveGame:
    """An engine game held in memory, exactly at a stored version.

    The version is the service's: the number of decision ids submitted since creation (the
    length of the replay record). Entries are replaced, never changed, so a reader holding
    one always sees a consistent game and version. `updated_at` is when that version was
    stored.
    """

    game: Any
    version: int
    updated_at: float
    # The clock after that version, for a game with one (None: see clock_of).
    clock: dict[str, Any] | None = None
    # A past version (GetGame at_version): the time it was reached. Its summary shows the
    # clock as it stood then, and no end by resignation (none has decisions after it).
    as_of: float | None = None


def clock_of(row: GameRow, live: LiveGame) -> dict[str, Any] | None:
    """The game's clock at `live`'s version: a decision's (live.clock), else the row's
    (the game's start; `live` is then the version the row was read at)."""
    return live.clock if live.clock is not None else row.clock


def is_playing(row: GameRow, game: Any) -> bool:
    return not (is_waiting(row) or game.is_over or hosted.is_ended(row))


def status_of(game: Any) -> int:
    return pb.GAME_STATUS_FINISHED if game.is_over else pb.GAME_STATUS_IN_PROGRESS


def is_waiting(row: GameRow) -> bool:
    return row.status == pb.GAME_STATUS_WAITING
