"""Build action: rulings 3 (builds without presence), 4, 5, 12, 13 and 14 of RULINGS.md."""

from __future__ import annotations

import pytest

import brass

from .positions import (
    at_build_slot,
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

# ---------------------------------------------------------------- ruling 14: cards and slots


def test_ruling_14_location_card_builds_in_town_outside_network() -> None:
    """Ruling 14: a location card allows any industry at that town, network not needed."""
    pos = blank(2)
    link(pos, "gloucester--worcester", 0)  # P0's network: Gloucester, Worcester only
    player(pos, 0, hand={"birmingham": 1, "iron": 1})
    g = game(pos)
    do(g, "type:build")
    # the iron card needs the network, which has no iron slot: every iron slot is out of it
    assert legal(g) == {"card:birmingham"}
    assert reason(g, "card:iron") == "NOT_IN_NETWORK"
    do(g, "card:birmingham")
    # cotton I (£12, no coal) can be built; manufacturer I and iron works I need coal, and
    # Birmingham is connected to neither a mine nor a merchant location (ruling 7)
    assert legal(g) == {"industry:cotton"}
    assert reason(g, "industry:iron") == "NO_CONNECTED_COAL"
    do(g, "industry:cotton")
    assert legal(g) == {"slot:birmingham.0"}
    do(g, "slot:birmingham.0")
    assert slot(g, "birmingham.0") == {"owner": 0, "industry": "cotton", "level": 1,
                                      "flipped": False, "cubes": 0}
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["mat_taken"]["cotton"]) == (5, 12, 1)
    assert me["hand"] == {"iron": 1}
    assert g.position()["discards"] == {"birmingham": 1}
    assert g.position()["actions_left"] == 1


def test_ruling_14_industry_card_needs_network() -> None:
    """Ruling 14: an industry card allows that industry only in the player's network."""
    pos = blank(2)
    link(pos, "birmingham--dudley", 0)  # network: Birmingham, Dudley
    tile(pos, "dudley.0", 1, "coal", 1)  # 2 coal, any owner's
    player(pos, 0, hand={"iron": 1})
    g = game(pos)
    do(g, "type:build", "card:iron", "industry:iron")
    assert legal(g) == {"slot:birmingham.2", "slot:dudley.1"}
    for far in ("slot:coalbrookdale.1", "slot:redditch.1", "slot:derby.2"):
        assert reason(g, far) == "NOT_IN_NETWORK"
    refused(g, "slot:coalbrookdale.1", "NOT_IN_NETWORK")
    do(g, "slot:dudley.1", "slot:dudley.0")  # coal from the mine in the same town
    # iron works I: £5; its 4 iron fill the two empty £1 market slots (ruling 12)
    assert slot(g, "dudley.1")["cubes"] == 2
    assert ps(g, 0)["money"] == 17 - 5 + 2
    assert g.position()["markets"]["iron"] == 10


def test_ruling_03_industry_card_anywhere_without_presence() -> None:
    """Ruling 3 / rulebook 'no tiles on the board': with nothing on the board an industry
    card builds on any slot showing that industry; coal must still be reachable."""
    pos = blank(2)
    tile(pos, "coalbrookdale.2", 1, "coal", 1)
    player(pos, 0, hand={"iron": 1})
    g = game(pos)
    do(g, "type:build", "card:iron", "industry:iron")
    assert legal(g) == {"slot:coalbrookdale.1"}
    assert reason(g, "slot:coalbrookdale.0") == "SINGLE_ICON_SLOT_FIRST"
    assert reason(g, "slot:birmingham.2") == "NO_CONNECTED_COAL"


@pytest.mark.parametrize("industry, ok", [
    ("cotton", True), ("manufacturer", True), ("iron", False), ("coal", False),
    ("pottery", False), ("brewery", False)])
def test_ruling_14_dual_card_allows_cotton_or_manufacturer(industry: str, ok: bool) -> None:
    """Ruling 14: the cotton/manufacturer card allows either of those two industries."""
    pos = blank(3)
    link(pos, "birmingham--oxford", 0)
    player(pos, 0, hand={"cotton_manufacturer": 1})
    g = game(pos)
    do(g, "type:build", "card:cotton_manufacturer")
    if ok:
        assert f"industry:{industry}" in legal(g)
    else:
        assert reason(g, f"industry:{industry}") == "CARD_DOES_NOT_ALLOW"


