"""Coal (ruling 7) and iron (ruling 8) of RULINGS.md; beer (ruling 9) is in test_sell.py."""

from __future__ import annotations

import pytest

from brass.engine import id_of

from .positions import (
    blank,
    do,
    events_of,
    game,
    legal,
    link,
    player,
    ps,
    reason,
    refused,
    slot,
    tile,
)

# ---------------------------------------------------------------- ruling 7: coal


def _birmingham_coal_position(mat: dict[str, int], money: int = 17) -> dict:
    """Coal for a build in Birmingham: P1's mine in Dudley (1 link, 1 cube), P0's own mine
    in Wolverhampton (2 links, 2 cubes), and Oxford (coal market) 1 link away. Every link
    belongs to P1."""
    pos = blank(2)
    link(pos, "birmingham--dudley", 1)
    link(pos, "dudley--wolverhampton", 1)
    link(pos, "birmingham--oxford", 1)
    tile(pos, "dudley.0", 1, "coal", 1, cubes=1)
    tile(pos, "wolverhampton.1", 0, "coal", 1, cubes=2)
    player(pos, 0, hand={"birmingham": 1}, mat=mat, money=money)
    return pos


def test_ruling_07_coal_nearest_mine_first() -> None:
    """Ruling 7: coal from the nearest connected unflipped mine of any owner, counting links
    of any owner; never a farther mine or the market while it has coal."""
    g = game(_birmingham_coal_position({"cotton": 3}))
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0")
    assert g.decision == "coal"
    assert ps(g, 0)["money"] == 17 - 14  # cotton II's £14 is paid before its coal
    assert legal(g) == {"slot:dudley.0"}
    refused(g, "slot:wolverhampton.1", "NOT_NEAREST_COAL")
    refused(g, "market", "MINE_COAL_FIRST")
    ev = do(g, "slot:dudley.0")
    assert events_of(ev, "coal") == [{"type": "coal", "seat": 0, "source": "dudley.0",
                                      "price": 0}]
    # the mine's last cube: it flips for its owner (coal I: +4 income spaces)
    assert slot(g, "dudley.0")["flipped"]
    assert ps(g, 1)["income_space"] == 14
    assert ps(g, 0)["money"] == 3
    assert slot(g, "wolverhampton.1")["cubes"] == 2
    assert g.position()["markets"]["coal"] == 13


def test_ruling_07_coal_equal_distance_player_chooses() -> None:
    """Ruling 7: at equal distance the player chooses the mine."""
    pos = blank(2)
    link(pos, "birmingham--dudley", 1)
    link(pos, "birmingham--tamworth", 1)
    tile(pos, "dudley.0", 1, "coal", 1)
    tile(pos, "tamworth.0", 0, "coal", 1)
    player(pos, 0, hand={"birmingham": 1}, mat={"cotton": 3})
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0")
    assert legal(g) == {"slot:dudley.0", "slot:tamworth.0"}
    do(g, "slot:tamworth.0")
    assert (slot(g, "tamworth.0")["cubes"], slot(g, "dudley.0")["cubes"]) == (1, 2)


def test_ruling_07_coal_next_nearest_when_nearest_runs_out() -> None:
    """Ruling 7: when the nearest mine runs out, the next nearest; still not the market."""
    g = game(_birmingham_coal_position({"manufacturer": 3}, money=20))  # manufacturer III
    do(g, "type:build", "card:birmingham", "industry:manufacturer", "slot:birmingham.1")
    assert legal(g) == {"slot:dudley.0"}
    do(g, "slot:dudley.0")
    assert g.decision == "coal"
    assert legal(g) == {"slot:wolverhampton.1"}
    refused(g, "market", "MINE_COAL_FIRST")
    do(g, "slot:wolverhampton.1")
    assert slot(g, "birmingham.1")["level"] == 3
    assert slot(g, "wolverhampton.1")["cubes"] == 1
    assert ps(g, 0)["money"] == 20 - 12


@pytest.mark.parametrize("market, prices", [(3, (6, 7)), (1, (7, 8)), (0, (8, 8))])
def test_ruling_07_coal_market_cheapest_first_then_8(market: int,
                                                     prices: tuple[int, int]) -> None:
    """Ruling 7: with no connected mine holding coal, buy from the coal market, cheapest
    first; £8 each once it is empty. A mine that is not connected does not count."""
    pos = blank(2, coal_market=market)
    link(pos, "birmingham--oxford", 1)
    tile(pos, "cannock.1", 1, "coal", 1)  # has coal, but is not connected
    player(pos, 0, hand={"birmingham": 1}, mat={"manufacturer": 3}, money=30)
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:manufacturer", "slot:birmingham.1")
    assert legal(g) == {"market"}
    assert reason(g, "slot:cannock.1") == "NO_CONNECTED_COAL"
    ev = do(g, "market", "market")
    assert [e["price"] for e in events_of(ev, "coal")] == list(prices)
    me = ps(g, 0)
    assert (me["money"], me["spent"]) == (30 - 12 - sum(prices), 12 + sum(prices))
    assert g.position()["markets"]["coal"] == max(0, market - 2)
    assert slot(g, "cannock.1")["cubes"] == 2


