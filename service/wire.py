"""Fast google.protobuf.Struct encoding of the engine's JSON documents.

`Struct.update` walks a document in Python through the protobuf runtime, value by value;
for a whole view (a few hundred values) that is about a millisecond. Writing the Struct's
wire format directly, with the encodings of keys and common values cached, is several
times faster; the bytes are then parsed by the (C) runtime in one call, or embedded as they
are in a larger message.

The encoding follows `Struct.update` exactly: None -> null_value, bool -> bool_value,
int and float -> number_value (a double), str -> string_value, dict -> struct_value
(keys must be strings), list and tuple -> list_value. Anything else raises TypeError.
"""

from __future__ import annotations

import struct
from typing import Any

_pack_double = struct.Struct("<d").pack

_NULL = b"\x08\x00"
_TRUE = b"\x20\x01"
_FALSE = b"\x20\x00"
_EMPTY_STRUCT = b"\x2a\x00"
_EMPTY_LIST = b"\x32\x00"

# Caches: the same keys and short values recur in every document; each is bounded so an
# unusual document cannot grow it without limit.
_MAX_CACHED = 50_000
_KEY_PREFIX: dict[str, bytes] = {}  # key -> the map entry's key field
_INT_ENTRY: dict[tuple[str, int], bytes] = {}  # (key, int) -> whole map entry
_STR_ENTRY: dict[tuple[str, str], bytes] = {}  # (key, short str) -> whole map entry
_INT_ITEM: dict[int, bytes] = {}  # int -> whole list element
_STR_ITEM: dict[str, bytes] = {}  # short str -> whole list element


def _varint(n: int) -> bytes:
    if n < 0x80:
        return bytes((n,))
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


_VARINT = tuple(_varint(n) for n in range(1 << 14))


def _len(n: int) -> bytes:
    return _VARINT[n] if n < 16384 else _varint(n)


def _key(key: str) -> bytes:
    prefix = _KEY_PREFIX.get(key)
    if prefix is None:
        if not isinstance(key, str):
            raise TypeError(f"Struct keys must be strings, not {type(key).__name__}")
        raw = key.encode()
        prefix = b"\x0a" + _len(len(raw)) + raw
        if len(_KEY_PREFIX) < _MAX_CACHED:
            _KEY_PREFIX[key] = prefix
    return prefix


def _scalar(value: Any) -> bytes | None:
    """The encoded Value of a scalar (None when `value` is a dict or a list)."""
    kind = type(value)
    if kind is str:
        raw = value.encode()
        return b"\x1a" + _len(len(raw)) + raw
    if kind is int or kind is float:
        return b"\x11" + _pack_double(float(value))
    if kind is bool:
        return _TRUE if value else _FALSE
    if value is None:
        return _NULL
    return None


def _value(value: Any) -> bytes:
    kind = type(value)
    if kind is dict:
        body = _fields(value)
        return b"\x2a" + _len(len(body)) + body if body else _EMPTY_STRUCT
    if kind is list or kind is tuple:
        body = _list(value)
        return b"\x32" + _len(len(body)) + body if body else _EMPTY_LIST
    encoded = _scalar(value)
    if encoded is not None:
        return encoded
    # Subclasses (IntEnum, OrderedDict, ...) behave as their base types, as in update().
    if isinstance(value, bool):
        return _TRUE if value else _FALSE
    if isinstance(value, int | float):
        return b"\x11" + _pack_double(float(value))
    if isinstance(value, str):
        return _value(str(value))
    if isinstance(value, dict):
        return _value(dict(value))
    if isinstance(value, list | tuple):
        return _value(list(value))
    raise TypeError(f"cannot put {kind.__name__} in a google.protobuf.Struct")


def _list(values: list[Any] | tuple[Any, ...]) -> bytes:
    parts = []
    append = parts.append
    for item in values:
        kind = type(item)
        if kind is int:
            element = _INT_ITEM.get(item)
            if element is None:
                encoded = b"\x11" + _pack_double(float(item))
                element = b"\x0a" + _len(len(encoded)) + encoded
                if len(_INT_ITEM) < _MAX_CACHED:
                    _INT_ITEM[item] = element
            append(element)
        elif kind is str:
            element = _STR_ITEM.get(item)
            if element is None:
                encoded = _value(item)
                element = b"\x0a" + _len(len(encoded)) + encoded
                if len(item) <= 64 and len(_STR_ITEM) < _MAX_CACHED:
                    _STR_ITEM[item] = element
            append(element)
        else:
            encoded = _value(item)
            append(b"\x0a" + _len(len(encoded)) + encoded)
    return b"".join(parts)


def _entry(key: str, encoded: bytes) -> bytes:
    entry = _key(key) + b"\x12" + _len(len(encoded)) + encoded
    return b"\x0a" + _len(len(entry)) + entry


def _fields(document: dict[str, Any]) -> bytes:
    parts = []
    append = parts.append
    for key, item in document.items():
        kind = type(item)
        if kind is int:
            entry = _INT_ENTRY.get((key, item))
            if entry is None:
                entry = _entry(key, b"\x11" + _pack_double(float(item)))
                if len(_INT_ENTRY) < _MAX_CACHED:
                    _INT_ENTRY[(key, item)] = entry
            append(entry)
        elif kind is str:
            entry = _STR_ENTRY.get((key, item))
            if entry is None:
                entry = _entry(key, _value(item))
                if len(item) <= 64 and len(_STR_ENTRY) < _MAX_CACHED:
                    _STR_ENTRY[(key, item)] = entry
            append(entry)
        else:
            append(_entry(key, _value(item)))
    return b"".join(parts)


def struct_bytes(document: dict[str, Any]) -> bytes:
    """The wire bytes of the google.protobuf.Struct holding `document`."""
    if type(document) is not dict:
        if not isinstance(document, dict):
            raise TypeError("a Struct holds a JSON object (a dict)")
        document = dict(document)
    return _fields(document)


def field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (a message, string or bytes) with its tag, as bytes."""
    return _varint((number << 3) | 2) + _len(len(payload)) + payload


def plain_json(value: Any) -> Any:
    """A document as proto3 JSON writes it after a trip through google.protobuf.Struct:
    numbers are doubles there, written back as integers when whole (and below 2**53)."""
    kind = type(value)
    if kind is dict:
        return {key: plain_json(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [plain_json(item) for item in value]
    if kind is int:
        return value if -(2**53) < value < 2**53 else float(value)
    if kind is float:
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if kind is str or kind is bool or value is None:
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float):
        return plain_json(float(value) if isinstance(value, float) else int(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {str(key): plain_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(item) for item in value]
    raise TypeError(f"cannot put {kind.__name__} in a JSON document")
