"""The core's protobuf view (Game.view_proto, nanopb's encoder) is the message the JSON
view makes: gRPC answers carry the former, REST the latter, and a frontend must not be able
to tell which transport it used."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from google.protobuf import json_format

import brass
from brass._core import ffi, lib
from brass.views import _view_json, _view_proto
from brass_service.gen import birmingham_pb2 as bham_pb
from brass_service.gen import game_service_pb2 as pb
from brass_service.gen import pittsburgh_pb2 as pgh_pb
from brass_service.views import typed

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


def _pgh_from_json(game: brass.Game, seat: int | None) -> pgh_pb.PittsburghView:
    """The service's other path: the message built from the core's JSON text."""
    return pgh_pb.PittsburghView(**typed.view_arm(game, seat)["pittsburgh"])


def _preview_views(game: brass.Game, ids: list[int]) -> Iterator[tuple[bytes, str]]:
    """The protobuf and JSON views of the preview of `ids` by the seat to act, as that seat,
    a spectator and another seat see its outcome (brass_preview's state, redacted)."""
    after = ffi.new("BrassGame *")
    log = ffi.new("BrassEventLog *")
    reason, at = ffi.new("int *"), ffi.new("int *")
    actor = game.current_seat
    assert actor is not None
    assert lib.brass_preview(game._g, actor, ffi.new("uint16_t[]", ids), len(ids), after, log,
                             reason, at) == 0
    for seat in sorted({actor, -1, (actor + 1) % game.num_players}):
        data = _view_proto(after, seat)
        assert data is not None
        yield data, _view_json(after, seat)


@needs_encoder
@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"undo": False}), (4, {}),
    (2, {"data": "tiny"}), (3, {"data": "tiny", "links_count_unflipped": True}),
    (4, {"data": "tiny", "auto_resolve": False}),
])
def test_every_pittsburgh_seat_sees_the_same_view_in_both_encodings(
        players: int, options: dict[str, object]) -> None:
    """Random Pittsburgh games (the draft data and the tiny set) with random undos, compared
    after every decision for every seat and a spectator, and the outcome of a preview now
    and then: the core's bytes parse into exactly the message built from its JSON text
    (every option and undo in the options map, the own hand only, the cube fields of each
    tile and market, pipelines without cargo, face-down oilfields and empty merchant and
    quality slots without a tile, undo_steps and undo_refused)."""
    rng = random.Random(players * 1000 + len(options))
    game = brass.Game.new(players=players, seed=rng.getrandbits(32), ruleset="pittsburgh",
                          options=options)
    seen = {"refused": False, "steps": False, "pipeline": False, "revealed": False,
            "preview": 0}
    while not game.is_over:
        for seat in [None, *range(players)]:
            data = game.view_proto(seat)
            assert data is not None
            message = pgh_pb.PittsburghView.FromString(data)
            assert message == _pgh_from_json(game, seat), (seat, game.decisions_applied)
        seen["steps"] |= message.undo_steps > 0
        seen["refused"] |= message.HasField("undo_refused")
        seen["pipeline"] |= any(not link.HasField("cargo") for link in message.links)
        seen["revealed"] |= any(field.HasField("tile") for field in message.oilfields)
        if rng.random() < 0.05:
            for data, text in _preview_views(game, [rng.choice(game.legal_ids())]):
                document = orjson.loads(text)
                assert pgh_pb.PittsburghView.FromString(data) == typed.view_from_document(
                    "pittsburgh", document)
                seen["preview"] += 1
        if rng.random() < 0.05 and game.undo_steps() > 0:
            game.undo()
        else:
            game.apply(rng.choice(game.legal_ids()))
    assert game.is_over
    assert seen["refused"] and seen["pipeline"] and seen["revealed"] and seen["preview"], seen
    assert seen["steps"] or options.get("undo") is False, seen
    assert message.options["undo"] == ("false" if options.get("undo") is False else "true")
    assert message.options["data"] == options.get("data", "pittsburgh")


@needs_encoder
def test_the_service_state_holds_the_pittsburgh_core_bytes() -> None:
    """GameState's pittsburgh arm is the core's message, the same as from the JSON text."""
    game = brass.Game.new(players=3, seed=5, ruleset="pittsburgh")
    for _ in range(40):
        game.apply(game.legal_ids()[0])
    assert game.view_proto(1) is not None
    state = pb.GameState(viewer_seat=1)
    typed.put_view(state, game, 1)
    assert state.WhichOneof("view") == "pittsburgh"
    assert state.pittsburgh == _pgh_from_json(game, 1)
    assert state.pittsburgh.players[1].hand and not state.pittsburgh.players[0].hand
    assert pb.GameState.FromString(state.SerializeToString()) == state


