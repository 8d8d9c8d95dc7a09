"""Undo within a turn, Birmingham (docs/UNDO.md), from explicit positions.

The rules texts are silent on taking moves back; the engine follows the table habit the
issue asks for (issue 12, item 3): within a turn nothing hidden is revealed before the
turn's card draw (the rulebook's "refill your hand at the end of your turn"), so the seat
to act may cancel the action in progress or take back the turn's earlier action, never
anything before the start of its turn; the game option `undo: false` turns it off.
"""

from __future__ import annotations

import json

import pytest

import brass

from .positions import blank, do, game, legal, player, ps, slot


def _two_actions_left() -> brass.Game:
    """Seat 0 to act with both actions of a round-2 turn: a Birmingham card and £17."""
    pos = blank(2)
    player(pos, 0, hand={"birmingham": 1, "coventry": 1}, money=17)
    return game(pos)


def _same_state(a: brass.Game, b: brass.Game) -> None:
    assert a.state_hash() == b.state_hash()
    assert a.position() == b.position()
    assert a.legal_ids() == b.legal_ids()


def test_undo_mid_build_cancels_to_the_start_of_the_action() -> None:
    g = _two_actions_left()
    start = g.clone()
    do(g, "type:build", "card:birmingham", "industry:cotton")
    assert g.decision == "build_slot" and g.undo_steps() == 3
    events = g.undo()
    assert events == [{"type": "undo", "seat": 0, "decisions": 3,
                       "ids": [brass.engine.id_of(n) for n in
                               ("type:build", "card:birmingham", "industry:cotton")]}]
    _same_state(g, start)
    assert g.decision == "action" and ps(g, 0)["hand"] == {"birmingham": 1, "coventry": 1}
    # nothing before the turn's start: a second undo is refused, and changes nothing
    with pytest.raises(brass.EngineError) as exc:
        g.undo()
    assert (exc.value.code, exc.value.reason) == ("CANNOT_UNDO", "NOTHING_TO_UNDO")
    _same_state(g, start)


def test_undo_after_the_first_action_restores_money_tiles_and_cards_exactly() -> None:
    g = _two_actions_left()
    start = g.clone()
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0")
    assert slot(g, "birmingham.0") is not None
    assert (ps(g, 0)["money"], g.position()["actions_left"]) == (5, 1)
    assert g.decision == "action" and g.undo_steps() == 4  # the whole first action
    g.undo()
    _same_state(g, start)
    me = ps(g, 0)
    assert (me["money"], me["spent"], me["mat_taken"]["cotton"]) == (17, 0, 0)
    assert slot(g, "birmingham.0") is None and g.position()["discards"] == {}
    assert g.position()["actions_left"] == 2


def test_undo_cancels_the_second_action_then_takes_back_the_first() -> None:
    g = _two_actions_left()
    start = g.clone()
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0")
    after_first = g.clone()
    do(g, "type:loan")
    assert "card:coventry" in legal(g)
    g.undo()  # the loan in progress
    _same_state(g, after_first)
    g.undo()  # the completed build
    _same_state(g, start)


def test_cannot_undo_across_the_start_of_the_turn() -> None:
    pos = blank(2, actions_left=1)
    player(pos, 0, hand={"birmingham": 1}, money=17)
    g = game(pos)
    do(g, "type:build", "card:birmingham", "industry:cotton", "slot:birmingham.0")
    # the turn ended (seat 0 drew its cards): seat 1 is to act at the start of its turn
    assert g.current_seat == 1 and g.undo_depth == 0
    with pytest.raises(brass.EngineError) as exc:
        g.undo(seat=1)
    assert exc.value.reason == "NOTHING_TO_UNDO"
    with pytest.raises(brass.EngineError) as exc:
        g.undo(seat=0)
    assert exc.value.code == "NOT_YOUR_TURN"
    do(g, "type:loan")
    g.undo(seat=1)  # seat 1 may cancel its own action, back to its turn's start only
    assert g.undo_steps() == 0 and g.current_seat == 1 and slot(g, "birmingham.0")


def test_the_option_off_refuses_every_undo() -> None:
    pos = blank(2)
    pos["options"]["undo"] = False
    player(pos, 0, hand={"birmingham": 1}, money=17)
    g = game(pos)
    assert g.position()["options"]["undo"] is False
    do(g, "type:build", "card:birmingham")
    before = g.state_hash()
    with pytest.raises(brass.EngineError) as exc:
        g.undo()
    assert (exc.value.code, exc.value.reason) == ("CANNOT_UNDO", "UNDO_DISABLED")
    assert g.state_hash() == before and g.undo_steps() == 0
    # the option is the game's: a new game takes it, validated like every option
    assert brass.Game.new(2, seed=1, undo=False).replay_record()["options"]["undo"] is False
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.new(2, seed=1, undo="no")
    assert exc.value.field == "options.undo"


def test_a_record_with_undos_replays_exactly() -> None:
    g = _two_actions_left()
    do(g, "type:build", "card:birmingham")
    g.undo()
    do(g, "type:build", "card:birmingham", "industry:cotton")
    g.undo()
    do(g, "type:loan", "card:coventry")
    record = g.replay_record()
    assert record["decisions"].count("undo") == 2 and g.version == len(record["decisions"])
    again = brass.Game.replay(record)
    _same_state(again, g)
    assert again.snapshot() == g.snapshot()


def _undo_now(g: brass.Game) -> set[tuple[int, str | None]]:
    """The undo now of every view (the spectator's and each seat's): one pair if all agree."""
    views = [g.view(v) for v in (None, *range(g.num_players))]
    return {(v["undo_steps"], v["undo_refused"]) for v in views}


def test_every_view_says_what_the_seat_to_acts_undo_would_do() -> None:
    """The views' undo_steps / undo_refused (docs/UNDO.md) are what UndoAction would find:
    the same for the seat to act, the other seat and a spectator (it is public)."""
    g = _two_actions_left()
    assert _undo_now(g) == {(0, "NOTHING_TO_UNDO")}  # the turn's start
    do(g, "type:build", "card:birmingham", "industry:cotton")
    assert _undo_now(g) == {(3, None)}  # cancel the build in progress: 3 decisions
    do(g, "slot:birmingham.0")
    assert _undo_now(g) == {(4, None)}  # at the second action: the whole first one
    [event] = g.undo()
    assert event["decisions"] == 4 and _undo_now(g) == {(0, "NOTHING_TO_UNDO")}
    # the typed message takes the view's fields by their names (the service's REST text)
    camel = json.loads(g.view_json(0, keys="camel"))
    assert camel["undoSteps"] == 0 and camel["undoRefused"] == "NOTHING_TO_UNDO"


def test_the_views_say_undo_is_off_and_nothing_at_the_end() -> None:
    pos = blank(2)
    pos["options"]["undo"] = False
    player(pos, 0, hand={"birmingham": 1}, money=17)
    g = game(pos)
    do(g, "type:build", "card:birmingham")
    assert _undo_now(g) == {(0, "UNDO_DISABLED")}
    end = brass.Game.new(2, seed=3)
    while not end.is_over:
        end.apply(end.legal_ids()[0])
    assert _undo_now(end) == {(0, None)}  # the game is over: nothing to refuse either
