"""Birmingham's determinize depends on the seed and on what the seat knows only (issue 20).

Two states a seat cannot tell apart (the same view for that seat: a different order of the
face-down deck, different hands for the other seats) determinize identically for a seed, so
a bot searching on determinized copies cannot read the hidden cards; and a determinization
deals exactly the unseen cards again: the same multiset over the deck, the face-down cards
and the other seats' hands, every card still in one place.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import brass

from ._support import WILD, check_cards, new_random_game, policy_choice


def _games(players: int, seed: int, every: int = 7) -> list[brass.Game]:
    """States along one random game: every `every`-th decision, mid-action ones included."""
    g = new_random_game(players, seed)
    rng = random.Random(seed)
    out = []
    k = 0
    while not g.is_over:
        if k % every == 0:
            out.append(g.clone())
        g.apply(policy_choice(g, g.legal_ids(), rng))
        k += 1
    return out


def _with_deck_reordered(g: brass.Game, rng: random.Random) -> brass.Game:
    pos = g.position()
    deck = list(pos["deck"])
    if len(set(deck)) > 1:
        while deck == pos["deck"]:
            rng.shuffle(deck)
    pos["deck"] = deck
    return brass.Game.from_position(pos)


def _seen(g: brass.Game, seat: int | None) -> str:
    return json.dumps(g.view(seat), sort_keys=True)


def _unseen_cards(pos: dict[str, Any], seat: int) -> Counter[str]:
    """The cards `seat` cannot see: the deck, every face-down card, others' non-wild cards."""
    cards: Counter[str] = Counter(pos["deck"])
    for p, ps in enumerate(pos["player_state"]):
        if ps["facedown"] is not None:
            cards[ps["facedown"]] += 1
        if p != seat:
            cards.update({c: k for c, k in ps["hand"].items() if c not in WILD})
    return cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_twins_differing_in_deck_order_only_determinize_identically(players: int) -> None:
    """Every seat's view is the same in both twins; each seat's determinization is too."""
    rng = random.Random(players)
    checked = 0
    for g in _games(players, 40 + players):
        if len(set(g.position()["deck"])) < 2:
            continue
        a, b = brass.Game.from_position(g.position()), _with_deck_reordered(g, rng)
        assert a.position()["deck"] != b.position()["deck"]
        for seat in [None, *range(players)]:
            assert _seen(a, seat) == _seen(b, seat)
        for seat in range(players):
            seed = rng.getrandbits(64)
            assert a.determinize(seat, seed).position() == b.determinize(seat, seed).position(), (
                f"determinize({seat}) reads the deck order at {g.decision}")
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_twins_a_seat_cannot_tell_apart_determinize_identically(players: int) -> None:
    """Twins for one seat: other hands re-dealt and the deck in another order."""
    rng = random.Random(100 + players)
    checked = 0
    for g in _games(players, 70 + players, every=5):
        for seat in range(players):
            twin = _with_deck_reordered(g.determinize(seat, rng.getrandbits(64)), rng)
            same = brass.Game.from_position(g.position())
            assert _seen(twin, seat) == _seen(same, seat)
            seed = rng.getrandbits(64)
            assert (same.determinize(seat, seed).position()
                    == twin.determinize(seat, seed).position()), (
                f"determinize({seat}) reads hidden cards at {g.decision} "
                f"(current seat {g.current_seat})")
            checked += 1
    assert checked >= 40


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_deals_the_same_unseen_cards(players: int) -> None:
    rng = random.Random(200 + players)
    for g in _games(players, 90 + players, every=11):
        pos = g.position()
        for seat in range(players):
            d = g.determinize(seat, rng.getrandbits(64)).position()
            check_cards(d)
            assert _unseen_cards(d, seat) == _unseen_cards(pos, seat)
            assert len(d["deck"]) == len(pos["deck"])
            assert d["discards"] == pos["discards"] and d["wild_piles"] == pos["wild_piles"]
            for p, (dp, gp) in enumerate(zip(d["player_state"], pos["player_state"], strict=True)):
                assert dp["hand_size"] == gp["hand_size"]
                assert (dp["facedown"] is None) == (gp["facedown"] is None)
                if p == seat:
                    assert dp["hand"] == gp["hand"]
                else:  # wild cards are taken openly: they stay where they are
                    assert ({c: k for c, k in dp["hand"].items() if c in WILD}
                            == {c: k for c, k in gp["hand"].items() if c in WILD})
