"""Property: from any position the engine accepts, every legal decision gives a state it
accepts again (issue 10 B). Otherwise the service stores a game that answers CORRUPT_GAME
after a restart (brass_restore runs brass_validate).

Positions are taken from random games at random points, and each field that brass_validate
bounds is pushed to the edge of what it accepts: money, VP and spending at 9999 (or money 0),
income at the top and bottom space, round 255, full and empty markets, no link tiles left.
For each accepted edge position, every legal id is applied on a copy and the result must
restore; then the position is played on at random to the end of the game, restoring after
every decision. (core_c/fuzz/fuzz_state checks the same promise on arbitrary structs.)
"""

from __future__ import annotations

import copy
import random
import zlib
from collections.abc import Callable
from typing import Any

import pytest

import brass
from brass import EngineError

from ._support import play_random, policy_choice

TALLY_MAX = 9999
Position = dict[str, Any]


def _players(field: str, value: Any) -> Callable[[Position], None]:
    def edit(pos: Position) -> None:
        for ps in pos["player_state"]:
            ps[field] = value
    return edit


def _tallies(pos: Position) -> None:
    for ps in pos["player_state"]:
        ps.update(money=TALLY_MAX, vp=TALLY_MAX, spent=TALLY_MAX)


def _top(key: str, value: Any) -> Callable[[Position], None]:
    def edit(pos: Position) -> None:
        pos[key] = value
    return edit


def _markets(coal: int, iron: int) -> Callable[[Position], None]:
    def edit(pos: Position) -> None:
        pos["markets"] = {"coal": coal, "iron": iron}
    return edit


EDGES: dict[str, Callable[[Position], None]] = {
    "tallies at 9999": _tallies,
    "money 9999": _players("money", TALLY_MAX),
    "money 0": _players("money", 0),
    "income top": _players("income_space", 99),
    "income bottom": _players("income_space", 0),
    "round 255": _top("round", 255),
    "markets full": _markets(14, 10),
    "markets empty": _markets(0, 0),
    "no link tiles": _players("links_left", 0),
}


def _edge_positions(edge: str, count: int) -> list[Position]:
    rng = random.Random(zlib.crc32(edge.encode()))
    out: list[Position] = []
    for k in range(1, 20 * count):
        if len(out) == count:
            break
        g = play_random(rng.choice([2, 3, 4]), 7919 * k + len(edge), steps=rng.randrange(0, 400))
        if g.is_over:
            continue
        pos = copy.deepcopy(g.position())
        EDGES[edge](pos)
        for key in ("decisions_applied",):
            pos.pop(key, None)
        for ps in pos["player_state"]:
            ps.pop("income_level", None)
            ps.pop("hand_size", None)
        try:
            brass.Game.from_position(pos)
        except EngineError as exc:  # e.g. money 0 where the action in progress needs money
            assert exc.code == "BAD_POSITION" and exc.field
            continue
        out.append(pos)
    assert len(out) == count, f"{edge}: only {len(out)} positions accepted"
    return out


def _restores(g: brass.Game, what: str) -> None:
    snap = g.snapshot()
    try:
        assert brass.Game.restore(snap).snapshot() == snap
    except EngineError as exc:
        raise AssertionError(f"{what}: the state is refused on restore ({exc.message})") from exc


@pytest.mark.parametrize("edge", list(EDGES))
def test_every_legal_decision_from_an_edge_position_is_valid(edge: str) -> None:
    rng = random.Random(len(edge))
    for pos in _edge_positions(edge, 12):
        g = brass.Game.from_position(pos)
        for i in g.legal_ids():
            c = g.clone()
            c.apply(i)
            _restores(c, f"{edge}: {brass.action_name(i)} at {g.decision}")
        while not g.is_over:
            i = policy_choice(g, g.legal_ids(), rng)
            g.apply(i)
            _restores(g, f"{edge}: playing on, {brass.action_name(i)}")
