"""Round end (ruling 18): turn order by spending, income, refills, shortfall."""

from __future__ import annotations

import pytest

from .positions import blank, do, events_of, game, legal, level, link, player, ps, refused, tile


def test_ruling_18_turn_order_by_spending_then_income() -> None:
    """Ruling 18: at round end, turn order by money spent this round, ascending; then each
    player collects or pays their income level (in the new order). A loan is no spending."""
    pos = blank(3, round_=3, current=2, actions_left=1, deck=["birmingham"])
    player(pos, 0, spent=10, money=5, income_space=15)  # level 3
    player(pos, 1, spent=4, money=5, income_space=8)  # level -2
    player(pos, 2, hand={"coventry": 1, "dudley": 1})
    g = game(pos)
    ev = do(g, "type:loan", "card:coventry")
    assert events_of(ev, "round_end") == [{"type": "round_end", "seat": None, "round": 3}]
    assert events_of(ev, "turn_order")[0]["order"] == [2, 1, 0]
    assert [(e["seat"], e["money"]) for e in events_of(ev, "income")] == [
        (2, -3), (1, -2), (0, 3)]
    p = g.position()
    assert (p["round"], p["turn_order"], p["current"], p["actions_left"]) == (4, [2, 1, 0], 2, 2)
    assert [s["money"] for s in p["player_state"]] == [8, 3, 17 + 30 - 3]
    assert [s["spent"] for s in p["player_state"]] == [0, 0, 0]
    # P2's hand was refilled from what the deck had (1 card), not to 8
    assert p["player_state"][2]["hand"] == {"dudley": 1, "birmingham": 1}
    assert p["deck"] == []


def test_ruling_18_equal_spending_keeps_relative_order() -> None:
    """Ruling 18: ties keep their order."""
    pos = blank(3, round_=3, turn_order=[1, 0, 2], current=2, actions_left=1,
                deck=["birmingham"])
    player(pos, 1, spent=5)
    player(pos, 0, spent=5)
    player(pos, 2, hand={"coventry": 1})
    g = game(pos)
    ev = do(g, "type:network", "card:coventry", "link:birmingham--oxford")  # £3
    assert events_of(ev, "turn_order")[0]["order"] == [2, 1, 0]


def test_ruling_18_market_income_does_not_offset_spending() -> None:
    """Ruling 18 / tutorial Q&A: A spends £10 and earns £6 selling iron to the market, B
    spends £8: B still goes first; A at level 3 collects £3, B at space 8 pays £2."""
    pos = blank(2, round_=3, turn_order=[1, 0], current=0, actions_left=1,
                deck=["birmingham"], iron_market=6)
    tile(pos, "coalbrookdale.2", 1, "coal", 1)
    player(pos, 0, hand={"coalbrookdale": 1}, spent=5, income_space=12)
    player(pos, 1, spent=8, money=10, income_space=8)
    g = game(pos)
    do(g, "type:build", "card:coalbrookdale", "industry:iron", "slot:coalbrookdale.1",
       "slot:coalbrookdale.2")
    p = g.position()
    assert p["turn_order"] == [1, 0]
    # the iron works sold all 4 iron (£6) and flipped: +3 spaces, 12 -> 15 (level 3)
    assert p["player_state"][0]["income_space"] == 15
    assert p["player_state"][0]["money"] == 17 - 5 + 6 + 3
    assert p["player_state"][1]["money"] == 10 - 2


def test_ruling_18_income_rises_by_spaces_capped_at_level_30() -> None:
    """Ruling 18: income rises by track spaces, level 30 (the last space) is the cap."""
    pos = blank(2)
    tile(pos, "birmingham.0", 0, "cotton", 1)
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=1)
    link(pos, "birmingham--oxford", 1)
    pos["merchants"]["oxford.0"] = {"goods": ["cotton"], "beer": 1}
    player(pos, 0, hand={"coventry": 1}, income_space=96)
    g = game(pos)
    do(g, "type:sell", "card:coventry", "slot:birmingham.0", "merchant:oxford.0",
       "merchant:oxford.0", "done")
    assert (ps(g, 0)["income_space"], ps(g, 0)["income_level"]) == (99, 30)


