"""The typed contract over both transports (issue 12, item 1).

Random games of each ruleset (Birmingham, Pittsburgh) are played on a real server twice,
with the same seed and the same decisions: one over REST, one over gRPC. At every step
each document the service sends -- seat and spectator views, events, option meanings,
unavailable options' reason codes, preview costs and views, replay decisions, watched
events -- must

- parse strictly (json_format, unknown fields refused) from its REST JSON into its typed
  message;
- be that same message over gRPC;
- be, as REST JSON, the canonical proto3 JSON of the gRPC message (json_format.MessageToDict)
  up to the default values that proto3 JSON may leave out or write (docs/SERVICE.md,
  "JSON conventions").

The games are long enough (played to the end; Birmingham seeds 0-5, one beginner game;
Pittsburgh a game of each player count) that every event kind of BirminghamEvent, and of
PittsburghEvent but the three random play seldom reaches, occurs; the test fails if one
does not. The reason enums
are checked against the core's reason tables, names and numbers, for both rulesets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

import brass
from brass_clients.sdk import GameClient
from brass_service.gen import birmingham_pb2 as bham_pb
from brass_service.gen import game_service_pb2 as pb
from brass_service.gen import pittsburgh_pb2 as pgh_pb

from .conftest import Backend
from .helpers import RestClient, ServerProcess, sse_events, without_defaults

# (seed, players, beginner): the first six seeds of random play show every event kind
GAMES = [(0, 2, False), (1, 3, False), (2, 4, False), (3, 2, True), (4, 3, False),
         (5, 4, False)]
EVENT_KINDS = {f.name for f in bham_pb.BirminghamEvent.DESCRIPTOR.oneofs_by_name["kind"].fields}


def _parsed(document: Any, message: Message) -> Message:
    """The REST JSON document parsed strictly into a fresh message of message's type."""
    fresh = type(message)()
    json_format.ParseDict(document, fresh, ignore_unknown_fields=False)
    return fresh


def _same(rest: Any, grpc_message: Message, what: str) -> None:
    """REST's JSON and the gRPC message are the same document."""
    assert _parsed(rest, grpc_message) == grpc_message, what
    assert without_defaults(rest) == without_defaults(
        json_format.MessageToDict(grpc_message)), what


