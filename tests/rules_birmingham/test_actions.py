"""Develop (ruling 15), loan (ruling 17), scout and wild cards (ruling 6)."""

from __future__ import annotations

import pytest

from .positions import (
    blank,
    do,
    events_of,
    game,
    legal,
    level,
    link,
    player,
    ps,
    reason,
    refused,
    slot,
)

# ---------------------------------------------------------------- ruling 15: develop


def test_ruling_15_develop_two_tiles_each_the_lowest_when_removed() -> None:
    """Ruling 15: develop removes 1 or 2 tiles, each the lowest of its industry at the time
    it is removed, paying 1 iron each."""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1, "dudley": 1}, mat={"cotton": 2})  # one cotton I left
    g = game(pos)
    ev = do(g, "type:develop", "card:coventry", "industry:cotton")
    assert g.decision == "iron" and legal(g) == {"market"}
    ev += do(g, "market")
    assert g.decision == "develop"
    assert {"done", "industry:cotton", "industry:coal"} <= legal(g)
    ev += do(g, "industry:cotton", "market")
    assert [(e["industry"], e["level"]) for e in events_of(ev, "develop")] == [
        ("cotton", 1), ("cotton", 2)]
    assert [e["price"] for e in events_of(ev, "iron")] == [2, 2]
    me = ps(g, 0)
    assert (me["mat_taken"]["cotton"], me["money"], me["spent"]) == (4, 13, 4)
    assert g.position()["markets"]["iron"] == 6
    assert (g.decision, g.position()["actions_left"]) == ("action", 1)


def test_ruling_15_develop_one_tile_then_stop() -> None:
    """Ruling 15: one tile is enough ('done' after the first)."""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    do(g, "type:develop", "card:coventry")
    refused(g, "done", "MUST_CHOOSE")
    do(g, "industry:coal", "market", "done")
    me = ps(g, 0)
    assert (me["mat_taken"]["coal"], me["money"]) == (1, 15)
    assert g.position()["actions_left"] == 1


@pytest.mark.parametrize("taken, ok", [(0, False), (1, True), (2, False), (3, True)])
def test_ruling_15_lightbulb_potteries_never_developed(taken: int, ok: bool) -> None:
    """Ruling 15: lightbulb potteries (I and III) can never be developed."""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, mat={"pottery": taken})
    g = game(pos)
    do(g, "type:develop", "card:coventry")
    if ok:
        assert "industry:pottery" in legal(g)
    else:
        refused(g, "industry:pottery", "LIGHTBULB_POTTERY")


def test_ruling_15_develop_needs_iron_and_tiles() -> None:
    """Ruling 15: no money for the market's iron, no develop; nothing left, nothing to do."""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, money=1)  # cheapest market iron is £2
    assert reason(game(pos), "type:develop") == "NOT_ENOUGH_MONEY"
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, mat={"iron": 4})
    g = game(pos)
    do(g, "type:develop", "card:coventry")
    refused(g, "industry:iron", "NO_TILES_LEFT")


def test_ruling_15_develop_refusal_is_the_best_candidates() -> None:
    """Ruling 15, with every cotton tile gone from P0's mat and £1 (market iron costs £2):
    the action is refused for money, the reason of the industries that got furthest, not
    for the first industry's "no tiles left" (issue 10 F)."""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, money=1, mat={"cotton": 11})
    g = game(pos)
    assert reason(g, "type:develop") == "NOT_ENOUGH_MONEY"
    refused(g, "type:develop", "NOT_ENOUGH_MONEY")


# ---------------------------------------------------------------- ruling 17: loan


@pytest.mark.parametrize("space, new_space", [
    (10, 7), (12, 8), (19, 14), (34, 28), (3, 0), (99, 88)])
def test_ruling_17_loan_three_levels_to_top_space(space: int, new_space: int) -> None:
    """Ruling 17: a loan gives £30 and moves income down 3 levels, onto the highest space of
    the new level; the money is not spending."""
    assert level(new_space) == level(space) - 3 and level(new_space + 1) != level(new_space)
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1, "dudley": 1}, income_space=space)
    g = game(pos)
    ev = do(g, "type:loan", "card:coventry")
    assert events_of(ev, "loan") == [{"type": "loan", "seat": 0, "income_space": new_space}]
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["income_space"]) == (47, 0, new_space)
    assert me["income_level"] == level(new_space)
    assert g.position()["discards"] == {"coventry": 1}


