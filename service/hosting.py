"""Hosted play beyond names and tokens: bot seats, resignations, revoked seats, clocks and
the lobby's events, as plain functions of a game's stored row.

A game's `hosting` column (a JSON object, absent for games made before it and for games from
a position) holds the host's settings and the seats' state:

    {"bots": {"1": "greedy"},            seat -> bot spec of the seats a server bot plays
     "resigned": [2], "forfeited": [2],  seats that resigned (forfeited: on time)
     "vacant": [3],                      seats whose token the host revoked after the start
     "ended": 2,                         EndReason when a resignation ended the game
     "on_resign": 1, "on_timeout": 1, "stand_in": "greedy",
     "clock": {"initial_ms": ..., "increment_ms": ..., "turn_ms": ...},
     "started_at": 1764600000.5,         when the game started (Unix seconds)
     "events": [{"revision": 4, "kind": "seat_joined", "seat": 1, ...}, ...],
     "host_address": "9f2c...",          digest of the creating client's address
     "joiners": {"1": "51ab..."},        seat -> digest of the address that joined it
     "banned": {"addresses": [...], "names": [...]}}  RevokeSeatToken ban: digests, name keys

The `clock` column is the clock at the head version: {"remaining": [ms by seat] (Fischer:
each seat's time left when its current or last turn started), "seat": the seat whose turn
runs (None before the start and after the end), "start": when that turn started (Unix
seconds)}. Every accepted decision stores the clock after it (in the games row and in the
decision's action, so a replica catching up from the log has it too).

Time is wall-clock time: a turn's time is `now - start`, whatever happened meanwhile, so
the time a server is down (restarting, or all replicas stopped) counts against the seat to
act exactly as if the server had been up; a restart neither resets a turn nor adds time.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from .errors import ServiceError
from .gen import game_service_pb2 as pb
from .store import GameRow

# The token digest of a seat a server bot plays: no token hashes to it (digests are 64 hex
# digits), so nobody can act for the seat, and the seat is not open.
BOT_DIGEST = "bot"
DEFAULT_STAND_IN = "greedy"
# Lobby events kept per game for watchers; a watcher further behind gets the state.
MAX_LOBBY_EVENTS = 32
MIN_CLOCK_MS = 100
MAX_CLOCK_MS = 7 * 86_400_000
MAX_INCREMENT_MS = 3_600_000
# Who made a stored decision (the action's "by"): a person with the seat's token (no
# "by"), the seat's bot, or the stand-in bot playing a timed-out turn.
BY_BOT = "bot"
BY_TIMEOUT = "timeout"


def hosting_of(row: GameRow) -> dict[str, Any]:
    return row.hosting or {}


def bots_of(hosting: dict[str, Any]) -> dict[int, str]:
    return {int(seat): str(spec) for seat, spec in (hosting.get("bots") or {}).items()}


def is_bot_seat(hosting: dict[str, Any], seat: int) -> bool:
    """Whether a server bot plays `seat` (bots_of without making the whole dict: this is
    asked on every decision)."""
    return str(seat) in (hosting.get("bots") or ())


def end_reason(row: GameRow) -> int:
    return int(hosting_of(row).get("ended", 0))


def is_ended(row: GameRow) -> bool:
    """Ended by a resignation or forfeit (a game the rules ended is seen in the engine)."""
    return end_reason(row) != 0


def seat_infos(row: GameRow) -> list[dict[str, Any]]:
    """The seats as SeatInfo JSON (every field, as proto3 JSON with defaults printed)."""
    hosting = hosting_of(row)
    bots = bots_of(hosting)
    resigned = set(hosting.get("resigned", ()))
    vacant = set(hosting.get("vacant", ()))
    return [
        {"seat": i, "name": name, "open": not digest and i not in vacant,
         "bot": bots.get(i, ""), "resigned": i in resigned, "vacant": i in vacant}
        for i, (name, digest) in enumerate(zip(row.seat_names, row.token_hashes, strict=True))
    ]


def _bad(message: str, field: str) -> ServiceError:
    return ServiceError("INVALID_ARGUMENT", message, field=field)


def clock_settings(options: pb.ClockOptions) -> dict[str, int] | None:
    """The clock of CreateGame's options (None: no clock), checked."""
    initial, increment, turn = options.initial_ms, options.increment_ms, options.turn_ms
    if not (initial or increment or turn):
        return None
    if turn:
        if initial or increment:
            raise _bad("a clock has turn_ms or initial_ms (with increment_ms), not both",
                       "options.clock")
        if not MIN_CLOCK_MS <= turn <= MAX_CLOCK_MS:
            raise _bad(f"turn_ms must be {MIN_CLOCK_MS} to {MAX_CLOCK_MS}",
                       "options.clock.turn_ms")
        return {"turn_ms": turn}
    if not MIN_CLOCK_MS <= initial <= MAX_CLOCK_MS:
        raise _bad(f"initial_ms must be {MIN_CLOCK_MS} to {MAX_CLOCK_MS}",
                   "options.clock.initial_ms")
    if not 0 <= increment <= MAX_INCREMENT_MS:
        raise _bad(f"increment_ms must be 0 to {MAX_INCREMENT_MS}", "options.clock.increment_ms")
    return {"initial_ms": initial, "increment_ms": increment}


