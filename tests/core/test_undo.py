"""Undo within a turn over the engine API (docs/UNDO.md), both rulesets: random games with
random undos and cancels land exactly on a state the game was in before (snapshot bytes, so
every seat's view too), never before the start of the turn nor a reveal, replay exactly from
their record, and survive clone, pickling and GameBatch stepping."""

from __future__ import annotations

import json
import pickle
import random

import pytest

import brass
from brass import EngineError, Game

_RULESETS = [("birmingham", {}), ("pittsburgh", {}), ("pittsburgh", {"data": "tiny"})]


def _views(g: Game) -> list[str]:
    return [g.view_json(s) for s in [None, *range(g.num_players)]]


def _check_undo_now(g: Game) -> None:
    """Every view (spectator and each seat) says what an undo by the seat to act does now:
    how many decisions it takes back, or why it is refused."""
    steps, refused = g.undo_steps(), None
    if steps == 0 and not g.is_over:
        with pytest.raises(EngineError) as exc:
            g.clone().undo()
        refused = exc.value.reason
    for text in _views(g):
        view = json.loads(text)
        assert (view["undo_steps"], view["undo_refused"]) == (steps, refused)


def _play_with_undos(g: Game, rng: random.Random, limit: int) -> tuple[int, int]:
    """Random decisions and compound actions with an undo one time in four, checked against
    an independent model of the turn: the states since the last turn end, seat change or
    reveal (events the engine reports), each with the number of ids that led to it (a
    compound action's are several), of which an undo must restore one exactly."""
    turn: list[tuple[bytes | None, list[str] | None, int]] = [(g.snapshot(), _views(g), 0)]
    undos = cancels = 0
    for _ in range(limit):
        _check_undo_now(g)
        if g.is_over:
            break
        if rng.random() < 0.25:
            k = g.undo_steps()
            if k == 0:
                with pytest.raises(EngineError) as exc:
                    g.undo()
                assert exc.value.code == "CANNOT_UNDO"
                assert exc.value.reason in ("NOTHING_TO_UNDO", "UNDO_BARRIER")
                assert len(turn) == 1 or g.undo_depth == 0
                continue
            seat = g.current_seat
            in_action = g.decision != "action"
            [event] = g.undo(seat=seat)
            assert event["type"] == "undo" and event["seat"] == seat and event["decisions"] == k
            while k > 0:
                assert len(turn) > 1, "an undo crossed the turn's start or a reveal"
                k -= turn.pop()[2]
            assert k == 0, "an undo stopped inside a compound action"
            snapshot, views, _ = turn[-1]
            if snapshot is None:  # the reveal inside a compound action: the barrier
                assert g.undo_depth == 0
                turn[-1] = snapshot, views, _ = (g.snapshot(), _views(g), 0)
            assert g.snapshot() == snapshot
            assert _views(g) == views  # nothing a seat could not see before
            assert g.decision == "action" or len(turn) == 1
            cancels += in_action
            undos += not in_action
            continue
        seat = g.current_seat
        ids = [rng.choice(g.legal_ids())]
        if rng.random() < 0.2 and g.decision == "action":
            compounds, _ = g.compound_actions(limit=200)
            ids = list(rng.choice(compounds).ids)
            events = g.apply_compound(ids)
        else:
            events = g.apply(ids[0])
        kinds = {e["type"] for e in events}
        if "reveal" in kinds and len(ids) > 1 and g.current_seat == seat and g.undo_depth:
            # revealed within a compound action: its later ids follow the barrier
            turn = [(None, None, 0), (g.snapshot(), _views(g), g.undo_depth)]
        elif g.is_over or g.current_seat != seat or kinds & {"turn_end", "reveal"}:
            turn = [(g.snapshot(), _views(g), 0)]
        else:
            turn.append((g.snapshot(), _views(g), len(ids)))
    return undos, cancels


@pytest.mark.parametrize("ruleset,options", _RULESETS, ids=["bham", "pgh", "pgh-tiny"])
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_undos_replay_exactly(ruleset: str, options: dict, players: int) -> None:
    undos = cancels = 0
    for seed in range(3):
        rng = random.Random(seed * 10 + players)
        g = Game.new(players, seed=seed, ruleset=ruleset, options=options)
        u, c = _play_with_undos(g, rng, 900)
        undos, cancels = undos + u, cancels + c
        again = Game.replay(g.replay_record())
        assert again.snapshot() == g.snapshot() and again.state_hash() == g.state_hash()
        assert again.version == g.version == len(g.replay_record()["decisions"])
    assert undos > 5 and cancels > 5