def test_ruling_14_single_icon_slot_first() -> None:
    """Ruling 14: use a slot showing only that industry if one is free, else a two-icon one."""
    pos = blank(2)
    link(pos, "birmingham--oxford", 1)  # coal market access for manufacturer I
    player(pos, 0, hand={"birmingham": 1})
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:manufacturer")
    assert legal(g) == {"slot:birmingham.1", "slot:birmingham.3"}
    refused(g, "slot:birmingham.0", "SINGLE_ICON_SLOT_FIRST")
    # both single-icon slots taken: the cotton/manufacturer slot may be used
    tile(pos, "birmingham.1", 1, "manufacturer", 1)
    tile(pos, "birmingham.3", 1, "manufacturer", 2)
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:manufacturer")
    assert legal(g) == {"slot:birmingham.0"}


def test_ruling_14_canal_one_tile_per_town_even_with_location_card() -> None:
    """Ruling 14: in the Canal Era at most one of your tiles per town (location cards too)."""
    pos = blank(2)
    link(pos, "birmingham--oxford", 1)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "birmingham.2", 1, "iron", 1, flipped=True)  # another player's tile is fine
    player(pos, 0, hand={"birmingham": 1})
    g = game(pos)
    assert reason(g, "type:build") == "CANAL_ONE_TILE_PER_TOWN"
    # P0's manufacturer I in Coventry: overbuilding it is allowed, a second tile is not
    pos = blank(2)
    tile(pos, "coventry.1", 0, "manufacturer", 1)
    player(pos, 0, mat={"manufacturer": 1})
    g = game(at_build_slot(pos, "coventry", "manufacturer"))
    assert legal(g) == {"slot:coventry.1"}
    assert reason(g, "slot:coventry.2") == "CANAL_ONE_TILE_PER_TOWN"


def test_ruling_14_refusal_names_what_blocks_the_slot_the_build_would_use() -> None:
    """Ruling 14 (canal: one own tile per town; a single-icon slot is used first). With P0's
    coal mine in Coalbrookdale, an iron works there would go on the iron-only slot .1, which
    the one-tile rule blocks: that is the reason of the industry, not "single-icon slot
    first" (the two-icon slot .0's own refusal). The card and the action type, with no build
    left, give the reason of their best candidate too (issue 10 F)."""
    pos = blank(2)
    tile(pos, "coalbrookdale.2", 0, "coal", 1)
    player(pos, 0, hand={"coalbrookdale": 1})
    g = game(pos)
    do(g, "type:build", "card:coalbrookdale")
    assert legal(g) == {"industry:coal"}  # overbuilding the own mine is allowed
    assert reason(g, "industry:iron") == "CANAL_ONE_TILE_PER_TOWN"
    assert reason(g, "industry:brewery") == "CANAL_ONE_TILE_PER_TOWN"
    # the mine is a coal II, the next coal tile on the mat a II too: no build is left
    pos = blank(2)
    tile(pos, "coalbrookdale.2", 0, "coal", 2)
    player(pos, 0, hand={"coalbrookdale": 1}, mat={"coal": 2})
    g = game(pos)
    assert reason(g, "type:build") == "CANAL_ONE_TILE_PER_TOWN"
    refused(g, "type:build", "CANAL_ONE_TILE_PER_TOWN")


def test_ruling_14_card_reason_is_its_best_candidates() -> None:
    """Ruling 14 and the costs of ruling 13, canal era, £5, nothing connected to coal: the
    Walsall card's slots are blocked by P0's brewery there (overbuilding it with the next
    brewery, another level I, is no upgrade), so it is refused for the one-tile rule; the
    Birmingham card's best candidate is cotton I (£12, no coal), refused for money
    (manufacturer I and iron works I stop earlier, at coal); the Dudley card builds coal I
    (£5)."""
    pos = blank(2)
    tile(pos, "walsall.1", 0, "brewery", 1, flipped=True)
    player(pos, 0, hand={"walsall": 1, "birmingham": 1, "dudley": 1}, money=5)
    g = game(pos)
    do(g, "type:build")
    assert legal(g) == {"card:dudley"}
    assert reason(g, "card:walsall") == "CANAL_ONE_TILE_PER_TOWN"
    assert reason(g, "card:birmingham") == "NOT_ENOUGH_MONEY"


