"""Replays a viewer can use (issue 12, item 5): GetReplay's typed decisions, and GetGame at
a past version, over gRPC and REST, revealing nothing the caller could not see then."""

from __future__ import annotations

import json
import random
import time

from google.protobuf import json_format

import brass
from brass_clients.sdk import pb, view_dict
from brass_service.views.convert import message_to_json_dict

from .helpers import (
    ServerProcess,
    engine_view,
    expect_error,
    expect_rest_error,
    without_defaults,
)


def _replay(stub_client: object, game_id: str, token: str | None = None
            ) -> pb.GetReplayResponse:
    return stub_client._call("GetReplay", pb.GetReplayRequest(game_id=game_id), token)  # type: ignore[attr-defined]


def _state_at(client: object, game_id: str, version: int, token: str | None) -> pb.GameState:
    request = pb.GetGameRequest(game_id=game_id, at_version=version)
    return client._call("GetGame", request, token).state  # type: ignore[attr-defined]


def test_typed_replay_and_past_views_match_the_engine(server: ServerProcess) -> None:
    rng = random.Random(8)
    rest = server.rest()
    with server.client() as client:
        created = client.create_game(players=3, seed=81)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        submitted = 0
        while submitted < 12:  # whole actions (compound) and single decisions, mixed
            state = client.get_game(game_id)
            seat = state.summary.current_seat
            legal = client.list_legal_actions(game_id, tokens[seat],
                                              include_compound_actions=True)
            if submitted % 3 == 0:
                client.submit_action(game_id, tokens[seat], rng.choice(legal.options).id,
                                     expected_version=legal.version)
            else:
                client.submit_action(game_id, tokens[seat],
                                     compound=list(rng.choice(legal.compound_actions).ids),
                                     expected_version=legal.version)
            submitted += 1
        replay = _replay(client, game_id)
        head = replay.version
        assert not replay.complete and len(replay.decisions) == head > submitted
        # the engine, fed the typed decisions one by one from the same seed, is the game
        mirror = brass.Game.new(3, seed=81)
        for version in range(head + 1):
            for seat in (None, 0, 1, 2):
                token = None if seat is None else tokens[seat]
                past = _state_at(client, game_id, version, token)
                assert past.summary.version == version
                assert view_dict(past) == engine_view(mirror.view(seat)), (version, seat)
            if version == head:
                break
            decision = replay.decisions[version]
            assert decision.version == version + 1
            assert (decision.seat, decision.decision) == (mirror.current_seat, mirror.decision)
            assert decision.name == brass.action_name(decision.option_id)
            mirror.apply(decision.option_id, seat=decision.seat)
        assert mirror.state_hash() == brass.Game.replay(
            {**json.loads(replay.record_json), "seed": 81}).state_hash()
        # REST: the same, as JSON
        document = rest.get(f"/v1/games/{game_id}/replay")
        assert json_format.ParseDict(document, pb.GetReplayResponse()) == replay
        middle = head // 2
        seen = rest.get(f"/v1/games/{game_id}?atVersion={middle}", token=tokens[1])
        assert without_defaults(seen) == without_defaults(message_to_json_dict(
            pb.GetGameResponse(state=_state_at(client, game_id, middle, tokens[1]))))
        # out of range, or not a number
        for bad in (head + 1, -1):
            error = expect_error("INVALID_ARGUMENT", _state_at, client, game_id, bad, None)
            assert error.metadata["field"] == "at_version"
            # REST names the parameter as it is sent (issue 23, item 7)
            body = expect_rest_error("INVALID_ARGUMENT", 400, rest.get,
                                     f"/v1/games/{game_id}?atVersion={bad}").body["error"]
            assert body["details"][0]["metadata"]["field"] == "atVersion"
            assert body["message"].startswith("atVersion must be ")
        for text in ("x", str(2**63)):
            expect_rest_error("INVALID_ARGUMENT", 400, rest.get,
                              f"/v1/games/{game_id}?atVersion={text}")



def test_a_replay_read_by_javascript_keeps_its_seed_and_tells_an_undo_from_option_0(
    server: ServerProcess,
) -> None:
    """Issue 23, item 7: in REST JSON an undo entry has no optionId (option 0 is
    `type:build`) and is named "undo"; a finished game's record has its seed as a decimal
    string, as proto3 JSON writes 64-bit integers, so JSON.parse (doubles) cannot round it."""
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 2})
    game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
    seat = created["state"]["summary"]["currentSeat"]
    rest.post(f"/v1/games/{game_id}/actions", {"action": {"optionId": 0}}, token=tokens[seat])
    rest.post(f"/v1/games/{game_id}:undo", {}, token=tokens[seat])
    build, undo = rest.get(f"/v1/games/{game_id}/replay")["decisions"]
    assert (build["optionId"], build["name"], build["undo"]) == (0, "type:build", False)
    assert "optionId" not in undo and (undo["name"], undo["undo"], undo["undone"]) == (
        "undo", True, 1)
    with server.client() as client:  # gRPC: the option id has presence, unset for the undo
        typed = _replay(client, game_id)
    assert typed.decisions[0].HasField("option_id")
    assert not typed.decisions[1].HasField("option_id")
    # a game of bots played to the end, from a seed that is not a double
    seed = 2**60 + 7
    bots = rest.post("/v1/games", {"players": 2, "seed": str(seed), "botSeats": [
        {"seat": 0, "bot": "random"}, {"seat": 1, "bot": "random"}]})
    deadline = time.monotonic() + 120
    while not (replay := rest.get(f"/v1/games/{bots['gameId']}/replay"))["complete"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    record = json.loads(replay["recordJson"])
    assert record["seed"] == str(seed)
    as_javascript = json.loads(replay["recordJson"], parse_int=float)  # numbers are doubles
    assert int(as_javascript["seed"]) == seed
    replayed = brass.Game.replay(record)  # the engine takes the string
    assert replayed.is_over and str(replayed.version) == replay["version"]
