"""SubmitAction's next_actions (include_legal_actions) and idempotent retries answered from
the decision log, through gRPC and REST, on every back end."""

from __future__ import annotations

import copy
import json
import random
import sqlite3
from contextlib import closing
from typing import Any

from google.protobuf import json_format

import brass
from brass_clients.sdk import GameClient, pb

from .conftest import Backend
from .helpers import (
    RestClient,
    ServerProcess,
    expect_error,
    expect_rest_error,
    play_random_grpc,
    play_random_rest,
    without_defaults,
)

IN_PROGRESS = pb.GAME_STATUS_IN_PROGRESS
FINISHED = pb.GAME_STATUS_FINISHED
SNAPSHOT_EVERY = 4


def _tokens(created: pb.CreateGameResponse) -> list[str]:
    return [seat.token for seat in created.seats]


def _sql(backend: Backend, database_url: str, query: str, params: tuple = ()) -> list[tuple]:
    """Runs one statement on the server's database directly (`?` placeholders)."""
    if backend.name == "sqlite":
        path = database_url.removeprefix("sqlite:///")
        with closing(sqlite3.connect(path)) as conn:
            rows = conn.execute(query, params).fetchall()
            conn.commit()
        return rows
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        cursor = conn.execute(query.replace("?", "%s"), params)
        return cursor.fetchall() if cursor.description else []


def _without_replayed(response: pb.SubmitActionResponse) -> pb.SubmitActionResponse:
    other = pb.SubmitActionResponse()
    other.CopyFrom(response)
    other.replayed = False
    return other


def _rest_without_replayed(document: dict[str, Any]) -> dict[str, Any]:
    other = copy.deepcopy(document)
    other.pop("replayed")
    return other


def _assert_grpc_replay(
    retry: pb.SubmitActionResponse,
    original: pb.SubmitActionResponse,
    next_actions: pb.ListLegalActionsResponse | None,
) -> None:
    """`retry` is a replay of `original`, with the given next_actions (None: unset)."""
    assert retry.replayed is True and original.replayed is False
    assert retry.state == original.state  # summary (versions, update_time…), view, scores
    assert list(retry.events) == list(original.events)
    if next_actions is None:
        assert not retry.HasField("next_actions")
    else:
        assert retry.HasField("next_actions")
        assert retry.next_actions == next_actions


def _assert_rest_replay(
    retry: dict[str, Any], original: dict[str, Any], next_actions: dict[str, Any] | None
) -> None:
    assert retry["replayed"] is True and original["replayed"] is False
    assert retry["state"] == original["state"]
    assert retry["events"] == original["events"]
    if next_actions is None:
        assert "nextActions" not in retry
    else:
        assert retry["nextActions"] == next_actions


# ---------------------------------------------------------------- next_actions contents



def _new_rest_game(rest: Any, seed: str) -> tuple[dict[str, Any], str, list[str], str]:
    """A new 2-player game over REST: the answer, its id, the seat tokens, the actions path."""
    created = rest.post("/v1/games", {"players": 2, "seed": seed})
    game_id = created["gameId"]
    return (created, game_id, [s["token"] for s in created["seats"]],
            f"/v1/games/{game_id}/actions")

def test_next_actions_equal_list_legal_actions_grpc(server: ServerProcess) -> None:
    rng = random.Random(31)
    seen = {"stay": 0, "pass": 0, "off": 0}
    with server.client() as client:
        created = client.create_game(players=2, seed=3131)
        game_id, tokens = created.game_id, _tokens(created)
        seat = created.state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat])
        for i in range(45):
            flag = i % 3 != 2
            response = client.submit_action(
                game_id, tokens[seat], rng.choice(legal.options).id,
                expected_version=legal.version, include_legal_actions=flag,
            )
            summary = response.state.summary
            assert summary.status == IN_PROGRESS
            stays = summary.current_seat == seat
            # What ListLegalActions answers the seat to act right after.
            after = client.list_legal_actions(game_id, tokens[summary.current_seat])
            assert after.version == summary.version
            if flag and stays:
                assert response.HasField("next_actions")
                nxt = response.next_actions
                assert nxt == after
                assert (nxt.game_id, nxt.version, nxt.seat, nxt.decision) == (
                    game_id, summary.version, seat, summary.decision
                )
                assert [o.id for o in nxt.options] == [o.id for o in after.options]
                assert nxt.options and not nxt.unavailable and not nxt.compound_actions
                assert not nxt.compound_actions_truncated
                seen["stay"] += 1
            else:
                assert not response.HasField("next_actions"), (i, flag, stays)
                seen["pass" if flag else "off"] += 1
            seat, legal = summary.current_seat, after
    assert seen["stay"] >= 10 and seen["pass"] >= 2 and seen["off"] >= 5, seen