def test_ruling_14_rail_era_several_tiles_per_town() -> None:
    """Ruling 14 (and rulebook 'Rail Era builds'): several own tiles in one town are fine."""
    pos = blank(2, era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 2)
    player(pos, 0, hand={"birmingham": 1}, mat={"manufacturer": 1})  # next: manufacturer II
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:manufacturer", "slot:birmingham.1",
       "market")
    # manufacturer II: £10 + 1 iron; no iron works, so the market's cheapest iron, £2
    assert slot(g, "birmingham.1")["level"] == 2
    assert ps(g, 0)["money"] == 17 - 10 - 2
    assert g.position()["markets"]["iron"] == 7


def test_ruling_14_lowest_tile_respects_era_marks() -> None:
    """Ruling 14: always the lowest level left on the mat, respecting its era marks."""
    # cotton I and iron works I are canal-only: in the Rail Era they must be developed away
    pos = blank(2, era="rail")
    player(pos, 0, hand={"birmingham": 1}, mat={"manufacturer": 1})
    g = game(pos)
    do(g, "type:build", "card:birmingham")
    assert legal(g) == {"industry:manufacturer"}
    assert reason(g, "industry:cotton") == "TILE_WRONG_ERA"
    assert reason(g, "industry:iron") == "TILE_WRONG_ERA"
    # brewery IV is rail-only
    pos = blank(2)
    player(pos, 0, hand={"burton_on_trent": 1}, mat={"brewery": 6})
    g = game(pos)
    do(g, "type:build", "card:burton_on_trent")
    assert reason(g, "industry:brewery") == "TILE_WRONG_ERA"
    # pottery I carries no canal-only mark (tutorial tile table: both eras)
    pos = blank(2, era="rail")
    player(pos, 0, hand={"stafford": 1}, money=20)
    g = game(pos)
    do(g, "type:build", "card:stafford", "industry:pottery", "slot:stafford.1", "market")
    assert slot(g, "stafford.1")["level"] == 1
    assert ps(g, 0)["money"] == 20 - 17 - 2  # £17 + the market's cheapest iron, £2
    # three cotton I gone from the mat: the next cotton built is level II
    pos = blank(2)
    link(pos, "birmingham--oxford", 1)
    player(pos, 0, hand={"birmingham": 1}, mat={"cotton": 3})
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0", "market")
    assert slot(g, "birmingham.0")["level"] == 2
    assert ps(g, 0)["mat_taken"]["cotton"] == 4


# ---------------------------------------------------------------- ruling 4: manufacturer IV


@pytest.mark.parametrize("cost", [8, 14])
def test_ruling_04_manufacturer_iv_cost_option(cost: int) -> None:
    """Ruling 4: Manufacturer IV costs £8 (default) or £14 (option), +6 income spaces."""
    pos = blank(2, manufacturer_iv_cost=cost)
    tile(pos, "coalbrookdale.1", 1, "iron", 1, cubes=2)
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=1)  # canal era: 1 barrel (ruling 5)
    link(pos, "birmingham--oxford", 1)
    merchant(pos, "oxford.1", ["manufacturer"], beer=0)
    player(pos, 0, hand={"birmingham": 1, "coventry": 1}, mat={"manufacturer": 4}, money=20)
    player(pos, 1, hand={"coal": 1})
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:manufacturer", "slot:birmingham.1")
    assert legal(g) == {"slot:coalbrookdale.1"}  # iron from a works, not the market
    refused(g, "market", "WORKS_IRON_FIRST")
    do(g, "slot:coalbrookdale.1")
    assert slot(g, "birmingham.1") == {"owner": 0, "industry": "manufacturer", "level": 4,
                                      "flipped": False, "cubes": 0}
    assert ps(g, 0)["money"] == 20 - cost  # its iron comes free from the iron works
    assert slot(g, "coalbrookdale.1")["cubes"] == 1
    do(g, "type:sell", "card:coventry", "slot:birmingham.1", "merchant:oxford.1",
       "slot:stafford.0", "done")
    assert slot(g, "birmingham.1")["flipped"]
    # manufacturer IV +6 spaces; the brewery II gave its last barrel and flips too (+5)
    assert slot(g, "stafford.0")["flipped"]
    assert ps(g, 0)["income_space"] == 10 + 6 + 5


