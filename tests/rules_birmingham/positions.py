"""Explicit positions for the rules conformance suite.

A position starts from the complete example `brass.Game.new(n, seed=1).position()` and is
then emptied: no tiles, no links, no cards anywhere, every merchant space of the player
count blank, and auto_resolve off (so every forced step is named, and checked, by the test).
Every seat but the one to act holds one reserve card, so that the acting seat's turn end
starts the next seat's turn instead of ending the round (tests of round and era ends set
hands and deck explicitly). Tests then place exactly what the rule under test needs and
build the game with `game(pos)` (which keeps the mat and link-supply bookkeeping
consistent).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from functools import cache
from typing import Any

import pytest

import brass
from brass.engine import INDUSTRIES, id_of

Position = dict[str, Any]

# Merchant spaces in use per player count (ruling: 2p none at Warrington/Nottingham,
# 3p none at Nottingham).
SPACES_2P = ("shrewsbury.0", "oxford.0", "oxford.1", "gloucester.0", "gloucester.1")
SPACES = {
    2: SPACES_2P,
    3: SPACES_2P + ("warrington.0", "warrington.1"),
    4: SPACES_2P + ("warrington.0", "warrington.1", "nottingham.0", "nottingham.1"),
}
ALL_SPACES = SPACES[4]
GOODS_ALL = ["cotton", "manufacturer", "pottery"]
RESERVE_CARDS = ("wolverhampton", "kidderminster", "nuneaton")

# Printed values (tutorial tile table, checked against the 2018 player mat).
COAL_PRICES = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7)  # cheapest slot first
IRON_PRICES = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)


@cache
def _template(players: int) -> str:
    import json

    return json.dumps(brass.Game.new(players, seed=1).position())


def blank(players: int = 2, *, era: str = "canal", round_: int = 2, current: int = 0,
          turn_order: list[int] | None = None, actions_left: int = 2,
          auto_resolve: bool = False, beginner: bool = False,
          manufacturer_iv_cost: int = 8, coal_market: int = 13, iron_market: int = 8,
          deck: list[str] | None = None) -> Position:
    """An empty board: no tiles, links, cards; blank merchants; seat `current` to act."""
    import json

    pos: Position = json.loads(_template(players))
    order = list(turn_order) if turn_order is not None else list(range(players))
    pos["options"] = {"beginner": beginner, "manufacturer_iv_cost": manufacturer_iv_cost,
                      "auto_resolve": auto_resolve}
    pos["era"] = era
    pos["round"] = round_
    pos["turn_order"] = order
    pos["turn_index"] = order.index(current)
    pos["current"] = current
    pos["actions_left"] = actions_left
    pos["decision"] = "action"
    pos["game_over"] = False
    pos["pending"] = {"action": "build", "card": None, "industry": None, "slot": None,
                      "link": None, "merchant": None}
    pos["markets"] = {"coal": coal_market, "iron": iron_market}
    pos["wild_piles"] = {"location": 4, "industry": 4}
    pos["discards"] = {}
    pos["deck"] = list(deck or [])
    pos["links"] = {}
    pos["slots"] = {}
    pos["merchants"] = {s: ({"goods": [], "beer": 0} if s in SPACES[players]
                            else {"goods": None, "beer": 0}) for s in ALL_SPACES}
    reserve = iter(RESERVE_CARDS)
    for seat, ps in enumerate(pos["player_state"]):
        hand = {} if seat == current else {next(reserve): 1}
        ps.update({"money": 17, "vp": 0, "spent": 0, "income_space": 10, "links_left": 14,
                   "mat_taken": {i: 0 for i in INDUSTRIES}, "hand": hand, "facedown": None,
                   "last_discard": None})
        ps.pop("income_level", None)
        ps.pop("hand_size", None)
    pos.pop("decisions_applied", None)
    return pos


def player(pos: Position, seat: int, *, hand: dict[str, int] | None = None,
           mat: dict[str, int] | None = None, **fields: Any) -> Position:
    """Set a seat's fields (money, vp, spent, income_space, links_left, facedown...)."""
    ps = pos["player_state"][seat]
    if hand is not None:
        ps["hand"] = dict(hand)
    if mat is not None:
        ps["mat_taken"].update(mat)
    ps.update(fields)
    return pos


_PRODUCES = {("coal", 1): 2, ("coal", 2): 3, ("coal", 3): 4, ("coal", 4): 5,
             ("iron", 1): 4, ("iron", 2): 4, ("iron", 3): 5, ("iron", 4): 6}


def tile(pos: Position, slot: str, owner: int, industry: str, level: int, *,
         flipped: bool = False, cubes: int | None = None) -> Position:
    """Place a built tile; cubes default to a fresh tile's (breweries: 1), 0 if flipped."""
    if cubes is None:
        if flipped:
            cubes = 0
        elif industry == "brewery":
            cubes = 1
        else:
            cubes = _PRODUCES.get((industry, level), 0)
    pos["slots"][slot] = {"owner": owner, "industry": industry, "level": level,
                          "flipped": flipped, "cubes": cubes}
    return pos


