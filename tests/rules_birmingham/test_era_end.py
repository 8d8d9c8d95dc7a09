"""Era end (rulings 1, 19), the winner (ruling 20) and the beginner variant (ruling 21)."""

from __future__ import annotations

import brass

from .positions import (
    GOODS_ALL,
    blank,
    do,
    events_of,
    full_deck,
    game,
    link,
    merchant,
    minus,
    player,
    tile,
)


def _last_turn(players: int = 2, era: str = "canal", **kw: object) -> dict:
    """The round's last action: P1 holds the game's last card, the deck is empty."""
    pos = blank(players, era=era, round_=10, current=1, actions_left=1, **kw)  # type: ignore
    for s in range(players):
        player(pos, s, hand={})
    player(pos, 1, hand={"coventry": 1})
    return pos


def _canal_board(pos: dict) -> dict:
    tile(pos, "birmingham.0", 0, "cotton", 1, flipped=True)  # 1 link icon, 5 VP
    tile(pos, "birmingham.1", 1, "manufacturer", 2, flipped=True)  # 1 icon, 5 VP
    tile(pos, "birmingham.2", 1, "iron", 1, cubes=2)  # unflipped: no icons, no VP
    tile(pos, "dudley.0", 1, "coal", 2, cubes=1)  # unflipped
    tile(pos, "dudley.1", 0, "iron", 2, flipped=True)  # 1 icon, 5 VP
    tile(pos, "worcester.0", 0, "cotton", 2, flipped=True)  # 2 icons, 5 VP
    tile(pos, "farm_brewery_south.0", 1, "brewery", 2, flipped=True)  # 2 icons, 5 VP
    tile(pos, "kidderminster.1", 0, "cotton", 1)  # unflipped
    tile(pos, "stafford.0", 0, "brewery", 2, cubes=1)  # unflipped, 1 barrel
    link(pos, "birmingham--oxford", 0)
    link(pos, "kidderminster--worcester", 0)
    link(pos, "birmingham--dudley", 1)
    link(pos, "dudley--wolverhampton", 1)
    merchant(pos, "oxford.0", ["cotton"], beer=0)
    merchant(pos, "oxford.1", GOODS_ALL, beer=1)
    merchant(pos, "gloucester.1", ["manufacturer"], beer=0)
    return pos


def test_ruling_19_canal_era_end() -> None:
    """Ruling 19 (and 1): after the round in which every hand and the deck are empty: pay
    income, score links (flipped tiles' link icons of any owner in every location touched,
    +2 per merchant location; the Kidderminster-Worcester link also touches the southern
    farm brewery), remove the links, score flipped tiles; then remove every level-I tile,
    refill merchant beer beside non-blank tiles, shuffle all discards and the face-down
    cards into a new deck, deal 8 each; the Rail Era's first round has 2 actions."""
    pos = _canal_board(_last_turn())
    player(pos, 0, money=3, income_space=20, vp=10, spent=2, facedown="iron")
    player(pos, 1, money=0, facedown="brewery")
    pos["discards"] = minus(full_deck(2), "coventry", "iron", "brewery")
    g = game(pos)
    ev = do(g, "type:pass", "card:coventry")
    links = {e["link"]: (e["seat"], e["vp"]) for e in events_of(ev, "link_score")}
    assert links == {"birmingham--oxford": (0, 2 + 2), "kidderminster--worcester": (0, 2 + 2),
                     "birmingham--dudley": (1, 2 + 1), "dudley--wolverhampton": (1, 1)}
    tiles = {e["slot"]: (e["seat"], e["vp"]) for e in events_of(ev, "tile_score")}
    assert tiles == {"birmingham.0": (0, 5), "birmingham.1": (1, 5), "dudley.1": (0, 5),
                     "worcester.0": (0, 5), "farm_brewery_south.0": (1, 5)}
    kinds = [e["type"] for e in ev]
    assert kinds.index("income") < kinds.index("link_score") < kinds.index("tile_score")
    assert kinds.index("era_end") < kinds.index("tile_removed")
    p = g.position()
    assert [s["vp"] for s in p["player_state"]] == [10 + 8 + 15, 4 + 10]
    assert [s["money"] for s in p["player_state"]] == [3 + 5, 0]
    assert (p["era"], p["round"], p["links"]) == ("rail", 1, {})
    assert [s["links_left"] for s in p["player_state"]] == [14, 14]
    assert set(p["slots"]) == {"birmingham.1", "dudley.0", "dudley.1", "worcester.0",
                               "farm_brewery_south.0", "stafford.0"}
    assert p["slots"]["stafford.0"]["cubes"] == 1  # never topped up (ruling 5)
    assert p["slots"]["dudley.0"]["cubes"] == 1
    beer = {m: v["beer"] for m, v in p["merchants"].items() if v["goods"] is not None}
    assert beer == {"shrewsbury.0": 0, "oxford.0": 1, "oxford.1": 1, "gloucester.0": 0,
                    "gloucester.1": 1}
    # all 40 cards: 8 in each hand, 24 in the deck, nothing discarded or face down
    assert p["discards"] == {} and len(p["deck"]) == 24
    assert [s["hand_size"] for s in p["player_state"]] == [8, 8]
    assert [s["facedown"] for s in p["player_state"]] == [None, None]
    dealt: dict[str, int] = {}
    for c in p["deck"] + [c for s in p["player_state"] for c, k in s["hand"].items()
                          for _ in range(k)]:
        dealt[c] = dealt.get(c, 0) + 1
    assert dealt == full_deck(2)
    assert (p["turn_order"], p["current"], p["actions_left"]) == ([1, 0], 1, 2)


