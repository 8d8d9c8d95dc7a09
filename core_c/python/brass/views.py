"""The core's documents of a state as text and buffers: a seat's view (JSON in three key
styles, protobuf), the full position (JSON), the result (money, VP, ranking), a seat's
observation vector, the summary (brass_summary)."""

from __future__ import annotations

import json
import threading
from typing import Any

import numpy as np

from brass._core import ffi, lib
from brass.errors import EngineError
from brass.rulesets import Ruleset, _raise

POSITION_FORMAT = "brass-position/1"

# The JSON writers fill at most BRASS_JSON_CAP bytes; no need to zero them first.
_new_uncleared = ffi.new_allocator(should_clear_after_alloc=False)


def _json_buffer() -> Any:
    return _new_uncleared("char[]", lib.BRASS_JSON_CAP)


def _position_of(g: Any) -> dict[str, Any]:
    out = _json_buffer()
    n = lib.brass_position_json(g, out, lib.BRASS_JSON_CAP)
    if n < 0:
        _raise(-n)
    return json.loads(ffi.unpack(out, n))


# Key styles of the core's view text (brass.h BRASS_KEYS_*)
KEY_STYLES = {"snake": lib.BRASS_KEYS_SNAKE, "camel": lib.BRASS_KEYS_CAMEL,
              "proto": lib.BRASS_KEYS_PROTO}


def _view_json(state: Any, seat: int, keys: str = "snake") -> str:
    """The core's JSON text of what `seat` (-1: a spectator) sees of a state, with
    snake_case keys (this API's), lowerCamelCase ones (proto3 JSON) or the proto field names
    without null members (for a protobuf constructor): the service's key styles."""
    style = KEY_STYLES.get(keys)
    if style is None:
        raise EngineError("INVALID_ARGUMENT", "keys must be 'snake', 'camel' or 'proto'", None,
                          "keys")
    out = _json_buffer()
    n = lib.brass_view_json_keys(state, seat, style, out, lib.BRASS_JSON_CAP)
    if n < 0:
        _raise(-n, what="seat")
    return ffi.unpack(out, n).decode()


# Each thread's buffer for brass_view_proto: allocating 16 KiB a call costs as much as a
# third of the encoding.
_proto_buffers = threading.local()


def _view_proto(state: Any, seat: int) -> bytes:
    """The core's protobuf binary of what `seat` (-1: a spectator) sees of a state, as the
    ruleset's brass.v1 view message (written in one pass by the core: proto_writer.h)."""
    out = getattr(_proto_buffers, "out", None)
    if out is None:
        out = _proto_buffers.out = _new_uncleared("uint8_t[]", lib.BRASS_VIEW_PROTO_CAP)
    n = lib.brass_view_proto(state, seat, out, lib.BRASS_VIEW_PROTO_CAP)
    if n < 0:
        _raise(-n, what="seat")
    return ffi.buffer(out, n)[:]


def _result_of(state: Any, rs: Ruleset) -> Any:
    res = ffi.new("BrassResult *")
    n = lib.brass_result(state, res)
    if n < 0:
        _raise(-n, rs=rs)
    return res


# Each thread's buffer for brass_summary.
_summary_buffers = threading.local()


def _summary_of(state: Any, rs: Ruleset) -> list[int]:
    """The core's summary of a state (brass_summary: a spectator's numbers in the ruleset's
    layout, docs/ENGINE_API.md) as a list of ints."""
    out = getattr(_summary_buffers, "out", None)
    if out is None:
        out = _summary_buffers.out = _new_uncleared("int32_t[]", lib.BRASS_SUMMARY_CAP)
    n = lib.brass_summary(state, out, lib.BRASS_SUMMARY_CAP)
    if n < 0:
        _raise(-n, rs=rs)
    return ffi.unpack(out, n)


def _observation_of(state: Any, rs: Ruleset, s: int) -> np.ndarray:
    """Seat `s`'s observation vector (float32, the ruleset's observation_size)."""
    size = rs.observation_size
    out = np.zeros(size, dtype=np.float32)
    n = lib.brass_observation(state, s, ffi.cast("float *", out.ctypes.data), size)
    if n < 0:
        _raise(-n, rs=rs)
    return out
