"""Quotas and bounds of a public service (issue 10, item C): compound action length,
bounded log lines, and (below) rate limits, stream quotas, proxies and the operator token.

Every test runs against real server processes on loopback ports.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import os
import random
import time
import uuid
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

import brass
from brass_clients.sdk import BrassError, GameClient, pb
from brass_service.errors import ServiceError
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.gen import game_service_pb2_grpc as pb_grpc
from brass_service.limits import ClientAddresses, RateQuota, parse_networks, rate_key
from brass_service.observability import RequestRecord
from brass_service.store import open_store

from .conftest import GENEROUS_LIMITS, Backend
from .helpers import LOOPBACK, ServerProcess, expect_error, expect_rest_error

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
        for path, count in itertools.product(("actions", "actions:preview"), (200_000, 65)):
            # 200,000 ids are refused by the body's size, before it is decoded.
            error = expect_rest_error(
                "INVALID_ARGUMENT", 400, rest.post,
                f"/v1/games/{created.game_id}/{path}",
                {"action": {"compound": {"ids": [option] * count}}}, token=token,
            )
            assert error.body["error"]["details"][0]["metadata"]["field"] == (
                "action.compound.ids"
            )
            assert ("at most 16384 bytes" in error.message) == (count == 200_000)
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


# ------------------------------------------------------------------ streams per client


def _open_sse(
    server: ServerProcess, game_id: str, headers: dict[str, str] | None = None
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """Opens an SSE stream and reads its head; the caller closes the connection."""
    connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=30)
    connection.request("GET", f"/v1/games/{game_id}/events", headers=headers or {})
    return connection, connection.getresponse()


def _refusal_of(response: http.client.HTTPResponse) -> dict[str, Any]:
    assert response.status == 429, response.status
    retry_after = response.getheader("Retry-After")
    assert retry_after is not None and int(retry_after) >= 1, "every 429 says when to retry"
    error = json.loads(response.read())["error"]
    assert error["reason"] == "RATE_LIMITED"
    return error


def _retry_delay(error: grpc.RpcError) -> float:
    """The google.rpc.RetryInfo delay of a gRPC error (fails when there is none)."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                    info = error_details_pb2.RetryInfo()
                    detail.Unpack(info)
                    return info.retry_delay.ToNanoseconds() / 1e9
    raise AssertionError("RESOURCE_EXHAUSTED without RetryInfo")


def _open_grpc_watch(stub: Any, game_id: str, token: str | None = None) -> Any:
    """A WatchGame call whose first message has arrived (so the server admitted it)."""
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    call = stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=metadata, timeout=60)
    next(call)
    return call


def test_a_client_holds_at_most_its_share_of_watch_streams(tmp_path: Path) -> None:
    """MAX_WATCHERS_PER_CLIENT counts the streams a client holds (gRPC and SSE together),
    not how fast it opens them: with 3 held, a 4th is refused (gRPC RESOURCE_EXHAUSTED
    with RetryInfo, REST 429 with Retry-After) until one is closed. A seat's token is its
    own identity, with its own allowance. (Before: 59 streams held against "20 at once".)"""
    server = ServerProcess(
        tmp_path, env={**GENEROUS_LIMITS, "BRASS_MAX_WATCHERS_PER_CLIENT": "3"}
    ).start()
    channel = grpc.insecure_channel(server.grpc_target)
    calls: list[Any] = []
    try:
        stub = pb_grpc.GameServiceStub(channel)
        with server.client() as client:
            created = client.create_game(players=2, seed=5)
        game_id = created.game_id
        calls = [_open_grpc_watch(stub, game_id) for _ in range(3)]
        try:
            _open_grpc_watch(stub, game_id)
            raise AssertionError("a 4th stream was admitted")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _retry_delay(error) > 0
        connection, response = _open_sse(server, game_id)
        error = _refusal_of(response)
        assert error["details"][0]["metadata"]["limit"] == "max_watchers_per_client"
        connection.close()
        # A seat watching with its token is another client.
        calls.append(_open_grpc_watch(stub, game_id, created.seats[0].token))
        # Closing one of the three makes room for one, over SSE this time.
        calls.pop(0).cancel()
        deadline = time.monotonic() + LOG_WAIT_SECONDS
        while True:
            connection, response = _open_sse(server, game_id)
            if response.status == 200:
                break
            _refusal_of(response)
            connection.close()
            assert time.monotonic() < deadline, "the closed stream's slot was never freed"
            time.sleep(0.05)
        connection.close()
    finally:
        for call in calls:
            call.cancel()
        channel.close()
        server.stop()


