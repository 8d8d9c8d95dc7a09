"""The gRPC front end: brass.v1.GameService over grpc.aio."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
import structlog
from google.protobuf.message import DecodeError, Message
from grpc_status import rpc_status

from ..auth import bearer_token
from ..errors import ServiceError
from ..games import Caller, GameService
from ..games.export import ExportFilter
from ..gen import game_service_pb2 as pb
from ..gen import game_service_pb2_grpc as pb_grpc
from ..i18n import LANGUAGE, Text, negotiate
from ..observability import RequestRecord, new_request_id, observe_request
from ..rulesets import get_ruleset
from ..views.reply import serialize

log = structlog.get_logger("brass_service.grpc")
T = TypeVar("T")


def _metadata(context: grpc.aio.ServicerContext, key: str) -> str | None:
    """The value of a metadata key; repeated keys' values joined with commas."""
    return _all_metadata(context).get(key)


def _all_metadata(context: grpc.aio.ServicerContext) -> dict[str, str]:
    """Every metadata key's value (repeated keys' values joined with commas), read in one
    pass: a call asks for several keys."""
    found: dict[str, str] = {}
    for key, value in context.invocation_metadata() or ():
        text = value if isinstance(value, str) else value.decode("utf-8", "replace")
        found[key] = f"{found[key]}, {text}" if key in found else text
    return found


def peer_host(peer: str) -> str:
    """'ipv4:127.0.0.1:5000' -> '127.0.0.1'; 'ipv6:[::1]:5000' -> '::1'."""
    _, _, address = peer.partition(":")
    host, _, _port = address.rpartition(":")
    return host.strip("[]") or peer


def _language(context: grpc.aio.ServicerContext) -> str:
    """The language of the call's texts: metadata `accept-language` (service/i18n)."""
    return negotiate(_metadata(context, "accept-language"))


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> None:
    language = _language(context)
    status = rpc_status.to_status(error.to_status_proto(language))
    await context.abort(status.code, status.details,
                        (*status.trailing_metadata, ("content-language", language)))


class MalformedRequest:
    """Stands in for a request whose bytes are not its message: the servicer answers it with
    INVALID_ARGUMENT and an ErrorInfo, instead of gRPC's bare UNKNOWN for a decode error."""

    def __init__(self, message_name: str, error: str) -> None:
        self.message_name = message_name
        self.error = error


def _tolerant_parser(message_class: type[Message]) -> Callable[[bytes], object]:
    def parse(data: bytes) -> object:
        try:
            return message_class.FromString(data)
        except (DecodeError, RecursionError) as exc:
            return MalformedRequest(message_class.DESCRIPTOR.name, str(exc) or "decode error")

    return parse


def add_to_server(servicer: GameServicer, server: grpc.aio.Server) -> None:
    """Registers the servicer like the generated add_GameServiceServicer_to_server, but with
    request parsing that reports undecodable bytes as INVALID_ARGUMENT."""
    service = pb.DESCRIPTOR.services_by_name["GameService"]
    handlers = {}
    for method in service.methods:
        request_class = getattr(pb, method.input_type.name)
        make = (
            grpc.unary_stream_rpc_method_handler
            if method.server_streaming
            else grpc.unary_unary_rpc_method_handler
        )
        answer = getattr(type(servicer), method.name)
        if answer is getattr(pb_grpc.GameServiceServicer, method.name):
            raise TypeError(f"GameServicer does not answer {method.name}")
        handlers[method.name] = make(
            getattr(servicer, method.name),
            request_deserializer=_tolerant_parser(request_class),
            # Messages, or Replies whose bytes are already made (see views/reply.py).
            response_serializer=serialize,
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service.full_name, handlers),)
    )
    server.add_registered_method_handlers(service.full_name, handlers)


# How a unary RPC is answered: (service, request, caller, request record) -> response.
Answer = Callable[[GameService, Any, Caller, RequestRecord], Awaitable[Any]]


def _unary(rpc: str, answer: Answer) -> Callable[..., Awaitable[Any]]:
    """The servicer method for one unary RPC: _call (logging, authentication's caller,
    errors as status details) around `answer`."""

    async def handler(
        self: GameServicer, request: Message, context: grpc.aio.ServicerContext
    ) -> Message:
        return await self._call(
            rpc, context, request, lambda caller, record: answer(
                self.service, request, caller, record)
        )

    handler.__name__ = handler.__qualname__ = rpc
    return handler


