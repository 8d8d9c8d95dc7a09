"""Brass: Pittsburgh through the service (issue 11 part 5): CreateGame with RULESET_PITTSBURGH
and its rule choices, play on both transports, the replay, refusals, the OpenAPI document."""

from __future__ import annotations

import json
import random
from typing import Any

import brass
from brass_clients.sdk import BrassError, pb, view_dict

from .helpers import RestError, ServerProcess, engine_view, play_random_grpc, play_random_rest


def test_a_pittsburgh_game_through_grpc(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=77, ruleset="pittsburgh",
                                     ruleset_options={"data": "tiny"})
        tokens = [seat.token for seat in created.seats]
        assert created.state.summary.ruleset == pb.RULESET_PITTSBURGH
        assert play_random_grpc(client, created.game_id, tokens, random.Random(3)) > 0
        final = client.get_game(created.game_id)
        assert final.summary.status == pb.GAME_STATUS_FINISHED
        complete, record = client.get_replay(created.game_id)
        assert complete and record["ruleset"] == "pittsburgh"
        assert record["options"]["data"] == "tiny"
        replayed = brass.Game.replay(record)
        assert replayed.ruleset == "pittsburgh" and replayed.scores() == list(final.scores)


def test_a_pittsburgh_game_through_rest(server: ServerProcess) -> None:
    rest = server.rest()
    created = rest.post("/v1/games", {"ruleset": "RULESET_PITTSBURGH", "players": 3,
                                      "seed": "5", "options": {"rulesetOptions": {
                                          "data": "tiny", "links_count_unflipped": True}}},
                        token=server.operator_token)
    tokens = [seat["token"] for seat in created["seats"]]
    game_id = created["gameId"]
    assert created["state"]["summary"]["ruleset"] == "RULESET_PITTSBURGH"
    assert play_random_rest(rest, game_id, tokens, random.Random(4), max_submissions=30) == 30
    state = rest.get(f"/v1/games/{game_id}")["state"]
    assert int(state["summary"]["version"]) >= 30


def test_bad_ruleset_options_are_refused_naming_them(server: ServerProcess) -> None:
    with server.client() as client:
        for kwargs, field in [
            ({"ruleset_options": {"colour": "red"}}, "options.colour"),
            ({"ruleset_options": {"data": "huge"}}, "options.data"),
            ({"beginner": True}, "options.beginner"),  # Birmingham's option
        ]:
            try:
                client.create_game(players=2, ruleset="pittsburgh", **kwargs)
            except BrassError as error:
                assert error.reason == "INVALID_ARGUMENT", error
                assert error.metadata.get("field") == field, error.metadata
            else:
                raise AssertionError(f"{kwargs} was accepted")
        # Birmingham's games refuse Pittsburgh's options the same way
        try:
            client.create_game(players=2, ruleset_options={"data": "tiny"})
        except BrassError as error:
            assert error.metadata.get("field") == "options.data"
        else:
            raise AssertionError("a Pittsburgh option was accepted for Birmingham")


def test_the_openapi_document_shows_pittsburgh(server: ServerProcess) -> None:
    document = server.rest().get("/openapi.json")
    text = str(document)
    assert "RULESET_PITTSBURGH" in text and "rulesetOptions" in text


def test_option_names_follow_each_games_ruleset(server: ServerProcess) -> None:
    # the server encodes each option once: the same id and decision kind name another
    # option in another ruleset ("type:pass" is id 5 in Pittsburgh, "type:scout" in Birmingham)
    with server.client() as client:
        for ruleset in ("pittsburgh", "birmingham", "pittsburgh"):
            created = client.create_game(players=2, seed=9, ruleset=ruleset)
            seat = created.state.summary.current_seat
            legal = client.list_legal_actions(created.game_id, created.seats[seat].token)
            names = brass.get_ruleset(ruleset).action_names
            assert legal.options and all(o.name == names[o.id] for o in legal.options)


def _pittsburgh_position(seed: int) -> dict[str, Any]:
    game = brass.Game.new(3, seed, ruleset="pittsburgh")
    rng = random.Random(seed)
    for _ in range(60):
        game.apply(rng.choice(game.legal_ids()))
    return game.position()


def test_a_pittsburgh_game_from_a_position_on_both_transports(server: ServerProcess) -> None:
    """CreateGameFromPosition (the operator's) reads a Pittsburgh position in the core: the
    game starts there (the same state hash as the source), over gRPC and REST; a position of
    another ruleset than the request names, and a corrupted one, are refused naming the
    field."""
    position = _pittsburgh_position(31)
    source = brass.Game.from_position(position)
    with server.client() as client:
        created = client.create_game_from_position(position)
        assert created.state.summary.ruleset == pb.RULESET_PITTSBURGH
        assert created.state.summary.from_position
        seat = created.state.summary.current_seat
        legal = client.list_legal_actions(created.game_id, created.seats[seat].token)
        assert [o.id for o in legal.options] == source.legal_ids()
        assert view_dict(client.get_game(created.game_id)) == engine_view(source.view(),
                                                                           "pittsburgh")
        for request, field in [
            (pb.CreateGameFromPositionRequest(ruleset=pb.RULESET_BIRMINGHAM,
                                              position_json=json.dumps(position)), "ruleset"),
            (pb.CreateGameFromPositionRequest(position_json=json.dumps(
                {**position, "round": 11})), "round"),
        ]:
            try:
                client._call("CreateGameFromPosition", request, server.operator_token)
            except BrassError as error:
                assert error.reason == "BAD_POSITION", error
                assert error.metadata.get("field") == field, error.metadata
            else:
                raise AssertionError(f"{field}: accepted")
    rest = server.rest()
    made = rest.post("/v1/games:fromPosition", {"ruleset": "RULESET_PITTSBURGH",
                                                "positionJson": json.dumps(position)},
                     token=server.operator_token)
    assert made["state"]["summary"]["ruleset"] == "RULESET_PITTSBURGH"
    try:
        rest.post("/v1/games:fromPosition", {"positionJson": json.dumps(
            {**position, "players": position["players"][:2]})}, token=server.operator_token)
    except RestError as error:
        assert error.status == 400
        assert error.reason == "BAD_POSITION"
    else:
        raise AssertionError("a position with a player missing was accepted")

