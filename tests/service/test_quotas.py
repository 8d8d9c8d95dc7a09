"""Quotas and bounds of a public service (issue 10, item C): compound action length,
bounded log lines, and (below) rate limits, stream quotas, proxies and the operator token.

Every test runs against real server processes on loopback ports.
"""

from __future__ import annotations

import json
import time
import uuid

import grpc

from brass_clients.sdk import pb
from brass_service.gen import game_service_pb2_grpc as pb_grpc

from .helpers import ServerProcess, expect_error, expect_rest_error

LOG_WAIT_SECONDS = 10.0


def _log_line_with(server: ServerProcess, marker: str) -> str:
    """The server's log line containing `marker` (request lines are written in groups, a
    little after the request)."""
    deadline = time.monotonic() + LOG_WAIT_SECONDS
    while True:
        for line in server.log_text().splitlines():
            if marker in line:
                return line
        assert time.monotonic() < deadline, f"no log line mentions {marker}"
        time.sleep(0.05)


# --------------------------------------------------------------------- compound actions


def test_a_compound_action_longer_than_the_cap_is_refused_before_any_work(
    server: ServerProcess,
) -> None:
    """200,000 ids (the review's request) and 65 ids are refused with INVALID_ARGUMENT,
    field action.compound.ids, on both transports, for SubmitAction and PreviewAction; the
    game does not move. 64 ids (the cap) reach the engine, which judges them."""
    with server.client() as client:
        created = client.create_game(players=2, seed=11)
        token = created.seats[created.state.summary.current_seat].token
        legal = client.list_legal_actions(created.game_id, token)
        option = legal.options[0].id
        for count in (200_000, 65):
            ids = [option] * count
            for call in (client.submit_action, client.preview_action):
                error = expect_error(
                    "INVALID_ARGUMENT", call, created.game_id, token, compound=ids,
                    expected_version=legal.version,
                )
                assert error.metadata.get("field") == "action.compound.ids"
                assert "at most 64 ids" in error.message
        judged = expect_error(
            "ILLEGAL_ACTION", client.submit_action, created.game_id, token,
            compound=[option] * 64,
        )
        assert judged.metadata.get("field") != "action.compound.ids"
        assert client.get_game(created.game_id).summary.version == 0

    rest = server.rest()
    try:
        for path in ("actions", "actions:preview"):
            error = expect_rest_error(
                "INVALID_ARGUMENT", 400, rest.post,
                f"/v1/games/{created.game_id}/{path}",
                {"action": {"compound": {"ids": [option] * 200_000}}}, token=token,
            )
            assert error.body["error"]["details"][0]["metadata"]["field"] == (
                "action.compound.ids"
            )
    finally:
        rest.close()


# ----------------------------------------------------------------------------- logs


def test_client_strings_are_cut_short_in_the_log(server: ServerProcess) -> None:
    """A 900,000-character game id and a 6,000-character request id are refused or used,
    and the request line that logs them stays short (the review saw 6 MB of log for a
    1 MB game id)."""
    marker = f"log-{uuid.uuid4().hex}"
    long_request_id = marker + "r" * 6000
    before = len(server.log_text())
    channel = grpc.insecure_channel(server.grpc_target)
    try:
        stub = pb_grpc.GameServiceStub(channel)
        try:
            stub.GetGame(
                pb.GetGameRequest(game_id="g" * 900_000), timeout=30,
                metadata=(("x-request-id", long_request_id),),
            )
            raise AssertionError("a 900,000-character game id was accepted")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        channel.close()
    line = _log_line_with(server, marker)
    record = json.loads(line)
    assert record["outcome"] == "INVALID_ARGUMENT"
    assert len(line) < 1000, f"a request line of {len(line)} characters"
    assert record["request_id"].startswith(marker) and "chars)" in record["request_id"]
    assert record["game_id"].startswith("ggg") and "chars)" in record["game_id"]
    assert len(server.log_text()) - before < 20_000
