"""The core's event log as event documents: {"type", "seat", the event's fields}, numbers
named by the ruleset's namer (its hooks' `name_event`) or, for a ruleset without one, from
the action names."""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

from brass._core import ffi, lib
from brass.rulesets import Ruleset

# Names an event document's numbers in place: (document, ruleset, players).
EventNamer = Callable[[dict[str, Any], Ruleset, int], None]


# One BrassEvent as laid out in the core: uint8 type, int8 seat, int16 a, b, c.
_EVENT = struct.Struct("=Bbhhh")

# Named event documents by the core's 8 bytes of the event, for each (namer, ruleset,
# player count): naming is a pure function of those, and an event recurs (a card taken, a
# beer drunk, a turn's end), so decoding is a lookup and a copy. It was about two thirds of
# Game.apply's cost in the Python loop (issue 22, item 4). Bounded: past the limit new
# events are named but not kept. An event's 8 bytes are read as one native uint64 (an int
# hashes for free; a bytes key was sliced and hashed per event). A table holds the flat
# documents (copied with dict.copy) apart from those holding a list or dict (a turn order:
# copied deeper), so that the common case is one look-up and a copy per event.
Documents = dict[int, dict[str, Any]]
StepTable = tuple[Documents, Documents, Ruleset, int, EventNamer]
_NAMED: dict[tuple[EventNamer, int, int], StepTable] = {}
_NAMED_LIMIT = 1 << 15
_RECORD = struct.Struct("=Q")
# Game.apply's tables, by ruleset id * 8 + players (an int key, found without the
# ruleset's hooks): those of the ruleset's own namer, the same tables as _NAMED's.
STEP_TABLES: dict[int, StepTable] = {}


def events_view(log: Any) -> memoryview:
    """A BrassEventLog's events as native uint64s, one per event (made once per log)."""
    return memoryview(ffi.buffer(log.events)).cast("B").cast("Q")


def decode_events(log: Any, rs: Ruleset, players: int, namer: EventNamer) -> list[dict[str, Any]]:
    """The events of a BrassEventLog, named (each call's documents are its own: a caller may
    change them)."""
    return decode_records(events_view(log)[:min(log.count, lib.BRASS_MAX_EVENTS)].tolist(),
                          rs, players, namer)


def decode_records(records: list[int], rs: Ruleset, players: int,
                   namer: EventNamer) -> list[dict[str, Any]]:
    """Events given as their uint64 records (events_view), named; documents as decode_events'."""
    return decode_step(records, step_table(rs, players, namer))


def step_table(rs: Ruleset, players: int, namer: EventNamer, own: bool = False) -> StepTable:
    """The table of (namer, ruleset, players); `own`: the namer is the ruleset's hooks' (the
    table is kept in STEP_TABLES too)."""
    key = (namer, rs.id, players)
    table = _NAMED.get(key)
    if table is None:
        table = _NAMED[key] = ({}, {}, rs, players, namer)
    if own:
        STEP_TABLES[rs.id << 3 | players] = table
    return table


def forget_named() -> None:
    """Drops every named document (they are made again as events recur)."""
    _NAMED.clear()
    STEP_TABLES.clear()


def decode_step(records: Iterable[int], table: StepTable) -> list[dict[str, Any]]:
    """Events given as their uint64 records (a list, or a view of them), named by the
    table's namer."""
    flat = table[0]
    out = []
    for record in records:
        document = flat.get(record)
        out.append(missed_event(record, table) if document is None else document.copy())
    return out


def missed_event(record: int, table: StepTable) -> dict[str, Any]:
    """A copy of the document of an event not in the table's flat documents: one holding a
    list or dict, or one not named yet (named, and kept while the table has room)."""
    flat, nested, rs, players, namer = table
    document = nested.get(record)
    if document is not None:
        return _copied(document)
    document = _name_one(_RECORD.pack(record), rs, players, namer)
    held = _holds_collection(document)
    if len(flat) + len(nested) < _NAMED_LIMIT:
        (nested if held else flat)[record] = document
    return _copied(document) if held else document.copy()


def _name_one(record: bytes, rs: Ruleset, players: int, namer: EventNamer) -> dict[str, Any]:
    """One event's document."""
    etype, seat, a, b, c = _EVENT.unpack(record)
    table = rs.event_names
    name, fields = table[etype] if etype < len(table) else ("unknown", ())
    document: dict[str, Any] = {"type": name, "seat": None if seat < 0 else seat}
    values = (a, b, c)
    for k, key in enumerate(fields):  # (zip with strict= costs twice as much)
        document[key] = values[k]
    namer(document, rs, players)
    return document


def _holds_collection(document: dict[str, Any]) -> bool:
    """Whether a document holds a list or dict (copied for each caller)."""
    for value in document.values():
        if isinstance(value, list) or isinstance(value, dict):
            return True
    return False


def _copied(document: dict[str, Any]) -> dict[str, Any]:
    """A document's copy whose lists (a turn order, a tie-break) are its own; a deeper
    nesting (none today) copied whole."""
    out = document.copy()
    for k, v in out.items():
        if isinstance(v, (list, dict)):
            items = v.values() if isinstance(v, dict) else v
            out[k] = v.copy() if all(isinstance(x, (int, str)) for x in items) else deepcopy(v)
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
