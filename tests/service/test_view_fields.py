"""The core's one-pass protobuf writer of the views (core_c/src/common/proto_writer.h):
its field numbers are the schema's, it is always built, it never writes past its cap, and
its bytes for fixed games parse into the message the JSON text makes (the random games of
tests/service/test_view_proto.py compare every decision)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import brass
from brass._core import ffi, lib
from brass_service.gen import birmingham_pb2 as bham_pb
from brass_service.gen import pittsburgh_pb2 as pgh_pb
from brass_service.tools import gen_proto
from brass_service.views import typed

VIEWS = {"BirminghamView": bham_pb.BirminghamView, "PittsburghView": pgh_pb.PittsburghView}
_DEFINE = re.compile(r"^#define brass_v1_(\w+)_(tag|kind) (\w+)$", re.MULTILINE)
_KINDS = {11: "MESSAGE", 5: "INT32", 8: "BOOL", 9: "STRING", 14: "ENUM"}  # descriptor types


def test_the_view_field_headers_are_current() -> None:
    """The headers are what gen_proto makes of the committed descriptor set (which
    tests/service/test_contract.py checks against the .proto files)."""
    descriptor_set = (gen_proto.GEN_DIR / gen_proto.DESCRIPTOR_SET_NAME).read_bytes()
    for path, text in gen_proto.generate_view_fields(descriptor_set).items():
        assert path.read_text() == text, (
            f"{path.name} is stale; run python -m brass_service.tools.gen_proto")


def _kind(field: Any) -> str:
    """A field's proto_writer.h kind, from the runtime's descriptor (not the generator's)."""
    if field.type == field.TYPE_MESSAGE and field.message_type.GetOptions().map_entry:
        return "PROTO_MAP_STRING_" + _KINDS[field.message_type.fields_by_name["value"].type]
    kind = _KINDS[field.type]
    if field.is_repeated:
        return "PROTO_REPEATED_" + kind
    if field.has_presence and field.type != field.TYPE_MESSAGE:
        return "PROTO_OPTIONAL_" + kind
    return "PROTO_" + kind


def _expected(descriptor: Any, found: dict[tuple[str, str], tuple[str, str]]) -> None:
    """Every field of `descriptor` and of the messages it holds: (message, field) ->
    (number, kind), the message named as the header names it."""
    name = descriptor.full_name.removeprefix("brass.v1.").replace(".", "_")
    if any(key[0] == name for key in found):
        return
    for field in descriptor.fields:
        found[(name, field.name)] = (str(field.number), _kind(field))
        held = field.message_type
        if held is not None and held.GetOptions().map_entry:
            held = held.fields_by_name["value"].message_type
        if held is not None:
            _expected(held, found)


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_every_field_number_and_kind_is_the_descriptors(view: str) -> None:
    """The header names every field of the view and of the messages it holds, each with
    its number and kind in the protobuf runtime's descriptors, and nothing else."""
    header = gen_proto.VIEW_FIELD_HEADERS[view].read_text()
    written: dict[tuple[str, str], dict[str, str]] = {}
    prefixes = sorted({key[0] for key in _all_expected(view)}, key=len, reverse=True)
    for name, part, value in _DEFINE.findall(header):
        message = next(p for p in prefixes if name.startswith(p + "_"))
        written.setdefault((message, name.removeprefix(message + "_")), {})[part] = value
    assert {key: (v["tag"], v["kind"]) for key, v in written.items()} == _all_expected(view)


def _all_expected(view: str) -> dict[tuple[str, str], tuple[str, str]]:
    found: dict[tuple[str, str], tuple[str, str]] = {}
    _expected(VIEWS[view].DESCRIPTOR, found)
    return found


def test_the_writer_is_in_every_build() -> None:
    """No optional runtime any more: both rulesets' views come from the core."""
    for ruleset in ("birmingham", "pittsburgh"):
        assert isinstance(brass.Game.new(players=2, seed=1, ruleset=ruleset).view_proto(0), bytes)


def _played(ruleset: str, players: int, decisions: int, seed: int) -> brass.Game:
    rng = random.Random(seed)
    game = brass.Game.new(players=players, seed=seed, ruleset=ruleset)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_ids()))
    return game


FIXED = [("birmingham", 2, 0), ("birmingham", 4, 120), ("birmingham", 3, 400),
         ("pittsburgh", 2, 0), ("pittsburgh", 4, 150), ("pittsburgh", 3, 2000)]


@pytest.mark.parametrize("ruleset,players,decisions", FIXED)
def test_fixed_games_parse_into_the_json_texts_message(
        ruleset: str, players: int, decisions: int) -> None:
    """Fixed games (the start, mid-game, the end): every seat's and a spectator's bytes
    are the message made from the JSON text; an optional field set to 0 (seat 0) is
    present, an unset one (a spectator's seat, undo_refused with undo possible) absent."""
    game = _played(ruleset, players, decisions, seed=players * 31 + decisions)
    message_type = VIEWS["BirminghamView" if ruleset == "birmingham" else "PittsburghView"]
    for seat in [None, *range(players)]:
        message = message_type.FromString(game.view_proto(seat))
        assert message == message_type(**typed.view_arm(game, seat)[ruleset]), seat
        if ruleset == "birmingham":
            assert message.HasField("seat") == (seat is not None)
            assert seat is None or message.seat == seat
        assert message.HasField("undo_refused") == (game.undo_steps() == 0
                                                    and not game.is_over)


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_a_short_buffer_is_refused_and_nothing_is_written_past_it(ruleset: str) -> None:
    """Every cap below the view's length is refused (BUFFER) and leaves the bytes past the
    cap as they were: writes are bounded, in nested messages too."""
    game = _played(ruleset, 4, 150, seed=9)
    whole = game.view_proto(0)
    out = ffi.new("uint8_t[]", len(whole) + 16)
    for cap in range(1, len(whole)):
        ffi.memmove(out, b"\xa5" * len(out), len(out))
        assert lib.brass_view_proto(game._g, 0, out, cap) == -lib.BRASS_E_BUFFER, cap
        assert ffi.buffer(out)[cap:] == b"\xa5" * (len(out) - cap), cap
    assert lib.brass_view_proto(game._g, 0, out, len(whole)) == len(whole)
    assert ffi.buffer(out)[:len(whole)] == whole