class _Pair:
    """The same game on the server twice: `rest` played over REST, `grpc` over gRPC. Its
    ruleset's name is the `oneof` arm of every typed document (view, meaning, event)."""

    def __init__(self, client: GameClient, rest: RestClient, seed: int, players: int,
                 beginner: bool, ruleset: str = "birmingham") -> None:
        self.client, self.rest, self.arm = client, rest, ruleset
        options = {"beginner": True} if beginner else {}
        created = rest.post("/v1/games", {"players": players, "seed": str(seed),
                                          "options": options,
                                          "ruleset": "RULESET_" + ruleset.upper()})
        self.rest_id = created["gameId"]
        self.rest_tokens = [s["token"] for s in created["seats"]]
        grpc_created = client.create_game(players=players, seed=seed, ruleset=ruleset,
                                          beginner=beginner or None)
        self.grpc_id = grpc_created.game_id
        self.grpc_tokens = [s.token for s in grpc_created.seats]
        self.same_view(created["state"], grpc_created.state, "created view")
        self.mirror = brass.Game.new(players=players, seed=seed, ruleset=ruleset,
                                     **({"beginner": True} if beginner else {}))

    def same_view(self, rest_state: Any, grpc_state: pb.GameState, what: str) -> None:
        assert grpc_state.WhichOneof("view") == self.arm, what
        _same(rest_state[self.arm], getattr(grpc_state, self.arm), what)

    def same_events(self, events: list[Any], grpc_events: Any, what: str) -> set[str]:
        """The same events; their kinds."""
        assert len(events) == len(grpc_events), what
        kinds = set()
        for event, grpc_event in zip(events, grpc_events, strict=True):
            assert grpc_event.WhichOneof("event") == self.arm, what
            kinds.add(getattr(grpc_event, self.arm).WhichOneof("kind"))
            _same(event, grpc_event, f"{what} {event}")
        return kinds

    def get(self, seat: int | None) -> None:
        token = None if seat is None else self.rest_tokens[seat]
        state = self.rest.get(f"/v1/games/{self.rest_id}", token)["state"]
        grpc_token = None if seat is None else self.grpc_tokens[seat]
        grpc_state = self.client.get_game(self.grpc_id, grpc_token)
        self.same_view(state, grpc_state, f"view of {seat}")
        assert set(state) <= {"summary", "viewerSeat", self.arm, "scores", "winners"}

    def legal(self, seat: int, unavailable: bool) -> list[int]:
        query = "?includeUnavailable=true" if unavailable else ""
        listing = self.rest.get(f"/v1/games/{self.rest_id}/actions{query}",
                                self.rest_tokens[seat])
        request = pb.ListLegalActionsRequest(game_id=self.grpc_id,
                                             include_unavailable=unavailable)
        grpc_listing = self.client._call("ListLegalActions", request, self.grpc_tokens[seat])
        assert len(listing["options"]) == len(grpc_listing.options)
        for option, grpc_option in zip(listing["options"], grpc_listing.options, strict=True):
            assert grpc_option.WhichOneof("meaning") == self.arm
            _same(option, grpc_option, f"option {option['id']}")
        code = f"{self.arm}_reason"
        names = grpc_listing.DESCRIPTOR.fields_by_name["unavailable"].message_type \
            .fields_by_name[code].enum_type.values_by_number
        for item, grpc_item in zip(listing["unavailable"], grpc_listing.unavailable,
                                   strict=True):
            assert grpc_item.WhichOneof("code") == code
            assert names[getattr(grpc_item, code)].name == item["reason"]
            _same(item, grpc_item, f"unavailable {item['id']}")
        return [option["id"] for option in listing["options"]]

    def preview(self, seat: int, option_id: int) -> None:
        body = {"action": {"optionId": option_id}}
        preview = self.rest.post(f"/v1/games/{self.rest_id}/actions:preview", body,
                                 self.rest_tokens[seat])
        grpc_preview = self.client.preview_action(self.grpc_id, self.grpc_tokens[seat],
                                                  option_id)
        assert grpc_preview.WhichOneof("cost") == f"{self.arm}_cost"
        assert grpc_preview.WhichOneof("view") == self.arm
        _same(preview, grpc_preview, f"preview of {option_id}")

    def submit(self, seat: int, option_id: int) -> set[str]:
        body = {"action": {"optionId": option_id}}
        response = self.rest.post(f"/v1/games/{self.rest_id}/actions", body,
                                  self.rest_tokens[seat])
        grpc_response = self.client.submit_action(self.grpc_id, self.grpc_tokens[seat],
                                                  option_id)
        self.same_view(response["state"], grpc_response.state, "seat view")
        return self.same_events(response["events"], grpc_response.events, "event")

    def undo(self, seat: int) -> set[str]:
        """UndoAction over both transports: the same view and undo event."""
        version = self.mirror.version
        response = self.rest.post(f"/v1/games/{self.rest_id}:undo",
                                  {"expectedVersion": str(version)}, self.rest_tokens[seat])
        grpc_response = self.client.undo_action(self.grpc_id, self.grpc_tokens[seat],
                                                expected_version=version)
        self.same_view(response["state"], grpc_response.state, "undone view")
        return self.same_events(response["events"], grpc_response.events, "undo event")

    def replay_and_watch(self) -> None:
        replay = self.rest.get(f"/v1/games/{self.rest_id}/replay")
        grpc_replay = self.client._call("GetReplay", pb.GetReplayRequest(game_id=self.grpc_id))
        assert len(grpc_replay.decisions) == self.mirror.version
        for decision, grpc_decision in zip(replay["decisions"], grpc_replay.decisions,
                                           strict=True):
            _same(decision, grpc_decision, "replay decision")
        watched = [data for event, _id, data in sse_events(
            self.rest.port, f"/v1/games/{self.rest_id}/events") if event == "update"]
        grpc_watched = list(self.client.watch_game(self.grpc_id, from_version=0))
        assert len(watched) == len(grpc_watched)
        for update, grpc_update in zip(watched, grpc_watched, strict=True):
            self.same_events(update["events"], grpc_update.events, "watched event")
            if grpc_update.HasField("state"):
                self.same_view(update["state"], grpc_update.state, "watched view")


