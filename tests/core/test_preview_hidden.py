"""A preview shows only what the previewing seat can see (issue 10, item A).

An action that ends the seat's turn draws cards from the face-down deck; at the canal to
rail change every seat gets a new hand. A preview must not show those cards: its view holds
the hand the seat keeps before drawing, and ``hand_unseen`` counts the cards it will draw.
Everything else is what the real move gives. And a preview is a function of what the seat
knows only: two deals it cannot tell apart (``determinize``) give byte-identical previews,
for the seat and for a spectator preview (seat None) alike.
"""

from __future__ import annotations

import json
import random
from typing import Any

import brass

from ._support import new_random_game, policy_choice, preview_view


def canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def turn_enders(seed: int, wanted: int) -> list[tuple[brass.Game, tuple[int, ...]]]:
    """States of a random game, each with a whole action of the seat to act that ends its
    turn with a draw from the deck (up to `wanted` of them)."""
    game = new_random_game(2 + seed % 3, seed)
    rng = random.Random(seed)
    found: list[tuple[brass.Game, tuple[int, ...]]] = []
    while not game.is_over and len(found) < wanted:
        if game.decision == "action" and rng.random() < 0.3:
            actions, _ = game.compound_actions(limit=200)
            for action in rng.sample(actions, min(4, len(actions))):
                real = game.clone()
                events = real.apply_compound(action.ids)
                if any(e["type"] == "turn_end" and e["cards_drawn"] for e in events):
                    found.append((game.clone(), action.ids))
                    break
        game.apply(policy_choice(game, game.legal_ids(), rng))
    return found


def test_a_turn_ending_preview_shows_the_hand_before_the_draw_and_a_count() -> None:
    checked = 0
    for seed in range(12):
        for game, ids in turn_enders(5100 + seed, wanted=4):
            seat = game.current_seat
            assert seat is not None
            preview = game.preview(list(ids), seat=seat)
            real = game.clone()
            events = real.apply_compound(ids, seat=seat)
            drawn = next(e["cards_drawn"] for e in events if e["type"] == "turn_end")
            assert preview["events"] == events  # the draw is in them as a count only
            # The real hand after the move, less what came off the deck: what the seat keeps.
            expected = preview_view(game, real, seat)
            mine = preview["view"]["player_state"][seat]
            assert mine["hand_unseen"] == drawn > 0
            assert mine["hand"] != real.view(seat)["player_state"][seat]["hand"]
            assert mine["hand_size"] == sum(mine["hand"].values()) + drawn
            assert preview["view"] == expected
            checked += 1
    assert checked >= 20


def test_a_preview_is_the_same_for_every_deal_the_seat_cannot_tell_apart() -> None:
    """The issue's leak: the previewed hand was the real one after the draw, so a preview
    told the seat its next cards. Now previews of twins (same seat knowledge, other deck
    order and hands) are byte-identical, as the seat's and as a spectator's preview."""
    rng = random.Random(77)
    compared = 0
    for seed in range(8):
        for game, ids in turn_enders(5300 + seed, wanted=3):
            seat = game.current_seat
            assert seat is not None
            for k in range(3):
                twin = game.determinize(seat, rng.getrandbits(64))
                assert canonical(twin.position()) != canonical(game.position())
                for viewer in (seat, None):
                    assert (canonical(twin.preview(list(ids), seat=viewer))
                            == canonical(game.preview(list(ids), seat=viewer))), (seed, k)
                compared += 1
    assert compared >= 40


def last_canal_turn(seed: int) -> tuple[brass.Game, int] | None:
    """A state at the last canal-era turn, with a decision id that ends the era."""
    game = new_random_game(2 + seed % 3, seed)
    if game.position()["options"]["beginner"]:
        return None
    rng = random.Random(seed)
    while not game.is_over:
        view = game.view(None)
        if view["era"] == "canal" and view["deck_size"] == 0 and sum(
                p["hand_size"] for p in view["player_state"]) <= 2:
            for option in game.legal_ids():
                real = game.clone()
                real.apply(option)
                if real.view(None)["era"] == "rail":
                    return game, option
        game.apply(policy_choice(game, game.legal_ids(), rng))
    return None


def test_a_preview_of_the_era_change_shows_none_of_the_new_hand() -> None:
    met = 0
    rng = random.Random(5)
    for seed in range(5500, 5530):
        found = last_canal_turn(seed)
        if found is None:
            continue
        game, option = found
        seat = game.current_seat
        assert seat is not None
        preview = game.preview(option, seat=seat)
        real = game.clone()
        real.apply(option, seat=seat)
        mine = preview["view"]["player_state"][seat]
        assert mine["hand"] == {}  # every card of the new hand comes from the new deck
        assert mine["hand_unseen"] == mine["hand_size"] == 8
        assert real.view(seat)["player_state"][seat]["hand_size"] == 8
        spectator = game.preview(option)
        assert all("hand" not in p for p in spectator["view"]["player_state"])
        twin = game.determinize(seat, rng.getrandbits(64))
        for viewer in (seat, None):
            assert canonical(twin.preview(option, seat=viewer)) == canonical(
                game.preview(option, seat=viewer))
        met += 1
        if met >= 4:
            break
    assert met >= 4


def test_a_preview_that_draws_nothing_is_the_real_outcome() -> None:
    """Decisions that neither end a turn nor an era (where a shortfall's last removal
    ends the canal era, the new hands are drawn unseen too) draw nothing: the preview's
    view is the real view, exactly."""
    rng = random.Random(3)
    game = new_random_game(3, 5601)
    compared = 0
    while not game.is_over and compared < 200:
        seat = game.current_seat
        option = rng.choice(game.legal_ids())
        real = game.clone()
        events = real.apply(option, seat=seat)
        if not any(e["type"] in ("turn_end", "era_end") for e in events):
            preview = game.preview(option, seat=seat)
            assert preview["view"] == real.view(seat)
            assert "hand_unseen" not in preview["view"]["player_state"][seat]
            compared += 1
        game.apply(option)
    assert compared >= 100
