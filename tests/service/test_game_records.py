"""Game records (issue 25, item 4): the versioned JSON Schemas (brass/schemas/, served at
GET /v1/schemas/{schema}) hold for real positions, replay records and export lines; a bulk
export of finished games (GET /v1/games:export, the operator's) is filtered, bounded and
reloaded by brass.records.read_export with every final state hash checked."""

from __future__ import annotations

import datetime
import http.client
import json
import random
import time

import grpc
import jsonschema
import pytest

import brass
from brass import records
from brass_clients.sdk import BrassError, GameClient, pb

from .helpers import LOOPBACK, ServerProcess, expect_rest_error, play_random_grpc


def test_the_schemas_hold_for_real_positions_and_records() -> None:
    rng = random.Random(4)
    checked = 0
    for ruleset in ("birmingham", "pittsburgh"):
        for players in (2, 3, 4):
            game = brass.Game.new(players, seed=rng.randrange(2**40), ruleset=ruleset)
            while not game.is_over:
                if rng.random() < 0.05:
                    records.validate(game.position(), "position.v1")
                    checked += 1
                if rng.random() < 0.1 and game.undo_steps() > 0:
                    game.undo()
                else:
                    game.apply(rng.choice(game.legal_ids()))
            records.validate(game.position(), "position.v1")
            record = game.replay_record()
            records.validate(record, "replay-record.v1")
            records.validate({**record, "seed": str(record["seed"])}, "replay-record.v1")
            public = {k: record[k] for k in record if k != "seed"}  # GetReplay's prefix
            records.validate(public, "replay-record.v1")
            again = brass.Game.from_position(game.position())
            records.validate(again.replay_record(), "replay-record.v1")
    assert checked > 50
    # what the schemas refuse: an unknown key, both a seed and a position, a bad id
    for bad in ({**record, "extra": 1}, {**record, "position": game.position()},
                {**record, "decisions": [-1]}, {**record, "players": 5}):
        with pytest.raises(jsonschema.ValidationError):
            records.validate(bad, "replay-record.v1")
    with pytest.raises(jsonschema.ValidationError):
        records.validate({**game.position(), "hidden": True}, "position.v1")
    with pytest.raises(KeyError):
        records.schema("position.v0")


def _export(server: ServerProcess, query: str, token: str | None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=30)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    connection.request("GET", f"/v1/games:export?{query}", headers=headers)
    response = connection.getresponse()
    try:
        return response.status, response.read()
    finally:
        connection.close()


