"""Hosted play beyond names and tokens: bot seats, resignations, revoked seats and the
lobby's events (the clock: hosted/clock.py), as plain functions of a game's stored row.

A game's `hosting` column (a JSON object, absent for games made before it and for games from
a position) holds the host's settings and the seats' state:

    {"bots": {"1": "greedy"},            seat -> bot spec of the seats a server bot plays
     "resigned": [2], "forfeited": [2],  seats that resigned (forfeited: on time)
     "vacant": [3],                      seats whose token the host revoked after the start
     "ended": 2,                         EndReason when a resignation ended the game
     "on_resign": 1, "on_timeout": 1, "stand_in": "greedy",
     "spectator_delay": 2,               whole turns spectators are behind (absent: 0)
     "clock": {"initial_ms": ..., "increment_ms": ..., "turn_ms": ...},
     "started_at": 1764600000.5,         when the game started (Unix seconds)
     "events": [{"revision": 4, "kind": "seat_joined", "seat": 1, ...}, ...],
     "host_address": "9f2c...",          digest of the creating client's address
     "joiners": {"1": "51ab..."},        seat -> digest of the address that joined it
     "accounts": {"0": {"id": "a1b2...", "digest": "..."}},  seat -> the account whose key
                                         took it, and the token digest it was given: the
                                         binding holds while the seat keeps that token
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

from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..store import GameRow

# The token digest of a seat a server bot plays: no token hashes to it (digests are 64 hex
# digits), so nobody can act for the seat, and the seat is not open.
BOT_DIGEST = "bot"
DEFAULT_STAND_IN = "greedy"
# GameOptions.spectator_delay_turns' bound: a tournament's stream needs a few turns, and
# every delayed read looks that many turns back.
MAX_SPECTATOR_DELAY_TURNS = 20
# Lobby events kept per game for watchers; a watcher further behind gets the state.
MAX_LOBBY_EVENTS = 32
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


def accounts_of(row: GameRow) -> dict[int, str]:
    """Seat -> account id of the seats still bound to an account: each still holds the
    token it was given when the account's key took it (a seat left, revoked or reissued
    is nobody's account any more)."""
    bound = (row.hosting or {}).get("accounts") or {}
    return {int(seat): str(entry["id"]) for seat, entry in bound.items()
            if int(seat) < len(row.token_hashes)
            and row.token_hashes[int(seat)] == entry.get("digest")}


def bind_account(hosting: dict[str, Any], seat: int, account_id: str, digest: str) -> None:
    """Binds `seat`, given the token of digest `digest`, to the account."""
    hosting.setdefault("accounts", {})[str(seat)] = {"id": account_id, "digest": digest}


def rematch_state(row: GameRow) -> pb.RematchState | None:
    """GameSummary.rematch: who proposed a rematch, who agreed (bots always), the new game
    once every seat did; None before anyone proposed one. The hosting's "rematch" is
    {"proposed_by": seat, "seats": {seat: digest of its token of the new game},
    "host": digest of the new game's host token, "game_id": once every seat agreed}."""
    rematch = hosting_of(row).get("rematch")
    if rematch is None:
        return None
    agreed = {int(seat) for seat in rematch["seats"]} | {
        seat for seat, digest in enumerate(row.token_hashes) if digest == BOT_DIGEST}
    return pb.RematchState(proposed_by=rematch["proposed_by"], accepted_seats=sorted(agreed),
                           game_id=rematch.get("game_id", ""))


def seat_infos(row: GameRow) -> list[dict[str, Any]]:
    """The seats as SeatInfo JSON (every field, as proto3 JSON with defaults printed)."""
    hosting = hosting_of(row)
    bots = bots_of(hosting)
    resigned = set(hosting.get("resigned", ()))
    vacant = set(hosting.get("vacant", ()))
    accounts = accounts_of(row)
    return [
        {"seat": i, "name": name, "open": not digest and i not in vacant,
         "bot": bots.get(i, ""), "resigned": i in resigned, "vacant": i in vacant,
         "accountId": accounts.get(i, "")}
        for i, (name, digest) in enumerate(zip(row.seat_names, row.token_hashes, strict=True))
    ]


def host_policy(hosting: dict[str, Any]) -> pb.HostPolicy | None:
    """GameSummary.host_policy: the host's settings, for a game that has them."""
    if "on_resign" not in hosting:
        return None  # a game from a position, or made before hosted play
    return pb.HostPolicy(on_resign=hosting["on_resign"], on_timeout=hosting["on_timeout"],
                         stand_in_bot=hosting.get("stand_in", ""),
                         spectator_delay_turns=spectator_delay(hosting))


def spectator_delay(hosting: dict[str, Any]) -> int:
    """Whole turns spectators are behind until the game ends (0: none)."""
    return int(hosting.get("spectator_delay", 0))


def bad_option(message: str, field: str) -> ServiceError:
    return ServiceError("INVALID_ARGUMENT", message, field=field)


def refuse_hosted_options(options: pb.GameOptions) -> None:
    """RunBatch: GameOptions' hosted-play fields are CreateGame's only."""
    for name in ("clock", "on_resign", "on_timeout", "stand_in_bot", "spectator_delay_turns"):
        if options.HasField(name) if name in ("clock", "spectator_delay_turns") else getattr(
                options, name):
            raise bad_option(f"options.{name} is for hosted games (CreateGame), not batches",
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
    delay = options.spectator_delay_turns
    if not 0 <= delay <= MAX_SPECTATOR_DELAY_TURNS:
        raise bad_option(f"spectator_delay_turns must be from 0 to {MAX_SPECTATOR_DELAY_TURNS}",
                         "options.spectator_delay_turns")
    if delay:
        hosting["spectator_delay"] = delay
    return hosting


def _check_enum(value: int, enum: Any, field: str) -> None:
    if value not in enum.values():
        raise bad_option(f"{value} is not a {enum.DESCRIPTOR.name}", field)


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
