"""Whole actions grouped by the core (brass_group_actions): actions whose ids are the same
once some ids are left out (a bot's card ids, where off-board cubes come from) fall in one
group. A search lists thousands of actions a decision and groups them; in Python that was
half of the expert's time in Pittsburgh.

    actions, truncated, [(group, first)] = listed_groups(game, 1000, [drop])
    # group[k]: action k's group, numbered by first appearance; first[g]: group g's first
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brass._core import ffi, lib
from brass.preview import id_tuples, listed_compounds
from brass.rulesets import id_lists

Grouping = tuple[list[int], list[int]]  # (each action's group, each group's first action)


def _grouped(ids: Any, offsets: Any, n: int, drop: bytes) -> Grouping:
    if n == 0:
        return [], []
    group = ffi.new("int32_t[]", n)
    first = ffi.new("int32_t[]", n)
    size = 1 << (2 * n - 1).bit_length()  # a power of two, at least 2n
    table = ffi.new("int32_t[]", size)
    count = lib.brass_group_actions(ids, offsets, n, drop, len(drop), group, first, table, size)
    if count < 0:
        raise ValueError("the actions do not fit the drop table (an id beyond it)")
    return ffi.unpack(group, n), ffi.unpack(first, count)


def listed_groups(game: Any, limit: int, drops: Sequence[bytes]
                  ) -> tuple[list[tuple[int, ...]], bool, list[Grouping]]:
    """`game.compound_ids(limit)` (the actions and whether the list was cut) and the
    actions' grouping by each of `drops` (bytes, one per action id, non-zero: left out)."""
    ids, offsets, n, truncated = listed_compounds(game._g, game._rs, limit)
    return (id_tuples(ids, offsets, n), truncated,
            [_grouped(ids, offsets, n, drop) for drop in drops])


def group_actions(actions: Sequence[Sequence[int]], drop: bytes, rs: Any) -> Grouping:
    """The grouping of given actions (id sequences of ruleset `rs`) by `drop`."""
    flat, offsets = id_lists(actions, rs)
    n = len(offsets) - 1
    if n == 0:
        return [], []
    return _grouped(ffi.new("uint16_t[]", flat), ffi.new("uint32_t[]", offsets), n, drop)
