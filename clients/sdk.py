"""Synchronous Python SDK for the Brass game service (gRPC, over the generated stubs).

    from brass_clients.sdk import GameClient

    with GameClient("127.0.0.1:50051") as client:
        created = client.create_game(players=2, seed=7)
        seat = client.seat(created.game_id, created.seats[0].token)
        options = seat.legal_actions().options
        seat.submit(options[0].id)

Failures raise BrassError with the server's machine-readable reason ("NOT_YOUR_TURN", …).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import json_format, struct_pb2
from google.rpc import error_details_pb2, status_pb2

from brass_service.gen import game_service_pb2 as pb
from brass_service.gen import game_service_pb2_grpc as pb_grpc

from .sdk_correspondence import CorrespondenceCalls

DEFAULT_TARGET = "127.0.0.1:50051"
# Safe to retry: SubmitAction carries an idempotency key, the rest only read.
_TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)

__all__ = [
    "BrassError",
    "GameClient",
    "SeatClient",
    "build_action",
    "build_batch_request",
    "cost_dict",
    "event_dict",
    "meaning_dict",
    "pb",
    "struct_to_dict",
    "view_dict",
]


@dataclass
class BrassError(Exception):
    """A failed call: gRPC code, the service's reason, its message and metadata."""

    code: grpc.StatusCode
    reason: str
    message: str
    metadata: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> BrassError:
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        message = (error.details() if hasattr(error, "details") else None) or str(error)
        reason, metadata = code.name if code else "UNKNOWN", {}
        trailing = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
        for key, value in trailing or ():
            if key == "grpc-status-details-bin":
                status = status_pb2.Status.FromString(value)
                for detail in status.details:
                    if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                        info = error_details_pb2.ErrorInfo()
                        detail.Unpack(info)
                        reason, metadata = info.reason, dict(info.metadata)
        return cls(code, reason, message, metadata)


