"""Watch slots under one hostile client (issue 20, item 2): streams count against the
caller's address whatever token opened them, an address holds at most its share of the
process's slots (MAX_WATCHERS_PER_ADDRESS, and never more than half of what other addresses
leave), a gRPC connection carries at most MAX_WATCHERS_PER_CONNECTION, and a stream whose
game nobody moves ends after WATCH_IDLE_SECONDS. (Before: each seat token was a client of
its own, so one address with 56 seat tokens held all 1,000 slots of a process.)"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2

from brass_clients.sdk import pb
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.gen import game_service_pb2_grpc as pb_grpc
from brass_service.observability import RequestRecord
from brass_service.store import open_store

from .conftest import GENEROUS_LIMITS
from .helpers import LOOPBACK, ServerProcess

# A second loopback address: the server sees REST connections bound to it as another
# client address (Linux routes all of 127.0.0.0/8 to the loopback interface).
OTHER_LOOPBACK = "127.0.0.2"
SLOT_WAIT_SECONDS = 10.0


def _status_details(error: grpc.RpcError) -> dict[str, Any]:
    """The ErrorInfo (reason, metadata) and RetryInfo delay of a gRPC error."""
    found: dict[str, Any] = {}
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    found.update(reason=info.reason, metadata=dict(info.metadata))
                elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                    retry = error_details_pb2.RetryInfo()
                    detail.Unpack(retry)
                    found["retry"] = retry.retry_delay.ToNanoseconds() / 1e9
    assert "reason" in found, f"{error.code()} without ErrorInfo"
    return found


def _channel(server: ServerProcess) -> grpc.Channel:
    """A channel with a TCP connection of its own (not shared with other channels)."""
    return grpc.insecure_channel(server.grpc_target,
                                 options=[("grpc.use_local_subchannel_pool", 1)])


def _watch(channel: grpc.Channel, game_id: str, token: str | None = None,
           forwarded_for: str | None = None, timeout: float = 60) -> Any:
    """A WatchGame call whose first message has arrived (the server admitted it)."""
    metadata = []
    if token:
        metadata.append(("authorization", f"Bearer {token}"))
    if forwarded_for:
        metadata.append(("x-forwarded-for", forwarded_for))
    call = pb_grpc.GameServiceStub(channel).WatchGame(
        pb.WatchGameRequest(game_id=game_id), metadata=metadata, timeout=timeout)
    next(call)
    return call


def _refused_watch(channel: grpc.Channel, game_id: str, limit: str,
                   token: str | None = None) -> None:
    try:
        _watch(channel, game_id, token)
        raise AssertionError(f"a stream past {limit} was admitted")
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
        details = _status_details(error)
        assert details["reason"] == "RATE_LIMITED"
        assert details["metadata"]["limit"] == limit, details
        assert details["retry"] > 0


def _open_sse(server: ServerProcess, game_id: str, source: str = LOOPBACK,
              token: str | None = None) -> tuple[http.client.HTTPConnection,
                                                 http.client.HTTPResponse]:
    """An SSE request from the local address `source`; the caller closes the connection."""
    connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=30,
                                            source_address=(source, 0))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    connection.request("GET", f"/v1/games/{game_id}/events", headers=headers)
    return connection, connection.getresponse()


def _sse_refusal(response: http.client.HTTPResponse, limit: str) -> None:
    assert response.status == 429, response.status
    retry_after = response.getheader("Retry-After")
    assert retry_after is not None and int(retry_after) >= 1
    error = json.loads(response.read())["error"]
    assert error["reason"] == "RATE_LIMITED"
    assert error["details"][0]["metadata"]["limit"] == limit


def _sse_messages(response: http.client.HTTPResponse) -> Iterator[tuple[str, dict[str, Any]]]:
    """(event, data) of an SSE response until it closes."""
    event, data = "message", []
    while line := response.readline():
        text = line.decode().rstrip("\n")
        if text == "":
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif text.startswith("event:"):
            event = text.partition(":")[2].strip()
        elif text.startswith("data:"):
            data.append(text.partition(":")[2].strip())


def test_one_address_holds_at_most_its_share_and_another_still_watches(
    tmp_path: Path,
) -> None:
    """MAX_WATCHERS 8: 127.0.0.1 opens streams with a different seat token each (each
    token is a client of its own) and holds 4, half of the process, however many tokens
    it has; the 5th is refused (limit max_watchers_per_address) over gRPC and SSE alike.
    Another address still watches: over REST from 127.0.0.2, over gRPC as a client a
    trusted proxy (127.0.0.1) forwards. A closed stream gives its address the slot back."""
    server = ServerProcess(tmp_path, env={
        **GENEROUS_LIMITS, "BRASS_MAX_WATCHERS": "8", "BRASS_TRUSTED_PROXIES": "127.0.0.1",
    }).start()
    channel = _channel(server)
    calls: list[Any] = []
    connections: list[http.client.HTTPConnection] = []
    try:
        with server.client() as client:
            games = [client.create_game(players=4, seed=seed) for seed in (1, 2)]
        tokens = [seat.token for game in games for seat in game.seats]
        game_of = {seat.token: game.game_id for game in games for seat in game.seats}
        calls = [_watch(channel, game_of[token], token) for token in tokens[:4]]
        _refused_watch(channel, game_of[tokens[4]], "max_watchers_per_address", tokens[4])
        _refused_watch(channel, games[0].game_id, "max_watchers_per_address")
        connection, response = _open_sse(server, game_of[tokens[5]], token=tokens[5])
        connections.append(connection)
        _sse_refusal(response, "max_watchers_per_address")

        # A stream closed: its address may open one again.
        calls.pop().cancel()
        deadline = time.monotonic() + SLOT_WAIT_SECONDS
        while True:
            try:
                calls.append(_watch(channel, game_of[tokens[6]], tokens[6]))
                break
            except grpc.RpcError as error:
                assert _status_details(error)["metadata"]["limit"] == (
                    "max_watchers_per_address")
                assert time.monotonic() < deadline, "the closed stream's slot was never freed"
                time.sleep(0.05)

        # Other addresses still watch: 127.0.0.2 over SSE, a forwarded client over gRPC.
        connection, response = _open_sse(server, games[0].game_id, source=OTHER_LOOPBACK)
        connections.append(connection)
        assert response.status == 200, response.read()
        event, data = next(_sse_messages(response))
        assert event == "update" and data["state"]["summary"]["gameId"] == games[0].game_id
        calls.append(_watch(channel, games[1].game_id, forwarded_for="198.51.100.8"))
    finally:
        for call in calls:
            call.cancel()
        for connection in connections:
            connection.close()
        channel.close()
        server.stop()


def test_streams_are_capped_per_grpc_connection_and_per_address(tmp_path: Path) -> None:
    """MAX_WATCHERS_PER_CONNECTION 2 and MAX_WATCHERS_PER_ADDRESS 3: a connection's 3rd
    stream is refused (max_watchers_per_connection) while a new connection may open one;
    the address's 4th is refused (max_watchers_per_address) on any connection and over
    SSE, while another address (127.0.0.2) watches."""
    server = ServerProcess(tmp_path, env={
        **GENEROUS_LIMITS, "BRASS_MAX_WATCHERS_PER_CONNECTION": "2",
        "BRASS_MAX_WATCHERS_PER_ADDRESS": "3",
    }).start()
    channels = [_channel(server) for _ in range(3)]
    calls: list[Any] = []
    connections: list[http.client.HTTPConnection] = []
    try:
        with server.client() as client:
            game_id = client.create_game(players=2, seed=9).game_id
        calls = [_watch(channels[0], game_id) for _ in range(2)]
        _refused_watch(channels[0], game_id, "max_watchers_per_connection")
        calls.append(_watch(channels[1], game_id))
        _refused_watch(channels[1], game_id, "max_watchers_per_address")
        _refused_watch(channels[2], game_id, "max_watchers_per_address")
        connection, response = _open_sse(server, game_id)
        connections.append(connection)
        _sse_refusal(response, "max_watchers_per_address")
        connection, response = _open_sse(server, game_id, source=OTHER_LOOPBACK)
        connections.append(connection)
        assert response.status == 200, response.read()
    finally:
        for call in calls:
            call.cancel()
        for connection in connections:
            connection.close()
        for channel in channels:
            channel.close()
        server.stop()


def test_a_stream_of_a_game_nobody_moves_ends_after_the_idle_bound(tmp_path: Path) -> None:
    """WATCH_IDLE_SECONDS 1: a game nobody moves ends its streams with WATCH_IDLE (gRPC
    DEADLINE_EXCEEDED with the version to resume from; SSE a last `error` event, 408),
    and their slots are free again (MAX_WATCHERS_PER_CLIENT 2 admits two new ones)."""
    server = ServerProcess(tmp_path, env={
        **GENEROUS_LIMITS, "BRASS_WATCH_IDLE_SECONDS": "1",
        "BRASS_MAX_WATCHERS_PER_CLIENT": "2",
    }).start()
    channel = _channel(server)
    connection: http.client.HTTPConnection | None = None
    try:
        with server.client() as client:
            game_id = client.create_game(players=2, seed=13).game_id
        call = _watch(channel, game_id, timeout=20)
        connection, response = _open_sse(server, game_id)
        assert response.status == 200
        try:
            update = next(call)
            raise AssertionError(f"an update of a game nobody moved: {update}")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED, error
            details = _status_details(error)
            assert details["reason"] == "WATCH_IDLE"
            assert details["metadata"]["version"] == "0"
        messages = list(_sse_messages(response))
        assert [event for event, _ in messages] == ["update", "error"]
        error_body = messages[-1][1]["error"]
        assert (error_body["reason"], error_body["code"]) == ("WATCH_IDLE", 408)
        connection.close()
        # Both slots were given back: the client may hold two again.
        calls = [_watch(channel, game_id) for _ in range(2)]
        for again in calls:
            again.cancel()
    finally:
        if connection is not None:
            connection.close()
        channel.close()
        server.stop()


def test_a_stream_cancelled_as_its_game_wakes_it_ends_and_frees_its_slot(
    tmp_path: Path,
) -> None:
    """A client leaving (its stream's task cancelled) at the moment a change wakes the
    stream: the stream ends and gives its slot back. (Before: asyncio.wait_for on Python
    3.11 swallowed that cancellation, and the stream went on waiting for ever, holding its
    slot and stalling the server's shutdown.)"""

    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
        await store.open()
        service = GameService(store, ServiceSettings(watch_poll_seconds=600))
        anyone = Caller(token=None, peer="192.0.2.1")
        record = RequestRecord("test", "watch", "r")
        try:
            created = await service.create_game(pb.CreateGameRequest(players=2, seed=1),
                                                anyone, record)
            stream = await service.watch_game(
                pb.WatchGameRequest(game_id=created.game_id), anyone, record)
            updates = stream.__aiter__()
            await updates.__anext__()
            waiting = asyncio.ensure_future(updates.__anext__())
            await asyncio.sleep(0.05)  # the stream waits for a change
            assert service.watch_limiter.open_streams == 1
            service.broker.publish(created.game_id, 0)
            waiting.cancel()
            try:
                await asyncio.wait_for(asyncio.shield(waiting), 5)
                raise AssertionError("the cancelled stream sent an update")
            except asyncio.CancelledError:
                pass
            except TimeoutError:
                raise AssertionError("the cancelled stream goes on waiting") from None
            await stream.aclose()
            assert service.watch_limiter.open_streams == 0
        finally:
            service.close()
            await store.close()

    asyncio.run(scenario())