def test_next_actions_equal_list_legal_actions_rest(server: ServerProcess) -> None:
    rng = random.Random(32)
    seen = {"stay": 0, "pass": 0, "off": 0}
    rest = server.rest()
    try:
        created, game_id, tokens, path = _new_rest_game(rest, "3232")
        seat = created["state"]["summary"]["currentSeat"]
        legal = rest.get(path, token=tokens[seat])
        for i in range(45):
            body: dict[str, Any] = {
                "action": {"optionId": rng.choice(legal["options"])["id"]},
                "expectedVersion": legal["version"],
                "idempotencyKey": f"rest-next-{i}",
            }
            flag = i % 3 != 2
            if flag:
                body["includeLegalActions"] = True
            elif i % 2:
                body["includeLegalActions"] = False
            response = rest.post(path, body, token=tokens[seat])
            summary = response["state"]["summary"]
            assert summary["status"] == "GAME_STATUS_IN_PROGRESS"
            stays = summary["currentSeat"] == seat
            after = rest.get(path, token=tokens[summary["currentSeat"]])
            assert after["version"] == summary["version"]
            if flag and stays:
                nxt = response["nextActions"]
                assert nxt == after
                assert (nxt["gameId"], nxt["version"], nxt["seat"], nxt["decision"]) == (
                    game_id, summary["version"], seat, summary["decision"]
                )
                assert nxt["options"] and nxt["unavailable"] == []
                assert nxt["compoundActions"] == []
                seen["stay"] += 1
            else:
                assert "nextActions" not in response, (i, flag, stays)
                seen["pass" if flag else "off"] += 1
            seat, legal = summary["currentSeat"], after
    finally:
        rest.close()
    assert seen["stay"] >= 10 and seen["pass"] >= 2 and seen["off"] >= 5, seen


# ------------------------------------------------------- whole games on next_actions only


def test_whole_game_on_next_actions_grpc(server: ServerProcess) -> None:
    rng = random.Random(41)
    with server.client() as client:
        created = client.create_game(players=2, seed=4141)
        game_id, tokens = created.game_id, _tokens(created)
        legal = client.list_legal_actions(game_id, tokens[created.state.summary.current_seat])
        list_calls, chosen = 1, []
        while True:
            seat = legal.seat
            option = rng.choice(legal.options).id
            chosen.append(option)
            key = f"whole-{len(chosen)}"
            response = client.submit_action(
                game_id, tokens[seat], option, expected_version=legal.version,
                idempotency_key=key, include_legal_actions=True,
            )
            assert not response.replayed
            summary = response.state.summary
            assert summary.version == legal.version + 1
            if summary.status == FINISHED:
                assert not response.HasField("next_actions"), "no options once the game is over"
                assert not summary.HasField("current_seat")
                break
            if response.HasField("next_actions"):
                assert summary.current_seat == seat
                legal = response.next_actions
            else:
                assert summary.current_seat != seat
                legal = client.list_legal_actions(game_id, tokens[summary.current_seat])
                list_calls += 1
            assert legal.version == summary.version and legal.seat == summary.current_seat
            assert len(chosen) < 2000, "the game never ended"
        assert list_calls * 3 < len(chosen), (list_calls, len(chosen))
        final = response
        complete, record = client.get_replay(game_id)
        assert complete and record["decisions"] == chosen
        replayed = brass.Game.replay(record)
        assert replayed.is_over and replayed.version == final.state.summary.version
        assert replayed.scores() == list(final.state.scores)
        assert replayed.winners() == list(final.state.winners)
        assert client.get_game(game_id, tokens[0]).scores == final.state.scores
        # The last submission, retried once the game is over: the same answer, still
        # without next_actions, and nothing applied.
        again = client.submit_action(
            game_id, tokens[seat], option, expected_version=legal.version,
            idempotency_key=key, include_legal_actions=True,
        )
        _assert_grpc_replay(again, final, None)
        assert client.get_game(game_id).summary.version == final.state.summary.version


