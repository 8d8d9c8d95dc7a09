"""Every number the Python API hands to C is checked first (issue 10 F): an index, a count
or an id outside its range, or not an integer, is refused with EngineError before anything
is written, and a game viewing a GameBatch slot keeps the batch's C array alive."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import brass
from brass import EngineError

BIRMINGHAM = brass.get_ruleset("birmingham")

N = BIRMINGHAM.num_actions


def snapshots(batch: brass.GameBatch) -> list[bytes]:
    return [g.snapshot() for g in batch.games]


@pytest.mark.parametrize("index", [3, 4, 1000, -1, -3, -4, 2**40, 1.0, True, "1", None])
def test_reset_game_outside_the_batch_is_refused_and_writes_nothing(index: object) -> None:
    """Regression: reset_game(3) on a 3-game batch wrote a game past the end of the C array
    (then failed with IndexError), reset_game(-1) wrote one before its start."""
    batch = brass.GameBatch(3, 2, [1, 2, 3])
    before = snapshots(batch)
    with pytest.raises(EngineError) as error:
        batch.reset_game(index, 9)  # type: ignore[arg-type]
    assert error.value.code == "INVALID_ARGUMENT" and error.value.field == "i"
    assert snapshots(batch) == before
    for game in batch.games:  # every slot still plays
        game.apply(game.legal_ids()[0])


def test_reset_game_inside_the_batch_deals_that_slot_only() -> None:
    batch = brass.GameBatch(3, 2, [1, 2, 3])
    before = snapshots(batch)
    game = batch.reset_game(np.int64(2), 9)
    assert game.snapshot() == brass.Game.new(2, 9).snapshot()
    assert snapshots(batch)[:2] == before[:2]


def test_a_batch_game_outlives_its_batch() -> None:
    """Regression: batch.games[i] pointed into the batch's C array without keeping it alive;
    once the batch was collected, the game read (and wrote) freed memory."""
    batch = brass.GameBatch(64, 4, list(range(64)))
    game = batch.games[10]
    snap = game.snapshot()
    del batch
    gc.collect()
    reuse = [brass.GameBatch(64, 2, list(range(64 * k, 64 * k + 64))) for k in range(8)]
    assert game.snapshot() == snap
    game.apply(game.legal_ids()[0])
    assert len(reuse) == 8


def test_step_refuses_actions_that_do_not_fit_before_applying_any() -> None:
    """Regression: int64 actions were cast to int32, so 2^32 + k applied action k."""
    batch = brass.GameBatch(2, 2, [1, 2])
    obs = np.zeros((2, BIRMINGHAM.observation_size), np.float32)
    masks = np.zeros((2, N), bool)
    first = batch.games[0].legal_ids()[0]
    before = snapshots(batch)
    for actions in (np.array([2**32 + first, -1]), np.array([first, -2]),
                    np.array([float(first), -1.0]), np.array([True, False])):
        with pytest.raises(EngineError) as error:
            batch.step(actions, obs, masks)
        assert error.value.code == "INVALID_ARGUMENT", actions
        assert snapshots(batch) == before
    errors, done = batch.step(np.array([first, -1]), obs, masks)
    assert errors.tolist() == [0, 0] and not done.any()
    assert batch.games[0].version == 1


def test_batch_sizes_and_counts_are_bounded() -> None:
    game = brass.Game.new(2, 1)
    for call, field in (
        (lambda: brass.GameBatch(0, 2, []), "n"),
        (lambda: brass.GameBatch(2.0, 2, [1, 2]), "n"),  # type: ignore[arg-type]
        (lambda: brass.GameBatch(brass.engine.MAX_BATCH + 1, 2, []), "n"),
        (lambda: game.batch_playouts(2**40, 1), "n"),
        (lambda: game.compound_actions(limit=-1), "limit"),
        (lambda: game.compound_actions(limit=2**40), "limit"),
        (lambda: game.playout(1, max_decisions=2**40), "max_decisions"),
        (lambda: game.playout(1.5), "seed"),  # type: ignore[arg-type]
        (lambda: game.determinize(0, 1.5), "seed"),  # type: ignore[arg-type]
        (lambda: brass.random_playouts(2, 2**40), "games"),
        (lambda: brass.random_playouts(2**40, 1), "players"),
        (lambda: game.observation(None), "seat"),  # type: ignore[arg-type]
    ):
        snap = game.snapshot()
        with pytest.raises(EngineError) as error:
            call()
        assert error.value.code == "INVALID_ARGUMENT" and error.value.field == field
        assert game.snapshot() == snap


@pytest.mark.parametrize("bad", [1.0, "3", True, None, 2**70])
def test_ids_must_be_exact_integers(bad: object) -> None:
    """Regression: apply_compound and preview took int(1.7) as id 1 and "3" as id 3."""
    game = brass.Game.new(2, 1)
    snap = game.snapshot()
    for call in (game.apply, game.preview, game.reason,
                 lambda x: game.apply_compound([x]), lambda x: game.preview([0, x])):
        with pytest.raises(EngineError) as error:
            call(bad)
        assert error.value.code in ("INVALID_ARGUMENT", "UNKNOWN_ACTION"), call
        if bad == 2**70:
            assert error.value.code == "UNKNOWN_ACTION"
    assert game.snapshot() == snap


def test_numpy_integers_are_accepted_as_ids_and_seats() -> None:
    game = brass.Game.new(2, 1)
    seat, option = np.int64(game.current_seat), np.int16(game.legal_ids()[0])
    assert game.view(seat) == game.view(int(seat))
    game.apply(option, seat=seat)
    assert game.version == 1


def test_action_names_outside_the_space_are_unknown() -> None:
    assert brass.action_name(2**40) == brass.action_name(-1) == "unknown"
    with pytest.raises(EngineError):
        brass.engine.meaning(-1)


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_batch_playouts_play_copies_to_the_end_and_leave_the_game_unchanged(
    ruleset: str,
) -> None:
    """Game.batch_playouts: n copies of a game played to the end inside C, their final VP
    an n x players array equal to a finished copy's scores; the same seed the same games."""
    game = brass.Game.new(players=3, seed=4, ruleset=ruleset)
    before = game.state_hash()
    scores = game.batch_playouts(5, seed=9)
    assert scores.shape == (5, 3) and scores.dtype == np.int32
    assert game.state_hash() == before
    assert np.array_equal(scores, game.batch_playouts(5, seed=9))
    finished = game.clone()
    finished.playout(seed=1)
    assert finished.is_over
    assert finished.batch_playouts(2, seed=3).tolist() == [finished.scores()] * 2
