"""brass_json_to_struct: JSON text of an object as google.protobuf.Struct wire bytes.

The gRPC answers carry each view as a Struct made by this C function from the core's JSON
text. Its bytes must say what protobuf's own JSON parser says the text means, and be the
very bytes the service's Python encoder (brass_service.wire.struct_bytes) writes for the
parsed document; text it cannot convert is refused (None), never converted wrongly; and
it never writes past the buffer it is given.
"""

from __future__ import annotations

import json
import random

import pytest
from google.protobuf import json_format, struct_pb2

import brass
from brass.engine import ffi, lib
from brass_service.wire import struct_bytes


def _protobuf_reading(text: str) -> struct_pb2.Struct:
    return json_format.Parse(text, struct_pb2.Struct())


def _check(text: str) -> None:
    converted = brass.json_to_struct_bytes(text)
    assert converted is not None, text
    assert struct_pb2.Struct.FromString(converted) == _protobuf_reading(text), text
    assert converted == struct_bytes(json.loads(text)), text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_view_and_position_of_random_games(players: int) -> None:
    rng = random.Random(players)
    game = brass.Game.new(players, seed=11 * players)
    steps = 0
    while not game.is_over:
        if steps % 7 == 0 or game.is_over:
            for seat in [None, *range(players)]:
                _check(game.view_json(seat))
            _check(json.dumps(game.position(), separators=(",", ":")))
        game.apply(rng.choice(game.legal_ids()), game.current_seat)
        steps += 1
    for seat in [None, *range(players)]:
        _check(game.view_json(seat))


@pytest.mark.parametrize("text", [
    "{}",
    ' \t\n\r{ "a" : null , "b" : [ ] , "c" : { } } \n',
    '{"t":true,"f":false,"n":null,"e":"","l":[[],[[]],{}]}',
    '{"ints":[0,-0,1,-1,9007199254740993,123456789012345678,1234567890123456789,'
    '-98765432109876543210,100000000000000000000000000000000000000]}',
    '{"floats":[0.0,-0.0,0.1,1e300,-1e-300,2.5E+3,1.7976931348623157e308,5e-324]}',
    '{"esc":"\\"\\\\\\/\\b\\f\\n\\r\\t","u":"\\u0041\\u00e9\\u4e2d\\ud83d\\ude00"}',
    '{"utf8":"ünïcödé ✓ 中文 😀"}',
    '{"dup":1,"dup":2}',
    # 32 levels of objects: as deep as protobuf's parsers read a Struct (3 messages a level)
    '{"deep":' + '{"d":' * 30 + "[1]" + "}" * 30 + "}",
    '{"long":"' + "x" * 70000 + '","many":[' + ",".join(["7"] * 5000) + "]}",
])
def test_hand_written_documents(text: str) -> None:
    if '"dup"' in text:
        # Twice the same key (which protobuf's JSON parser refuses): both entries are
        # written and a reader keeps the last, as Python's json module reads the text.
        converted = brass.json_to_struct_bytes(text)
        assert converted is not None
        expected = struct_pb2.Struct()
        expected.update(json.loads(text))
        assert struct_pb2.Struct.FromString(converted) == expected
        return
    _check(text)


@pytest.mark.parametrize("text", [
    "", "   ", "[]", '"a"', "1", "null", "{", "}", '{"a"}', '{"a":}', '{"a":1,}', '{"a" 1}',
    '{"a":1} x', '{"a":1}{}', "{'a':1}", '{"a":tru}', '{"a":nul}', '{"a":+1}', '{"a":01}',
    '{"a":1.}', '{"a":.5}', '{"a":1e}', '{"a":-}', '{"a":NaN}', '{"a":Infinity}',
    '{"a":[1,]}', '{"a":[1 2]}', '{"a":"\x01"}', '{"a":"\\x"}', '{"a":"\\u12"}',
    '{"a":"\\ud800"}', '{"a":"\\udc00"}', '{"a":"\\ud800\\u0041"}', '{"a":"unterminated}',
    '{"a":' + "1" * 40 + "}",
    '{"deep":' + "[" * 33 + "]" * 33 + "}",
])
def test_text_it_cannot_convert_is_refused(text: str) -> None:
    assert brass.json_to_struct_bytes(text) is None


@pytest.mark.parametrize("raw", [
    b'{"a":"\xff"}', b'{"a":"\xc0\x80"}', b'{"a":"\xed\xa0\x80"}', b'{"a":"\xe4\xb8"}',
    b'{"a":"\xf4\x90\x80\x80"}', b'{"\x80":1}',
])
def test_strings_that_are_not_utf8_are_refused(raw: bytes) -> None:
    assert brass.json_to_struct_bytes(raw) is None


def test_short_buffers_are_refused_without_writing_past_them() -> None:
    game = brass.Game.new(3, seed=4)
    text = game.view_json(1).encode()
    whole = brass.json_to_struct_bytes(text)
    assert whole is not None
    for cap in [0, 1, 2, 17, len(whole) // 2, len(whole) - 1]:
        out = ffi.new("uint8_t[]", cap + 64)
        for k in range(cap, cap + 64):
            out[k] = 0xA5
        assert lib.brass_json_to_struct(text, len(text), out, cap) == -lib.BRASS_E_BUFFER
        assert all(out[k] == 0xA5 for k in range(cap, cap + 64)), cap
    out = ffi.new("uint8_t[]", len(whole))
    assert lib.brass_json_to_struct(text, len(text), out, len(whole)) == len(whole)
    assert ffi.buffer(out, len(whole))[:] == whole
