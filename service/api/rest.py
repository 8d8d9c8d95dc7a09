"""The REST/JSON gateway: the plain operations (one JSON answer each), run by both HTTP
fronts (api/rest_app.py's aiohttp app, api/fast_http.py) on the same event loop and
GameService as gRPC.

Bodies are the canonical proto3 JSON of the brass.v1 messages; errors are the same reasons
and messages as over gRPC, with the matching HTTP status.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import structlog
from google.protobuf.message import Message

from ..auth import bearer_token
from ..errors import ServiceError
from ..games import Caller, GameService
from ..gen import game_service_pb2 as pb
from ..i18n import LANGUAGE, LANGUAGES, Text, negotiate
from ..observability import RequestRecord, new_request_id, observe_request
from ..rulesets import get_ruleset, parse_ruleset
from ..store import StoreHealth
from ..views.convert import message_to_json_dict
from ..views.reply import Reply
from .openapi import BodyValidator, build_openapi
from .rest_parse import (
    ClientGone,
    RestRequest,
    bool_param,
    int_list_param,
    int_param,
    path_game_id,
    query_either,
    read_body,
)
from .rest_routes import NO_GAME_TOKEN, ROUTES, TOKEN_REQUIRED

log = structlog.get_logger("brass_service.rest")

# Refusals of a request's arguments, which a bad token takes precedence over.
_ARGUMENT_REASONS = frozenset({
    "INVALID_ARGUMENT", "UNKNOWN_ACTION", "BAD_PAGE_TOKEN", "BAD_POSITION",
})


NO_HEADERS: Mapping[str, str] = {}
# Every answer says its language (Content-Language); one mapping per language, made once.
_LANGUAGE_HEADERS: Mapping[str, Mapping[str, str]] = {
    language: {"Content-Language": language} for language in LANGUAGES
}


def _ok_text(message: Message | Reply) -> str:
    if type(message) is Reply:
        return message.to_json_text()
    return json.dumps(message_to_json_dict(message), separators=(",", ":"))


def _page_params(request: RestRequest) -> dict[str, Any]:
    """A paged listing's query parameters (pageSize, pageToken; snake_case accepted too)."""
    return {
        "page_size": int_param(query_either(request, "pageSize", "page_size"), "pageSize", 32,
                               low=1),
        "page_token": query_either(request, "pageToken", "page_token") or "",
    }


def _set_enum_param(request: RestRequest, message: Message, name: str, enum: Any) -> None:
    """Sets the message's enum field `name` from the query parameter of that name, given by
    the value's name (not its number), when the request has it."""
    value = request.query_param(name)
    if value is None:
        return
    if value not in enum.keys():
        raise ServiceError("INVALID_ARGUMENT", f"{name} {value[:64]!r} is not one of "
                           f"{enum.DESCRIPTOR.name}'s names", field=name)
    setattr(message, name, enum.Value(value))