def test_whole_game_on_next_actions_rest(server: ServerProcess) -> None:
    rng = random.Random(42)
    rest = server.rest()
    try:
        created, game_id, tokens, path = _new_rest_game(rest, "4242")
        legal = rest.get(path, token=tokens[created["state"]["summary"]["currentSeat"]])
        list_calls, chosen = 1, []
        while True:
            seat = legal["seat"]
            option = rng.choice(legal["options"])["id"]
            chosen.append(option)
            body = {"action": {"optionId": option}, "expectedVersion": legal["version"],
                    "idempotencyKey": f"whole-rest-{len(chosen)}", "includeLegalActions": True}
            response = rest.post(path, body, token=tokens[seat])
            assert response["replayed"] is False
            summary = response["state"]["summary"]
            assert int(summary["version"]) == int(legal["version"]) + 1
            if summary["status"] == "GAME_STATUS_FINISHED":
                assert "nextActions" not in response
                assert "currentSeat" not in summary
                break
            if "nextActions" in response:
                assert summary["currentSeat"] == seat
                legal = response["nextActions"]
            else:
                assert summary["currentSeat"] != seat
                legal = rest.get(path, token=tokens[summary["currentSeat"]])
                list_calls += 1
            assert legal["version"] == summary["version"]
            assert legal["seat"] == summary["currentSeat"]
            assert len(chosen) < 2000, "the game never ended"
        assert list_calls * 3 < len(chosen), (list_calls, len(chosen))
        replay = rest.get(f"/v1/games/{game_id}/replay")
        assert replay["complete"] is True
        record = json.loads(replay["recordJson"])
        assert record["decisions"] == chosen
        replayed = brass.Game.replay(record)
        assert replayed.is_over and replayed.version == int(summary["version"])
        assert replayed.scores() == response["state"]["scores"]
        assert replayed.winners() == response["state"]["winners"]
        again = rest.post(path, body, token=tokens[seat])
        _assert_rest_replay(again, response, None)
    finally:
        rest.close()


# ------------------------------------------------------------------ idempotent retries


def _seat_staying_submission(
    client: GameClient, game_id: str, tokens: list[str], rng: random.Random, key: str,
    flag: bool,
) -> tuple[dict[str, Any], pb.SubmitActionResponse, pb.ListLegalActionsResponse]:
    """Plays random decisions until one leaves its seat to act; returns that submission's
    arguments, its answer and ListLegalActions made right after it."""
    for attempt in range(50):
        state = client.get_game(game_id)
        seat = state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat])
        kwargs = {"game_id": game_id, "token": tokens[seat],
                  "option_id": rng.choice(legal.options).id,
                  "expected_version": legal.version,
                  "idempotency_key": f"{key}-{attempt}", "include_legal_actions": flag}
        response = client.submit_action(**kwargs)
        if response.state.summary.current_seat == seat:
            return kwargs, response, client.list_legal_actions(game_id, tokens[seat])
    raise AssertionError("the seat to act never stayed")


