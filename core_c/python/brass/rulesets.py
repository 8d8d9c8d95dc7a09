"""The rulesets of the C core (brass_ruleset_info): sizes, editions, options and the names
of actions, decisions and events; the registry by name; action ids, names and meanings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain
from typing import Any

from brass._core import ffi, lib
from brass.args import _is_integer, _json_value, _value_name
from brass.errors import EngineError, engine_error

DEFAULT_RULESET = "birmingham"


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


def _ruleset_of(g: Any) -> Ruleset:
    rid = g.header.ruleset
    if not 0 <= rid < len(_BY_ID):
        raise EngineError("INTERNAL", f"state of unknown ruleset {rid}")
    return _BY_ID[rid]


def _raise(err: int, reason: int = 0, what: str = "", field: str | None = None,
           rs: Ruleset = RULESETS[DEFAULT_RULESET]) -> None:
    raise engine_error(err, reason, what, field, rs=rs)


def action_name(action: int, ruleset_name: str = DEFAULT_RULESET) -> str:
    """Stable short name of an action id, e.g. ``card:birmingham`` or ``slot:dudley.0``;
    ``unknown`` outside the action space."""
    if not _is_integer(action):
        raise EngineError("INVALID_ARGUMENT", "action must be an integer", None, "action")
    names = get_ruleset(ruleset_name).action_names
    return names[int(action)] if 0 <= action < len(names) else "unknown"


def id_of(name: str, ruleset_name: str = DEFAULT_RULESET) -> int:
    """Action id of a stable name (``card:birmingham``); raises EngineError if unknown."""
    try:
        return get_ruleset(ruleset_name).action_ids[name]
    except KeyError:
        raise EngineError("UNKNOWN_ACTION", f"no action named {name!r}") from None


def _action_id(value: Any, what: str, rs: Ruleset = RULESETS[DEFAULT_RULESET]) -> int:
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


def id_lists(actions: Sequence[Sequence[int]], rs: Ruleset) -> tuple[list[int], list[int]]:
    """Many compound actions' ids, flat, and where each starts (offsets, one more than the
    actions). Tuples or lists of plain ints in range (listed actions, a search's thousands)
    are checked in bulk; anything else action by action, as _id_list, the first bad one
    named."""
    if not isinstance(actions, Sequence):
        actions = list(actions)
    if set(map(type, actions)) <= {tuple, list}:
        lengths = list(map(len, actions))
        flat = list(chain.from_iterable(actions))
        if 0 not in lengths and (not flat or (set(map(type, flat)) == {int} and min(flat) >= 0
                                              and max(flat) < rs.num_actions)):
            return flat, [0, *accumulate(lengths)]
    lists = [_id_list(ids, rs) for ids in actions]
    return list(chain.from_iterable(lists)), [0, *accumulate(map(len, lists))]


def _id_list(ids: Iterable[int], rs: Ruleset) -> list[int]:
    """The ids of a compound action, each an integer inside the action space."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise EngineError("INVALID_ARGUMENT", "ids must be a sequence of action ids", None,
                          "ids")
    out = list(ids)
    n = rs.num_actions
    # plain ints in range (a listed action's ids): no per-id call; else each is checked
    # and the first bad one named
    if not all(type(i) is int and 0 <= i < n for i in out):
        out = [_action_id(i, f"ids[{k}]", rs) for k, i in enumerate(out)]
    if not out:
        raise EngineError("INVALID_ARGUMENT", "a compound action needs at least one id",
                          None, "ids")
    return out


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
