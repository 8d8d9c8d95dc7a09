"""Sell action: beer (ruling 9), selling (ruling 10) and merchant bonuses (ruling 11)."""

from __future__ import annotations

import pytest

from .positions import (
    GOODS_ALL,
    blank,
    do,
    events_of,
    game,
    legal,
    link,
    merchant,
    player,
    ps,
    reason,
    refused,
    slot,
    tile,
)

# ---------------------------------------------------------------- ruling 9: beer


def test_ruling_09_beer_sources_when_selling() -> None:
    """Ruling 9: beer from your own brewery anywhere (no connection); from an opponent's
    brewery only if connected; from the barrel beside the merchant tile sold to (only)."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    link(pos, "birmingham--walsall", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=1)
    merchant(pos, "oxford.1", GOODS_ALL, beer=1)
    tile(pos, "stafford.0", 0, "brewery", 1)  # own, not connected
    tile(pos, "walsall.1", 1, "brewery", 1)  # P1's, connected
    tile(pos, "burton_on_trent.1", 1, "brewery", 1)  # P1's, not connected
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:sell", "card:coventry", "slot:birmingham.0")
    assert legal(g) == {"merchant:oxford.0", "merchant:oxford.1"}
    do(g, "merchant:oxford.0")
    assert g.decision == "beer"
    assert legal(g) == {"slot:stafford.0", "slot:walsall.1", "merchant:oxford.0"}
    refused(g, "slot:burton_on_trent.1", "BEER_NOT_CONNECTED")
    refused(g, "merchant:oxford.1", "MERCHANT_BEER_NOT_HERE")
    ev = do(g, "slot:walsall.1")
    assert not events_of(ev, "merchant_bonus")
    # P1's brewery I gave its last barrel: it flips for P1 (+4 spaces); P0's cotton I +5
    assert slot(g, "walsall.1")["flipped"] and ps(g, 1)["income_space"] == 14
    assert ps(g, 0)["income_space"] == 15
    assert g.position()["merchants"]["oxford.0"]["beer"] == 1
    assert legal(g) == {"done"}


def test_ruling_09_sale_without_beer_takes_no_merchant_barrel() -> None:
    """Ruling 9: a sale that needs no beer (manufacturer III) cannot take a merchant barrel
    for its bonus."""
    pos = blank(2)
    tile(pos, "birmingham.1", 0, "manufacturer", 3)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.1", GOODS_ALL, beer=1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    ev = do(g, "type:sell", "card:coventry", "slot:birmingham.1", "merchant:oxford.1")
    assert g.decision == "sell_tile" and legal(g) == {"done"}
    assert not events_of(ev, "beer") and not events_of(ev, "merchant_bonus")
    assert g.position()["merchants"]["oxford.1"]["beer"] == 1
    assert ps(g, 0)["income_space"] == 10 + 4
    assert slot(g, "birmingham.1")["flipped"]


def test_ruling_09_no_beer_no_sale() -> None:
    """Ruling 9/10: a sale that needs beer is impossible when no beer can be had."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "burton_on_trent.1", 1, "brewery", 1)  # P1's, not connected
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=0)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    assert reason(g, "type:sell") == "NO_BEER"


# ---------------------------------------------------------------- ruling 10: selling


def test_ruling_10_sell_several_tiles_in_one_action() -> None:
    """Ruling 10 / tutorial Q&A: one action sells cotton II (1 beer, +4 spaces) and then
    manufacturer III (no beer, +4 spaces), each to a connected merchant; no money."""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    tile(pos, "birmingham.1", 0, "manufacturer", 3)
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=2)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.1", GOODS_ALL, beer=1)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:sell", "card:coventry")
    assert legal(g) == {"slot:birmingham.0", "slot:birmingham.1"}
    do(g, "slot:birmingham.0", "merchant:oxford.1")
    assert legal(g) == {"slot:stafford.0", "merchant:oxford.1"}
    do(g, "merchant:oxford.1")  # Oxford's barrel: +2 income spaces
    assert legal(g) == {"slot:birmingham.1", "done"}
    do(g, "slot:birmingham.1", "merchant:oxford.1", "done")
    me = ps(g, 0)
    assert me["income_space"] == 10 + 4 + 2 + 4
    assert (me["money"], me["spent"]) == (17, 0)
    assert me["hand"] == {"dudley": 1}
    assert g.position()["discards"] == {"coventry": 1}
    assert slot(g, "birmingham.0")["flipped"] and slot(g, "birmingham.1")["flipped"]
    assert slot(g, "stafford.0")["cubes"] == 2
    assert g.position()["actions_left"] == 1