def test_immediate_retry_grpc(server: ServerProcess) -> None:
    rng = random.Random(51)
    with server.client() as client:
        created = client.create_game(players=3, seed=5151)
        game_id, tokens = created.game_id, _tokens(created)
        kwargs, first, after = _seat_staying_submission(client, game_id, tokens, rng, "a", True)
        assert first.next_actions == after
        again = client.submit_action(**kwargs)
        _assert_grpc_replay(again, first, after)
        assert _without_replayed(again) == first
        # The flag is not part of the fingerprint: a retry without it is a replay without
        # next_actions.
        plain = client.submit_action(**{**kwargs, "include_legal_actions": False})
        _assert_grpc_replay(plain, first, None)
        # ...but another action with the key is refused.
        other = [o.id for o in after.options]
        expect_error("IDEMPOTENCY_KEY_REUSED", client.submit_action,
                     **{**kwargs, "option_id": max(other) + 1})
        # A submission made without the flag, retried with it, gets next_actions.
        kwargs2, second, after2 = _seat_staying_submission(
            client, game_id, tokens, rng, "b", False
        )
        assert not second.HasField("next_actions")
        flagged = client.submit_action(**{**kwargs2, "include_legal_actions": True})
        _assert_grpc_replay(flagged, second, after2)
        # The retries applied nothing.
        assert client.get_game(game_id).summary.version == second.state.summary.version
        _, record = client.get_replay(game_id)
        assert len(record["decisions"]) == second.state.summary.version


def test_immediate_retry_rest(server: ServerProcess) -> None:
    rng = random.Random(52)
    rest = server.rest()
    try:
        created, game_id, tokens, path = _new_rest_game(rest, "5252")
        results = []
        for attempt, flag in enumerate([True] * 30 + [False] * 30):
            if len(results) == (1 if flag else 2):
                continue
            seat = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["currentSeat"]
            legal = rest.get(path, token=tokens[seat])
            body = {"action": {"optionId": rng.choice(legal["options"])["id"]},
                    "expectedVersion": legal["version"], "idempotencyKey": f"imm-{attempt}",
                    "includeLegalActions": flag}
            response = rest.post(path, body, token=tokens[seat])
            if response["state"]["summary"]["currentSeat"] == seat:
                results.append((body, response, rest.get(path, token=tokens[seat]), seat))
        assert len(results) == 2
        (body, first, after, seat), (body2, second, after2, seat2) = results
        assert first["nextActions"] == after and "nextActions" not in second
        again = rest.post(path, body, token=tokens[seat])
        _assert_rest_replay(again, first, after)
        assert _rest_without_replayed(again) == _rest_without_replayed(first)
        plain = rest.post(path, {**body, "includeLegalActions": False}, token=tokens[seat])
        _assert_rest_replay(plain, first, None)
        omitted = {k: v for k, v in body.items() if k != "includeLegalActions"}
        _assert_rest_replay(rest.post(path, omitted, token=tokens[seat]), first, None)
        flagged = rest.post(path, {**body2, "includeLegalActions": True}, token=tokens[seat2])
        _assert_rest_replay(flagged, second, after2)
        expect_rest_error(
            "IDEMPOTENCY_KEY_REUSED", 409, rest.post, path,
            {**body, "expectedVersion": str(int(body["expectedVersion"]) + 100)},
            token=tokens[seat],
        )
        now = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"]
        assert now == second["state"]["summary"]["version"]
    finally:
        rest.close()


class _GrpcRecord:
    """Submissions through gRPC and what each answered, for retrying them later."""

    def __init__(self) -> None:
        self.kwargs: list[dict[str, Any]] = []
        self.responses: list[pb.SubmitActionResponse] = []
        # ListLegalActions of the submitter right after, when it stayed the seat to act.
        self.next: list[pb.ListLegalActionsResponse | None] = []


def _record_grpc(
    client: GameClient, game_id: str, tokens: list[str], rng: random.Random, count: int
) -> _GrpcRecord:
    record = _GrpcRecord()
    compound_done = False
    state = client.get_game(game_id)
    for i in range(count):
        seat = state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat], include_compound_actions=True)
        kwargs: dict[str, Any] = {
            "game_id": game_id, "token": tokens[seat], "idempotency_key": f"g-{i}",
            "include_legal_actions": i % 2 == 0,
        }
        long_compounds = [c for c in legal.compound_actions if len(c.ids) >= 3]
        if not compound_done and i >= 2 and long_compounds:
            kwargs["compound"] = list(rng.choice(long_compounds).ids)
            compound_done = True
        else:
            kwargs["option_id"] = rng.choice(legal.options).id
        if i % 5 != 4:  # some without expected_version: the retry then meets the key
            kwargs["expected_version"] = legal.version
        response = client.submit_action(**kwargs)
        state = response.state
        stays = state.summary.current_seat == seat
        record.kwargs.append(kwargs)
        record.responses.append(response)
        record.next.append(client.list_legal_actions(game_id, tokens[seat]) if stays else None)
    assert compound_done, "no compound action was played"
    return record


