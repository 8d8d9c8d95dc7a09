"""The rows of the store (games, decisions, snapshots, the head and seat updates, listing
filters and pages), how their columns decode, and the SQL text both stores share (the
columns, the listing indexes and conditions). What the rows mean: base.py's docstring."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any

import orjson
import structlog

from brass._core import lib

from .base import CorruptRecord
from .options import options_of_row

log = structlog.get_logger("brass_service.store")


@dataclass(slots=True)
class GameRow:
    game_id: str
    ruleset: int
    rules_edition: int
    players: int
    seed: int | None
    options: dict[str, Any]
    position_json: str | None
    seat_names: list[str]
    token_hashes: list[str]
    created_at: float
    updated_at: float
    version: int
    status: int
    current_seat: int | None
    decision: str
    # The lobby (columns added later, whose defaults are those of older games): listed or
    # not (brass.v1 Visibility), the host token's digest (None: no host), seats nobody
    # holds (their name and digest are ""), and a counter moved by every change of the
    # seats, the guard of update_seats.
    visibility: int = 1
    host_token_hash: str | None = None
    open_seats: int = 0
    seats_revision: int = 0
    # Hosted play (columns added later, empty for older games): the host's settings and the
    # seats' state beyond names and tokens (bots, resignations, lobby events: a JSON object
    # the service owns), the clock at the head version (JSON), and when the server itself
    # must next act on the game (a bot's turn, a turn's deadline; None: never).
    hosting: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    next_due: float | None = None


@dataclass
class SeatsUpdate:
    """A change of a game's seats (JoinGame, LeaveGame, StartGame), applied only if the
    stored seats_revision is still `from_revision`."""

    from_revision: int
    seat_names: list[str]
    token_hashes: list[str]
    open_seats: int
    # The new status (StartGame); None leaves it as it is (decisions move it meanwhile).
    status: int | None
    updated_at: float
    # With `hosting` set, the hosting, clock and next_due columns are written too (all
    # three: None clears clock and next_due); without, they stay as they are.
    hosting: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    next_due: float | None = None


# Columns added to the games table after its first release: (name, SQL type and default).
# Each store adds those an existing database lacks when it opens it.
GAME_COLUMNS_ADDED = (
    ("visibility", "INTEGER NOT NULL DEFAULT 1"),
    ("host_token_hash", "TEXT"),
    ("open_seats", "INTEGER NOT NULL DEFAULT 0"),
    ("seats_revision", "INTEGER NOT NULL DEFAULT 0"),
    ("hosting", "TEXT"),
    ("clock", "TEXT"),
    ("next_due", "DOUBLE PRECISION"),
)
# Created once those columns exist: the games the server must act on, soonest first.
DUE_INDEX = (
    "CREATE INDEX IF NOT EXISTS games_by_due ON games (next_due) WHERE next_due IS NOT NULL"
)
# ListGames' condition for an account's games (placeholder: the store's): store/accounts.py
ACCOUNT_GAMES_SQL = "game_id IN (SELECT game_id FROM account_seats WHERE account_id = {p})"
# brass.v1 Visibility.VISIBILITY_UNLISTED (the store does not import the API).
UNLISTED = 2
# What ListGames always asks (public games only) and what its has_open_seats filter asks,
# written as literals: a partial index serves a query only if the query states its
# condition (with a parameter in place of the 2, the planners could not know it holds).
_LISTED = f"visibility <> {UNLISTED}"
OPEN_SEATS = {True: "open_seats > 0", False: "open_seats = 0"}
_PAGE_ORDER = "created_at DESC, game_id DESC"
# Created once the lobby's columns exist (and by every start-up of a database made before
# them). ListGames pages newest first from one of these: each holds only public games in
# the page's order, after the equality its filter gives (status, rule set), or only those
# with (or without) open seats; a filter combining several is served by one of them and
# the others are checked on its rows. The expiry sweep and the gauge of games in progress
# read games_by_status (by creation: a game idle since a time was created before it, and
# an index on updated_at, which every move changes, would be rewritten by every move).
LIST_INDEXES = (
    f"CREATE INDEX IF NOT EXISTS games_listed ON games ({_PAGE_ORDER}) WHERE {_LISTED}",
    "CREATE INDEX IF NOT EXISTS games_listed_by_status "
    f"ON games (status, {_PAGE_ORDER}) WHERE {_LISTED}",
    "CREATE INDEX IF NOT EXISTS games_listed_by_ruleset "
    f"ON games (ruleset, {_PAGE_ORDER}) WHERE {_LISTED}",
    "CREATE INDEX IF NOT EXISTS games_listed_open "
    f"ON games ({_PAGE_ORDER}) WHERE {_LISTED} AND {OPEN_SEATS[True]}",
    "CREATE INDEX IF NOT EXISTS games_listed_full "
    f"ON games ({_PAGE_ORDER}) WHERE {_LISTED} AND {OPEN_SEATS[False]}",
    "CREATE INDEX IF NOT EXISTS games_by_status ON games (status, created_at)",
)


@dataclass
class ListFilter:
    """What ListGames keeps: only public games, and of these the status, rule set and
    open seats asked for (None: any)."""

    status: int | None = None
    ruleset: int | None = None
    has_open_seats: bool | None = None
    public_only: bool = False
    # Only games with a seat bound to this account (store/accounts.py).
    account_id: str | None = None


# Above every version a game reaches: "no bound" in version comparisons.
NO_VERSION_LIMIT = 2**62


@dataclass
class DecisionRow:
    game_id: str
    from_version: int
    to_version: int
    seat: int
    # {"ids": [...], "compound": bool}: what was applied, enough to re-apply it; an undo
    # (UndoAction) is {"ids": [], "compound": false, "undo": true}.
    action: dict[str, Any]
    idempotency_key: str | None
    # Digest of the request (seat, action, expected version) for idempotent retries.
    fingerprint: str
    events: list[dict[str, Any]]
    # The serialized SubmitActionResponse returned to the submitter, as stored by earlier
    # versions of the service; now empty: a retried submission's answer is rebuilt from the
    # decision log (the same view, events and times), which keeps each row small.
    response: bytes
    created_at: float
    # The engine's 64-bit state hash after the decision: re-applying it must give the same.
    state_hash: int | None = None


@dataclass
class HeadUpdate:
    version: int
    status: int
    current_seat: int | None
    decision: str
    updated_at: float
    # When set, the decision is stored only if the game's seats_revision is still this
    # one: a token revoked meanwhile (ReissueSeatToken, on any replica) cannot act.
    seats_revision: int | None = None
    # The clock after the decision (None: the game has none) and when the server must next
    # act on the game (None: never); both columns are always written.
    clock: dict[str, Any] | None = None
    next_due: float | None = None


@dataclass
class Snapshot:
    version: int
    data: bytes


@dataclass
class ListPage:
    games: list[GameRow]
    # (created_at, game_id) of the last row when more rows follow.
    next_cursor: tuple[float, str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def dumps(value: Any) -> str:
    """Compact JSON text with sorted keys, for the stores' text columns (orjson: the
    writer thread makes one or two per decision)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def _json_of(text: Any, kind: type) -> Any:
    value = json.loads(text)
    if not isinstance(value, kind):
        raise TypeError(f"{kind.__name__} expected, found {type(value).__name__}")
    return value