def test_ruling_18_income_levels_follow_the_printed_track() -> None:
    """Ruling 18 / tutorial: spaces 0-10 are levels -10..0, then 2, 3 and 4 spaces a level
    (spaces 25-26 are level 8, 31-33 level 11), 97-99 level 30."""
    expected = {10: 0, 15: 3, 25: 8, 26: 8, 31: 11, 33: 11, 8: -2, 0: -10, 99: 30, 60: 20,
                61: 21, 96: 29, 97: 30}
    for space, lv in expected.items():
        assert level(space) == lv
    for space in range(100):
        pos = blank(2)
        player(pos, 0, income_space=space, hand={"coventry": 1})
        assert ps(game(pos), 0)["income_level"] == level(space), space


def _shortfall_position(money: int, tiles: list[tuple[str, str, int]], vp: int = 5,
                        mfr_cost: int = 8) -> dict:
    """P0 at income level -3 with `money`; P1 ends the round with a pass."""
    pos = blank(2, round_=3, current=1, actions_left=1, deck=["birmingham"],
                manufacturer_iv_cost=mfr_cost)
    player(pos, 0, money=money, income_space=7, vp=vp)
    for where, industry, lv in tiles:
        tile(pos, where, 0, industry, lv)
    tile(pos, "coventry.0", 1, "pottery", 1)
    player(pos, 1, hand={"coventry": 1})
    return pos


def test_ruling_18_shortfall_sells_own_tiles_for_half_cost() -> None:
    """Ruling 18: a player who cannot pay removes own industry tiles of their choice for
    half their build cost (rounded down) until they can, keeping the rest."""
    pos = _shortfall_position(1, [("birmingham.0", "cotton", 1), ("dudley.0", "coal", 1)])
    g = game(pos)
    do(g, "type:pass", "card:coventry")
    assert (g.decision, g.current_seat) == ("shortfall", 0)
    assert legal(g) == {"slot:birmingham.0", "slot:dudley.0"}
    refused(g, "slot:coventry.0", "NOT_YOUR_TILE")
    refused(g, "slot:walsall.0", "NO_TILE_HERE")
    ev = do(g, "slot:dudley.0")  # coal mine I: £5 -> £2
    assert events_of(ev, "shortfall_remove")[0]["money"] == 2
    p = g.position()
    assert (p["decision"], p["round"]) == ("action", 4)
    assert "dudley.0" not in p["slots"] and p["slots"]["birmingham.0"]["owner"] == 0
    assert (p["player_state"][0]["money"], p["player_state"][0]["vp"]) == (0, 5)
    g = game(pos)
    do(g, "type:pass", "card:coventry", "slot:birmingham.0")  # cotton I: £12 -> £6
    p = g.position()
    assert "dudley.0" in p["slots"] and "birmingham.0" not in p["slots"]
    assert p["player_state"][0]["money"] == 1 + 6 - 3


def test_ruling_18_shortfall_then_vp_loss() -> None:
    """Ruling 18: still short with no tile left: 1 VP per £ missing, VP never below 0."""
    g = game(_shortfall_position(0, [("dudley.0", "coal", 1)], vp=5))
    ev = do(g, "type:pass", "card:coventry", "slot:dudley.0")
    assert events_of(ev, "vp_loss")[0]["vp"] == 1
    assert (ps(g, 0)["money"], ps(g, 0)["vp"]) == (0, 4)
    g = game(_shortfall_position(1, [], vp=1))
    do(g, "type:pass", "card:coventry")
    assert g.decision == "action"
    assert (ps(g, 0)["money"], ps(g, 0)["vp"]) == (0, 0)


@pytest.mark.parametrize("cost", [8, 14])
def test_ruling_18_shortfall_half_of_manufacturer_iv_option(cost: int) -> None:
    """Rulings 4 and 18: the half-cost refund of manufacturer IV follows the cost option."""
    g = game(_shortfall_position(0, [("birmingham.1", "manufacturer", 4)], mfr_cost=cost))
    do(g, "type:pass", "card:coventry", "slot:birmingham.1")
    assert ps(g, 0)["money"] == cost // 2 - 3


def test_ruling_18_no_income_after_the_final_round() -> None:
    """Ruling 18: no income after the game's final round (the Rail Era's last)."""
    pos = blank(2, era="rail", round_=10, current=1, actions_left=1)
    player(pos, 0, money=5, income_space=30)
    player(pos, 1, money=5, income_space=5, hand={"coventry": 1})
    pos["player_state"][0]["hand"] = {}
    g = game(pos)
    ev = do(g, "type:pass", "card:coventry")
    assert g.is_over and not events_of(ev, "income")
    assert [ps(g, s)["money"] for s in (0, 1)] == [5, 5]
