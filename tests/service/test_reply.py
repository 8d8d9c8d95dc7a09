"""The fast response paths give exactly what the plain protobuf route gives.

SubmitAction, GetGame and ListLegalActions build their protobuf bytes from parts (typed
views from the core's text, options from a per-process cache) and their REST JSON straight
from the engine's documents (the view's text as the core writes it in proto3 JSON's key
style). Over whole random games, for every seat and the spectator, the bytes must equal the
messages built field by field from the engine's dicts, and the JSON must be their canonical
proto3 JSON (up to the default values proto3 JSON may leave out), parsing strictly back
into the same message.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from google.protobuf import json_format

import brass
from brass_service.games import GameService
from brass_service.gen import birmingham_pb2 as bham_pb
from brass_service.gen import game_service_pb2 as pb
from brass_service.model import LiveGame, status_of
from brass_service.store import GameRow
from brass_service.views.answers import StateParts, events_json, option_kind
from brass_service.views.convert import message_to_json_dict
from brass_service.views.summary import game_summary, timestamp_json, timestamp_message

from .helpers import without_defaults


def _reference_view(view: dict[str, Any]) -> bham_pb.BirminghamView:
    """The engine's view dict as BirminghamView, through json_format (nulls are absent)."""
    return json_format.ParseDict(view, bham_pb.BirminghamView(), ignore_unknown_fields=False)


def _reference_event(version: int, event: dict[str, Any]) -> pb.GameEvent:
    fields = {k: v for k, v in event.items() if k not in ("type", "seat")}
    message = json_format.ParseDict({"version": version, "birmingham": {event["type"]: fields}},
                                    pb.GameEvent(), ignore_unknown_fields=False)
    if event["seat"] is not None:
        message.seat = event["seat"]
    return message


def _reference_state(row: GameRow, live: LiveGame, seat: int | None) -> pb.GameState:
    game = live.game
    state = pb.GameState(summary=game_summary(row, live),
                         birmingham=_reference_view(game.view(seat)))
    if seat is not None:
        state.viewer_seat = seat
    if game.is_over:
        state.scores.extend(game.scores())
        state.winners.extend(game.winners())
    return state


def _row(game: Any, position: bool = False) -> GameRow:
    now = time.time()
    return GameRow(
        game_id="g" * 20, ruleset=pb.RULESET_BIRMINGHAM, rules_edition=1,
        players=game.num_players, seed=1, options={}, position_json="{}" if position else None,
        seat_names=[f"P{i}" for i in range(game.num_players)],
        token_hashes=["x"] * game.num_players, created_at=now - 100.25, updated_at=now,
        version=0, status=status_of(game), current_seat=game.current_seat,
        decision=game.decision,
    )


class _NoStore:
    def __getattr__(self, part: str) -> None:
        return None  # the store's other parts (accounts, challenges…) are not used here

    def add_listener(self, listener: object) -> None:
        return None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_submit_and_get_replies_match_the_plain_route(players: int) -> None:
    rng = random.Random(players)
    game = brass.Game.new(players=players, seed=players * 7)
    row = _row(game, position=players == 3)
    version = 0
    while not game.is_over:
        seat = game.current_seat
        events = game.apply(rng.choice(game.legal_ids()), seat)
        version += 1
        live = LiveGame(game, version, time.time() + rng.random())
        viewers = [seat, None] if rng.random() < 0.3 else [seat]
        for viewer in viewers:
            parts = StateParts(row, live, viewer)
            data = pb.SubmitActionResponse(
                state=parts.message(),
                events=[_typed_event(version, e) for e in events]).SerializeToString()
            reference = pb.SubmitActionResponse(
                state=_reference_state(row, live, viewer),
                events=[_reference_event(version, e) for e in events],
            )
            assert pb.SubmitActionResponse.FromString(data) == reference
            # gRPC's bytes, joined from the parts (the core's view bytes as they are)
            assert pb.GameState.FromString(parts.to_bytes()) == reference.state
            expected = message_to_json_dict(reference)
            fast_json = {"state": parts.to_json(),
                         "events": events_json("birmingham", version, events),
                         "replayed": False}
            assert without_defaults(fast_json) == without_defaults(expected)
            # The JSON text (the view's as the core wrote it) parses strictly into the same
            # message.
            text = parts.to_json_text()
            assert json_format.Parse(text, pb.GameState(),
                                     ignore_unknown_fields=False) == reference.state
            assert json.loads(text) == fast_json["state"]


