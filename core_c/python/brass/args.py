"""Arguments crossing into C: integers checked and in range, seeds, a new game's options
(BrassOptions). Every refusal is EngineError INVALID_ARGUMENT naming the field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from brass._core import ffi
from brass.errors import EngineError

if TYPE_CHECKING:
    from brass.rulesets import Ruleset

_SEED_MASK = 2**64 - 1
_INT32_MAX = 2**31 - 1
MAX_BATCH = 1 << 20          # games in one GameBatch or batch_playouts call
MAX_COMPOUND_LIMIT = 200_000  # compound actions listed by one call


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


def _deal_seed(seed: Any) -> int:
    """The seed of a new game: an integer in [0, 2^64) (it is recorded for replays)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise EngineError("INVALID_ARGUMENT", "seed must be an integer in [0, 2^64)", None,
                          "seed")
    return seed


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
    return opt, _shared_options(rs.name, tuple(values), auto, record)


# Games dealt with the same options share one recorded dict (read only, as every part of a
# replay record's start): Pittsburgh's ~30 options took 1.5 KB of each game (issue 22).
_OPTION_RECORDS: dict[tuple[str, tuple[int, ...], bool], dict[str, Any]] = {}
_OPTION_RECORDS_KEPT = 256  # distinct option sets; beyond it a game keeps its own


def _shared_options(ruleset: str, values: tuple[int, ...], auto: bool,
                    record: dict[str, Any]) -> dict[str, Any]:
    key = (ruleset, values, auto)
    shared = _OPTION_RECORDS.get(key)
    if shared is not None:
        return shared
    if len(_OPTION_RECORDS) < _OPTION_RECORDS_KEPT:
        _OPTION_RECORDS[key] = record
    return record