def struct_to_dict(struct: struct_pb2.Struct) -> dict[str, Any]:
    """A Struct (GameOptions.ruleset_options' values) as plain Python, whole numbers as ints."""

    def ints(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        if isinstance(value, dict):
            return {k: ints(v) for k, v in value.items()}
        if isinstance(value, list):
            return [ints(v) for v in value]
        return value

    return ints(json_format.MessageToDict(struct))


def _arm(message: Any, oneof: str) -> tuple[str, Any] | None:
    """The set field of a `oneof` (named by the ruleset) and its message."""
    name = message.WhichOneof(oneof)
    return None if name is None else (name, getattr(message, name))


def _fields(message: Any) -> dict[str, Any]:
    """A typed message as the engine API's dict: snake_case names, every field written."""
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def view_dict(holder: Any) -> dict[str, Any]:
    """The view of a GameState or PreviewActionResponse in the engine API's names
    (snake_case, as brass.Game.view; absent optional fields are left out, not None)."""
    arm = _arm(holder, "view")
    return {} if arm is None else _fields(arm[1])


def _kind_dict(holder: Any, oneof: str, label: str) -> dict[str, Any] | None:
    """A ruleset arm as the engine's dict: {label: kind, its fields} for a message with a
    `kind` oneof, its fields for a flat one; None when unset."""
    arm = _arm(holder, oneof)
    if arm is None:
        return None
    if "kind" not in arm[1].DESCRIPTOR.oneofs_by_name:
        return _fields(arm[1])
    kind = _arm(arm[1], "kind")
    if kind is None:
        return None
    rest = {k: v for k, v in _fields(arm[1]).items() if k != kind[0]}
    return {label: kind[0], **rest, **_fields(kind[1])}


def event_dict(event: pb.GameEvent) -> dict[str, Any]:
    """A GameEvent as brass.Game.apply gives it: {"type", "seat", its fields}."""
    document = _kind_dict(event, "event", "type")
    if document is None or "type" not in document:
        return document or {}
    seat = event.seat if event.HasField("seat") else None
    document.pop("seat", None)
    return {"type": document.pop("type"), "seat": seat, **document}


def meaning_dict(option: pb.LegalOption) -> dict[str, Any]:
    """A LegalOption's meaning as brass.Option.meaning: {"kind", its fields}."""
    return _kind_dict(option, "meaning", "kind") or {}


def cost_dict(preview: pb.PreviewActionResponse) -> dict[str, Any]:
    """A preview's cost breakdown in the engine API's names."""
    arm = _arm(preview, "cost")
    return {} if arm is None else _fields(arm[1])


def build_action(
    option_id: int | None = None,
    compound: Sequence[int] | None = None,
    compound_key: str | None = None,
) -> pb.Action:
    given = [x is not None for x in (option_id, compound, compound_key)]
    if sum(given) != 1:
        raise ValueError("give exactly one of option_id, compound, compound_key")
    if option_id is not None:
        return pb.Action(option_id=option_id)
    if compound is not None:
        return pb.Action(compound=pb.ActionIds(ids=list(compound)))
    return pb.Action(compound_key=compound_key)


def game_options(
    beginner: bool | None = None,
    manufacturer_iv_cost: int | None = None,
    auto_resolve: bool | None = None,
    ruleset_options: dict[str, Any] | None = None,
    undo: bool | None = None,
) -> pb.GameOptions:
    """GameOptions: the typed fields that are given, and a ruleset's own options by name."""
    options = pb.GameOptions()
    if undo is not None:
        options.undo = undo
    if beginner is not None:
        options.beginner = beginner
    if manufacturer_iv_cost is not None:
        options.manufacturer_iv_cost = manufacturer_iv_cost
    if auto_resolve is not None:
        options.auto_resolve = auto_resolve
    for name, value in (ruleset_options or {}).items():
        json_format.ParseDict(value, options.ruleset_options[name])
    return options


def ruleset_value(name: str) -> int:
    """brass.v1's Ruleset value of an engine ruleset name ("pittsburgh")."""
    return pb.Ruleset.Value(f"RULESET_{name.upper()}")


def build_batch_request(
    players: int,
    bots: Sequence[str],
    games: int,
    *,
    seed: int | None = None,
    include_decisions: bool = False,
    beginner: bool | None = None,
    manufacturer_iv_cost: int | None = None,
    auto_resolve: bool | None = None,
    ruleset: str = "birmingham",
    ruleset_options: dict[str, Any] | None = None,
) -> pb.RunBatchRequest:
    request = pb.RunBatchRequest(
        players=players,
        bots=list(bots),
        games=games,
        options=game_options(beginner, manufacturer_iv_cost, auto_resolve, ruleset_options),
        include_decisions=include_decisions,
        ruleset=ruleset_value(ruleset),  # type: ignore[arg-type]
    )
    if seed is not None:
        request.seed = seed
    return request


def create_game_request(
    players: int,
    *,
    seed: int | None = None,
    seat_names: Sequence[str] = (),
    beginner: bool | None = None,
    manufacturer_iv_cost: int | None = None,
    auto_resolve: bool | None = None,
    open_seats: Sequence[int] = (),
    visibility: int = 0,
    ruleset: str = "birmingham",
    ruleset_options: dict[str, Any] | None = None,
    bot_seats: dict[int, str] | None = None,
    clock: pb.ClockOptions | None = None,
    on_resign: int = 0,
    on_timeout: int = 0,
    stand_in_bot: str = "",
    undo: bool | None = None,
    spectator_delay_turns: int | None = None,
) -> pb.CreateGameRequest:
    """CreateGame's request. With `open_seats` the game waits for JoinGame and StartGame
    (the response's host_token). `ruleset` "birmingham" or "pittsburgh", `ruleset_options`
    the ruleset's own options by name (Pittsburgh's rule choices). `bot_seats`: seat -> bot
    spec of the seats the server's bots play; `clock`, `on_resign`, `on_timeout`,
    `stand_in_bot`: GameOptions' hosted-play settings; `undo=False` turns UndoAction off
    (tournaments); `spectator_delay_turns`: spectators see the game that many whole turns
    back until it ends."""
    options = game_options(beginner, manufacturer_iv_cost, auto_resolve, ruleset_options,
                           undo)
    if clock is not None:
        options.clock.CopyFrom(clock)
    options.on_resign = on_resign  # type: ignore[assignment]
    options.on_timeout = on_timeout  # type: ignore[assignment]
    options.stand_in_bot = stand_in_bot
    if spectator_delay_turns is not None:
        options.spectator_delay_turns = spectator_delay_turns
    request = pb.CreateGameRequest(
        ruleset=ruleset_value(ruleset),  # type: ignore[arg-type]
        players=players,
        options=options,
        seat_names=list(seat_names),
        open_seats=list(open_seats),
        visibility=visibility,  # type: ignore[arg-type]
        bot_seats=[pb.BotSeat(seat=s, bot=b) for s, b in sorted((bot_seats or {}).items())],
    )
    if seed is not None:
        request.seed = seed
    return request


def position_request(
    position: dict[str, Any] | str, *, seat_names: Sequence[str] = ()
) -> pb.CreateGameFromPositionRequest:
    text = position if isinstance(position, str) else json.dumps(position)
    return pb.CreateGameFromPositionRequest(
        ruleset=pb.RULESET_UNSPECIFIED, position_json=text, seat_names=list(seat_names)
    )


def legal_actions_request(
    game_id: str, *, include_compound_actions: bool = False, include_unavailable: bool = False
) -> pb.ListLegalActionsRequest:
    return pb.ListLegalActionsRequest(
        game_id=game_id,
        include_compound_actions=include_compound_actions,
        include_unavailable=include_unavailable,
    )


def submit_request(
    game_id: str,
    option_id: int | None = None,
    *,
    compound: Sequence[int] | None = None,
    compound_key: str | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    include_legal_actions: bool = False,
    include_compound_actions: bool = False,
) -> pb.SubmitActionRequest:
    """SubmitAction's request. A fresh idempotency key is made when none is given, so the
    SDK's own retries after a lost answer never apply the action twice. With
    `include_legal_actions`, the answer's `next_actions` holds the caller's legal options
    whenever it is still the seat to act (no ListLegalActions call needed), and with
    `include_compound_actions` too its complete compound actions."""
    request = pb.SubmitActionRequest(
        game_id=game_id,
        action=build_action(option_id, compound, compound_key),
        idempotency_key=idempotency_key or uuid.uuid4().hex,
        include_legal_actions=include_legal_actions,
        include_compound_actions=include_compound_actions,
    )
    if expected_version is not None:
        request.expected_version = expected_version
    return request


def undo_request(
    game_id: str,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    include_legal_actions: bool = False,
) -> pb.UndoActionRequest:
    """UndoAction's request: takes back the caller's action in progress, else its previous
    action of this turn. A fresh idempotency key is made when none is given, as for
    submit_request, so the SDK's own retries never take back a second action."""
    request = pb.UndoActionRequest(
        game_id=game_id, include_legal_actions=include_legal_actions,
        idempotency_key=idempotency_key or uuid.uuid4().hex,
    )
    if expected_version is not None:
        request.expected_version = expected_version
    return request


def preview_request(
    game_id: str,
    option_id: int | None = None,
    *,
    compound: Sequence[int] | None = None,
    compound_key: str | None = None,
    expected_version: int | None = None,
) -> pb.PreviewActionRequest:
    request = pb.PreviewActionRequest(
        game_id=game_id, action=build_action(option_id, compound, compound_key)
    )
    if expected_version is not None:
        request.expected_version = expected_version
    return request


def list_games_request(
    page_size: int, page_token: str, status: int, ruleset: int, has_open_seats: bool | None
) -> pb.ListGamesRequest:
    request = pb.ListGamesRequest(
        page_size=page_size, page_token=page_token, status=status,  # type: ignore[arg-type]
        ruleset=ruleset,  # type: ignore[arg-type]
    )
    if has_open_seats is not None:
        request.has_open_seats = has_open_seats
    return request


def _backoff(attempt: int) -> float:
    return min(2.0, 0.1 * 2**attempt)


def _auth(token: str | None, request_id: str | None = None) -> list[tuple[str, str]]:
    metadata = []
    if token:
        metadata.append(("authorization", f"Bearer {token}"))
    if request_id:
        metadata.append(("x-request-id", request_id))
    return metadata


class GameClient(CorrespondenceCalls):
    """A connection to one server. Thread-safe, as gRPC channels are."""

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        timeout: float = 30.0,
        retries: int = 2,
        channel: grpc.Channel | None = None,
        operator_token: str | None = None,
    ) -> None:
        """`operator_token`: the server's operator token, sent with CreateGame (free of
        the per-client creation quota), CreateGameFromPosition and RunBatch (which need it)."""
        self.target = target
        self.timeout = timeout
        self.retries = retries
        self.operator_token = operator_token
        self._channel = channel or grpc.insecure_channel(target)
        self._stub = pb_grpc.GameServiceStub(self._channel)

    def __enter__(self) -> GameClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def _call(
        self, method: str, request: Any, token: str | None = None, retry: bool = True
    ) -> Any:
        rpc = getattr(self._stub, method)
        attempt = 0
        while True:
            try:
                return rpc(request, timeout=self.timeout, metadata=_auth(token))
            except grpc.RpcError as error:
                if retry and error.code() in _TRANSIENT and attempt < self.retries:
                    attempt += 1
                    time.sleep(_backoff(attempt))
                    continue
                raise BrassError.from_rpc_error(error) from None

    # ----------------------------------------------------------------------- games

    def create_game(self, players: int, *, account_key: str | None = None,
                    account_seat: int | None = None, rated: bool = False,
                    **options: Any) -> pb.CreateGameResponse:
        """A new game; `options` as create_game_request's (ruleset, seats, bots, clock).
        With `account_key`, `account_seat` (or the first seat neither open nor a bot's) is
        bound to that account; `rated`: the game counts for its accounts' ratings."""
        request = create_game_request(players, **options)
        request.rated = rated
        if account_seat is not None:
            request.account_seat = account_seat
        return self._call("CreateGame", request, account_key or self.operator_token)

    def create_game_from_position(
        self, position: dict[str, Any] | str, *, seat_names: Sequence[str] = ()
    ) -> pb.CreateGameResponse:
        request = position_request(position, seat_names=seat_names)
        return self._call("CreateGameFromPosition", request, self.operator_token)

    def get_game(self, game_id: str, token: str | None = None) -> pb.GameState:
        return self._call("GetGame", pb.GetGameRequest(game_id=game_id), token).state

    def list_legal_actions(
        self, game_id: str, token: str, **flags: bool
    ) -> pb.ListLegalActionsResponse:
        """`flags`: include_compound_actions, include_unavailable."""
        return self._call("ListLegalActions", legal_actions_request(game_id, **flags), token)

    def submit_action(
        self, game_id: str, token: str, option_id: int | None = None, **kwargs: Any
    ) -> pb.SubmitActionResponse:
        """Applies an action; `kwargs` as submit_request's (compound, expected_version,
        idempotency_key, include_legal_actions, ...)."""
        return self._call("SubmitAction", submit_request(game_id, option_id, **kwargs), token)

    def undo_action(self, game_id: str, token: str, **kwargs: Any) -> pb.UndoActionResponse:
        """Takes back the caller's action in progress, else its previous action of this
        turn; `kwargs` as undo_request's (expected_version, idempotency_key, ...)."""
        return self._call("UndoAction", undo_request(game_id, **kwargs), token)

    def preview_action(
        self, game_id: str, token: str, option_id: int | None = None, **kwargs: Any
    ) -> pb.PreviewActionResponse:
        """`kwargs` as preview_request's (compound, compound_key, expected_version)."""
        return self._call("PreviewAction", preview_request(game_id, option_id, **kwargs),
                          token)

    def get_replay(self, game_id: str, token: str | None = None) -> tuple[bool, dict[str, Any]]:
        """(complete, record): the record is complete (with seed) once the game is over."""
        response = self._call("GetReplay", pb.GetReplayRequest(game_id=game_id), token)
        return response.complete, json.loads(response.record_json)

    def get_ruleset(self, ruleset: int = pb.RULESET_BIRMINGHAM) -> pb.RulesetDescription:
        """The ruleset's board, action space, reasons and options (for drawing)."""
        return self._call("GetRuleset", pb.GetRulesetRequest(ruleset=ruleset)).ruleset

    def list_games(
        self, *, page_size: int = 0, page_token: str = "", status: int = 0, ruleset: int = 0,
        has_open_seats: bool | None = None, account_id: str = "",
        account_key: str | None = None,
    ) -> pb.ListGamesResponse:
        """A page of the public games (unlisted ones are reachable by id only); with
        `account_id`, that account's (its unlisted ones too with its `account_key`)."""
        request = list_games_request(page_size, page_token, status, ruleset, has_open_seats)
        request.account_id = account_id
        return self._call("ListGames", request, account_key)

    def join_game(
        self, game_id: str, name: str = "", *, seat: int | None = None,
        account_key: str | None = None,
    ) -> pb.JoinGameResponse:
        """Takes `seat` (or the lowest open one) of a waiting game; the answer holds its
        token, which is shown only this once. Not retried: a lost answer would leave the
        seat taken by a token nobody has. With `account_key` the seat is the account's
        (and has its name)."""
        request = pb.JoinGameRequest(game_id=game_id, name=name, seat=seat)
        return self._call("JoinGame", request, account_key, retry=False)

    # --------------------------------------------------------------------- accounts

    def create_account(self, name: str, *, bot: bool = False) -> pb.CreateAccountResponse:
        """A new account; its key (the answer's `key`) is shown only this once. Not
        retried: a lost answer would leave an account whose key nobody has."""
        return self._call("CreateAccount", pb.CreateAccountRequest(name=name, bot=bot),
                          retry=False)

    def get_leaderboard(self, players: int, *, ruleset: int = 0, kind: int = 0,
                        page_size: int = 0, page_token: str = "") -> pb.GetLeaderboardResponse:
        return self._call("GetLeaderboard", pb.GetLeaderboardRequest(
            players=players, ruleset=ruleset, kind=kind,  # type: ignore[arg-type]
            page_size=page_size, page_token=page_token))

    def get_rating_history(self, account_id: str, *, page_size: int = 0,
                           page_token: str = "") -> pb.GetRatingHistoryResponse:
        return self._call("GetRatingHistory", pb.GetRatingHistoryRequest(
            account_id=account_id, page_size=page_size, page_token=page_token))

    def get_account(self, account_id: str, key: str | None = None) -> pb.Account:
        """An account's public facts; `account_id` "me" with `key`: the key's account."""
        return self._call("GetAccount", pb.GetAccountRequest(account_id=account_id),
                          key).account

    def rotate_account_key(self, account_id: str, key: str) -> str:
        """The account's new key (the old one is void from then on)."""
        return self._call("RotateAccountKey",  # type: ignore[no-any-return]
                          pb.RotateAccountKeyRequest(account_id=account_id), key,
                          retry=False).key

    def revoke_account_key(self, account_id: str, key: str) -> pb.Account:
        return self._call("RevokeAccountKey",
                          pb.RevokeAccountKeyRequest(account_id=account_id), key).account

    def leave_game(self, game_id: str, token: str) -> pb.LeaveGameResponse:
        return self._call("LeaveGame", pb.LeaveGameRequest(game_id=game_id), token)

    def start_game(self, game_id: str, host_token: str) -> pb.StartGameResponse:
        return self._call("StartGame", pb.StartGameRequest(game_id=game_id), host_token)

    def reissue_seat_token(
        self, game_id: str, seat: int, host_token: str
    ) -> pb.ReissueSeatTokenResponse:
        """A new token for a taken seat (the old one is refused from then on); not
        retried, as a lost answer would leave the seat with a token nobody has."""
        request = pb.ReissueSeatTokenRequest(game_id=game_id, seat=seat)
        return self._call("ReissueSeatToken", request, host_token, retry=False)

    def rematch(self, game_id: str, token: str) -> pb.RematchResponse:
        """After the end: proposes a rematch or accepts it; the response's token is the
        seat's in the new game. Not retried: should the answer that started the new game be
        lost, a retry is refused (REMATCH_STARTED)."""
        return self._call("Rematch", pb.RematchRequest(game_id=game_id), token, retry=False)

    def resign_game(self, game_id: str, token: str) -> pb.ResignGameResponse:
        """Resigns the token's seat; not retried (a second one is refused: SEAT_RESIGNED)."""
        return self._call("ResignGame", pb.ResignGameRequest(game_id=game_id), token,
                          retry=False)

    def revoke_seat_token(
        self, game_id: str, seat: int, host_token: str, *, ban: bool = False
    ) -> pb.RevokeSeatTokenResponse:
        """Revokes the seat's token (the host token); `ban` also bars its holder (the
        address it joined from, its name) from joining the game again."""
        request = pb.RevokeSeatTokenRequest(game_id=game_id, seat=seat, ban=ban)
        return self._call("RevokeSeatToken", request, host_token, retry=False)

    def set_seat_bot(
        self, game_id: str, seat: int, bot: str, host_token: str
    ) -> pb.SetSeatBotResponse:
        request = pb.SetSeatBotRequest(game_id=game_id, seat=seat, bot=bot)
        return self._call("SetSeatBot", request, host_token, retry=False)

    def iter_games(self, *, page_size: int = 100, status: int = 0) -> Iterator[pb.GameSummary]:
        token = ""
        while True:
            page = self.list_games(page_size=page_size, page_token=token, status=status)
            yield from page.games
            token = page.next_page_token
            if not token:
                return

    def watch_game(
        self, game_id: str, token: str | None = None, *, from_version: int = 0
    ) -> Iterator[pb.WatchGameResponse]:
        """Updates after `from_version`, then live ones; ends when the game is over.

        Reconnects by itself after a transient failure, resuming from the last version
        received, so nothing is missed and nothing is repeated.
        """
        last = from_version
        attempt = 0
        while True:
            call = self._stub.WatchGame(
                pb.WatchGameRequest(game_id=game_id, from_version=last), metadata=_auth(token)
            )
            try:
                for update in call:
                    attempt = 0
                    last = update.version
                    yield update
                return
            except grpc.RpcError as error:
                if error.code() in _TRANSIENT and attempt < self.retries:
                    attempt += 1
                    time.sleep(_backoff(attempt))
                    continue
                raise BrassError.from_rpc_error(error) from None
            finally:
                call.cancel()

    def run_batch(
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
    ) -> Iterator[pb.RunBatchResponse]:
        """Plays `games` bot games on the server; yields each result as it finishes.
        `ruleset` "birmingham" or "pittsburgh", `ruleset_options` its own options by name.

        Not retried: the batch is reproducible from its seed (every result carries
        `batch_seed`), so a failed batch can be run again. Leaving the loop early (or
        closing the iterator) cancels the rest of the batch on the server.
        """
        request = build_batch_request(
            players, bots, games, seed=seed, include_decisions=include_decisions,
            beginner=beginner, manufacturer_iv_cost=manufacturer_iv_cost,
            auto_resolve=auto_resolve, ruleset=ruleset, ruleset_options=ruleset_options,
        )
        yield from self._server_stream("RunBatch", request, self.operator_token, timeout)

    def _server_stream(self, method: str, request: Any, token: str | None,
                       timeout: float | None = None) -> Iterator[Any]:
        """The messages of a server-streaming call (not retried); leaving the loop early
        cancels the call."""
        call = getattr(self._stub, method)(request, timeout=timeout, metadata=_auth(token))
        try:
            yield from call
        except grpc.RpcError as error:
            raise BrassError.from_rpc_error(error) from None
        finally:
            call.cancel()

    def seat(self, game_id: str, token: str) -> SeatClient:
        return SeatClient(self, game_id, token)


@dataclass
class SeatClient:
    """One seat of one game: the calls a player makes, with its token filled in."""

    client: GameClient
    game_id: str
    token: str

    def state(self) -> pb.GameState:
        return self.client.get_game(self.game_id, self.token)

    def view(self) -> dict[str, Any]:
        return view_dict(self.state())

    def legal_actions(
        self, *, include_compound_actions: bool = False
    ) -> pb.ListLegalActionsResponse:
        return self.client.list_legal_actions(
            self.game_id, self.token, include_compound_actions=include_compound_actions
        )

    def submit(self, option_id: int | None = None, **kwargs: Any) -> pb.SubmitActionResponse:
        return self.client.submit_action(self.game_id, self.token, option_id, **kwargs)

    def preview(self, option_id: int | None = None, **kwargs: Any) -> pb.PreviewActionResponse:
        return self.client.preview_action(self.game_id, self.token, option_id, **kwargs)

    def watch(self, *, from_version: int = 0) -> Iterator[pb.WatchGameResponse]:
        return self.client.watch_game(self.game_id, self.token, from_version=from_version)
