"""Whole actions grouped by the core (`brass.grouping`, brass_group_actions): the same
groups, in the same order, as grouping the id tuples in Python, on real listings of both
rulesets (Pittsburgh's turns of thousands of actions among them); bad input refused."""

from __future__ import annotations

import random

import pytest

import brass
from brass._core import ffi, lib
from brass.grouping import group_actions, listed_groups


def _reference(actions: list[tuple[int, ...]], drop: bytes) -> tuple[list[int], list[int]]:
    keys: dict[tuple[int, ...], int] = {}
    group, first = [], []
    for k, ids in enumerate(actions):
        key = tuple(i for i in ids if not drop[i])
        if key not in keys:
            keys[key] = len(first)
            first.append(k)
        group.append(keys[key])
    return group, first


def _drops(ruleset: str, rng: random.Random) -> list[bytes]:
    rs = brass.get_ruleset(ruleset)
    names = rs.action_names
    cards = bytes(name.startswith("card:") for name in names)
    sources = bytes(name.startswith(("card:", "market")) or name == "vanderbilt"
                    for name in names)
    noise = bytes(rng.random() < 0.3 for _ in names)
    return [cards, sources, noise, bytes(len(names)), bytes([1]) * len(names)]


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_cores_groups_are_pythons(ruleset: str) -> None:
    rng = random.Random(4)
    largest = 0
    for seed in range(3):
        game = brass.Game.new(2 + seed, seed=seed, ruleset=ruleset)
        while not game.is_over:
            if game.decision == "action" and rng.random() < 0.08:
                drops = _drops(ruleset, rng)
                listed, truncated, groupings = listed_groups(game, 60000, drops)
                assert (listed, truncated) == game.compound_ids(limit=60000)
                largest = max(largest, len(listed))
                for drop, grouping in zip(drops, groupings, strict=True):
                    assert grouping == _reference(listed, drop)
                    assert group_actions(listed, drop, brass.get_ruleset(ruleset)) == grouping
            game.apply(rng.choice(game.legal_ids()))
    assert largest > (1000 if ruleset == "pittsburgh" else 100)


def test_bad_input_is_refused() -> None:
    drop = bytes(10)
    ids = ffi.new("uint16_t[]", [1, 2, 3])
    offsets = ffi.new("uint32_t[]", [0, 2, 3])
    group, first, table = (ffi.new("int32_t[]", 8) for _ in range(3))
    assert lib.brass_group_actions(ids, offsets, 2, drop, 10, group, first, table, 4) == 2
    assert lib.brass_group_actions(ids, offsets, 2, drop, 10, group, first, table, 3) \
        == -lib.BRASS_E_BAD_ARGUMENT  # not a power of two
    assert lib.brass_group_actions(ids, offsets, 2, drop, 10, group, first, table, 2) \
        == -lib.BRASS_E_BAD_ARGUMENT  # under 2n
    assert lib.brass_group_actions(ids, offsets, 2, drop, 3, group, first, table, 4) \
        == -lib.BRASS_E_BAD_ARGUMENT  # id 3 beyond the drop table
    backwards = ffi.new("uint32_t[]", [0, 2, 1])
    assert lib.brass_group_actions(ids, backwards, 2, drop, 10, group, first, table, 4) \
        == -lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_group_actions(ffi.NULL, offsets, 2, drop, 10, group, first, table, 4) \
        == -lib.BRASS_E_BAD_ARGUMENT
    with pytest.raises(ValueError, match="beyond"):
        group_actions([(1, 2), (3,)], bytes(3), brass.get_ruleset("birmingham"))
    assert group_actions([], drop, brass.get_ruleset("birmingham")) == ([], [])