def test_the_undo_bookkeeping_is_not_part_of_the_hash() -> None:
    g = Game.new(2, seed=3)
    g.apply(g.legal_ids()[0])  # an action type: one decision since the turn's start
    assert g.undo_depth == 1
    fresh = Game.new(2, seed=3)
    fresh.apply(fresh.legal_ids()[0])
    fresh.undo()
    back = Game.new(2, seed=3)
    assert fresh.state_hash() == back.state_hash() and fresh.snapshot() == back.snapshot()


def test_clones_pickles_and_batches_keep_the_turn() -> None:
    g = Game.new(3, seed=8)
    rng = random.Random(8)
    while g.undo_steps() == 0 or g.decision == "action":
        g.apply(rng.choice(g.legal_ids()))
    copy, loaded = g.clone(), pickle.loads(pickle.dumps(g))
    g.undo()
    for other in (copy, loaded):
        other.undo()
        assert other.snapshot() == g.snapshot()
    batch = brass.GameBatch(2, 2, [5, 6])
    import numpy as np

    obs = np.zeros((2, batch.observation_size), dtype=np.float32)
    masks = np.zeros((2, batch.num_actions), dtype=np.bool_)
    before = [game.snapshot() for game in batch.games]
    batch.step(np.array([batch.games[0].legal_ids()[0], batch.games[1].legal_ids()[0]]),
               obs, masks)
    for game, snapshot in zip(batch.games, before, strict=True):
        game.undo()
        assert game.snapshot() == snapshot


def test_a_game_restored_mid_turn_cannot_undo_past_what_it_holds() -> None:
    g = Game.new(2, seed=4)
    g.apply(g.legal_ids()[0])
    restored = Game.restore(g.snapshot())
    assert restored.undo_steps() == 1  # the core knows one decision may be taken back…
    with pytest.raises(EngineError) as exc:  # …but this object lacks the turn's start
        restored.undo()
    assert (exc.value.code, exc.value.reason) == ("CANNOT_UNDO", "TURN_START_UNKNOWN")
    assert restored.snapshot() == g.snapshot()


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_games_that_cannot_replay_their_record_undo_from_the_turns_start_kept(
        ruleset: str) -> None:
    """A game keeps where its turn started in its record and undo replays the record that
    far (issue 22: no state's copy per game in mid-turn); a game whose record does not lead
    to its state (re-dealt by determinize, played out in C) keeps the turn's start itself,
    and its undo lands on its own state, not on the record's deal."""
    rng = random.Random(7)
    g = Game.new(3, seed=7, ruleset=ruleset)
    for _ in range(40):
        g.apply(rng.choice(g.legal_ids()))
    while g.undo_depth != 0:
        g.apply(rng.choice(g.legal_ids()))
    seat = g.current_seat
    assert seat is not None
    redealt = g.determinize(seat, seed=99)
    others = [s for s in range(g.num_players) if s != seat]
    assert any(redealt.view_json(s) != g.view_json(s) for s in others)  # another deal
    at_start = redealt.snapshot()
    redealt.apply(redealt.legal_ids()[0])
    redealt.undo()
    assert redealt.snapshot() == at_start
    # the record-replaying game: same turn, same undo
    g_start = g.snapshot()
    g.apply(g.legal_ids()[0])
    g.undo()
    assert g.snapshot() == g_start


def test_a_game_from_a_position_undoes_by_replaying_from_the_position() -> None:
    rng = random.Random(11)
    g = Game.new(2, seed=11)
    for _ in range(30):
        g.apply(rng.choice(g.legal_ids()))
    while g.undo_depth != 0:
        g.apply(rng.choice(g.legal_ids()))
    from_position = Game.from_position(g.position())
    start = from_position.snapshot()
    for _ in range(2):
        if from_position.undo_steps() == 0 and from_position.undo_depth:
            break
        from_position.apply(from_position.legal_ids()[0])
    while from_position.undo_steps():
        from_position.undo()
    assert from_position.snapshot() == start
