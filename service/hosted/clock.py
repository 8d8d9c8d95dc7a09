"""A hosted game's clock as data: its settings (CreateGame's ClockOptions, checked), its
state when the game starts and after each decision, the running turn's deadline, when the
server must next act, and its ClockState message. The column's JSON is documented in
hosted/seats.py; time is wall-clock time (a server that is down does not stop a clock).
"""

from __future__ import annotations

from typing import Any

from ..gen import game_service_pb2 as pb
from .seats import bad_option, is_bot_seat

MIN_CLOCK_MS = 100
MAX_CLOCK_MS = 7 * 86_400_000
MAX_INCREMENT_MS = 3_600_000


def clock_settings(options: pb.ClockOptions) -> dict[str, int] | None:
    """The clock of CreateGame's options (None: no clock), checked."""
    initial, increment, turn = options.initial_ms, options.increment_ms, options.turn_ms
    if not (initial or increment or turn):
        return None
    if turn:
        if initial or increment:
            raise bad_option("a clock has turn_ms or initial_ms (with increment_ms), not both",
                       "options.clock")
        if not MIN_CLOCK_MS <= turn <= MAX_CLOCK_MS:
            raise bad_option(f"turn_ms must be {MIN_CLOCK_MS} to {MAX_CLOCK_MS}",
                       "options.clock.turn_ms")
        return {"turn_ms": turn}
    if not MIN_CLOCK_MS <= initial <= MAX_CLOCK_MS:
        raise bad_option(f"initial_ms must be {MIN_CLOCK_MS} to {MAX_CLOCK_MS}",
                   "options.clock.initial_ms")
    if not 0 <= increment <= MAX_INCREMENT_MS:
        raise bad_option(f"increment_ms must be 0 to {MAX_INCREMENT_MS}",
                         "options.clock.increment_ms")
    return {"initial_ms": initial, "increment_ms": increment}


def started_at(hosting: dict[str, Any], created_at: float) -> float:
    """When the game started: its creation for a game made before the start was stored
    (right for every game created with its seats filled, as all such games start at once)."""
    return float(hosting.get("started_at", created_at))


def clock_start(hosting: dict[str, Any], players: int, seat: int | None,
                now: float) -> dict[str, Any] | None:
    """The clock when the game starts (None: the game has none)."""
    settings = hosting.get("clock")
    if settings is None:
        return None
    clock: dict[str, Any] = {"seat": seat, "start": now}
    if "initial_ms" in settings:
        clock["remaining"] = [int(settings["initial_ms"])] * players
    return clock


def clock_after(hosting: dict[str, Any], clock: dict[str, Any] | None,
                seat_after: int | None, now: float) -> dict[str, Any] | None:
    """The clock after a decision that leaves `seat_after` to act (None: nobody, the game
    is over). The running turn goes on while the same seat is to act; when another seat is,
    the turn's time is taken off the seat's clock (not below 0) and its increment added."""
    settings = hosting.get("clock")
    if clock is None or settings is None:
        return None
    if clock.get("seat") == seat_after:
        return clock
    after = dict(clock)
    after.pop("timed_out", None)
    seat = clock.get("seat")
    if seat is not None and "remaining" in clock:
        remaining = list(clock["remaining"])
        spent = int(round((now - float(clock["start"])) * 1000))
        remaining[seat] = max(0, remaining[seat] - spent) + int(settings.get("increment_ms", 0))
        after["remaining"] = remaining
    after["seat"], after["start"] = seat_after, now
    return after


def deadline(hosting: dict[str, Any], clock: dict[str, Any] | None) -> float | None:
    """When the running turn's time is up (None: no clock, or no turn runs)."""
    settings = hosting.get("clock")
    if clock is None or settings is None or clock.get("seat") is None or hosting.get("ended"):
        return None
    start = float(clock["start"])
    if "turn_ms" in settings:
        return start + int(settings["turn_ms"]) / 1000
    return start + int(clock["remaining"][clock["seat"]]) / 1000


def next_due(hosting: dict[str, Any], clock: dict[str, Any] | None, current_seat: int | None,
             playing: bool, now: float, bot_delay: float) -> float | None:
    """When the server must act on the game by itself: a bot's turn (after `bot_delay`),
    or the deadline of a person's turn; None when it never must (not started, over)."""
    if not playing or current_seat is None or hosting.get("ended"):
        return None
    if is_bot_seat(hosting, current_seat):
        return now + bot_delay
    return deadline(hosting, clock)


def clock_message(hosting: dict[str, Any], clock: dict[str, Any] | None, players: int,
                  now: float) -> pb.ClockState | None:
    settings = hosting.get("clock")
    if settings is None:
        return None
    state = pb.ClockState(options=pb.ClockOptions(**settings))
    if clock is None:  # not started: everyone's full time
        if "initial_ms" in settings:
            state.remaining_ms.extend([int(settings["initial_ms"])] * players)
        return state
    seat = None if hosting.get("ended") else clock.get("seat")
    if "remaining" in clock:
        remaining = list(clock["remaining"])
        if seat is not None:
            spent = int(round((now - float(clock["start"])) * 1000))
            remaining[seat] = max(0, remaining[seat] - spent)
        state.remaining_ms.extend(remaining)
    if seat is not None:
        state.turn_seat = seat
        state.turn_start.FromNanoseconds(int(float(clock["start"]) * 1e9))
        due = deadline(hosting, clock)
        if due is not None:
            state.turn_deadline.FromNanoseconds(int(due * 1e9))
    return state