def test_ruling_10_each_sale_pays_its_own_beer() -> None:
    """Ruling 10: each tile sold pays its own beer."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "worcester.0", 0, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    link(pos, "birmingham--worcester", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    # (the engine takes the sales of one action in ascending slot order: Worcester first)
    do(g, "type:sell", "card:coventry", "slot:worcester.0", "merchant:oxford.0",
       "merchant:oxford.0")
    assert legal(g) == {"done"}
    refused(g, "slot:birmingham.0", "NO_BEER")
    # with a barrel of P0's own, the second mill can be sold in the same action
    tile(pos, "stafford.0", 0, "brewery", 1)
    g = game(pos)
    do(g, "type:sell", "card:coventry", "slot:worcester.0", "merchant:oxford.0",
       "merchant:oxford.0", "slot:birmingham.0", "merchant:oxford.0")
    assert legal(g) == {"slot:stafford.0"}
    do(g, "slot:stafford.0", "done")
    # 5 + 2 (Oxford) + 5 + 4 (the brewery's last barrel flips it)
    assert ps(g, 0)["income_space"] == 10 + 5 + 2 + 5 + 4


def test_ruling_10_sale_needs_connected_merchant_accepting_goods() -> None:
    """Ruling 10: each tile sold must be connected to a merchant tile accepting its goods."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "coventry.1", 0, "manufacturer", 1)
    link(pos, "birmingham--oxford", 1)
    link(pos, "birmingham--coventry", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=1)
    merchant(pos, "gloucester.1", ["manufacturer"], beer=1)  # accepts, not connected
    player(pos, 0, hand={"dudley": 1})
    g = game(pos)
    do(g, "type:sell", "card:dudley")
    assert legal(g) == {"slot:birmingham.0"}
    assert reason(g, "slot:coventry.1") == "NOT_CONNECTED_TO_MERCHANT"
    do(g, "slot:birmingham.0")
    assert legal(g) == {"merchant:oxford.0"}
    assert reason(g, "merchant:oxford.1") == "NO_MERCHANT_ACCEPTS"  # blank tile
    assert reason(g, "merchant:gloucester.1") == "NO_MERCHANT_ACCEPTS"
    merchant(pos, "gloucester.1", [], beer=0)  # nobody buys manufactured goods now
    g = game(pos)
    do(g, "type:sell", "card:dudley")
    assert reason(g, "slot:coventry.1") == "NO_MERCHANT_ACCEPTS"


def test_ruling_10_only_own_unflipped_goods_tiles() -> None:
    """Ruling 10: only your own unflipped cotton mills, manufacturers and potteries."""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    tile(pos, "birmingham.1", 0, "manufacturer", 2, flipped=True)
    tile(pos, "birmingham.3", 1, "manufacturer", 2)
    tile(pos, "birmingham.2", 0, "iron", 2, cubes=1)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.1", GOODS_ALL, beer=1)
    player(pos, 0, hand={"dudley": 1})
    g = game(pos)
    do(g, "type:sell", "card:dudley")
    assert legal(g) == {"slot:birmingham.0"}
    assert reason(g, "slot:birmingham.1") == "ALREADY_FLIPPED"
    assert reason(g, "slot:birmingham.3") == "NOT_YOUR_TILE"
    assert reason(g, "slot:birmingham.2") == "NOT_SELLABLE"
    assert reason(g, "slot:coventry.0") == "NO_TILE_HERE"


# ---------------------------------------------------------------- ruling 11: bonuses


