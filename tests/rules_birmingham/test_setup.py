"""Setup per player count, ruling 1 (actions and rounds), whole random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import brass

from .positions import SPACES, do, full_deck

DECK_SIZE = {2: 40, 3: 54, 4: 64}
ROUNDS = {2: 10, 3: 9, 4: 8}
# merchant tiles: every tile whose player-count icon is at most the number of players
TILES = {2: Counter({("cotton", "manufacturer", "pottery"): 1, ("cotton",): 1,
                     ("manufacturer",): 1, (): 2})}
TILES[3] = TILES[2] + Counter({("pottery",): 1, (): 1})
TILES[4] = TILES[3] + Counter({("cotton",): 1, ("manufacturer",): 1})
BLUE = ("leek", "stoke_on_trent", "stone", "uttoxeter")
TEAL = ("belper", "derby")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_per_player_count(players: int, seed: int) -> None:
    """Rulebook setup (and the tutorial's Q&A): 40 / 54 / 64 cards; 8 cards in hand and one
    face down each; £17; income marker on space 10 (level 0); VP 0; 14 link tiles; coal
    market missing one £1 cube, iron market both £1 cubes; 4 + 4 wild cards; merchants on
    the spaces for the player count, 1 beer beside every non-blank tile; random turn order;
    one action each in the first round (ruling 1)."""
    p = brass.Game.new(players, seed).position()
    cards = sum(s["hand_size"] for s in p["player_state"]) + len(p["deck"]) + players
    assert cards == DECK_SIZE[players]
    assert sum(full_deck(players).values()) == DECK_SIZE[players]
    for s in p["player_state"]:
        assert (s["money"], s["income_space"], s["income_level"], s["vp"]) == (17, 10, 0, 0)
        assert (s["hand_size"], s["links_left"], s["spent"]) == (8, 14, 0)
        assert s["facedown"] is not None and s["last_discard"] is None
        assert set(s["mat_taken"].values()) == {0}
    assert p["markets"] == {"coal": 13, "iron": 8}
    assert p["wild_piles"] == {"location": 4, "industry": 4}
    assert p["discards"] == {} and p["slots"] == {} and p["links"] == {}
    used = {m: v for m, v in p["merchants"].items() if v["goods"] is not None}
    assert set(used) == set(SPACES[players])
    assert Counter(tuple(v["goods"]) for v in used.values()) == TILES[players]
    for v in p["merchants"].values():
        assert v["beer"] == (1 if v["goods"] else 0)
    assert sorted(p["turn_order"]) == list(range(players))
    assert (p["era"], p["round"], p["actions_left"]) == ("canal", 1, 1)
    assert p["current"] == p["turn_order"][0]
    # location cards by banner colour: 2p without blue and teal, 3p without teal
    deck = full_deck(players)
    assert all(deck.get(c, 0) == 0 for c in TEAL) == (players < 4)
    assert all(deck.get(c, 0) == 0 for c in BLUE) == (players < 3)


def test_setup_turn_order_is_random() -> None:
    """Rulebook setup: the character tiles are shuffled onto the turn order track."""
    orders = {tuple(brass.Game.new(4, seed).position()["turn_order"]) for seed in range(40)}
    assert len(orders) > 5


def test_ruling_01_first_canal_round_one_action_then_two() -> None:
    """Ruling 1: in the first round of the Canal Era each player takes 1 action; every
    other round, 2. Hands are refilled to 8 after each turn."""
    g = brass.Game.new(3, seed=5)
    first = g.position()["turn_order"]
    for seat in first:
        assert (g.current_seat, g.position()["actions_left"]) == (seat, 1)
        card = sorted(g.position()["player_state"][seat]["hand"])[0]
        do(g, "type:pass", f"card:{card}")
        assert g.position()["player_state"][seat]["hand_size"] == 8
    p = g.position()
    assert (p["round"], p["actions_left"]) == (2, 2)
    seat = p["current"]
    hand = p["player_state"][seat]["hand"]
    card = sorted(hand)[0]
    do(g, "type:pass", f"card:{card}")
    assert (g.current_seat, g.position()["actions_left"]) == (seat, 1)


def _play_random(players: int, seed: int) -> tuple[list[dict], brass.Game]:
    g = brass.Game.new(players, seed)
    rng = random.Random(seed)
    events: list[dict] = []
    while not g.is_over:
        events += g.apply(rng.choice(g.legal_ids()))
    return events, g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ruling_01_rounds_per_era_in_random_games(players: int) -> None:
    """Ruling 1: 10 / 9 / 8 rounds per era for 2 / 3 / 4 players; one action each in the
    first canal round, two in every other round (the Rail Era's first included)."""
    for seed in (11, 12):
        events, g = _play_random(players, seed)
        era, rounds, acts = 0, {0: [], 1: []}, Counter()
        for e in events:
            if e["type"] == "action":
                acts[(era, len(rounds[era]) + 1, e["seat"])] += 1
            elif e["type"] == "round_end":
                rounds[era].append(e["round"])
            elif e["type"] == "era_end":
                era += 1
        assert rounds[0] == list(range(1, ROUNDS[players] + 1))
        assert rounds[1] == list(range(1, ROUNDS[players] + 1))
        for (e_, r, _seat), n in acts.items():
            assert n == (1 if (e_, r) == (0, 1) else 2), (e_, r, _seat, n)
        assert len(acts) == 2 * ROUNDS[players] * players
        # ruling 20: most VP, then income level, then money; a full tie is shared
        ps_ = g.position()["player_state"]
        keys = [(s["vp"], s["income_level"], s["money"]) for s in ps_]
        assert sorted(g.winners()) == [s for s in range(players) if keys[s] == max(keys)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_end_with_every_card_played(players: int) -> None:
    """Rulings 1 and 19: C playouts (random and 'sane') end the game after the Rail Era
    with empty hands and deck, all links removed, VP never negative."""
    for seed in range(4):
        for policy in ("random", "sane"):
            g = brass.Game.new(players, seed)
            g.playout(seed, policy)
            p = g.position()
            assert g.is_over and p["era"] == "rail" and p["deck"] == []
            assert all(s["hand_size"] == 0 for s in p["player_state"])
            assert p["links"] == {} and min(g.scores()) >= 0
