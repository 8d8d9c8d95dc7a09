"""The engine's own bounds (not rules of the game): money, VP and spending stop at 9999 and
the round counter at 255, the bounds brass_validate accepts, so that a legal move from any
accepted position gives a position the engine accepts again (issue 10 B; docs/POSITION.md
"Bounds"). A real game stays far below them (about 300 money and 200 VP at most, 10 rounds
per era)."""

from __future__ import annotations

import brass

from .positions import blank, do, events_of, game, player, ps

TALLY_MAX = 9999
ROUND_MAX = 255


def restored(g: brass.Game) -> brass.Game:
    """The game as the service would load it again (brass_restore runs brass_validate)."""
    return brass.Game.restore(g.snapshot())


def test_loan_at_the_money_bound_stops_there() -> None:
    """Regression (found by fuzz_state with -use_value_profile=1): a loan (ruling 17: +£30)
    took money 9999 to 10029, which validation refused, so the stored game was corrupt."""
    pos = blank(2, current=0)
    player(pos, 0, hand={"birmingham": 1}, money=TALLY_MAX)
    g = game(pos)
    ev = do(g, "type:loan", "card:birmingham")
    assert events_of(ev, "loan")
    assert ps(g, 0)["money"] == TALLY_MAX
    assert restored(g).position()["player_state"][0]["money"] == TALLY_MAX


def test_spending_stops_at_the_bound() -> None:
    """Money paid to the bank counts as spending (ruling 18): a develop's iron from the market
    (ruling 13) is paid in full, and spending already at the bound stays there."""
    pos = blank(2, current=0)
    player(pos, 0, hand={"birmingham": 1}, money=TALLY_MAX, spent=TALLY_MAX)
    g = game(pos)
    ev = do(g, "type:develop", "card:birmingham", "industry:cotton", "market")
    paid = sum(e["money"] for e in events_of(ev, "pay"))
    assert paid > 0
    assert (ps(g, 0)["money"], ps(g, 0)["spent"]) == (TALLY_MAX - paid, TALLY_MAX)
    assert restored(g).position() == g.position()


def test_income_stops_at_the_bound() -> None:
    """Ruling 18 round end: income is credited up to the bound and its event says what was
    credited (level 30 on £9994: £5; a loan's £30 (ruling 17) on £9959, then level 27: £10)."""
    pos = blank(2, current=1, turn_order=[0, 1], actions_left=1, round_=3,
                deck=["coventry", "dudley"])
    player(pos, 0, money=TALLY_MAX - 5, income_space=99)
    player(pos, 1, hand={"birmingham": 1}, money=TALLY_MAX - 40, income_space=99)
    g = game(pos)
    ev = do(g, "type:loan", "card:birmingham")
    assert [(e["seat"], e["money"]) for e in events_of(ev, "income")] == [(0, 5), (1, 10)]
    p = g.position()
    assert [s["money"] for s in p["player_state"]] == [TALLY_MAX, TALLY_MAX]
    assert restored(g).position() == p


def test_round_counter_stops_at_its_bound() -> None:
    """A round end in round 255 keeps the round at 255 (the counter is one byte)."""
    pos = blank(2, current=1, turn_order=[0, 1], actions_left=1, round_=ROUND_MAX,
                deck=["coventry"])
    player(pos, 1, hand={"birmingham": 1})
    g = game(pos)
    ev = do(g, "type:loan", "card:birmingham")
    assert events_of(ev, "round_end") == [{"type": "round_end", "seat": None,
                                           "round": ROUND_MAX}]
    p = g.position()
    assert (p["round"], p["decision"], p["current"]) == (ROUND_MAX, "action", 0)
    assert restored(g).position() == p


def test_round_end_after_the_rounds_last_card_was_spent() -> None:
    """Regression: validation bounded round + cards left by 100, but a round end after the
    round's last card was spent (here mid-develop, the card gone) adds a round without a
    card: round 99 with 1 card left became round 100 with 1 card, refused on restore."""
    pos = blank(2, current=1, turn_order=[0, 1], actions_left=1, round_=99, iron_market=0)
    player(pos, 0, hand={"wolverhampton": 1})
    player(pos, 1, hand={}, money=50)
    pos["decision"] = "develop"
    pos["pending"] = {"action": "develop", "card": "coventry", "industry": None, "slot": None,
                      "link": None, "merchant": None}
    pos["discards"] = {"coventry": 1}
    g = game(pos)
    do(g, "industry:cotton", "market", "done")
    p = g.position()
    assert (p["round"], p["decision"], p["current"]) == (100, "action", 0)
    assert restored(g).position() == p