# ------------------------------------------------------------------------ proxies


def test_client_addresses_behind_trusted_proxies() -> None:
    """The rightmost address not of a trusted proxy is the client; entries left of it
    were written by the client and are ignored; an untrusted peer's header is ignored."""
    trusted = parse_networks("10.0.0.0/8, 127.0.0.1")
    xff = ClientAddresses(trusted, "x-forwarded-for")
    assert xff.resolve("127.0.0.1", "203.0.113.9") == "203.0.113.9"
    assert xff.resolve("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3") == "203.0.113.9"
    assert xff.resolve("192.0.2.1", "203.0.113.9") == "192.0.2.1"  # peer not trusted
    assert xff.resolve("127.0.0.1", None) == "127.0.0.1"
    assert xff.resolve("127.0.0.1", "not-an-address") == "127.0.0.1"
    assert xff.resolve("127.0.0.1", "10.0.0.1, 10.0.0.2") == "10.0.0.1"  # all proxies
    forwarded = ClientAddresses(trusted, "forwarded")
    assert forwarded.resolve(
        "10.9.9.9", 'for=6.6.6.6, for="[2001:db8::17]:4711";proto=https;by=10.0.0.1'
    ) == "2001:db8::17"
    assert forwarded.resolve("10.9.9.9", 'for="192.0.2.60:80"') == "192.0.2.60"
    assert forwarded.resolve("10.9.9.9", "for=_hidden") == "10.9.9.9"
    # Only the configured header is read: X-Forwarded-For is then the client's own text.
    assert ClientAddresses([], "forwarded").resolve("127.0.0.1", "for=1.2.3.4") == "127.0.0.1"
    # IPv6 clients are counted by /64; IPv4-mapped ones as IPv4.
    assert rate_key("2001:db8:1:2:aaaa::1") == rate_key("2001:db8:1:2:bbbb::2")
    assert rate_key("::ffff:192.0.2.1") == "192.0.2.1"
    try:
        parse_networks("10.0.0.0/8, nonsense")
        raise AssertionError("a bad network was accepted")
    except ValueError as error:
        assert "nonsense" in str(error)


def test_forwarded_clients_get_their_own_limits_only_from_trusted_proxies(
    tmp_path: Path,
) -> None:
    """Behind a trusted proxy (127.0.0.1 here), each forwarded client address has its own
    allowance (one stream at most, one per 1,000 s); a client cannot escape its allowance
    by writing addresses left of the proxy's entry. Without --trusted-proxies the header
    is ignored and every stream counts for the TCP peer. (Before: one shared bucket.)"""
    limits_env = {"BRASS_WATCH_BURST": "1", "BRASS_WATCH_RATE_PER_SECOND": "0.001"}
    behind = ServerProcess(
        tmp_path / "behind", env={**limits_env, "BRASS_TRUSTED_PROXIES": "127.0.0.1/32"}
    ).start()
    direct = ServerProcess(tmp_path / "direct", env=limits_env).start()
    connections: list[http.client.HTTPConnection] = []
    try:
        for server in (behind, direct):
            with server.client() as client:
                game_id = client.create_game(players=2, seed=3).game_id
            first, response = _open_sse(server, game_id, {"X-Forwarded-For": "198.51.100.1"})
            connections.append(first)
            assert response.status == 200
            second, response = _open_sse(
                server, game_id, {"X-Forwarded-For": "6.6.6.6, 198.51.100.2"}
            )
            connections.append(second)
            if server is behind:
                assert response.status == 200, "another forwarded client was refused"
                forged, response = _open_sse(
                    server, game_id, {"X-Forwarded-For": "7.7.7.7, 198.51.100.2"}
                )
                connections.append(forged)
                _refusal_of(response)  # the same client, whatever it wrote on the left
            else:
                _refusal_of(response)  # the header of an untrusted peer means nothing
    finally:
        for connection in connections:
            connection.close()
        behind.stop()
        direct.stop()


def test_every_rate_limited_error_says_when_to_retry() -> None:
    """RATE_LIMITED always carries a delay (Retry-After, RetryInfo), also when the limit
    did not give one (e.g. batches running at once); other errors carry none."""
    bare = ServiceError("RATE_LIMITED", "too many batches", limit="max_batches")
    assert bare.http_headers() == {"Retry-After": "1"}
    assert any(
        d.Is(error_details_pb2.RetryInfo.DESCRIPTOR) for d in bare.to_status_proto().details
    )
    assert ServiceError("RATE_LIMITED", "x", retry_after_seconds=2.2).http_headers() == {
        "Retry-After": "3"
    }
    assert ServiceError("INVALID_ARGUMENT", "x").http_headers() == {}