def _strings_of(text: Any) -> list[str]:
    value = _json_of(text, list)
    if not all(isinstance(item, str) for item in value):
        raise TypeError("a list of strings expected")
    return value  # type: ignore[no-any-return]


def _optional_json(text: Any) -> dict[str, Any] | None:
    return None if text is None else _json_of(text, dict)  # type: ignore[no-any-return]


def optional_dumps(value: dict[str, Any] | None) -> str | None:
    return None if value is None else dumps(value)


def _optional_int(value: Any) -> int | None:
    return int(value) if value is not None else None


# Games' times: Unix seconds a protobuf Timestamp can hold (years 1970 to 9999).
_LAST_TIME = 253402300799.0


def _time_of(value: Any) -> float:
    seconds = float(value)
    if not 0.0 <= seconds <= _LAST_TIME:  # (NaN too)
        raise ValueError(f"time {seconds!r} out of range")
    return seconds


def _int_of(value: Any, bits: int) -> int:
    """An integer that fits the signed `bits`-bit field the API sends it in."""
    number = int(value)
    if not -(1 << (bits - 1)) <= number < 1 << (bits - 1):
        raise ValueError(f"{number} does not fit {bits} bits")
    return number


# What decoding a column that holds something else raises.
_UNDECODABLE = (KeyError, TypeError, ValueError, OverflowError)