@pytest.mark.parametrize("players, town_slot, route, via, space, money, vp, spaces", [
    (3, "stoke_on_trent.0", "stoke_on_trent--warrington", None, "warrington.0", 5, 0, 0),
    (4, "derby.1", "derby--nottingham", None, "nottingham.1", 0, 3, 0),
    (2, "kidderminster.1", "coalbrookdale--shrewsbury", "coalbrookdale--kidderminster",
     "shrewsbury.0", 0, 4, 0),
    (2, "birmingham.0", "birmingham--oxford", None, "oxford.0", 0, 0, 2),
])
def test_ruling_11_merchant_beer_bonuses(players: int, town_slot: str, route: str,
                                         via: str | None, space: str, money: int, vp: int,
                                         spaces: int) -> None:
    """Ruling 11: Warrington £5; Nottingham 3 VP; Shrewsbury 4 VP; Oxford +2 income spaces.
    The bonus comes from drinking that merchant's barrel in a sale."""
    pos = blank(players)
    tile(pos, town_slot, 0, "cotton", 1)
    link(pos, route, 1)
    if via:
        link(pos, via, 1)
    merchant(pos, space, ["cotton"], beer=1)
    player(pos, 0, hand={"coalbrookdale": 1}, vp=10)
    g = game(pos)
    ev = do(g, "type:sell", "card:coalbrookdale", f"slot:{town_slot}", f"merchant:{space}",
            f"merchant:{space}", "done")
    kind = "money" if money else "vp" if vp else "income_spaces"
    assert events_of(ev, "merchant_bonus") == [
        {"type": "merchant_bonus", "seat": 0, "merchant": space, "bonus": kind,
         "amount": money or vp or spaces}]
    me = ps(g, 0)
    assert (me["money"], me["vp"], me["income_space"]) == (17 + money, 10 + vp,
                                                           10 + 5 + spaces)
    assert me["spent"] == 0
    assert g.position()["merchants"][space]["beer"] == 0


def test_ruling_11_gloucester_free_develop() -> None:
    """Ruling 11: Gloucester gives one free develop: no iron, never a lightbulb pottery."""
    pos = blank(2)
    tile(pos, "worcester.0", 0, "cotton", 1)
    link(pos, "gloucester--worcester", 1)
    merchant(pos, "gloucester.0", ["cotton"], beer=1)
    player(pos, 0, hand={"coalbrookdale": 1})
    g = game(pos)
    do(g, "type:sell", "card:coalbrookdale", "slot:worcester.0", "merchant:gloucester.0",
       "merchant:gloucester.0")
    assert g.decision == "free_develop"
    assert legal(g) == {"industry:cotton", "industry:manufacturer", "industry:coal",
                        "industry:iron", "industry:brewery", "done"}
    refused(g, "industry:pottery", "LIGHTBULB_POTTERY")
    ev = do(g, "industry:coal")
    assert events_of(ev, "develop") == [{"type": "develop", "seat": 0, "industry": "coal",
                                         "level": 1}]
    assert not events_of(ev, "iron")
    assert g.decision == "sell_tile" and legal(g) == {"done"}
    me = ps(g, 0)
    assert (me["money"], me["mat_taken"]["coal"], me["income_space"]) == (17, 1, 15)
    assert g.position()["markets"]["iron"] == 8
    # pottery II (no lightbulb) may be taken
    player(pos, 0, mat={"pottery": 1})
    g = game(pos)
    do(g, "type:sell", "card:coalbrookdale", "slot:worcester.0", "merchant:gloucester.0",
       "merchant:gloucester.0", "industry:pottery", "done")
    assert ps(g, 0)["mat_taken"]["pottery"] == 2


def test_ruling_10_sell_refusal_is_the_best_candidates() -> None:
    """Ruling 10: P0's pottery in Belper finds no merchant that buys pottery; its cotton mill
    in Birmingham reaches Oxford's cotton merchant but has no beer. The action is refused for
    beer, the reason of the tile that got furthest, not the first tile's (issue 10 F)."""
    pos = blank(2)
    tile(pos, "belper.2", 0, "pottery", 1)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=0)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    assert reason(g, "type:sell") == "NO_BEER"
    refused(g, "type:sell", "NO_BEER")