def test_ruling_04_manufacturer_iv_option_values() -> None:
    """Ruling 4: the option is £8 or £14; anything else is refused."""
    assert brass.Game.new(2, 1).position()["options"]["manufacturer_iv_cost"] == 8
    g = brass.Game.new(2, 1, manufacturer_iv_cost=14)
    assert g.position()["options"]["manufacturer_iv_cost"] == 14
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.new(2, 1, manufacturer_iv_cost=10)
    assert exc.value.code == "INVALID_ARGUMENT"
    pos = blank(2, manufacturer_iv_cost=8)
    pos["options"]["manufacturer_iv_cost"] = 9
    with pytest.raises(brass.EngineError) as exc:
        game(pos)
    assert exc.value.code == "BAD_POSITION"


# ---------------------------------------------------------------- ruling 5: breweries


@pytest.mark.parametrize("era, mat, level, barrels", [
    ("canal", 0, 1, 1), ("canal", 2, 2, 1), ("canal", 4, 3, 1),
    ("rail", 2, 2, 2), ("rail", 4, 3, 2), ("rail", 6, 4, 2)])
def test_ruling_05_brewery_barrels_by_era(era: str, mat: int, level: int, barrels: int) -> None:
    """Ruling 5: a brewery gets 1 barrel when built in the Canal Era, 2 in the Rail Era,
    whatever its level."""
    pos = blank(2, era=era)
    player(pos, 0, hand={"burton_on_trent": 1}, mat={"brewery": mat}, money=20)
    g = game(pos)
    do(g, "type:build", "card:burton_on_trent", "industry:brewery", "slot:burton_on_trent.1",
       "market")
    assert slot(g, "burton_on_trent.1") == {"owner": 0, "industry": "brewery", "level": level,
                                           "flipped": False, "cubes": barrels}


# ---------------------------------------------------------------- ruling 12: market sales


def test_ruling_12_connected_coal_mine_sells_most_expensive_first_and_flips() -> None:
    """Ruling 12: a new coal mine connected to a merchant location fills the empty market
    slots, most expensive first, earning each price; emptied, it flips now."""
    pos = blank(2, coal_market=11)  # empty slots: £1, £1, £2
    link(pos, "oxford--redditch", 1)
    player(pos, 0, hand={"redditch": 1})
    g = game(pos)
    ev = do(g, "type:build", "card:redditch", "industry:coal", "slot:redditch.0")
    assert events_of(ev, "market_sale") == [
        {"type": "market_sale", "seat": 0, "slot": "redditch.0", "cubes": 2, "money": 3}]
    assert slot(g, "redditch.0")["flipped"] and slot(g, "redditch.0")["cubes"] == 0
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["income_space"]) == (17 - 5 + 3, 5, 10 + 4)
    assert g.position()["markets"]["coal"] == 13


def test_ruling_12_unconnected_coal_mine_keeps_its_coal() -> None:
    """Ruling 12: only a coal mine connected to a merchant location sells to the market."""
    pos = blank(2, coal_market=11)
    player(pos, 0, hand={"redditch": 1})
    g = game(pos)
    ev = do(g, "type:build", "card:redditch", "industry:coal", "slot:redditch.0")
    assert not events_of(ev, "market_sale")
    assert slot(g, "redditch.0")["cubes"] == 2
    assert ps(g, 0)["money"] == 12
    assert g.position()["markets"]["coal"] == 11


def test_ruling_12_blank_merchant_location_still_connects() -> None:
    """Ruling 12 (rulebook 'even without a merchant tile'): a merchant location with a blank
    tile still connects a new coal mine to the market."""
    pos = blank(2)  # Shrewsbury's tile is blank; the market lacks one £1 cube
    link(pos, "coalbrookdale--shrewsbury", 1)
    player(pos, 0, hand={"coalbrookdale": 1})
    g = game(pos)
    do(g, "type:build", "card:coalbrookdale", "industry:coal", "slot:coalbrookdale.2")
    assert slot(g, "coalbrookdale.2")["cubes"] == 1
    assert ps(g, 0)["money"] == 17 - 5 + 1
    assert g.position()["markets"]["coal"] == 14


