import datetime

from . import birmingham_pb2 as _birmingham_pb2
from . import pittsburgh_pb2 as _pittsburgh_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Ruleset(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RULESET_UNSPECIFIED: _ClassVar[Ruleset]
    RULESET_BIRMINGHAM: _ClassVar[Ruleset]
    RULESET_PITTSBURGH: _ClassVar[Ruleset]

class GameStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATUS_UNSPECIFIED: _ClassVar[GameStatus]
    GAME_STATUS_IN_PROGRESS: _ClassVar[GameStatus]
    GAME_STATUS_FINISHED: _ClassVar[GameStatus]
    GAME_STATUS_WAITING: _ClassVar[GameStatus]

class Visibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VISIBILITY_UNSPECIFIED: _ClassVar[Visibility]
    VISIBILITY_PUBLIC: _ClassVar[Visibility]
    VISIBILITY_UNLISTED: _ClassVar[Visibility]

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_GAME: _ClassVar[ErrorReason]
    ERROR_REASON_UNAUTHENTICATED: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_YOUR_TURN: _ClassVar[ErrorReason]
    ERROR_REASON_ILLEGAL_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_STALE_VERSION: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_OVER: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_ARGUMENT: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_BAD_POSITION: _ClassVar[ErrorReason]
    ERROR_REASON_IDEMPOTENCY_KEY_REUSED: _ClassVar[ErrorReason]
    ERROR_REASON_RATE_LIMITED: _ClassVar[ErrorReason]
    ERROR_REASON_MESSAGE_TOO_LARGE: _ClassVar[ErrorReason]
    ERROR_REASON_BAD_PAGE_TOKEN: _ClassVar[ErrorReason]
    ERROR_REASON_CORRUPT_GAME: _ClassVar[ErrorReason]
    ERROR_REASON_INTERNAL: _ClassVar[ErrorReason]
    ERROR_REASON_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_ROUTE: _ClassVar[ErrorReason]
    ERROR_REASON_METHOD_NOT_ALLOWED: _ClassVar[ErrorReason]
    ERROR_REASON_OPERATOR_ONLY: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_RULESET: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_NOT_STARTED: _ClassVar[ErrorReason]
    ERROR_REASON_SEAT_TAKEN: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_FULL: _ClassVar[ErrorReason]
    ERROR_REASON_SEATS_OPEN: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_STARTED: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_HOST: _ClassVar[ErrorReason]
    ERROR_REASON_SEAT_RESIGNED: _ClassVar[ErrorReason]
    ERROR_REASON_BOT_SEAT: _ClassVar[ErrorReason]
    ERROR_REASON_TURN_TIMED_OUT: _ClassVar[ErrorReason]
    ERROR_REASON_NOTHING_TO_UNDO: _ClassVar[ErrorReason]
    ERROR_REASON_UNDO_DISABLED: _ClassVar[ErrorReason]
    ERROR_REASON_UNDO_BARRIER: _ClassVar[ErrorReason]
    ERROR_REASON_UNDO_LIMIT: _ClassVar[ErrorReason]
    ERROR_REASON_SEAT_TOKEN_REVOKED: _ClassVar[ErrorReason]
    ERROR_REASON_WATCH_IDLE: _ClassVar[ErrorReason]
    ERROR_REASON_BANNED: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_SEATED: _ClassVar[ErrorReason]
    ERROR_REASON_NAME_TAKEN: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_ACCOUNT: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_YOUR_ACCOUNT: _ClassVar[ErrorReason]
    ERROR_REASON_SPECTATOR_DELAY: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_NOT_OVER: _ClassVar[ErrorReason]
    ERROR_REASON_REMATCH_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_REMATCH_STARTED: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_CHALLENGE: _ClassVar[ErrorReason]
    ERROR_REASON_CHALLENGE_CLOSED: _ClassVar[ErrorReason]
    ERROR_REASON_WEBHOOK_TARGET_REFUSED: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_WEBHOOK: _ClassVar[ErrorReason]
    ERROR_REASON_WEBHOOK_LIMIT: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_ARENA: _ClassVar[ErrorReason]

class ResignPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESIGN_POLICY_UNSPECIFIED: _ClassVar[ResignPolicy]
    RESIGN_POLICY_BOT_TAKES_OVER: _ClassVar[ResignPolicy]
    RESIGN_POLICY_GAME_ENDS: _ClassVar[ResignPolicy]

class TimeoutPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIMEOUT_POLICY_UNSPECIFIED: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_BOT_PLAYS_TURN: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_FORFEIT: _ClassVar[TimeoutPolicy]

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    END_REASON_UNSPECIFIED: _ClassVar[EndReason]
    END_REASON_SCORED: _ClassVar[EndReason]
    END_REASON_RESIGNED: _ClassVar[EndReason]
    END_REASON_FORFEITED: _ClassVar[EndReason]

class AccountKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACCOUNT_KIND_UNSPECIFIED: _ClassVar[AccountKind]
    ACCOUNT_KIND_PEOPLE: _ClassVar[AccountKind]
    ACCOUNT_KIND_BOTS: _ClassVar[AccountKind]

class ChallengeStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHALLENGE_STATUS_UNSPECIFIED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_OPEN: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_ACCEPTED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_DECLINED: _ClassVar[ChallengeStatus]

class WebhookDeliveryState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WEBHOOK_DELIVERY_STATE_UNSPECIFIED: _ClassVar[WebhookDeliveryState]
    WEBHOOK_DELIVERY_STATE_PENDING: _ClassVar[WebhookDeliveryState]
    WEBHOOK_DELIVERY_STATE_DEAD: _ClassVar[WebhookDeliveryState]

class ArenaFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ARENA_FORMAT_UNSPECIFIED: _ClassVar[ArenaFormat]
    ARENA_FORMAT_ROUND_ROBIN: _ClassVar[ArenaFormat]
    ARENA_FORMAT_SWISS: _ClassVar[ArenaFormat]

class ArenaStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ARENA_STATUS_UNSPECIFIED: _ClassVar[ArenaStatus]
    ARENA_STATUS_RUNNING: _ClassVar[ArenaStatus]
    ARENA_STATUS_FINISHED: _ClassVar[ArenaStatus]
RULESET_UNSPECIFIED: Ruleset
RULESET_BIRMINGHAM: Ruleset
RULESET_PITTSBURGH: Ruleset
GAME_STATUS_UNSPECIFIED: GameStatus
GAME_STATUS_IN_PROGRESS: GameStatus
GAME_STATUS_FINISHED: GameStatus
GAME_STATUS_WAITING: GameStatus
VISIBILITY_UNSPECIFIED: Visibility
VISIBILITY_PUBLIC: Visibility
VISIBILITY_UNLISTED: Visibility
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_UNKNOWN_GAME: ErrorReason
ERROR_REASON_UNAUTHENTICATED: ErrorReason
ERROR_REASON_NOT_YOUR_TURN: ErrorReason
ERROR_REASON_ILLEGAL_ACTION: ErrorReason
ERROR_REASON_STALE_VERSION: ErrorReason
ERROR_REASON_GAME_OVER: ErrorReason
ERROR_REASON_INVALID_ARGUMENT: ErrorReason
ERROR_REASON_UNKNOWN_ACTION: ErrorReason
ERROR_REASON_BAD_POSITION: ErrorReason
ERROR_REASON_IDEMPOTENCY_KEY_REUSED: ErrorReason
ERROR_REASON_RATE_LIMITED: ErrorReason
ERROR_REASON_MESSAGE_TOO_LARGE: ErrorReason
ERROR_REASON_BAD_PAGE_TOKEN: ErrorReason
ERROR_REASON_CORRUPT_GAME: ErrorReason
ERROR_REASON_INTERNAL: ErrorReason
ERROR_REASON_UNAVAILABLE: ErrorReason
ERROR_REASON_UNKNOWN_ROUTE: ErrorReason
ERROR_REASON_METHOD_NOT_ALLOWED: ErrorReason
ERROR_REASON_OPERATOR_ONLY: ErrorReason
ERROR_REASON_UNKNOWN_RULESET: ErrorReason
ERROR_REASON_GAME_NOT_STARTED: ErrorReason
ERROR_REASON_SEAT_TAKEN: ErrorReason
ERROR_REASON_GAME_FULL: ErrorReason
ERROR_REASON_SEATS_OPEN: ErrorReason
ERROR_REASON_GAME_STARTED: ErrorReason
ERROR_REASON_NOT_HOST: ErrorReason
ERROR_REASON_SEAT_RESIGNED: ErrorReason
ERROR_REASON_BOT_SEAT: ErrorReason
ERROR_REASON_TURN_TIMED_OUT: ErrorReason
ERROR_REASON_NOTHING_TO_UNDO: ErrorReason
ERROR_REASON_UNDO_DISABLED: ErrorReason
ERROR_REASON_UNDO_BARRIER: ErrorReason
ERROR_REASON_UNDO_LIMIT: ErrorReason
ERROR_REASON_SEAT_TOKEN_REVOKED: ErrorReason
ERROR_REASON_WATCH_IDLE: ErrorReason
ERROR_REASON_BANNED: ErrorReason
ERROR_REASON_ALREADY_SEATED: ErrorReason
ERROR_REASON_NAME_TAKEN: ErrorReason
ERROR_REASON_UNKNOWN_ACCOUNT: ErrorReason
ERROR_REASON_NOT_YOUR_ACCOUNT: ErrorReason
ERROR_REASON_SPECTATOR_DELAY: ErrorReason
ERROR_REASON_GAME_NOT_OVER: ErrorReason
ERROR_REASON_REMATCH_UNAVAILABLE: ErrorReason
ERROR_REASON_REMATCH_STARTED: ErrorReason
ERROR_REASON_UNKNOWN_CHALLENGE: ErrorReason
ERROR_REASON_CHALLENGE_CLOSED: ErrorReason
ERROR_REASON_WEBHOOK_TARGET_REFUSED: ErrorReason
ERROR_REASON_UNKNOWN_WEBHOOK: ErrorReason
ERROR_REASON_WEBHOOK_LIMIT: ErrorReason
ERROR_REASON_UNKNOWN_ARENA: ErrorReason
RESIGN_POLICY_UNSPECIFIED: ResignPolicy
RESIGN_POLICY_BOT_TAKES_OVER: ResignPolicy
RESIGN_POLICY_GAME_ENDS: ResignPolicy
TIMEOUT_POLICY_UNSPECIFIED: TimeoutPolicy
TIMEOUT_POLICY_BOT_PLAYS_TURN: TimeoutPolicy
TIMEOUT_POLICY_FORFEIT: TimeoutPolicy
END_REASON_UNSPECIFIED: EndReason
END_REASON_SCORED: EndReason
END_REASON_RESIGNED: EndReason
END_REASON_FORFEITED: EndReason
ACCOUNT_KIND_UNSPECIFIED: AccountKind
ACCOUNT_KIND_PEOPLE: AccountKind
ACCOUNT_KIND_BOTS: AccountKind
CHALLENGE_STATUS_UNSPECIFIED: ChallengeStatus
CHALLENGE_STATUS_OPEN: ChallengeStatus
CHALLENGE_STATUS_ACCEPTED: ChallengeStatus
CHALLENGE_STATUS_DECLINED: ChallengeStatus
WEBHOOK_DELIVERY_STATE_UNSPECIFIED: WebhookDeliveryState
WEBHOOK_DELIVERY_STATE_PENDING: WebhookDeliveryState
WEBHOOK_DELIVERY_STATE_DEAD: WebhookDeliveryState
ARENA_FORMAT_UNSPECIFIED: ArenaFormat
ARENA_FORMAT_ROUND_ROBIN: ArenaFormat
ARENA_FORMAT_SWISS: ArenaFormat
ARENA_STATUS_UNSPECIFIED: ArenaStatus
ARENA_STATUS_RUNNING: ArenaStatus
ARENA_STATUS_FINISHED: ArenaStatus

class ClockOptions(_message.Message):
    __slots__ = ("initial_ms", "increment_ms", "turn_ms")
    INITIAL_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    TURN_MS_FIELD_NUMBER: _ClassVar[int]
    initial_ms: int
    increment_ms: int
    turn_ms: int
    def __init__(self, initial_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ..., turn_ms: _Optional[int] = ...) -> None: ...

class ClockState(_message.Message):
    __slots__ = ("options", "remaining_ms", "turn_seat", "turn_start", "turn_deadline")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_START_FIELD_NUMBER: _ClassVar[int]
    TURN_DEADLINE_FIELD_NUMBER: _ClassVar[int]
    options: ClockOptions
    remaining_ms: _containers.RepeatedScalarFieldContainer[int]
    turn_seat: int
    turn_start: _timestamp_pb2.Timestamp
    turn_deadline: _timestamp_pb2.Timestamp
    def __init__(self, options: _Optional[_Union[ClockOptions, _Mapping]] = ..., remaining_ms: _Optional[_Iterable[int]] = ..., turn_seat: _Optional[int] = ..., turn_start: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., turn_deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class BotSeat(_message.Message):
    __slots__ = ("seat", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class LobbyEvent(_message.Message):
    __slots__ = ("kind", "seat", "name", "bot", "time")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    name: str
    bot: str
    time: _timestamp_pb2.Timestamp
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., name: _Optional[str] = ..., bot: _Optional[str] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GameOptions(_message.Message):
    __slots__ = ("beginner", "manufacturer_iv_cost", "auto_resolve", "ruleset_options", "clock", "on_resign", "on_timeout", "stand_in_bot", "undo", "spectator_delay_turns")
    class RulesetOptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _struct_pb2.Value
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...
    BEGINNER_FIELD_NUMBER: _ClassVar[int]
    MANUFACTURER_IV_COST_FIELD_NUMBER: _ClassVar[int]
    AUTO_RESOLVE_FIELD_NUMBER: _ClassVar[int]
    RULESET_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    ON_RESIGN_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    STAND_IN_BOT_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_TURNS_FIELD_NUMBER: _ClassVar[int]
    beginner: bool
    manufacturer_iv_cost: int
    auto_resolve: bool
    ruleset_options: _containers.MessageMap[str, _struct_pb2.Value]
    clock: ClockOptions
    on_resign: ResignPolicy
    on_timeout: TimeoutPolicy
    stand_in_bot: str
    undo: bool
    spectator_delay_turns: int
    def __init__(self, beginner: _Optional[bool] = ..., manufacturer_iv_cost: _Optional[int] = ..., auto_resolve: _Optional[bool] = ..., ruleset_options: _Optional[_Mapping[str, _struct_pb2.Value]] = ..., clock: _Optional[_Union[ClockOptions, _Mapping]] = ..., on_resign: _Optional[_Union[ResignPolicy, str]] = ..., on_timeout: _Optional[_Union[TimeoutPolicy, str]] = ..., stand_in_bot: _Optional[str] = ..., undo: _Optional[bool] = ..., spectator_delay_turns: _Optional[int] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "name", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    token: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "name", "open", "bot", "resigned", "vacant", "account_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    VACANT_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    open: bool
    bot: str
    resigned: bool
    vacant: bool
    account_id: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., open: _Optional[bool] = ..., bot: _Optional[str] = ..., resigned: _Optional[bool] = ..., vacant: _Optional[bool] = ..., account_id: _Optional[str] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "ruleset", "seats", "version", "status", "current_seat", "decision", "create_time", "update_time", "from_position", "visibility", "open_seats", "clock", "end_reason", "host_policy", "rated", "rating_changes", "rematch", "rematch_of")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    FROM_POSITION_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    HOST_POLICY_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    RATING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    REMATCH_FIELD_NUMBER: _ClassVar[int]
    REMATCH_OF_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    ruleset: Ruleset
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    version: int
    status: GameStatus
    current_seat: int
    decision: str
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    from_position: bool
    visibility: Visibility
    open_seats: int
    clock: ClockState
    end_reason: EndReason
    host_policy: HostPolicy
    rated: bool
    rating_changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    rematch: RematchState
    rematch_of: str
    def __init__(self, game_id: _Optional[str] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., version: _Optional[int] = ..., status: _Optional[_Union[GameStatus, str]] = ..., current_seat: _Optional[int] = ..., decision: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., from_position: _Optional[bool] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., open_seats: _Optional[int] = ..., clock: _Optional[_Union[ClockState, _Mapping]] = ..., end_reason: _Optional[_Union[EndReason, str]] = ..., host_policy: _Optional[_Union[HostPolicy, _Mapping]] = ..., rated: _Optional[bool] = ..., rating_changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ..., rematch: _Optional[_Union[RematchState, _Mapping]] = ..., rematch_of: _Optional[str] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("seat", "account_id", "rating_before", "rating_after", "rank", "games", "provisional")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    RATING_BEFORE_FIELD_NUMBER: _ClassVar[int]
    RATING_AFTER_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    account_id: str
    rating_before: float
    rating_after: float
    rank: int
    games: int
    provisional: bool
    def __init__(self, seat: _Optional[int] = ..., account_id: _Optional[str] = ..., rating_before: _Optional[float] = ..., rating_after: _Optional[float] = ..., rank: _Optional[int] = ..., games: _Optional[int] = ..., provisional: _Optional[bool] = ...) -> None: ...

class HostPolicy(_message.Message):
    __slots__ = ("on_resign", "on_timeout", "stand_in_bot", "spectator_delay_turns")
    ON_RESIGN_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    STAND_IN_BOT_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_TURNS_FIELD_NUMBER: _ClassVar[int]
    on_resign: ResignPolicy
    on_timeout: TimeoutPolicy
    stand_in_bot: str
    spectator_delay_turns: int
    def __init__(self, on_resign: _Optional[_Union[ResignPolicy, str]] = ..., on_timeout: _Optional[_Union[TimeoutPolicy, str]] = ..., stand_in_bot: _Optional[str] = ..., spectator_delay_turns: _Optional[int] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("summary", "viewer_seat", "scores", "winners", "birmingham", "pittsburgh")
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    BIRMINGHAM_FIELD_NUMBER: _ClassVar[int]
    PITTSBURGH_FIELD_NUMBER: _ClassVar[int]
    summary: GameSummary
    viewer_seat: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    birmingham: _birmingham_pb2.BirminghamView
    pittsburgh: _pittsburgh_pb2.PittsburghView
    def __init__(self, summary: _Optional[_Union[GameSummary, _Mapping]] = ..., viewer_seat: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., birmingham: _Optional[_Union[_birmingham_pb2.BirminghamView, _Mapping]] = ..., pittsburgh: _Optional[_Union[_pittsburgh_pb2.PittsburghView, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("version", "seat", "lobby", "birmingham", "pittsburgh")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LOBBY_FIELD_NUMBER: _ClassVar[int]
    BIRMINGHAM_FIELD_NUMBER: _ClassVar[int]
    PITTSBURGH_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    lobby: LobbyEvent
    birmingham: _birmingham_pb2.BirminghamEvent
    pittsburgh: _pittsburgh_pb2.PittsburghEvent
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., lobby: _Optional[_Union[LobbyEvent, _Mapping]] = ..., birmingham: _Optional[_Union[_birmingham_pb2.BirminghamEvent, _Mapping]] = ..., pittsburgh: _Optional[_Union[_pittsburgh_pb2.PittsburghEvent, _Mapping]] = ...) -> None: ...

class LegalOption(_message.Message):
    __slots__ = ("id", "kind", "name", "birmingham", "pittsburgh")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BIRMINGHAM_FIELD_NUMBER: _ClassVar[int]
    PITTSBURGH_FIELD_NUMBER: _ClassVar[int]
    id: int
    kind: str
    name: str
    birmingham: _birmingham_pb2.BirminghamMeaning
    pittsburgh: _pittsburgh_pb2.PittsburghOptionMeaning
    def __init__(self, id: _Optional[int] = ..., kind: _Optional[str] = ..., name: _Optional[str] = ..., birmingham: _Optional[_Union[_birmingham_pb2.BirminghamMeaning, _Mapping]] = ..., pittsburgh: _Optional[_Union[_pittsburgh_pb2.PittsburghOptionMeaning, _Mapping]] = ...) -> None: ...

class UnavailableOption(_message.Message):
    __slots__ = ("id", "reason", "message", "birmingham_reason", "pittsburgh_reason")
    ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    BIRMINGHAM_REASON_FIELD_NUMBER: _ClassVar[int]
    PITTSBURGH_REASON_FIELD_NUMBER: _ClassVar[int]
    id: int
    reason: str
    message: str
    birmingham_reason: _birmingham_pb2.BirminghamReason.Code
    pittsburgh_reason: _pittsburgh_pb2.PittsburghReason.Code
    def __init__(self, id: _Optional[int] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ..., birmingham_reason: _Optional[_Union[_birmingham_pb2.BirminghamReason.Code, str]] = ..., pittsburgh_reason: _Optional[_Union[_pittsburgh_pb2.PittsburghReason.Code, str]] = ...) -> None: ...

class CompoundAction(_message.Message):
    __slots__ = ("key", "ids")
    KEY_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    key: str
    ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, key: _Optional[str] = ..., ids: _Optional[_Iterable[int]] = ...) -> None: ...

class ActionIds(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ids: _Optional[_Iterable[int]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("option_id", "compound", "compound_key")
    OPTION_ID_FIELD_NUMBER: _ClassVar[int]
    COMPOUND_FIELD_NUMBER: _ClassVar[int]
    COMPOUND_KEY_FIELD_NUMBER: _ClassVar[int]
    option_id: int
    compound: ActionIds
    compound_key: str
    def __init__(self, option_id: _Optional[int] = ..., compound: _Optional[_Union[ActionIds, _Mapping]] = ..., compound_key: _Optional[str] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("ruleset", "players", "seed", "options", "seat_names", "open_seats", "visibility", "bot_seats", "account_seat", "rated")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_SEAT_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    ruleset: Ruleset
    players: int
    seed: int
    options: GameOptions
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    open_seats: _containers.RepeatedScalarFieldContainer[int]
    visibility: Visibility
    bot_seats: _containers.RepeatedCompositeFieldContainer[BotSeat]
    account_seat: int
    rated: bool
    def __init__(self, ruleset: _Optional[_Union[Ruleset, str]] = ..., players: _Optional[int] = ..., seed: _Optional[int] = ..., options: _Optional[_Union[GameOptions, _Mapping]] = ..., seat_names: _Optional[_Iterable[str]] = ..., open_seats: _Optional[_Iterable[int]] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., bot_seats: _Optional[_Iterable[_Union[BotSeat, _Mapping]]] = ..., account_seat: _Optional[int] = ..., rated: _Optional[bool] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game_id", "seats", "state", "host_token")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatToken]
    state: GameState
    host_token: str
    def __init__(self, game_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., state: _Optional[_Union[GameState, _Mapping]] = ..., host_token: _Optional[str] = ...) -> None: ...

class CreateGameFromPositionRequest(_message.Message):
    __slots__ = ("ruleset", "position_json", "seat_names")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    ruleset: Ruleset
    position_json: str
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ruleset: _Optional[_Union[Ruleset, str]] = ..., position_json: _Optional[str] = ..., seat_names: _Optional[_Iterable[str]] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("game_id", "at_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AT_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    at_version: int
    def __init__(self, game_id: _Optional[str] = ..., at_version: _Optional[int] = ...) -> None: ...

class GetGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("game_id", "include_compound_actions", "include_unavailable", "after_ids")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_COMPOUND_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    AFTER_IDS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    include_compound_actions: bool
    include_unavailable: bool
    after_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game_id: _Optional[str] = ..., include_compound_actions: _Optional[bool] = ..., include_unavailable: _Optional[bool] = ..., after_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("game_id", "version", "seat", "decision", "options", "unavailable", "compound_actions", "compound_actions_truncated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    COMPOUND_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    COMPOUND_ACTIONS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    version: int
    seat: int
    decision: str
    options: _containers.RepeatedCompositeFieldContainer[LegalOption]
    unavailable: _containers.RepeatedCompositeFieldContainer[UnavailableOption]
    compound_actions: _containers.RepeatedCompositeFieldContainer[CompoundAction]
    compound_actions_truncated: bool
    def __init__(self, game_id: _Optional[str] = ..., version: _Optional[int] = ..., seat: _Optional[int] = ..., decision: _Optional[str] = ..., options: _Optional[_Iterable[_Union[LegalOption, _Mapping]]] = ..., unavailable: _Optional[_Iterable[_Union[UnavailableOption, _Mapping]]] = ..., compound_actions: _Optional[_Iterable[_Union[CompoundAction, _Mapping]]] = ..., compound_actions_truncated: _Optional[bool] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("game_id", "action", "expected_version", "idempotency_key", "include_legal_actions", "include_compound_actions")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_COMPOUND_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    action: Action
    expected_version: int
    idempotency_key: str
    include_legal_actions: bool
    include_compound_actions: bool
    def __init__(self, game_id: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., expected_version: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., include_legal_actions: _Optional[bool] = ..., include_compound_actions: _Optional[bool] = ...) -> None: ...

class UndoActionRequest(_message.Message):
    __slots__ = ("game_id", "expected_version", "include_legal_actions", "include_compound_actions", "idempotency_key")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_COMPOUND_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    expected_version: int
    include_legal_actions: bool
    include_compound_actions: bool
    idempotency_key: str
    def __init__(self, game_id: _Optional[str] = ..., expected_version: _Optional[int] = ..., include_legal_actions: _Optional[bool] = ..., include_compound_actions: _Optional[bool] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class UndoActionResponse(_message.Message):
    __slots__ = ("state", "events", "replayed", "next_actions")
    STATE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    NEXT_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    replayed: bool
    next_actions: ListLegalActionsResponse
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., replayed: _Optional[bool] = ..., next_actions: _Optional[_Union[ListLegalActionsResponse, _Mapping]] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("state", "events", "replayed", "next_actions")
    STATE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    NEXT_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    replayed: bool
    next_actions: ListLegalActionsResponse
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., replayed: _Optional[bool] = ..., next_actions: _Optional[_Union[ListLegalActionsResponse, _Mapping]] = ...) -> None: ...

class PreviewActionRequest(_message.Message):
    __slots__ = ("game_id", "action", "expected_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    action: Action
    expected_version: int
    def __init__(self, game_id: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class PreviewActionResponse(_message.Message):
    __slots__ = ("events", "version", "birmingham_cost", "pittsburgh_cost", "birmingham", "pittsburgh")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    BIRMINGHAM_COST_FIELD_NUMBER: _ClassVar[int]
    PITTSBURGH_COST_FIELD_NUMBER: _ClassVar[int]
    BIRMINGHAM_FIELD_NUMBER: _ClassVar[int]
    PITTSBURGH_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    version: int
    birmingham_cost: _birmingham_pb2.BirminghamCost
    pittsburgh_cost: _pittsburgh_pb2.PittsburghPreviewCost
    birmingham: _birmingham_pb2.BirminghamView
    pittsburgh: _pittsburgh_pb2.PittsburghView
    def __init__(self, events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., version: _Optional[int] = ..., birmingham_cost: _Optional[_Union[_birmingham_pb2.BirminghamCost, _Mapping]] = ..., pittsburgh_cost: _Optional[_Union[_pittsburgh_pb2.PittsburghPreviewCost, _Mapping]] = ..., birmingham: _Optional[_Union[_birmingham_pb2.BirminghamView, _Mapping]] = ..., pittsburgh: _Optional[_Union[_pittsburgh_pb2.PittsburghView, _Mapping]] = ...) -> None: ...

class WatchGameRequest(_message.Message):
    __slots__ = ("game_id", "from_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_version: int
    def __init__(self, game_id: _Optional[str] = ..., from_version: _Optional[int] = ...) -> None: ...

class WatchGameResponse(_message.Message):
    __slots__ = ("version", "events", "state")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    version: int
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    state: GameState
    def __init__(self, version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("complete", "record_json", "version", "decisions")
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    complete: bool
    record_json: str
    version: int
    decisions: _containers.RepeatedCompositeFieldContainer[ReplayDecision]
    def __init__(self, complete: _Optional[bool] = ..., record_json: _Optional[str] = ..., version: _Optional[int] = ..., decisions: _Optional[_Iterable[_Union[ReplayDecision, _Mapping]]] = ...) -> None: ...

class ReplayDecision(_message.Message):
    __slots__ = ("version", "seat", "decision", "option_id", "name", "undo", "undone")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    OPTION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    UNDONE_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    decision: str
    option_id: int
    name: str
    undo: bool
    undone: int
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., decision: _Optional[str] = ..., option_id: _Optional[int] = ..., name: _Optional[str] = ..., undo: _Optional[bool] = ..., undone: _Optional[int] = ...) -> None: ...

class GetRulesetRequest(_message.Message):
    __slots__ = ("ruleset",)
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ruleset: Ruleset
    def __init__(self, ruleset: _Optional[_Union[Ruleset, str]] = ...) -> None: ...

class GetRulesetResponse(_message.Message):
    __slots__ = ("ruleset",)
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ruleset: RulesetDescription
    def __init__(self, ruleset: _Optional[_Union[RulesetDescription, _Mapping]] = ...) -> None: ...

class RulesetDescription(_message.Message):
    __slots__ = ("ruleset", "name", "title", "rules_edition", "min_players", "max_players", "provisional", "placeholders", "options", "decision_kinds", "actions", "reasons", "board", "labels")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: RulesetLabels
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[RulesetLabels, _Mapping]] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULES_EDITION_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    PLACEHOLDERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DECISION_KINDS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    ruleset: Ruleset
    name: str
    title: str
    rules_edition: int
    min_players: int
    max_players: int
    provisional: bool
    placeholders: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    decision_kinds: _containers.RepeatedScalarFieldContainer[str]
    actions: _containers.RepeatedCompositeFieldContainer[ActionInfo]
    reasons: _containers.RepeatedCompositeFieldContainer[ReasonInfo]
    board: Board
    labels: _containers.MessageMap[str, RulesetLabels]
    def __init__(self, ruleset: _Optional[_Union[Ruleset, str]] = ..., name: _Optional[str] = ..., title: _Optional[str] = ..., rules_edition: _Optional[int] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., provisional: _Optional[bool] = ..., placeholders: _Optional[_Iterable[str]] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ..., decision_kinds: _Optional[_Iterable[str]] = ..., actions: _Optional[_Iterable[_Union[ActionInfo, _Mapping]]] = ..., reasons: _Optional[_Iterable[_Union[ReasonInfo, _Mapping]]] = ..., board: _Optional[_Union[Board, _Mapping]] = ..., labels: _Optional[_Mapping[str, RulesetLabels]] = ...) -> None: ...

class RulesetLabels(_message.Message):
    __slots__ = ("decision_kinds", "option_kinds", "action_types", "industries", "reasons", "locations", "events", "cards", "options", "option_titles", "option_values", "tiles")
    class DecisionKindsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class OptionKindsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class ActionTypesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class IndustriesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class ReasonsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class LocationsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class EventsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class CardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class OptionTitlesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class OptionValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class TilesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    DECISION_KINDS_FIELD_NUMBER: _ClassVar[int]
    OPTION_KINDS_FIELD_NUMBER: _ClassVar[int]
    ACTION_TYPES_FIELD_NUMBER: _ClassVar[int]
    INDUSTRIES_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    OPTION_TITLES_FIELD_NUMBER: _ClassVar[int]
    OPTION_VALUES_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    decision_kinds: _containers.ScalarMap[str, str]
    option_kinds: _containers.ScalarMap[str, str]
    action_types: _containers.ScalarMap[str, str]
    industries: _containers.ScalarMap[str, str]
    reasons: _containers.ScalarMap[str, str]
    locations: _containers.ScalarMap[str, str]
    events: _containers.ScalarMap[str, str]
    cards: _containers.ScalarMap[str, str]
    options: _containers.ScalarMap[str, str]
    option_titles: _containers.ScalarMap[str, str]
    option_values: _containers.ScalarMap[str, str]
    tiles: _containers.ScalarMap[str, str]
    def __init__(self, decision_kinds: _Optional[_Mapping[str, str]] = ..., option_kinds: _Optional[_Mapping[str, str]] = ..., action_types: _Optional[_Mapping[str, str]] = ..., industries: _Optional[_Mapping[str, str]] = ..., reasons: _Optional[_Mapping[str, str]] = ..., locations: _Optional[_Mapping[str, str]] = ..., events: _Optional[_Mapping[str, str]] = ..., cards: _Optional[_Mapping[str, str]] = ..., options: _Optional[_Mapping[str, str]] = ..., option_titles: _Optional[_Mapping[str, str]] = ..., option_values: _Optional[_Mapping[str, str]] = ..., tiles: _Optional[_Mapping[str, str]] = ...) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("key", "type", "description", "default_bool", "default_int", "default_enum", "allowed_ints", "allowed_enums", "min", "max", "allowed_bools")
    KEY_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_BOOL_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_INT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ENUM_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_INTS_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ENUMS_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_BOOLS_FIELD_NUMBER: _ClassVar[int]
    key: str
    type: str
    description: str
    default_bool: bool
    default_int: int
    default_enum: str
    allowed_ints: _containers.RepeatedScalarFieldContainer[int]
    allowed_enums: _containers.RepeatedScalarFieldContainer[str]
    min: int
    max: int
    allowed_bools: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, key: _Optional[str] = ..., type: _Optional[str] = ..., description: _Optional[str] = ..., default_bool: _Optional[bool] = ..., default_int: _Optional[int] = ..., default_enum: _Optional[str] = ..., allowed_ints: _Optional[_Iterable[int]] = ..., allowed_enums: _Optional[_Iterable[str]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ..., allowed_bools: _Optional[_Iterable[bool]] = ...) -> None: ...

class ActionInfo(_message.Message):
    __slots__ = ("id", "name", "kind", "value", "location", "decisions")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    kind: str
    value: str
    location: str
    decisions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., kind: _Optional[str] = ..., value: _Optional[str] = ..., location: _Optional[str] = ..., decisions: _Optional[_Iterable[str]] = ...) -> None: ...

class ReasonInfo(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    def __init__(self, code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ("view_width", "view_height", "projection", "coordinates_source", "locations", "routes", "merchants", "markets", "oilfields", "player_mat", "tiles", "link_tiles")
    VIEW_WIDTH_FIELD_NUMBER: _ClassVar[int]
    VIEW_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    PROJECTION_FIELD_NUMBER: _ClassVar[int]
    COORDINATES_SOURCE_FIELD_NUMBER: _ClassVar[int]
    LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    MERCHANTS_FIELD_NUMBER: _ClassVar[int]
    MARKETS_FIELD_NUMBER: _ClassVar[int]
    OILFIELDS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_MAT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    LINK_TILES_FIELD_NUMBER: _ClassVar[int]
    view_width: float
    view_height: float
    projection: str
    coordinates_source: str
    locations: _containers.RepeatedCompositeFieldContainer[Location]
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    merchants: _containers.RepeatedCompositeFieldContainer[Merchant]
    markets: _containers.RepeatedCompositeFieldContainer[Market]
    oilfields: _containers.RepeatedCompositeFieldContainer[Oilfield]
    player_mat: _containers.RepeatedCompositeFieldContainer[MatIndustry]
    tiles: _containers.RepeatedCompositeFieldContainer[BoardTile]
    link_tiles: _containers.RepeatedCompositeFieldContainer[BoardLinkTile]
    def __init__(self, view_width: _Optional[float] = ..., view_height: _Optional[float] = ..., projection: _Optional[str] = ..., coordinates_source: _Optional[str] = ..., locations: _Optional[_Iterable[_Union[Location, _Mapping]]] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., merchants: _Optional[_Iterable[_Union[Merchant, _Mapping]]] = ..., markets: _Optional[_Iterable[_Union[Market, _Mapping]]] = ..., oilfields: _Optional[_Iterable[_Union[Oilfield, _Mapping]]] = ..., player_mat: _Optional[_Iterable[_Union[MatIndustry, _Mapping]]] = ..., tiles: _Optional[_Iterable[_Union[BoardTile, _Mapping]]] = ..., link_tiles: _Optional[_Iterable[_Union[BoardLinkTile, _Mapping]]] = ...) -> None: ...

class BoardTile(_message.Message):
    __slots__ = ("id", "name", "industry", "level")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    INDUSTRY_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    industry: str
    level: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., industry: _Optional[str] = ..., level: _Optional[int] = ...) -> None: ...

class BoardLinkTile(_message.Message):
    __slots__ = ("id", "kind", "type")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    type: str
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class MatIndustry(_message.Message):
    __slots__ = ("industry", "name", "tiles_per_player", "levels")
    INDUSTRY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TILES_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    industry: str
    name: str
    tiles_per_player: int
    levels: _containers.RepeatedCompositeFieldContainer[MatTile]
    def __init__(self, industry: _Optional[str] = ..., name: _Optional[str] = ..., tiles_per_player: _Optional[int] = ..., levels: _Optional[_Iterable[_Union[MatTile, _Mapping]]] = ...) -> None: ...

class MatTile(_message.Message):
    __slots__ = ("level", "count", "money", "coal", "iron", "beer_to_sell", "income_spaces", "vp", "link_icons", "cubes", "rail_era_cubes", "canal_era", "rail_era", "developable")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MONEY_FIELD_NUMBER: _ClassVar[int]
    COAL_FIELD_NUMBER: _ClassVar[int]
    IRON_FIELD_NUMBER: _ClassVar[int]
    BEER_TO_SELL_FIELD_NUMBER: _ClassVar[int]
    INCOME_SPACES_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    LINK_ICONS_FIELD_NUMBER: _ClassVar[int]
    CUBES_FIELD_NUMBER: _ClassVar[int]
    RAIL_ERA_CUBES_FIELD_NUMBER: _ClassVar[int]
    CANAL_ERA_FIELD_NUMBER: _ClassVar[int]
    RAIL_ERA_FIELD_NUMBER: _ClassVar[int]
    DEVELOPABLE_FIELD_NUMBER: _ClassVar[int]
    level: int
    count: int
    money: int
    coal: int
    iron: int
    beer_to_sell: int
    income_spaces: int
    vp: int
    link_icons: int
    cubes: int
    rail_era_cubes: int
    canal_era: bool
    rail_era: bool
    developable: bool
    def __init__(self, level: _Optional[int] = ..., count: _Optional[int] = ..., money: _Optional[int] = ..., coal: _Optional[int] = ..., iron: _Optional[int] = ..., beer_to_sell: _Optional[int] = ..., income_spaces: _Optional[int] = ..., vp: _Optional[int] = ..., link_icons: _Optional[int] = ..., cubes: _Optional[int] = ..., rail_era_cubes: _Optional[int] = ..., canal_era: _Optional[bool] = ..., rail_era: _Optional[bool] = ..., developable: _Optional[bool] = ...) -> None: ...

class Location(_message.Message):
    __slots__ = ("id", "name", "kind", "x", "y", "slots")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    kind: str
    x: float
    y: float
    slots: _containers.RepeatedCompositeFieldContainer[Slot]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., kind: _Optional[str] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., slots: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("action_id", "name", "index", "position", "industries", "x", "y")
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    INDUSTRIES_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    action_id: int
    name: str
    index: int
    position: str
    industries: _containers.RepeatedScalarFieldContainer[str]
    x: float
    y: float
    def __init__(self, action_id: _Optional[int] = ..., name: _Optional[str] = ..., index: _Optional[int] = ..., position: _Optional[str] = ..., industries: _Optional[_Iterable[str]] = ..., x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class Route(_message.Message):
    __slots__ = ("id", "action_id", "name", "endpoints", "connects", "canal", "rail", "kind", "link_tiles", "bonus", "oilfield", "oil_icons")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ENDPOINTS_FIELD_NUMBER: _ClassVar[int]
    CONNECTS_FIELD_NUMBER: _ClassVar[int]
    CANAL_FIELD_NUMBER: _ClassVar[int]
    RAIL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LINK_TILES_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    OILFIELD_FIELD_NUMBER: _ClassVar[int]
    OIL_ICONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    action_id: int
    name: str
    endpoints: _containers.RepeatedScalarFieldContainer[str]
    connects: _containers.RepeatedScalarFieldContainer[str]
    canal: bool
    rail: bool
    kind: str
    link_tiles: _containers.RepeatedScalarFieldContainer[str]
    bonus: RouteBonus
    oilfield: str
    oil_icons: int
    def __init__(self, id: _Optional[str] = ..., action_id: _Optional[int] = ..., name: _Optional[str] = ..., endpoints: _Optional[_Iterable[str]] = ..., connects: _Optional[_Iterable[str]] = ..., canal: _Optional[bool] = ..., rail: _Optional[bool] = ..., kind: _Optional[str] = ..., link_tiles: _Optional[_Iterable[str]] = ..., bonus: _Optional[_Union[RouteBonus, _Mapping]] = ..., oilfield: _Optional[str] = ..., oil_icons: _Optional[int] = ...) -> None: ...

class RouteBonus(_message.Message):
    __slots__ = ("kind", "amount")
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    amount: int
    def __init__(self, kind: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class Merchant(_message.Message):
    __slots__ = ("location", "name", "spaces", "beer_bonus", "link_vp", "adjacent")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    BEER_BONUS_FIELD_NUMBER: _ClassVar[int]
    LINK_VP_FIELD_NUMBER: _ClassVar[int]
    ADJACENT_FIELD_NUMBER: _ClassVar[int]
    location: str
    name: str
    spaces: _containers.RepeatedCompositeFieldContainer[MerchantSpace]
    beer_bonus: MerchantBonus
    link_vp: int
    adjacent: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, location: _Optional[str] = ..., name: _Optional[str] = ..., spaces: _Optional[_Iterable[_Union[MerchantSpace, _Mapping]]] = ..., beer_bonus: _Optional[_Union[MerchantBonus, _Mapping]] = ..., link_vp: _Optional[int] = ..., adjacent: _Optional[_Iterable[str]] = ...) -> None: ...

class MerchantSpace(_message.Message):
    __slots__ = ("action_id", "name", "index", "player_counts")
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    PLAYER_COUNTS_FIELD_NUMBER: _ClassVar[int]
    action_id: int
    name: str
    index: int
    player_counts: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, action_id: _Optional[int] = ..., name: _Optional[str] = ..., index: _Optional[int] = ..., player_counts: _Optional[_Iterable[int]] = ...) -> None: ...

class MerchantBonus(_message.Message):
    __slots__ = ("kind", "amount", "text")
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    amount: int
    text: str
    def __init__(self, kind: _Optional[str] = ..., amount: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class Market(_message.Message):
    __slots__ = ("resource", "slot_prices", "capacity", "price_when_empty", "initial_cubes", "buy_needs_merchant_connection", "id", "action_id", "option_name", "location", "price", "columns")
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    SLOT_PRICES_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    PRICE_WHEN_EMPTY_FIELD_NUMBER: _ClassVar[int]
    INITIAL_CUBES_FIELD_NUMBER: _ClassVar[int]
    BUY_NEEDS_MERCHANT_CONNECTION_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_NAME_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    resource: str
    slot_prices: _containers.RepeatedScalarFieldContainer[int]
    capacity: int
    price_when_empty: int
    initial_cubes: int
    buy_needs_merchant_connection: bool
    id: str
    action_id: int
    option_name: str
    location: str
    price: int
    columns: _containers.RepeatedCompositeFieldContainer[MarketColumn]
    def __init__(self, resource: _Optional[str] = ..., slot_prices: _Optional[_Iterable[int]] = ..., capacity: _Optional[int] = ..., price_when_empty: _Optional[int] = ..., initial_cubes: _Optional[int] = ..., buy_needs_merchant_connection: _Optional[bool] = ..., id: _Optional[str] = ..., action_id: _Optional[int] = ..., option_name: _Optional[str] = ..., location: _Optional[str] = ..., price: _Optional[int] = ..., columns: _Optional[_Iterable[_Union[MarketColumn, _Mapping]]] = ...) -> None: ...

class MarketColumn(_message.Message):
    __slots__ = ("resource", "slot_vp", "initial_cubes")
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    SLOT_VP_FIELD_NUMBER: _ClassVar[int]
    INITIAL_CUBES_FIELD_NUMBER: _ClassVar[int]
    resource: str
    slot_vp: _containers.RepeatedScalarFieldContainer[int]
    initial_cubes: int
    def __init__(self, resource: _Optional[str] = ..., slot_vp: _Optional[_Iterable[int]] = ..., initial_cubes: _Optional[int] = ...) -> None: ...

class Oilfield(_message.Message):
    __slots__ = ("id", "name", "action_id", "option_name", "x", "y", "pipeline_routes")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_NAME_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_ROUTES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    action_id: int
    option_name: str
    x: float
    y: float
    pipeline_routes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., action_id: _Optional[int] = ..., option_name: _Optional[str] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., pipeline_routes: _Optional[_Iterable[str]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "status", "ruleset", "has_open_seats", "account_id")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    HAS_OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    status: GameStatus
    ruleset: Ruleset
    has_open_seats: bool
    account_id: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., status: _Optional[_Union[GameStatus, str]] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., has_open_seats: _Optional[bool] = ..., account_id: _Optional[str] = ...) -> None: ...

class JoinGameRequest(_message.Message):
    __slots__ = ("game_id", "seat", "name")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    name: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class JoinGameResponse(_message.Message):
    __slots__ = ("game_id", "seat", "summary")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: SeatToken
    summary: GameSummary
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[_Union[SeatToken, _Mapping]] = ..., summary: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class LeaveGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class LeaveGameResponse(_message.Message):
    __slots__ = ("summary",)
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    summary: GameSummary
    def __init__(self, summary: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class StartGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class ReissueSeatTokenRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ReissueSeatTokenResponse(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: SeatToken
    def __init__(self, seat: _Optional[_Union[SeatToken, _Mapping]] = ...) -> None: ...

class ResignGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ResignGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: GameState
    def __init__(self, state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...

class RematchRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class RematchResponse(_message.Message):
    __slots__ = ("rematch", "seat", "token", "host_token")
    REMATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    rematch: RematchState
    seat: int
    token: str
    host_token: str
    def __init__(self, rematch: _Optional[_Union[RematchState, _Mapping]] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., host_token: _Optional[str] = ...) -> None: ...

class RematchState(_message.Message):
    __slots__ = ("proposed_by", "accepted_seats", "game_id")
    PROPOSED_BY_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_SEATS_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    proposed_by: int
    accepted_seats: _containers.RepeatedScalarFieldContainer[int]
    game_id: str
    def __init__(self, proposed_by: _Optional[int] = ..., accepted_seats: _Optional[_Iterable[int]] = ..., game_id: _Optional[str] = ...) -> None: ...

class RevokeSeatTokenRequest(_message.Message):
    __slots__ = ("game_id", "seat", "ban")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BAN_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    ban: bool
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., ban: _Optional[bool] = ...) -> None: ...

class RevokeSeatTokenResponse(_message.Message):
    __slots__ = ("summary",)
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    summary: GameSummary
    def __init__(self, summary: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class SetSeatBotRequest(_message.Message):
    __slots__ = ("game_id", "seat", "bot")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    bot: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class SetSeatBotResponse(_message.Message):
    __slots__ = ("summary",)
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    summary: GameSummary
    def __init__(self, summary: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RunBatchRequest(_message.Message):
    __slots__ = ("players", "bots", "games", "seed", "options", "include_decisions", "ruleset")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    players: int
    bots: _containers.RepeatedScalarFieldContainer[str]
    games: int
    seed: int
    options: GameOptions
    include_decisions: bool
    ruleset: Ruleset
    def __init__(self, players: _Optional[int] = ..., bots: _Optional[_Iterable[str]] = ..., games: _Optional[int] = ..., seed: _Optional[int] = ..., options: _Optional[_Union[GameOptions, _Mapping]] = ..., include_decisions: _Optional[bool] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ...) -> None: ...

class BatchSeat(_message.Message):
    __slots__ = ("seat", "bot", "entry", "score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    entry: int
    score: int
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ..., entry: _Optional[int] = ..., score: _Optional[int] = ...) -> None: ...

class RunBatchResponse(_message.Message):
    __slots__ = ("index", "batch_seed", "seed", "seats", "winners", "ranking", "decisions", "decision_ids", "completed", "seconds", "ruleset", "rules_edition")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    BATCH_SEED_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    DECISION_IDS_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    RULES_EDITION_FIELD_NUMBER: _ClassVar[int]
    index: int
    batch_seed: int
    seed: int
    seats: _containers.RepeatedCompositeFieldContainer[BatchSeat]
    winners: _containers.RepeatedScalarFieldContainer[int]
    ranking: _containers.RepeatedScalarFieldContainer[int]
    decisions: int
    decision_ids: _containers.RepeatedScalarFieldContainer[int]
    completed: int
    seconds: float
    ruleset: Ruleset
    rules_edition: int
    def __init__(self, index: _Optional[int] = ..., batch_seed: _Optional[int] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[BatchSeat, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., ranking: _Optional[_Iterable[int]] = ..., decisions: _Optional[int] = ..., decision_ids: _Optional[_Iterable[int]] = ..., completed: _Optional[int] = ..., seconds: _Optional[float] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., rules_edition: _Optional[int] = ...) -> None: ...

class ExportGamesRequest(_message.Message):
    __slots__ = ("ruleset", "players", "rated", "created_after", "created_before", "limit")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    CREATED_AFTER_FIELD_NUMBER: _ClassVar[int]
    CREATED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    ruleset: Ruleset
    players: int
    rated: bool
    created_after: _timestamp_pb2.Timestamp
    created_before: _timestamp_pb2.Timestamp
    limit: int
    def __init__(self, ruleset: _Optional[_Union[Ruleset, str]] = ..., players: _Optional[int] = ..., rated: _Optional[bool] = ..., created_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., limit: _Optional[int] = ...) -> None: ...

class ExportGamesResponse(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: str
    def __init__(self, record: _Optional[str] = ...) -> None: ...

class Account(_message.Message):
    __slots__ = ("account_id", "name", "bot", "create_time", "active")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    name: str
    bot: bool
    create_time: _timestamp_pb2.Timestamp
    active: bool
    def __init__(self, account_id: _Optional[str] = ..., name: _Optional[str] = ..., bot: _Optional[bool] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., active: _Optional[bool] = ...) -> None: ...

class CreateAccountRequest(_message.Message):
    __slots__ = ("name", "bot")
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    name: str
    bot: bool
    def __init__(self, name: _Optional[str] = ..., bot: _Optional[bool] = ...) -> None: ...

class CreateAccountResponse(_message.Message):
    __slots__ = ("account", "key")
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    account: Account
    key: str
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ..., key: _Optional[str] = ...) -> None: ...

class GetAccountRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class GetAccountResponse(_message.Message):
    __slots__ = ("account",)
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    account: Account
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ...) -> None: ...

class RotateAccountKeyRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class RotateAccountKeyResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: str
    def __init__(self, key: _Optional[str] = ...) -> None: ...

class RevokeAccountKeyRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class RevokeAccountKeyResponse(_message.Message):
    __slots__ = ("account",)
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    account: Account
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("ruleset", "players", "kind", "page_size", "page_token")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ruleset: Ruleset
    players: int
    kind: AccountKind
    page_size: int
    page_token: str
    def __init__(self, ruleset: _Optional[_Union[Ruleset, str]] = ..., players: _Optional[int] = ..., kind: _Optional[_Union[AccountKind, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ("account_id", "name", "bot", "rating", "mu", "sigma", "games", "provisional")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    name: str
    bot: bool
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool
    def __init__(self, account_id: _Optional[str] = ..., name: _Optional[str] = ..., bot: _Optional[bool] = ..., rating: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., games: _Optional[int] = ..., provisional: _Optional[bool] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("entries", "next_page_token")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    next_page_token: str
    def __init__(self, entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetRatingHistoryRequest(_message.Message):
    __slots__ = ("account_id", "page_size", "page_token")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    page_size: int
    page_token: str
    def __init__(self, account_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class RatingHistoryEntry(_message.Message):
    __slots__ = ("game_id", "ruleset", "players", "seat", "rank", "rating_before", "rating_after", "create_time")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    RATING_BEFORE_FIELD_NUMBER: _ClassVar[int]
    RATING_AFTER_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    ruleset: Ruleset
    players: int
    seat: int
    rank: int
    rating_before: float
    rating_after: float
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, game_id: _Optional[str] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., players: _Optional[int] = ..., seat: _Optional[int] = ..., rank: _Optional[int] = ..., rating_before: _Optional[float] = ..., rating_after: _Optional[float] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetRatingHistoryResponse(_message.Message):
    __slots__ = ("entries", "next_page_token")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[RatingHistoryEntry]
    next_page_token: str
    def __init__(self, entries: _Optional[_Iterable[_Union[RatingHistoryEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class Challenge(_message.Message):
    __slots__ = ("challenge_id", "challenger_id", "challenged_id", "ruleset", "options", "rated", "status", "game_id", "create_time", "more_challenged_ids", "accepted_ids")
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CHALLENGER_ID_FIELD_NUMBER: _ClassVar[int]
    CHALLENGED_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    MORE_CHALLENGED_IDS_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_IDS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    challenger_id: str
    challenged_id: str
    ruleset: Ruleset
    options: GameOptions
    rated: bool
    status: ChallengeStatus
    game_id: str
    create_time: _timestamp_pb2.Timestamp
    more_challenged_ids: _containers.RepeatedScalarFieldContainer[str]
    accepted_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, challenge_id: _Optional[str] = ..., challenger_id: _Optional[str] = ..., challenged_id: _Optional[str] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., options: _Optional[_Union[GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., status: _Optional[_Union[ChallengeStatus, str]] = ..., game_id: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., more_challenged_ids: _Optional[_Iterable[str]] = ..., accepted_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateChallengeRequest(_message.Message):
    __slots__ = ("account_id", "ruleset", "options", "rated", "more_account_ids")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    MORE_ACCOUNT_IDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    ruleset: Ruleset
    options: GameOptions
    rated: bool
    more_account_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., options: _Optional[_Union[GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., more_account_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class AcceptChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class AcceptChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class DeclineChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class DeclineChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class StreamAccountEventsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class YourTurn(_message.Message):
    __slots__ = ("game_id", "seat", "version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    version: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., version: _Optional[int] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("summary",)
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    summary: GameSummary
    def __init__(self, summary: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class StreamAccountEventsResponse(_message.Message):
    __slots__ = ("challenge", "game_started", "your_turn", "game_over")
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    YOUR_TURN_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    game_started: GameStarted
    your_turn: YourTurn
    game_over: GameOver
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ..., game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., your_turn: _Optional[_Union[YourTurn, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ...) -> None: ...

class Webhook(_message.Message):
    __slots__ = ("webhook_id", "url", "events", "account_id", "game_id", "seat", "host", "create_time")
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HOST_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    webhook_id: str
    url: str
    events: _containers.RepeatedScalarFieldContainer[str]
    account_id: str
    game_id: str
    seat: int
    host: bool
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, webhook_id: _Optional[str] = ..., url: _Optional[str] = ..., events: _Optional[_Iterable[str]] = ..., account_id: _Optional[str] = ..., game_id: _Optional[str] = ..., seat: _Optional[int] = ..., host: _Optional[bool] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateWebhookRequest(_message.Message):
    __slots__ = ("account_id", "game_id", "url", "events")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    game_id: str
    url: str
    events: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., game_id: _Optional[str] = ..., url: _Optional[str] = ..., events: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateWebhookResponse(_message.Message):
    __slots__ = ("webhook", "secret")
    WEBHOOK_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    webhook: Webhook
    secret: str
    def __init__(self, webhook: _Optional[_Union[Webhook, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class ListWebhooksRequest(_message.Message):
    __slots__ = ("account_id", "game_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    game_id: str
    def __init__(self, account_id: _Optional[str] = ..., game_id: _Optional[str] = ...) -> None: ...

class ListWebhooksResponse(_message.Message):
    __slots__ = ("webhooks",)
    WEBHOOKS_FIELD_NUMBER: _ClassVar[int]
    webhooks: _containers.RepeatedCompositeFieldContainer[Webhook]
    def __init__(self, webhooks: _Optional[_Iterable[_Union[Webhook, _Mapping]]] = ...) -> None: ...

class DeleteWebhookRequest(_message.Message):
    __slots__ = ("webhook_id",)
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    webhook_id: str
    def __init__(self, webhook_id: _Optional[str] = ...) -> None: ...

class DeleteWebhookResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WebhookDelivery(_message.Message):
    __slots__ = ("message_id", "type", "game_id", "state", "attempts", "create_time", "next_attempt_time", "last_error")
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_TIME_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    message_id: str
    type: str
    game_id: str
    state: WebhookDeliveryState
    attempts: int
    create_time: _timestamp_pb2.Timestamp
    next_attempt_time: _timestamp_pb2.Timestamp
    last_error: str
    def __init__(self, message_id: _Optional[str] = ..., type: _Optional[str] = ..., game_id: _Optional[str] = ..., state: _Optional[_Union[WebhookDeliveryState, str]] = ..., attempts: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., next_attempt_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_error: _Optional[str] = ...) -> None: ...

class ListWebhookDeliveriesRequest(_message.Message):
    __slots__ = ("webhook_id", "page_size", "page_token")
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    webhook_id: str
    page_size: int
    page_token: str
    def __init__(self, webhook_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListWebhookDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries", "next_page_token")
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[WebhookDelivery]
    next_page_token: str
    def __init__(self, deliveries: _Optional[_Iterable[_Union[WebhookDelivery, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ArenaEntrant(_message.Message):
    __slots__ = ("account_id", "server_bot")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SERVER_BOT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    server_bot: str
    def __init__(self, account_id: _Optional[str] = ..., server_bot: _Optional[str] = ...) -> None: ...

class CreateArenaRequest(_message.Message):
    __slots__ = ("name", "format", "players", "rounds", "entrants", "ruleset", "options", "seed")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    name: str
    format: ArenaFormat
    players: int
    rounds: int
    entrants: _containers.RepeatedCompositeFieldContainer[ArenaEntrant]
    ruleset: Ruleset
    options: GameOptions
    seed: int
    def __init__(self, name: _Optional[str] = ..., format: _Optional[_Union[ArenaFormat, str]] = ..., players: _Optional[int] = ..., rounds: _Optional[int] = ..., entrants: _Optional[_Iterable[_Union[ArenaEntrant, _Mapping]]] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., options: _Optional[_Union[GameOptions, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class CreateArenaResponse(_message.Message):
    __slots__ = ("arena",)
    ARENA_FIELD_NUMBER: _ClassVar[int]
    arena: Arena
    def __init__(self, arena: _Optional[_Union[Arena, _Mapping]] = ...) -> None: ...

class GetArenaRequest(_message.Message):
    __slots__ = ("arena_id",)
    ARENA_ID_FIELD_NUMBER: _ClassVar[int]
    arena_id: str
    def __init__(self, arena_id: _Optional[str] = ...) -> None: ...

class GetArenaResponse(_message.Message):
    __slots__ = ("arena",)
    ARENA_FIELD_NUMBER: _ClassVar[int]
    arena: Arena
    def __init__(self, arena: _Optional[_Union[Arena, _Mapping]] = ...) -> None: ...

class WatchArenaRequest(_message.Message):
    __slots__ = ("arena_id",)
    ARENA_ID_FIELD_NUMBER: _ClassVar[int]
    arena_id: str
    def __init__(self, arena_id: _Optional[str] = ...) -> None: ...

class ListArenasRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: ArenaStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[ArenaStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListArenasResponse(_message.Message):
    __slots__ = ("arenas", "next_page_token")
    ARENAS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    arenas: _containers.RepeatedCompositeFieldContainer[Arena]
    next_page_token: str
    def __init__(self, arenas: _Optional[_Iterable[_Union[Arena, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchArenaResponse(_message.Message):
    __slots__ = ("arena",)
    ARENA_FIELD_NUMBER: _ClassVar[int]
    arena: Arena
    def __init__(self, arena: _Optional[_Union[Arena, _Mapping]] = ...) -> None: ...

class ArenaStanding(_message.Message):
    __slots__ = ("place", "account_id", "name", "server_bot", "points", "wins", "games", "forfeits", "byes", "rating", "rating_change")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SERVER_BOT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    FORFEITS_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    RATING_CHANGE_FIELD_NUMBER: _ClassVar[int]
    place: int
    account_id: str
    name: str
    server_bot: str
    points: int
    wins: int
    games: int
    forfeits: int
    byes: int
    rating: float
    rating_change: float
    def __init__(self, place: _Optional[int] = ..., account_id: _Optional[str] = ..., name: _Optional[str] = ..., server_bot: _Optional[str] = ..., points: _Optional[int] = ..., wins: _Optional[int] = ..., games: _Optional[int] = ..., forfeits: _Optional[int] = ..., byes: _Optional[int] = ..., rating: _Optional[float] = ..., rating_change: _Optional[float] = ...) -> None: ...

class ArenaTable(_message.Message):
    __slots__ = ("round", "table", "game_id", "account_ids", "finished", "ranks", "rating_changes")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_IDS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    RATING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game_id: str
    account_ids: _containers.RepeatedScalarFieldContainer[str]
    finished: bool
    ranks: _containers.RepeatedScalarFieldContainer[int]
    rating_changes: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game_id: _Optional[str] = ..., account_ids: _Optional[_Iterable[str]] = ..., finished: _Optional[bool] = ..., ranks: _Optional[_Iterable[int]] = ..., rating_changes: _Optional[_Iterable[float]] = ...) -> None: ...

class Arena(_message.Message):
    __slots__ = ("arena_id", "name", "format", "status", "ruleset", "players", "rounds", "round", "standings", "tables", "revision", "create_time", "finish_time")
    ARENA_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    FINISH_TIME_FIELD_NUMBER: _ClassVar[int]
    arena_id: str
    name: str
    format: ArenaFormat
    status: ArenaStatus
    ruleset: Ruleset
    players: int
    rounds: int
    round: int
    standings: _containers.RepeatedCompositeFieldContainer[ArenaStanding]
    tables: _containers.RepeatedCompositeFieldContainer[ArenaTable]
    revision: int
    create_time: _timestamp_pb2.Timestamp
    finish_time: _timestamp_pb2.Timestamp
    def __init__(self, arena_id: _Optional[str] = ..., name: _Optional[str] = ..., format: _Optional[_Union[ArenaFormat, str]] = ..., status: _Optional[_Union[ArenaStatus, str]] = ..., ruleset: _Optional[_Union[Ruleset, str]] = ..., players: _Optional[int] = ..., rounds: _Optional[int] = ..., round: _Optional[int] = ..., standings: _Optional[_Iterable[_Union[ArenaStanding, _Mapping]]] = ..., tables: _Optional[_Iterable[_Union[ArenaTable, _Mapping]]] = ..., revision: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finish_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