def _finished_games(client: GameClient) -> dict[str, tuple[str, int]]:
    """Game id -> (ruleset, players) of finished games: played to the end, resigned."""
    made: dict[str, tuple[str, int]] = {}
    created = client.create_game(2, seed=11)
    play_random_grpc(client, created.game_id, [s.token for s in created.seats],
                     random.Random(11))
    made[created.game_id] = ("birmingham", 2)
    for ruleset, players in (("pittsburgh", 2), ("birmingham", 3)):
        created = client.create_game(players, seed=12, ruleset=ruleset,
                                     on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        tokens = [s.token for s in created.seats]
        play_random_grpc(client, created.game_id, tokens, random.Random(12),
                         max_submissions=9)
        client.resign_game(created.game_id, tokens[1])
        made[created.game_id] = (ruleset, players)
    return made


def test_a_bulk_export_reloads_with_every_hash_matching(server: ServerProcess) -> None:
    start = datetime.datetime.fromtimestamp(time.time() - 1, datetime.UTC)
    after = "createdAfter=" + start.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    operator = server.operator_token
    rest = server.rest()
    with server.client() as client:
        made = _finished_games(client)
        in_progress = client.create_game(2).game_id
    status, body = _export(server, after, operator)
    assert status == 200
    lines = body.decode().splitlines()
    exported = {game.line["game_id"]: game for game in records.read_export(lines)}
    assert set(made) <= set(exported) and in_progress not in exported
    for game_id, (ruleset, players) in made.items():
        line = exported[game_id].line
        assert (line["ruleset"], line["players"]) == (ruleset, players)
        assert line["version"] == exported[game_id].game.version > 0
        # GetReplay's record, and the seed (which it keeps back from a resigned game whose
        # engine game is not over)
        replay = json.loads(rest.get(f"/v1/games/{game_id}/replay")["recordJson"])
        assert {k: line["record"][k] for k in replay} == replay
        assert line["record"]["seed"] == str(11 if players == 2 and ruleset == "birmingham"
                                              else 12)
    assert {exported[g].line["end_reason"] for g in made} == {
        "END_REASON_SCORED", "END_REASON_RESIGNED"}
    # filters and the bound
    for query, kept in (("ruleset=RULESET_PITTSBURGH", {"pittsburgh"}),
                        ("players=3", {3}), ("limit=1", None), ("rated=true", set())):
        status, body = _export(server, f"{after}&{query}", operator)
        got = [json.loads(text) for text in body.decode().splitlines()]
        if kept is None:
            assert len(got) == 1
        elif query.startswith("ruleset"):
            assert {g["ruleset"] for g in got} == kept
        elif query.startswith("players"):
            assert {g["players"] for g in got} == kept
        else:  # (a rated game of the test before may fall in the window's first second)
            assert all(g["rated"] for g in got) and not {g["game_id"] for g in got} & set(made)
    future = "createdBefore=" + start.strftime("%Y-%m-%dT%H:%M:%SZ")
    status, body = _export(server, f"{after}&{future}", operator)
    assert (status, body) == (200, b"")
    # the same records over gRPC (ExportGames), filters included
    with server.client() as client:
        assert list(client.export_games(created_after=start.timestamp())) == lines
        pittsburgh = [json.loads(record) for record in client.export_games(
            created_after=start.timestamp(), ruleset="pittsburgh")]
        assert {g["ruleset"] for g in pittsburgh} == {"pittsburgh"} and pittsburgh
        assert {json.loads(r)["players"] for r in client.export_games(
            created_after=start.timestamp(), players=3)} == {3}
        assert len(list(client.export_games(created_after=start.timestamp(), limit=1))) == 1
        assert list(client.export_games(created_after=start.timestamp(), rated=True)) == []
        assert list(client.export_games(created_after=start.timestamp(),
                                        created_before=start.timestamp())) == []
    # a changed line is caught
    broken = json.loads(lines[0])
    broken["record"]["decisions"] = broken["record"]["decisions"][:-1]
    with pytest.raises(records.RecordError):
        list(records.read_export([json.dumps(broken)]))


def test_export_and_schema_refusals(server: ServerProcess) -> None:
    operator = server.operator_token
    status, body = _export(server, "", None)
    assert status == 401 and json.loads(body)["error"]["reason"] == "UNAUTHENTICATED"
    status, body = _export(server, "", "not-the-operator")
    assert status == 403 and json.loads(body)["error"]["reason"] == "OPERATOR_ONLY"
    for query, field in (("players=5", "players"), ("limit=0", "limit"),
                         ("limit=100001", "limit"), ("createdAfter=yesterday", "createdAfter"),
                         ("createdBefore=2026-12-03T18:00:00", "createdBefore"),
                         ("ruleset=CHESS", "ruleset"), ("rated=maybe", "rated")):
        status, body = _export(server, query, operator)
        error = json.loads(body)["error"]
        assert (status, error["reason"]) == (400, "INVALID_ARGUMENT"), query
        assert error["details"][0]["metadata"]["field"] == field
    # over gRPC: the same refusals, before any record
    for token, reason in ((None, "UNAUTHENTICATED"), ("not-the-operator", "OPERATOR_ONLY")):
        with GameClient(server.grpc_target, timeout=30, operator_token=token) as client:
            with pytest.raises(BrassError) as refused:
                list(client.export_games())
            assert refused.value.reason == reason
    with server.client() as client:
        for arguments, field in (({"players": 5}, "players"), ({"limit": 0}, "limit"),
                                 ({"limit": 100_001}, "limit"),
                                 ({"created_after": -5.0}, "created_after")):
            with pytest.raises(BrassError) as refused:
                list(client.export_games(**arguments))  # type: ignore[arg-type]
            assert (refused.value.reason, refused.value.metadata.get("field")) == (
                "INVALID_ARGUMENT", field)
        stub_request = pb.ExportGamesRequest(ruleset=7)  # a Ruleset this engine lacks
        with pytest.raises(grpc.RpcError) as unknown:
            list(client._stub.ExportGames(stub_request, metadata=(
                ("authorization", f"Bearer {operator}"),)))
        assert unknown.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    rest = server.rest()
    for name in records.SCHEMA_NAMES:
        assert rest.get(f"/v1/schemas/{name}") == records.schema(name)
    error = expect_rest_error("UNKNOWN_SCHEMA", 404, rest.get, "/v1/schemas/position.v9")
    assert "position.v1" in error.body["error"]["details"][0]["metadata"]["schemas"]