def _corrupt(game_id: Any, what: str, exc: Exception) -> CorruptRecord:
    return CorruptRecord(str(game_id), f"{what}: {type(exc).__name__}: {exc}")


def game_row_from_columns(columns: dict[str, Any]) -> GameRow:
    try:
        ruleset = _int_of(columns["ruleset"], 32)
        return GameRow(
            game_id=str(columns["game_id"]),
            ruleset=ruleset,
            rules_edition=_int_of(columns["rules_edition"], 32),
            players=_int_of(columns["players"], 32),
            seed=_optional_int(columns["seed"]),
            options=options_of_row(ruleset, columns["options"]),
            position_json=columns["position_json"],
            seat_names=_strings_of(columns["seat_names"]),
            token_hashes=_strings_of(columns["token_hashes"]),
            created_at=_time_of(columns["created_at"]),
            updated_at=_time_of(columns["updated_at"]),
            version=_int_of(columns["version"], 64),
            status=_int_of(columns["status"], 32),
            current_seat=(None if columns["current_seat"] is None
                          else _int_of(columns["current_seat"], 32)),
            decision=str(columns["decision"]),
            visibility=_int_of(columns["visibility"], 32),
            host_token_hash=(None if columns["host_token_hash"] is None
                             else str(columns["host_token_hash"])),
            open_seats=_int_of(columns["open_seats"], 32),
            seats_revision=_int_of(columns["seats_revision"], 64),
            hosting=_optional_json(columns["hosting"]),
            clock=_optional_json(columns["clock"]),
            next_due=(None if columns["next_due"] is None else float(columns["next_due"])),
        )
    except _UNDECODABLE as exc:
        raise _corrupt(columns.get("game_id"), "games row", exc) from exc


def _action_of(text: Any) -> dict[str, Any]:
    action = _json_of(text, dict)
    ids = action["ids"]
    undo = action.get("undo", False)
    if not isinstance(undo, bool):
        raise TypeError("action undo: a boolean expected")
    if undo:  # an UndoAction: no ids
        if ids != [] or action["compound"] is not False:
            raise TypeError("an undo has no ids and is not compound")
        return action  # type: ignore[no-any-return]
    if not isinstance(ids, list) or not ids or not all(type(i) is int for i in ids):
        raise TypeError("action ids: a non-empty list of integers expected")
    if not isinstance(action["compound"], bool):
        raise TypeError("action compound: a boolean expected")
    return action  # type: ignore[no-any-return]


def decision_row_from_columns(columns: dict[str, Any]) -> DecisionRow:
    try:
        return DecisionRow(
            game_id=str(columns["game_id"]),
            from_version=int(columns["from_version"]),
            to_version=int(columns["to_version"]),
            seat=int(columns["seat"]),
            action=_action_of(columns["action"]),
            idempotency_key=columns["idempotency_key"],
            fingerprint=str(columns["fingerprint"]),
            events=_json_of(columns["events"], list),
            response=bytes(columns["response"]),
            created_at=float(columns["created_at"]),
            state_hash=_optional_int(columns["state_hash"]),
        )
    except _UNDECODABLE as exc:
        raise _corrupt(columns.get("game_id"), "decisions row", exc) from exc