def refuse_hosted_options(options: pb.GameOptions) -> None:
    """RunBatch: GameOptions' hosted-play fields are CreateGame's only."""
    for name in ("clock", "on_resign", "on_timeout", "stand_in_bot"):
        if options.HasField(name) if name == "clock" else getattr(options, name):
            raise _bad(f"options.{name} is for hosted games (CreateGame), not batches",
                       f"options.{name}")


def new_hosting(options: pb.GameOptions, bots: dict[int, str], stand_in: str,
                clock: dict[str, int] | None) -> dict[str, Any]:
    _check_enum(options.on_resign, pb.ResignPolicy, "options.on_resign")
    _check_enum(options.on_timeout, pb.TimeoutPolicy, "options.on_timeout")
    hosting: dict[str, Any] = {
        "bots": {str(seat): spec for seat, spec in sorted(bots.items())},
        "on_resign": options.on_resign or pb.RESIGN_POLICY_BOT_TAKES_OVER,
        "on_timeout": options.on_timeout or pb.TIMEOUT_POLICY_BOT_PLAYS_TURN,
        "stand_in": stand_in,
        "events": [],
    }
    if clock is not None:
        hosting["clock"] = clock
    return hosting


def _check_enum(value: int, enum: Any, field: str) -> None:
    if value not in enum.values():
        raise _bad(f"{value} is not a {enum.DESCRIPTOR.name}", field)


def changed(row: GameRow) -> dict[str, Any]:
    """A copy of the row's hosting to change (older games get an empty one)."""
    return copy.deepcopy(row.hosting) if row.hosting else {"bots": {}, "events": []}


def add_event(hosting: dict[str, Any], row: GameRow, kind: str, seat: int | None = None,
              name: str = "", bot: str = "", now: float | None = None) -> None:
    """Records a lobby event for watchers: it happens with the seats change that stores
    `hosting` (the row's next seats revision)."""
    event: dict[str, Any] = {"revision": row.seats_revision + 1, "kind": kind,
                             "time": time.time() if now is None else now,
                             "version": row.version}
    if seat is not None:
        event["seat"] = seat
    if name:
        event["name"] = name
    if bot:
        event["bot"] = bot
    events = [*hosting.get("events", []), event]
    hosting["events"] = events[-MAX_LOBBY_EVENTS:]


def lobby_events_after(row: GameRow, revision: int) -> list[tuple[float, pb.GameEvent]]:
    """The row's lobby events after seats revision `revision`, with their times."""
    found = []
    for event in hosting_of(row).get("events", []):
        if event["revision"] <= revision:
            continue
        found.append((float(event["time"]), lobby_event(
            event["kind"], int(event.get("version", row.version)), float(event["time"]),
            event.get("seat"), event.get("name", ""), event.get("bot", ""))))
    return found


def lobby_event(kind: str, version: int, at: float, seat: int | None = None, name: str = "",
                bot: str = "") -> pb.GameEvent:
    lobby = pb.LobbyEvent(kind=kind, name=name, bot=bot)
    if seat is not None:
        lobby.seat = seat
    lobby.time.FromNanoseconds(int(at * 1e9))
    return pb.GameEvent(version=version, lobby=lobby)


# ------------------------------------------------------------------------------ clocks


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


def host_policy(hosting: dict[str, Any]) -> pb.HostPolicy | None:
    """GameSummary.host_policy: the host's settings, for a game that has them."""
    if "on_resign" not in hosting:
        return None  # a game from a position, or made before hosted play
    return pb.HostPolicy(on_resign=hosting["on_resign"], on_timeout=hosting["on_timeout"],
                         stand_in_bot=hosting.get("stand_in", ""))


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
