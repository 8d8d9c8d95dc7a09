"""The core's protobuf view (Game.view_proto, nanopb's encoder) is the message the JSON
view makes: gRPC answers carry the former, REST the latter, and a frontend must not be able
to tell which transport it used."""

from __future__ import annotations

import os
import random

import orjson
import pytest

import brass
from brass_service import typed
from brass_service.gen import birmingham_pb2 as bham_pb
from brass_service.gen import game_service_pb2 as pb

# CI builds the core with BRASS_NANOPB=1: there the encoder must be in (a build that lost
# it would silently fall back to the slower path and pass every other test).
REQUIRED = os.environ.get("BRASS_NANOPB") == "1"
HAVE_ENCODER = brass.Game.new(players=2, seed=1).view_proto(0) is not None


def _from_json(game: brass.Game, seat: int | None) -> bham_pb.BirminghamView:
    return bham_pb.BirminghamView(**orjson.loads(game.view_json(seat, keys="proto")))


def test_the_encoder_is_built_where_required() -> None:
    if REQUIRED:
        assert HAVE_ENCODER, "BRASS_NANOPB=1 but the core has no protobuf view encoder"
    elif not HAVE_ENCODER:
        pytest.skip("this core was built without nanopb (libnanopb-dev): "
                    "the service builds its views from the JSON text")


needs_encoder = pytest.mark.skipif(
    not HAVE_ENCODER, reason="core built without nanopb's runtime (libnanopb-dev)")


@needs_encoder
@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"undo": False}), (4, {}), (2, {"beginner": True}),
    (4, {"manufacturer_iv_cost": 14, "auto_resolve": False}),
])
def test_every_seat_sees_the_same_view_in_both_encodings(
        players: int, options: dict[str, object]) -> None:
    """Random games with random undos, compared after every decision for every seat and a
    spectator: the core's bytes parse into exactly the message built from its JSON text
    (own hand and hand counts, others' wild cards, empty goods of a tile-less space,
    optional fields absent, undo_steps and undo_refused)."""
    rng = random.Random(players * 100 + len(options))
    game = brass.Game.new(players=players, seed=rng.getrandbits(32), **options)
    seen_refused = seen_steps = False
    while not game.is_over:
        for seat in [None, *range(players)]:
            data = game.view_proto(seat)
            assert data is not None
            message = bham_pb.BirminghamView.FromString(data)
            assert message == _from_json(game, seat), (seat, game.decisions_applied)
            seen_steps |= message.undo_steps > 0
            seen_refused |= message.HasField("undo_refused")
        if rng.random() < 0.05 and game.undo_steps() > 0:
            game.undo()
        else:
            game.apply(rng.choice(game.legal_ids()))
    assert seen_refused
    assert seen_steps or options.get("undo") is False


@needs_encoder
def test_the_service_state_holds_the_core_bytes() -> None:
    """GameState's view arm is the core's message, the same as from the JSON text."""
    game = brass.Game.new(players=3, seed=5)
    for _ in range(40):
        game.apply(game.legal_ids()[0])
    state = pb.GameState(viewer_seat=1)
    typed.put_view(state, game, 1)
    assert state.WhichOneof("view") == "birmingham"
    assert state.birmingham == _from_json(game, 1)
    assert state.viewer_seat == 1
    assert pb.GameState.FromString(state.SerializeToString()) == state


def test_pittsburgh_views_come_from_the_json_text() -> None:
    """No encoder for Pittsburgh's view yet: None, and the service's constructor path."""
    game = brass.Game.new(players=2, seed=3, ruleset="pittsburgh")
    assert game.view_proto(0) is None
    state = pb.GameState()
    typed.put_view(state, game, 0)
    assert state.WhichOneof("view") == "pittsburgh"
    assert state.pittsburgh.num_players == 2


def test_a_bad_seat_is_refused() -> None:
    game = brass.Game.new(players=2, seed=3)
    with pytest.raises(brass.EngineError) as error:
        game.view_proto(2)
    assert error.value.code == "INVALID_ARGUMENT"
