"""The `Game` class: a thin, typed wrapper over the C core's plain state struct."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from brass import pittsburgh
from brass._core import ffi, lib

POSITION_FORMAT = "brass-position/1"
_NONE = lib.BRASS_NONE
DEFAULT_RULESET = "birmingham"


class EngineError(Exception):
    """A refused call. ``code`` is machine-readable; ``reason`` says why an action is illegal."""

    def __init__(self, code: str, message: str, reason: str | None = None,
                 field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "message": self.message,
                "field": self.field}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled with all its fields (the default would rebuild it from the message alone
        # and fail), so it crosses process pools intact.
        return type(self), (self.code, self.message, self.reason, self.field)


def _is_integer(value: Any) -> bool:
    """A Python or numpy integer, not a bool (True is not seat 1)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _value_name(value: Any) -> str | None:
    """The name of an enumerated option's value as given in JSON: a string, or true/false
    and integers for the options whose names are "true"/"false" or numbers."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return value if isinstance(value, str) else None


def _json_value(name: str) -> Any:
    """An enumerated option's value name as the JSON value a client writes."""
    if name in ("true", "false"):
        return name == "true"
    return int(name) if name.lstrip("-").isdigit() else name


def _text(ptr: Any) -> str | None:
    return None if ptr == ffi.NULL else ffi.string(ptr).decode()


@dataclass(frozen=True)
class OptionSpec:
    """One ruleset-specific option of a new game, as the C core declares it."""

    name: str
    description: str
    is_bool: bool
    allowed: tuple[int, ...]  # empty: any value in [minimum, maximum]
    minimum: int
    maximum: int
    default: int | bool | str
    value_names: tuple[str, ...] = ()  # an enumerated option: the JSON string of each value
    not_played: frozenset[int] = frozenset()  # values named by the rules but not played

    @property
    def choices(self) -> tuple[Any, ...]:
        """The values a new game accepts (enumerated options: as JSON values)."""
        return tuple(_json_value(n) for i, n in enumerate(self.value_names)
                     if i not in self.not_played)

    @property
    def kind(self) -> str:
        """"bool", "int" or "enum" (as a client writes the value in JSON)."""
        if self.value_names:
            kinds = {type(_json_value(n)) for n in self.value_names}
            return "bool" if kinds == {bool} else "int" if kinds == {int} else "enum"
        return "bool" if self.is_bool else "int"

    def check(self, value: Any) -> int:
        """The option's value for the core; EngineError naming the option when it is bad."""
        where = f"options.{self.name}"
        if self.value_names:
            name = _value_name(value)
            if name not in self.value_names:
                raise EngineError("INVALID_ARGUMENT", f"{where} must be one of "
                                  + ", ".join(repr(v) for v in self.choices), None, where)
            index = self.value_names.index(name)
            if index in self.not_played:
                raise EngineError("INVALID_ARGUMENT", f"{where}={value!r} is a rule choice this "
                                  "engine does not play yet; it plays "
                                  + ", ".join(repr(v) for v in self.choices), None, where)
            return index
        if self.is_bool:
            if not isinstance(value, bool):
                raise EngineError("INVALID_ARGUMENT", f"{where} must be true or false", None,
                                  where)
            return int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise EngineError("INVALID_ARGUMENT", f"{where} must be an integer", None, where)
        ok = value in self.allowed if self.allowed else self.minimum <= value <= self.maximum
        if not ok:
            allowed = (" or ".join(str(v) for v in self.allowed) if self.allowed
                       else f"{self.minimum}..{self.maximum}")
            raise EngineError("INVALID_ARGUMENT", f"{where} must be {allowed}", None, where)
        return value


@dataclass(frozen=True)
class Ruleset:
    """A ruleset of the C core (brass_ruleset_info): its sizes, editions, options and names."""

    id: int
    name: str
    title: str
    rules_edition: int
    format_version: int
    state_size: int
    num_actions: int
    observation_size: int
    min_players: int
    max_players: int
    provisional: bool
    placeholders: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    action_names: tuple[str, ...] = field(repr=False)
    decision_names: tuple[str, ...] = field(repr=False)
    event_names: tuple[tuple[str, tuple[str, ...]], ...] = field(repr=False)

    @property
    def action_ids(self) -> dict[str, int]:
        return _ACTION_IDS[self.id]

    def names_with(self, prefix: str) -> tuple[str, ...]:
        """The values of action names `prefix:value`, in id order (slots, links, cards...)."""
        k = len(prefix) + 1
        return tuple(n[k:] for n in self.action_names if n.startswith(prefix + ":"))

    def reason_name(self, reason: int) -> str:
        return _text(lib.brass_reason_name(self.id, reason)) or f"REASON_{reason}"

    def reason_message(self, reason: int) -> str:
        return _text(lib.brass_reason_message(self.id, reason)) or "unknown reason"

    def describe(self) -> dict[str, Any]:
        """The ruleset as JSON-ready data (for the service and the docs)."""
        return {
            "name": self.name, "title": self.title, "rules_edition": self.rules_edition,
            "format_version": self.format_version, "num_actions": self.num_actions,
            "observation_size": self.observation_size,
            "players": {"min": self.min_players, "max": self.max_players},
            "provisional": self.provisional, "placeholders": list(self.placeholders),
            "options": [{"name": o.name, "description": o.description, "type": o.kind,
                         "allowed": list(o.choices or o.allowed) or None,
                         "min": o.minimum if o.kind == "int" else None,
                         "max": o.maximum if o.kind == "int" else None, "default": o.default}
                        for o in self.options],
            "decision_kinds": list(self.decision_names),
        }


def _load_ruleset(rid: int) -> Ruleset:
    info = ffi.new("BrassRulesetInfo *")
    if lib.brass_ruleset_info(rid, info):
        raise EngineError("INTERNAL", f"ruleset {rid} is missing from the core")
    opts = []
    o = ffi.new("BrassOptionInfo *")
    for i in range(info.num_options):
        lib.brass_option_info(rid, i, o)
        is_bool = bool(o.is_bool)
        names = (tuple(_text(o.value_names[k]) or "" for k in range(o.num_allowed))
                 if o.value_names != ffi.NULL else ())
        default: int | bool | str = o.default_value
        if names:
            default = _json_value(names[o.default_value])
        elif is_bool:
            default = bool(o.default_value)
        opts.append(OptionSpec(_text(o.name) or "", _text(o.description) or "", is_bool,
                               () if names else tuple(o.allowed[k] for k in range(o.num_allowed)),
                               o.min, o.max, default, names,
                               frozenset(k for k in range(32) if (o.unimplemented >> k) & 1)))
    events = []
    for t in range(info.num_event_types):
        fields_text = _text(lib.brass_event_fields(rid, t)) or ""
        events.append((_text(lib.brass_event_name(rid, t)) or "unknown",
                       tuple(f for f in fields_text.split(",") if f)))
    placeholders = _text(info.placeholders) or ""
    return Ruleset(
        id=rid, name=_text(info.name) or "", title=_text(info.title) or "",
        rules_edition=info.rules_edition, format_version=info.format_version,
        state_size=info.state_size, num_actions=info.num_actions,
        observation_size=info.observation_size, min_players=info.min_players,
        max_players=info.max_players, provisional=bool(info.provisional),
        placeholders=tuple(p for p in placeholders.split(",") if p), options=tuple(opts),
        action_names=tuple(_text(lib.brass_action_name(rid, a)) or f"id:{a}"
                           for a in range(info.num_actions)),
        decision_names=tuple(_text(lib.brass_decision_name(rid, k)) or "unknown"
                             for k in range(info.num_decision_kinds)),
        event_names=tuple(events))


