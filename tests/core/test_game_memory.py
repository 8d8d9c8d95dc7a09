"""What one Game holds (issue 22): the start of its replay record is shared, never copied
per game or per clone, while each game keeps its own decisions."""

import pytest

from brass import EngineError, Game


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