def _in_part(part: str, method: str) -> Answer:
    """The answer of one of the service's parts (its accounts, challenges, ratings) that
    are not GameService's own methods: service.<part>.<method>(request, caller, record)."""

    def answer(service: GameService, request: Any, caller: Caller,
               record: RequestRecord) -> Awaitable[Any]:
        return getattr(getattr(service, part), method)(request, caller, record)

    return answer


class GameServicer(pb_grpc.GameServiceServicer):
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def _call(
        self,
        method: str,
        context: grpc.aio.ServicerContext,
        request: object,
        handler: Callable[[Caller, RequestRecord], Awaitable[T]],
    ) -> T:
        metadata = _all_metadata(context)
        record = RequestRecord(
            transport="grpc",
            method=method,
            request_id=metadata.get("x-request-id") or new_request_id(),
        )
        language = negotiate(metadata.get("accept-language"))
        LANGUAGE.set(language)  # each call runs in its own task
        with observe_request(record):
            try:
                if isinstance(request, MalformedRequest):
                    raise ServiceError(
                        "INVALID_ARGUMENT",
                        f"the request is not a valid {request.message_name} message "
                        f"({request.error})",
                    )
                peer = context.peer()
                host = peer_host(peer)
                caller = Caller(
                    token=bearer_token(metadata.get("authorization")),
                    peer=self.service.client_address(host, metadata.get),
                    # the peer's port tells its connections apart; a trusted proxy's one
                    # connection carries many clients
                    connection=None if self.service.addresses.is_trusted_peer(host) else peer,
                )
                await self.service.accounts.resolve(caller)
                answer = await handler(caller, record)
                context.set_trailing_metadata((("content-language", language),))
                return answer
            except ServiceError as error:
                record.outcome = error.reason
                await _abort(context, error)
            except Exception:
                record.outcome = "INTERNAL"
                log.exception("unexpected_error", method=method, request_id=record.request_id)
                await _abort(
                    context,
                    ServiceError("INTERNAL", Text("internal_request",
                                                  request_id=record.request_id)),
                )
        raise AssertionError("unreachable: abort raises")

    # The unary RPCs: each answers through _call with the GameService method of its name.
    CreateGame = _unary("CreateGame", GameService.create_game)
    CreateGameFromPosition = _unary(
        "CreateGameFromPosition", GameService.create_game_from_position
    )
    GetGame = _unary("GetGame", GameService.get_game)
    ListLegalActions = _unary("ListLegalActions", GameService.list_legal_actions)
    SubmitAction = _unary("SubmitAction", GameService.submit_action)
    UndoAction = _unary("UndoAction", GameService.undo_action)
    PreviewAction = _unary("PreviewAction", GameService.preview_action)
    GetReplay = _unary("GetReplay", GameService.get_replay)
    ListGames = _unary("ListGames", lambda service, request, caller, record:
                       service.list_games(request, record, caller))
    GetRuleset = _unary("GetRuleset", lambda _service, request, _caller, _record:
                        get_ruleset(request))
    JoinGame = _unary("JoinGame", GameService.join_game)
    LeaveGame = _unary("LeaveGame", GameService.leave_game)
    StartGame = _unary("StartGame", GameService.start_game)
    ReissueSeatToken = _unary("ReissueSeatToken", GameService.reissue_seat_token)
    ResignGame = _unary("ResignGame", GameService.resign_game)
    Rematch = _unary("Rematch", GameService.rematch)
    RevokeSeatToken = _unary("RevokeSeatToken", GameService.revoke_seat_token)
    SetSeatBot = _unary("SetSeatBot", GameService.set_seat_bot)
    # Accounts (service/accounts/): their part, not GameService's
    CreateAccount = _unary("CreateAccount", _in_part("accounts", "create_account"))
    GetAccount = _unary("GetAccount", _in_part("accounts", "get_account"))
    RotateAccountKey = _unary("RotateAccountKey", _in_part("accounts", "rotate_key"))
    RevokeAccountKey = _unary("RevokeAccountKey", _in_part("accounts", "revoke_key"))
    CreateChallenge = _unary("CreateChallenge", _in_part("challenges", "create"))
    AcceptChallenge = _unary("AcceptChallenge", _in_part("challenges", "accept"))
    DeclineChallenge = _unary("DeclineChallenge", _in_part("challenges", "decline"))
    GetLeaderboard = _unary("GetLeaderboard", _in_part("ratings", "get_leaderboard"))
    GetRatingHistory = _unary("GetRatingHistory", _in_part("ratings", "get_rating_history"))
    CreateWebhook = _unary("CreateWebhook", _in_part("webhooks", "create"))
    ListWebhooks = _unary("ListWebhooks", _in_part("webhooks", "list"))
    DeleteWebhook = _unary("DeleteWebhook", _in_part("webhooks", "delete"))
    ListWebhookDeliveries = _unary("ListWebhookDeliveries",
                                   _in_part("webhooks", "list_deliveries"))
    CreateArena = _unary("CreateArena", _in_part("arenas", "create"))
    GetArena = _unary("GetArena", _in_part("arenas", "get"))
    ListArenas = _unary("ListArenas", _in_part("arenas", "list"))

    async def WatchGame(
        self, request: pb.WatchGameRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchGameResponse]:
        stream = await self._call(
            "WatchGame.open",
            context,
            request,
            lambda c, r: self.service.watch_game(request, c, r),
        )
        # The stream's own log line is written when it ends (client gone or game over).
        record = RequestRecord(
            transport="grpc",
            method="WatchGame",
            request_id=_metadata(context, "x-request-id") or new_request_id(),
            game_id=request.game_id,
        )
        with observe_request(record):
            try:
                async for update in stream:
                    record.version = update.version
                    yield update
            except ServiceError as error:  # e.g. SEAT_TOKEN_REVOKED: the stream's status
                record.outcome = error.reason
                await _abort(context, error)
            finally:
                await stream.aclose()

    async def StreamAccountEvents(
        self, request: pb.StreamAccountEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.StreamAccountEventsResponse]:
        stream = await self._call(
            "StreamAccountEvents.open", context, request,
            lambda c, r: self.service.account_streams.open(request, c))
        async for event in self._stream_of("StreamAccountEvents", context, stream):
            yield event

    async def WatchArena(
        self, request: pb.WatchArenaRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchArenaResponse]:
        stream = await self._call("WatchArena.open", context, request,
                                  lambda c, r: self.service.arenas.watch(request, c))
        async for update in self._stream_of("WatchArena", context, stream):
            yield update

    async def _stream_of(self, method: str, context: grpc.aio.ServicerContext,
                         stream: Any) -> AsyncIterator[Any]:
        """A server stream's messages, with its log line when it ends and a ServiceError
        as its status."""
        record = RequestRecord(
            transport="grpc", method=method,
            request_id=_metadata(context, "x-request-id") or new_request_id())
        with observe_request(record):
            try:
                async for event in stream:  # type: ignore[attr-defined]
                    yield event
            except ServiceError as error:
                record.outcome = error.reason
                await _abort(context, error)
            finally:
                await stream.aclose()  # type: ignore[attr-defined]

    async def ExportGames(
        self, request: pb.ExportGamesRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.ExportGamesResponse]:
        """The records of GET /v1/games:export, one message each: the next is made when
        gRPC's flow control has taken the last (memory: one game's record)."""
        async def open_export(caller: Caller, _record: RequestRecord) -> AsyncIterator[bytes]:
            return self.service.export_games(ExportFilter.of_request(request), caller)

        lines = await self._call("ExportGames.open", context, request, open_export)
        record = RequestRecord(
            transport="grpc", method="ExportGames",
            request_id=_metadata(context, "x-request-id") or new_request_id())
        sent = 0
        with observe_request(record):
            try:
                async for line in lines:
                    yield pb.ExportGamesResponse(record=line.rstrip(b"\n").decode())
                    sent += 1
            except ServiceError as error:
                record.outcome = error.reason
                await _abort(context, error)
            finally:
                record.extra["games"] = sent
                await lines.aclose()  # type: ignore[attr-defined]

    async def RunBatch(
        self, request: pb.RunBatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.RunBatchResponse]:
        stream = await self._call(
            "RunBatch.open", context, request, lambda c, r: self.service.run_batch(request, c, r)
        )
        # One log line when the batch ends (finished, failed or the client left).
        record = RequestRecord(
            transport="grpc",
            method="RunBatch",
            request_id=_metadata(context, "x-request-id") or new_request_id(),
        )
        with observe_request(record):
            try:
                async for result in stream:
                    record.extra["completed"] = result.completed
                    yield result
            except ServiceError as error:
                record.outcome = error.reason
                await _abort(context, error)
            except Exception:
                record.outcome = "INTERNAL"
                log.exception("unexpected_error", method="RunBatch", request_id=record.request_id)
                await _abort(
                    context,
                    ServiceError("INTERNAL", Text("internal_request",
                                                  request_id=record.request_id)),
                )
            finally:
                await stream.aclose()
