"""The store contract shared by the SQLite and PostgreSQL back ends.

A game is stored as
- one `games` row: creation parameters (players, seed, options or starting position), seat
  names, seat token digests, and the head (version, status, seat to act) used for listing
  and as the optimistic-concurrency guard;
- append-only `decisions` rows, one per accepted submission, keyed (game_id, from_version)
  so two replicas can never both apply a move on the same version, and (game_id,
  idempotency_key) so a retried request is found again;
- `snapshots`: the engine's snapshot bytes at some versions (creation, then periodically).

A game is recovered by restoring its newest snapshot and re-applying later decisions.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

# Called with (game_id, version) whenever a decision is committed, by any replica.
ChangeListener = Callable[[str, int], Awaitable[None] | None]


class VersionConflict(Exception):
    """Another writer already appended a decision on this version of the game."""


class IdempotencyConflict(Exception):
    """Another writer already stored a decision with this idempotency key."""


class StoreUnavailable(Exception):
    """The database cannot be reached or refused the operation."""


@dataclass
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


# Above every version a game reaches: "no bound" in version comparisons.
NO_VERSION_LIMIT = 2**62


@dataclass
class DecisionRow:
    game_id: str
    from_version: int
    to_version: int
    seat: int
    # {"ids": [...], "compound": bool}: what was applied, enough to re-apply it.
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


class Store(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_game(self, game: GameRow, snapshot: Snapshot) -> int | None:
        """Stores a new game; returns its change mark after the write (see change_mark)."""
        ...

    async def get_game(self, game_id: str) -> GameRow | None: ...

    async def head_version(self, game_id: str) -> int | None:
        """The game's stored version (None for an unknown game): the cheap freshness check
        made before answering from a game held in memory."""
        ...

    def change_mark(self, game_id: str | None = None) -> int | None:
        """For caches. With a game id: a number that stays the same as long as no other
        process has written that game (a game in memory checked against the store under
        one mark is still current while the mark holds); without: a number that moves
        whenever another process has written anything. None when the store cannot tell
        (PostgreSQL, shared by replicas; a write under way): then the read checks the head."""
        ...

    async def latest_snapshot(
        self, game_id: str, at_most: int | None = None
    ) -> Snapshot | None:
        """The newest snapshot of the game (at version `at_most` or before, when given)."""
        ...

    async def decisions_after(
        self, game_id: str, version: int, up_to: int | None = None, limit: int | None = None
    ) -> list[DecisionRow]: ...

    async def find_decision_by_key(self, game_id: str, key: str) -> DecisionRow | None: ...

    async def append_decision(
        self, row: DecisionRow, head: HeadUpdate, snapshot: Snapshot | None
    ) -> int | None:
        """Atomically appends the decision, moves the head and stores the snapshot; returns
        the game's change mark after the write (see change_mark).

        Raises VersionConflict when the head is no longer row.from_version, and
        IdempotencyConflict when the idempotency key is already taken.
        """
        ...

    async def list_games(
        self, limit: int, cursor: tuple[float, str] | None, status: int | None
    ) -> ListPage: ...

    async def count_games(self, status: int | None) -> int: ...

    def add_listener(self, listener: ChangeListener) -> None:
        """Registers a callback for decisions committed by other processes (if supported)."""
        ...


def dumps(value: Any) -> str:
    """Compact JSON text with sorted keys, for the stores' text columns (orjson: the
    writer thread makes one or two per decision)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def game_row_from_columns(columns: dict[str, Any]) -> GameRow:
    return GameRow(
        game_id=columns["game_id"],
        ruleset=int(columns["ruleset"]),
        rules_edition=int(columns["rules_edition"]),
        players=int(columns["players"]),
        seed=int(columns["seed"]) if columns["seed"] is not None else None,
        options=json.loads(columns["options"]),
        position_json=columns["position_json"],
        seat_names=json.loads(columns["seat_names"]),
        token_hashes=json.loads(columns["token_hashes"]),
        created_at=float(columns["created_at"]),
        updated_at=float(columns["updated_at"]),
        version=int(columns["version"]),
        status=int(columns["status"]),
        current_seat=int(columns["current_seat"]) if columns["current_seat"] is not None else None,
        decision=columns["decision"],
    )


def decision_row_from_columns(columns: dict[str, Any]) -> DecisionRow:
    return DecisionRow(
        game_id=columns["game_id"],
        from_version=int(columns["from_version"]),
        to_version=int(columns["to_version"]),
        seat=int(columns["seat"]),
        action=json.loads(columns["action"]),
        idempotency_key=columns["idempotency_key"],
        fingerprint=columns["fingerprint"],
        events=json.loads(columns["events"]),
        response=bytes(columns["response"]),
        created_at=float(columns["created_at"]),
        state_hash=int(columns["state_hash"]) if columns["state_hash"] is not None else None,
    )


GAME_COLUMNS = (
    "game_id, ruleset, rules_edition, players, seed, options, position_json, seat_names, "
    "token_hashes, created_at, updated_at, version, status, current_seat, decision"
)
DECISION_COLUMNS = (
    "game_id, from_version, to_version, seat, action, idempotency_key, fingerprint, events, "
    "response, created_at, state_hash"
)
