"""Undo within a turn, Pittsburgh (docs/UNDO.md): a turn is two actions (P10), cards are
drawn as it ends, and the first pipeline to an oilfield flips its face-down tile (P26): that
reveal is a barrier the undo never crosses. Positions are reached by seeded play (the
Pittsburgh position reader is not in the Python API), then checked exactly."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from brass import EngineError, Game


def _play_until(g: Game, rng: random.Random, wanted: Callable[[Game, list[dict]], bool],
                limit: int = 20000) -> list[dict]:
    """Random decisions until `wanted(game, events)`; returns the last decision's events."""
    for _ in range(limit):
        events = g.apply(rng.choice(g.legal_ids()))
        if wanted(g, events):
            return events
        assert not g.is_over, "the game ended first"
    raise AssertionError("never reached")


def test_undo_after_the_first_action_restores_the_turn_start_exactly() -> None:
    g = Game.new(3, seed=11, ruleset="pittsburgh")
    rng = random.Random(3)
    starts: dict[int, bytes] = {}

    def second_action_start(game: Game, events: list[dict]) -> bool:
        if game.undo_depth == 0:
            starts[game.current_seat] = game.snapshot()
        return game.decision == "action" and game.undo_depth > 0

    _play_until(g, rng, second_action_start)
    seat = g.current_seat
    steps = g.undo_steps()
    assert steps > 0 and {g.view(s)["undo_steps"] for s in (None, *range(3))} == {steps}
    [event] = g.undo(seat=seat)
    assert event["decisions"] == steps and g.undo_depth == 0
    assert g.snapshot() == starts[seat]  # money, tiles, cards, markets: all as they were
    with pytest.raises(EngineError) as exc:
        g.undo(seat=seat)
    assert exc.value.reason == "NOTHING_TO_UNDO"


def test_an_oilfield_reveal_is_a_barrier() -> None:
    rng = random.Random(5)
    for seed in range(40):
        g = Game.new(2, seed=seed, ruleset="pittsburgh")

        def revealed(game: Game, events: list[dict]) -> bool:
            same_turn = not any(e["type"] == "turn_end" for e in events)
            return any(e["type"] == "reveal" for e in events) and same_turn

        try:
            _play_until(g, rng, revealed)
        except AssertionError:
            continue
        # the tile is face up now: nothing before it can be taken back, as every view says
        assert g.undo_depth == 0 and g.undo_steps() == 0
        assert {(v["undo_steps"], v["undo_refused"]) for v in
                (g.view(s) for s in (None, *range(2)))} == {(0, "UNDO_BARRIER")}
        with pytest.raises(EngineError) as exc:
            g.undo()
        assert (exc.value.code, exc.value.reason) == ("CANNOT_UNDO", "UNDO_BARRIER")
        at_reveal = g.snapshot()
        g.apply(rng.choice(g.legal_ids()))
        if g.undo_depth:  # one more decision of the same turn: back to the reveal only
            g.undo()
            assert g.snapshot() == at_reveal
        return
    raise AssertionError("no reveal within a turn in 40 games")


def test_the_option_off_refuses_undo() -> None:
    g = Game.new(2, seed=2, ruleset="pittsburgh", options={"undo": False})
    assert g.replay_record()["options"]["undo"] is False
    assert g.view()["options"]["undo"] == "false"  # option values are strings
    g.apply(g.legal_ids()[0])
    with pytest.raises(EngineError) as exc:
        g.undo()
    assert exc.value.reason == "UNDO_DISABLED"
    assert (g.view(None)["undo_steps"], g.view(None)["undo_refused"]) == (0, "UNDO_DISABLED")
