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
The rows themselves, their decoding and the SQL both stores share are in rows.py.

Failures the clients see are ServiceErrors raised by the stores themselves, so that no
caller has to map them: StoreUnavailable (UNAVAILABLE: retry) and CorruptRecord
(CORRUPT_GAME: a stored row of one game cannot be decoded).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import structlog

from ..errors import ServiceError
from ..i18n import Text

if TYPE_CHECKING:  # (rows.py imports this module's errors: the names are for annotations)
    from .accounts import AccountRows
    from .arenas import ArenaRows
    from .challenges import ChallengeRows
    from .ratings import RatingRows
    from .rows import DecisionRow, GameRow, HeadUpdate, ListFilter, ListPage, SeatsUpdate, Snapshot
    from .webhooks import HookEvent, WebhookRows

log = structlog.get_logger("brass_service.store")

# Called with (game_id, version) whenever a decision is committed, by any replica.
ChangeListener = Callable[[str, int], Awaitable[None] | None]


class VersionConflict(Exception):
    """Another writer already appended a decision on this version of the game."""


class IdempotencyConflict(Exception):
    """Another writer already stored a decision with this idempotency key."""


class StoreUnavailable(ServiceError):
    """The database cannot be reached or refused the operation (disk full, connection lost,
    timed out): UNAVAILABLE to the client, whose retry is safe (a submission's retry with
    its idempotency key or expected version is never applied twice). `str()` is the cause,
    for logs; the client's message does not show it."""

    def __init__(self, cause: str) -> None:
        super().__init__("UNAVAILABLE", Text("store_unavailable"))
        self.cause = cause

    def __str__(self) -> str:
        return self.cause


class CorruptRecord(ServiceError):
    """A stored row of the game cannot be decoded: CORRUPT_GAME for that game only."""

    def __init__(self, game_id: str, cause: str) -> None:
        super().__init__(
            "CORRUPT_GAME", f"a stored record of game {game_id} cannot be read", game_id=game_id
        )
        self.game_id = game_id
        self.cause = cause

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.cause}"


@dataclass
class StoreHealth:
    """What /healthz reports about the store."""

    readable: bool
    writable: bool
    # The cause of the latest failure, while reads or writes fail.
    error: str | None = None
    # Since when (Unix time) they have been failing.
    failing_since: float | None = None
    # SQLite: the space left on the database's filesystem (for unprivileged writers).
    free_bytes: int | None = None

    @property
    def status(self) -> str:
        if not self.readable:
            return "NOT_SERVING"
        return "SERVING" if self.writable else "DEGRADED"

    def to_json(self) -> dict[str, Any]:
        """{"status": "SERVING"} when all is well; otherwise the store's state too."""
        if self.status == "SERVING":
            return {"status": "SERVING"}
        store: dict[str, Any] = {"readable": self.readable, "writable": self.writable}
        if self.error is not None:
            store["error"] = self.error
        if self.failing_since is not None:
            store["failing_since"] = self.failing_since
        if self.free_bytes is not None:
            store["free_bytes"] = self.free_bytes
        return {"status": self.status, "store": store}


class FailureTracker:
    """Whether a store's reads or writes are failing now, and why. Logs the cause once when
    they start failing and once when they recover (not once per request); safe to call
    from the store's threads."""

    READS, WRITES = "reads", "writes"
    # While writes fail, /healthz tries a probe write at most this often.
    PROBE_SECONDS = 1.0

    def __init__(self) -> None:
        # Called from the store's threads too: their log lines keep the fields bound where
        # the store was made (the worker index with --workers).
        self._log = log.bind(**structlog.contextvars.get_contextvars())
        self._guard = threading.Lock()
        self._failing: dict[str, tuple[str, float]] = {}  # kind -> (cause, since)
        self._last_probe = 0.0

    def failed(self, kind: str, cause: str) -> None:
        with self._guard:
            known = self._failing.get(kind)
            self._failing[kind] = (cause, known[1] if known else time.time())
        if known is None:
            self._log.error(f"store_{kind}_failing", error=cause)

    def succeeded(self, kind: str) -> None:
        if kind not in self._failing:  # (the common case, without the lock)
            return
        with self._guard:
            known = self._failing.pop(kind, None)
        if known is not None:
            self._log.info(
                f"store_{kind}_recovered", failed_seconds=round(time.time() - known[1], 3)
            )

    def failing(self, kind: str) -> bool:
        return kind in self._failing

    def probe_due(self) -> bool:
        """Whether a probe write may run now (at most one per PROBE_SECONDS)."""
        now = time.monotonic()
        with self._guard:
            if now - self._last_probe < self.PROBE_SECONDS:
                return False
            self._last_probe = now
            return True

    def health(self, free_bytes: int | None = None) -> StoreHealth:
        with self._guard:
            failing = dict(self._failing)
        latest = max(failing.values(), key=lambda entry: entry[1], default=None)
        return StoreHealth(
            readable=self.READS not in failing,
            writable=self.WRITES not in failing,
            error=latest[0] if latest else None,
            failing_since=min(entry[1] for entry in failing.values()) if failing else None,
            free_bytes=free_bytes,
        )


