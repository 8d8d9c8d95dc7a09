"""The engine's documents as brass.v1's typed messages, and as their proto3 JSON.

The engine API speaks snake_case dicts (its view, events, option meanings, preview costs);
the service speaks brass.v1: each document becomes the typed message of the game's ruleset,
in the `oneof` arm named by the ruleset (`birmingham`, `pittsburgh`), and its REST JSON is
that message's canonical proto3 JSON (lowerCamelCase field names).

- Views: the core writes the JSON text in either key style (Game.view_json(keys=...)):
  REST sends the lowerCamelCase text as it is. gRPC takes the message's protobuf binary
  from the core (Game.view_proto: the core's one-pass writer, common/proto_writer.h).
  A preview's outcome view (a dict of the engine's Python layer) is made into its message
  by view_from_document; view_arm builds a game's view message from the snake_case text
  without nulls (keys="proto") with the protobuf runtime's constructor: the reference the
  core's bytes are tested against.
- Events, meanings and costs are small dicts made by the engine's Python layer: their
  messages come from the same constructor, their JSON from a key rename (names cached).

Pittsburgh's core writes its view in snake_case and re-keys that text in C for the other
key styles (common/json_writer.h json_rekey); the JSON of a preview's outcome view, of its
events, option meanings and preview costs (dicts of the Python layer) is made by
document_json, from the dict and the message's descriptor.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from google.protobuf.message import Message

from brass.pittsburgh import event_by_kind

from ..gen import birmingham_pb2 as bham_pb
from ..gen import game_service_pb2 as pb
from ..gen import pittsburgh_pb2 as pgh_pb

# The engine's ruleset names are the `oneof` arms' field names.
BIRMINGHAM, PITTSBURGH = "birmingham", "pittsburgh"


@functools.lru_cache(maxsize=4096)
def camel(name: str) -> str:
    """A snake_case field name as proto3 JSON writes it ("income_space" -> "incomeSpace")."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def camel_keys(value: Any) -> Any:
    """`value` with every dict key renamed by `camel` (for documents without maps)."""
    if type(value) is dict:
        return {camel(key): camel_keys(item) for key, item in value.items()}
    if type(value) is list:
        return [camel_keys(item) for item in value]
    return value


def _without_nulls(value: Any) -> Any:
    """A snake_case document with its null members left out (proto3: an absent field)."""
    if type(value) is dict:
        return {key: _without_nulls(item) for key, item in value.items() if item is not None}
    if type(value) is list:
        return [_without_nulls(item) for item in value]
    return value


# ------------------------------------------------------------------------------ views

def put_view(state: pb.GameState, game: Any, seat: int | None) -> None:
    """Sets `state`'s `oneof` view arm to `seat`'s view (None: a spectator's), from the
    core's protobuf binary."""
    getattr(state, game.ruleset).MergeFromString(game.view_proto(seat))


def view_arm(game: Any, seat: int | None) -> dict[str, Any]:
    """`seat`'s view (None: a spectator's) as the keyword argument of its `oneof` arm, for
    a message constructor (GameState(**view_arm(game, seat))), built from the JSON text:
    the reference the core's protobuf view is tested against
    (tests/service/test_view_proto.py)."""
    return {game.ruleset: MESSAGES[game.ruleset].view_fields(game, seat)}


def view_json_text(game: Any, seat: int | None) -> str:
    """The REST JSON text of a view (the value of its `oneof` arm)."""
    return MESSAGES[game.ruleset].view_json_text(game, seat)


def _core_view_fields(game: Any, seat: int | None) -> dict[str, Any]:
    return orjson.loads(game.view_json(seat, keys="proto"))


def _core_view_json_text(game: Any, seat: int | None) -> str:
    return str(game.view_json(seat, keys="camel"))


# ------------------------------------------------------- engine documents as proto3 JSON

# How document_json writes a field: a scalar (or enum name) as it is, a message, a list of
# scalars or of messages, a map of scalars or of messages.
_SCALAR, _MESSAGE, _LIST, _MESSAGES, _MAP, _MESSAGE_MAP = range(6)
_Plan = tuple[tuple[str, str, int, Any, bool, Any], ...]


