"""Conversions between the engine's JSON documents, protobuf messages and REST JSON."""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format, struct_pb2
from google.protobuf.message import Message


def _plain(value: Any) -> Any:
    """json.dumps fallback for the odd non-JSON value (numpy scalars, sets, dataclasses)."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, set | frozenset):
        return sorted(value)
    if hasattr(value, "__dict__"):
        return vars(value)
    raise TypeError(f"cannot put {type(value).__name__} in a JSON document")


def jsonable(value: Any) -> Any:
    """A deep copy of value made only of JSON types (dict keys become strings)."""
    return json.loads(json.dumps(value, default=_plain))


def integral_floats_to_ints(value: Any) -> Any:
    """Struct stores every number as a double; give whole numbers back as ints."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: integral_floats_to_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral_floats_to_ints(v) for v in value]
    return value


def struct_to_python(struct: struct_pb2.Struct) -> dict[str, Any]:
    return integral_floats_to_ints(json_format.MessageToDict(struct))


def message_to_json_dict(message: Message) -> dict[str, Any]:
    """Canonical proto3 JSON (lowerCamelCase names, int64 as strings, every field present),
    with whole numbers inside Structs written as integers."""
    return integral_floats_to_ints(
        json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    )


def parse_json_into(document: Any, message: Message) -> Message:
    """Parses a REST body into a message; unknown fields are an error, not silently dropped."""
    json_format.ParseDict(document, message, ignore_unknown_fields=False)
    return message
