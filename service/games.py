"""The transport-neutral game service: what both the gRPC servicer and the REST gateway call.

It authenticates seats, loads games from the store (through a per-replica cache that is
always brought up to the store's head before use), asks the engine every rules question,
and stores each accepted decision before answering. It never decides a game rule itself.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import functools
import hashlib
import json
import math
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import structlog
from google.protobuf import timestamp_pb2

import brass
from brass.position import MAX_POSITION_CHARS

from . import auth, typed
from . import hosting as hosted
from .batches import BatchLimits, BatchRunner, BatchStream
from .bot_seats import BotPool, available_cpus, check_seat_bot, decision_seed, new_bot_secret
from .convert import message_to_json_dict
from .errors import ServiceError, from_engine_error
from .gen import game_service_pb2 as pb
from .limits import (
    BOT_MOVE_TIMEOUT_SECONDS,
    BOT_SEAT_MAX_MCTS_ITERATIONS,
    BOT_SEAT_MAX_SEARCH_COST,
    ClientAddresses,
    RateQuota,
    SeatHoldings,
    WatchLimiter,
    WatchSlot,
    parse_networks,
    rate_key,
)
from .names import MAX_NAME_CHARS, display_name, name_key
from .observability import (
    ACTIVE_GAMES,
    ACTIVE_WATCHERS,
    CACHED_GAMES,
    DECISIONS,
    RequestRecord,
    new_request_id,
)
from .reply import Reply
from .server_moves import FairSlots
from .store import (
    DecisionRow,
    GameRow,
    HeadUpdate,
    IdempotencyConflict,
    ListFilter,
    SeatsUpdate,
    Snapshot,
    Store,
    StoreUnavailable,
    VersionConflict,
)
from .store.sqlite import DEFAULT_COMMIT_WAIT_MS

log = structlog.get_logger("brass_service.games")

MAX_GAME_ID_CHARS = 64
MAX_IDEMPOTENCY_KEY_CHARS = 128
MAX_PAGE_TOKEN_CHARS = 512
MAX_SEAT_NAME_CHARS = MAX_NAME_CHARS
# RevokeSeatToken with ban: the addresses and the names a game keeps barred (each list).
MAX_BANS_PER_GAME = 64
# When a client holding max_waiting_seats_per_address seats is told to try again: its seats
# free up when their games start or it leaves one, not at a known time.
_WAITING_SEATS_RETRY_SECONDS = 30.0
# JoinGame, LeaveGame, StartGame: how often a change of seats is retried when another
# process changed the seats between its read and its write.
_SEATS_ATTEMPTS = 8
# A compound action is one action of the rules: the longest the engine lists in random
# 4-player play is 6 ids. Longer lists are refused before anything else is done with them
# (a 200,000-id list took 270 ms of the event loop to fingerprint, resolve and refuse).
MAX_COMPOUND_IDS = 64
# Games the expiry sweep deletes at once (one write each, sharing group commits).
_SWEEP_BATCH = 64
# Keys are the engine's short texts; a longer one cannot match and is not echoed back.
MAX_COMPOUND_KEY_CHARS = 256
# Refusals that a copy of the game behind the store could cause wrongly.
_MAYBE_STALE = frozenset({"STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER", "ILLEGAL_ACTION",
                          "SEAT_RESIGNED", "BOT_SEAT", "TURN_TIMED_OUT",
                          "NOTHING_TO_UNDO", "UNDO_BARRIER"})
# A stored decision row that is an undo (UndoAction), and its entry in a replay record.
_UNDO_ACTION = {"ids": [], "compound": False, "undo": True}
# The requests that store a version: a decision (SubmitAction) or an undo (UndoAction).
_ActRequest = pb.SubmitActionRequest | pb.UndoActionRequest
# Public fields of a replay record; everything else (seed, starting position) waits for
# the end of the game.
_PUBLIC_REPLAY_FIELDS = ("rules_edition", "ruleset", "players", "options", "decisions")


@dataclass
class ServiceSettings:
    snapshot_every: int = 32
    cache_size: int = 2048
    default_page_size: int = 20
    max_page_size: int = 100
    max_watchers: int = 1000
    max_watchers_per_game: int = 100
    watch_rate_per_second: float = 2.0
    watch_burst: int = 20
    # Watch streams (gRPC and SSE) one client may hold at once.
    max_watchers_per_client: int = 20
    # Watch streams from one address (every token, every connection), at most; besides,
    # never more than half of the slots (max_watchers) other addresses leave.
    max_watchers_per_address: int = 100
    # WatchGame streams one gRPC connection may carry at once.
    max_watchers_per_connection: int = 20
    # A watch stream with nothing to send for this long (its game unmoved) is ended with
    # WATCH_IDLE, freeing its slot; clients that still want it watch again. 0: never.
    watch_idle_seconds: float = 3600.0
    # Proxies (comma-separated addresses or CIDR networks) whose forwarding header names
    # the client; and which header they write: x-forwarded-for or forwarded (RFC 7239).
    trusted_proxies: str = ""
    forwarded_header: str = "x-forwarded-for"
    # Games one client may create (CreateGame), in the `limits` library's notation; empty:
    # no limit. The operator token is not limited.
    create_game_rate: str = "5/second;60/minute;1000/day"
    # Reads of a game's past one client (its address) may make: GetGame with at_version
    # and GetReplay, together (the web replay viewer asks one a step, 2.5 a second when
    # it plays, one where a dragged slider rests); empty: no limit.
    past_read_rate: str = "30/second;900/minute"
    # JoinGame from one client (its address), in the same notation; empty: no limit.
    join_game_rate: str = "2/second;30/minute;500/day"
    # Seats one address may hold at once in games waiting for players (0: no limit), and
    # in any one such game (0: no limit) unless it created the game: one client cannot
    # take every open seat of the lobby, nor fill a stranger's game. The operator token is
    # not limited.
    max_waiting_seats_per_address: int = 8
    max_seats_per_address_per_game: int = 1
    # The bearer token of the operator: needed for RunBatch and CreateGameFromPosition
    # (refused for everyone when empty), and free of the creation quota.
    operator_token: str = field(default="", repr=False)
    # The key of server bots' random seeds (BRASS_BOT_SECRET); empty: one drawn at start-up
    # (`--workers` hands the supervisor's to every worker).
    bot_secret: str = field(default="", repr=False)
    # Games in progress with no decision for this many days are deleted (0: never), by a
    # sweep every expiry_sweep_seconds in each process. Finished games are kept.
    abandoned_game_days: float = 7.0
    expiry_sweep_seconds: float = 3600.0
    # Watchers re-check the store this often even without a notification, so a lost
    # notification (or another process on the same SQLite file) only delays an update.
    watch_poll_seconds: float = 2.0
    # With several processes on one SQLite file: how often each checks whether another one
    # wrote (a read of shared memory), to wake its watchers.
    other_writers_poll_seconds: float = 0.05
    # SQLite: how long the writer waits under load for more writes to share a commit.
    sqlite_commit_wait_ms: float = DEFAULT_COMMIT_WAIT_MS
    watch_batch: int = 256
    # RunBatch: games per request, batches at once, worker processes (0: CPUs - 1, at
    # least 1), the search budget accepted from clients, the workers' nice increment.
    batch_max_games: int = 1000
    max_batches: int = 4
    batch_workers: int = 0
    batch_max_mcts_iterations: int = 2000
    batch_worker_nice: int = 10
    # Server bot seats: worker processes for their decisions (a pool of their own; 0: one
    # per CPU this process may use; one more is kept for the clock's stand-ins), the
    # search budget a seat's bot may have and the whole search's cost (iterations x
    # rollout length, bot_seats.search_cost), how long a decision may take before a random
    # legal one is played instead, and a pause before each bot decision (0: none; people
    # watching may prefer one).
    bot_workers: int = 0
    bot_max_mcts_iterations: int = BOT_SEAT_MAX_MCTS_ITERATIONS
    bot_max_search_cost: int = BOT_SEAT_MAX_SEARCH_COST
    # Per creator (the client's address; the operator is not limited), in the `limits`
    # library's notation (empty: no limit): bot seats placed (CreateGame's bot_seats and
    # SetSeatBot), games given a bot seat, and games whose every seat is a bot. Bot work
    # is shared round-robin between creators whatever these allow.
    bot_seat_rate: str = "60/hour;300/day"
    bot_game_rate: str = "20/hour;100/day"
    all_bot_game_rate: str = "2/hour;10/day"
    bot_move_timeout_seconds: float = BOT_MOVE_TIMEOUT_SECONDS
    bot_move_delay_seconds: float = 0.0
    # The server's own moves (bot turns, timeouts): how often each process looks for games
    # due (one indexed read), how many games it holds at once (most wait for a bot
    # worker's turn), and for how long a process that took one holds it before another may
    # (should it die meanwhile; renewed every third of it while a bot works).
    timer_poll_seconds: float = 0.2
    max_server_moves: int = 1000
    server_move_lease_seconds: float = 10.0
    # UndoAction is refused (UNDO_LIMIT) once a game has this many versions. Without it a
    # seat could take back and make again the same decision forever, growing the game's log
    # and the work of every GetReplay of it without bound. Random 4-player games end in
    # about 390 (Birmingham) and 530 (Pittsburgh) versions: no game played in earnest comes
    # near.
    max_undo_version: int = 5000

    def batch_limits(self) -> BatchLimits:
        return BatchLimits(
            max_games=self.batch_max_games,
            max_batches=self.max_batches,
            workers=self.batch_workers,
            max_mcts_iterations=self.batch_max_mcts_iterations,
            worker_nice=self.batch_worker_nice,
        )


@dataclass
class _Claim:
    """A due game this process claimed (store.claim_due) until `lease`."""

    version: int
    seats_revision: int
    lease: float


# _owed's answer for a turn past its deadline under TIMEOUT_POLICY_FORFEIT.
_FORFEIT = "forfeit"


def _creator_digest(caller: Caller, operator: bool) -> str:
    """The creator a new game records (hosting's "creator"): "operator", or a digest of
    the client's address (kept out of the store as such)."""
    if operator:
        return "operator"
    return address_digest(caller)


def _attended(row: GameRow) -> bool:
    """Whether a person plays in the game (a seat held by a token that has not resigned):
    someone is waiting for its bots' replies."""
    resigned = set(hosted.hosting_of(row).get("resigned", ()))
    return any(digest and digest != hosted.BOT_DIGEST and seat not in resigned
               for seat, digest in enumerate(row.token_hashes))


def _creator_of(row: GameRow) -> str:
    """Whom a game's bot work counts against in the round-robin: its creator (a digest of
    the creating client's address, or the operator); each game by itself for games made
    before creators were recorded."""
    return str(hosted.hosting_of(row).get("creator") or f"game:{row.game_id}")


@dataclass
class Caller:
    """Who is calling: the bearer token (if any) and the client's address (the TCP peer, or
    the one a trusted proxy forwarded; see GameService.client_address)."""

    token: str | None
    peer: str
    # The gRPC connection (its peer, 'ipv4:203.0.113.9:51234'), which limits per connection
    # count; None for REST and for a trusted proxy's connection (many clients share it).
    connection: str | None = None


def address_identity(caller: Caller) -> str:
    return f"address:{rate_key(caller.peer)}"


def address_digest(caller: Caller) -> str:
    """How a game's hosting remembers an address (who created it, who joined a seat, whom
    the host banned) without storing the address itself."""
    return hashlib.sha256(address_identity(caller).encode()).hexdigest()[:16]


def client_identity(caller: Caller, game_id: str, seat: int | None) -> str:
    """Whom per-client limits count: the seat when its token authenticated the call, else
    the client's address (IPv6 by /64)."""
    if seat is not None:
        return f"seat:{game_id}/{seat}"
    return address_identity(caller)


@dataclass(frozen=True)
class LiveGame:
    """An engine game held in memory, exactly at a stored version.

    The version is the service's: the number of decision ids submitted since creation (the
    length of the replay record). Entries are replaced, never changed, so a reader holding
    one always sees a consistent game and version. `updated_at` is when that version was
    stored.
    """

    game: Any
    version: int
    updated_at: float
    # The clock after that version, for a game with one (None: see _clock_of).
    clock: dict[str, Any] | None = None
    # A past version (GetGame at_version): the time it was reached. Its summary shows the
    # clock as it stood then, and no end by resignation (none has decisions after it).
    as_of: float | None = None


def _clock_of(row: GameRow, live: LiveGame) -> dict[str, Any] | None:
    """The game's clock at `live`'s version: a decision's (live.clock), else the row's
    (the game's start; `live` is then the version the row was read at)."""
    return live.clock if live.clock is not None else row.clock


def _playing(row: GameRow, game: Any) -> bool:
    return not (_is_waiting(row) or game.is_over or hosted.is_ended(row))


class _Entry:
    """A game held in this replica's memory: its row (only the parts fixed at creation are
    read from it: ids, names, token digests, creation parameters) and the live game."""

    __slots__ = ("checked_mark", "live", "row")

    def __init__(self, row: GameRow, live: LiveGame, checked_mark: int | None) -> None:
        self.row = row
        self.live = live
        # The store's change mark under which `live` was last checked against the store.
        self.checked_mark = checked_mark


class WatchStream:
    """The updates of one watcher. Always aclose() it: that frees the watcher's slot even
    when the stream was never iterated."""

    def __init__(
        self, updates: AsyncGenerator[pb.WatchGameResponse, None], release: Callable[[], None]
    ) -> None:
        self._updates = updates
        self._release = release

    def __aiter__(self) -> AsyncIterator[pb.WatchGameResponse]:
        return self._updates

    async def aclose(self) -> None:
        try:
            await self._updates.aclose()
        finally:
            self._release()


class ChangeBroker:
    """Wakes the watchers of a game when a decision is committed (here or elsewhere)."""

    def __init__(self) -> None:
        self._waiters: dict[str, set[asyncio.Event]] = {}

    def subscribe(self, game_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(event)
        return event

    def unsubscribe(self, game_id: str, event: asyncio.Event) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                del self._waiters[game_id]

    def publish(self, game_id: str, version: int) -> None:
        for event in self._waiters.get(game_id, ()):
            event.set()

    def watchers_of(self, game_id: str) -> int:
        return len(self._waiters.get(game_id, ()))

    def wake_all(self) -> None:
        for waiters in self._waiters.values():
            for event in waiters:
                event.set()


def _timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


def _timestamp_json(seconds: float) -> str:
    """_timestamp(seconds).ToJsonString(), made directly (the same RFC 3339 text: 0, 3, 6
    or 9 fractional digits, as few as the nanoseconds need)."""
    whole, nanos = divmod(int(seconds * 1e9), 1_000_000_000)
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
    if nanos == 0:
        return text + "Z"
    if nanos % 1_000_000 == 0:
        return f"{text}.{nanos // 1_000_000:03d}Z"
    if nanos % 1000 == 0:
        return f"{text}.{nanos // 1000:06d}Z"
    return f"{text}.{nanos:09d}Z"


def _status_of(game: Any) -> int:
    return pb.GAME_STATUS_FINISHED if game.is_over else pb.GAME_STATUS_IN_PROGRESS


def _is_waiting(row: GameRow) -> bool:
    return row.status == pb.GAME_STATUS_WAITING


def _seat_list(row: GameRow) -> list[dict[str, Any]]:
    """The seats as SeatInfo JSON: an open seat has no token digest."""
    return hosted.seat_infos(row)


def _end_reason(row: GameRow, game: Any | None) -> int:
    ended = hosted.end_reason(row)
    if ended:
        return ended
    if game is not None and game.is_over:
        return pb.END_REASON_SCORED
    return pb.END_REASON_UNSPECIFIED


@dataclass(frozen=True, slots=True)
class _RowSummary:
    """The summary fields a row fixes (the game's identity, seats, creation, lobby and host
    settings), made once per row object: a change of seats or settings stores a new row,
    never changes one. Every answer that holds a state has a summary: building these fields
    anew each time cost the gRPC path about 0.1 ms of its 1.5 ms a decision."""

    data: bytes  # a GameSummary of just these fields, serialized
    json: dict[str, Any]  # their proto3 JSON (read, never changed)


# Rows by id(), with the row itself (so that an id is never reused while cached).
_row_summaries: dict[int, tuple[GameRow, _RowSummary]] = {}
_ROW_SUMMARIES_KEPT = 4096
# GetReplay's parts kept per process (_ReplayParts): at most 64 games, and at most 4 MiB
# of their decisions' protobuf bytes and JSON text together (a finished 4-player game's
# bytes are about 11 KB; at max_undo_version, ~190 KB; the JSON about twice that).
_REPLAYS_KEPT = 64
_REPLAY_BYTES_KEPT = 4 << 20
# Past versions (GetGame at_version) kept per process: a replay viewer stepping back and
# forth, or several viewers of one game, ask the same ones again.
_PAST_STATES_KEPT = 128


def _row_summary(row: GameRow) -> _RowSummary:
    cached = _row_summaries.get(id(row))
    if cached is not None and cached[0] is row:
        return cached[1]
    seats = _seat_list(row)
    summary = pb.GameSummary(
        game_id=row.game_id,
        ruleset=row.ruleset,
        seats=[pb.SeatInfo(**seat) for seat in seats],
        create_time=_timestamp(row.created_at),
        from_position=row.position_json is not None,
        visibility=row.visibility,
        open_seats=row.open_seats,
    )
    document: dict[str, Any] = {
        "gameId": row.game_id,
        "ruleset": _RULESET_NAMES.get(row.ruleset, row.ruleset),
        "seats": seats,
        "createTime": _timestamp_json(row.created_at),
        "fromPosition": row.position_json is not None,
        "visibility": _VISIBILITY_NAMES.get(row.visibility, row.visibility),
        "openSeats": row.open_seats,
    }
    policy = hosted.host_policy(hosted.hosting_of(row))
    if policy is not None:
        summary.host_policy.CopyFrom(policy)
        document["hostPolicy"] = message_to_json_dict(policy)
    parts = _RowSummary(summary.SerializeToString(), document)
    if len(_row_summaries) >= _ROW_SUMMARIES_KEPT:
        _row_summaries.clear()
    _row_summaries[id(row)] = (row, parts)
    return parts


def _ending_and_clock(row: GameRow, live: LiveGame | None) -> tuple[int, pb.ClockState | None]:
    """The hosted-play facts of a summary that change with the game: how it ended
    (END_REASON_UNSPECIFIED while it goes on) and its clock (None: it has none)."""
    game = live.game if live is not None else None
    past = live is not None and live.as_of is not None
    hosting = hosted.hosting_of(row)
    if past:
        hosting = {k: v for k, v in hosting.items() if k != "ended"}
        ended = pb.END_REASON_SCORED if game.is_over else pb.END_REASON_UNSPECIFIED
    else:
        ended = _end_reason(row, game)
    if "clock" not in hosting:
        return ended, None
    clock = _clock_of(row, live) if live is not None else row.clock
    now = live.as_of if past else time.time()
    return ended, hosted.clock_message(hosting, clock, row.players, now)


def _summary_extras(row: GameRow, live: LiveGame | None, summary: pb.GameSummary) -> None:
    """The hosted-play fields of a summary that change with the game (_ending_and_clock)."""
    ended, clock = _ending_and_clock(row, live)
    summary.end_reason = ended
    if ended != pb.END_REASON_UNSPECIFIED:
        summary.status = pb.GAME_STATUS_FINISHED
        summary.ClearField("current_seat")
    if clock is not None:
        summary.clock.CopyFrom(clock)


def _summary(row: GameRow, live: LiveGame | None = None,
             into: pb.GameSummary | None = None) -> pb.GameSummary:
    """Public facts; from the live game when given (it may be ahead of `row`). Written into
    `into` (empty) when given: a message held by another is filled in place, not copied."""
    summary = pb.GameSummary() if into is None else into
    summary.MergeFromString(_row_summary(row).data)
    summary.update_time.FromNanoseconds(
        int((live.updated_at if live is not None else row.updated_at) * 1e9))
    if _is_waiting(row):  # nobody is to act before the start
        summary.version = row.version
        summary.status = row.status
        summary.decision = row.decision
    elif live is not None:
        game = live.game
        summary.version = live.version
        summary.status = _status_of(game)
        summary.decision = game.decision
        if game.current_seat is not None:
            summary.current_seat = game.current_seat
    else:
        summary.version = row.version
        summary.status = row.status
        summary.decision = row.decision
        if row.current_seat is not None:
            summary.current_seat = row.current_seat
    _summary_extras(row, live, summary)
    return summary


def game_state(row: GameRow, live: LiveGame, seat: int | None,
               into: pb.GameState | None = None) -> pb.GameState:
    """`seat`'s GameState (None: a spectator's); filled into `into` (empty) when given, as a
    response's field: copying a whole state into its response cost as much as making it."""
    game = live.game
    state = pb.GameState() if into is None else into
    _summary(row, live, into=state.summary)
    typed.put_view(state, game, seat)
    if seat is not None:
        state.viewer_seat = seat
    if game.is_over:
        state.scores.extend(int(s) for s in game.scores())
        state.winners.extend(int(w) for w in game.winners())
    return state


def _past_version_facts(
    hosting: dict[str, Any], created_at: float, rows: list[DecisionRow], version: int
) -> tuple[int, float, dict[str, Any] | None, DecisionRow | None]:
    """From stored decisions in order (from the first, or from the one ending at a snapshot):
    the last stored version at or before `version`, when it was reached, the clock then (None:
    no decision read has one) and the decision spanning `version` (None: it is stored)."""
    base, updated_at = 0, hosted.started_at(hosting, created_at)
    clock: dict[str, Any] | None = None
    for stored in rows:
        if stored.to_version > version:
            return base, updated_at, clock, stored
        base, updated_at = stored.to_version, stored.created_at
        clock = stored.action.get("clock", clock)
    return base, updated_at, clock, None


def _json_object(fields: list[tuple[str, str, bool]]) -> str:
    """A message's proto3 JSON text from its fields in number order, each (name, value's
    JSON text, whether set): the order message_to_json_dict gives, the fields that are set
    first, then the unset ones with their default values."""
    ordered = [f for f in fields if f[2]] + [f for f in fields if not f[2]]
    return "{" + ",".join(f'"{name}":{value}' for name, value, _ in ordered) + "}"


def _replay_decision_json(decision: pb.ReplayDecision) -> str:
    """The JSON text message_to_json_dict gives for `decision` (and json.dumps writes)."""
    return _json_object([
        ("version", f'"{decision.version}"', decision.version != 0),
        ("seat", str(decision.seat), decision.seat != 0),
        ("decision", json.dumps(decision.decision), decision.decision != ""),
        ("optionId", str(decision.option_id), decision.option_id != 0),
        ("name", json.dumps(decision.name), decision.name != ""),
        ("undo", "true" if decision.undo else "false", decision.undo),
        ("undone", str(decision.undone), decision.undone != 0),
    ])


def _field_bytes(number: int, data: bytes) -> bytes:
    """A length-delimited protobuf field: responses' fields concatenate into one message."""
    length, key = bytearray(), len(data)
    while key > 0x7F:
        length.append(key & 0x7F | 0x80)
        key >>= 7
    length.append(key)
    return bytes([number << 3 | 2]) + bytes(length) + data


_REPLAY_DECISIONS_FIELD = pb.GetReplayResponse.DESCRIPTOR.fields_by_name["decisions"].number


class _ReplayParts:
    """A game's replay made as far as `version`: the engine game there (replayed from the
    first snapshot, undos included), the decision ids, and each typed decision as the bytes
    of GetReplayResponse's `decisions` field and as its JSON text. A move extends them
    (_extend_replay) instead of replaying the log again. The lists are only appended to,
    so an answer made from their first n entries stays right as they grow."""

    __slots__ = ("decision_bytes", "decision_json", "game", "ids", "reply", "size", "version")

    def __init__(self, game: Any) -> None:
        self.game = game
        self.version = 0
        self.ids: list[int | str] = []
        self.decision_bytes: list[bytes] = []
        self.decision_json: list[str] = []
        self.size = 0  # bytes and JSON characters held
        self.reply: tuple[int, bool, Reply] | None = None  # the last answer made

    def reply_at(self, row: GameRow, version: int, complete: bool) -> Reply:
        """GetReplay's answer at `version` (at most self.version): byte for byte the
        GetReplayResponse of the first `version` decisions, and its JSON text."""
        if self.reply is not None and self.reply[:2] == (version, complete):
            return self.reply[2]
        full: dict[str, Any] = {
            "rules_edition": row.rules_edition,
            "ruleset": _ENGINE_RULESETS.get(row.ruleset, "birmingham"),
            "players": row.players,
            "options": row.options,
            "decisions": self.ids[:version],
        }
        if row.position_json is not None:
            full["position"] = json.loads(row.position_json)
        else:
            full["seed"] = row.seed
        document = full if complete else {k: full[k] for k in _PUBLIC_REPLAY_FIELDS if k in full}
        record_json = json.dumps(document, sort_keys=True, separators=(",", ":"))
        head = pb.GetReplayResponse(complete=complete, record_json=record_json, version=version)
        decision_bytes, decision_json = self.decision_bytes, self.decision_json

        def json_text() -> str:
            return _json_object([
                ("complete", "true" if complete else "false", complete),
                ("recordJson", json.dumps(record_json), record_json != ""),
                ("version", f'"{version}"', version != 0),
                ("decisions", "[" + ",".join(decision_json[:version]) + "]", version != 0),
            ])

        reply = Reply(
            pb.GetReplayResponse,
            make_data=lambda: head.SerializeToString() + b"".join(decision_bytes[:version]),
            json_text=functools.cache(json_text))
        self.reply = (version, complete, reply)
        return reply


def _extend_replay(game_id: str, parts: _ReplayParts, rows: list[DecisionRow],
                   version: int) -> None:
    """Brings `parts` to `version` with the stored decisions after its version, `rows`;
    the engine says what each id meant and who made it. Runs in a worker thread: `parts`
    is used by nobody else meanwhile (GetReplay's lock of the game)."""
    game = parts.game
    try:
        for stored in rows:
            if stored.from_version != parts.version:
                break
            steps: list[int | str] = (
                [brass.UNDO] if stored.action.get("undo")
                else [int(i) for i in stored.action["ids"]])
            for option_id in steps:
                at = parts.version + 1
                seat = game.current_seat
                if option_id == brass.UNDO:
                    decision = game.decision
                    undone = game.undo(seat=seat)[0]["decisions"]
                    typed = pb.ReplayDecision(version=at, seat=seat, decision=decision,
                                              undo=True, undone=undone)
                else:
                    assert isinstance(option_id, int)
                    typed = pb.ReplayDecision(
                        version=at, seat=seat, decision=game.decision, option_id=option_id,
                        name=brass.action_name(option_id, game.ruleset))
                    game.apply(option_id, seat=seat)
                field_bytes = _field_bytes(_REPLAY_DECISIONS_FIELD, typed.SerializeToString())
                text = _replay_decision_json(typed)
                parts.ids.append(option_id)
                parts.decision_bytes.append(field_bytes)
                parts.decision_json.append(text)
                parts.size += len(field_bytes) + len(text)
                parts.version = at
    except brass.EngineError as exc:
        raise ServiceError(
            "CORRUPT_GAME", f"game {game_id}: a stored decision is refused ({exc})"
        ) from exc
    if parts.version != version:
        raise ServiceError("CORRUPT_GAME", f"game {game_id}: decision log is incomplete")


def _events(ruleset: str, version: int, events: list[dict[str, Any]]) -> list[pb.GameEvent]:
    return [typed.event_message(ruleset, version, e) for e in events]


def _stored_events(ruleset: str, stored: DecisionRow) -> list[pb.GameEvent]:
    """A stored decision's events for watchers: the server's own first (a turn that timed
    out), then the engine's."""
    events = _events(ruleset, stored.to_version, stored.events)
    kind = stored.action.get("event")
    if kind:
        events.insert(0, hosted.lobby_event(kind, stored.to_version, stored.created_at,
                                            stored.seat))
    return events


_RULESET_NAMES = {value: name for name, value in pb.Ruleset.items()}
# brass.v1's rulesets and the engine's names (RULESET_UNSPECIFIED creates Birmingham)
_ENGINE_RULESETS = {pb.RULESET_BIRMINGHAM: "birmingham", pb.RULESET_PITTSBURGH: "pittsburgh"}
_RULESET_IDS = {name: value for value, name in _ENGINE_RULESETS.items()}


def _ruleset_name(ruleset: int) -> str:
    """The engine's name of a requested ruleset (unspecified: Birmingham)."""
    name = "birmingham" if ruleset == pb.RULESET_UNSPECIFIED else _ENGINE_RULESETS.get(ruleset)
    _require(name is not None, f"ruleset {ruleset} is not supported", "ruleset")
    return str(name)


# GameOptions' typed fields (Birmingham's, and auto_resolve for every ruleset)
_TYPED_OPTIONS = ("beginner", "manufacturer_iv_cost", "auto_resolve", "undo")
MAX_RULESET_OPTIONS = 64


def _request_options(message: pb.GameOptions) -> dict[str, Any]:
    """GameOptions as the engine's options: the typed fields that are set, then the
    ruleset's own by name (the engine refuses an unknown name or value, naming it)."""
    options: dict[str, Any] = {
        name: getattr(message, name) for name in _TYPED_OPTIONS if message.HasField(name)
    }
    _require(len(message.ruleset_options) <= MAX_RULESET_OPTIONS,
             f"at most {MAX_RULESET_OPTIONS} ruleset options", "options.ruleset_options")
    for name, value in message.ruleset_options.items():
        _require(name not in options, f"option {name} is given twice", f"options.{name}")
        kind = value.WhichOneof("kind")
        _require(kind in ("bool_value", "string_value", "number_value"),
                 "a ruleset option is a string, a bool or a number", f"options.{name}")
        item = getattr(value, kind)
        if kind == "number_value":
            _require(item.is_integer(), "a number option is an integer", f"options.{name}")
            item = int(item)
        options[name] = item
    return options
_STATUS_NAMES = {value: name for name, value in pb.GameStatus.items()}
_VISIBILITY_NAMES = {value: name for name, value in pb.Visibility.items()}
_END_REASON_NAMES = {value: name for name, value in pb.EndReason.items()}


def _summary_json(row: GameRow, live: LiveGame) -> dict[str, Any]:
    """The proto3 JSON of _summary(row, live), made directly."""
    game = live.game
    document = dict(_row_summary(row).json)
    document["version"] = str(live.version)
    document["status"] = _STATUS_NAMES[row.status if _is_waiting(row) else _status_of(game)]
    document["decision"] = game.decision
    document["updateTime"] = _timestamp_json(live.updated_at)
    if game.current_seat is not None and not _is_waiting(row):
        document["currentSeat"] = game.current_seat
    ended, clock = _ending_and_clock(row, live)
    document["endReason"] = _END_REASON_NAMES[ended]
    if ended != pb.END_REASON_UNSPECIFIED:
        document["status"] = "GAME_STATUS_FINISHED"
        document.pop("currentSeat", None)
    if clock is not None:
        document["clock"] = message_to_json_dict(clock)
    return document


class _StateParts:
    """A GameState made of its parts, to be written as protobuf bytes or as JSON.

    The view, the bulk of it, comes from the core as JSON text in proto3 JSON's key style,
    which REST sends as it is; gRPC gets the typed message (service/typed.py).
    """

    __slots__ = ("live", "row", "seat")

    def __init__(self, row: GameRow, live: LiveGame, seat: int | None) -> None:
        self.row, self.live, self.seat = row, live, seat

    def message(self, into: pb.GameState | None = None) -> pb.GameState:
        return game_state(self.row, self.live, self.seat, into)

    def to_json(self) -> dict[str, Any]:
        return json.loads(self.to_json_text())

    def to_json_text(self) -> str:
        """The proto3 JSON text of the GameState, the view's being the core's text."""
        game = self.live.game
        over = game.is_over
        rest = {
            "scores": [int(s) for s in game.scores()] if over else [],
            "winners": [int(w) for w in game.winners()] if over else [],
        }
        if self.seat is not None:
            rest["viewerSeat"] = self.seat
        return (
            '{"summary":' + _compact(_summary_json(self.row, self.live))
            + ',"' + game.ruleset + '":' + typed.view_json_text(game, self.seat)
            + "," + _compact(rest)[1:]
        )


def _filled(response: Any, state: _StateParts) -> Any:
    """`response` with its `state` field filled in place by `state`."""
    state.message(into=response.state)
    return response


def _compact(value: Any) -> str:
    """Compact JSON text (orjson: several times faster than json.dumps on these
    documents; non-ASCII text is written as UTF-8 rather than escaped, the same JSON)."""
    return orjson.dumps(value).decode()

def _events_json(ruleset: str, version: int,
                 events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [typed.event_json(ruleset, version, event) for event in events]


def _option_kind(option: Any) -> str:
    """The decision kind of an option (the engine names the attribute `decision`)."""
    return str(getattr(option, "decision", None) or getattr(option, "kind", ""))


def _add_compound_actions(head: pb.ListLegalActionsResponse, game: brass.Game) -> None:
    """The complete compound actions from here, into a ListLegalActionsResponse."""
    compounds, truncated = _compound_actions(game)
    for compound in compounds:
        head.compound_actions.add(key=compound.key, ids=list(compound.ids))
    head.compound_actions_truncated = truncated


def _compound_actions(game: Any) -> tuple[list[Any], bool]:
    """The engine's complete compound actions and whether its list was cut short."""
    result = game.compound_actions()
    if isinstance(result, tuple):
        compounds, truncated = result
        return list(compounds), bool(truncated)
    return list(result), False


def _require(condition: bool, message: str, field: str) -> None:
    if not condition:
        raise ServiceError("INVALID_ARGUMENT", message, field=field)


def new_game_id() -> str:
    """20 hex digits: the creation time in milliseconds (11 digits), then 36 random bits.
    Ids made later sort later, so the store's indexes on game ids take new and active games
    at their end, in a few pages, rather than all over (each commit then writes far fewer
    pages). The creation time is public anyway (GameSummary.create_time); ids are not
    secrets, tokens are."""
    return f"{time.time_ns() // 1_000_000:011x}{secrets.randbits(36):09x}"


def check_compound_length(count: int) -> None:
    """Refuses a compound action of more than MAX_COMPOUND_IDS ids (INVALID_ARGUMENT)."""
    _require(
        count <= MAX_COMPOUND_IDS,
        f"a compound action has at most {MAX_COMPOUND_IDS} ids, not {count}",
        "action.compound.ids",
    )


def _check_action_size(action: pb.Action) -> None:
    """The cheap bounds of an action, checked before any other work on the request."""
    check_compound_length(len(action.compound.ids))
    _require(
        len(action.compound_key) <= MAX_COMPOUND_KEY_CHARS,
        f"compound_key is at most {MAX_COMPOUND_KEY_CHARS} characters",
        "action.compound_key",
    )


def _check_seat_names(seat_names: list[str], players: int,
                      open_seats: set[int] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """CreateGame's seat names as stored: each a display name (names.py; the names of open
    seats are not used, so not checked), no two the same name."""
    _require(
        len(seat_names) in (0, players),
        f"seat_names must be empty or name all {players} seats",
        "seat_names",
    )
    checked = [raw if i in open_seats else display_name(raw, f"seat_names[{i}]")
               for i, raw in enumerate(seat_names)]
    seen: dict[str, int] = {}
    for seat, name in enumerate(checked):
        if seat in open_seats:
            continue
        first = seen.setdefault(name_key(name), seat)
        if first != seat:
            raise _same_name(f"seat_names[{seat}]", first, checked[first])
    return checked


def _same_name(field: str, seat: int, name: str) -> ServiceError:
    return ServiceError(
        "INVALID_ARGUMENT",
        f"{field}: seat {seat} is already named {name!r} (names are the same when they "
        "differ only in case, character width or spacing)", field=field, seat=seat,
    )


def _check_open_seats(open_seats: list[int], players: int) -> None:
    _require(
        all(0 <= seat < players for seat in open_seats),
        f"open_seats are seat indexes from 0 to {players - 1}",
        "open_seats",
    )
    _require(len(set(open_seats)) == len(open_seats), "open_seats repeat a seat", "open_seats")


_KEEP: Any = object()


def _seats_update(
    row: GameRow, names: list[str], digests: list[str], hosting: dict[str, Any],
    bot_delay: float, status: int | None = None, clock: Any = _KEEP,
) -> SeatsUpdate:
    """A change of the seats of `row` (read from the store just before) to these names,
    digests and hosting state, with the clock (kept unless given) and when the server must
    next act, worked out from the row's head."""
    now = time.time()
    clock = row.clock if clock is _KEEP else clock
    playing = (status or row.status) == pb.GAME_STATUS_IN_PROGRESS
    vacant = set(hosting.get("vacant", ()))
    open_count = sum(1 for i, d in enumerate(digests) if not d and i not in vacant)
    return SeatsUpdate(
        row.seats_revision, names, digests, open_count, status, now, hosting=hosting,
        clock=clock,
        next_due=hosted.next_due(hosting, clock, row.current_seat, playing, now, bot_delay),
    )


def _seat_set(row: GameRow, seat: int, name: str, digest: str, event: str,
              bot_delay: float) -> SeatsUpdate:
    """The seats of `row` with `seat` taken (a token's digest) or freed (digest ""), and
    the lobby event saying so."""
    names, digests = list(row.seat_names), list(row.token_hashes)
    names[seat], digests[seat] = name, digest
    hosting = hosted.changed(row)
    hosted.add_event(hosting, row, event, seat=seat, name=name)
    return _seats_update(row, names, digests, hosting, bot_delay)


def _check_name_free(row: GameRow, name: str) -> None:
    """JoinGame: no seat of the game has this name already (names.name_key)."""
    key = name_key(name)
    for seat, taken in enumerate(row.seat_names):
        if taken and row.token_hashes[seat] and name_key(taken) == key:
            raise _same_name("name", seat, taken)


def _refuse_banned(row: GameRow, hosting: dict[str, Any], digest: str, name: str) -> None:
    """JoinGame: the host banned this address, or this name, from the game."""
    banned = hosting.get("banned", {})
    if digest in banned.get("addresses", ()) or name_key(name) in banned.get("names", ()):
        raise ServiceError(
            "BANNED", f"the host of game {row.game_id} has barred this client or this name "
            "from joining it", game_id=row.game_id,
        )


def _ban(hosting: dict[str, Any], joiner: str | None, name: str) -> None:
    """RevokeSeatToken with ban: bars the seat's joiner (its address) and its name from
    JoinGame; the most recent MAX_BANS_PER_GAME of each are kept."""
    banned = hosting.setdefault("banned", {})
    for kind, value in (("addresses", joiner), ("names", name_key(name) if name else None)):
        if value is None:
            continue
        kept = [item for item in banned.get(kind, ()) if item != value]
        banned[kind] = [*kept, value][-MAX_BANS_PER_GAME:]


def _check_game_id(game_id: str) -> None:
    _require(game_id != "", "game_id is required", "game_id")
    _require(len(game_id) <= MAX_GAME_ID_CHARS, "game_id is too long", "game_id")


def _encode_cursor(cursor: tuple[float, str]) -> str:
    raw = json.dumps([cursor[0], cursor[1]]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(token: str) -> tuple[float, str]:
    try:
        # The tokens made here are under 100 characters: a longer one (say deeply nested
        # JSON) is refused before it is parsed.
        if len(token) > MAX_PAGE_TOKEN_CHARS:
            raise ValueError("page token too long")
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        created_at, game_id = json.loads(raw)
        if type(created_at) not in (int, float) or type(game_id) is not str:
            raise TypeError("not a cursor")
        game_id.encode()  # no lone surrogates: the store takes UTF-8
        if not math.isfinite(created_at):
            raise ValueError("not a time")
        return float(created_at), game_id
    except (binascii.Error, ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise ServiceError(
            "BAD_PAGE_TOKEN", "page_token is not a token returned by ListGames", field="page_token"
        ) from exc


class GameService:
    def __init__(self, store: Store, settings: ServiceSettings | None = None) -> None:
        self.store = store
        self.settings = settings or ServiceSettings()
        self.broker = ChangeBroker()
        self.watch_limiter = WatchLimiter(
            rate_per_second=self.settings.watch_rate_per_second,
            burst=self.settings.watch_burst,
            max_total=self.settings.max_watchers,
            max_per_game=self.settings.max_watchers_per_game,
            max_per_client=self.settings.max_watchers_per_client,
            max_per_address=self.settings.max_watchers_per_address,
            max_per_connection=self.settings.max_watchers_per_connection,
        )
        self.addresses = ClientAddresses(
            parse_networks(self.settings.trusted_proxies), self.settings.forwarded_header
        )
        self.create_quota = RateQuota(
            self.settings.create_game_rate, "games created", "create_game_rate"
        )
        self.past_read_quota = RateQuota(
            self.settings.past_read_rate, "reads of past versions and replays", "past_read_rate"
        )
        self.join_quota = RateQuota(self.settings.join_game_rate, "games joined",
                                    "join_game_rate")
        self.waiting_seats = SeatHoldings()
        self._bot_secret = self.settings.bot_secret or new_bot_secret()
        self._operator_digest = (
            auth.hash_token(self.settings.operator_token) if self.settings.operator_token
            else None
        )
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        # (decision, option id) -> (encoded LegalOption field, its JSON); bounded by the
        # action space times the decision kinds.
        self._option_cache: dict[tuple[str, str, int], tuple[bytes, str]] = {}
        # GetReplay's parts by game: the same for every caller, and a replay from scratch
        # reads and replays the game's whole log (about 10 ms for a finished 4-player game,
        # up to about 0.2 s at max_undo_version); kept, a viewer asking again costs
        # nothing, and after a move only the new decisions are read and replayed.
        self._replays: OrderedDict[str, _ReplayParts] = OrderedDict()
        self._replay_bytes = 0  # the kept parts' sizes (_ReplayParts.size), summed
        self._replay_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        # Past versions (GetGame at_version) by (game, version), _PAST_STATES_KEPT at most.
        self._past_states: OrderedDict[tuple[str, int], LiveGame] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.batches = BatchRunner(self.settings.batch_limits())
        # Bot work waits for a turn in a lane (FairSlots: round-robin between creators) with
        # a worker for each of its turns: the seats' bots in one, the clock's stand-ins in
        # their own, so a turn past its deadline never waits behind bot searches.
        bot_workers = self.settings.bot_workers or available_cpus()
        self._bot_lane = FairSlots(bot_workers)
        self._clock_lane = FairSlots(1)
        self.bots = BotPool(bot_workers + 1, self.settings.batch_worker_nice,
                            self.settings.bot_move_timeout_seconds)
        self.bot_seat_quota = RateQuota(self.settings.bot_seat_rate, "bot seats",
                                        "bot_seat_rate")
        self.bot_game_quota = RateQuota(self.settings.bot_game_rate, "games with bots",
                                        "bot_game_rate")
        self.all_bot_game_quota = RateQuota(self.settings.all_bot_game_rate,
                                            "games of bots only", "all_bot_game_rate")
        self._follower: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_wake: asyncio.Event | None = None
        # Games this process is making the server's move in (a bot's, a timeout's), and the
        # claims it holds on them (given back by stop()).
        self._moving: dict[str, asyncio.Task[None]] = {}
        self._claims: dict[str, _Claim] = {}
        store.add_listener(self._on_store_change)

    async def start(self) -> None:
        await self.refresh_gauges()
        if self.store.change_mark() is not None:
            self._follower = asyncio.create_task(self._follow_other_processes())
        if self.settings.abandoned_game_days > 0:
            self._sweeper = asyncio.create_task(self._sweep_periodically())
        self._timer_wake = asyncio.Event()
        self._timer = asyncio.create_task(self._run_timer())

    # ------------------------------------------------------------ the server's own moves

    def _wake_timer(self, due: float | None) -> None:
        """Looks for due games now rather than at the next poll (a bot is to move)."""
        if (due is not None and self._timer_wake is not None
                and due <= time.time() + self.settings.timer_poll_seconds):
            self._timer_wake.set()

    async def _run_timer(self) -> None:
        """The server-side timer of every process: finds the games due (a bot's turn, a
        turn past its deadline) and makes their move. Every process runs one; the store's
        claim (claim_due: conditional on the version, the seats and the due time) lets only
        one of them act on a game."""
        assert self._timer_wake is not None
        while True:
            try:
                room = self.settings.max_server_moves - len(self._moving)
                if room > 0:
                    due = await self.store.due_games(time.time(), room + len(self._moving))
                    for game_id in due:
                        if game_id not in self._moving and len(self._moving) < (
                            self.settings.max_server_moves
                        ):
                            task = asyncio.create_task(self._server_move(game_id))
                            self._moving[game_id] = task
                            task.add_done_callback(
                                lambda _t, g=game_id: self._moved(g))
            except ServiceError as error:  # the store is down: try again next time
                log.warning("timer_failed", error=error.message)
            except Exception:  # never let the timer die quietly
                log.exception("timer_failed")
            self._timer_wake.clear()
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
            # cancellation that arrives as the wake-up does, and the timer would outlive stop()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.timer_poll_seconds):
                    await self._timer_wake.wait()

    def _moved(self, game_id: str) -> None:
        self._moving.pop(game_id, None)
        if self._timer_wake is not None:
            self._timer_wake.set()  # the game may be due again (the next bot's turn)

    async def _server_move(self, game_id: str) -> None:
        try:
            await self._make_server_move(game_id)
        except asyncio.CancelledError:
            raise
        except ServiceError as error:
            log.warning("server_move_failed", game_id=game_id, reason=error.reason,
                        error=error.message)
        except Exception:
            log.exception("server_move_failed", game_id=game_id)

    @staticmethod
    def _owed(row: GameRow, live: LiveGame, now: float) -> str | None:
        """The move the server owes the game now: its bot's decision (BY_BOT), a stand-in's
        for a turn past its deadline (BY_TIMEOUT), a forfeit (_FORFEIT), or none."""
        hosting, game = hosted.hosting_of(row), live.game
        seat = game.current_seat
        if seat is None or not _playing(row, game):
            return None
        if hosted.is_bot_seat(hosting, seat):
            return hosted.BY_BOT
        deadline = hosted.deadline(hosting, _clock_of(row, live))
        if deadline is None or deadline > now:
            return None
        if hosting.get("on_timeout") == pb.TIMEOUT_POLICY_FORFEIT:
            return _FORFEIT
        return hosted.BY_TIMEOUT

    async def _make_server_move(self, game_id: str) -> None:
        """One move the server owes a due game: its bot's decision, a stand-in's decision for
        a turn past its deadline, or a forfeit (TIMEOUT_POLICY_FORFEIT). A bot's work waits
        for its creator's turn in a lane (round-robin between creators); a forfeit waits for
        nothing."""
        row, live = await self._live(game_id)
        owed = self._owed(row, live, time.time())
        if owed in (hosted.BY_BOT, hosted.BY_TIMEOUT):
            lane = self._bot_lane if owed == hosted.BY_BOT else self._clock_lane
            attended = _attended(row)
            async with lane.turn(_creator_of(row), urgent=attended):
                # The wait may have been long: the game may have moved meanwhile (here, or
                # in another process that took it). With a person waiting for it, the seat's
                # whole turn (one or more decisions) is played in this lane turn.
                mover = None
                while True:
                    row, live = await self._live(game_id)
                    owed = self._owed(row, live, time.time())
                    if owed not in (hosted.BY_BOT, hosted.BY_TIMEOUT):
                        break
                    seat = live.game.current_seat
                    if mover is not None and (not attended or seat != mover or (
                            row.next_due is not None and row.next_due > time.time())):
                        return  # back in line for the next decision
                    if not await self._bot_move(game_id, row, live, owed):
                        return
                    mover = seat
        if owed == _FORFEIT:
            seat = live.game.current_seat
            async with self._claimed(game_id, live.version, row.seats_revision) as claimed:
                if claimed:
                    await self._change_seats(
                        game_id, RequestRecord("timer", "Forfeit", new_request_id()),
                        lambda fresh: self._forfeit(fresh, live.version, seat))
                    log.info("seat_forfeited", game_id=game_id, seat=seat)
            return
        if owed is None:
            # The stored due time is a lapsed claim or out of date: put the right one.
            now = time.time()
            due = hosted.next_due(hosted.hosting_of(row), _clock_of(row, live),
                                  live.game.current_seat, _playing(row, live.game), now,
                                  self._bot_delay)
            await self.store.claim_due(game_id, live.version, row.seats_revision, now, due)

    async def _bot_move(self, game_id: str, row: GameRow, live: LiveGame, by: str) -> bool:
        """The decision of the seat's bot (BY_BOT) or of the stand-in (BY_TIMEOUT), made
        under this process's claim and stored on the version it was made for; whether it
        was stored."""
        hosting, game = hosted.hosting_of(row), live.game
        seat = game.current_seat
        assert seat is not None
        spec = (hosted.bots_of(hosting)[seat] if by == hosted.BY_BOT
                else str(hosting.get("stand_in") or hosted.DEFAULT_STAND_IN))
        async with self._claimed(game_id, live.version, row.seats_revision) as claimed:
            if not claimed:
                return False  # another process took it, or the game moved meanwhile
            option = await self.bots.choose(game, spec, seat,
                                            decision_seed(self._bot_secret, game_id,
                                                          live.version))
            record = RequestRecord("timer", "ServerMove", new_request_id(), game_id=game_id)
            async with self._lock_for(game_id):
                row, current = await self._live(game_id)
                if current.version != live.version:
                    return False  # moved meanwhile: the new head says what is due
                request = pb.SubmitActionRequest(
                    game_id=game_id, action=pb.Action(option_id=option),
                    expected_version=live.version)
                try:
                    stored = await self._apply_and_store(
                        request, record, None, row, current, seat, f"{by}:{seat}:{option}",
                        by=by)
                except ServiceError as error:
                    log.warning("server_move_refused", game_id=game_id, reason=error.reason)
                    return False
        if stored is not None:
            log.info("server_move", game_id=game_id, seat=seat, by=by, bot=spec,
                     version=record.version)
        return stored is not None

    @contextlib.asynccontextmanager
    async def _claimed(self, game_id: str, version: int,
                       seats_revision: int) -> AsyncIterator[bool]:
        """Claims the due game (claim_due: only if still at `version` and `seats_revision`
        and due) for server_move_lease_seconds, renewed every third of that while the body
        runs (a bot's search may take longer than a lease), so that a process that dies
        holds a game only briefly; the body is told whether the claim was won."""
        lease_seconds = self.settings.server_move_lease_seconds
        now = time.time()
        claim = _Claim(version, seats_revision, now + lease_seconds)
        if not await self.store.claim_due(game_id, version, seats_revision, now, claim.lease):
            yield False
            return
        self._claims[game_id] = claim
        renewal = asyncio.create_task(self._renew_claim(game_id, claim, lease_seconds))
        try:
            yield True
        finally:
            renewal.cancel()
            if self._claims.get(game_id) is claim:
                del self._claims[game_id]

    async def _renew_claim(self, game_id: str, claim: _Claim, lease_seconds: float) -> None:
        while True:
            await asyncio.sleep(lease_seconds / 3)
            lease = time.time() + lease_seconds
            try:
                # Conditional on the lease it holds: a process that took the game after a
                # lapse moved next_due past it, and then this one stops renewing (its
                # decision is refused anyway, being made for an older version or claim).
                renewed = await self.store.claim_due(
                    game_id, claim.version, claim.seats_revision, claim.lease, lease)
            except Exception as exc:  # the store is down: try again at the next renewal
                log.warning("claim_renewal_failed", game_id=game_id, error=str(exc))
                continue
            if not renewed:
                return
            claim.lease = lease

    async def _give_back_claims(self, claims: dict[str, _Claim]) -> int:
        """Makes the claimed games due now again (for another process, or this server when
        it is back), each only if this process's claim still holds it; how many."""
        given = 0
        for game_id, claim in claims.items():
            with contextlib.suppress(Exception):  # a stop must not fail on the store
                given += await self.store.claim_due(
                    game_id, claim.version, claim.seats_revision, claim.lease, time.time())
        return given

    def _forfeit(self, row: GameRow, version: int, seat: int) -> tuple[SeatsUpdate, None]:
        if row.version != version or hosted.is_ended(row):
            raise ServiceError("STALE_VERSION", "the game moved before the forfeit")
        return self._resignation(row, seat, forfeit=True), None

    async def _sweep_periodically(self) -> None:
        while True:
            try:
                await self.delete_abandoned_games()
            except ServiceError as error:  # the store is down: try again next time
                log.warning("expiry_sweep_failed", error=error.message)
            except Exception:  # never let the sweep die quietly
                log.exception("expiry_sweep_failed")
            await asyncio.sleep(self.settings.expiry_sweep_seconds)

    async def delete_abandoned_games(self, now: float | None = None) -> int:
        """Deletes the games in progress whose last decision (or creation) is more than
        `abandoned_game_days` before `now`, and the games waiting for players that long
        since their creation or last change of seats; returns how many. A game moved
        meanwhile is kept (the store checks again as it deletes)."""
        days = self.settings.abandoned_game_days
        if days <= 0:
            return 0
        before = (time.time() if now is None else now) - days * 86_400

        async def delete(game_id: str, status: int) -> bool:
            async with self._lock_for(game_id):
                if not await self.store.delete_game_if_idle(game_id, status, before):
                    return False
                self._cache.pop(game_id, None)
                return True

        deleted = 0
        for status in (pb.GAME_STATUS_IN_PROGRESS, pb.GAME_STATUS_WAITING):
            while True:
                game_ids = await self.store.idle_games(status, before, _SWEEP_BATCH)
                done = await asyncio.gather(*(delete(game_id, status) for game_id in game_ids))
                deleted += sum(done)
                if len(game_ids) < _SWEEP_BATCH or not any(done):
                    break
        if deleted:
            CACHED_GAMES.set(len(self._cache))
            log.info("abandoned_games_deleted", games=deleted, idle_days=days)
            await self.refresh_gauges()
        return deleted

    async def refresh_gauges(self) -> None:
        """Sets the store-wide gauge from the store (other processes move it too)."""
        with contextlib.suppress(StoreUnavailable):
            ACTIVE_GAMES.set(await self.store.count_games(pb.GAME_STATUS_IN_PROGRESS))

    async def _follow_other_processes(self) -> None:
        """Wakes this process's watchers soon after another process sharing the SQLite
        file (another worker of `brass serve --workers N`) writes: each woken watcher checks
        its game's stored version and sends what is new. Without this they would only
        notice at their next `watch_poll_seconds` re-check."""
        mark = self.store.change_mark()
        while True:
            await asyncio.sleep(self.settings.other_writers_poll_seconds)
            now = self.store.change_mark()
            if now != mark:
                mark = now
                self.broker.wake_all()

    def client_address(self, peer: str, headers: Callable[[str], str | None]) -> str:
        """The client's address: `peer` (the TCP peer's host) unless it is a trusted proxy
        naming the client in its forwarding header; `headers(lower name)` reads a header
        (repeated ones joined with commas)."""
        if not self.addresses.trusted:
            return peer
        return self.addresses.resolve(peer, headers(self.addresses.header))

    async def stop(self) -> None:
        """A graceful stop: the server's moves in progress are abandoned and their games'
        claims given back, so that they are due at once for another process or a restart
        (rather than after the lease), then everything close() closes is closed."""
        claims = dict(self._claims)
        moving = [task for task in (self._timer, *self._moving.values()) if task is not None]
        for task in moving:
            task.cancel()
        await asyncio.gather(*moving, return_exceptions=True)
        if claims:
            log.info("server_moves_given_back", games=await self._give_back_claims(claims))
        self.close()

    def close(self) -> None:
        for task in (self._follower, self._sweeper, self._timer, *self._moving.values()):
            if task is not None:
                task.cancel()
        self.batches.close()
        self.bots.close()

    def _on_store_change(self, game_id: str, version: int) -> None:
        self.broker.publish(game_id, version)

    # ----------------------------------------------------------------- loading and cache

    def _lock_for(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def _remember(self, row: GameRow, live: LiveGame, checked_mark: int | None = None,
                  checked: bool = False) -> _Entry:
        """Keeps `live` as the game's copy in memory; `checked` when it was just read from
        (or checked against) the store under `checked_mark`."""
        entry = self._cache.get(row.game_id)
        if entry is None:
            entry = self._cache[row.game_id] = _Entry(row, live, checked_mark)
            while len(self._cache) > self.settings.cache_size:
                self._cache.popitem(last=False)
            CACHED_GAMES.set(len(self._cache))
        else:
            entry.live = live
            if checked:
                entry.checked_mark = checked_mark
            self._cache.move_to_end(row.game_id)
        return entry

    async def _row(self, game_id: str) -> GameRow:
        _check_game_id(game_id)
        try:
            row = await self.store.get_game(game_id)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", "the game store is unavailable; retry") from exc
        if row is None:
            raise ServiceError("UNKNOWN_GAME", f"no game has id {game_id!r}", game_id=game_id)
        return row

    async def _head(self, game_id: str) -> int:
        """The stored version; the row in memory is read again when the seats changed
        since (a token reissued by another process is refused at once)."""
        try:
            head = await self.store.head(game_id)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", "the game store is unavailable; retry") from exc
        if head is None:
            raise ServiceError("UNKNOWN_GAME", f"no game has id {game_id!r}", game_id=game_id)
        version, seats_revision = head
        entry = self._entry(game_id)
        if entry is not None and entry.row.seats_revision != seats_revision:
            entry.row = await self._row(game_id)
        return version

    async def _live(self, game_id: str, verify: bool = True) -> tuple[GameRow, LiveGame]:
        """The game's row and its in-memory game, at the stored head version.

        The row of a game waiting for players is read again each time: its seats and
        status change (JoinGame, LeaveGame, StartGame) without a new version. Once started,
        seats are fixed, so the row in memory is used."""
        row, live = await self._live_game(game_id, verify)
        if _is_waiting(row):
            row = await self._row(game_id)
            entry = self._entry(game_id)
            if entry is not None:
                entry.row = row
        return row, live

    async def _live_game(self, game_id: str, verify: bool) -> tuple[GameRow, LiveGame]:
        """The game's row and its in-memory game, at the stored head version.

        A game in memory is used as it is while the store's change mark of the game says
        that no other process has written it since it was last checked (SQLite); otherwise
        it is checked
        against the stored head (one indexed read of its version), since another replica
        may have moved it. `verify=False` skips the check for SubmitAction, whose commit is
        conditional on the version anyway (a stale copy only costs a retry).
        """
        entry = self._entry(game_id)
        if entry is not None:
            if not verify:
                self._cache.move_to_end(game_id)
                return entry.row, entry.live
            mark = self.store.change_mark(game_id)
            if mark is not None and entry.checked_mark == mark:
                self._cache.move_to_end(game_id)
                return entry.row, entry.live
            head = await self._head(game_id)
            entry = self._entry(game_id) or entry  # another request may have moved it
            live = entry.live
            if live.version >= head:
                # Equal, or this replica committed a later version while the head was read.
                self._remember(entry.row, live, mark, checked=True)
                return entry.row, live
            rows = await self.store.decisions_after(game_id, live.version, up_to=head)
            current = self._entry(game_id) or entry
            if current.live.version >= head:
                return current.row, current.live
            caught_up = self._apply_stored(current.live, rows)
            if caught_up.version == head:
                self._remember(current.row, caught_up, mark, checked=True)
                return current.row, caught_up
        # Not in memory, or it cannot be brought forward: restore from the store.
        mark = self.store.change_mark(game_id)
        row = await self._row(game_id)
        live = await self._restore(row)
        entry = self._entry(game_id)
        if entry is not None and entry.live.version >= live.version:
            return entry.row, entry.live
        self._remember(row, live, mark, checked=True)
        return row, live

    async def _is_current(self, game_id: str, live: LiveGame) -> bool:
        """Whether `live` is still the stored head of the game."""
        entry = self._entry(game_id)
        mark = self.store.change_mark(game_id)
        if entry is not None and entry.live is live and mark is not None:
            if entry.checked_mark == mark:
                return True
        return await self._head(game_id) == live.version

    def _entry(self, game_id: str) -> _Entry | None:
        return self._cache.get(game_id)

    async def _snapshot_game(self, row: GameRow, version: int | None) -> tuple[Any, int]:
        """The game of the newest snapshot at or before `version` (None: any) taken at an
        undo barrier (docs/UNDO.md): one taken within a turn lacks the turn's start, which
        an undo replays from, so an earlier snapshot is used (the first is at version 0)."""
        at_most = version
        while True:
            snapshot = await self.store.latest_snapshot(row.game_id, at_most=at_most)
            if snapshot is None:
                raise ServiceError("CORRUPT_GAME", f"game {row.game_id} has no snapshot")
            try:
                game = brass.Game.restore(snapshot.data)
            except brass.EngineError as exc:
                log.error("snapshot_rejected", game_id=row.game_id, error=str(exc))
                raise ServiceError(
                    "CORRUPT_GAME",
                    f"the stored snapshot of game {row.game_id} cannot be restored",
                ) from exc
            if snapshot.version == 0 or game.undo_depth == 0:
                return game, snapshot.version
            at_most = snapshot.version - 1

    async def _restore(self, row: GameRow) -> LiveGame:
        game, base = await self._snapshot_game(row, None)
        rows = await self.store.decisions_after(row.game_id, base, up_to=row.version)
        live = self._apply_stored(LiveGame(game, base, row.created_at), rows, in_place=True)
        if live.version != row.version:
            raise ServiceError(
                "CORRUPT_GAME",
                f"game {row.game_id} restores to version {live.version}, not {row.version}",
            )
        return LiveGame(live.game, live.version, row.updated_at, row.clock)

    def _apply_stored(
        self, live: LiveGame, rows: list[DecisionRow], in_place: bool = False
    ) -> LiveGame:
        """Re-applies the stored decisions that `live` lacks; returns the later game."""
        game = live.game if in_place else live.game.clone()
        version, updated_at, clock = live.version, live.updated_at, live.clock
        for stored in rows:
            if stored.to_version <= version:
                continue
            if stored.from_version != version:
                raise ServiceError(
                    "CORRUPT_GAME",
                    f"game {stored.game_id}: decision log jumps from {version} to "
                    f"{stored.from_version}",
                )
            try:
                if stored.action.get("undo"):
                    game.undo(seat=stored.seat)
                elif stored.action["compound"]:
                    game.apply_compound(list(stored.action["ids"]), seat=stored.seat)
                else:
                    game.apply(stored.action["ids"][0], seat=stored.seat)
            except brass.EngineError as exc:
                raise ServiceError(
                    "CORRUPT_GAME",
                    f"game {stored.game_id}: stored decision at version {stored.from_version} "
                    f"is refused by the engine ({exc})",
                ) from exc
            if stored.state_hash is not None and game.state_hash() != stored.state_hash:
                raise ServiceError(
                    "CORRUPT_GAME",
                    f"game {stored.game_id}: re-applying the decision at version "
                    f"{stored.from_version} gives another state than the one stored",
                )
            version, updated_at = stored.to_version, stored.created_at
            clock = stored.action.get("clock", clock)
        return LiveGame(game, version, updated_at, clock)

    # ------------------------------------------------------------------------ callers

    @staticmethod
    def _seat_of(row: GameRow, caller: Caller) -> int | None:
        """The caller's seat, None for a spectator; a token that fits no seat is refused."""
        if caller.token is None:
            return None
        seat = auth.seat_of_token(caller.token, row.token_hashes)
        if seat is None and auth.token_matches(caller.token, row.host_token_hash):
            return None  # the host sees what a spectator sees
        if seat is None:
            raise ServiceError(
                "UNAUTHENTICATED", f"the token is not a seat token of game {row.game_id}"
            )
        return seat

    async def authenticate(self, game_id: str, caller: Caller) -> None:
        """Refuses (UNAUTHENTICATED) a token that is neither a seat token nor the host token
        of the game, read from the store; an unknown game, or no token, passes."""
        try:
            row = await self._row(game_id)
        except ServiceError:
            return
        self._seat_of(row, caller)

    def is_operator(self, caller: Caller) -> bool:
        return auth.is_operator(caller.token, self._operator_digest)

    def require_operator(self, caller: Caller, what: str) -> None:
        """Refuses a caller without the operator token, before anything else of the request
        is looked at: UNAUTHENTICATED without a token (the server has one), OPERATOR_ONLY
        with another token or when the server has none."""
        if caller.token is None and self._operator_digest is not None:
            raise ServiceError(
                "UNAUTHENTICATED", f"{what} needs the server's operator token "
                "(Authorization: Bearer …)",
            )
        if not self.is_operator(caller):
            raise ServiceError(
                "OPERATOR_ONLY",
                f"{what} needs the server's operator token (Authorization: Bearer …)"
                if self._operator_digest is not None
                else f"{what} is disabled on this server (it has no operator token)",
            )

    def _require_seat(self, row: GameRow, caller: Caller, what: str) -> int:
        if _is_waiting(row):
            raise ServiceError(
                "GAME_NOT_STARTED",
                f"game {row.game_id} is waiting for players; {what} is possible once the "
                "host starts it",
                game_id=row.game_id,
            )
        return self._seat_with_token(row, caller, what)

    def _seat_with_token(self, row: GameRow, caller: Caller, what: str) -> int:
        seat = self._seat_of(row, caller)
        if seat is None:
            raise ServiceError(
                "UNAUTHENTICATED", f"{what} needs the seat's token (Authorization: Bearer …)"
            )
        return seat

    # ----------------------------------------------------------------------- creation

    async def create_game(
        self, request: pb.CreateGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.CreateGameResponse:
        ruleset = _ruleset_name(request.ruleset)
        _require(2 <= request.players <= 4, "players must be 2, 3 or 4", "players")
        _check_open_seats(list(request.open_seats), request.players)
        seat_names = _check_seat_names(list(request.seat_names), request.players,
                                       set(request.open_seats))
        _require(
            request.visibility in _VISIBILITY_NAMES, "visibility is not a Visibility",
            "visibility",
        )
        hosting = self._new_hosting(request)
        operator = self.is_operator(caller)
        hosting["creator"] = _creator_digest(caller, operator)
        hosting["host_address"] = address_digest(caller)  # not limited per game in joins
        if not operator:
            bots = len(hosting["bots"])
            self._admit(address_identity(caller), [
                (self.create_quota, 1),
                (self.bot_seat_quota, bots),
                (self.bot_game_quota, 1 if bots else 0),
                (self.all_bot_game_quota, 1 if bots == request.players else 0),
            ])
        seed = request.seed if request.HasField("seed") else secrets.randbits(63)
        options = _request_options(request.options)
        try:
            game = brass.Game.new(players=request.players, seed=seed, ruleset=ruleset,
                                  options=options)
        except brass.EngineError as exc:
            raise from_engine_error(exc) from exc
        # Store the options the engine actually used, so the replay record is complete.
        used_options = game.replay_record().get("options", options)
        return await self._store_new_game(
            game, seat_names, seed=seed, options=used_options,
            position_json=None, record=record, open_seats=set(request.open_seats),
            visibility=request.visibility or pb.VISIBILITY_PUBLIC, hosting=hosting,
        )

    @staticmethod
    def _admit(client: str, counts: list[tuple[RateQuota, int]]) -> None:
        """Counts against each quota, or against none when one of them refuses."""
        wanted = [(quota, count) for quota, count in counts if count]
        for quota, count in wanted:
            quota.admit(client, count=count, record=False)
        for quota, count in wanted:
            quota.admit(client, count=count)

    def _new_hosting(self, request: pb.CreateGameRequest) -> dict[str, Any]:
        """The hosting settings of CreateGame (bot seats, clock, policies), checked."""
        bots: dict[int, str] = {}
        cap, cost = self.settings.bot_max_mcts_iterations, self.settings.bot_max_search_cost
        for index, bot_seat in enumerate(request.bot_seats):
            field_name = f"bot_seats[{index}]"
            _require(0 <= bot_seat.seat < request.players,
                     f"a bot seat is a seat index from 0 to {request.players - 1}",
                     f"{field_name}.seat")
            _require(bot_seat.seat not in bots, f"seat {bot_seat.seat} has two bots",
                     f"{field_name}.seat")
            _require(bot_seat.seat not in request.open_seats,
                     f"seat {bot_seat.seat} is open and a bot seat", f"{field_name}.seat")
            bots[bot_seat.seat] = check_seat_bot(bot_seat.bot, cap, f"{field_name}.bot",
                                                 cost)
        stand_in = check_seat_bot(request.options.stand_in_bot or hosted.DEFAULT_STAND_IN,
                                  cap, "options.stand_in_bot", cost)
        clock = hosted.clock_settings(request.options.clock)
        return hosted.new_hosting(request.options, bots, stand_in, clock)

    async def create_game_from_position(
        self, request: pb.CreateGameFromPositionRequest, caller: Caller, record: RequestRecord
    ) -> pb.CreateGameResponse:
        self.require_operator(caller, "CreateGameFromPosition")
        _require(
            request.ruleset == pb.RULESET_UNSPECIFIED or request.ruleset in _ENGINE_RULESETS,
            f"ruleset {request.ruleset} is not supported",
            "ruleset",
        )
        _require(request.position_json != "", "position_json is required", "position_json")
        if len(request.position_json) > MAX_POSITION_CHARS:
            raise ServiceError(
                "BAD_POSITION", f"position_json is over {MAX_POSITION_CHARS} characters",
                field="position_json",
            )
        try:
            json.loads(request.position_json)
        except ValueError as exc:
            raise ServiceError(
                "BAD_POSITION", f"position_json is not valid JSON: {exc}", field="position_json"
            ) from exc
        except RecursionError as exc:
            raise ServiceError(
                "BAD_POSITION", "position_json is nested too deeply", field="position_json"
            ) from exc
        try:
            game = brass.Game.from_position(request.position_json)
        except brass.EngineError as exc:
            raise from_engine_error(exc) from exc
        except RecursionError as exc:
            raise ServiceError(
                "BAD_POSITION", "position_json is nested too deeply", field="position_json"
            ) from exc
        # unspecified: the position's own ruleset; else the two must agree
        if request.ruleset != pb.RULESET_UNSPECIFIED and game.ruleset != _ENGINE_RULESETS[
            request.ruleset
        ]:
            raise ServiceError(
                "BAD_POSITION",
                f"the position is a {game.ruleset} position, not "
                f"{_ENGINE_RULESETS[request.ruleset]}",
                field="ruleset",
            )
        # the engine's own rewrite is stored, never the client's text
        canonical = json.dumps(game.replay_record()["position"], separators=(",", ":"))
        return await self._store_new_game(
            game, list(request.seat_names), seed=None, options={},
            position_json=canonical, record=record,
        )

    async def _store_new_game(
        self,
        game: Any,
        seat_names: list[str],
        *,
        seed: int | None,
        options: dict[str, Any],
        position_json: str | None,
        record: RequestRecord,
        open_seats: set[int] = frozenset(),  # type: ignore[assignment]
        visibility: int = pb.VISIBILITY_PUBLIC,
        hosting: dict[str, Any] | None = None,
    ) -> pb.CreateGameResponse:
        players = game.num_players
        seat_names = _check_seat_names(seat_names, players, open_seats)
        bots = hosted.bots_of(hosting or {})
        names = seat_names or [
            f"Bot ({bots[i]})" if i in bots else f"Player {i + 1}" for i in range(players)
        ]
        names = ["" if i in open_seats else name for i, name in enumerate(names)]
        tokens = ["" if i in open_seats or i in bots else auth.new_token()
                  for i in range(players)]
        digests = [hosted.BOT_DIGEST if i in bots else auth.hash_token(t) if t else ""
                   for i, t in enumerate(tokens)]
        host_token = auth.new_token()
        now = time.time()
        started = not open_seats
        clock = (hosted.clock_start(hosting, players, game.current_seat, now)
                 if hosting is not None and started else None)
        if hosting is not None and started:
            hosting["started_at"] = now
        row = GameRow(
            game_id=new_game_id(),
            ruleset=_RULESET_IDS[game.ruleset],
            rules_edition=int(game.rules_edition),
            players=players,
            seed=seed,
            options=options,
            position_json=position_json,
            seat_names=names,
            token_hashes=digests,
            created_at=now,
            updated_at=now,
            version=0,
            status=pb.GAME_STATUS_WAITING if open_seats else _status_of(game),
            current_seat=game.current_seat,
            decision=game.decision,
            visibility=visibility,
            host_token_hash=auth.hash_token(host_token),
            open_seats=len(open_seats),
            hosting=hosting,
            clock=clock,
            next_due=hosted.next_due(hosting or {}, clock, game.current_seat,
                                     started and not game.is_over, now,
                                     self.settings.bot_move_delay_seconds),
        )
        live = LiveGame(game, 0, now, clock)
        try:
            mark = await self.store.create_game(row, Snapshot(0, game.snapshot()))
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", "the game store is unavailable; retry") from exc
        self._remember(row, live, mark, checked=True)
        record.game_id, record.version = row.game_id, 0
        self._wake_timer(row.next_due)
        return pb.CreateGameResponse(
            game_id=row.game_id,
            seats=[
                pb.SeatToken(seat=i, name=names[i], token=tokens[i])
                for i in range(players) if tokens[i]
            ],
            state=game_state(row, live, None),
            host_token=host_token,
        )

    # -------------------------------------------------------------------------- lobby

    async def _change_seats(
        self, game_id: str, record: RequestRecord,
        change: Callable[[GameRow], tuple[SeatsUpdate, Any]],
    ) -> tuple[GameRow, Any]:
        """Reads the game's row, lets `change` check it and say the new seats (it raises
        to refuse), and stores them if nobody changed the seats meanwhile; otherwise reads
        again and retries. Returns the stored row and what `change` returned beside."""
        _check_game_id(game_id)
        record.game_id = game_id
        async with self._lock_for(game_id):  # this process's changes wait their turn
            for _ in range(_SEATS_ATTEMPTS):
                row = await self._row(game_id)
                update, extra = change(row)
                try:
                    applied = await self.store.update_seats(game_id, update)
                except StoreUnavailable as exc:
                    raise ServiceError(
                        "UNAVAILABLE", "the game store is unavailable; retry"
                    ) from exc
                if applied:
                    stored = await self._row(game_id)
                    entry = self._entry(game_id)
                    if entry is not None:
                        entry.row = stored
                    self.broker.publish(game_id, stored.version)
                    self._wake_timer(stored.next_due)
                    return stored, extra
        raise ServiceError("UNAVAILABLE", "the seats keep changing; retry")

    @staticmethod
    def _require_waiting(row: GameRow, what: str) -> None:
        if not _is_waiting(row):
            raise ServiceError(
                "GAME_STARTED", f"game {row.game_id} has started: {what} is only possible "
                "while it waits for players", game_id=row.game_id,
            )

    @staticmethod
    def _require_host(row: GameRow, caller: Caller, what: str) -> None:
        if caller.token is None:
            raise ServiceError(
                "UNAUTHENTICATED", f"{what} needs the host token (Authorization: Bearer …)"
            )
        if not auth.token_matches(caller.token, row.host_token_hash):
            raise ServiceError(
                "NOT_HOST", f"{what} needs the host token of game {row.game_id}",
                game_id=row.game_id,
            )

    async def reissue_seat_token(
        self, request: pb.ReissueSeatTokenRequest, caller: Caller, record: RequestRecord
    ) -> pb.ReissueSeatTokenResponse:
        token = auth.new_token()

        def reissue(row: GameRow) -> tuple[SeatsUpdate, None]:
            self._require_host(row, caller, "ReissueSeatToken")
            if row.status == pb.GAME_STATUS_FINISHED:
                raise ServiceError("GAME_OVER", f"game {row.game_id} is over",
                                   game_id=row.game_id)
            _require(0 <= request.seat < row.players,
                     f"seat must be from 0 to {row.players - 1}", "seat")
            hosting = hosted.hosting_of(row)
            vacant = request.seat in hosting.get("vacant", ())
            _require(row.token_hashes[request.seat] != "" or vacant,
                     f"seat {request.seat} is open: JoinGame takes it", "seat")
            self._require_no_bot(row, request.seat)
            update = _seat_set(row, request.seat, row.seat_names[request.seat],
                               auth.hash_token(token), "seat_token_reissued", self._bot_delay)
            assert update.hosting is not None
            update.hosting.get("joiners", {}).pop(str(request.seat), None)
            if vacant:
                update.hosting["vacant"] = [
                    s for s in update.hosting.get("vacant", ()) if s != request.seat]
            return update, None

        row, _ = await self._change_seats(request.game_id, record, reissue)
        record.seat = request.seat
        return pb.ReissueSeatTokenResponse(seat=pb.SeatToken(
            seat=request.seat, name=row.seat_names[request.seat], token=token))

    async def join_game(
        self, request: pb.JoinGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.JoinGameResponse:
        name = display_name(request.name, "name")
        limited = not self.is_operator(caller)
        address, digest = address_identity(caller), address_digest(caller)
        if limited:
            self.join_quota.admit(address)
            await self._check_waiting_seats(address, digest)
        token = auth.new_token()

        def take_seat(row: GameRow) -> tuple[SeatsUpdate, int]:
            self._require_waiting(row, "JoinGame")
            hosting = hosted.hosting_of(row)
            _refuse_banned(row, hosting, digest, name)
            if limited:
                self._check_seats_in_game(row, hosting, digest)
            _check_name_free(row, name)
            if request.HasField("seat"):
                seat = request.seat
                _require(0 <= seat < row.players,
                         f"seat must be from 0 to {row.players - 1}", "seat")
                if row.token_hashes[seat]:
                    raise ServiceError(
                        "SEAT_TAKEN", f"seat {seat} of game {row.game_id} is taken",
                        game_id=row.game_id, seat=seat,
                    )
            else:
                free = [i for i, digest in enumerate(row.token_hashes) if not digest]
                if not free:
                    raise ServiceError(
                        "GAME_FULL", f"game {row.game_id} has no open seat",
                        game_id=row.game_id,
                    )
                seat = free[0]
            update = _seat_set(row, seat, name, auth.hash_token(token), "seat_joined",
                               self._bot_delay)
            assert update.hosting is not None
            update.hosting.setdefault("joiners", {})[str(seat)] = digest
            return update, seat

        row, seat = await self._change_seats(request.game_id, record, take_seat)
        record.seat = seat
        if limited:
            self.waiting_seats.add(address, row.game_id, seat)
        return pb.JoinGameResponse(
            game_id=row.game_id,
            seat=pb.SeatToken(seat=seat, name=name, token=token),
            summary=_summary(row),
        )

    async def _check_waiting_seats(self, address: str, digest: str) -> None:
        """Refuses a join from an address that holds max_waiting_seats_per_address seats of
        games waiting for players. The seats it joined through this process are counted;
        each is looked at again in the store only when the count is reached (a seat the
        address left, was revoked from, or whose game started no longer counts)."""
        cap = self.settings.max_waiting_seats_per_address
        if cap <= 0 or len(self.waiting_seats.held(address)) < cap:
            return
        for game_id, seat in self.waiting_seats.held(address):
            try:
                row = await self._row(game_id)
            except ServiceError:
                row = None
            if row is None or not _is_waiting(row) or hosted.hosting_of(row).get(
                    "joiners", {}).get(str(seat)) != digest:
                self.waiting_seats.drop(address, game_id, seat)
        if len(self.waiting_seats.held(address)) >= cap:
            raise ServiceError(
                "RATE_LIMITED",
                f"this client already holds {cap} seats of games waiting for players, the "
                "most it may hold at once; leave one, or wait for a game to start",
                limit="max_waiting_seats_per_address",
                retry_after_seconds=_WAITING_SEATS_RETRY_SECONDS,
            )

    def _check_seats_in_game(self, row: GameRow, hosting: dict[str, Any], digest: str) -> None:
        """At most max_seats_per_address_per_game seats of a game joined from one address,
        unless that address created the game (a host seating people at the same table)."""
        cap = self.settings.max_seats_per_address_per_game
        if cap <= 0 or hosting.get("host_address") == digest:
            return
        joiners = hosting.get("joiners", {})
        held = [int(seat) for seat, by in joiners.items()
                if by == digest and row.token_hashes[int(seat)]]
        if len(held) >= cap:
            raise ServiceError(
                "ALREADY_SEATED",
                f"this client already holds seat {held[0]} of game {row.game_id}: one client "
                f"may join at most {cap} seat(s) of a game it did not create",
                game_id=row.game_id, seat=held[0], limit="max_seats_per_address_per_game",
            )

    async def leave_game(
        self, request: pb.LeaveGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.LeaveGameResponse:
        def free_seat(row: GameRow) -> tuple[SeatsUpdate, int]:
            seat = self._seat_with_token(row, caller, "LeaveGame")
            self._require_waiting(row, "LeaveGame")
            update = _seat_set(row, seat, "", "", "seat_left", self._bot_delay)
            assert update.hosting is not None
            update.hosting.get("joiners", {}).pop(str(seat), None)
            return update, seat

        row, record.seat = await self._change_seats(request.game_id, record, free_seat)
        return pb.LeaveGameResponse(summary=_summary(row))

    async def start_game(
        self, request: pb.StartGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.StartGameResponse:
        def start(row: GameRow) -> tuple[SeatsUpdate, None]:
            self._require_host(row, caller, "StartGame")
            self._require_waiting(row, "StartGame")
            if row.open_seats:
                raise ServiceError(
                    "SEATS_OPEN", f"game {row.game_id} still has {row.open_seats} open "
                    "seat(s)", game_id=row.game_id, open_seats=row.open_seats,
                )
            hosting = hosted.changed(row)
            hosted.add_event(hosting, row, "game_started")
            hosting["started_at"] = now = time.time()
            clock = hosted.clock_start(hosting, row.players, row.current_seat, now)
            return _seats_update(
                row, row.seat_names, row.token_hashes, hosting, self._bot_delay,
                status=pb.GAME_STATUS_IN_PROGRESS, clock=clock,
            ), None

        await self._change_seats(request.game_id, record, start)
        row, live = await self._live(request.game_id)
        return pb.StartGameResponse(state=game_state(row, live, None))

    @property
    def _bot_delay(self) -> float:
        return self.settings.bot_move_delay_seconds

    @staticmethod
    def _require_no_bot(row: GameRow, seat: int) -> None:
        if seat in hosted.bots_of(hosted.hosting_of(row)) and not _is_waiting(row):
            raise ServiceError("BOT_SEAT", f"seat {seat} of game {row.game_id} is played by "
                               "a server bot", game_id=row.game_id, seat=seat)

    @staticmethod
    def _require_in_progress(row: GameRow, what: str) -> None:
        if _is_waiting(row):
            raise ServiceError(
                "GAME_NOT_STARTED", f"game {row.game_id} is waiting for players; {what} is "
                "possible once the host starts it", game_id=row.game_id)
        if row.status == pb.GAME_STATUS_FINISHED or hosted.is_ended(row):
            raise ServiceError("GAME_OVER", f"game {row.game_id} is over", game_id=row.game_id)

    def _resignation(self, row: GameRow, seat: int, forfeit: bool) -> SeatsUpdate:
        """The seats after `seat` resigns (forfeit: on time), as the host's on_resign says:
        the stand-in bot plays it on, or the game ends."""
        hosting = hosted.changed(row)
        hosting["resigned"] = sorted({*hosting.get("resigned", ()), seat})
        if forfeit:
            hosting["forfeited"] = sorted({*hosting.get("forfeited", ()), seat})
        kind = "seat_forfeited" if forfeit else "seat_resigned"
        status = None
        if hosting.get("on_resign") == pb.RESIGN_POLICY_GAME_ENDS:
            hosting["ended"] = pb.END_REASON_FORFEITED if forfeit else pb.END_REASON_RESIGNED
            hosted.add_event(hosting, row, kind, seat=seat)
            hosted.add_event(hosting, row, "game_ended")
            status = pb.GAME_STATUS_FINISHED
        else:
            bot = str(hosting.get("stand_in") or hosted.DEFAULT_STAND_IN)
            hosting.setdefault("bots", {})[str(seat)] = bot
            hosted.add_event(hosting, row, kind, seat=seat, bot=bot)
        return _seats_update(row, row.seat_names, row.token_hashes, hosting, self._bot_delay,
                             status=status)

    async def resign_game(
        self, request: pb.ResignGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.ResignGameResponse:
        def resign(row: GameRow) -> tuple[SeatsUpdate, int]:
            seat = self._seat_with_token(row, caller, "ResignGame")
            self._require_in_progress(row, "ResignGame")
            if seat in hosted.hosting_of(row).get("resigned", ()):
                raise ServiceError("SEAT_RESIGNED", f"seat {seat} has resigned already",
                                   game_id=row.game_id, seat=seat)
            return self._resignation(row, seat, forfeit=False), seat

        _row, seat = await self._change_seats(request.game_id, record, resign)
        record.seat = seat
        row, live = await self._live(request.game_id)
        return pb.ResignGameResponse(state=game_state(row, live, seat))

    def _host_seat(self, row: GameRow, caller: Caller, what: str, seat: int) -> int:
        """The seat a host's call names, once the caller is the host and the game not over."""
        self._require_host(row, caller, what)
        if row.status == pb.GAME_STATUS_FINISHED or hosted.is_ended(row):
            raise ServiceError("GAME_OVER", f"game {row.game_id} is over", game_id=row.game_id)
        _require(0 <= seat < row.players, f"seat must be from 0 to {row.players - 1}", "seat")
        return seat

    async def revoke_seat_token(
        self, request: pb.RevokeSeatTokenRequest, caller: Caller, record: RequestRecord
    ) -> pb.RevokeSeatTokenResponse:
        def revoke(row: GameRow) -> tuple[SeatsUpdate, None]:
            seat = self._host_seat(row, caller, "RevokeSeatToken", request.seat)
            _require(row.token_hashes[seat] != "", f"nobody holds seat {seat}", "seat")
            names, digests = list(row.seat_names), list(row.token_hashes)
            hosting = hosted.changed(row)
            hosting.get("bots", {}).pop(str(seat), None)
            digests[seat] = ""
            joiner = hosting.get("joiners", {}).pop(str(seat), None)
            if request.ban:
                _ban(hosting, joiner, row.seat_names[seat])
            if _is_waiting(row):  # open again: JoinGame takes it
                names[seat] = ""
            else:  # held by nobody until ReissueSeatToken or SetSeatBot
                hosting["vacant"] = sorted({*hosting.get("vacant", ()), seat})
            hosted.add_event(hosting, row, "seat_token_revoked", seat=seat)
            return _seats_update(row, names, digests, hosting, self._bot_delay), None

        row, _ = await self._change_seats(request.game_id, record, revoke)
        record.seat = request.seat
        return pb.RevokeSeatTokenResponse(summary=_summary(row))

    async def set_seat_bot(
        self, request: pb.SetSeatBotRequest, caller: Caller, record: RequestRecord
    ) -> pb.SetSeatBotResponse:
        spec = check_seat_bot(request.bot, self.settings.bot_max_mcts_iterations, "bot",
                              self.settings.bot_max_search_cost)
        operator = self.is_operator(caller)

        def seat_bot(row: GameRow) -> tuple[SeatsUpdate, list[tuple[RateQuota, int]]]:
            seat = self._host_seat(row, caller, "SetSeatBot", request.seat)
            hosting = hosted.changed(row)
            vacant = seat in hosting.get("vacant", ())
            if row.token_hashes[seat] and not (
                _is_waiting(row) and row.token_hashes[seat] == hosted.BOT_DIGEST
            ):
                raise ServiceError(
                    "SEAT_TAKEN", f"seat {seat} of game {row.game_id} is held; revoke its "
                    "token first (RevokeSeatToken)", game_id=row.game_id, seat=seat)
            if not (_is_waiting(row) or vacant):
                raise ServiceError(
                    "BOT_SEAT", f"seat {seat} of game {row.game_id} is not vacant",
                    game_id=row.game_id, seat=seat)
            names, digests = list(row.seat_names), list(row.token_hashes)
            names[seat], digests[seat] = f"Bot ({spec})", hosted.BOT_DIGEST
            hosting.setdefault("bots", {})[str(seat)] = spec
            hosting["vacant"] = [s for s in hosting.get("vacant", ()) if s != seat]
            hosted.add_event(hosting, row, "bot_seated", seat=seat, name=names[seat],
                             bot=spec)
            bots_before = len(hosted.bots_of(hosted.hosting_of(row)))
            counts = [] if operator else [
                (self.bot_seat_quota, 1),
                (self.bot_game_quota, 0 if bots_before else 1),
                (self.all_bot_game_quota,
                 1 if all(d == hosted.BOT_DIGEST for d in digests) else 0),
            ]
            for quota, count in counts:  # counted once the seat is stored
                if count:
                    quota.admit(address_identity(caller), count=count, record=False)
            return _seats_update(row, names, digests, hosting, self._bot_delay), counts

        row, counts = await self._change_seats(request.game_id, record, seat_bot)
        for quota, count in counts:
            if count:  # (a concurrent call may have taken the room: the seat stays)
                with contextlib.suppress(ServiceError):
                    quota.admit(address_identity(caller), count=count)
        record.seat = request.seat
        return pb.SetSeatBotResponse(summary=_summary(row))

    # -------------------------------------------------------------------------- reads

    async def get_game(
        self, request: pb.GetGameRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        record.game_id = request.game_id
        if request.HasField("at_version"):
            self._admit_past_read(caller)
        row, live = await self._live(request.game_id)
        seat = self._seat_of(row, caller)
        if request.HasField("at_version") and request.at_version != live.version:
            _require(0 <= request.at_version <= live.version,
                     f"at_version must be from 0 to {live.version}", "at_version")
            live = await self._game_at_version(row, request.at_version)
        record.seat, record.version = seat, live.version
        parts = _StateParts(row, live, seat)
        return Reply(
            pb.GetGameResponse,
            make_data=lambda: _filled(pb.GetGameResponse(), parts).SerializeToString(),
            json_text=lambda: '{"state":' + parts.to_json_text() + "}",
        )

    def _options(self, decision: str, game: Any) -> tuple[bytes, list[str]]:
        """The legal options of the current decision: the bytes of ListLegalActionsResponse's
        repeated `options` field and each option's JSON text. An option's kind, name and
        meaning depend only on its ruleset, its id and the decision, so each is encoded once
        per process."""
        ids = game.legal_ids()
        cache = self._option_cache
        ruleset = game.ruleset
        try:
            encoded = [cache[(ruleset, decision, i)] for i in ids]
        except KeyError:
            for option in game.legal_actions():
                key = (ruleset, decision, option.id)
                if key not in cache:
                    arm, meaning, meaning_json = typed.meaning_parts(ruleset, option.meaning)
                    message = pb.LegalOption(
                        id=option.id, kind=_option_kind(option), name=option.name,
                        **{arm: meaning},
                    )
                    json_option = _compact({
                        "id": option.id, "kind": message.kind, "name": option.name,
                        arm: meaning_json,
                    })
                    # a response holding only this option is the option's field bytes:
                    # responses' bytes concatenate into one with all their options
                    alone = pb.ListLegalActionsResponse(options=[message])
                    cache[key] = (alone.SerializeToString(), json_option)
            encoded = [cache[(ruleset, decision, i)] for i in ids]
        return b"".join(e[0] for e in encoded), [e[1] for e in encoded]

    def _legal_parts(
        self, row: GameRow, live: LiveGame, seat: int
    ) -> tuple[pb.ListLegalActionsResponse, bytes, list[str]]:
        """ListLegalActionsResponse's fields but the options, the options' bytes and their
        JSON texts, for `seat`, which must be the seat to act."""
        game = live.game
        decision = game.decision
        head = pb.ListLegalActionsResponse(
            game_id=row.game_id, version=live.version, seat=seat, decision=decision
        )
        options_bytes, options_json = self._options(decision, game)
        return head, options_bytes, options_json

    @staticmethod
    def _legal_json_text(
        head: pb.ListLegalActionsResponse, options_json: list[str], plain: bool
    ) -> str:
        """The JSON text of a ListLegalActionsResponse; `plain` when it has nothing but its
        head fields and options (built directly, not through json_format)."""
        if plain:
            document = {
                "gameId": head.game_id, "version": str(head.version), "seat": head.seat,
                "decision": head.decision, "unavailable": [], "compoundActions": [],
                "compoundActionsTruncated": False,
            }
        else:
            document = message_to_json_dict(head)
            document.pop("options", None)
        return _compact(document)[:-1] + ',"options":[' + ",".join(options_json) + "]}"

    async def list_legal_actions(
        self, request: pb.ListLegalActionsRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        record.game_id = request.game_id
        row, live = await self._live(request.game_id)
        seat = self._require_seat(row, caller, "ListLegalActions")
        game = live.game
        record.seat, record.version = seat, live.version
        if game.is_over or hosted.is_ended(row):
            raise ServiceError("GAME_OVER", f"game {row.game_id} is over", version=live.version)
        if game.current_seat != seat:
            raise ServiceError(
                "NOT_YOUR_TURN",
                f"seat {game.current_seat} is to act, not seat {seat}",
                version=live.version,
                current_seat=game.current_seat,
            )
        head, options_bytes, options_json = self._legal_parts(row, live, seat)
        if request.include_unavailable:
            for option_id, reason, message in game.unavailable():
                head.unavailable.add(id=option_id, reason=reason, message=message,
                                     **{typed.reason_code_field(game.ruleset): reason})
        if request.include_compound_actions:
            _add_compound_actions(head, game)
        plain = not (request.include_unavailable or request.include_compound_actions)
        return Reply(
            pb.ListLegalActionsResponse,
            data=head.SerializeToString() + options_bytes,
            json_text=lambda: self._legal_json_text(head, options_json, plain),
        )

    async def _game_at_version(self, row: GameRow, version: int) -> LiveGame:
        """The game at any past version: from the newest barrier snapshot at or before it
        (_snapshot_game) and the decisions stored after that snapshot only, then the first
        ids of the submission that spans the version, one by one (a compound action's
        decisions are steps of their own). Past versions never change, so the last few
        asked are kept; the engine's work runs in a worker thread, on a game restored for
        this request alone."""
        key = (row.game_id, version)
        kept = self._past_states.get(key)
        if kept is not None:
            self._past_states.move_to_end(key)
            return kept
        game, snapshot_version = await self._snapshot_game(row, version)
        # The decision ending at the snapshot (its time and clock; none at 0), those up
        # to the version (a row has one version or more) and the one spanning it.
        rows = await self.store.decisions_after(
            row.game_id, max(snapshot_version - 1, 0), up_to=None,
            limit=version - snapshot_version + (2 if snapshot_version > 0 else 1))
        hosting = hosted.hosting_of(row)
        if snapshot_version > 0 and (not rows or rows[0].to_version != snapshot_version):
            raise ServiceError("CORRUPT_GAME", f"game {row.game_id}: decision log is incomplete")
        base, updated_at, clock, spanning = _past_version_facts(
            hosting, row.created_at, rows, version)
        if clock is None and snapshot_version > 0 and "clock" in hosting:
            # the decisions since the snapshot have no clock: the last one before does
            earlier = await self.store.decisions_after(row.game_id, 0, up_to=snapshot_version)
            clock = _past_version_facts(hosting, row.created_at, earlier, version)[2]
        live = await asyncio.to_thread(
            self._past_game, row, LiveGame(game, snapshot_version, row.created_at),
            [r for r in rows if r.to_version <= base], base, version, spanning)
        if clock is None:  # no decision before: the clock as the game started
            started = hosted.started_at(hosting, row.created_at)
            clock = hosted.clock_start(hosting, row.players, live.game.current_seat, started)
        when = updated_at if spanning is None or base == version else spanning.created_at
        live = LiveGame(live.game, version, when, clock, as_of=when)
        self._past_states[key] = live
        while len(self._past_states) > _PAST_STATES_KEPT:
            self._past_states.popitem(last=False)
        return live

    def _past_game(self, row: GameRow, start: LiveGame, rows: list[DecisionRow], base: int,
                   version: int, spanning: DecisionRow | None) -> LiveGame:
        """The engine's part of _game_at_version (run in a worker thread): `start` (a game
        of this request's own) brought to the stored version `base` by `rows`, then to
        `version` by the first ids of `spanning`."""
        live = self._apply_stored(start, rows, in_place=True)
        if live.version != base:
            raise ServiceError(
                "CORRUPT_GAME", f"game {row.game_id} restores to version {live.version}"
            )
        if base == version:
            return live
        if spanning is None or spanning.from_version != base:
            raise ServiceError("CORRUPT_GAME", f"game {row.game_id}: decision log is incomplete")
        game = live.game
        try:
            for option_id in spanning.action["ids"][: version - base]:
                game.apply(int(option_id), seat=spanning.seat)
        except brass.EngineError as exc:
            raise ServiceError(
                "CORRUPT_GAME", f"game {row.game_id}: a stored decision is refused ({exc})"
            ) from exc
        return LiveGame(game, version, spanning.created_at)

    def _admit_past_read(self, caller: Caller) -> None:
        """Counts a read of a game's past (GetGame at_version, GetReplay) against the
        caller's address, before any work: such reads cost more than others (an engine
        replay from a snapshot, a replay of new decisions), and seat tokens are not scarce
        (anyone may create games), so they count by address whatever the token."""
        self.past_read_quota.admit(address_identity(caller))

    def _replay_lock(self, game_id: str) -> asyncio.Lock:
        lock = self._replay_locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._replay_locks[game_id] = lock
        return lock

    async def get_replay(
        self, request: pb.GetReplayRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        record.game_id = request.game_id
        self._admit_past_read(caller)
        row, live = await self._live(request.game_id)
        record.seat, record.version = self._seat_of(row, caller), live.version
        complete = bool(live.game.is_over)
        # One request at a time extends a game's replay; the others then find it made.
        async with self._replay_lock(row.game_id):
            built = self._replays.pop(row.game_id, None)  # out of the cache while in use
            if built is not None:
                self._replay_bytes -= built.size
            if built is None or built.version < live.version:
                if built is None:
                    game = (await self._game_at(row, 0, row.created_at)).game.clone()
                    built = _ReplayParts(game)
                rows = await self.store.decisions_after(row.game_id, built.version,
                                                        up_to=live.version)
                # A failure leaves `built` out of the cache: a half-made replay is never kept.
                await asyncio.to_thread(_extend_replay, row.game_id, built, rows, live.version)
            reply = built.reply_at(row, live.version, complete)
            self._replays[row.game_id] = built
            self._replay_bytes += built.size
            while self._replays and (len(self._replays) > _REPLAYS_KEPT
                                     or self._replay_bytes > _REPLAY_BYTES_KEPT):
                _, dropped = self._replays.popitem(last=False)
                self._replay_bytes -= dropped.size
        return reply

    async def list_games(
        self, request: pb.ListGamesRequest, record: RequestRecord
    ) -> pb.ListGamesResponse:
        page_size = request.page_size or self.settings.default_page_size
        _require(
            1 <= page_size <= self.settings.max_page_size,
            f"page_size must be between 1 and {self.settings.max_page_size}",
            "page_size",
        )
        cursor = _decode_cursor(request.page_token) if request.page_token else None
        status = request.status if request.status != pb.GAME_STATUS_UNSPECIFIED else None
        try:
            page = await self.store.list_games(page_size, cursor, status, ListFilter(
                ruleset=request.ruleset or None,
                has_open_seats=(request.has_open_seats if request.HasField("has_open_seats")
                                else None),
                public_only=True,
            ))
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", "the game store is unavailable; retry") from exc
        record.extra["returned"] = len(page.games)
        return pb.ListGamesResponse(
            games=[_summary(row) for row in page.games],
            next_page_token=_encode_cursor(page.next_cursor) if page.next_cursor else "",
        )

    # ------------------------------------------------------------------------ actions

    @staticmethod
    def _resolve_action(action: pb.Action, game: Any, seat: int) -> tuple[list[int], bool]:
        """The decision ids to apply and whether they form one atomic compound action."""
        kind = action.WhichOneof("kind")
        if kind == "option_id":
            return [action.option_id], False
        if kind == "compound":
            _require(len(action.compound.ids) > 0, "compound.ids is empty", "action.compound")
            return list(action.compound.ids), True
        if kind == "compound_key":
            # The engine's own precedence for ids (game over, then whose turn) holds for keys
            # too: a key is only looked up among the acting seat's compound actions.
            if game.is_over:
                raise ServiceError("GAME_OVER", "the game is over")
            if game.current_seat != seat:
                raise ServiceError(
                    "NOT_YOUR_TURN",
                    f"seat {game.current_seat} is to act, not seat {seat}",
                    current_seat=game.current_seat,
                )
            compounds, _truncated = _compound_actions(game)
            for compound in compounds:
                if compound.key == action.compound_key:
                    return list(compound.ids), True
            raise ServiceError(
                "ILLEGAL_ACTION",
                f"no legal compound action has key {action.compound_key!r} now",
            )
        raise ServiceError(
            "INVALID_ARGUMENT",
            "action must set option_id, compound or compound_key",
            field="action",
        )

    async def submit_action(
        self, request: pb.SubmitActionRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        _check_action_size(request.action)
        return await self._act(request, caller, record, undo=False)

    async def undo_action(
        self, request: pb.UndoActionRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        """Takes back the caller's action in progress or its turn's previous one (the engine
        says how far and whether at all); stored as a new version, like a submission, with
        the same retries and idempotency key."""
        return await self._act(request, caller, record, undo=True)

    async def _act(
        self, request: _ActRequest, caller: Caller, record: RequestRecord, undo: bool
    ) -> Reply:
        """SubmitAction and UndoAction: a decision (or an undo) stored as the next version."""
        record.game_id = request.game_id
        _check_game_id(request.game_id)
        key = request.idempotency_key or None
        _require(
            key is None or len(key) <= MAX_IDEMPOTENCY_KEY_CHARS,
            f"idempotency_key is at most {MAX_IDEMPOTENCY_KEY_CHARS} characters",
            "idempotency_key",
        )
        async with self._lock_for(request.game_id):
            # The first attempt works on the copy in memory without reading the store: the
            # commit only succeeds if the stored head is still that copy's version, and a
            # refusal is only sent once the store confirms the copy was current. A conflict
            # means another replica moved the game: the request is evaluated again on the
            # stored state (and fails with STALE_VERSION if it expected the old version).
            verify = False
            for _attempt in range(5):
                result = await self._try_submit(request, caller, record, key, verify, undo)
                if result is not None:
                    return result
                verify = True
            raise ServiceError("UNAVAILABLE", "the game is too busy right now; retry")

    async def _try_submit(
        self,
        request: _ActRequest,
        caller: Caller,
        record: RequestRecord,
        key: str | None,
        verify: bool,
        undo: bool,
    ) -> Reply | None:
        row, live = await self._live(request.game_id, verify=verify)
        seat = self._require_seat(row, caller, "UndoAction" if undo else "SubmitAction")
        record.seat = seat
        # What makes a retry the same request: the seat, the action (or the undo) and the
        # expected version.
        what = (request.action.SerializeToString(deterministic=True).hex().encode()
                if isinstance(request, pb.SubmitActionRequest) else b"undo")
        fingerprint = hashlib.sha256(
            b"%d|%s|%s"
            % (
                seat,
                what,
                str(request.expected_version if request.HasField("expected_version") else "")
                .encode(),
            )
        ).hexdigest()
        try:
            return await self._apply_and_store(request, record, key, row, live, seat, fingerprint,
                                               undo=undo)
        except ServiceError as error:
            if (
                not verify
                and error.reason in _MAYBE_STALE
                and not await self._is_current(request.game_id, live)
            ):
                return None  # refused on a copy behind the store: evaluate it again
            # A retry of a request that was accepted earlier is refused on today's state
            # (stale version, not this seat's turn…): answer it with the stored result.
            # Looking the key up only here saves a read on every first attempt. (With the
            # store unavailable it would only fail again, as slowly.)
            if key is not None and error.reason != "UNAVAILABLE":
                prior = await self.store.find_decision_by_key(request.game_id, key)
                if prior is not None:
                    return await self._replayed(request, prior, fingerprint, row, record, undo)
            raise

    async def _apply_and_store(
        self,
        request: _ActRequest,
        record: RequestRecord,
        key: str | None,
        row: GameRow,
        live: LiveGame,
        seat: int,
        fingerprint: str,
        by: str | None = None,
        undo: bool = False,
    ) -> Reply | None:
        """`by`: None for a person with the seat's token, else the server's move (a bot's,
        hosting.BY_BOT, or a stand-in's for a timed-out turn, hosting.BY_TIMEOUT). `undo`:
        the request is an UndoActionRequest (one version: the engine's undo)."""
        game, version = live.game, live.version
        record.version = version
        hosting = hosted.hosting_of(row)
        clock = _clock_of(row, live)
        now = time.time()
        if by is None:
            self._check_person_may_act(row, hosting, clock, game, seat, now, version)
        if request.HasField("expected_version") and request.expected_version != version:
            raise ServiceError(
                "STALE_VERSION",
                f"the game is at version {version}, not {request.expected_version}",
                version=version,
            )
        if undo and version >= self.settings.max_undo_version:
            raise ServiceError(
                "UNDO_LIMIT",
                f"the game has {version} versions, the most this server allows undos in "
                f"({self.settings.max_undo_version}); decisions go on",
                version=version, limit=self.settings.max_undo_version,
            )
        ids, compound = (self._resolve_action(request.action, game, seat)
                         if isinstance(request, pb.SubmitActionRequest) else ([], False))
        work = game.clone()
        try:
            if undo:
                events = work.undo(seat)
            else:
                events = (work.apply_compound(ids, seat=seat) if compound
                          else work.apply(ids[0], seat))
        except brass.EngineError as exc:
            raise from_engine_error(exc, version=version) from exc
        now = time.time()
        clock_after = hosted.clock_after(hosting, clock, work.current_seat, now)
        action: dict[str, Any] = dict(_UNDO_ACTION) if undo else {"ids": ids, "compound": compound}
        if by is not None:
            action["by"] = by
        if by == hosted.BY_TIMEOUT and clock is not None and not clock.get("timed_out"):
            action["event"] = "turn_timed_out"  # the first stand-in decision of the turn
            if clock_after is clock:
                clock_after = {**clock, "timed_out": True}
        if clock_after is not None:
            action["clock"] = clock_after
        after = LiveGame(work, version + (1 if undo else len(ids)), now, clock_after)
        every = self.settings.snapshot_every
        take_snapshot = work.is_over or after.version // every > version // every
        decision = DecisionRow(
            game_id=row.game_id,
            from_version=version,
            to_version=after.version,
            seat=seat,
            action=action,
            idempotency_key=key,
            fingerprint=fingerprint,
            events=events,
            response=b"",  # rebuilt from the log for a retry (see _replayed)
            created_at=now,
            state_hash=int(work.state_hash()),
        )
        head = HeadUpdate(
            version=after.version,
            status=_status_of(work),
            current_seat=work.current_seat,
            decision=work.decision,
            updated_at=now,
            seats_revision=row.seats_revision,  # the seats the caller was authenticated on
            clock=clock_after,
            next_due=hosted.next_due(hosting, clock_after, work.current_seat,
                                     not work.is_over, now, self._bot_delay),
        )
        try:
            mark = await self.store.append_decision(
                decision, head, Snapshot(after.version, work.snapshot()) if take_snapshot else None
            )
        except VersionConflict:
            return None  # evaluated again on the stored state by submit_action
        except IdempotencyConflict:
            assert key is not None
            prior = await self.store.find_decision_by_key(request.game_id, key)
            if prior is None:
                return None
            return await self._replayed(request, prior, fingerprint, row, record, undo)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", "the game store is unavailable; retry") from exc
        entry = self._entry(row.game_id)
        if entry is not None and entry.live is live:
            # The head is this version now: the commit was conditional on the one before.
            self._remember(row, after, mark, checked=True)
        DECISIONS.inc()
        record.version = after.version
        self.broker.publish(row.game_id, after.version)
        self._wake_timer(head.next_due)
        return self._submit_reply(
            row, after, seat, events, request.include_legal_actions,
            request.include_compound_actions, undo=undo,
        )

    def _check_person_may_act(
        self, row: GameRow, hosting: dict[str, Any], clock: dict[str, Any] | None, game: Any,
        seat: int, now: float, version: int,
    ) -> None:
        """Refuses a person's decision where hosted play forbids it: the game ended by a
        resignation, a resigned seat, a seat a bot plays, a turn whose time is up."""
        if hosted.is_ended(row):
            raise ServiceError("GAME_OVER", f"game {row.game_id} is over", version=version)
        if seat in hosting.get("resigned", ()):
            raise ServiceError("SEAT_RESIGNED", f"seat {seat} has resigned", version=version,
                               seat=seat)
        if hosted.is_bot_seat(hosting, seat):
            raise ServiceError("BOT_SEAT", f"seat {seat} is played by a server bot",
                               version=version, seat=seat)
        due = hosted.deadline(hosting, clock)
        if due is not None and game.current_seat == seat and now >= due:
            raise ServiceError(
                "TURN_TIMED_OUT", f"seat {seat}'s time for this turn ran out", version=version,
                seat=seat)

    def _submit_reply(
        self,
        row: GameRow,
        after: LiveGame,
        seat: int,
        events: list[dict[str, Any]],
        include_legal_actions: bool,
        include_compound_actions: bool = False,
        replayed: bool = False,
        undo: bool = False,
    ) -> Reply:
        """SubmitAction's answer for the game `after` the caller's action: its bytes (sent
        as they are over gRPC) and the JSON text REST renders from the same parts."""
        state = _StateParts(row, after, seat)
        legal: tuple[pb.ListLegalActionsResponse, bytes, list[str]] | None = None
        game = after.game
        if include_legal_actions and not game.is_over and game.current_seat == seat:
            legal = self._legal_parts(row, after, seat)
            if include_compound_actions:
                _add_compound_actions(legal[0], game)

        def as_bytes() -> bytes:  # gRPC's answer (REST's is only the JSON text)
            response = _filled(pb.SubmitActionResponse(
                events=_events(game.ruleset, after.version, events)), state)
            if legal is not None:
                response.next_actions.MergeFromString(legal[0].SerializeToString() + legal[1])
            if replayed:
                response.replayed = True
            return response.SerializeToString()

        return Reply(
            pb.UndoActionResponse if undo else pb.SubmitActionResponse,
            make_data=as_bytes,
            json_text=lambda: (
                '{"state":' + state.to_json_text()
                + ',"events":' + _compact(_events_json(game.ruleset, after.version, events))
                + ',"replayed":' + ("true" if replayed else "false")
                + ("" if legal is None else ',"nextActions":' + self._legal_json_text(
                    legal[0], legal[2], not include_compound_actions))
                + "}"
            ),
        )

    async def _replayed(
        self,
        request: _ActRequest,
        prior: DecisionRow,
        fingerprint: str,
        row: GameRow,
        record: RequestRecord,
        undo: bool,
    ) -> Reply:
        """The answer to a retry of the accepted submission or undo `prior` (same
        idempotency key): the same request gets the original answer, rebuilt from the game
        as it was right after it; another request with the key is refused."""
        if prior.fingerprint != fingerprint:
            raise ServiceError(
                "IDEMPOTENCY_KEY_REUSED",
                "this idempotency key was already used for a different request",
                version=prior.to_version,
            )
        record.version = prior.to_version
        record.extra["replayed"] = True
        if prior.response:  # stored whole by an earlier version of the service
            response = pb.SubmitActionResponse.FromString(prior.response)
            response.replayed = True
            return Reply(pb.SubmitActionResponse, message=response)
        then = await self._game_at(row, prior.to_version, prior.created_at)
        return self._submit_reply(
            row, then, prior.seat, prior.events, request.include_legal_actions,
            request.include_compound_actions, replayed=True, undo=undo
        )

    async def _game_at(self, row: GameRow, version: int, updated_at: float) -> LiveGame:
        """The game as it was at `version` (a stored version), last moved at `updated_at`."""
        entry = self._entry(row.game_id)
        if entry is not None and entry.live.version == version:
            return entry.live
        game, base = await self._snapshot_game(row, version)
        rows = await self.store.decisions_after(row.game_id, base, up_to=version)
        live = self._apply_stored(LiveGame(game, base, row.created_at), rows, in_place=True)
        if live.version != version:
            raise ServiceError(
                "CORRUPT_GAME", f"game {row.game_id} restores to version {live.version}"
            )
        return LiveGame(live.game, version, updated_at)

    async def preview_action(
        self, request: pb.PreviewActionRequest, caller: Caller, record: RequestRecord
    ) -> pb.PreviewActionResponse:
        _check_action_size(request.action)
        record.game_id = request.game_id
        row, live = await self._live(request.game_id)
        seat = self._require_seat(row, caller, "PreviewAction")
        game, version = live.game, live.version
        record.seat, record.version = seat, version
        if request.HasField("expected_version") and request.expected_version != version:
            raise ServiceError(
                "STALE_VERSION",
                f"the game is at version {version}, not {request.expected_version}",
                version=version,
            )
        ids, _compound = self._resolve_action(request.action, game, seat)
        try:
            preview = game.preview(ids, seat=seat)
        except brass.EngineError as exc:
            raise from_engine_error(exc, version=version) from exc
        cost_arm, cost, _ = typed.cost_parts(game.ruleset, preview.get("cost") or {})
        return pb.PreviewActionResponse(
            events=_events(game.ruleset, version, preview.get("events", [])),
            version=version,
            **{cost_arm: cost,
               game.ruleset: typed.view_from_document(game.ruleset, preview.get("view") or {})},
        )

    # -------------------------------------------------------------------------- watch

    async def watch_game(
        self, request: pb.WatchGameRequest, caller: Caller, record: RequestRecord
    ) -> WatchStream:
        """Validates and registers the watcher, then returns its stream of updates.

        Everything that can be refused is checked before the first message, so the caller
        gets a plain error rather than a broken stream.
        """
        record.game_id = request.game_id
        row, live = await self._live(request.game_id)
        seat = self._seat_of(row, caller)
        record.seat = seat
        _require(request.from_version >= 0, "from_version must not be negative", "from_version")
        _require(
            request.from_version <= live.version,
            f"from_version {request.from_version} is ahead of the game "
            f"(version {live.version})",
            "from_version",
        )
        slot = WatchSlot(client_identity(caller, request.game_id, seat),
                         address_identity(caller), caller.connection)
        self.watch_limiter.admit(slot, request.game_id, self.broker)
        wake = self.broker.subscribe(request.game_id)
        ACTIVE_WATCHERS.inc()
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.broker.unsubscribe(request.game_id, wake)
                self.watch_limiter.release(slot)
                ACTIVE_WATCHERS.dec()

        # The digest of the token the seat was resolved with: the stream checks at each
        # wake-up that the seat still has it (a reissue, revocation or leave ends it).
        digest = auth.hash_token(caller.token) if seat is not None and caller.token else None
        updates = self._watch_stream(
            request.game_id, request.from_version, seat, wake, record, release, digest
        )
        return WatchStream(updates, release)

    def _require_seat_held(self, row: GameRow, seat: int | None, digest: str | None) -> None:
        """Ends a seat's watch stream (SEAT_TOKEN_REVOKED) once `row`, or the newer row in
        memory, shows the seat without the token the stream was opened with."""
        if seat is None or digest is None:
            return
        entry = self._entry(row.game_id)
        if entry is not None and entry.row.seats_revision > row.seats_revision:
            row = entry.row  # changed by this process since `row` was read
        if not auth.holds_seat(digest, row.token_hashes, seat):
            raise ServiceError(
                "SEAT_TOKEN_REVOKED",
                f"the token of this stream no longer holds seat {seat} of game "
                f"{row.game_id} (reissued, revoked or left); watch again with the "
                "seat's current token, or as a spectator",
                game_id=row.game_id, seat=seat,
            )

    async def _watch_stream(
        self,
        game_id: str,
        from_version: int,
        seat: int | None,
        wake: asyncio.Event,
        record: RequestRecord,
        release: Callable[[], None],
        digest: str | None = None,
    ) -> AsyncIterator[pb.WatchGameResponse]:
        last = from_version
        sent_any = False
        revision: int | None = None  # the seats revision whose lobby events were sent
        idle_limit = self.settings.watch_idle_seconds
        loop = asyncio.get_running_loop()
        last_sent = loop.time()
        try:
            while True:
                wake.clear()
                row, live = await self._live(game_id)
                self._require_seat_held(row, seat, digest)
                game = live.game
                head = live.version
                if revision is None:
                    revision = row.seats_revision
                if head > last or not sent_any or row.seats_revision != revision:
                    rows = await self.store.decisions_after(
                        game_id, last, up_to=head, limit=self.settings.watch_batch
                    )
                    batch_end = rows[-1].to_version if rows else head
                    update = pb.WatchGameResponse(version=batch_end)
                    timed: list[tuple[float, pb.GameEvent]] = []
                    for stored in rows:
                        timed.extend((stored.created_at, e)
                                     for e in _stored_events(game.ruleset, stored))
                    if batch_end == head:
                        timed.extend(hosted.lobby_events_after(row, revision))
                        revision = row.seats_revision
                        game_state(row, live, seat, into=update.state)
                    timed.sort(key=lambda pair: pair[0])  # (stable: a decision's stay in order)
                    update.events.extend(event for _at, event in timed)
                    sent_any = True
                    last = batch_end
                    record.version = last
                    # The seats may have changed while the decisions were read.
                    self._require_seat_held(row, seat, digest)
                    yield update
                    last_sent = loop.time()
                    if batch_end < head:
                        continue  # more stored decisions to send before waiting
                if game.is_over or hosted.is_ended(row):
                    return
                wait = self.settings.watch_poll_seconds
                if idle_limit > 0:
                    left = last_sent + idle_limit - loop.time()
                    if left <= 0:  # nobody moved the game: free the slot
                        raise ServiceError(
                            "WATCH_IDLE",
                            f"game {game_id} did not change for {idle_limit:g} s; this "
                            f"stream ends at version {last}: watch again from it to go on",
                            game_id=game_id, version=last, idle_seconds=f"{idle_limit:g}",
                        )
                    wait = min(wait, left)
                # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that comes
                # as the wake-up does (the client left at a move), and the stream then went
                # on forever, holding its slot and blocking the server's shutdown.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await wake.wait()
        finally:
            release()

    # ------------------------------------------------------------------------ batches

    async def run_batch(
        self, request: pb.RunBatchRequest, caller: Caller, record: RequestRecord
    ) -> BatchStream:
        """Validates and admits a batch of bot games (the operator's only); returns the
        stream of its results."""
        self.require_operator(caller, "RunBatch")
        return self.batches.start(request, record)
