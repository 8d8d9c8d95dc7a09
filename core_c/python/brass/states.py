"""A game's C state from each of its sources, with the replay record it starts: a new deal
(options and a seed), a position (JSON), a snapshot (bytes); and a state's snapshot."""

from __future__ import annotations

import json
from typing import Any

from brass._core import ffi, lib
from brass.args import _c_options, _deal_seed
from brass.errors import EngineError
from brass.position import MAX_POSITION_CHARS
from brass.registry import position_reader
from brass.rulesets import _BY_ID, DEFAULT_RULESET, Ruleset, _raise, _ruleset_of, get_ruleset
from brass.views import _position_of

# A state's bytes (its ruleset's size, in a bytearray: 8-byte aligned for its fields) and
# the replay record it starts with (Game's two halves).
Start = tuple[bytearray, dict[str, Any]]
# The handle type every state is read through (looked up once: from_buffer takes it as is).
GAME_PTR = ffi.typeof("BrassGame *")


def new_state(players: int, seed: int = 0, ruleset: str = DEFAULT_RULESET,
              options: dict[str, Any] | None = None,
              option_kwargs: dict[str, Any] | None = None) -> Start:
    """A new deal (Game.new): `options` and `option_kwargs` merged, each checked."""
    rs = get_ruleset(ruleset)
    merged = dict(options or {})
    for key, value in (option_kwargs or {}).items():
        if key in merged and merged[key] != value:
            raise EngineError("INVALID_ARGUMENT", f"option {key!r} given twice", None,
                              f"options.{key}")
        merged[key] = value
    opt, used = _c_options(rs, players, merged)
    seed = _deal_seed(seed)
    data = bytearray(rs.state_size)  # the ruleset's bytes only
    err = lib.brass_new(ffi.from_buffer(GAME_PTR, data), opt, seed)
    if err:
        _raise(err, what="options", rs=rs)
    record = {"rules_edition": rs.rules_edition, "ruleset": rs.name, "players": players,
              "seed": seed, "options": used, "decisions": []}
    return data, record


def position_state(position: dict[str, Any] | str | bytes) -> Start:
    """A state from a position, a dict or its JSON text (Game.from_position), read by its
    ruleset's reader (brass.registry)."""
    text = None
    if isinstance(position, str | bytes):
        if len(position) > MAX_POSITION_CHARS:
            raise EngineError("BAD_POSITION", f"position is over {MAX_POSITION_CHARS} "
                              "characters", None, "$")
        text = position
        try:
            position = json.loads(position)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise EngineError("BAD_POSITION", f"position is not valid JSON: {exc}", None,
                              "$") from exc
    ruleset = position.get("ruleset") if isinstance(position, dict) else None
    g = position_reader(ruleset)(position, text)
    rs = _ruleset_of(g)
    data = own_bytes(g, rs)
    # the record keeps the engine's own rewrite of the position, never the caller's object
    record = {"rules_edition": g.header.rules_edition, "ruleset": rs.name,
              "players": g.header.num_players, "position": _position_of(g),
              "decisions": []}
    return data, record


def snapshot_state(data: bytes, ruleset: str | None = None) -> Start:
    """A state from snapshot bytes (Game.restore); `ruleset` (when given) must be the
    snapshot's."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise EngineError("BAD_SNAPSHOT", "snapshot must be bytes")
    data = bytes(data)
    expected = -1 if ruleset is None else get_ruleset(ruleset).id
    g = ffi.new("BrassGame *")
    err = lib.brass_restore(g, data, len(data), expected)
    if err == lib.BRASS_E_WRONG_RULESET:
        got = lib.brass_snapshot_ruleset(data, len(data), ffi.NULL)
        name = _BY_ID[got].name if 0 <= got < len(_BY_ID) else f"#{got}"
        raise EngineError("BAD_SNAPSHOT", f"the snapshot is of ruleset {name}, not "
                          f"{ruleset}", None, "ruleset")
    if err == lib.BRASS_E_WRONG_EDITION:
        edition = ffi.new("int *")
        got = lib.brass_snapshot_ruleset(data, len(data), edition)
        rs = _BY_ID[got]
        raise EngineError("BAD_SNAPSHOT", f"the snapshot needs {rs.name} rules edition "
                          f"{edition[0]}; this engine has {rs.rules_edition}", None,
                          "rules_edition")
    if err:
        _raise(err)
    rs = _ruleset_of(g)
    return own_bytes(g, rs), {"rules_edition": g.header.rules_edition, "ruleset": rs.name,
               "players": g.header.num_players, "restored": True, "decisions": []}


def own_bytes(state: Any, rs: Ruleset) -> bytearray:
    """A copy of `state`'s ruleset's bytes only (brass_state_size, not the 2,048 of the
    BrassGame union; the core touches no more), in a bytearray (8-byte aligned)."""
    return bytearray(ffi.buffer(state, rs.state_size))


def _snapshot_of(state: Any, rs: Ruleset) -> bytes:
    n = lib.brass_snapshot_size(rs.id)
    buf = ffi.new("uint8_t[]", n)
    err = lib.brass_snapshot(state, buf, n)
    if err:
        _raise(err, rs=rs)
    return bytes(ffi.buffer(buf, n))


class StateArray:
    """n game states of one ruleset side by side, each its own size (rounded up to the 8
    bytes a handle's alignment needs), not the BrassGame union's: a Birmingham slot takes
    648 bytes, not 2,048. The layout the core's batch calls stride over."""

    __slots__ = ("n", "stride", "_array", "_base")

    def __init__(self, n: int, state_size: int) -> None:
        self.n = n
        self.stride = -(-state_size // 8) * 8
        self._array = ffi.new("uint64_t[]", n * self.stride // 8)  # zeroed, 8-byte aligned
        self._base = ffi.cast("uint8_t *", self._array)

    @property
    def games(self) -> Any:
        """The array, as the core's batch calls take it (with `stride`)."""
        return self._array

    @property
    def nbytes(self) -> int:
        return int(ffi.sizeof(self._array))

    def slot(self, i: int) -> Any:
        """Slot i's handle (a BrassGame * into the array)."""
        return ffi.cast("BrassGame *", self._base + i * self.stride)

    def slot_bytes(self, i: int, size: int) -> memoryview:
        """Slot i's first `size` bytes, as a view that keeps the array alive."""
        start = i * self.stride
        return memoryview(ffi.buffer(self._array))[start:start + size]