class Store(Protocol):
    # The accounts' queries (accounts.py), on this store's connections.
    accounts: AccountRows
    ratings: RatingRows
    challenges: ChallengeRows
    webhooks: WebhookRows
    arenas: ArenaRows

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_game(self, game: GameRow, snapshot: Snapshot,
                          hooks: Sequence[HookEvent] = ()) -> int | None:
        """Stores a new game, and the webhooks' outbox rows of `hooks` in the same
        transaction; returns its change mark after the write (see change_mark)."""
        ...

    async def get_game(self, game_id: str) -> GameRow | None: ...

    async def head_version(self, game_id: str) -> int | None:
        """The game's stored version (None for an unknown game): the cheap freshness check
        made before answering from a game held in memory."""
        ...

    async def head(self, game_id: str) -> tuple[int, int] | None:
        """The game's stored version and seats_revision (None for an unknown game), in
        one indexed read: what head_version checks, and whether the seats changed."""
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
        self, row: DecisionRow, head: HeadUpdate, snapshot: Snapshot | None,
        hooks: Sequence[HookEvent] = (),
    ) -> int | None:
        """Atomically appends the decision, moves the head, stores the snapshot and queues
        the webhooks' events `hooks` (store/webhooks.py); returns the game's change mark
        after the write (see change_mark).

        Raises VersionConflict when the head is no longer row.from_version, and
        IdempotencyConflict when the idempotency key is already taken.
        """
        ...

    async def list_games(
        self, limit: int, cursor: tuple[float, str] | None, status: int | None,
        where: ListFilter | None = None,
    ) -> ListPage:
        """A page of games, newest first: of `status` when given, and as `where` says."""
        ...

    async def update_seats(self, game_id: str, update: SeatsUpdate,
                           hooks: Sequence[HookEvent] = ()) -> bool:
        """Applies the change of seats if the game's seats_revision is still
        update.from_revision (and moves it on), with the webhooks' events `hooks` in the
        same transaction; whether it was applied. It never touches
        the version: the decision log is unchanged."""
        ...

    async def count_games(self, status: int | None) -> int: ...

    async def due_games(self, now: float, limit: int) -> list[str]:
        """Ids of games whose next_due is at or before `now`, soonest first, at most
        `limit` (an indexed read)."""
        ...

    async def claim_due(
        self, game_id: str, version: int, seats_revision: int, now: float,
        until: float | None,
    ) -> bool:
        """Moves the game's next_due to `until` if the game is still at `version` and
        `seats_revision` and its next_due is at or before `now`; whether it did. One process
        wins a due game: the others find next_due in the future (or the game moved)."""
        ...

    async def idle_games(self, status: int, updated_before: float, limit: int) -> list[str]:
        """Ids of games of `status` last moved before `updated_before`, at most `limit`."""
        ...

    async def delete_game_if_idle(
        self, game_id: str, status: int, updated_before: float
    ) -> bool:
        """Deletes the game, its decisions and snapshots, if it is still of `status` and last
        moved before `updated_before` (checked in the same transaction, so a game moved
        meanwhile is kept); whether it was deleted."""
        ...

    def add_listener(self, listener: ChangeListener) -> None:
        """Registers a callback for decisions committed by other processes (if supported)."""
        ...

    async def health(self) -> StoreHealth:
        """Reads the store once (fails fast) and reports whether writes fail; while they do
        (or, SQLite, while the disk has no space left) it tries a small probe write, at
        most once per FailureTracker.PROBE_SECONDS, so that recovery is seen without
        traffic."""
        ...
