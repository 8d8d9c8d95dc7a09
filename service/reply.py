"""Responses built once for both transports.

A `Reply` holds a response as protobuf bytes (what gRPC sends, and what SubmitAction
stores for idempotent retries) and, for REST, its canonical proto3 JSON built straight from
the engine's documents; each form is made on first use only. Building the JSON from the
protobuf message (`json_format.MessageToDict`) walks every value of a view in Python and
costs more than the rest of the request, hence the direct route.

The JSON produced is the one `convert.message_to_json_dict` gives for the same message
(lowerCamelCase names, 64-bit integers as strings, enums by name, every field without
presence written, whole numbers inside documents as integers); tests/service/test_reply.py
checks that on whole games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from .convert import message_to_json_dict

_JsonMaker = Callable[[], Any]


class Reply:
    """A response message, as bytes and/or its REST JSON (each made at most once)."""

    __slots__ = ("_data", "_json", "_make_json", "_message", "message_class")

    def __init__(
        self,
        message_class: type[Message],
        *,
        data: bytes | None = None,
        message: Message | None = None,
        json: _JsonMaker | None = None,
    ) -> None:
        if data is None and message is None:
            raise ValueError("a Reply needs its bytes or its message")
        self.message_class = message_class
        self._data = data
        self._message = message
        self._make_json = json
        self._json: Any = None

    def to_bytes(self) -> bytes:
        if self._data is None:
            assert self._message is not None
            self._data = self._message.SerializeToString()
        return self._data

    @property
    def message(self) -> Message:
        if self._message is None:
            self._message = self.message_class.FromString(self.to_bytes())
        return self._message

    def to_json(self) -> Any:
        if self._json is None:
            if self._make_json is not None:
                self._json = self._make_json()
            else:
                self._json = message_to_json_dict(self.message)
        return self._json


def serialize(response: Reply | Message) -> bytes:
    """The gRPC response serializer: a Reply's bytes, or a message serialized."""
    if type(response) is Reply:
        return response.to_bytes()
    return response.SerializeToString()  # type: ignore[union-attr]


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