# ------------------------------------------------------------------- creation quotas


def _rest_call(
    server: ServerProcess, method: str, path: str, body: Any, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=60)
    try:
        connection.request(
            method, path, json.dumps(body), {"Content-Type": "application/json", **headers}
        )
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_games_created_per_client_are_limited_but_not_the_operators(tmp_path: Path) -> None:
    """CREATE_GAME_RATE 3/minute: a client's 4th game is refused (RATE_LIMITED, limit
    create_game_rate, RetryInfo / Retry-After) and nothing is stored for it; the operator
    token is not limited; behind a trusted proxy each forwarded client has its own quota.
    (Before: one client made 368 games/s.)"""
    server = ServerProcess(tmp_path, env={
        "BRASS_CREATE_GAME_RATE": "3/minute", "BRASS_OPERATOR_TOKEN": "op-secret",
        "BRASS_TRUSTED_PROXIES": "127.0.0.1",
    }).start()
    try:
        with GameClient(server.grpc_target, timeout=30) as anonymous:
            for seed in range(3):
                anonymous.create_game(players=2, seed=seed)
            try:
                anonymous._stub.CreateGame(pb.CreateGameRequest(players=2), timeout=30)
                raise AssertionError("a 4th game within the minute was created")
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert _retry_delay(error) > 0
            refused = expect_error("RATE_LIMITED", anonymous.create_game, players=2)
            assert refused.metadata["limit"] == "create_game_rate"
            assert len(anonymous.list_games(page_size=100).games) == 3
        status, headers, body = _rest_call(server, "POST", "/v1/games", {"players": 2}, {})
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert json.loads(body)["error"]["reason"] == "RATE_LIMITED"
        # Another client, named by the trusted proxy, has its own quota.
        status, _, _ = _rest_call(
            server, "POST", "/v1/games", {"players": 2}, {"X-Forwarded-For": "198.51.100.7"}
        )
        assert status == 200
        with GameClient(server.grpc_target, timeout=30, operator_token="op-secret") as operator:
            for seed in range(5):
                operator.create_game(players=2, seed=seed)
    finally:
        server.stop()


# ------------------------------------------------------------------ operator token


def test_batches_and_positions_need_the_operator_token(tmp_path: Path) -> None:
    """RunBatch and CreateGameFromPosition are refused with a wrong token (OPERATOR_ONLY,
    gRPC PERMISSION_DENIED, HTTP 403) or none (UNAUTHENTICATED, HTTP 401: no credentials,
    RFC 9110), before the request is looked at, and served with it; a server without an
    operator token refuses them to everyone (OPERATOR_ONLY)."""
    position = brass.Game.new(players=2, seed=4).position()
    served = ServerProcess(tmp_path / "op", env={
        "BRASS_OPERATOR_TOKEN": "op-secret", "BRASS_BATCH_WORKERS": "1",
    }).start()
    closed = ServerProcess(
        tmp_path / "none", env={"BRASS_BATCH_WORKERS": "1", "BRASS_OPERATOR_TOKEN": ""}
    ).start()
    try:
        for server in (served, closed):
            for token in (None, "wrong", "op-secret"):
                if server is served and token == "op-secret":
                    continue
                with GameClient(server.grpc_target, operator_token=token) as client:
                    for call, args in (
                        (client.create_game_from_position, (position,)),
                        (lambda: list(client.run_batch(2, ["random"], 1)), ()),
                    ):
                        if token is None and server is served:
                            error = expect_error("UNAUTHENTICATED", call, *args)
                            assert error.code == grpc.StatusCode.UNAUTHENTICATED
                        else:
                            error = expect_error("OPERATOR_ONLY", call, *args)
                            assert error.code == grpc.StatusCode.PERMISSION_DENIED
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                for path, body in (
                    ("/v1/games:fromPosition", {"positionJson": "not even json"}),
                    ("/v1/batches", {"players": 2, "bots": ["random"], "games": 1}),
                ):
                    status, _, answer = _rest_call(server, "POST", path, body, headers)
                    expected = ((401, "UNAUTHENTICATED") if token is None and server is served
                                else (403, "OPERATOR_ONLY"))
                    assert (status, json.loads(answer)["error"]["reason"]) == expected, (
                        path, answer)
        assert "no operator token" in expect_error(
            "OPERATOR_ONLY", GameClient(closed.grpc_target).create_game_from_position, position
        ).message
        with GameClient(served.grpc_target, operator_token="op-secret") as operator:
            created = operator.create_game_from_position(position)
            assert operator.get_game(created.game_id).summary.from_position
            results = list(operator.run_batch(2, ["random"], 1, seed=3))
            assert [r.index for r in results] == [0]
        status, _, answer = _rest_call(
            served, "POST", "/v1/games:fromPosition", {"positionJson": json.dumps(position)},
            {"Authorization": "Bearer op-secret"},
        )
        assert status == 200 and json.loads(answer)["gameId"]
        assert "op-secret" not in served.log_text()
    finally:
        served.stop()
        closed.stop()


