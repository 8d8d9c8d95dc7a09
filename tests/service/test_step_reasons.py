"""ListLegalActions' `after_ids` (issue 23: a page greys out a later step of an action it
keeps locally, with the engine's reasons): the decision after the first steps of the
caller's action in progress, worked out by the core on a copy; nothing is applied."""

from __future__ import annotations

import http.client
import json
from typing import Any

import grpc
import pytest

import brass
from brass_clients.sdk import pb

from .helpers import ServerProcess


def _rest_get(server: ServerProcess, path: str, token: str) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=30)
    try:
        connection.request("GET", path, None, {"Authorization": f"Bearer {token}"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_decision_after_an_actions_first_steps_is_the_engines(
    server: ServerProcess, ruleset: str
) -> None:
    """Every strict prefix of the first whole actions of each type: the answer's decision,
    options and reasons are those of the same game's core after those ids (gRPC and REST),
    and the game's version does not move."""
    with server.client() as client:
        stub = client._stub  # type: ignore[attr-defined]
        created = client.create_game(players=2, seed=1, ruleset=ruleset)
        game_id = created.game_id
        seat = created.state.summary.current_seat
        token = created.seats[seat].token
        auth = (("authorization", f"Bearer {token}"),)
        local = brass.Game.new(players=2, seed=1, ruleset=ruleset)
        compounds, _ = local.compound_actions()
        firsts = {}
        for compound in compounds:
            firsts.setdefault(compound.key.split()[0], compound)
        checked = 0
        for compound in firsts.values():
            for k in range(1, len(compound.ids)):
                ids = list(compound.ids[:k])
                answer = stub.ListLegalActions(pb.ListLegalActionsRequest(
                    game_id=game_id, include_unavailable=True, after_ids=ids), metadata=auth)
                expected = local.clone()
                expected.apply_partial(ids, seat=seat)
                assert answer.version == 0 and answer.decision == expected.decision
                assert [o.id for o in answer.options] == expected.legal_ids()
                assert [(u.id, u.reason) for u in answer.unavailable] == [
                    (i, reason) for i, reason, _ in expected.unavailable()]
                status, body = _rest_get(
                    server, f"/v1/games/{game_id}/actions?includeUnavailable=true"
                    f"&afterIds={'%2C'.join(map(str, ids))}", token)
                assert status == 200 and body["decision"] == answer.decision
                assert [u["reason"] for u in body["unavailable"]] == [
                    u.reason for u in answer.unavailable]
                checked += 1
        assert checked >= 3
        assert client.get_game(game_id, token).summary.version == 0


def test_steps_that_make_a_whole_action_or_break_a_rule_are_refused(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        stub = client._stub  # type: ignore[attr-defined]
        created = client.create_game(players=2, seed=1)
        seat = created.state.summary.current_seat
        token = created.seats[seat].token
        auth = (("authorization", f"Bearer {token}"),)
        legal = client.list_legal_actions(created.game_id, token, include_compound_actions=True)
        whole = next(c for c in legal.compound_actions if len(c.ids) >= 3)
        for ids, engine_reason in ((list(whole.ids), "TOO_MANY_DECISIONS"),
                                   ([whole.ids[0], whole.ids[0]], None)):
            with pytest.raises(grpc.RpcError) as refused:
                stub.ListLegalActions(pb.ListLegalActionsRequest(
                    game_id=created.game_id, after_ids=ids), metadata=auth)
            assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            status, body = _rest_get(
                server, f"/v1/games/{created.game_id}/actions?afterIds="
                + ",".join(map(str, ids)), token)
            assert status == 400 and body["error"]["reason"] == "ILLEGAL_ACTION"
            if engine_reason:
                assert body["error"]["details"][0]["metadata"]["engine_reason"] == engine_reason
        status, body = _rest_get(server, f"/v1/games/{created.game_id}/actions?afterIds=1,x",
                                 token)
        assert status == 400 and body["error"]["reason"] == "INVALID_ARGUMENT"