def _retry_grpc(client: GameClient, record: _GrpcRecord) -> None:
    for kwargs, original, nxt in zip(record.kwargs, record.responses, record.next, strict=True):
        flag = kwargs["include_legal_actions"]
        same = client.submit_action(**kwargs)
        _assert_grpc_replay(same, original, nxt if flag else None)
        assert _without_replayed(same) == original
        flipped = client.submit_action(**{**kwargs, "include_legal_actions": not flag})
        _assert_grpc_replay(flipped, original, None if flag else nxt)


def _record_rest(
    rest: RestClient, game_id: str, tokens: list[str], rng: random.Random, count: int
) -> list[tuple[dict[str, Any], str, dict[str, Any], dict[str, Any] | None]]:
    path = f"/v1/games/{game_id}/actions"
    record = []
    state = rest.get(f"/v1/games/{game_id}")["state"]
    for i in range(count):
        seat = state["summary"]["currentSeat"]
        legal = rest.get(path, token=tokens[seat])
        body = {"action": {"optionId": rng.choice(legal["options"])["id"]},
                "expectedVersion": legal["version"], "idempotencyKey": f"r-{i}",
                "includeLegalActions": i % 2 == 1}
        response = rest.post(path, body, token=tokens[seat])
        state = response["state"]
        stays = state["summary"]["currentSeat"] == seat
        record.append((body, tokens[seat], response,
                       rest.get(path, token=tokens[seat]) if stays else None))
    return record


def _retry_rest(
    rest: RestClient,
    game_id: str,
    record: list[tuple[dict[str, Any], str, dict[str, Any], dict[str, Any] | None]],
) -> None:
    path = f"/v1/games/{game_id}/actions"
    for body, token, original, nxt in record:
        flag = body["includeLegalActions"]
        same = rest.post(path, body, token=token)
        _assert_rest_replay(same, original, nxt if flag else None)
        assert _rest_without_replayed(same) == _rest_without_replayed(original)
        flipped = rest.post(path, {**body, "includeLegalActions": not flag}, token=token)
        _assert_rest_replay(flipped, original, None if flag else nxt)