def test_ruling_07_coal_market_needs_merchant_connection() -> None:
    """Ruling 7: buying from the coal market requires the place needing coal to be connected
    to a merchant location."""
    pos = blank(2)
    link(pos, "birmingham--coventry", 1)
    player(pos, 0, hand={"coventry": 1})
    g = game(pos)
    do(g, "type:build", "card:coventry")
    assert "industry:coal" in legal(g)  # a coal mine needs no coal
    assert reason(g, "industry:manufacturer") == "NO_CONNECTED_COAL"  # manufacturer I: 1 coal
    link(pos, "birmingham--oxford", 1)
    g = game(pos)
    do(g, "type:build", "card:coventry", "industry:manufacturer")
    assert legal(g) == {"slot:coventry.1", "slot:coventry.2"}
    do(g, "slot:coventry.1")
    assert legal(g) == {"market"}


def test_ruling_07_merchant_location_without_tile_gives_market_access() -> None:
    """Ruling 7: the merchant location needs no tile: in a 2-player game Warrington has none,
    yet it connects Stoke-on-Trent to the coal market."""
    pos = blank(2)
    assert pos["merchants"]["warrington.0"]["goods"] is None
    link(pos, "stoke_on_trent--warrington", 1)
    link(pos, "leek--stoke_on_trent", 0)
    player(pos, 0, hand={"iron": 1})
    g = game(pos)
    do(g, "type:build", "card:iron", "industry:iron")
    assert legal(g) == {"slot:stoke_on_trent.1"}
    do(g, "slot:stoke_on_trent.1")
    assert legal(g) == {"market"}
    do(g, "market")
    # iron works I £5 + coal £1; then 2 iron sold into the two empty £1 slots
    assert ps(g, 0)["money"] == 17 - 5 - 1 + 2


# ---------------------------------------------------------------- ruling 8: iron


def test_ruling_08_iron_from_any_works_anywhere_players_choice() -> None:
    """Ruling 8: iron from any unflipped iron works of any owner, anywhere, no connection
    needed; the player chooses the works; the market only when none has iron."""
    pos = blank(2)
    tile(pos, "coalbrookdale.1", 1, "iron", 1, cubes=2)
    tile(pos, "dudley.1", 0, "iron", 1, cubes=3)
    player(pos, 0, hand={"birmingham": 1})
    g = game(pos)
    do(g, "type:develop", "card:birmingham", "industry:cotton")
    assert g.decision == "iron"
    assert legal(g) == {"slot:coalbrookdale.1", "slot:dudley.1"}
    refused(g, "market", "WORKS_IRON_FIRST")
    do(g, "slot:coalbrookdale.1", "done")
    assert slot(g, "coalbrookdale.1")["cubes"] == 1
    assert (ps(g, 0)["money"], ps(g, 0)["mat_taken"]["cotton"]) == (17, 1)
    assert g.position()["markets"]["iron"] == 8


@pytest.mark.parametrize("market, prices", [(8, (2, 2)), (3, (4, 5)), (1, (5, 6)), (0, (6, 6))])
def test_ruling_08_iron_market_cheapest_first_then_6(market: int,
                                                     prices: tuple[int, int]) -> None:
    """Ruling 8: with no iron on the board, buy from the iron market, cheapest first, £6
    each once empty; no connection needed (P0 has nothing on the board)."""
    pos = blank(2, iron_market=market)
    tile(pos, "coalbrookdale.1", 1, "iron", 1, flipped=True)
    player(pos, 0, hand={"birmingham": 1})
    g = game(pos)
    do(g, "type:develop", "card:birmingham", "industry:cotton")
    assert legal(g) == {"market"}
    ev = do(g, "market", "industry:cotton", "market")
    assert [e["price"] for e in events_of(ev, "iron")] == list(prices)
    assert ps(g, 0)["money"] == 17 - sum(prices)
    assert ps(g, 0)["mat_taken"]["cotton"] == 2
    assert g.position()["markets"]["iron"] == max(0, market - 2)


def test_ruling_07_forced_coal_choice_resolved_automatically() -> None:
    """Ruling 7 with auto_resolve on: when the nearest-mine rule leaves one source, the coal
    is taken from it without a decision."""
    pos = _birmingham_coal_position({"cotton": 3})
    pos["options"]["auto_resolve"] = True
    g = game(pos)
    do(g, "type:build")
    # a card choice is never resolved automatically, even with one card: whether it is forced
    # depends on the hand, which the other seats must not learn (docs/RULINGS.md)
    assert g.decision == "card" and g.legal_ids() == [id_of("card:birmingham")]
    ev = do(g, "card:birmingham", "industry:cotton")  # the only slot and mine: forced
    assert [e["source"] for e in events_of(ev, "coal")] == ["dudley.0"]
    assert (g.decision, g.current_seat) == ("action", 1)  # P0's last card: P1's turn now
    assert slot(g, "birmingham.0")["level"] == 2 and ps(g, 0)["money"] == 3