def _play(pair: _Pair, rng: random.Random) -> set[str]:
    """The game to its end, every document compared at every step (previews and other
    viewers' views every tenth, an undo now and then); the event kinds sent."""
    seen: set[str] = set()
    players = pair.mirror.num_players
    step = 0
    while not pair.mirror.is_over:
        seat = pair.mirror.current_seat
        assert seat is not None
        ids = pair.legal(seat, unavailable=step % 25 == 0)
        assert sorted(ids) == sorted(pair.mirror.legal_ids())
        option_id = rng.choice(pair.mirror.legal_ids())  # as the frequency scan did
        if step % 10 == 0:
            pair.preview(seat, option_id)
            pair.get(None)
            pair.get((seat + 1) % players)
        seen |= pair.submit(seat, option_id)
        pair.mirror.apply(option_id, seat=seat)
        step += 1
        after = pair.mirror.current_seat
        if step % 40 == 0 and after is not None and pair.mirror.undo_steps(after):
            seen |= pair.undo(after)
            pair.mirror.undo(seat=after)
    pair.get(None)
    pair.get(0)
    pair.replay_and_watch()
    return seen


# Both transports and the typed encoding do not depend on the store: SQLite only.
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_every_document_is_the_same_typed_message_over_rest_and_grpc(
    backend: Backend, server: ServerProcess
) -> None:
    seen: set[str] = set()
    rest = server.rest()
    with server.client() as client:
        for seed, players, beginner in GAMES:
            seen |= _play(_Pair(client, rest, seed, players, beginner), random.Random(seed))
    rest.close()
    assert EVENT_KINDS - seen == set(), "event kinds never sent"


def test_reason_enums_are_the_cores_reason_tables() -> None:
    """Every reason code of each ruleset (shared 0-19, the ruleset's own from 64) has the
    core's name and number in the ruleset's enum, and the enum has nothing else."""
    enums = {"birmingham": bham_pb.BirminghamReason.Code,
             "pittsburgh": pgh_pb.PittsburghReason.Code}
    for ruleset in brass.engine.rulesets():
        enum = enums[ruleset.name]
        core: dict[str, int] = {}
        for code in range(256):
            name = brass.engine._text(brass.engine.lib.brass_reason_name(ruleset.id, code))
            if name is not None:
                core[name] = code
        assert dict(enum.items()) == core, ruleset.name


# Pittsburgh: every kind of its catalogue but those random play seldom reaches (their
# recorded games are checked in test_pittsburgh_messages.py).
PITTSBURGH_GAMES = [(10, 2), (11, 3), (12, 4)]
PITTSBURGH_KINDS = ({f.name for f in
                     pgh_pb.PittsburghEvent.DESCRIPTOR.oneofs_by_name["kind"].fields}
                    - {"quality", "replaced", "upgrade_score"})


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_every_pittsburgh_document_is_the_same_typed_message_over_rest_and_grpc(
    backend: Backend, server: ServerProcess
) -> None:
    """As above for Brass: Pittsburgh (pittsburgh.proto): views of each seat and a
    spectator, events, option meanings, reason codes, preview costs and views, undos,
    replay decisions and watched updates of seeded games played over both transports."""
    seen: set[str] = set()
    rest = server.rest()
    with server.client() as client:
        for seed, players in PITTSBURGH_GAMES:
            pair = _Pair(client, rest, seed, players, False, ruleset="pittsburgh")
            seen |= _play(pair, random.Random(seed))
    rest.close()
    assert PITTSBURGH_KINDS - seen == set(), "event kinds never sent"
