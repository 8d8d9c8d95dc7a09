"""Looking ahead without changing the game: every compound action from here
(Game.compound_actions), and a decision or compound action worked out on a copy of the state
(Game.preview): its events, the ruleset's cost breakdown (its hooks' `preview_cost`) and
the resulting view."""

from __future__ import annotations

import json
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from brass._core import ffi, lib
from brass.args import MAX_COMPOUND_LIMIT, _integer
from brass.errors import EngineError
from brass.events import decode_events
from brass.registry import hooks_of
from brass.rulesets import Ruleset, _raise, id_lists
from brass.views import _new_uncleared, _result_of, _view_json


@dataclass(frozen=True)
class Compound:
    key: str
    ids: tuple[int, ...]


def compound_ids_of(state: Any, rs: Ruleset, limit: int) -> tuple[list[tuple[int, ...]], bool]:
    """The ids of every complete compound action from `state` (canonical order), and
    whether the list was cut (at `limit` actions, at most MAX_COMPOUND_LIMIT)."""
    ids, offsets, n, truncated = listed_compounds(state, rs, limit)
    return id_tuples(ids, offsets, n), truncated


def listed_compounds(state: Any, rs: Ruleset, limit: int) -> tuple[Any, Any, int, bool]:
    """brass_compound_actions into new buffers: (ids, offsets, count, truncated)."""
    limit = _integer(limit, "limit", 0, MAX_COMPOUND_LIMIT)
    ids = _new_uncleared("uint16_t[]", max(1, limit * 16))
    offs = ffi.new("uint32_t[]", limit + 1)
    trunc = ffi.new("int *")
    n = lib.brass_compound_actions(state, ids, limit * 16, offs, limit, trunc)
    if n < 0:
        _raise(-n, rs=rs)
    return ids, offs, n, bool(trunc[0])


def id_tuples(ids: Any, offsets: Any, n: int) -> list[tuple[int, ...]]:
    """The n actions of a listing's buffers as id tuples."""
    # One copy of the core's buffer, then slices: indexing the cffi array id by id cost
    # ten times the core's own listing on a 45,000-action Pittsburgh turn.
    flat = array("H")
    flat.frombytes(ffi.buffer(ids, offsets[n] * 2))
    ends = ffi.unpack(offsets, n + 1)
    return [tuple(flat[ends[k]:ends[k + 1]]) for k in range(n)]


def summaries_after_of(state: Any, rs: Ruleset, s: int, actions: Sequence[Sequence[int]]
                       ) -> list[list[int]]:
    """brass_summaries_after: the summary after each whole action in `actions`, applied by
    seat index `s` (-1: the seat to act) to its own copy of `state`; EngineError (as
    apply_compound's, naming the action) for the first one refused."""
    flat, offsets = id_lists(actions, rs)
    n = len(offsets) - 1
    if not n:
        return []
    stride = lib.BRASS_SUMMARY_CAP
    out = _new_uncleared("int32_t[]", n * stride)
    lengths = ffi.new("int32_t[]", n)
    reason, action_at, at = ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
    err = lib.brass_summaries_after(state, s, ffi.new("uint16_t[]", flat),
                                    ffi.new("uint32_t[]", offsets), n, out, stride, lengths,
                                    reason, action_at, at)
    if err:
        raise_for_action(err, reason[0], action_at[0], at[0], actions, rs)
    return [ffi.unpack(out + k * stride, lengths[k]) for k in range(n)]


def raise_for_action(err: int, reason: int, k: int, i: int, lists: Sequence[Sequence[int]],
                     rs: Ruleset) -> None:
    """EngineError for a core call over many whole actions that refused action k at id i."""
    ids = lists[k] if k < len(lists) else []
    where = (f"actions[{k}]: ids[{i}]={ids[i]} ({rs.action_names[ids[i]]})"
             if i < len(ids) else f"actions[{k}]")
    _raise(err, reason, where, rs=rs)


def compound_actions_of(state: Any, rs: Ruleset, limit: int) -> tuple[list[Compound], bool]:
    """Every complete compound action from `state` (canonical), and whether the list was
    cut (at `limit` actions, at most MAX_COMPOUND_LIMIT)."""
    lists, truncated = compound_ids_of(state, rs, limit)
    names = rs.action_names
    return [Compound(" ".join(names[i] for i in seq), seq) for seq in lists], truncated


def preview_state(state: Any, rs: Ruleset, s: int, seq: list[int], seat: int | None
                  ) -> dict[str, Any]:
    """The preview of the checked ids `seq` by seat index `s` (-1: a spectator; `seat` as
    the caller gave it, for messages), from what the seat to act knows."""
    hooks = hooks_of(rs.name)
    after = ffi.new("BrassGame *")
    log = ffi.new("BrassEventLog *")
    reason = ffi.new("int *")
    at = ffi.new("int *")
    err = lib.brass_preview(state, s, ffi.new("uint16_t[]", seq), len(seq), after, log,
                            reason, at)
    if err == lib.BRASS_E_BAD_ARGUMENT:  # the arguments were checked: the ruleset has none
        raise EngineError("INVALID_ARGUMENT", f"previews are not available for {rs.name} "
                          "yet (its core cannot hide what the seat to act does not know)")
    if err:
        names = rs.action_names
        if len(seq) == 1:
            _raise(err, reason[0], f"action {seq[0]} ({names[seq[0]]})" if err != 2
                   else f"seat {seat} tried to act; seat {state.header.current} is to act",
                   rs=rs)
        k = at[0]
        _raise(err, reason[0], f"ids[{k}]={seq[k]} ({names[seq[k]]})", rs=rs)
    events = decode_events(log, rs, state.header.num_players, hooks.name_event)
    actor = state.header.current
    before, now = _result_of(state, rs), ffi.new("BrassResult *")
    if lib.brass_result(after, now) < 0:
        _raise(lib.BRASS_E_BAD_ARGUMENT, what="preview", rs=rs)
    cost = hooks.preview_cost(events, actor, before, now)
    return {"events": events, "cost": cost, "view": json.loads(_view_json(after, s))}