@pytest.mark.parametrize("market, sold, earned, left", [(7, 3, 4, 1), (6, 4, 6, 0), (10, 0, 0, 4)])
def test_ruling_12_new_iron_works_always_sells(market: int, sold: int, earned: int,
                                              left: int) -> None:
    """Ruling 12 / tutorial: iron works I with the £2, £1, £1 slots empty sells 3 iron for
    £4 and keeps 1; with 4 empty slots it sells all 4 and flips (+3 income spaces). No
    connection is needed."""
    pos = blank(2, iron_market=market)
    tile(pos, "coalbrookdale.2", 1, "coal", 1)
    player(pos, 0, hand={"coalbrookdale": 1})
    g = game(pos)
    do(g, "type:build", "card:coalbrookdale", "industry:iron", "slot:coalbrookdale.1",
       "slot:coalbrookdale.2")
    t = slot(g, "coalbrookdale.1")
    assert (t["cubes"], t["flipped"]) == (left, left == 0)
    me = ps(g, 0)
    assert me["money"] == 17 - 5 + earned
    assert me["spent"] == 5  # market income does not offset spending
    assert me["income_space"] == 10 + (3 if left == 0 else 0)
    assert g.position()["markets"]["iron"] == market + sold


def test_ruling_12_market_sale_only_during_the_build() -> None:
    """Ruling 12: cubes go to the market only during the build action itself; a slot that
    empties later is not refilled from the mine."""
    pos = blank(2, coal_market=14)
    link(pos, "oxford--redditch", 1)
    link(pos, "coalbrookdale--shrewsbury", 1)
    player(pos, 0, hand={"redditch": 1, "coalbrookdale": 1})
    player(pos, 1, hand={"coal": 1})
    g = game(pos)
    do(g, "type:build", "card:redditch", "industry:coal", "slot:redditch.0")
    assert slot(g, "redditch.0")["cubes"] == 2  # market full: nothing sold
    # second action: iron works at Coalbrookdale buys the cheapest market coal (£1)
    do(g, "type:build", "card:coalbrookdale", "industry:iron", "slot:coalbrookdale.1")
    assert legal(g) == {"market"}
    do(g, "market")
    assert g.position()["markets"]["coal"] == 13
    assert slot(g, "redditch.0")["cubes"] == 2
    assert ps(g, 0)["money"] == 17 - 5 - 5 - 1 + 2


# ---------------------------------------------------------------- ruling 13: overbuilding


def test_ruling_13_overbuild_own_tile_higher_level() -> None:
    """Ruling 13: your own tile of the same industry, any type, with a higher level; full
    cost; the old tile leaves with no loss of VP or income."""
    pos = blank(2)
    link(pos, "birmingham--oxford", 1)
    tile(pos, "birmingham.0", 0, "cotton", 1, flipped=True)
    player(pos, 0, hand={"birmingham": 1}, mat={"cotton": 3}, income_space=15, vp=3)
    g = game(pos)
    ev = do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0", "market")
    assert events_of(ev, "overbuild") == [{"type": "overbuild", "seat": 0, "slot": "birmingham.0",
                                           "previous_owner": 0, "previous_level": 1}]
    assert slot(g, "birmingham.0") == {"owner": 0, "industry": "cotton", "level": 2,
                                      "flipped": False, "cubes": 0}
    me = ps(g, 0)
    assert (me["money"], me["income_space"], me["vp"]) == (17 - 14 - 1, 15, 3)


def test_ruling_13_overbuild_needs_higher_level_and_same_industry() -> None:
    """Ruling 13: your own tile of the same level is refused; another industry's tile is
    refused."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    link(pos, "birmingham--worcester", 0)
    player(pos, 0, hand={"wild_industry": 1}, mat={"cotton": 1})
    pos["wild_piles"]["industry"] = 3
    g = game(pos)
    do(g, "type:build", "card:wild_industry", "industry:cotton")
    assert legal(g) == {"slot:worcester.0", "slot:worcester.1"}
    refused(g, "slot:birmingham.0", "CANNOT_OVERBUILD")
    pos = blank(2)
    tile(pos, "birmingham.0", 1, "cotton", 1)
    link(pos, "birmingham--oxford", 1)
    player(pos, 0, hand={"birmingham": 1})
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:manufacturer")
    assert legal(g) == {"slot:birmingham.1", "slot:birmingham.3"}
    refused(g, "slot:birmingham.0", "SLOT_OCCUPIED")


def test_ruling_13_opponent_cotton_never() -> None:
    """Ruling 13: an opponent's tile may be overbuilt only for coal or iron (not cotton)."""
    pos = blank(2, coal_market=0, iron_market=0)
    tile(pos, "birmingham.0", 1, "cotton", 1, flipped=True)
    link(pos, "birmingham--worcester", 0)
    link(pos, "birmingham--oxford", 1)
    player(pos, 0, hand={"wild_industry": 1}, mat={"cotton": 3}, money=40)
    pos["wild_piles"]["industry"] = 3
    g = game(pos)
    do(g, "type:build", "card:wild_industry", "industry:cotton")
    assert legal(g) == {"slot:worcester.0", "slot:worcester.1"}
    refused(g, "slot:birmingham.0", "CANNOT_OVERBUILD")


