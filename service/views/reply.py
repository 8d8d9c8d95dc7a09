"""Responses built once for both transports.

A `Reply` holds a response as protobuf bytes (what gRPC sends, and what SubmitAction
stores for idempotent retries) and, for REST, its canonical proto3 JSON built straight from
the engine's documents; each form is made on first use only. Building the JSON from the
protobuf message (`json_format.MessageToDict`) walks every value of a view in Python and
costs more than the rest of the request, hence the direct route.

The JSON produced is the message's canonical proto3 JSON (lowerCamelCase names, 64-bit
integers as strings, enums by name); the views' default values may be left out, as proto3
JSON allows. tests/service/test_reply.py and test_typed_contract.py check that on whole
games.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from .convert import message_to_json_dict

__all__ = ["Reply", "serialize"]

_JsonMaker = Callable[[], Any]


class Reply:
    """A response message, as bytes and/or its REST JSON (each made at most once)."""

    __slots__ = ("_data", "_json", "_make_data", "_make_json", "_make_text", "_message",
                 "message_class")

    def __init__(
        self,
        message_class: type[Message],
        *,
        data: bytes | None = None,
        make_data: Callable[[], bytes] | None = None,
        message: Message | None = None,
        json: _JsonMaker | None = None,
        json_text: Callable[[], str] | None = None,
    ) -> None:
        if data is None and make_data is None and message is None:
            raise ValueError("a Reply needs its bytes (or their maker) or its message")
        self.message_class = message_class
        self._data = data
        self._make_data = make_data
        self._message = message
        self._make_json = json
        self._make_text = json_text
        self._json: Any = None

    def to_bytes(self) -> bytes:
        if self._data is None:
            if self._make_data is not None:
                self._data = self._make_data()
            else:
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
            elif self._make_text is not None:
                self._json = json.loads(self._make_text())
            else:
                self._json = message_to_json_dict(self.message)
        return self._json

    def to_json_text(self) -> str:
        """The REST body: compact JSON text of to_json() (made from pre-rendered parts when
        the Reply has them)."""
        if self._make_text is not None:
            return self._make_text()
        return json.dumps(self.to_json(), separators=(",", ":"))


def serialize(response: Reply | Message) -> bytes:
    """The gRPC response serializer: a Reply's bytes, or a message serialized."""
    if isinstance(response, Reply):
        return response.to_bytes()
    return response.SerializeToString()  # type: ignore[union-attr]
