"""A watch stream opened with a seat token ends the moment that token no longer holds the
seat (issue 20, item 1): after ReissueSeatToken, RevokeSeatToken, or LeaveGame and a
newcomer's JoinGame, a stream opened earlier with the old token sends nothing more of the
seat's view. gRPC ends it with UNAUTHENTICATED (ErrorInfo reason SEAT_TOKEN_REVOKED), SSE
with a last `error` event carrying that reason. Watchers on the process that made the
change and on another process on the same database (SQLite: the change stamps; PostgreSQL:
LISTEN/NOTIFY), on both back ends. (Before: the old token's streams went on sending the new
holder's view.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from brass_clients.sdk import GameClient, pb
from brass_service.gen import game_service_pb2_grpc as pb_grpc

from .conftest import Backend
from .helpers import ServerProcess, sse_events


@pytest.fixture(scope="module")
def two_processes(backend: Backend) -> tuple[ServerProcess, ServerProcess]:
    """Two server processes on one database: watchers on both, changes made through the
    second. The watchers' own store re-check is pushed out of reach (10 min), so a stream
    that ends was woken by the change of seats (here, or from the other process through
    the SQLite change stamps that `--workers N` share, or PostgreSQL's NOTIFY)."""
    url = backend.new_database_url()
    env = {"BRASS_WATCH_POLL_SECONDS": "600"}
    return (backend.start_server("tokens-a", database_url=url, env=env),
            backend.start_server("tokens-b", database_url=url, env=env))


def _error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    return info
    raise AssertionError(f"{error.code()} without ErrorInfo")


@dataclass
class Watchers:
    """Streams of one game opened with one token: gRPC and SSE, on each process; each
    has received its first update."""

    servers: tuple[ServerProcess, ServerProcess]
    game_id: str
    token: str
    channels: list[grpc.Channel] = field(default_factory=list)
    calls: list[Any] = field(default_factory=list)
    sse: list[Iterator[tuple[str, str | None, dict[str, Any]]]] = field(default_factory=list)

    def open(self) -> Watchers:
        metadata = (("authorization", f"Bearer {self.token}"),)
        for server in self.servers:
            channel = grpc.insecure_channel(server.grpc_target)
            self.channels.append(channel)
            call = pb_grpc.GameServiceStub(channel).WatchGame(
                pb.WatchGameRequest(game_id=self.game_id), metadata=metadata, timeout=60)
            assert next(call).state.HasField("viewer_seat")
            self.calls.append(call)
            events = sse_events(server.http_port, f"/v1/games/{self.game_id}/events",
                                token=self.token)
            event, _id, data = next(events)
            assert event == "update" and "viewerSeat" in data["state"]
            self.sse.append(events)
        return self

    def expect_revoked(self, seat: int) -> None:
        """Every stream's next message is the end, with SEAT_TOKEN_REVOKED: no update."""
        for call in self.calls:
            try:
                update = next(call)
                raise AssertionError(f"an update after the change: version {update.version}, "
                                     f"viewer seat {update.state.viewer_seat}")
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.UNAUTHENTICATED, error
                info = _error_info(error)
                assert info.reason == "SEAT_TOKEN_REVOKED"
                assert info.metadata["seat"] == str(seat)
        for events in self.sse:
            event, _id, data = next(events)
            assert event == "error", f"an SSE {event} after the change: {data}"
            assert data["error"]["reason"] == "SEAT_TOKEN_REVOKED"
            assert data["error"]["code"] == 401
            assert list(events) == [], "the stream goes on after its last event"

    def expect_update(self) -> None:
        """Streams of a token that still holds its seat go on."""
        for call in self.calls:
            assert next(call).state.HasField("viewer_seat")
        for events in self.sse:
            event, _id, data = next(events)
            assert event == "update" and "viewerSeat" in data["state"]

    def close(self) -> None:
        for call in self.calls:
            call.cancel()
        for events in self.sse:
            events.close()
        for channel in self.channels:
            channel.close()


def _scenario(
    servers: tuple[ServerProcess, ServerProcess],
    setup: Callable[[GameClient], tuple[str, str, int, str]],
    change: Callable[[GameClient], None],
) -> None:
    """`setup` makes a game and says (game id, watched token, its seat, another seat's
    token); `change` takes the seat from the watched token, through the second process."""
    with servers[0].client() as first, servers[1].client() as second:
        game_id, token, seat, other_token = setup(first)
        watched = Watchers(servers, game_id, token).open()
        bystander = Watchers(servers, game_id, other_token).open()
        try:
            change(second)
            watched.expect_revoked(seat)
            bystander.expect_update()  # another seat's streams are not ended
        finally:
            watched.close()
            bystander.close()


def test_a_reissued_token_s_streams_end_before_the_new_holder_s_view(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    state: dict[str, Any] = {}

    def setup(client: GameClient) -> tuple[str, str, int, str]:
        created = client.create_game(players=2, seed=41, seat_names=["A", "B"])
        seat = created.state.summary.current_seat
        state.update(game=created.game_id, host=created.host_token, seat=seat)
        return created.game_id, created.seats[seat].token, seat, created.seats[1 - seat].token

    def change(client: GameClient) -> None:
        new = client.reissue_seat_token(state["game"], state["seat"], state["host"]).seat.token
        # the new holder plays: before the fix the old token's streams showed its view
        option = client.list_legal_actions(state["game"], new).options[0].id
        client.submit_action(state["game"], new, option_id=option)

    _scenario(two_processes, setup, change)


def test_a_revoked_token_s_streams_end(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    state: dict[str, Any] = {}

    def setup(client: GameClient) -> tuple[str, str, int, str]:
        created = client.create_game(players=2, seed=42, seat_names=["A", "B"])
        seat = created.state.summary.current_seat
        state.update(game=created.game_id, host=created.host_token, seat=seat)
        return created.game_id, created.seats[seat].token, seat, created.seats[1 - seat].token

    def change(client: GameClient) -> None:
        client.revoke_seat_token(state["game"], state["seat"], state["host"])
        new = client.reissue_seat_token(state["game"], state["seat"], state["host"]).seat.token
        option = client.list_legal_actions(state["game"], new).options[0].id
        client.submit_action(state["game"], new, option_id=option)

    _scenario(two_processes, setup, change)


def test_a_left_seat_s_streams_end_when_a_newcomer_joins(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    state: dict[str, Any] = {}

    def setup(client: GameClient) -> tuple[str, str, int, str]:
        created = client.create_game(players=2, seed=43, seat_names=["A", ""],
                                     open_seats=[1])
        joined = client.join_game(created.game_id, "Leaver", seat=1)
        state.update(game=created.game_id, token=joined.seat.token)
        return created.game_id, joined.seat.token, 1, created.seats[0].token

    def change(client: GameClient) -> None:
        client.leave_game(state["game"], state["token"])
        client.join_game(state["game"], "Newcomer", seat=1)

    _scenario(two_processes, setup, change)