@pytest.mark.parametrize("space", [0, 1, 2])
def test_ruling_17_loan_not_below_level_minus_10(space: int) -> None:
    """Ruling 17: no loan that would take income below level -10."""
    pos = blank(2)
    player(pos, 0, hand={"coventry": 1}, income_space=space)
    assert reason(game(pos), "type:loan") == "LOAN_LIMIT"


# ---------------------------------------------------------------- ruling 6: wild cards


def test_ruling_06_scout_discards_three_takes_one_of_each_wild() -> None:
    """Ruling 6: Scout discards 3 cards (the action's and 2 more) and takes one wild
    location and one wild industry card from their piles."""
    pos = blank(2)
    player(pos, 0, hand={"dudley": 1, "birmingham": 1, "coventry": 2, "iron": 1})
    g = game(pos)
    ev = do(g, "type:scout", "card:dudley", "card:birmingham", "card:coventry")
    assert events_of(ev, "scout")
    me = ps(g, 0)
    assert me["hand"] == {"coventry": 1, "iron": 1, "wild_location": 1, "wild_industry": 1}
    assert me["hand_size"] == 4
    p = g.position()
    assert p["wild_piles"] == {"location": 3, "industry": 3}
    assert p["discards"] == {"dudley": 1, "birmingham": 1, "coventry": 1}
    assert p["actions_left"] == 1


def test_ruling_06_no_scout_while_holding_a_wild_card() -> None:
    """Ruling 6: Scout is not allowed while holding any wild card; it needs 3 cards."""
    for wild in ("wild_location", "wild_industry"):
        pos = blank(2)
        player(pos, 0, hand={"dudley": 1, "birmingham": 1, "coventry": 1, wild: 1})
        pos["wild_piles"] = {"location": 4, "industry": 4} | {wild.split("_")[1]: 3}
        assert reason(game(pos), "type:scout") == "HOLDING_WILD_CARD"
    pos = blank(2)
    player(pos, 0, hand={"dudley": 1, "birmingham": 1})
    assert reason(game(pos), "type:scout") == "NOT_ENOUGH_CARDS"


def test_ruling_06_used_wild_cards_go_back_to_their_piles() -> None:
    """Ruling 6: a used wild card goes back to its pile, never to a discard pile."""
    pos = blank(2)
    player(pos, 0, hand={"wild_location": 1, "wild_industry": 1}, money=20)
    pos["wild_piles"] = {"location": 3, "industry": 3}
    g = game(pos)
    do(g, "type:build", "card:wild_location", "industry:cotton", "slot:birmingham.0")
    assert slot(g, "birmingham.0")["owner"] == 0
    assert g.position()["wild_piles"] == {"location": 4, "industry": 3}
    do(g, "type:network", "card:wild_industry", "link:birmingham--oxford")
    p = g.position()
    assert p["wild_piles"] == {"location": 4, "industry": 4}
    assert p["discards"] == {}
    assert p["player_state"][0]["last_discard"] is None


def test_ruling_06_wild_location_any_town_wild_industry_in_network_farms() -> None:
    """Ruling 6 and 14: a wild location card is any location card (so never a farm
    brewery); a wild industry card is any industry card (so in the network, farms too).
    The Kidderminster-Worcester link also reaches the southern farm brewery."""
    pos = blank(2)
    link(pos, "kidderminster--worcester", 0)
    player(pos, 0, hand={"wild_location": 1, "wild_industry": 1})
    pos["wild_piles"] = {"location": 3, "industry": 3}
    g = game(pos)
    do(g, "type:build", "card:wild_location", "industry:brewery")
    assert {"slot:burton_on_trent.1", "slot:walsall.1"} <= legal(g)
    refused(g, "slot:farm_brewery_south.0", "FARM_NEEDS_INDUSTRY_CARD")
    g = game(pos)
    do(g, "type:build", "card:wild_industry", "industry:brewery")
    assert legal(g) == {"slot:farm_brewery_south.0"}
    assert reason(g, "slot:burton_on_trent.1") == "NOT_IN_NETWORK"
    do(g, "slot:farm_brewery_south.0", "market")
    assert slot(g, "farm_brewery_south.0") == {"owner": 0, "industry": "brewery", "level": 1,
                                              "flipped": False, "cubes": 1}
    assert g.position()["wild_piles"]["industry"] == 4