def test_serve_takes_the_proxies_and_the_operator_token_from_flags_or_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`brass serve --trusted-proxies --operator-token` (or their environment variables)
    reach the server, which exports them for its workers; a bad network stops it."""
    from click.testing import CliRunner

    import brass_service.app.main
    from brass_clients import cli

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(brass_service.app.main, "serve", lambda **kw: calls.append(kw))
    runner = CliRunner()
    assert runner.invoke(
        cli.main, ["serve", "--trusted-proxies", "10.0.0.0/8", "--operator-token", "s3"]
    ).exit_code == 0
    monkeypatch.setenv("BRASS_TRUSTED_PROXIES", "192.0.2.0/24")
    monkeypatch.setenv("BRASS_OPERATOR_TOKEN", "from-env")
    assert runner.invoke(cli.main, ["serve"]).exit_code == 0
    assert [(c["trusted_proxies"], c["operator_token"]) for c in calls] == [
        ("10.0.0.0/8", "s3"), ("192.0.2.0/24", "from-env")
    ]
    monkeypatch.undo()
    monkeypatch.setattr(brass_service.app.main, "run_event_loop", lambda main: main.close())
    try:
        brass_service.app.main.serve(trusted_proxies="10.1.0.0/16", operator_token="t")
        assert os.environ["BRASS_TRUSTED_PROXIES"] == "10.1.0.0/16"
        assert os.environ["BRASS_OPERATOR_TOKEN"] == "t"
        with pytest.raises(SystemExit, match="nonsense"):
            brass_service.app.main.serve(trusted_proxies="nonsense")
    finally:
        os.environ.pop("BRASS_TRUSTED_PROXIES", None)
        os.environ.pop("BRASS_OPERATOR_TOKEN", None)


# ---------------------------------------------------------------- abandoned games


def test_the_sweep_deletes_only_games_abandoned_in_progress(backend: Backend) -> None:
    """ABANDONED_GAME_DAYS (7 here): a game in progress whose last decision (or creation) is
    older than that is deleted with its decisions and snapshots; a game moved since, and a
    finished game however old, are kept; a game moved after the sweep chose it is kept by
    the store's own check. On both stores."""

    async def scenario() -> None:
        store = open_store(backend.new_database_url())
        await store.open()
        service = GameService(store, ServiceSettings(abandoned_game_days=7.0))
        anyone = Caller(token=None, peer="192.0.2.1")
        record = RequestRecord("test", "sweep", "r")
        try:
            async def create(seed: int) -> pb.CreateGameResponse:
                return await service.create_game(
                    pb.CreateGameRequest(players=2, seed=seed), anyone, record
                )

            async def play(created: pb.CreateGameResponse, engine: Any, option: int) -> None:
                seat = engine.current_seat
                await service.submit_action(
                    pb.SubmitActionRequest(
                        game_id=created.game_id, action=pb.Action(option_id=option)
                    ),
                    Caller(token=created.seats[seat].token, peer="192.0.2.1"), record,
                )
                engine.apply(option, seat)

            finished = await create(3)  # played to its end first: the oldest game
            rng = random.Random(3)
            engine = brass.Game.new(players=2, seed=3)
            while not engine.is_over:
                await play(finished, engine, rng.choice(engine.legal_ids()))
            abandoned, moved = await create(1), await create(2)
            moved_engine = brass.Game.new(players=2, seed=2)
            await play(moved, moved_engine, moved_engine.legal_ids()[0])
            games = (abandoned, moved, finished)
            rows = {g.game_id: await store.get_game(g.game_id) for g in games}
            cutoff = (rows[abandoned.game_id].updated_at + rows[moved.game_id].updated_at) / 2
            assert rows[finished.game_id].updated_at < cutoff  # old, but finished

            # Chosen by an earlier look, moved since: the store's check keeps it.
            assert not await store.delete_game_if_idle(
                moved.game_id, pb.GAME_STATUS_IN_PROGRESS, cutoff
            )
            assert await service.delete_abandoned_games(now=cutoff + 7 * 86_400) == 1
            assert await store.get_game(abandoned.game_id) is None
            assert await store.latest_snapshot(abandoned.game_id) is None
            try:
                await service.get_game(pb.GetGameRequest(game_id=abandoned.game_id), anyone,
                                       record)
                raise AssertionError("the deleted game is still served")
            except ServiceError as error:
                assert error.reason == "UNKNOWN_GAME"
            for kept in (moved, finished):
                assert await store.get_game(kept.game_id) is not None
                await service.get_game(pb.GetGameRequest(game_id=kept.game_id), anyone, record)
            # Nothing is left to delete; 0 days turns the sweep off.
            assert await service.delete_abandoned_games(now=cutoff + 7 * 86_400) == 0
            service.settings.abandoned_game_days = 0
            assert await service.delete_abandoned_games(now=cutoff + 70 * 86_400) == 0
        finally:
            service.close()
            await store.close()

    asyncio.run(scenario())