class RestGateway:
    """The plain operations: a request in, (status, JSON text, headers) out."""

    def __init__(
        self, service: GameService, health_check: Callable[[], Awaitable[StoreHealth]]
    ):
        self.service = service
        self.health_check = health_check
        # Relative: the document is the same whatever Host a client sends.
        self.openapi_document = build_openapi(ROUTES, server_url="/", settings=service.settings)
        self.bodies = BodyValidator(self.openapi_document)

    async def respond(
        self, operation_id: str, request: RestRequest
    ) -> tuple[int, str, Mapping[str, str]]:
        """Runs a plain operation: (HTTP status, JSON text of the answer or of the error,
        extra headers: Content-Language, Retry-After on a 429). The texts are in the language
        Accept-Language asks for (service/i18n), English by default."""
        language = negotiate(request.header("accept-language"))
        token = LANGUAGE.set(language)  # read where the service words texts (reasons)
        try:
            return await self._respond(operation_id, request, language)
        finally:
            LANGUAGE.reset(token)

    async def _respond(
        self, operation_id: str, request: RestRequest, language: str
    ) -> tuple[int, str, Mapping[str, str]]:
        headers = _LANGUAGE_HEADERS[language]
        record = RequestRecord(
            transport="rest",
            method=operation_id,
            request_id=request.header("x-request-id") or new_request_id(),
        )
        with observe_request(record):
            try:
                caller = self.caller(request)
                await self.service.accounts.resolve(caller)
                if caller.token is None and operation_id in TOKEN_REQUIRED:
                    raise ServiceError(  # before anything of the request is read
                        "UNAUTHENTICATED", Text("needs_token", operation=operation_id))
                try:
                    answer = await self._plain[operation_id](request, caller, record)
                except ServiceError as error:
                    if operation_id not in NO_GAME_TOKEN:
                        await self._authenticate_first(error, request, caller)
                    raise
                return 200, _ok_text(answer), headers
            except ServiceError as error:
                record.outcome = error.reason
                return (error.http_status, error.to_json_text(language),
                        {**headers, **error.http_headers()})
            except ClientGone:
                record.outcome = "CLIENT_GONE"
                return 400, "", NO_HEADERS
            except Exception:
                record.outcome = "INTERNAL"
                log.exception(
                    "unexpected_error", method=operation_id, request_id=record.request_id
                )
                error = ServiceError("INTERNAL", Text("internal_request",
                                                      request_id=record.request_id))
                return error.http_status, error.to_json_text(language), headers

    async def _authenticate_first(
        self, error: ServiceError, request: RestRequest, caller: Caller
    ) -> None:
        """A request refused for its arguments whose token is no token of its game is
        refused as UNAUTHENTICATED instead: authentication comes before the body. Checked
        only when the request is refused anyway, so accepted requests pay nothing."""
        if error.reason not in _ARGUMENT_REASONS or caller.token is None:
            return
        try:
            game_id = request.path_param("gameId")
        except KeyError:
            return  # no game in the path: the operator token is checked before the body
        await self.service.authenticate(game_id, caller)

    def caller(self, request: RestRequest) -> Caller:
        return Caller(
            token=bearer_token(request.header("authorization")),
            peer=self.service.client_address(request.remote, request.header),
        )


    @functools.cached_property
    def _plain(
        self,
    ) -> Mapping[str, Callable[[RestRequest, Caller, RequestRecord], Awaitable[Message | Reply]]]:
        return {
            "CreateGame": self._create_game,
            "CreateGameFromPosition": self._create_game_from_position,
            "ListGames": self._list_games,
            "GetGame": self._get_game,
            "ListLegalActions": self._list_legal_actions,
            "SubmitAction": self._submit_action,
            "PreviewAction": self._preview_action,
            "GetReplay": self._get_replay,
            "GetRuleset": self._get_ruleset,
            "JoinGame": functools.partial(
                self._lobby, pb.JoinGameRequest, self.service.join_game),
            "LeaveGame": functools.partial(
                self._lobby, pb.LeaveGameRequest, self.service.leave_game),
            "StartGame": functools.partial(
                self._lobby, pb.StartGameRequest, self.service.start_game),
            "ReissueSeatToken": functools.partial(
                self._lobby, pb.ReissueSeatTokenRequest, self.service.reissue_seat_token),
            "ResignGame": functools.partial(
                self._lobby, pb.ResignGameRequest, self.service.resign_game),
            "Rematch": functools.partial(
                self._lobby, pb.RematchRequest, self.service.rematch),
            "RevokeSeatToken": functools.partial(
                self._lobby, pb.RevokeSeatTokenRequest, self.service.revoke_seat_token),
            "SetSeatBot": functools.partial(
                self._lobby, pb.SetSeatBotRequest, self.service.set_seat_bot),
            "UndoAction": self._undo_action,
            "CreateAccount": functools.partial(
                self._body_only, pb.CreateAccountRequest, self.service.accounts.create_account),
            "CreateChallenge": functools.partial(
                self._body_only, pb.CreateChallengeRequest, self.service.challenges.create),
            "AcceptChallenge": functools.partial(
                self._lobby, pb.AcceptChallengeRequest, self.service.challenges.accept),
            "DeclineChallenge": functools.partial(
                self._lobby, pb.DeclineChallengeRequest, self.service.challenges.decline),
            "CreateWebhook": functools.partial(
                self._body_only, pb.CreateWebhookRequest, self.service.webhooks.create),
            "ListWebhooks": self._list_webhooks,
            "DeleteWebhook": self._webhook_call,
            "ListWebhookDeliveries": self._webhook_call,
            "GetLeaderboard": self._get_leaderboard,
            "CreateArena": self._create_arena,
            "GetArena": self._get_arena,
            "ListArenas": self._list_arenas,
            "GetRatingHistory": self._get_rating_history,
            "GetAccount": functools.partial(
                self._lobby, pb.GetAccountRequest, self.service.accounts.get_account),
            "RotateAccountKey": functools.partial(
                self._lobby, pb.RotateAccountKeyRequest, self.service.accounts.rotate_key),
            "RevokeAccountKey": functools.partial(
                self._lobby, pb.RevokeAccountKeyRequest, self.service.accounts.revoke_key),
        }

    async def _lobby(
        self,
        message_class: type[Message],
        call: Callable[[Any, Caller, RequestRecord], Awaitable[Message]],
        request: RestRequest,
        caller: Caller,
        record: RequestRecord,
    ) -> Message | Reply:
        """JoinGame, LeaveGame, StartGame, ResignGame…, and the account calls: the body
        (optional; GetAccount, a GET, has none) and the path's game or account id."""
        message = message_class()
        if message_class is not pb.GetAccountRequest:
            message = await read_body(request, message, self.bodies)
        if "account_id" in message.DESCRIPTOR.fields_by_name:
            message.account_id = request.path_param("accountId")  # type: ignore[attr-defined]
        elif "challenge_id" in message.DESCRIPTOR.fields_by_name:
            message.challenge_id = request.path_param(  # type: ignore[attr-defined]
                "challengeId")
        else:
            path_game_id(request, message)
        return await call(message, caller, record)

    async def _get_leaderboard(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.GetLeaderboardRequest(
            ruleset=parse_ruleset(request.path_param("ruleset")),
            players=int_param(request.query_param("players"), "players", 32, low=0),
            **_page_params(request),
        )
        _set_enum_param(request, message, "kind", pb.AccountKind)
        return await self.service.ratings.get_leaderboard(message, caller, record)

    async def _list_webhooks(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.ListWebhooksRequest(
            account_id=query_either(request, "accountId", "account_id") or "",
            game_id=query_either(request, "gameId", "game_id") or "")
        return await self.service.webhooks.list(message, caller, record)

    async def _webhook_call(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        """DeleteWebhook and ListWebhookDeliveries: the path's webhook id (and a page)."""
        webhook_id = request.path_param("webhookId")
        if record.method == "DeleteWebhook":
            return await self.service.webhooks.delete(
                pb.DeleteWebhookRequest(webhook_id=webhook_id), caller, record)
        return await self.service.webhooks.list_deliveries(
            pb.ListWebhookDeliveriesRequest(webhook_id=webhook_id, **_page_params(request)),
            caller, record)

    async def _create_arena(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        self.service.require_operator(caller, "CreateArena")  # before the body
        body = await read_body(request, pb.CreateArenaRequest(), self.bodies)
        return await self.service.arenas.create(body, caller, record)  # type: ignore[arg-type]

    async def _get_arena(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        return await self.service.arenas.get(
            pb.GetArenaRequest(arena_id=request.path_param("arenaId")), caller, record)

    async def _list_arenas(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.ListArenasRequest(**_page_params(request))
        _set_enum_param(request, message, "status", pb.ArenaStatus)
        return await self.service.arenas.list(message, caller, record)

    async def _get_rating_history(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.GetRatingHistoryRequest(
            account_id=request.path_param("accountId"),
            **_page_params(request),
        )
        return await self.service.ratings.get_rating_history(message, caller, record)

    async def _body_only(
        self,
        message_class: type[Message],
        call: Callable[[Any, Caller, RequestRecord], Awaitable[Message]],
        request: RestRequest,
        caller: Caller,
        record: RequestRecord,
    ) -> Message | Reply:
        """CreateAccount, CreateChallenge: the body says everything."""
        return await call(await read_body(request, message_class(), self.bodies), caller,
                          record)

    async def _create_game(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        body = await read_body(request, pb.CreateGameRequest(), self.bodies)
        return await self.service.create_game(body, caller, record)  # type: ignore[arg-type]

    async def _create_game_from_position(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        self.service.require_operator(caller, "CreateGameFromPosition")  # before the body
        body = await read_body(request, pb.CreateGameFromPositionRequest(), self.bodies)
        return await self.service.create_game_from_position(
            body, caller, record  # type: ignore[arg-type]
        )

    async def _list_games(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.ListGamesRequest(**_page_params(request))
        for name, enum in (("status", pb.GameStatus), ("ruleset", pb.Ruleset)):
            value = request.query_param(name)
            if value is not None:
                # by name only, as the document says (not by number)
                if value not in enum.keys():
                    raise ServiceError(
                        "INVALID_ARGUMENT",
                        f"{name} {value[:64]!r} is not a {enum.DESCRIPTOR.name} name",
                        field=name,
                    )
                setattr(message, name, enum.Value(value))
        open_seats = query_either(request, "hasOpenSeats", "has_open_seats")
        if open_seats is not None:
            message.has_open_seats = bool_param(open_seats, "hasOpenSeats")
        message.account_id = query_either(request, "accountId", "account_id") or ""
        return await self.service.list_games(message, record, caller)

    async def _get_game(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.GetGameRequest(game_id=request.path_param("gameId"))
        at_version = query_either(request, "atVersion", "at_version")
        if at_version is not None:
            message.at_version = int_param(at_version, "atVersion", 64, low=0)
        return await self.service.get_game(message, caller, record)

    async def _list_legal_actions(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.ListLegalActionsRequest(
            game_id=request.path_param("gameId"),
            include_compound_actions=bool_param(
                query_either(request, "includeCompoundActions", "include_compound_actions"),
                "includeCompoundActions",
            ),
            include_unavailable=bool_param(
                query_either(request, "includeUnavailable", "include_unavailable"),
                "includeUnavailable",
            ),
            after_ids=int_list_param(query_either(request, "afterIds", "after_ids"), "afterIds"),
        )
        return await self.service.list_legal_actions(message, caller, record)

    async def _submit_action(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = await read_body(request, pb.SubmitActionRequest(), self.bodies)
        path_game_id(request, message)
        return await self.service.submit_action(message, caller, record)  # type: ignore[arg-type]

    async def _undo_action(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = await read_body(request, pb.UndoActionRequest(), self.bodies)
        path_game_id(request, message)
        return await self.service.undo_action(message, caller, record)  # type: ignore[arg-type]

    async def _preview_action(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = await read_body(request, pb.PreviewActionRequest(), self.bodies)
        path_game_id(request, message)
        return await self.service.preview_action(message, caller, record)  # type: ignore[arg-type]

    async def _get_replay(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        message = pb.GetReplayRequest(game_id=request.path_param("gameId"))
        return await self.service.get_replay(message, caller, record)

    async def _get_ruleset(
        self, request: RestRequest, caller: Caller, record: RequestRecord
    ) -> Message | Reply:
        ruleset = parse_ruleset(request.path_param("ruleset"))
        return await get_ruleset(pb.GetRulesetRequest(ruleset=ruleset))