# decisions_after's rows start at the decision holding the version (the last one that begins
# at or before it): one index probe, so that reading the end of a long log does not walk its
# beginning (`to_version > v` alone is no bound on the primary key (game_id, from_version)).
# Parameters: game id, version (%s: PostgreSQL's; SQLite writes ?).
FROM_SPANNING_SQL = (
    "from_version >= COALESCE((SELECT MAX(from_version) FROM decisions "
    "WHERE game_id = %s AND from_version <= %s), 0)"
)


# Snapshots are stored deflated (zlib, level 1): a state's bytes are mostly zeros and small
# counts (Birmingham's 664 take about 160, Pittsburgh's 1,088 about 215), and a young
# game's rows in SQLite's page cache are most of what it costs the server's memory (issue
# 22). Rows written before hold the raw bytes, which begin with the engine's magic: both
# are read. (A server of an earlier version cannot read the deflated ones.)
_RAW_SNAPSHOT = lib.BRASS_MAGIC.to_bytes(4, "little")  # a snapshot's first field (snapshot.c)
_MAX_SNAPSHOT = 1 << 16  # far above any ruleset's snapshot: a corrupt row inflates no further


def snapshot_column(snapshot: Snapshot) -> bytes:
    """The snapshots row's `data` of a snapshot."""
    return zlib.compress(snapshot.data, 1)


def snapshot_from_columns(game_id: str, version: Any, data: Any) -> Snapshot:
    try:
        raw = bytes(data)
        if not raw.startswith(_RAW_SNAPSHOT):
            inflater = zlib.decompressobj()
            raw = inflater.decompress(raw, _MAX_SNAPSHOT)
            if not inflater.eof:
                raise ValueError("a deflated snapshot that does not end")
        return Snapshot(int(version), raw)
    except (*_UNDECODABLE, zlib.error) as exc:
        raise _corrupt(game_id, "snapshots row", exc) from exc


def version_from_column(game_id: str, version: Any) -> int:
    try:
        return int(version)
    except _UNDECODABLE as exc:
        raise _corrupt(game_id, "games row", exc) from exc


def list_page(rows: list[dict[str, Any]], limit: int) -> ListPage:
    """A ListGames page from up to limit + 1 rows (newest first; one more than the page
    says that more follow). A row that does not decode is left out of the page and logged
    (CORRUPT_GAME is for that game's own calls); the cursor still moves past it."""
    more = len(rows) > limit
    rows = rows[:limit]
    games = []
    for columns in rows:
        try:
            games.append(game_row_from_columns(columns))
        except CorruptRecord as corrupt:
            log.error("corrupt_game_listed", game_id=corrupt.game_id, error=corrupt.cause)
    next_cursor = None
    if more:
        for columns in reversed(rows):  # (a created_at that is not a number cannot be one)
            try:
                next_cursor = (float(columns["created_at"]), str(columns["game_id"]))
                break
            except (TypeError, ValueError):
                continue
    return ListPage(games, next_cursor)


GAME_COLUMNS = (
    "game_id, ruleset, rules_edition, players, seed, options, position_json, seat_names, "
    "token_hashes, created_at, updated_at, version, status, current_seat, decision, "
    + ", ".join(name for name, _ in GAME_COLUMNS_ADDED)
)
GAME_COLUMN_COUNT = GAME_COLUMNS.count(",") + 1


def list_conditions(where: ListFilter | None, placeholder: str) -> tuple[str, list[Any]]:
    """The SQL conditions (each starting with " AND ") and parameters of a ListFilter, in
    the words of LIST_INDEXES so that one of them serves the page."""
    sql, params = "", []
    if where is None:
        return sql, params
    if where.ruleset is not None:
        sql += f" AND ruleset = {placeholder}"
        params.append(where.ruleset)
    if where.has_open_seats is not None:
        sql += f" AND {OPEN_SEATS[where.has_open_seats]}"
    if where.public_only:
        sql += f" AND {_LISTED}"
    if where.account_id is not None:
        sql += " AND " + ACCOUNT_GAMES_SQL.format(p=placeholder)
        params.append(where.account_id)
    return sql, params


DECISION_COLUMNS = (
    "game_id, from_version, to_version, seat, action, idempotency_key, fingerprint, events, "
    "response, created_at, state_hash"
)
