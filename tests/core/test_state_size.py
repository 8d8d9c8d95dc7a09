"""A Game holds only its ruleset's bytes of the BrassGame union (issue 22): the core must
never write past brass_state_size through a game's handle. Guard bytes after the state
stay as they were through play, undo, previews, views, clones and determinization."""

import random

import pytest

from brass import Game
from brass._core import ffi, lib
from brass.args import _c_options
from brass.game import _state_bytes
from brass.rulesets import get_ruleset

GUARD = 0xA5


def _guarded(game: Game) -> tuple[Game, bytearray, int]:
    """`game` moved into a buffer with guard bytes after its ruleset's state."""
    size = game.ruleset_info.state_size
    buf = bytearray(_state_bytes(game._g, game.ruleset_info)) + bytes([GUARD]) * 4096
    game._mem, game._g = buf, ffi.from_buffer("BrassGame *", buf)
    return game, buf, size


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_core_writes_only_the_rulesets_bytes(ruleset: str) -> None:
    game, buf, size = _guarded(Game.new(2, seed=5, ruleset=ruleset))
    assert game.ruleset_info.state_size < ffi.sizeof("BrassGame")
    rng = random.Random(5)
    for step in range(400):
        if game.is_over:
            break
        legal = game.legal_ids()
        game.preview(legal[0])
        game.view_json(0)
        game.observation(0)
        if step % 7 == 3 and game.undo_steps() > 0:
            game.undo()
        else:
            game.apply(rng.choice(legal))
        if step % 50 == 0 and not game.is_over:
            copy = game.determinize(0, step)
            copy.apply(copy.legal_ids()[0])
            game.clone().playout(step)
        assert set(buf[size:]) == {GUARD}, f"the core wrote past the state at step {step}"


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_a_new_deal_writes_only_the_rulesets_bytes(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    buf = bytearray(rs.state_size) + bytes([GUARD]) * 4096
    options, _ = _c_options(rs, 2, {})
    assert lib.brass_new(ffi.from_buffer("BrassGame *", buf), options, 9) == 0
    assert set(buf[rs.state_size:]) == {GUARD}
    assert bytes(buf[:rs.state_size]) == _state_bytes(Game.new(2, 9, ruleset=ruleset)._g, rs)