_BY_ID = tuple(_load_ruleset(i) for i in range(lib.BRASS_NUM_RULESETS))
RULESETS: dict[str, Ruleset] = {rs.name: rs for rs in _BY_ID}
_ACTION_IDS = tuple({n: i for i, n in enumerate(rs.action_names)} for rs in _BY_ID)


def get_ruleset(name: str | Ruleset = DEFAULT_RULESET) -> Ruleset:
    """A ruleset by name ("birmingham", ...); EngineError INVALID_ARGUMENT if unknown."""
    if isinstance(name, Ruleset):
        return name
    rs = RULESETS.get(name) if isinstance(name, str) else None
    if rs is None:
        raise EngineError("INVALID_ARGUMENT", f"unknown ruleset {name!r}; this engine has "
                          + ", ".join(RULESETS), None, "ruleset")
    return rs


def rulesets() -> list[Ruleset]:
    """Every ruleset of this engine, by id."""
    return list(_BY_ID)


# Birmingham's names, for Birmingham's position reader, bots and tests (not the neutral API).
_BHAM = RULESETS["birmingham"]
INDUSTRIES = _BHAM.names_with("industry")
ACTION_TYPES = _BHAM.names_with("type")
ERAS = ("canal", "rail")
BONUS_KINDS = ("money", "vp", "income_spaces", "develop")
CARD_NAMES = _BHAM.names_with("card")
SLOT_NAMES = _BHAM.names_with("slot")
LINK_NAMES = _BHAM.names_with("link")
SPACE_NAMES = _BHAM.names_with("merchant")
PHASE_NAMES = _BHAM.decision_names


def action_name(action: int, ruleset_name: str = DEFAULT_RULESET) -> str:
    """Stable short name of an action id, e.g. ``card:birmingham`` or ``slot:dudley.0``;
    ``unknown`` outside the action space."""
    if not _is_integer(action):
        raise EngineError("INVALID_ARGUMENT", "action must be an integer", None, "action")
    names = get_ruleset(ruleset_name).action_names
    return names[int(action)] if 0 <= action < len(names) else "unknown"


_ERRORS = {
    lib.BRASS_E_ILLEGAL: "ILLEGAL_ACTION",
    lib.BRASS_E_NOT_YOUR_TURN: "NOT_YOUR_TURN",
    lib.BRASS_E_GAME_OVER: "GAME_OVER",
    lib.BRASS_E_UNKNOWN_ACTION: "UNKNOWN_ACTION",
    lib.BRASS_E_BAD_SNAPSHOT: "BAD_SNAPSHOT",
    lib.BRASS_E_BAD_POSITION: "BAD_POSITION",
    lib.BRASS_E_BAD_ARGUMENT: "INVALID_ARGUMENT",
    lib.BRASS_E_BUFFER: "INTERNAL",
    # mismatches keep the codes callers know; the field ("ruleset", "rules_edition") and
    # the message say which
    lib.BRASS_E_WRONG_RULESET: "BAD_SNAPSHOT",
    lib.BRASS_E_WRONG_EDITION: "BAD_SNAPSHOT",
    lib.BRASS_E_CANNOT_UNDO: "CANNOT_UNDO",
    lib.BRASS_E_UNSUPPORTED: "UNSUPPORTED",
}
# The entry of a replay record's decision list that stands for an undo (Game.undo).
UNDO = "undo"


# The JSON writers fill at most BRASS_JSON_CAP bytes; no need to zero them first.
_new_uncleared = ffi.new_allocator(should_clear_after_alloc=False)


def _json_buffer() -> Any:
    return _new_uncleared("char[]", lib.BRASS_JSON_CAP)


def _raise(err: int, reason: int = 0, what: str = "", field: str | None = None,
           rs: Ruleset = _BHAM) -> None:
    code = _ERRORS.get(err, "INTERNAL")
    if err == lib.BRASS_E_ILLEGAL:
        msg = f"{what} is not legal now: {rs.reason_message(reason)}"
        raise EngineError(code, msg, rs.reason_name(reason), field)
    if err == lib.BRASS_E_CANNOT_UNDO:
        raise EngineError(code, f"nothing can be undone: {rs.reason_message(reason)}",
                          rs.reason_name(reason), field)
    messages = {
        "NOT_YOUR_TURN": f"it is not this seat's turn ({what})",
        "GAME_OVER": "the game is over",
        "UNKNOWN_ACTION": f"{what} is outside the action space 0..{rs.num_actions - 1}",
        "BAD_SNAPSHOT": "snapshot bytes are corrupt, truncated or from another format",
        "BAD_POSITION": f"invalid position: {field or what}",
        "INVALID_ARGUMENT": f"invalid argument: {what}",
    }
    raise EngineError(code, messages.get(code, f"internal error {err}"), None, field)


_SEED_MASK = 2**64 - 1
_INT32_MAX = 2**31 - 1
MAX_BATCH = 1 << 20          # games in one GameBatch or batch_playouts call
MAX_COMPOUND_LIMIT = 200_000  # compound actions listed by one call


def _integer(value: Any, what: str, lo: int, hi: int) -> int:
    """`value` as an int in lo..hi, else INVALID_ARGUMENT naming `what`: a number that
    crosses into C is exact and in range there (no bools, floats or strings)."""
    if not _is_integer(value):
        raise EngineError("INVALID_ARGUMENT", f"{what} must be an integer", None, what)
    number = int(value)
    if not lo <= number <= hi:
        raise EngineError("INVALID_ARGUMENT", f"{what} must be in {lo}..{hi}", None, what)
    return number