def test_a_server_sweeps_abandoned_games_periodically(tmp_path: Path) -> None:
    """With ABANDONED_GAME_DAYS at about 2.6 s and a sweep every 0.2 s, a game nobody plays
    disappears (UNKNOWN_GAME) and the server logs how many games it deleted. (Before: games
    were never expired.)"""
    server = ServerProcess(tmp_path, env={
        "BRASS_ABANDONED_GAME_DAYS": "0.00003", "BRASS_EXPIRY_SWEEP_SECONDS": "0.2",
    }).start()
    try:
        with server.client() as client:
            game_id = client.create_game(players=2, seed=8).game_id
            deadline = time.monotonic() + 60
            while True:
                try:
                    client.get_game(game_id)
                except BrassError as error:
                    assert error.reason == "UNKNOWN_GAME"
                    break
                assert time.monotonic() < deadline, "the abandoned game was never deleted"
                time.sleep(0.2)
        line = _log_line_with(server, "abandoned_games_deleted")
        assert json.loads(line)["games"] >= 1
    finally:
        server.stop()


def test_a_trusted_proxy_is_not_held_to_the_connections_per_address_cap(
    tmp_path: Path,
) -> None:
    """HTTP_MAX_CONNECTIONS_PER_ADDRESS (2 here) would refuse a load balancer's third
    connection; a trusted proxy carries many clients and is not counted (its clients are
    limited by the per-client quotas instead)."""
    server = ServerProcess(tmp_path, env={
        "BRASS_HTTP_MAX_CONNECTIONS_PER_ADDRESS": "2", "BRASS_TRUSTED_PROXIES": "127.0.0.1",
    }).start()
    connections = [
        http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=30) for _ in range(4)
    ]
    try:
        for connection in connections:
            connection.request("GET", "/v1/games?pageSize=1")
            response = connection.getresponse()
            response.read()
            assert response.status == 200, response.status
    finally:
        for connection in connections:
            connection.close()
        server.stop()


def test_rate_quota_windows_retry_delays_and_memory_bound() -> None:
    """Sliding windows of the limits notation: "3/minute" admits 3, refuses the 4th with
    the exact wait (the next minute still weighs 3 until a third of it has passed), and
    admits again then; at most max_clients are remembered, the least recent forgotten."""
    quota = RateQuota("3/minute;100/day", "games created", "create_game_rate", max_clients=2)
    start = 600.0  # the start of a minute
    for _ in range(3):
        quota.admit("a", now=start)
    try:
        quota.admit("a", now=start + 1)
        raise AssertionError("a 4th request in the minute was admitted")
    except ServiceError as error:
        assert error.metadata["limit"] == "create_game_rate"
        assert error.retry_after_seconds == 79.0  # until 680: 60 - 1, then 20 of the next
    quota.admit("a", now=start + 80)
    quota.admit("b", now=start + 80)
    quota.admit("c", now=start + 80)  # "a" is forgotten: three clients, room for two
    for _ in range(3):
        quota.admit("a", now=start + 80)
    assert RateQuota("", "x", "y").windows == []  # empty: no limit