def test_retries_after_the_game_moved_on_and_after_a_restart(backend: Backend) -> None:
    """Retries rebuilt from snapshots taken every 4 decisions plus the decisions after them,
    while the game has moved on, then again by a restarted process with nothing cached."""
    database_url = backend.new_database_url()
    server = backend.start_server(
        f"snapshots-{backend.name}", database_url=database_url,
        env={"BRASS_SNAPSHOT_EVERY": str(SNAPSHOT_EVERY)},
    )
    rng = random.Random(61)
    with server.client() as client:
        created = client.create_game(players=2, seed=6161)
        grpc_game, grpc_tokens = created.game_id, _tokens(created)
        grpc_record = _record_grpc(client, grpc_game, grpc_tokens, rng, 14)
        play_random_grpc(client, grpc_game, grpc_tokens, rng, max_submissions=10)
        grpc_head = client.get_game(grpc_game).summary.version
    rest = server.rest()
    created_rest = rest.post("/v1/games", {"players": 3, "seed": "6262"})
    rest_game = created_rest["gameId"]
    rest_tokens = [s["token"] for s in created_rest["seats"]]
    rest_record = _record_rest(rest, rest_game, rest_tokens, rng, 14)
    play_random_rest(rest, rest_game, rest_tokens, rng, max_submissions=10)
    rest_head = rest.get(f"/v1/games/{rest_game}")["state"]["summary"]["version"]

    # The originals span several snapshot intervals, and the server did take snapshots.
    versions = [r.state.summary.version for r in grpc_record.responses]
    assert len({v // SNAPSHOT_EVERY for v in versions}) >= 3
    assert any(r is not None for r in grpc_record.next)
    assert any(n is None for n in grpc_record.next)
    for game_id, head in ((grpc_game, grpc_head), (rest_game, int(rest_head))):
        snapshots = [v for (v,) in _sql(
            backend, database_url, "SELECT version FROM snapshots WHERE game_id = ?", (game_id,)
        )]
        assert len(snapshots) >= 5 and max(snapshots) > head - SNAPSHOT_EVERY - 4, snapshots
        # Every decision row is stored without a response.
        lengths = _sql(backend, database_url,
                       "SELECT length(response) FROM decisions WHERE game_id = ?", (game_id,))
        assert len(lengths) == 24 and all(n == 0 for (n,) in lengths), lengths

    with server.client() as client:
        _retry_grpc(client, grpc_record)
        assert client.get_game(grpc_game).summary.version == grpc_head
    _retry_rest(rest, rest_game, rest_record)
    rest.close()

    server.stop()
    server.start()
    with server.client() as client:
        _retry_grpc(client, grpc_record)
        assert client.get_game(grpc_game).summary.version == grpc_head
    rest = server.rest()
    try:
        _retry_rest(rest, rest_game, rest_record)
        assert rest.get(f"/v1/games/{rest_game}")["state"]["summary"]["version"] == rest_head
    finally:
        rest.close()
    # A retry of the newest decision with nothing cached: the process restarts again and
    # its first request is the retry.
    with server.client() as client:
        newest_kwargs, newest, newest_after = _seat_staying_submission(
            client, grpc_game, grpc_tokens, rng, "newest", True
        )
    server.stop()
    server.start()
    with server.client() as client:
        again = client.submit_action(**newest_kwargs)
        _assert_grpc_replay(again, newest, newest_after)
        assert _without_replayed(again) == newest
        last = len(grpc_record.kwargs) - 1
        again = client.submit_action(**grpc_record.kwargs[last])
        assert again.replayed
        assert _without_replayed(again) == grpc_record.responses[last]
        assert client.get_game(grpc_game).summary.version == newest.state.summary.version
    server.stop()


def test_legacy_stored_responses_are_answered_from_their_bytes(backend: Backend) -> None:
    database_url = backend.new_database_url()
    server = backend.start_server(f"legacy-{backend.name}", database_url=database_url)
    rng = random.Random(71)
    with server.client() as client:
        created = client.create_game(players=2, seed=7171)
        game_id, tokens = created.game_id, _tokens(created)
        kwargs_a, first_a, after_a = _seat_staying_submission(
            client, game_id, tokens, rng, "legacy-a", False
        )
        kwargs_c, first_c, _ = _seat_staying_submission(
            client, game_id, tokens, rng, "legacy-c", True
        )
        kwargs_d, first_d, after_d = _seat_staying_submission(
            client, game_id, tokens, rng, "new-d", False
        )
    rest = server.rest()
    path = f"/v1/games/{game_id}/actions"
    seat = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["currentSeat"]
    legal = rest.get(path, token=tokens[seat])
    body_b = {"action": {"optionId": rng.choice(legal["options"])["id"]},
              "expectedVersion": legal["version"], "idempotencyKey": "legacy-b"}
    first_b = rest.post(path, body_b, token=tokens[seat])
    rest.close()
    server.stop()

    rows = _sql(backend, database_url,
                "SELECT idempotency_key, length(response) FROM decisions WHERE game_id = ?",
                (game_id,))
    assert rows and all(n == 0 for _, n in rows), rows
    keys = {k for k, _ in rows}
    for kwargs in (kwargs_a, kwargs_c, kwargs_d):
        assert kwargs["idempotency_key"] in keys
    # Rows as an older version of the service wrote them: the whole response stored. C's is
    # marked with an extra event, to tell an answer from the bytes from a rebuilt one.
    marked = pb.SubmitActionResponse()
    marked.CopyFrom(first_c)
    marker = marked.events.add(version=first_c.state.summary.version)
    marker.birmingham.round_end.round = 999  # no game has such a round
    legacy_b = json_format.ParseDict(first_b, pb.SubmitActionResponse())
    for key, blob in (
        (kwargs_a["idempotency_key"], first_a.SerializeToString()),
        ("legacy-b", legacy_b.SerializeToString()),
        (kwargs_c["idempotency_key"], marked.SerializeToString()),
    ):
        _sql(backend, database_url,
             "UPDATE decisions SET response = ? WHERE game_id = ? AND idempotency_key = ?",
             (blob, game_id, key))
    server.start()
    with server.client() as client:
        # A's stored answer has no next_actions: a retry asking for them gets the stored
        # answer as it is (a rebuilt one would carry them: the seat stayed).
        assert after_a.seat == first_a.state.summary.current_seat
        again_a = client.submit_action(**{**kwargs_a, "include_legal_actions": True})
        assert again_a.replayed and not again_a.HasField("next_actions")
        assert _without_replayed(again_a) == first_a
        again_c = client.submit_action(**kwargs_c)
        assert again_c.replayed
        assert _without_replayed(again_c) == marked
        # A row of this version (empty blob) on the same game is still rebuilt.
        again_d = client.submit_action(**{**kwargs_d, "include_legal_actions": True})
        _assert_grpc_replay(again_d, first_d, after_d)
        expect_error("IDEMPOTENCY_KEY_REUSED", client.submit_action,
                     **{**kwargs_a, "option_id": kwargs_a["option_id"] + 1})
    rest = server.rest()
    try:
        again_b = rest.post(path, body_b, token=tokens[seat])
        assert again_b["replayed"] is True
        # (a stored answer is rendered by json_format: with every default written)
        assert without_defaults(_rest_without_replayed(again_b)) == without_defaults(
            _rest_without_replayed(first_b))
    finally:
        rest.close()
    server.stop()


def test_whole_actions_one_call_each_grpc_and_rest(server: ServerProcess) -> None:
    """With include_compound_actions, next_actions lists the complete compound actions too,
    equal to ListLegalActions(include_compound_actions): a client that plays whole actions
    needs one call per action while it is still the seat to act."""
    rng = random.Random(21)
    rest = server.rest()
    with server.client() as client:
        created = client.create_game(players=2, seed=21)
        game_id, tokens = created.game_id, _tokens(created)
        calls = submits = 0
        state = client.get_game(game_id)
        known: pb.ListLegalActionsResponse | None = None
        while state.summary.status == IN_PROGRESS and submits < 40:
            seat = state.summary.current_seat
            if known is None or known.seat != seat or known.version != state.summary.version:
                known = client.list_legal_actions(game_id, tokens[seat],
                                                  include_compound_actions=True)
                calls += 1
            assert known.compound_actions, "whole actions listed"
            choice = rng.choice(known.compound_actions)
            if submits % 2:  # REST, the same answer in JSON
                answer = rest.post(f"/v1/games/{game_id}/actions", {
                    "action": {"compound": {"ids": list(choice.ids)}},
                    "expectedVersion": str(known.version), "includeLegalActions": True,
                    "includeCompoundActions": True}, token=tokens[seat])
                response = json_format.ParseDict(answer, pb.SubmitActionResponse())
            else:
                response = client.submit_action(
                    game_id, tokens[seat], compound=list(choice.ids),
                    expected_version=known.version, include_legal_actions=True,
                    include_compound_actions=True)
            calls += 1
            submits += 1
            state = response.state
            if response.HasField("next_actions"):
                fresh = client.list_legal_actions(game_id, tokens[seat],
                                                  include_compound_actions=True)
                assert response.next_actions == fresh
                assert len(response.next_actions.compound_actions) > 0
                known = response.next_actions
            else:
                assert state.summary.current_seat != seat or state.summary.status != IN_PROGRESS
                known = None
        # a turn's second action comes with the submission of its first
        assert submits >= 20 and calls < 2 * submits
        # without the flag: options only, as before
        seat = state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat], include_compound_actions=True)
        response = client.submit_action(game_id, tokens[seat],
                                        compound=list(legal.compound_actions[0].ids),
                                        expected_version=legal.version,
                                        include_legal_actions=True)
        if response.HasField("next_actions"):
            assert not response.next_actions.compound_actions
            assert response.next_actions.options
