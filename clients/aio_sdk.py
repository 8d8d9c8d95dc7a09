"""asyncio Python SDK for the Brass game service: the same calls as brass_clients.sdk.

    async with AsyncGameClient("127.0.0.1:50051") as client:
        created = await client.create_game(players=2, seed=7)
        async for update in client.watch_game(created.game_id):
            ...
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import grpc

from brass_service.gen import game_service_pb2 as pb
from brass_service.gen import game_service_pb2_grpc as pb_grpc

from .sdk import (
    DEFAULT_TARGET,
    BrassError,
    _auth,
    _backoff,
    build_batch_request,
    create_game_request,
    legal_actions_request,
    list_games_request,
    position_request,
    preview_request,
    struct_to_dict,
    submit_request,
    undo_request,
    view_dict,
)

_TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)

__all__ = ["AsyncGameClient", "AsyncSeatClient", "BrassError", "pb", "struct_to_dict",
           "view_dict"]


class AsyncGameClient:
    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        timeout: float = 30.0,
        retries: int = 2,
        channel: grpc.aio.Channel | None = None,
        operator_token: str | None = None,
    ) -> None:
        """`operator_token`: the server's operator token, sent with CreateGame (free of
        the per-client creation quota), CreateGameFromPosition and RunBatch (which need it)."""
        self.target = target
        self.timeout = timeout
        self.retries = retries
        self.operator_token = operator_token
        self._channel = channel or grpc.aio.insecure_channel(target)
        self._stub = pb_grpc.GameServiceStub(self._channel)

    async def __aenter__(self) -> AsyncGameClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close()

    async def _call(
        self, method: str, request: Any, token: str | None = None, retry: bool = True
    ) -> Any:
        rpc = getattr(self._stub, method)
        attempt = 0
        while True:
            try:
                return await rpc(request, timeout=self.timeout, metadata=_auth(token))
            except grpc.aio.AioRpcError as error:
                if retry and error.code() in _TRANSIENT and attempt < self.retries:
                    attempt += 1
                    await asyncio.sleep(_backoff(attempt))
                    continue
                raise BrassError.from_rpc_error(error) from None

    async def create_game(self, players: int, **options: Any) -> pb.CreateGameResponse:
        """As GameClient.create_game: `options` as create_game_request's."""
        return await self._call("CreateGame", create_game_request(players, **options),
                                self.operator_token)

    async def create_game_from_position(
        self, position: dict[str, Any] | str, *, seat_names: Sequence[str] = ()
    ) -> pb.CreateGameResponse:
        request = position_request(position, seat_names=seat_names)
        return await self._call("CreateGameFromPosition", request, self.operator_token)

    async def get_game(self, game_id: str, token: str | None = None) -> pb.GameState:
        return (await self._call("GetGame", pb.GetGameRequest(game_id=game_id), token)).state

    async def list_legal_actions(
        self, game_id: str, token: str, **flags: bool
    ) -> pb.ListLegalActionsResponse:
        return await self._call("ListLegalActions", legal_actions_request(game_id, **flags),
                                token)

    async def submit_action(
        self, game_id: str, token: str, option_id: int | None = None, **kwargs: Any
    ) -> pb.SubmitActionResponse:
        return await self._call("SubmitAction", submit_request(game_id, option_id, **kwargs),
                                token)

    async def undo_action(
        self, game_id: str, token: str, **kwargs: Any
    ) -> pb.UndoActionResponse:
        """As GameClient.undo_action: `kwargs` as undo_request's."""
        return await self._call("UndoAction", undo_request(game_id, **kwargs), token)

    async def preview_action(
        self, game_id: str, token: str, option_id: int | None = None, **kwargs: Any
    ) -> pb.PreviewActionResponse:
        return await self._call(
            "PreviewAction", preview_request(game_id, option_id, **kwargs), token)

    async def get_replay(
        self, game_id: str, token: str | None = None
    ) -> tuple[bool, dict[str, Any]]:
        response = await self._call("GetReplay", pb.GetReplayRequest(game_id=game_id), token)
        return response.complete, json.loads(response.record_json)

    async def get_ruleset(self, ruleset: int = pb.RULESET_BIRMINGHAM) -> pb.RulesetDescription:
        """The ruleset's board, action space, reasons and options (for drawing)."""
        response = await self._call("GetRuleset", pb.GetRulesetRequest(ruleset=ruleset))
        return response.ruleset

    async def list_games(
        self, *, page_size: int = 0, page_token: str = "", status: int = 0, ruleset: int = 0,
        has_open_seats: bool | None = None,
    ) -> pb.ListGamesResponse:
        return await self._call(
            "ListGames",
            list_games_request(page_size, page_token, status, ruleset, has_open_seats),
        )

    async def join_game(
        self, game_id: str, name: str, *, seat: int | None = None
    ) -> pb.JoinGameResponse:
        """As GameClient.join_game (not retried)."""
        request = pb.JoinGameRequest(game_id=game_id, name=name, seat=seat)
        return await self._call("JoinGame", request, retry=False)

    async def leave_game(self, game_id: str, token: str) -> pb.LeaveGameResponse:
        return await self._call("LeaveGame", pb.LeaveGameRequest(game_id=game_id), token)

    async def start_game(self, game_id: str, host_token: str) -> pb.StartGameResponse:
        return await self._call("StartGame", pb.StartGameRequest(game_id=game_id), host_token)

    async def reissue_seat_token(
        self, game_id: str, seat: int, host_token: str
    ) -> pb.ReissueSeatTokenResponse:
        request = pb.ReissueSeatTokenRequest(game_id=game_id, seat=seat)
        return await self._call("ReissueSeatToken", request, host_token, retry=False)

    async def rematch(self, game_id: str, token: str) -> pb.RematchResponse:
        """As GameClient.rematch (not retried)."""
        return await self._call("Rematch", pb.RematchRequest(game_id=game_id), token,
                                retry=False)

    async def resign_game(self, game_id: str, token: str) -> pb.ResignGameResponse:
        """As GameClient.resign_game (not retried)."""
        return await self._call("ResignGame", pb.ResignGameRequest(game_id=game_id), token,
                                retry=False)

    async def revoke_seat_token(
        self, game_id: str, seat: int, host_token: str, *, ban: bool = False
    ) -> pb.RevokeSeatTokenResponse:
        """Revokes the seat's token (the host token); `ban` also bars its holder (the
        address it joined from, its name) from joining the game again."""
        request = pb.RevokeSeatTokenRequest(game_id=game_id, seat=seat, ban=ban)
        return await self._call("RevokeSeatToken", request, host_token, retry=False)

    async def set_seat_bot(
        self, game_id: str, seat: int, bot: str, host_token: str
    ) -> pb.SetSeatBotResponse:
        request = pb.SetSeatBotRequest(game_id=game_id, seat=seat, bot=bot)
        return await self._call("SetSeatBot", request, host_token, retry=False)

    async def watch_game(
        self, game_id: str, token: str | None = None, *, from_version: int = 0
    ) -> AsyncIterator[pb.WatchGameResponse]:
        """Updates after `from_version`, then live ones, resuming after transient failures."""
        last = from_version
        attempt = 0
        while True:
            call = self._stub.WatchGame(
                pb.WatchGameRequest(game_id=game_id, from_version=last), metadata=_auth(token)
            )
            try:
                async for update in call:
                    attempt = 0
                    last = update.version
                    yield update
                return
            except grpc.aio.AioRpcError as error:
                if error.code() in _TRANSIENT and attempt < self.retries:
                    attempt += 1
                    await asyncio.sleep(_backoff(attempt))
                    continue
                raise BrassError.from_rpc_error(error) from None
            finally:
                call.cancel()

    async def run_batch(
        self,
        players: int,
        bots: Sequence[str],
        games: int,
        *,
        seed: int | None = None,
        include_decisions: bool = False,
        beginner: bool | None = None,
        manufacturer_iv_cost: int | None = None,
        auto_resolve: bool | None = None,
        timeout: float | None = None,
        ruleset: str = "birmingham",
        ruleset_options: dict[str, Any] | None = None,
    ) -> AsyncIterator[pb.RunBatchResponse]:
        """Plays `games` bot games on the server; yields each result as it finishes
        (not retried; leaving early cancels the rest of the batch)."""
        request = build_batch_request(
            players, bots, games, seed=seed, include_decisions=include_decisions,
            beginner=beginner, manufacturer_iv_cost=manufacturer_iv_cost,
            auto_resolve=auto_resolve, ruleset=ruleset, ruleset_options=ruleset_options,
        )
        call = self._stub.RunBatch(
            request, timeout=timeout, metadata=_auth(self.operator_token)
        )
        try:
            async for result in call:
                yield result
        except grpc.aio.AioRpcError as error:
            raise BrassError.from_rpc_error(error) from None
        finally:
            call.cancel()

    def seat(self, game_id: str, token: str) -> AsyncSeatClient:
        return AsyncSeatClient(self, game_id, token)


@dataclass
class AsyncSeatClient:
    client: AsyncGameClient
    game_id: str
    token: str

    async def state(self) -> pb.GameState:
        return await self.client.get_game(self.game_id, self.token)

    async def view(self) -> dict[str, Any]:
        return view_dict(await self.state())

    async def legal_actions(
        self, *, include_compound_actions: bool = False
    ) -> pb.ListLegalActionsResponse:
        return await self.client.list_legal_actions(
            self.game_id, self.token, include_compound_actions=include_compound_actions
        )

    async def submit(self, option_id: int | None = None, **kwargs: Any) -> pb.SubmitActionResponse:
        return await self.client.submit_action(self.game_id, self.token, option_id, **kwargs)

    async def preview(
        self, option_id: int | None = None, **kwargs: Any
    ) -> pb.PreviewActionResponse:
        return await self.client.preview_action(self.game_id, self.token, option_id, **kwargs)

    def watch(self, *, from_version: int = 0) -> AsyncIterator[pb.WatchGameResponse]:
        return self.client.watch_game(self.game_id, self.token, from_version=from_version)