def test_ruling_13_opponent_brewery_never() -> None:
    """Ruling 13: an opponent's brewery can never be overbuilt."""
    pos = blank(2, iron_market=0)
    tile(pos, "burton_on_trent.1", 1, "brewery", 1, flipped=True)
    link(pos, "burton_on_trent--derby", 0)
    player(pos, 0, hand={"brewery": 1}, mat={"brewery": 3}, money=40)
    g = game(pos)
    do(g, "type:build", "card:brewery", "industry:brewery")
    assert legal(g) == {"slot:derby.0"}
    refused(g, "slot:burton_on_trent.1", "CANNOT_OVERBUILD")


def test_ruling_13_opponent_coal_mine_when_no_coal_anywhere() -> None:
    """Ruling 13: an opponent's coal mine only when no coal cube is on the whole board and
    none in the coal market; full cost; its owner keeps income and VP."""
    def position(coal_market: int, other_coal: bool) -> dict:
        pos = blank(2, coal_market=coal_market)
        tile(pos, "dudley.0", 1, "coal", 1, flipped=True)
        if other_coal:
            tile(pos, "cannock.1", 1, "coal", 2, cubes=1)  # not even connected
        link(pos, "dudley--kidderminster", 0)
        player(pos, 1, income_space=14, vp=7)
        player(pos, 0, hand={"coal": 1}, mat={"coal": 1})  # next: coal II, £7
        return pos

    g = game(position(0, False))
    do(g, "type:build", "card:coal", "industry:coal")
    assert legal(g) == {"slot:dudley.0", "slot:kidderminster.0"}
    ev = do(g, "slot:dudley.0")
    assert events_of(ev, "overbuild")[0]["previous_owner"] == 1
    assert slot(g, "dudley.0") == {"owner": 0, "industry": "coal", "level": 2,
                                  "flipped": False, "cubes": 3}
    assert ps(g, 0)["money"] == 10
    assert (ps(g, 1)["income_space"], ps(g, 1)["vp"]) == (14, 7)
    for coal_market, other_coal in ((1, False), (0, True)):
        g = game(position(coal_market, other_coal))
        do(g, "type:build", "card:coal", "industry:coal")
        assert legal(g) == {"slot:kidderminster.0"}
        refused(g, "slot:dudley.0", "CANNOT_OVERBUILD")


def test_ruling_13_opponent_iron_works_when_no_iron_anywhere() -> None:
    """Ruling 13: an opponent's iron works when there is no iron on the board or market;
    full cost (£7 + 1 coal); the new works then sells to the empty market (ruling 12)."""
    def position(iron_market: int) -> dict:
        pos = blank(2, iron_market=iron_market)
        tile(pos, "dudley.1", 1, "iron", 1, flipped=True)
        tile(pos, "dudley.0", 1, "coal", 2)
        link(pos, "birmingham--dudley", 0)
        player(pos, 0, hand={"iron": 1}, mat={"iron": 1})
        return pos

    g = game(position(0))
    do(g, "type:build", "card:iron", "industry:iron")
    assert legal(g) == {"slot:dudley.1", "slot:birmingham.2"}
    do(g, "slot:dudley.1", "slot:dudley.0")
    t = slot(g, "dudley.1")
    assert (t["owner"], t["level"], t["cubes"], t["flipped"]) == (0, 2, 0, True)
    assert slot(g, "dudley.0")["cubes"] == 2
    # 4 iron into the four dearest slots: £5 + £5 + £4 + £4; emptied, it flips (+3 spaces)
    assert ps(g, 0)["money"] == 17 - 7 + 18
    assert ps(g, 0)["income_space"] == 10 + 3
    assert g.position()["markets"]["iron"] == 4
    g = game(position(1))
    do(g, "type:build", "card:iron", "industry:iron")
    assert legal(g) == {"slot:birmingham.2"}
    refused(g, "slot:dudley.1", "CANNOT_OVERBUILD")
