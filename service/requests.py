"""Requests' bounds and checks, shared by every RPC, RunBatch and the OpenAPI document:
lengths of ids, keys, names and compound actions; the ruleset and its options as the
engine names them; ListGames' page cursors. Each refusal is INVALID_ARGUMENT naming the
field.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import secrets
import time
from typing import Any

from .errors import ServiceError
from .gen import game_service_pb2 as pb
from .names import MAX_NAME_CHARS, display_name, name_key

MAX_GAME_ID_CHARS = 64


MAX_IDEMPOTENCY_KEY_CHARS = 128


MAX_PAGE_TOKEN_CHARS = 512


MAX_SEAT_NAME_CHARS = MAX_NAME_CHARS


# A compound action is one action of the rules: the longest the engine lists in random
# 4-player play is 6 ids. Longer lists are refused before anything else is done with them
# (a 200,000-id list took 270 ms of the event loop to fingerprint, resolve and refuse).
MAX_COMPOUND_IDS = 64


# Keys are the engine's short texts; a longer one cannot match and is not echoed back.
MAX_COMPOUND_KEY_CHARS = 256


# brass.v1's rulesets and the engine's names (RULESET_UNSPECIFIED creates Birmingham)
ENGINE_RULESETS = {pb.RULESET_BIRMINGHAM: "birmingham", pb.RULESET_PITTSBURGH: "pittsburgh"}


RULESET_IDS = {name: value for value, name in ENGINE_RULESETS.items()}


def ruleset_name(ruleset: int) -> str:
    """The engine's name of a requested ruleset (unspecified: Birmingham)."""
    name = "birmingham" if ruleset == pb.RULESET_UNSPECIFIED else ENGINE_RULESETS.get(ruleset)
    require(name is not None, f"ruleset {ruleset} is not supported", "ruleset")
    return str(name)


# GameOptions' typed fields (Birmingham's, and auto_resolve for every ruleset)
_TYPED_OPTIONS = ("beginner", "manufacturer_iv_cost", "auto_resolve", "undo")


MAX_RULESET_OPTIONS = 64


def request_options(message: pb.GameOptions) -> dict[str, Any]:
    """GameOptions as the engine's options: the typed fields that are set, then the
    ruleset's own by name (the engine refuses an unknown name or value, naming it)."""
    options: dict[str, Any] = {
        name: getattr(message, name) for name in _TYPED_OPTIONS if message.HasField(name)
    }
    require(len(message.ruleset_options) <= MAX_RULESET_OPTIONS,
             f"at most {MAX_RULESET_OPTIONS} ruleset options", "options.ruleset_options")
    for name, value in message.ruleset_options.items():
        require(name not in options, f"option {name} is given twice", f"options.{name}")
        kind = value.WhichOneof("kind")
        require(kind in ("bool_value", "string_value", "number_value"),
                 "a ruleset option is a string, a bool or a number", f"options.{name}")
        item = getattr(value, kind)
        if kind == "number_value":
            require(item.is_integer(), "a number option is an integer", f"options.{name}")
            item = int(item)
        options[name] = item
    return options


def require(condition: bool, message: str, field: str) -> None:
    if not condition:
        raise ServiceError("INVALID_ARGUMENT", message, field=field)


def new_game_id() -> str:
    """20 hex digits: the creation time in milliseconds (11 digits), then 36 random bits.
    Ids made later sort later, so the store's indexes on game ids take new and active games
    at their end, in a few pages, rather than all over (each commit then writes far fewer
    pages). The creation time is public anyway (GameSummary.create_time); ids are not
    secrets, tokens are."""
    return f"{time.time_ns() // 1_000_000:011x}{secrets.randbits(36):09x}"


def check_compound_length(count: int, field: str = "action.compound.ids") -> None:
    """Refuses a compound action of more than MAX_COMPOUND_IDS ids (INVALID_ARGUMENT)."""
    require(
        count <= MAX_COMPOUND_IDS,
        f"a compound action has at most {MAX_COMPOUND_IDS} ids, not {count}",
        field,
    )


def check_action_size(action: pb.Action) -> None:
    """The cheap bounds of an action, checked before any other work on the request."""
    check_compound_length(len(action.compound.ids))
    require(
        len(action.compound_key) <= MAX_COMPOUND_KEY_CHARS,
        f"compound_key is at most {MAX_COMPOUND_KEY_CHARS} characters",
        "action.compound_key",
    )


def check_seat_names(seat_names: list[str], players: int,
                      open_seats: set[int] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """CreateGame's seat names as stored: each a display name (names.py; the names of open
    seats are not used, so not checked), no two the same name."""
    require(
        len(seat_names) in (0, players),
        f"seat_names must be empty or name all {players} seats",
        "seat_names",
    )
    checked = [raw if i in open_seats else display_name(raw, f"seat_names[{i}]")
               for i, raw in enumerate(seat_names)]
    seen: dict[str, int] = {}
    for seat, name in enumerate(checked):
        if seat in open_seats:
            continue
        first = seen.setdefault(name_key(name), seat)
        if first != seat:
            raise same_name_refusal(f"seat_names[{seat}]", first, checked[first])
    return checked


def same_name_refusal(field: str, seat: int, name: str) -> ServiceError:
    return ServiceError(
        "INVALID_ARGUMENT",
        f"{field}: seat {seat} is already named {name!r} (names are the same when they "
        "differ only in case, character width or spacing)", field=field, seat=seat,
    )


def check_open_seats(open_seats: list[int], players: int) -> None:
    require(
        all(0 <= seat < players for seat in open_seats),
        f"open_seats are seat indexes from 0 to {players - 1}",
        "open_seats",
    )
    require(len(set(open_seats)) == len(open_seats), "open_seats repeat a seat", "open_seats")


def check_game_id(game_id: str) -> None:
    require(game_id != "", "game_id is required", "game_id")
    require(len(game_id) <= MAX_GAME_ID_CHARS, "game_id is too long", "game_id")


def encode_cursor(cursor: tuple[float, str]) -> str:
    raw = json.dumps([cursor[0], cursor[1]]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str) -> tuple[float, str]:
    try:
        # The tokens made here are under 100 characters: a longer one (say deeply nested
        # JSON) is refused before it is parsed.
        if len(token) > MAX_PAGE_TOKEN_CHARS:
            raise ValueError("page token too long")
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        created_at, game_id = json.loads(raw)
        if type(created_at) not in (int, float) or type(game_id) is not str:
            raise TypeError("not a cursor")
        game_id.encode()  # no lone surrogates: the store takes UTF-8
        if not math.isfinite(created_at):
            raise ValueError("not a time")
        return float(created_at), game_id
    except (binascii.Error, ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise ServiceError(
            "BAD_PAGE_TOKEN", "page_token is not a token returned by ListGames", field="page_token"
        ) from exc
