"""Network action: rulings 2 (routes), 3 (isolated first link), 7 (rail coal) and 16."""

from __future__ import annotations

import pytest

import brass
from brass.engine import LINK_NAMES, id_of

from .positions import (
    GOODS_ALL,
    blank,
    do,
    game,
    legal,
    link,
    merchant,
    player,
    ps,
    reason,
    refused,
    tile,
)

# Routes printed with rails only (no canal) on the board; one route is canal-only.
RAIL_ONLY = {"belper--leek", "birmingham--nuneaton", "birmingham--redditch",
             "burton_on_trent--cannock", "coventry--nuneaton", "derby--uttoxeter",
             "stone--uttoxeter", "tamworth--walsall"}
CANAL_ONLY = {"burton_on_trent--walsall"}
CANAL_ROUTES = set(LINK_NAMES) - RAIL_ONLY
RAIL_ROUTES = set(LINK_NAMES) - CANAL_ONLY
MERCHANT_ROUTES = {"birmingham--oxford", "coalbrookdale--shrewsbury", "derby--nottingham",
                   "gloucester--redditch", "gloucester--worcester", "oxford--redditch",
                   "stoke_on_trent--warrington"}

# ---------------------------------------------------------------- ruling 2: routes


def test_ruling_02_canal_routes_in_canal_era_rail_routes_in_rail_era() -> None:
    """Ruling 2: canals only on canal routes in the Canal Era, rails only on rail routes in
    the Rail Era; a route holds at most one link (no rail over a canal, for any price)."""
    assert len(CANAL_ROUTES) == 31 and len(RAIL_ROUTES) == 38
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "birmingham--dudley", 1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    assert legal(g) == {f"link:birmingham--{t}" for t in
                        ("coventry", "oxford", "tamworth", "walsall", "worcester")}
    refused(g, "link:birmingham--nuneaton", "LINK_WRONG_ERA")
    refused(g, "link:birmingham--dudley", "LINK_TAKEN")
    refused(g, "done", "MUST_CHOOSE")
    pos = blank(2, era="rail")
    tile(pos, "walsall.0", 0, "iron", 2, cubes=1)
    tile(pos, "cannock.1", 1, "coal", 2, cubes=2)
    link(pos, "birmingham--walsall", 1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    refused(g, "link:burton_on_trent--walsall", "LINK_WRONG_ERA")
    refused(g, "link:birmingham--walsall", "LINK_TAKEN")


@pytest.mark.parametrize("era, route", [("rail", "burton_on_trent--walsall"),
                                        ("canal", "birmingham--nuneaton")])
def test_ruling_02_no_link_of_the_other_era_on_the_board(era: str, route: str) -> None:
    """Ruling 2: no canal lies under a rail: a position with a link of the wrong kind is
    inconsistent."""
    pos = blank(2, era=era)
    link(pos, route, 1)
    with pytest.raises(brass.EngineError) as exc:
        game(pos)
    assert exc.value.code == "BAD_POSITION"


# ---------------------------------------------------------------- ruling 3: first link


def test_ruling_03_isolated_first_link_on_any_empty_route() -> None:
    """Ruling 3: a player with no tile and no link may place a link on any empty route of
    the era's kind; afterwards new links must touch that network (ruling 16)."""
    pos = blank(2)
    link(pos, "birmingham--dudley", 1)
    tile(pos, "dudley.0", 1, "coal", 1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    assert legal(g) == {f"link:{r}" for r in CANAL_ROUTES - {"birmingham--dudley"}}
    do(g, "link:gloucester--worcester")
    assert ps(g, 0)["money"] == 14
    do(g, "type:network", "card:dudley")
    assert legal(g) == {"link:gloucester--redditch", "link:birmingham--worcester",
                        "link:kidderminster--worcester"}
    refused(g, "link:birmingham--coventry", "LINK_NOT_IN_NETWORK")


def test_ruling_03_isolated_link_is_not_removed_early() -> None:
    """Ruling 3: nothing removes an unconnected first link before the era ends."""
    pos = blank(2, round_=3, turn_order=[1, 0], current=0, actions_left=1,
                deck=["birmingham", "birmingham"])
    player(pos, 0, hand={"coventry": 1})
    player(pos, 1, hand={"dudley": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry", "link:gloucester--worcester")
    p = g.position()
    assert (p["round"], p["links"]) == (4, {"gloucester--worcester": 0})
    assert p["player_state"][0]["hand"] == {"birmingham": 2}


def test_ruling_03_isolated_rail_still_needs_coal() -> None:
    """Ruling 3 / tutorial Q&A: an isolated first rail may go on any empty rail route, but
    its coal must still be reachable (here: only through a merchant location's market)."""
    pos = blank(2, era="rail")
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    assert legal(g) == {f"link:{r}" for r in MERCHANT_ROUTES}
    refused(g, "link:belper--leek", "NO_CONNECTED_COAL")
    refused(g, "link:birmingham--dudley", "NO_CONNECTED_COAL")


# ---------------------------------------------------------------- ruling 16: costs


def test_ruling_16_canal_costs_3() -> None:
    """Ruling 16: a canal costs £3 and nothing else."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry", "link:birmingham--dudley")
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["links_left"]) == (14, 3, 13)
    assert g.position()["links"] == {"birmingham--dudley": 0}
    assert (g.decision, g.position()["actions_left"]) == ("action", 1)
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, money=2)
    assert reason(game(pos), "type:network") == "NOT_ENOUGH_MONEY"


def test_ruling_16_single_rail_costs_5_and_coal_from_either_end() -> None:
    """Ruling 16 and ruling 7: a rail costs £5 + 1 coal, the coal checked after the link is
    placed, from either end (here the mine at the far end, Dudley)."""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    tile(pos, "dudley.0", 1, "coal", 2, cubes=2)
    link(pos, "birmingham--oxford", 1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    # Dudley's mine becomes connected by the new rail itself; every other route from
    # Birmingham joins Oxford (market coal) already
    assert "link:birmingham--dudley" in legal(g)
    do(g, "link:birmingham--dudley")
    assert g.decision == "coal"
    assert legal(g) == {"slot:dudley.0"}
    refused(g, "market", "MINE_COAL_FIRST")
    do(g, "slot:dudley.0")
    assert g.decision == "second_rail" and "done" in legal(g)
    do(g, "done")
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["links_left"]) == (12, 5, 13)
    assert g.position()["slots"]["dudley.0"]["cubes"] == 1


def test_ruling_16_double_rail_needs_brewery_beer_not_merchant_beer() -> None:
    """Ruling 16 and ruling 9: a double rail costs £15 + 1 coal per rail + 1 beer from a
    brewery; merchant beer never pays for it; own beer needs no connection."""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.1", GOODS_ALL, beer=1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1}, money=30)
    g = game(pos)
    do(g, "type:network", "card:coventry", "link:birmingham--dudley", "market")
    assert legal(g) == {"done"}
    refused(g, "link:birmingham--coventry", "NO_BEER")
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=1)  # own, far away, not connected
    g = game(pos)
    do(g, "type:network", "card:coventry", "link:birmingham--dudley", "market",
       "link:birmingham--coventry", "market")
    assert g.decision == "beer"
    assert legal(g) == {"slot:stafford.0"}
    refused(g, "merchant:oxford.1", "MERCHANT_BEER_NOT_HERE")
    do(g, "slot:stafford.0")
    me = ps(g, 0)
    # £5 + £10, coal £1 then £2 (cheapest first)
    assert (me["money"], me["spent"], me["links_left"]) == (30 - 18, 18, 12)
    assert g.position()["merchants"]["oxford.1"]["beer"] == 1
    assert g.position()["slots"]["stafford.0"]["flipped"]
    assert (g.decision, g.position()["actions_left"]) == ("action", 1)


def test_ruling_16_link_must_touch_own_network() -> None:
    """Ruling 16: the new link must touch your network (own tiles, own links' ends)."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "oxford--redditch", 0)
    link(pos, "dudley--kidderminster", 1)  # another player's link adds nothing
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:network", "card:coventry")
    assert "link:gloucester--redditch" in legal(g)
    refused(g, "link:gloucester--worcester", "LINK_NOT_IN_NETWORK")
    refused(g, "link:coalbrookdale--kidderminster", "LINK_NOT_IN_NETWORK")


def test_ruling_16_double_rail_as_one_compound_action() -> None:
    """Ruling 16: the double rail is one action: applied atomically, or refused whole (here
    for want of beer, at the second rail) with the state unchanged."""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    link(pos, "birmingham--oxford", 1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1}, money=30)
    names = ["type:network", "card:coventry", "link:birmingham--dudley", "market",
             "link:birmingham--coventry", "market", "slot:stafford.0"]
    g = game(pos)
    before = g.state_hash()
    with pytest.raises(brass.EngineError) as exc:
        g.apply_compound([id_of(n) for n in names])
    assert (exc.value.code, exc.value.reason) == ("ILLEGAL_ACTION", "NO_BEER")
    assert g.state_hash() == before
    with pytest.raises(brass.EngineError) as exc:
        g.apply_compound([id_of(n) for n in names[:3]])
    assert exc.value.reason == "INCOMPLETE_ACTION" and g.state_hash() == before
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=1)
    g = game(pos)
    g.apply_compound([id_of(n) for n in names])
    assert ps(g, 0)["money"] == 30 - 15 - 1 - 2
    assert set(g.position()["links"]) == {"birmingham--oxford", "birmingham--dudley",
                                          "birmingham--coventry"}


def test_ruling_16_no_link_tiles_left() -> None:
    """Ruling 16 (14 link tiles each): with none left in the supply, no network action."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    player(pos, 0, hand={"coventry": 1}, links_left=0)
    assert reason(game(pos), "type:network") == "NO_LINK_TILES"


def test_ruling_07_network_refusal_is_the_best_candidates() -> None:
    """Rulings 7 and 16, Rail Era, nothing on the board, £4: a rail costs £5 and a cube of
    coal, which only a route touching a merchant location can buy from the market. The first
    route (belper--derby) reaches no coal; the action is refused for money, the reason of the
    routes that got furthest (issue 10 F)."""
    pos = blank(2, era="rail")
    player(pos, 0, hand={"coventry": 1}, money=4)
    g = game(pos)
    assert reason(g, "type:network") == "NOT_ENOUGH_MONEY"
    refused(g, "type:network", "NOT_ENOUGH_MONEY")