def _seed(value: Any, what: str = "seed") -> int:
    """A seed for the core: any integer, taken modulo 2^64."""
    if not _is_integer(value):
        raise EngineError("INVALID_ARGUMENT", f"{what} must be an integer", None, what)
    return int(value) & _SEED_MASK


def _action_id(value: Any, what: str, rs: Ruleset = _BHAM) -> int:
    """An action id: an integer (else INVALID_ARGUMENT) inside the ruleset's action space
    (else UNKNOWN_ACTION)."""
    if not _is_integer(value):
        raise EngineError("INVALID_ARGUMENT", f"{what} must be an integer action id", None,
                          what)
    action = int(value)
    if not 0 <= action < rs.num_actions:
        _raise(lib.BRASS_E_UNKNOWN_ACTION, what=f"{what}={action}" if "[" in what
               else f"action {action}", rs=rs)
    return action


def _id_list(ids: Iterable[int], rs: Ruleset) -> list[int]:
    """The ids of a compound action, each an integer inside the action space."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise EngineError("INVALID_ARGUMENT", "ids must be a sequence of action ids", None,
                          "ids")
    out = [_action_id(i, f"ids[{k}]", rs) for k, i in enumerate(ids)]
    if not out:
        raise EngineError("INVALID_ARGUMENT", "a compound action needs at least one id",
                          None, "ids")
    return out


def _position_of(g: Any) -> dict[str, Any]:
    out = _json_buffer()
    n = lib.brass_position_json(g, out, lib.BRASS_JSON_CAP)
    if n < 0:
        _raise(-n)
    return json.loads(ffi.unpack(out, n))


# Key styles of the core's view text (brass.h BRASS_KEYS_*)
KEY_STYLES = {"snake": lib.BRASS_KEYS_SNAKE, "camel": lib.BRASS_KEYS_CAMEL,
              "proto": lib.BRASS_KEYS_PROTO}


def _view_json(state: Any, seat: int, keys: str = "snake") -> str:
    """The core's JSON text of what `seat` (-1: a spectator) sees of a state, with
    snake_case keys (this API's), lowerCamelCase ones (proto3 JSON) or the proto field names
    without null members (for a protobuf constructor): the service's key styles."""
    style = KEY_STYLES.get(keys)
    if style is None:
        raise EngineError("INVALID_ARGUMENT", "keys must be 'snake', 'camel' or 'proto'", None,
                          "keys")
    out = _json_buffer()
    n = lib.brass_view_json_keys(state, seat, style, out, lib.BRASS_JSON_CAP)
    if n < 0:
        _raise(-n, what="seat")
    return ffi.unpack(out, n).decode()


# Each thread's buffer for brass_view_proto: allocating 16 KiB a call costs as much as a
# third of the encoding.
_proto_buffers = threading.local()


def _view_proto(state: Any, seat: int) -> bytes | None:
    """The core's protobuf binary of what `seat` (-1: a spectator) sees of a state, as the
    ruleset's brass.v1 view message; None where the core has no encoder for it (Pittsburgh,
    or a core built without nanopb: core_c/build_ffi.py)."""
    out = getattr(_proto_buffers, "out", None)
    if out is None:
        out = _proto_buffers.out = _new_uncleared("uint8_t[]", lib.BRASS_VIEW_PROTO_CAP)
    n = lib.brass_view_proto(state, seat, out, lib.BRASS_VIEW_PROTO_CAP)
    if n == -lib.BRASS_E_UNSUPPORTED:
        return None
    if n < 0:
        _raise(-n, what="seat")
    return ffi.buffer(out, n)[:]


def meaning(action: int, ruleset_name: str | Ruleset = DEFAULT_RULESET) -> dict[str, Any]:
    """Structured meaning of an action id, for frontends (from its stable name)."""
    rs = get_ruleset(ruleset_name)
    name = rs.action_names[_action_id(action, "action", rs)]
    kind, _, value = name.partition(":")
    if kind == "type":
        return {"kind": "action_type", "action_type": value}
    if kind in ("slot", "merchant"):
        return {"kind": kind, kind: value, "location": value.split(".")[0]}
    if value:
        return {"kind": kind, kind: value}
    return {"kind": name}


@dataclass(frozen=True)
class Option:
    id: int
    decision: str
    name: str
    meaning: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class Compound:
    key: str
    ids: tuple[int, ...]


def _ruleset_of(g: Any) -> Ruleset:
    rid = g.header.ruleset
    if not 0 <= rid < len(_BY_ID):
        raise EngineError("INTERNAL", f"state of unknown ruleset {rid}")
    return _BY_ID[rid]


def _c_options(rs: Ruleset, players: Any, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """BrassOptions for the core and the options as recorded (every option, defaults filled);
    EngineError INVALID_ARGUMENT naming the first bad field."""
    if isinstance(players, bool) or not isinstance(players, int) or not (
            rs.min_players <= players <= rs.max_players):
        counts = ", ".join(str(n) for n in range(rs.min_players, rs.max_players + 1))
        raise EngineError("INVALID_ARGUMENT", f"players must be one of {counts} for "
                          f"{rs.name}", None, "players")
    if not isinstance(options, dict):
        raise EngineError("INVALID_ARGUMENT", "options must be an object", None, "options")
    known = {o.name for o in rs.options} | {"auto_resolve"}
    for key in options:
        if key not in known:
            raise EngineError("INVALID_ARGUMENT", f"unknown option {key!r} for {rs.name} "
                              f"(options: {', '.join(sorted(known))})", None, f"options.{key}")
    auto = options.get("auto_resolve", True)
    if not isinstance(auto, bool):
        raise EngineError("INVALID_ARGUMENT", "options.auto_resolve must be true or false",
                          None, "options.auto_resolve")
    values = []
    record: dict[str, Any] = {}
    for o in rs.options:
        value = options.get(o.name, o.default)
        index = o.check(value)
        values.append(index)
        record[o.name] = _json_value(o.value_names[index]) if o.value_names else value
    record["auto_resolve"] = auto
    opt = ffi.new("BrassOptions *", {"ruleset": rs.id, "players": players,
                                     "auto_resolve": int(auto), "values": values})
    return opt, record


def _deal_seed(seed: Any) -> int:
    """The seed of a new game: an integer in [0, 2^64) (it is recorded for replays)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise EngineError("INVALID_ARGUMENT", "seed must be an integer in [0, 2^64)", None,
                          "seed")
    return seed


class Game:
    """One game of Brass in the C core. Methods never leave the state half-changed."""

    __slots__ = ("_barrier", "_g", "_owner", "_record", "_rs", "_turn")

    def __init__(self, _state: Any, _record: dict[str, Any], _owner: Any = None) -> None:
        self._g = _state
        self._record = _record
        self._rs = _ruleset_of(_state)
        # A game viewing a GameBatch slot keeps the batch's C array alive (a pointer into
        # it does not).
        self._owner = _owner
        # Undo (docs/UNDO.md): the core counts the decisions since its undo barrier; the
        # game keeps the state at the barrier and those decisions, to replay all but the
        # undone ones. None: not known (restored or re-dealt away from a barrier).
        self._barrier: Any = None
        self._turn: list[int] | None = None
        if lib.brass_undo_depth(_state) == 0:
            self._at_barrier()

    def _at_barrier(self) -> None:
        barrier = ffi.new("BrassGame *")
        lib.brass_clone(barrier, self._g)
        self._barrier, self._turn = barrier, []

    def _note_applied(self, ids: list[int]) -> None:
        """Keeps the barrier and the decisions since it after `ids` were applied."""
        depth = lib.brass_undo_depth(self._g)
        turn = self._turn
        if depth == 0:
            self._at_barrier()
        elif turn is not None and depth == len(turn) + len(ids):
            turn.extend(ids)
        elif turn is not None and depth < len(ids):
            # the barrier moved inside a compound action (a reveal): find its state
            state = ffi.new("BrassGame *")
            lib.brass_clone(state, self._barrier)
            path = turn + ids
            for k, option in enumerate(path):
                lib.brass_apply(state, -1, option, ffi.NULL, ffi.NULL)
                if lib.brass_undo_depth(state) == 0 and len(path) - k - 1 == depth:
                    self._barrier, self._turn = state, path[k + 1:]
                    return
            self._barrier = self._turn = None
        else:
            self._barrier = self._turn = None

    # ---- creation ----
    @classmethod
    def new(cls, players: int, seed: int = 0, *, ruleset: str = DEFAULT_RULESET,
            options: dict[str, Any] | None = None, **option_kwargs: Any) -> Game:
        """A new game. `options` (or keywords: ``beginner=True``) are the ruleset's own,
        plus ``auto_resolve``; an unknown option or a bad value is refused."""
        rs = get_ruleset(ruleset)
        merged = dict(options or {})
        for key, value in option_kwargs.items():
            if key in merged and merged[key] != value:
                raise EngineError("INVALID_ARGUMENT", f"option {key!r} given twice", None,
                                  f"options.{key}")
            merged[key] = value
        opt, used = _c_options(rs, players, merged)
        seed = _deal_seed(seed)
        g = ffi.new("BrassGame *")
        err = lib.brass_new(g, opt, seed)
        if err:
            _raise(err, what="options", rs=rs)
        record = {"rules_edition": rs.rules_edition, "ruleset": rs.name, "players": players,
                  "seed": seed, "options": used, "decisions": []}
        return cls(g, record)

    @classmethod
    def from_position(cls, position: dict[str, Any] | str | bytes) -> Game:
        from brass.position import (  # keeps import light
            MAX_POSITION_CHARS,
            state_from_c_position,
            state_from_position,
        )

        text = None
        if isinstance(position, str | bytes):
            if len(position) > MAX_POSITION_CHARS:
                raise EngineError("BAD_POSITION", f"position is over {MAX_POSITION_CHARS} "
                                  "characters", None, "$")
            text = position
            try:
                position = json.loads(position)
            except (ValueError, UnicodeDecodeError, RecursionError) as exc:
                raise EngineError("BAD_POSITION", f"position is not valid JSON: {exc}", None,
                                  "$") from exc
        if isinstance(position, dict) and position.get("ruleset") == "pittsburgh":
            g = state_from_c_position(position if text is None else text, "pittsburgh")
        else:
            g = state_from_position(position)
        rs = _ruleset_of(g)
        # the record keeps the engine's own rewrite of the position, never the caller's object
        record = {"rules_edition": g.header.rules_edition, "ruleset": rs.name,
                  "players": g.header.num_players, "position": _position_of(g),
                  "decisions": []}
        return cls(g, record)

    @classmethod
    def restore(cls, data: bytes, ruleset: str | None = None) -> Game:
        """A game from snapshot bytes; `ruleset` (when given) must be the snapshot's."""
        if not isinstance(data, bytes | bytearray | memoryview):
            raise EngineError("BAD_SNAPSHOT", "snapshot must be bytes")
        data = bytes(data)
        expected = -1 if ruleset is None else get_ruleset(ruleset).id
        g = ffi.new("BrassGame *")
        err = lib.brass_restore(g, data, len(data), expected)
        if err == lib.BRASS_E_WRONG_RULESET:
            got = lib.brass_snapshot_ruleset(data, len(data), ffi.NULL)
            name = _BY_ID[got].name if 0 <= got < len(_BY_ID) else f"#{got}"
            raise EngineError("BAD_SNAPSHOT", f"the snapshot is of ruleset {name}, not "
                              f"{ruleset}", None, "ruleset")
        if err == lib.BRASS_E_WRONG_EDITION:
            edition = ffi.new("int *")
            got = lib.brass_snapshot_ruleset(data, len(data), edition)
            rs = _BY_ID[got]
            raise EngineError("BAD_SNAPSHOT", f"the snapshot needs {rs.name} rules edition "
                              f"{edition[0]}; this engine has {rs.rules_edition}", None,
                              "rules_edition")
        if err:
            _raise(err)
        rs = _ruleset_of(g)
        return cls(g, {"rules_edition": g.header.rules_edition, "ruleset": rs.name,
                       "players": g.header.num_players, "restored": True, "decisions": []})

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from its seed (or start position) and decision list."""
        try:
            rs = get_ruleset(record.get("ruleset", DEFAULT_RULESET))
            edition = int(record.get("rules_edition", rs.rules_edition))
            if edition > rs.rules_edition:
                raise EngineError("INVALID_ARGUMENT",
                                  f"replay needs {rs.name} rules edition {edition}; this "
                                  f"engine has {rs.rules_edition}", None, "rules_edition")
            if "position" in record:
                game = cls.from_position(record["position"])
                if game.ruleset != rs.name:
                    raise EngineError("INVALID_ARGUMENT", f"the record's position is of "
                                      f"{game.ruleset}, not {rs.name}", None, "ruleset")
            else:
                game = cls.new(int(record["players"]), int(record["seed"]), ruleset=rs.name,
                               options=dict(record.get("options") or {}))
            decisions = [UNDO if d == UNDO else int(d) for d in record.get("decisions", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError("INVALID_ARGUMENT", f"malformed replay record: {exc}") from exc
        for i, d in enumerate(decisions):
            try:
                if d == UNDO:
                    game.undo()
                else:
                    game.apply(d)
            except EngineError as exc:
                raise EngineError(exc.code, f"decision {i}: {exc.message}", exc.reason,
                                  f"decisions[{i}]") from exc
        return game

    def clone(self) -> Game:
        """An independent copy (its own C state and replay record)."""
        g = ffi.new("BrassGame *")
        lib.brass_clone(g, self._g)
        rec = dict(self._record)
        rec["decisions"] = list(self._record["decisions"])
        copy = Game(g, rec)
        # the barrier state is never changed once kept: the copy may share it
        copy._barrier = self._barrier
        copy._turn = None if self._turn is None else list(self._turn)
        return copy

    # copy.copy and copy.deepcopy give independent games (a shallow copy sharing the C
    # state would let a move on the copy change the original); pickling goes through the
    # snapshot, validated again when loaded, with the replay record.
    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        copy = self.clone()
        copy._record = deepcopy(self._record, memo)
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        barrier = None
        if self._barrier is not None and self._turn:
            barrier = (_snapshot_of(self._barrier, self._rs), list(self._turn))
        return _unpickle_game, (self.snapshot(), self.replay_record(), barrier)

    # ---- state ----
    @property
    def ruleset(self) -> str:
        """The ruleset's name ("birmingham", ...)."""
        return self._rs.name

    @property
    def ruleset_info(self) -> Ruleset:
        return self._rs

    @property
    def rules_edition(self) -> int:
        return self._g.header.rules_edition

    @property
    def num_actions(self) -> int:
        """The size of this ruleset's action space (OpenSpiel's num_distinct_actions)."""
        return self._rs.num_actions

    @property
    def observation_size(self) -> int:
        return self._rs.observation_size

    @property
    def num_players(self) -> int:
        return self._g.header.num_players

    @property
    def is_over(self) -> bool:
        return bool(self._g.header.game_over)

    @property
    def current_seat(self) -> int | None:
        return None if self._g.header.game_over else self._g.header.current

    @property
    def decision(self) -> str:
        return self._rs.decision_names[lib.brass_decision_kind(self._g)]

    @property
    def decisions_applied(self) -> int:
        """Every decision applied, forced ones included."""
        return int(lib.brass_decisions_applied(self._g))

    @property
    def undo_depth(self) -> int:
        """Decisions applied since the core's undo barrier (0: at the start of the turn or
        right after a reveal)."""
        return int(lib.brass_undo_depth(self._g))

    @property
    def version(self) -> int:
        """Number of decisions submitted to this game object (its replay length)."""
        return len(self._record["decisions"])

    def state_hash(self) -> int:
        """A hash of the whole state; its bytes include the ruleset and rules edition."""
        return int(lib.brass_hash(self._g))

    def snapshot(self) -> bytes:
        return _snapshot_of(self._g, self._rs)

    def replay_record(self) -> dict[str, Any]:
        rec = dict(self._record)
        rec["decisions"] = list(self._record["decisions"])
        return rec

    # ---- decisions ----
    def legal_ids(self) -> list[int]:
        cap = self._rs.num_actions
        buf = ffi.new("uint16_t[]", cap)
        n = lib.brass_legal(self._g, buf, cap)
        if n < 0:
            _raise(-n, rs=self._rs)
        return list(buf[0:n])

    def legal_actions(self) -> list[Option]:
        phase = self.decision
        names = self._rs.action_names
        return [Option(i, phase, names[i], meaning(i, self._rs)) for i in self.legal_ids()]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self._rs.num_actions, dtype=bool)
        mask[self.legal_ids()] = True
        return mask

    def reason(self, action: int) -> str | None:
        """Why `action` is not legal now (None when it is)."""
        r = lib.brass_reason(self._g, _action_id(action, "action", self._rs))
        return None if r == 0 else self._rs.reason_name(r)

    def unavailable(self) -> list[tuple[int, str, str]]:
        """Options of this decision's kind that are not legal now, with reason and message."""
        out = []
        for a in range(self._rs.num_actions):
            r = lib.brass_reason(self._g, a)
            if r not in (0, lib.BRASS_R_WRONG_DECISION):
                out.append((a, self._rs.reason_name(r), self._rs.reason_message(r)))
        return out

    def _check_seat(self, seat: int | None) -> int:
        if seat is None:
            return -1
        if not _is_integer(seat) or not 0 <= seat < self.num_players:
            raise EngineError("INVALID_ARGUMENT", f"seat must be 0..{self.num_players - 1}",
                              None, "seat")
        return int(seat)

    def apply(self, action: int, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply one decision id; returns the events it caused."""
        s = self._check_seat(seat)
        rs = self._rs
        action = _action_id(action, "action", rs)
        log = ffi.new("BrassEventLog *")
        reason = ffi.new("int *")
        err = lib.brass_apply(self._g, s, action, log, reason)
        if err:
            _raise(err, reason[0], f"action {action} ({rs.action_names[action]})" if err != 2
                   else f"seat {seat} tried to act; seat {self._g.header.current} is to act",
                   rs=rs)
        self._record["decisions"].append(action)
        self._note_applied([action])
        return self._events(log)

    def apply_compound(self, ids: Iterable[int], seat: int | None = None) -> list[dict[str, Any]]:
        """Apply a whole compound action atomically: all of it or nothing."""
        rs = self._rs
        ids = _id_list(ids, rs)
        s = self._check_seat(seat)
        arr = ffi.new("uint16_t[]", ids)
        log = ffi.new("BrassEventLog *")
        reason = ffi.new("int *")
        at = ffi.new("int *")
        err = lib.brass_apply_sequence(self._g, s, arr, len(ids), log, reason, at)
        if err:
            k = at[0]
            _raise(err, reason[0], f"ids[{k}]={ids[k]} ({rs.action_names[ids[k]]})", rs=rs)
        self._record["decisions"].extend(ids)
        self._note_applied(ids)
        return self._events(log)

    def undo_steps(self, seat: int | None = None) -> int:
        """How many decisions undo() would take back now (0 when it would be refused)."""
        s = self._check_seat(seat)
        steps = ffi.new("int *")
        return steps[0] if lib.brass_undo_steps(self._g, s, steps, ffi.NULL) == 0 else 0

    def undo(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Take back the action in progress (back to its first decision) or, at an action's
        start, the turn's previous action; the core says how far (never across the start of
        the turn nor a reveal of hidden information) and whether the game's `undo` option
        allows it. Recorded in the replay record as "undo"; returns the undo event.
        EngineError CANNOT_UNDO (reason NOTHING_TO_UNDO, UNDO_DISABLED, UNDO_BARRIER),
        NOT_YOUR_TURN, GAME_OVER."""
        s = self._check_seat(seat)
        rs = self._rs
        steps = ffi.new("int *")
        reason = ffi.new("int *")
        acting = self._g.header.current
        err = lib.brass_undo_steps(self._g, s, steps, reason)
        if not err and (self._barrier is None or self._turn is None):
            raise EngineError("CANNOT_UNDO", "nothing can be undone: this game was restored "
                              "away from the start of the turn, which it does not hold",
                              "TURN_START_UNKNOWN")
        if not err:
            turn = self._turn
            assert turn is not None
            ids = ffi.new("uint16_t[]", turn)
            err = lib.brass_undo(self._g, s, self._barrier, ids, len(turn), steps, reason)
        if err:
            _raise(err, reason[0], f"seat {seat} tried to undo; seat {acting} is to act"
                   if err == lib.BRASS_E_NOT_YOUR_TURN else "undo", rs=rs)
        undone = turn[len(turn) - steps[0]:]
        del turn[len(turn) - steps[0]:]
        self._record["decisions"].append(UNDO)
        return [{"type": "undo", "seat": acting, "decisions": len(undone),
                 "ids": undone}]

    def compound_actions(self, limit: int = 20000) -> tuple[list[Compound], bool]:
        """Every complete compound action from here (canonical), and whether the list was cut
        (at `limit` actions, at most MAX_COMPOUND_LIMIT)."""
        limit = _integer(limit, "limit", 0, MAX_COMPOUND_LIMIT)
        ids = ffi.new("uint16_t[]", limit * 16)
        offs = ffi.new("uint32_t[]", limit + 1)
        trunc = ffi.new("int *")
        n = lib.brass_compound_actions(self._g, ids, limit * 16, offs, limit, trunc)
        if n < 0:
            _raise(-n, rs=self._rs)
        names = self._rs.action_names
        out = []
        for k in range(n):
            seq = tuple(ids[offs[k]:offs[k + 1]])
            out.append(Compound(" ".join(names[i] for i in seq), seq))
        return out, bool(trunc[0])

    def _result(self) -> Any:
        res = ffi.new("BrassResult *")
        n = lib.brass_result(self._g, res)
        if n < 0:
            _raise(-n, rs=self._rs)
        return res

    def preview(self, ids: int | Sequence[int], seat: int | None = None) -> dict[str, Any]:
        """What apply (one id) or apply_compound (a list) would do, as `seat` may see it
        (None: a spectator): the events, the cost breakdown and the resulting view; this game
        is unchanged. Worked out in the core from what the seat to act knows only: cards
        drawn from the face-down deck are not shown, the view's hand is the one kept before
        the draw and ``hand_unseen`` counts the cards drawn (docs/ENGINE_API.md)."""
        s = self._check_seat(seat)
        rs = self._rs
        if isinstance(ids, int | np.integer):
            seq = [_action_id(ids, "action", rs)]
        else:
            seq = _id_list(ids, rs)
        after = ffi.new("BrassGame *")
        log = ffi.new("BrassEventLog *")
        reason = ffi.new("int *")
        at = ffi.new("int *")
        err = lib.brass_preview(self._g, s, ffi.new("uint16_t[]", seq), len(seq), after, log,
                                reason, at)
        if err == lib.BRASS_E_BAD_ARGUMENT:  # the arguments were checked: the ruleset has none
            raise EngineError("INVALID_ARGUMENT", f"previews are not available for {rs.name} "
                              "yet (its core cannot hide what the seat to act does not know)")
        if err:
            names = rs.action_names
            if len(seq) == 1:
                _raise(err, reason[0], f"action {seq[0]} ({names[seq[0]]})" if err != 2
                       else f"seat {seat} tried to act; seat {self._g.header.current} is to act",
                       rs=rs)
            k = at[0]
            _raise(err, reason[0], f"ids[{k}]={seq[k]} ({names[seq[k]]})", rs=rs)
        events = self._events(log)
        actor = self._g.header.current
        before, now = self._result(), ffi.new("BrassResult *")
        if lib.brass_result(after, now) < 0:
            _raise(lib.BRASS_E_BAD_ARGUMENT, what="preview", rs=rs)
        if rs.name == "pittsburgh":
            cost = pittsburgh.preview_cost(events, actor, before, now)
            return {"events": events, "cost": cost, "view": json.loads(_view_json(after, s))}
        cost: dict[str, Any] = {"money": 0, "coal": [], "iron": [], "beer": [],
                                "market_income": 0, "flips": [], "merchant_bonus": []}
        for e in events:
            if e["seat"] != actor:
                continue
            t = e["type"]
            if t == "pay":
                cost["money"] += e["money"]
            elif t in ("coal", "iron", "beer"):
                cost[t].append(e["source"])
            elif t == "market_sale":
                cost["market_income"] += e["money"]
            elif t == "merchant_bonus":
                cost["merchant_bonus"].append(e)
        cost["flips"] = [e for e in events if e["type"] == "flip"]
        cost["income_spaces"] = now.income_space[actor] - before.income_space[actor]
        cost["vp"] = now.vp[actor] - before.vp[actor]
        cost["money_after"] = now.money[actor]
        return {"events": events, "cost": cost, "view": json.loads(_view_json(after, s))}

    def _events(self, log: Any) -> list[dict[str, Any]]:
        out = []
        table = self._rs.event_names
        namer = _EVENT_NAMERS.get(self._rs.name, _name_event_values)
        for k in range(min(log.count, lib.BRASS_MAX_EVENTS)):
            e = log.events[k]
            name, fields = table[e.type] if e.type < len(table) else ("unknown", ())
            d: dict[str, Any] = {"type": name, "seat": None if e.seat < 0 else e.seat}
            for f, v in zip(fields, (e.a, e.b, e.c), strict=False):
                d[f] = v
            namer(d, self._rs, self.num_players)
            out.append(d)
        return out

    # ---- views ----
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see (spectator when None): never others' hands, deck order, seed."""
        return json.loads(self.view_json(seat))

    def view_json(self, seat: int | None = None, keys: str = "snake") -> str:
        """view() as compact JSON text, written by the core (no dict in between). With
        ``keys="camel"``: canonical proto3 JSON (lowerCamelCase field names, null members
        left out), the service's REST form; ``keys="proto"``: snake_case without null members
        (the typed message's field names). Map keys and values are the same."""
        return _view_json(self._g, self._check_seat(seat), keys)

    def view_proto(self, seat: int | None = None) -> bytes | None:
        """view() as the serialized typed message of brass.v1 (BirminghamView), encoded by
        the core: the service's gRPC form. None where the core has none (Pittsburgh, or a
        build without nanopb); the service then builds the message from view_json."""
        return _view_proto(self._g, self._check_seat(seat))

    def position(self) -> dict[str, Any]:
        """The full position (hidden information included), in the documented JSON format."""
        return _position_of(self._g)

    def observation(self, seat: int) -> np.ndarray:
        if seat is None:
            raise EngineError("INVALID_ARGUMENT", "an observation is a seat's: seat is needed",
                              None, "seat")
        s = self._check_seat(seat)
        size = self._rs.observation_size
        out = np.zeros(size, dtype=np.float32)
        n = lib.brass_observation(self._g, s, ffi.cast("float *", out.ctypes.data), size)
        if n < 0:
            _raise(-n, rs=self._rs)
        return out

    def determinize(self, seat: int, seed: int) -> Game:
        """A copy with what `seat` cannot see re-dealt at random (for information-set search)."""
        s = self._check_seat(seat)
        seed = _seed(seed)
        copy = self.clone()
        err = lib.brass_determinize(copy._g, s, seed)
        if err:
            _raise(err, what="seat", rs=self._rs)
        # the turn's start was dealt otherwise: the re-dealt copy cannot replay from it
        copy._barrier = copy._turn = None
        if copy.undo_depth == 0:
            copy._at_barrier()
        return copy

    # ---- results ----
    def scores(self) -> list[int]:
        res = self._result()
        return [res.vp[p] for p in range(self.num_players)]

    def ranking(self) -> list[int]:
        res = self._result()
        return list(res.ranking[0:res.num_players])

    def winners(self) -> list[int]:
        """Seats sharing first place (the ruleset's tie rules, applied in C)."""
        res = self._result()
        return list(res.ranking[0:res.num_first])

    def playout(self, seed: int, policy: str = "random", max_decisions: int = 1 << 20) -> int:
        """Play this game to the end inside C with a random policy; returns decisions made."""
        max_decisions = _integer(max_decisions, "max_decisions", 0, _INT32_MAX)
        n = lib.brass_playout(self._g, _policy(policy), _seed(seed), max_decisions)
        if n < 0:
            _raise(-n, rs=self._rs)
        self._record["playout"] = True
        if n:
            self._at_barrier()  # the core's barrier: those decisions are nobody's record
        return n

    def batch_playouts(self, n: int, seed: int, policy: str = "random") -> np.ndarray:
        """Play n copies of this game to the end inside C (one call); returns their final VP
        as an n x players int array. This game is not changed."""
        n = _integer(n, "n", 1, MAX_BATCH)
        seed = _seed(seed)
        games = ffi.new("BrassGame[]", n)
        for i in range(n):
            lib.brass_clone(ffi.addressof(games, i), self._g)
        err = lib.brass_playout_batch(games, n, _policy(policy), seed, 1 << 20)
        if err < 0:
            _raise(-err, rs=self._rs)
        out = np.zeros((n, self.num_players), dtype=np.int32)
        res = ffi.new("BrassResult *")
        for i in range(n):
            lib.brass_result(ffi.addressof(games, i), res)
            out[i] = res.vp[0:self.num_players]
        return out

    def __repr__(self) -> str:
        return (f"<brass.Game ruleset={self.ruleset} players={self.num_players} "
                f"decision={self.decision} seat={self.current_seat}>")


class GameBatch:
    """n games of one ruleset in one C array, stepped together by one call (`step`) so that
    Python overhead is paid once per batch. `games[i]` is a `Game` viewing slot i."""

    def __init__(self, n: int, players: int, seeds: Sequence[int], *,
                 ruleset: str = DEFAULT_RULESET, **options: Any) -> None:
        n = _integer(n, "n", 1, MAX_BATCH)
        if len(seeds) != n:
            raise EngineError("INVALID_ARGUMENT", "need one seed per game", None, "seeds")
        self.n = n
        self.players = players
        self.ruleset = get_ruleset(ruleset)
        self._options = options
        self._array = ffi.new("BrassGame[]", n)
        self.games: list[Game] = [None] * n  # type: ignore[list-item]
        for i, seed in enumerate(seeds):
            self.reset_game(i, seed)

    @property
    def observation_size(self) -> int:
        return self.ruleset.observation_size

    @property
    def num_actions(self) -> int:
        return self.ruleset.num_actions

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as its games' snapshots and records: a copy has its own array.
        return _unpickle_batch, (self.players, self.ruleset.name, dict(self._options),
                                 [g.snapshot() for g in self.games],
                                 [g.replay_record() for g in self.games])

    def reset_game(self, i: int, seed: int) -> Game:
        """Deal a new game into slot i (0 <= i < n; checked before anything is written)."""
        i = _integer(i, "i", 0, self.n - 1)
        fresh = Game.new(self.players, seed, ruleset=self.ruleset.name, **self._options)
        slot = ffi.addressof(self._array, i)
        lib.brass_clone(slot, fresh._g)
        self.games[i] = Game(slot, fresh._record, self._array)
        return self.games[i]

    def step(self, actions: np.ndarray, observations: np.ndarray, masks: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """Apply actions[i] (-1: none) in game i; fill observations (n x observation_size
        float32) and masks (n x num_actions bool) for the seats to act; return the per-game
        error codes (0 = applied) and done flags."""
        given = np.asarray(actions)
        obs_size, num_actions = self.observation_size, self.num_actions
        if given.shape != (self.n,):
            raise EngineError("INVALID_ARGUMENT", f"actions must have shape ({self.n},)", None,
                              "actions")
        # Checked before the cast to int32, which would wrap 2^32 + k to action k.
        if given.dtype.kind not in "iu" or (
                given.size and (given.min() < -1 or given.max() > _INT32_MAX)):
            raise EngineError("INVALID_ARGUMENT", "actions must be integers, -1 for none",
                              None, "actions")
        acts = np.ascontiguousarray(given, dtype=np.int32)
        if (observations.shape != (self.n, obs_size) or observations.dtype != np.float32
                or not observations.flags.c_contiguous):
            raise EngineError("INVALID_ARGUMENT", "observations: C-contiguous float32 (n, obs)")
        if (masks.shape != (self.n, num_actions) or masks.dtype != np.bool_
                or not masks.flags.c_contiguous):
            raise EngineError("INVALID_ARGUMENT", "masks: C-contiguous bool (n, actions)")
        errors = np.zeros(self.n, dtype=np.int32)
        done = np.zeros(self.n, dtype=np.bool_)
        refused = lib.brass_step_batch(self._array, self.n, ffi.from_buffer("int32_t[]", acts),
                                       ffi.from_buffer("int32_t[]", errors),
                                       ffi.from_buffer("float[]", observations), obs_size,
                                       ffi.from_buffer("uint8_t[]", masks), num_actions,
                                       ffi.from_buffer("uint8_t[]", done))
        if refused < 0:
            _raise(-refused, what="batch", rs=self.ruleset)
        for i in np.flatnonzero((errors == 0) & (acts >= 0)):
            game, action = self.games[i], int(acts[i])
            game._record["decisions"].append(action)
            game._note_applied([action])
        return errors, done


def _snapshot_of(state: Any, rs: Ruleset) -> bytes:
    n = lib.brass_snapshot_size(rs.id)
    buf = ffi.new("uint8_t[]", n)
    err = lib.brass_snapshot(state, buf, n)
    if err:
        _raise(err, rs=rs)
    return bytes(ffi.buffer(buf, n))


def _unpickle_game(snapshot: bytes, record: dict[str, Any],
                   barrier: tuple[bytes, list[int]] | None = None) -> Game:
    game = Game.restore(snapshot, record.get("ruleset"))
    game._record = record
    if barrier is not None:  # the turn so far, so that undo still works
        game._barrier = Game.restore(barrier[0], record.get("ruleset"))._g
        game._turn = [int(i) for i in barrier[1]]
    return game


def _unpickle_batch(players: int, ruleset: str, options: dict[str, Any],
                    snapshots: list[bytes], records: list[dict[str, Any]]) -> GameBatch:
    batch = GameBatch.__new__(GameBatch)
    batch.n, batch.players, batch._options = len(snapshots), players, options
    batch.ruleset = get_ruleset(ruleset)
    batch._array = ffi.new("BrassGame[]", batch.n)
    batch.games = []
    for i, (data, record) in enumerate(zip(snapshots, records, strict=True)):
        slot = ffi.addressof(batch._array, i)
        err = lib.brass_restore(slot, data, len(data), batch.ruleset.id)
        if err:
            _raise(err, rs=batch.ruleset)
        batch.games.append(Game(slot, dict(record, decisions=list(record["decisions"])),
                                batch._array))
    return batch


# Event fields whose numbers name a thing of the action space (by the action names' prefix)
_NAMED_FIELDS = {"slot": "slot", "link": "link", "industry": "industry", "card": "card",
                 "merchant": "merchant"}


def _name_event_values(d: dict[str, Any], rs: Ruleset, players: int) -> None:
    """Numbers of an event named from the ruleset's action names (any ruleset)."""
    for key, prefix in _NAMED_FIELDS.items():
        v = d.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            names = _prefix_names(rs, prefix)
            if 0 <= v < len(names):
                d[key] = names[v]


_PREFIX_CACHE: dict[tuple[int, str], tuple[str, ...]] = {}


def _prefix_names(rs: Ruleset, prefix: str) -> tuple[str, ...]:
    key = (rs.id, prefix)
    if key not in _PREFIX_CACHE:
        _PREFIX_CACHE[key] = rs.names_with(prefix)
    return _PREFIX_CACHE[key]


def _name_birmingham_event(d: dict[str, Any], rs: Ruleset, players: int) -> None:
    """Replace raw numbers in a Birmingham event by names a frontend can use."""
    t = d["type"]
    if "slot" in d:
        d["slot"] = SLOT_NAMES[d["slot"]]
    if t in ("coal", "iron", "beer"):
        d["source"] = "market" if d["source"] < 0 else SLOT_NAMES[d["source"]]
        if t == "beer":
            if d["source"] == "market":
                d["source"] = "merchant"
                d["merchant"] = SPACE_NAMES[d["merchant"]]
            else:
                d.pop("merchant", None)
    if t == "action":
        d["action"] = ACTION_TYPES[d["action"]]
        d["card"] = CARD_NAMES[d["card"]]
    if "industry" in d:
        d["industry"] = INDUSTRIES[d["industry"]]
    if "link" in d:
        d["link"] = LINK_NAMES[d["link"]]
    if "merchant" in d and isinstance(d["merchant"], int):
        d["merchant"] = SPACE_NAMES[d["merchant"]]
    if t == "merchant_bonus":
        d["bonus"] = BONUS_KINDS[d["bonus"]]
    if t == "era_end":
        d["era"] = ERAS[d["era"]]
    if t == "turn_order":
        packed, n = d.pop("order"), d.pop("players")
        d["order"] = [(packed >> (4 * i)) & 15 for i in range(n)]


_EVENT_NAMERS = {"birmingham": _name_birmingham_event, "pittsburgh": pittsburgh.name_event}


# The playout policies of the core, by name (Game.playout, batch_playouts, random_playouts).
PLAYOUT_POLICIES = ("random", "sane")


def _policy(policy: str) -> int:
    if policy == "random":
        return lib.POLICY_RANDOM
    if policy == "sane":
        return lib.POLICY_SANE
    raise EngineError("INVALID_ARGUMENT", "policy must be 'random' or 'sane'", None, "policy")


def random_playouts(players: int, games: int, seed: int = 1, policy: str = "random", *,
                    ruleset: str = DEFAULT_RULESET,
                    options: dict[str, Any] | None = None) -> dict:
    """Run random full games in C; returns the benchmark figures."""
    rs = get_ruleset(ruleset)
    players = _integer(players, "players", rs.min_players, rs.max_players)
    games = _integer(games, "games", 0, _INT32_MAX)
    opt, _ = _c_options(rs, players, dict(options or {}))
    res = ffi.new("BrassBenchResult *")
    err = lib.brass_bench(opt, games, _seed(seed), _policy(policy), res)
    if err:
        _raise(err, what="benchmark arguments", rs=rs)
    return {
        "ruleset": rs.name,
        "players": players,
        "games": res.games,
        "policy": policy,
        "seconds": res.seconds,
        "games_per_second": res.games / res.seconds if res.seconds else 0.0,
        # CPU time of the thread that played them: on a shared machine wall time also
        # counts the waits for a core
        "cpu_seconds": res.cpu_seconds,
        "games_per_cpu_second": res.games / res.cpu_seconds if res.cpu_seconds else 0.0,
        "cpu_us_per_game": 1e6 * res.cpu_seconds / res.games if res.games else 0.0,
        "decisions_per_second": res.decisions / res.seconds if res.seconds else 0.0,
        "mean_decisions_per_game": res.decisions / res.games if res.games else 0.0,
        "legal_generation_us": 1e6 * res.legal_seconds / res.legal_calls if res.legal_calls else 0,
        "clone_us": 1e6 * res.clone_seconds / res.clones if res.clones else 0.0,
        "state_bytes": int(lib.brass_state_size(rs.id)),
    }


def id_of(name: str, ruleset_name: str = DEFAULT_RULESET) -> int:
    """Action id of a stable name (``card:birmingham``); raises EngineError if unknown."""
    try:
        return get_ruleset(ruleset_name).action_ids[name]
    except KeyError:
        raise EngineError("UNKNOWN_ACTION", f"no action named {name!r}") from None