@needs_encoder
def test_a_pittsburgh_state_the_json_writer_refuses_is_refused() -> None:
    """A state whose indexes name nothing (here a decision kind past the last) is refused
    by both writers alike, never read out of the tables' bounds."""
    game = brass.Game.new(players=2, seed=3, ruleset="pittsburgh")
    game._g.header.ruleset_fields[5] = 200  # PghHeader.phase
    for write in (game.view_json, game.view_proto):
        with pytest.raises(brass.EngineError) as error:
            write(0)
        assert error.value.code == "BAD_POSITION"


def test_a_bad_seat_is_refused() -> None:
    game = brass.Game.new(players=2, seed=3)
    with pytest.raises(brass.EngineError) as error:
        game.view_proto(2)
    assert error.value.code == "INVALID_ARGUMENT"


# ------------------------------------------------ Pittsburgh's documents as proto3 JSON

def _message_json(message: Any) -> dict[str, Any]:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def _kinds(descriptor: Any, seen: set[str]) -> set[int]:
    """Every field type in a message and the messages it holds."""
    if descriptor.full_name in seen:
        return set()
    seen.add(descriptor.full_name)
    kinds = set()
    for field in descriptor.fields:
        kinds.add(field.type)
        if field.message_type is not None:
            kinds |= _kinds(field.message_type, seen)
    return kinds


PGH_DOCUMENTS = (pgh_pb.PittsburghView, pgh_pb.PittsburghEvent,
                 pgh_pb.PittsburghOptionMeaning, pgh_pb.PittsburghPreviewCost)


def test_pittsburgh_documents_hold_no_field_document_json_does_not_write() -> None:
    """document_json writes scalars as the engine gives them: right for every kind but the
    ones whose proto3 JSON differs from the value (64-bit integers as strings, floats'
    special values, bytes as base64): none may appear in the documents it writes."""
    descriptor = pgh_pb.PittsburghView.DESCRIPTOR
    unsupported = {descriptor.fields[0].TYPE_INT64, descriptor.fields[0].TYPE_UINT64,
                   descriptor.fields[0].TYPE_SINT64, descriptor.fields[0].TYPE_FIXED64,
                   descriptor.fields[0].TYPE_SFIXED64, descriptor.fields[0].TYPE_DOUBLE,
                   descriptor.fields[0].TYPE_FLOAT, descriptor.fields[0].TYPE_BYTES}
    for message in PGH_DOCUMENTS:
        assert not _kinds(message.DESCRIPTOR, set()) & unsupported, message.__name__


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pittsburgh_rest_json_is_json_format_of_the_message(players: int) -> None:
    """Views (every seat and a spectator), events, option meanings and preview costs of
    random Pittsburgh games: document_json's JSON is json_format's of the typed message."""
    rng = random.Random(players)
    game = brass.Game.new(players=players, seed=rng.getrandbits(32), ruleset="pittsburgh")
    checked = {"view": 0, "event": 0, "meaning": 0, "cost": 0}
    for _ in range(160):
        if game.is_over:
            break
        for seat in [None, *range(players)]:
            document = game.view(seat)
            assert typed.view_json("pittsburgh", document) == _message_json(
                typed.view_from_document("pittsburgh", document))
            checked["view"] += 1
        options = game.legal_actions()
        for option in rng.sample(options, min(4, len(options))):
            _arm, message, as_json = typed.meaning_parts("pittsburgh", option.meaning)
            assert as_json == _message_json(message)
            checked["meaning"] += 1
        choice = rng.choice(options).id
        preview = game.preview(choice)
        _arm, cost, cost_json = typed.cost_parts("pittsburgh", preview.get("cost") or {})
        assert cost_json == _message_json(cost)
        checked["cost"] += 1
        version = game.decisions_applied
        for event in game.apply(choice):
            arm = typed.event_json("pittsburgh", version, event)["pittsburgh"]
            assert arm == _message_json(typed.event_message("pittsburgh", version,
                                                            event).pittsburgh)
            checked["event"] += 1
    assert min(checked.values()) > 0, checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pittsburgh_view_text_rekeyed_by_the_core(players: int) -> None:
    """Pittsburgh's core writes snake_case keys and nulls, and re-keys that text in C
    (json_rekey): with keys="proto" it is the same document without its null members, with
    keys="camel" the message's canonical proto3 JSON as document_json writes it from the
    snake_case document (map keys, such as option names with underscores, unchanged)."""
    rng = random.Random(40 + players)
    game = brass.Game.new(players=players, seed=rng.getrandbits(32), ruleset="pittsburgh")
    checked = 0
    for _ in range(200):
        if game.is_over:
            break
        for seat in [None, *range(players)]:
            snake = orjson.loads(game.view_json(seat))
            assert orjson.loads(game.view_json(seat, keys="proto")) == typed._without_nulls(snake)
            camel = orjson.loads(game.view_json(seat, keys="camel"))
            assert camel == typed.document_json(pgh_pb.PittsburghView.DESCRIPTOR, snake)
            assert "mfg_v_vp" in camel["options"] and "undoSteps" in camel
            checked += 1
        game.apply(rng.choice(game.legal_ids()))
    assert checked > 100
