"""The core's event log as event documents: {"type", "seat", the event's fields}, numbers
named by the ruleset's namer (its hooks' `name_event`) or, for a ruleset without one, from
the action names."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from brass._core import ffi, lib
from brass.rulesets import Ruleset

# Names an event document's numbers in place: (document, ruleset, players).
EventNamer = Callable[[dict[str, Any], Ruleset, int], None]


# One BrassEvent as laid out in the core: uint8 type, int8 seat, int16 a, b, c.
_EVENT = struct.Struct("=Bbhhh")


def decode_events(log: Any, rs: Ruleset, players: int, namer: EventNamer) -> list[dict[str, Any]]:
    """The events of a BrassEventLog, named."""
    out = []
    table = rs.event_names
    ntypes = len(table)
    n = min(log.count, lib.BRASS_MAX_EVENTS)
    for etype, seat, a, b, c in _EVENT.iter_unpack(ffi.buffer(log.events, n * _EVENT.size)):
        name, fields = table[etype] if etype < ntypes else ("unknown", ())
        d: dict[str, Any] = {"type": name, "seat": None if seat < 0 else seat}
        d.update(zip(fields, (a, b, c), strict=False))
        namer(d, rs, players)
        out.append(d)
    return out


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
