"""The gRPC front end: brass.v1.GameService over grpc.aio."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

import grpc
import structlog
from grpc_status import rpc_status

from .auth import bearer_token
from .errors import ServiceError
from .games import Caller, GameService
from .gen import game_service_pb2 as pb
from .gen import game_service_pb2_grpc as pb_grpc
from .observability import RequestRecord, observe_request

log = structlog.get_logger("brass_service.grpc")
T = TypeVar("T")


def _metadata(context: grpc.aio.ServicerContext, key: str) -> str | None:
    for item_key, value in context.invocation_metadata() or ():
        if item_key == key:
            return value if isinstance(value, str) else value.decode("utf-8", "replace")
    return None


def peer_host(peer: str) -> str:
    """'ipv4:127.0.0.1:5000' -> '127.0.0.1'; 'ipv6:[::1]:5000' -> '::1'."""
    _, _, address = peer.partition(":")
    host, _, _port = address.rpartition(":")
    return host.strip("[]") or peer


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> None:
    status = rpc_status.to_status(error.to_status_proto())
    await context.abort(status.code, status.details, status.trailing_metadata)


class GameServicer(pb_grpc.GameServiceServicer):
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def _call(
        self,
        method: str,
        context: grpc.aio.ServicerContext,
        handler: Callable[[Caller, RequestRecord], Awaitable[T]],
    ) -> T:
        record = RequestRecord(
            transport="grpc",
            method=method,
            request_id=_metadata(context, "x-request-id") or uuid.uuid4().hex[:16],
        )
        with observe_request(record):
            try:
                caller = Caller(
                    token=bearer_token(_metadata(context, "authorization")),
                    peer=peer_host(context.peer()),
                )
                return await handler(caller, record)
            except ServiceError as error:
                record.outcome = error.reason
                await _abort(context, error)
            except Exception:
                record.outcome = "INTERNAL"
                log.exception("unexpected_error", method=method, request_id=record.request_id)
                await _abort(
                    context,
                    ServiceError(
                        "INTERNAL", f"internal error (request id {record.request_id})"
                    ),
                )
        raise AssertionError("unreachable: abort raises")

    async def CreateGame(
        self, request: pb.CreateGameRequest, context: grpc.aio.ServicerContext
    ) -> pb.CreateGameResponse:
        return await self._call(
            "CreateGame", context, lambda c, r: self.service.create_game(request, r)
        )

    async def CreateGameFromPosition(
        self, request: pb.CreateGameFromPositionRequest, context: grpc.aio.ServicerContext
    ) -> pb.CreateGameResponse:
        return await self._call(
            "CreateGameFromPosition",
            context,
            lambda c, r: self.service.create_game_from_position(request, r),
        )

    async def GetGame(
        self, request: pb.GetGameRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetGameResponse:
        return await self._call(
            "GetGame", context, lambda c, r: self.service.get_game(request, c, r)
        )

    async def ListLegalActions(
        self, request: pb.ListLegalActionsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListLegalActionsResponse:
        return await self._call(
            "ListLegalActions", context, lambda c, r: self.service.list_legal_actions(request, c, r)
        )

    async def SubmitAction(
        self, request: pb.SubmitActionRequest, context: grpc.aio.ServicerContext
    ) -> pb.SubmitActionResponse:
        return await self._call(
            "SubmitAction", context, lambda c, r: self.service.submit_action(request, c, r)
        )

    async def PreviewAction(
        self, request: pb.PreviewActionRequest, context: grpc.aio.ServicerContext
    ) -> pb.PreviewActionResponse:
        return await self._call(
            "PreviewAction", context, lambda c, r: self.service.preview_action(request, c, r)
        )

    async def GetReplay(
        self, request: pb.GetReplayRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetReplayResponse:
        return await self._call(
            "GetReplay", context, lambda c, r: self.service.get_replay(request, c, r)
        )

    async def ListGames(
        self, request: pb.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListGamesResponse:
        return await self._call(
            "ListGames", context, lambda c, r: self.service.list_games(request, r)
        )

    async def WatchGame(
        self, request: pb.WatchGameRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchGameResponse]:
        stream = await self._call(
            "WatchGame.open", context, lambda c, r: self.service.watch_game(request, c, r)
        )
        # The stream's own log line is written when it ends (client gone or game over).
        record = RequestRecord(
            transport="grpc",
            method="WatchGame",
            request_id=_metadata(context, "x-request-id") or uuid.uuid4().hex[:16],
            game_id=request.game_id,
        )
        with observe_request(record):
            try:
                async for update in stream:
                    record.version = update.version
                    yield update
            finally:
                await stream.aclose()