@pytest.mark.parametrize("players", [2, 4])
def test_pittsburgh_state_bytes_are_its_message(players: int) -> None:
    """Pittsburgh's GameState bytes, joined from the core's view bytes, are the message
    made field by field (game_state), for every seat and the spectator, to the end."""
    rng = random.Random(players)
    game = brass.Game.new(players=players, seed=players * 5, ruleset="pittsburgh")
    row = _row(game)
    row.ruleset = pb.RULESET_PITTSBURGH
    version = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_ids()), game.current_seat)
        version += 1
        if rng.random() < 0.2 or game.is_over:
            live = LiveGame(game, version, time.time())
            for viewer in (*range(players), None):
                parts = StateParts(row, live, viewer)
                assert pb.GameState.FromString(parts.to_bytes()) == parts.message()


def _typed_event(version: int, event: dict[str, Any]) -> pb.GameEvent:
    from brass_service.views import typed

    return typed.event_message("birmingham", version, event)  # type: ignore[return-value]


def test_legal_options_match_the_plain_route() -> None:
    service = GameService(_NoStore())  # type: ignore[arg-type]
    rng = random.Random(5)
    for seed in range(3):
        game = brass.Game.new(players=4, seed=seed)
        while not game.is_over:
            decision = game.decision
            head = pb.ListLegalActionsResponse(game_id="g", version=3, seat=1, decision=decision)
            options_bytes, options_json = service.legal.options(decision, game)
            reference = pb.ListLegalActionsResponse()
            reference.CopyFrom(head)
            for option in game.legal_actions():
                kind = option.meaning["kind"]
                fields = {k: v for k, v in option.meaning.items() if k != "kind"}
                reference.options.add(id=option.id, kind=option_kind(option), name=option.name,
                                      birmingham=json_format.ParseDict(
                                          {kind: fields}, bham_pb.BirminghamMeaning()))
            assert pb.ListLegalActionsResponse.FromString(
                head.SerializeToString() + options_bytes
            ) == reference
            assert [without_defaults(json.loads(text)) for text in options_json] == [
                without_defaults(o) for o in message_to_json_dict(reference)["options"]]
            game.apply(rng.choice(game.legal_ids()))


def test_simple_submit_bodies_parse_as_json_format_does() -> None:
    from google.protobuf import json_format

    from brass_service.api.rest_parse import simple_submit as _simple_submit

    bodies: list[dict[str, Any]] = [
        {"action": {"optionId": 7}},
        {"action": {"optionId": 0}, "expectedVersion": "12", "idempotencyKey": "k"},
        {"action": {"optionId": 2**31 - 1}, "expectedVersion": 5, "gameId": "g"},
        {"action": {"optionId": -3}, "expectedVersion": "-9223372036854775808"},
        {"action": {"optionId": 1}, "expectedVersion": "9223372036854775808"},
        {"action": {"optionId": 1.0}},
        {"action": {"optionId": True}},
        {"action": {"optionId": "4"}},
        {"action": {"option_id": 4}},
        {"action": {"optionId": 4}, "expected_version": 3},
        {"action": {"compound": {"ids": [1, 2]}}},
        {"action": {"optionId": 4}, "idempotencyKey": 5},
        {"action": {"optionId": 4}, "expectedVersion": "1e3"},
        {"action": {"optionId": 4}, "expectedVersion": None},
        {"action": {"optionId": 4}, "other": 1},
    ]
    for body in bodies:
        try:
            expected: pb.SubmitActionRequest | None = json_format.ParseDict(
                body, pb.SubmitActionRequest()
            )
        except json_format.ParseError:
            expected = None
        fast = _simple_submit(body)
        if fast is not None:  # the fast route only takes bodies json_format accepts alike
            assert expected is not None and fast == expected, body


def test_timestamp_json_is_protobufs_text() -> None:
    # Whole seconds, milli-, micro- and nanosecond fractions: 0, 3, 6 or 9 digits.
    rng = random.Random(5)
    samples = [0.0, 1.5, 1.25, 1.000001, 1_700_000_000.123456789, 4_102_444_799.999]
    for _ in range(20_000):
        base = rng.randint(0, 4_102_444_799)
        samples += [base, base + rng.randint(1, 999) / 1000, base + rng.randint(1, 999_999) / 1e6,
                    base + rng.random()]
    for seconds in samples:
        assert timestamp_json(seconds) == timestamp_message(seconds).ToJsonString(), seconds
