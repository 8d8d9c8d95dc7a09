"""What one Game holds (issue 22): the start of its replay record is shared, never copied
per game or per clone, while each game keeps its own decisions."""

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from brass import EngineError, Game, GameBatch


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_games_dealt_alike_share_their_recorded_options(ruleset: str) -> None:
    first, second = Game.new(2, seed=1, ruleset=ruleset), Game.new(3, seed=2, ruleset=ruleset)
    assert first.replay_record()["options"] is second.replay_record()["options"]
    other = Game.new(2, seed=1, ruleset=ruleset, auto_resolve=False)
    assert other.replay_record()["options"] == {**first.replay_record()["options"],
                                                "auto_resolve": False}
    assert first.replay_record()["options"]["auto_resolve"] is True


def test_a_clone_shares_the_start_and_keeps_its_own_decisions() -> None:
    game = Game.new(2, seed=4)
    game.apply(game.legal_ids()[0])
    copy = game.clone()
    copy.apply(copy.legal_ids()[0])
    assert game.version == 1 and copy.version == 2
    assert game.replay_record()["decisions"] == copy.replay_record()["decisions"][:1]
    # each replays to its own state
    assert Game.replay(copy.replay_record()).state_hash() == copy.state_hash()
    assert Game.replay(game.replay_record()).state_hash() == game.state_hash()


def test_a_playout_marks_only_its_own_record() -> None:
    game = Game.new(2, seed=6)
    copy = game.clone()
    copy.playout(3)
    assert copy.replay_record().get("playout") is True
    assert "playout" not in game.replay_record()


def test_a_released_turn_start_refuses_undo_until_the_next_turn() -> None:
    game = Game.new(2, seed=8)
    assert game.holds_turn_start  # at the turn's start: the state itself
    game.apply(game.legal_ids()[0])
    while game.undo_depth == 0:  # into a turn, away from its start
        game.apply(game.legal_ids()[0])
    assert game.holds_turn_start and game.undo_steps() > 0
    kept = game.clone()
    game.release_turn_start()
    assert not game.holds_turn_start and game.undo_steps() > 0  # the core still allows it
    with pytest.raises(EngineError) as refused:
        game.undo()
    assert refused.value.reason == "TURN_START_UNKNOWN"
    assert game.state_hash() == kept.state_hash() and game.version == kept.version
    kept.undo()  # the copy made before the release still holds it
    seat = game.current_seat
    while game.current_seat == seat and not game.is_over:  # on to the next turn's start
        game.apply(game.legal_ids()[0])
    assert game.holds_turn_start


def _played(ruleset: str, seed: int) -> tuple[list[list[dict]], int]:
    """A random game's events and final hash (the same rng for every caller)."""
    rng = random.Random(seed)
    game = Game.new(2, seed=seed, ruleset=ruleset)
    events = []
    while not game.is_over:
        events.append(game.apply(rng.choice(game.legal_ids())))
    return events, game.state_hash()


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_threads_play_as_the_main_thread_does(ruleset: str) -> None:
    """The main thread's call buffers are a global and other threads' are their own: games
    played at once in several threads (the core releases the GIL) match those played
    alone in the main thread."""
    alone = [_played(ruleset, seed) for seed in range(4)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda seed: _played(ruleset, seed), range(4)))
    assert together == alone


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_header_fields_come_from_the_games_own_bytes(ruleset: str) -> None:
    """num_players, current_seat and is_over read the state's bytes (no cdata struct per
    read): they agree with the core's view, and a clone's bytes are its own."""
    game = Game.new(3, seed=2, ruleset=ruleset)
    copy = game.clone()
    rng = random.Random(2)
    while not game.is_over:
        view = game.view()
        assert game.num_players == 3 == game.replay_record()["players"]
        assert game.current_seat == view["current"]
        game.apply(rng.choice(game.legal_ids()))
    assert game.is_over and game.current_seat is None and game.view()["game_over"]
    assert not copy.is_over and copy.current_seat is not None
    assert copy.snapshot() == Game.new(3, seed=2, ruleset=ruleset).snapshot()


def test_a_batch_games_clone_owns_its_bytes() -> None:
    """A GameBatch game reads its slot of the batch's array; its clone is a game of its own
    that the batch's steps do not change."""
    batch = GameBatch(2, 2, [3, 4])
    game = batch.games[1]
    copy = game.clone()
    game.apply(game.legal_ids()[0])
    assert copy.version == 0 and copy.snapshot() != game.snapshot()
    assert copy.snapshot() == Game.new(2, seed=4).snapshot()
    copy.apply(copy.legal_ids()[0])
    assert copy.state_hash() == game.state_hash()
