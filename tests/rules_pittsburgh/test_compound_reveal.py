"""A pipeline's oilfield reveal ends a compound (whole) action (rulings P25-P26,
/work/shared/rules/PITTSBURGH_RULINGS.md; docs/UNDO.md): the tile turned face up is hidden
information until then, so the core lists a Network whose pipeline reveals an oilfield as a
compound that ends there, applies it atomically, refuses one that goes on past the reveal,
and previews it without the tile (the reveal names no tile and gives no reward in the
preview). Listing, preview and application agree for every listed compound."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import brass

NETWORK_TO_LIMA = "type:network card:toledo link_tile:pipe_income2 pipeline:toledo--lima_findlay"


def _position_with_money_tile_at_lima() -> brass.Game:
    """2 players, seed 4, seat 0 to act holding Toledo; Lima/Findlay's face-down tile is
    of_money8 ($8, 1 barrel), every other oilfield keeps its dealt tile."""
    position = brass.Game.new(2, 4, ruleset="pittsburgh").position()
    fields = {f["id"]: f for f in position["oilfields"]}
    assert fields["macksburg_burning_springs"]["tile"] == "of_money8"
    fields["macksburg_burning_springs"]["tile"] = fields["lima_findlay"]["tile"]
    fields["lima_findlay"]["tile"] = "of_money8"
    return brass.Game.from_position(position)


def _lima(view: dict) -> dict:
    return next(f for f in view["oilfields"] if f["id"] == "lima_findlay")


def test_a_pipeline_reveal_ends_the_compound_previewed_without_the_tile() -> None:
    game = _position_with_money_tile_at_lima()
    seat = game.current_seat
    assert seat == 0 and game.view(seat)["players"][seat]["money"] == 30
    actions, cut = game.compound_actions(limit=200_000)
    assert not cut
    # P26: the pipeline reveals the tile once its iron is paid: the compound ends there, so
    # the second link ($10, P46) is not part of it (it would be chosen knowing the tile).
    to_lima = sorted(a.key for a in actions if a.key.startswith(NETWORK_TO_LIMA))
    assert to_lima == [f"{NETWORK_TO_LIMA} market:toledo", f"{NETWORK_TO_LIMA} vanderbilt"]
    ids = list(next(a for a in actions if a.key == f"{NETWORK_TO_LIMA} market:toledo").ids)

    preview = game.preview(ids, seat=seat)
    assert preview["events"] == [
        {"type": "action", "seat": 0, "action": "network", "card": "toledo"},
        {"type": "link", "seat": 0, "route": "pipeline:toledo--lima_findlay",
         "link_tile": "pipe_income2"},
        {"type": "cube", "seat": 0, "cube": "iron", "source": "market:toledo", "price": 4},
        {"type": "oil", "seat": 0, "source": "pipeline:toledo--lima_findlay", "barrels": 1},
        {"type": "reveal", "seat": 0, "oilfield": "lima_findlay", "tile": "unknown", "oil": 0},
    ]
    cost = preview["cost"]
    assert cost["resources"] == [
        {"cube": "iron", "price": 4, "source": "toledo", "source_kind": "market"}]
    assert (cost["money"], cost["money_after"], cost["resource_money"]) == (4, 26, 4)
    assert cost["oil_added"] == [{"source": "pipeline:toledo--lima_findlay", "barrels": 1}]
    assert cost["pipe_rewards"] == [] and (cost["income_spaces"], cost["vp"]) == (0, 0)
    # the field is face up in the preview, its tile and its pending oil unknown
    assert _lima(preview["view"]) | {"barrels": 0} == {
        "id": "lima_findlay", "barrels": 0, "tile_state": "pending", "tile": None,
        "pending": 0, "oil_city_owner": -1, "oil_city_barrels": 0, "oil_city_flipped": False}
    assert _lima(preview["view"])["barrels"] == 1
    assert preview["view"]["players"][seat]["money"] == 26
    # a deal the seat cannot tell apart (other face-down tiles, other hands): the same preview
    rng = random.Random(1)
    for _ in range(4):
        twin = game.determinize(seat, rng.getrandbits(64))
        # the listing too: it stops at the reveal, so no continuation depends on the tile
        assert twin.compound_actions(limit=200_000) == (actions, cut)
        for viewer in (seat, None):
            assert twin.preview(ids, seat=viewer) == game.preview(ids, seat=viewer)

    # applied atomically: the real tile's reward ($8) and pending oil (era 1, P26)
    real = game.clone()
    events = real.apply_compound(ids, seat=seat)
    assert events[:4] == preview["events"][:4]
    assert events[4] == {"type": "reveal", "seat": 0, "oilfield": "lima_findlay",
                         "tile": "of_money8", "oil": 1}
    view = real.view(seat)
    assert view["players"][seat]["money"] == 30 - 4 + 8
    assert (_lima(view)["tile_state"], _lima(view)["tile"], _lima(view)["pending"],
            _lima(view)["barrels"]) == ("pending", "of_money8", 1, 1)
    # the action goes on (P46 second link) behind an undo barrier (docs/UNDO.md)
    assert real.decision == "second_link" and real.version == game.version + len(ids)
    assert (view["undo_steps"], view["undo_refused"]) == (0, "UNDO_BARRIER")
    rest, _ = real.compound_actions(limit=200_000)
    assert rest and {a.ids[0] for a in rest} == set(real.legal_ids())

    # a compound going on past the reveal is refused, as a submission and as a preview
    past = [*ids, rest[0].ids[0]]
    for attempt in (lambda: game.clone().apply_compound(past, seat=seat),
                    lambda: game.preview(past, seat=seat)):
        with pytest.raises(brass.EngineError) as refused:
            attempt()
        assert (refused.value.code, refused.value.reason) == ("ILLEGAL_ACTION",
                                                              "TOO_MANY_DECISIONS")
    assert game.version == 0 and game.view(seat)["players"][seat]["money"] == 30


def test_every_listed_compound_previews_and_applies() -> None:
    """Random games (2-4 players): at sampled action starts, listed compounds (all those
    with a pipeline, others sampled) preview for the seat to act and apply on a clone; the
    preview's events are the application's, but for a reveal: its tile and oil unknown."""
    rng = random.Random(2026)
    figures: Counter[str] = Counter()
    for index in range(3):
        game = brass.Game.new(2 + index, 900 + index, ruleset="pittsburgh")
        while not game.is_over:
            if game.decision == "action" and rng.random() < 0.2:
                actions, _ = game.compound_actions(limit=200_000)
                piped = [a for a in actions if "pipeline:" in a.key]
                others = [a for a in actions if "pipeline:" not in a.key]
                chosen = rng.sample(piped, min(60, len(piped))) + rng.sample(
                    others, min(20, len(others)))
                seat = game.current_seat
                for action in chosen:
                    preview = game.preview(list(action.ids), seat=seat)
                    events = game.clone().apply_compound(action.ids, seat=seat)
                    reveals = [e for e in events if e["type"] == "reveal"]
                    if reveals:  # the last decision's (the compound ends there)
                        figures["reveals"] += 1
                        [hidden] = [e for e in preview["events"] if e["type"] == "reveal"]
                        assert hidden == {**reveals[0], "tile": "unknown", "oil": 0}
                    else:
                        assert preview["events"] == events
                    figures["compounds"] += 1
                figures["states"] += 1
            game.apply(rng.choice(game.legal_ids()))
    print(f"\nlisted compounds previewed and applied: {dict(figures)}")
    assert figures["compounds"] > 1000 and figures["reveals"] >= 10


def test_an_actions_first_steps_stop_before_the_reveal() -> None:
    """apply_partial (a page's later step, asked before the action is sent whole) applies
    the network's steps up to the iron's source, whose choice reveals Lima/Findlay's tile
    (P26): that id is refused (TOO_MANY_DECISIONS) and the game is unchanged, so no later
    step's options or reasons can depend on the hidden tile."""
    game = _position_with_money_tile_at_lima()
    seat = game.current_seat
    actions, _ = game.compound_actions(limit=200_000)
    ids = list(next(a for a in actions if a.key == f"{NETWORK_TO_LIMA} market:toledo").ids)
    steps = game.clone()
    steps.apply_partial(ids[:-1], seat=seat)
    assert _lima(steps.view(seat))["tile_state"] == _lima(game.view(seat))["tile_state"]
    sources = {o.name for o in steps.legal_actions()}
    assert sources == {"market:toledo", "vanderbilt"}
    before = game.state_hash()
    with pytest.raises(brass.EngineError) as refused:
        game.apply_partial(ids, seat=seat)
    assert refused.value.reason == "TOO_MANY_DECISIONS"
    assert game.state_hash() == before and game.version == 0