def test_ruling_01_era_goes_on_while_a_hand_holds_cards() -> None:
    """Ruling 1: the deck being empty is not enough: the era ends only after the round in
    which every hand is empty too."""
    pos = _last_turn()
    player(pos, 0, hand={"birmingham": 2})
    g = game(pos)
    ev = do(g, "type:pass", "card:coventry")
    assert not events_of(ev, "era_end")
    p = g.position()
    assert (p["era"], p["round"], p["current"], p["actions_left"]) == ("canal", 11, 0, 2)


def test_ruling_19_rail_era_end_scores_and_ends_the_game() -> None:
    """Ruling 19: the Rail Era scores the same way, and then the game is over."""
    pos = _last_turn(era="rail")
    tile(pos, "birmingham.0", 0, "cotton", 3, flipped=True)  # 1 icon, 9 VP
    tile(pos, "coventry.0", 1, "pottery", 3, flipped=True)  # 1 icon, 11 VP
    tile(pos, "coventry.1", 1, "coal", 2, cubes=1)  # unflipped: 0
    link(pos, "birmingham--coventry", 0)
    link(pos, "birmingham--redditch", 1)
    g = game(pos)
    do(g, "type:pass", "card:coventry")
    assert g.is_over and g.decision == "game_over"
    assert g.scores() == [2 + 9, 1 + 11]
    assert g.winners() == [1]
    assert g.position()["links"] == {}


def test_ruling_20_winner_by_vp_then_income_level_then_money() -> None:
    """Ruling 20: most VP; ties by income level, then money; else shared."""
    def final(vps: list[int], spaces: list[int], money: list[int]) -> brass.Game:
        pos = blank(3, era="rail", round_=9, actions_left=0)
        pos.update(game_over=True, decision="game_over", turn_index=3)
        for s in range(3):
            player(pos, s, hand={}, vp=vps[s], income_space=spaces[s], money=money[s])
        return game(pos)

    g = final([50, 50, 49], [15, 20, 99], [0, 0, 99])
    assert (g.winners(), g.ranking()) == ([1], [1, 0, 2])
    g = final([50, 50, 49], [15, 16, 99], [10, 12, 99])  # spaces 15 and 16: both level 3
    assert (g.winners(), g.ranking()) == ([1], [1, 0, 2])
    g = final([50, 50, 49], [16, 15, 99], [12, 12, 99])
    assert sorted(g.winners()) == [0, 1]
    g = final([40, 50, 49], [99, 5, 5], [99, 0, 0])
    assert g.winners() == [1]


def test_ruling_21_beginner_variant_scoring() -> None:
    """Ruling 21: beginner (canal only): after canal scoring, +1 VP per £4 (at most 5), +VP
    equal to the income level (negative takes away), flipped tiles of level 2+ score twice;
    the game ends with the Canal Era, with no income after its final round."""
    pos = _last_turn(beginner=True)
    tile(pos, "birmingham.0", 0, "cotton", 1, flipped=True)  # 5 VP, level I: once
    tile(pos, "worcester.0", 0, "cotton", 2, flipped=True)  # 5 VP, level II: twice
    tile(pos, "dudley.0", 1, "coal", 2, flipped=True)  # 2 VP, twice
    link(pos, "birmingham--oxford", 0)  # 2 (Oxford) + 1 (cotton I)
    player(pos, 0, money=25, income_space=15)  # £25: 6 x £4, capped at 5; level 3
    player(pos, 1, money=7, income_space=8, vp=10)  # £7: 1; level -2
    g = game(pos)
    ev = do(g, "type:pass", "card:coventry")
    assert not events_of(ev, "income")
    assert {e["seat"]: e["vp"] for e in events_of(ev, "bonus_score")} == {
        0: 5 + 3 + 5, 1: 1 - 2 + 2}
    assert g.is_over and g.position()["era"] == "canal"
    assert g.scores() == [3 + 10 + 13, 10 + 2 + 1]
    assert [g.position()["player_state"][s]["money"] for s in (0, 1)] == [25, 7]
    # a negative income level takes VP away, never below 0
    pos = _last_turn(beginner=True)
    player(pos, 0, money=0, income_space=5, vp=1)  # level -5
    g = game(pos)
    do(g, "type:pass", "card:coventry")
    assert g.scores()[0] == 0