@functools.cache
def _plan(descriptor: Any) -> _Plan:
    """Per field of a message: (field name, JSON name, how, the value's message descriptor,
    has presence, the default proto3 JSON prints for an absent field without presence)."""
    rows = []
    for field in descriptor.fields:
        sub = field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            value = sub.fields_by_name["value"].message_type
            how, sub, default = (_MESSAGE_MAP if value else _MAP), value, {}
        elif field.is_repeated:
            how, default = (_MESSAGES if sub else _LIST), []
        elif sub is not None:
            how, default = _MESSAGE, None
        elif field.enum_type is not None:
            how, default = _SCALAR, field.enum_type.values[0].name
        else:
            how, default = _SCALAR, field.default_value
        rows.append((field.name, field.json_name, how, sub, field.has_presence, default))
    return tuple(rows)


def document_json(descriptor: Any, document: dict[str, Any]) -> dict[str, Any]:
    """The canonical proto3 JSON (json_format.MessageToDict with every field without
    presence written, what the OpenAPI document promises of an answer) of the message of
    `descriptor` built from the engine's snake_case `document` (nulls: absent), without
    building the message. Written here because json_format, pure Python, takes 4-9 ms for a
    Pittsburgh view and this about 0.05 ms. Pittsburgh's documents hold no 64-bit integers,
    floats or bytes, whose JSON forms it does not apply (tests/service/test_view_proto.py
    compares the two over random games: views, events, option meanings, preview costs)."""
    out: dict[str, Any] = {}
    for name, json_name, how, sub, presence, default in _plan(descriptor):
        value = document.get(name)
        if value is None:
            if not presence:
                out[json_name] = type(default)() if type(default) in (list, dict) else default
            continue
        if how == _SCALAR or how == _LIST or how == _MAP:
            out[json_name] = value
        elif how == _MESSAGE:
            out[json_name] = document_json(sub, value)
        elif how == _MESSAGES:
            out[json_name] = [document_json(sub, item) for item in value]
        else:
            out[json_name] = {key: document_json(sub, item) for key, item in value.items()}
    return out


def view_json(ruleset: str, document: dict[str, Any]) -> dict[str, Any]:
    """The REST JSON of a view given as the engine's dict (a preview's outcome)."""
    return MESSAGES[ruleset].view_json(document)


def _pgh_view_json(document: dict[str, Any]) -> dict[str, Any]:
    return document_json(pgh_pb.PittsburghView.DESCRIPTOR, document)


# Views hold maps whose keys are engine names (slots, links, cards, industries): only the
# keys of these messages' fields are renamed.
_VIEW_MAPS = frozenset({"mat_taken", "hand", "discards", "merchants", "links", "slots"})