def link(pos: Position, route: str, owner: int) -> Position:
    pos["links"][route] = owner
    return pos


def merchant(pos: Position, space: str, goods: list[str], beer: int = 1) -> Position:
    pos["merchants"][space] = {"goods": list(goods), "beer": beer}
    return pos


@cache
def _mat_order(industry: str) -> tuple[int, ...]:
    """The levels of an industry's tiles on the player mat, in the order they are taken."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[2] / "core_c" / "data" /
                       "birmingham.json").read_text())
    levels = data["industries"]["per_industry"][industry]["levels"]
    return tuple(lv["level"] for lv in levels for _ in range(lv["count"]))


def tiles_taken_for(industry: str, levels: Iterable[int]) -> int:
    """Fewest tiles off the mat (lowest first) that include tiles of these levels."""
    order = _mat_order(industry)
    need = 0
    seen: dict[int, int] = {}
    for lv in levels:
        seen[lv] = seen.get(lv, 0) + 1
        need = max(need, [i for i, x in enumerate(order) if x == lv][seen[lv] - 1] + 1)
    return need


def finish(pos: Position) -> Position:
    """Make the mat and link supplies agree with what is on the board: a built tile came off
    the mat, lowest level first, so a tile of level II means all level-I tiles went too."""
    pos = copy.deepcopy(pos)
    for seat, ps in enumerate(pos["player_state"]):
        for ind in INDUSTRIES:
            built = [t["level"] for t in pos["slots"].values()
                     if t["owner"] == seat and t["industry"] == ind]
            ps["mat_taken"][ind] = max(ps["mat_taken"][ind], tiles_taken_for(ind, built))
        used = sum(1 for o in pos["links"].values() if o == seat)
        ps["links_left"] = min(ps["links_left"], 14 - used)
    return pos


def game(pos: Position) -> brass.Game:
    return brass.Game.from_position(finish(pos))


# ---- acting and looking ----

def do(g: brass.Game, *names: str) -> list[dict[str, Any]]:
    """Apply decisions one by one, by name; returns all their events."""
    events: list[dict[str, Any]] = []
    for n in names:
        events += g.apply(id_of(n))
    return events


def legal(g: brass.Game) -> set[str]:
    return {brass.action_name(i) for i in g.legal_ids()}


def reason(g: brass.Game, name: str) -> str | None:
    return g.reason(id_of(name))


def refused(g: brass.Game, name: str, why: str) -> None:
    """The option is not legal now, for exactly this reason, and applying it fails."""
    assert name not in legal(g), name
    assert reason(g, name) == why, (name, reason(g, name))
    before = g.state_hash()
    with pytest.raises(brass.EngineError) as exc:
        g.apply(id_of(name))
    assert exc.value.code == "ILLEGAL_ACTION"
    assert exc.value.reason == why
    assert g.state_hash() == before


def ps(g: brass.Game, seat: int) -> dict[str, Any]:
    return g.position()["player_state"][seat]


def slot(g: brass.Game, name: str) -> dict[str, Any] | None:
    return g.position()["slots"].get(name)


def events_of(events: Iterable[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def level(space: int) -> int:
    """Income level of a track space, from the printed track (rulebook 'income')."""
    if space <= 10:
        return space - 10
    if space <= 30:
        return (space - 9) // 2
    if space <= 60:
        return 10 + (space - 28) // 3
    if space <= 96:
        return 20 + (space - 57) // 4
    return 30


def at_build_slot(pos: Position, card: str, industry: str) -> Position:
    """The build action after its card and industry were chosen (the card already spent)."""
    pos["decision"] = "build_slot"
    pos["pending"] = {"action": "build", "card": card, "industry": industry, "slot": None,
                      "link": None, "merchant": None}
    return pos


@cache
def _full_deck(players: int) -> str:
    import json

    p = brass.Game.new(players, seed=1).position()
    cards: dict[str, int] = {}
    for c in p["deck"]:
        cards[c] = cards.get(c, 0) + 1
    for ps_ in p["player_state"]:
        for c, k in ps_["hand"].items():
            cards[c] = cards.get(c, 0) + k
        cards[ps_["facedown"]] = cards.get(ps_["facedown"], 0) + 1
    return json.dumps(cards)


def full_deck(players: int) -> dict[str, int]:
    """Every (non-wild) card of the game for this player count, by type."""
    import json

    return dict(json.loads(_full_deck(players)))


def minus(cards: dict[str, int], *taken: str) -> dict[str, int]:
    out = dict(cards)
    for c in taken:
        out[c] -= 1
        if not out[c]:
            del out[c]
    return out