def _view_camel(document: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in document.items():
        if item is None:
            continue
        if key in _VIEW_MAPS:
            out[camel(key)] = {name: _view_camel(v) if type(v) is dict else v
                               for name, v in item.items()}
        elif type(item) is dict:
            out[camel(key)] = _view_camel(item)
        elif type(item) is list:
            out[camel(key)] = [_view_camel(v) if type(v) is dict else v for v in item]
        else:
            out[camel(key)] = item
    return out


def view_from_document(ruleset: str, document: dict[str, Any]) -> Message:
    """The typed view message of the engine's view dict (Game.view, a preview's view)."""
    return MESSAGES[ruleset].view(**_without_nulls(document))


# ----------------------------------------------------------------------------- events

def _event_parts(event: dict[str, Any]) -> tuple[int | None, str, dict[str, Any]]:
    fields = {k: v for k, v in event.items() if k != "type" and k != "seat"}
    return event.get("seat"), str(event["type"]), fields


def event_message(ruleset: str, version: int, event: dict[str, Any]) -> Message:
    """A GameEvent of the engine's event dict ({"type", "seat", its fields})."""
    seat, kind, fields = _event_parts(event)
    arm = {ruleset: MESSAGES[ruleset].event_fields(event, kind, fields)}
    if seat is None:
        return pb.GameEvent(version=version, **arm)
    return pb.GameEvent(version=version, seat=seat, **arm)


def event_json(ruleset: str, version: int, event: dict[str, Any]) -> dict[str, Any]:
    """The proto3 JSON of event_message(ruleset, version, event)."""
    seat, kind, fields = _event_parts(event)
    out: dict[str, Any] = {"version": str(version)}
    if seat is not None:
        out["seat"] = seat
    out[ruleset] = MESSAGES[ruleset].event_json(event, kind, fields)
    return out


def _bham_event_fields(event: dict[str, Any], kind: str, fields: dict[str, Any]
                       ) -> dict[str, Any]:
    return {kind: fields}


def _pgh_event_fields(event: dict[str, Any], kind: str, fields: dict[str, Any]
                      ) -> dict[str, Any]:
    return _without_nulls(event_by_kind(event))


def _bham_event_json(event: dict[str, Any], kind: str, fields: dict[str, Any]
                     ) -> dict[str, Any]:
    return {camel(kind): {camel(k): v for k, v in fields.items()}}


def _pgh_event_json(event: dict[str, Any], kind: str, fields: dict[str, Any]
                    ) -> dict[str, Any]:
    return document_json(pgh_pb.PittsburghEvent.DESCRIPTOR, event_by_kind(event))


# --------------------------------------------------------------------------- meanings

def meaning_parts(ruleset: str, meaning: dict[str, Any]) -> tuple[str, Message, dict[str, Any]]:
    """A LegalOption's meaning arm: its field name, message and proto3 JSON."""
    message, document = MESSAGES[ruleset].meaning(meaning)
    return ruleset, message, document


def _bham_meaning(meaning: dict[str, Any]) -> tuple[Message, dict[str, Any]]:
    kind = str(meaning["kind"])
    fields = {k: v for k, v in meaning.items() if k != "kind"}
    message = bham_pb.BirminghamMeaning(**{kind: fields})
    return message, {camel(kind): {camel(k): v for k, v in fields.items()}}


def _pgh_meaning(meaning: dict[str, Any]) -> tuple[Message, dict[str, Any]]:
    message = pgh_pb.PittsburghOptionMeaning(**_without_nulls(meaning))
    return message, document_json(pgh_pb.PittsburghOptionMeaning.DESCRIPTOR, meaning)


# ------------------------------------------------------------------------------ costs

def _cost_document(cost: dict[str, Any]) -> dict[str, Any]:
    """Birmingham's cost dict with its event lists as BirminghamCost's entries."""
    document = dict(cost)
    for key in ("flips", "merchant_bonus"):
        document[key] = [{k: v for k, v in e.items() if k != "type"}
                         for e in cost.get(key, [])]
    return document


def cost_parts(ruleset: str, cost: dict[str, Any]) -> tuple[str, Message, dict[str, Any]]:
    """A preview's cost arm: its field name, message and proto3 JSON."""
    messages = MESSAGES[ruleset]
    message, document = messages.cost(cost)
    return messages.cost_field, message, document


def _bham_cost(cost: dict[str, Any]) -> tuple[Message, dict[str, Any]]:
    document = _cost_document(cost)
    return bham_pb.BirminghamCost(**document), camel_keys(document)


def _pgh_cost(cost: dict[str, Any]) -> tuple[Message, dict[str, Any]]:
    message = pgh_pb.PittsburghPreviewCost(**_without_nulls(cost))
    return message, document_json(pgh_pb.PittsburghPreviewCost.DESCRIPTOR, cost)


def reason_code_field(ruleset: str) -> str:
    """UnavailableOption's typed reason field for a ruleset."""
    return MESSAGES[ruleset].reason_field


# -------------------------------------------------------------- the table by ruleset

@dataclass(frozen=True)
class RulesetMessages:
    """One ruleset's brass.v1 messages: how each engine document becomes its message
    (and its proto3 JSON), and the ruleset's arm names where they are not the ruleset's."""

    view: type[Message]
    view_fields: Callable[[Any, int | None], dict[str, Any]]
    view_json_text: Callable[[Any, int | None], str]
    view_json: Callable[[dict[str, Any]], dict[str, Any]]
    event_fields: Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]]
    event_json: Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]]
    meaning: Callable[[dict[str, Any]], tuple[Message, dict[str, Any]]]
    cost: Callable[[dict[str, Any]], tuple[Message, dict[str, Any]]]
    cost_field: str  # PreviewAnswer's cost arm
    reason_field: str  # UnavailableOption's typed reason field


# Every ruleset's messages by its name (the `oneof` arms' field name), as brass.registry
# keeps the engine's hooks: no function here tests a ruleset's name.
MESSAGES: dict[str, RulesetMessages] = {
    BIRMINGHAM: RulesetMessages(
        bham_pb.BirminghamView, _core_view_fields, _core_view_json_text, _view_camel,
        _bham_event_fields, _bham_event_json, _bham_meaning, _bham_cost,
        "birmingham_cost", "birmingham_reason"),
    PITTSBURGH: RulesetMessages(
        pgh_pb.PittsburghView, _core_view_fields, _core_view_json_text, _pgh_view_json,
        _pgh_event_fields, _pgh_event_json, _pgh_meaning, _pgh_cost,
        "pittsburgh_cost", "pittsburgh_reason"),
}
