"""This replica's games in memory: each is brought up to the store's head before it is
used (from a snapshot and the decisions after it), kept in an LRU, and written under a
lock per game.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from typing import Any

import structlog

import brass

from ..errors import ServiceError
from ..i18n import Text
from ..model import LiveGame, is_waiting
from ..observability import CACHED_GAMES
from ..requests import check_game_id
from ..store import DecisionRow, GameRow, Store, StoreUnavailable
from .settings import ServiceSettings

log = structlog.get_logger("brass_service.games.live")


class CachedGame:
    """A game held in this replica's memory: its row (only the parts fixed at creation are
    read from it: ids, names, token digests, creation parameters) and the live game."""

    __slots__ = ("checked_mark", "live", "row")

    def __init__(self, row: GameRow, live: LiveGame, checked_mark: int | None) -> None:
        self.row = row
        self.live = live
        # The store's change mark under which `live` was last checked against the store.
        self.checked_mark = checked_mark


class LiveGames:
    """This replica's games in memory, each brought up to the store's head before use, and a
    lock per game that orders its writes here."""

    def __init__(self, store: Store, settings: ServiceSettings) -> None:
        self.store = store
        self.settings = settings
        self._cache: OrderedDict[str, CachedGame] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __len__(self) -> int:
        return len(self._cache)

    def forget(self, game_id: str) -> None:
        """Drops the game's copy (it was deleted)."""
        self._cache.pop(game_id, None)

    def lock_for(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def remember(self, row: GameRow, live: LiveGame, checked_mark: int | None = None,
                  checked: bool = False) -> CachedGame:
        """Keeps `live` as the game's copy in memory; `checked` when it was just read from
        (or checked against) the store under `checked_mark`."""
        entry = self._cache.get(row.game_id)
        if entry is None:
            entry = self._cache[row.game_id] = CachedGame(row, live, checked_mark)
            while len(self._cache) > self.settings.cache_size:
                self._cache.popitem(last=False)
            CACHED_GAMES.set(len(self._cache))
        else:
            entry.live = live
            if checked:
                entry.checked_mark = checked_mark
            self._cache.move_to_end(row.game_id)
        return entry

    async def row(self, game_id: str) -> GameRow:
        check_game_id(game_id)
        try:
            row = await self.store.get_game(game_id)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", Text("store_unavailable")) from exc
        if row is None:
            raise ServiceError("UNKNOWN_GAME", Text("unknown_game", game_id=game_id),
                               game_id=game_id)
        return row

    async def head(self, game_id: str) -> int:
        """The stored version; the row in memory is read again when the seats changed
        since (a token reissued by another process is refused at once)."""
        try:
            head = await self.store.head(game_id)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", Text("store_unavailable")) from exc
        if head is None:
            raise ServiceError("UNKNOWN_GAME", Text("unknown_game", game_id=game_id),
                               game_id=game_id)
        version, seats_revision = head
        entry = self.entry(game_id)
        if entry is not None and entry.row.seats_revision != seats_revision:
            entry.row = await self.row(game_id)
        return version

    async def get(self, game_id: str, verify: bool = True) -> tuple[GameRow, LiveGame]:
        """The game's row and its in-memory game, at the stored head version.

        The row of a game waiting for players is read again each time: its seats and
        status change (JoinGame, LeaveGame, StartGame) without a new version. Once started,
        seats are fixed, so the row in memory is used."""
        row, live = await self._live_game(game_id, verify)
        if is_waiting(row):
            row = await self.row(game_id)
            entry = self.entry(game_id)
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
        entry = self.entry(game_id)
        if entry is not None:
            if not verify:
                self._cache.move_to_end(game_id)
                return entry.row, entry.live
            mark = self.store.change_mark(game_id)
            if mark is not None and entry.checked_mark == mark:
                self._cache.move_to_end(game_id)
                return entry.row, entry.live
            head = await self.head(game_id)
            entry = self.entry(game_id) or entry  # another request may have moved it
            live = entry.live
            if live.version >= head:
                # Equal, or this replica committed a later version while the head was read.
                self.remember(entry.row, live, mark, checked=True)
                return entry.row, live
            rows = await self.store.decisions_after(game_id, live.version, up_to=head)
            current = self.entry(game_id) or entry
            if current.live.version >= head:
                return current.row, current.live
            caught_up = self.apply_stored(current.live, rows)
            if caught_up.version == head:
                self.remember(current.row, caught_up, mark, checked=True)
                return current.row, caught_up
        # Not in memory, or it cannot be brought forward: restore from the store.
        mark = self.store.change_mark(game_id)
        row = await self.row(game_id)
        live = await self.restore(row)
        entry = self.entry(game_id)
        if entry is not None and entry.live.version >= live.version:
            return entry.row, entry.live
        self.remember(row, live, mark, checked=True)
        return row, live

    async def is_current(self, game_id: str, live: LiveGame) -> bool:
        """Whether `live` is still the stored head of the game."""
        entry = self.entry(game_id)
        mark = self.store.change_mark(game_id)
        if entry is not None and entry.live is live and mark is not None:
            if entry.checked_mark == mark:
                return True
        return await self.head(game_id) == live.version

    def entry(self, game_id: str) -> CachedGame | None:
        return self._cache.get(game_id)

    async def snapshot_game(self, row: GameRow, version: int | None) -> tuple[Any, int]:
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

    async def restore(self, row: GameRow) -> LiveGame:
        game = await self._game_at(row, row.version)
        return LiveGame(game, row.version, row.updated_at, row.clock)

    async def with_turn_start(self, row: GameRow, live: LiveGame) -> LiveGame:
        """`live` rebuilt from the store at its version, holding its turn's start for an undo
        (live games release theirs: Play.apply_and_store)."""
        game = await self._game_at(row, live.version)
        return LiveGame(game, live.version, live.updated_at, live.clock)

    async def _game_at(self, row: GameRow, version: int) -> Any:
        """The game at `version` from the store: the newest snapshot at a turn's start at or
        before it and the decisions since."""
        game, base = await self.snapshot_game(row, version)
        rows = await self.store.decisions_after(row.game_id, base, up_to=version)
        live = self.apply_stored(LiveGame(game, base, row.created_at), rows, in_place=True)
        if live.version != version:
            raise ServiceError(
                "CORRUPT_GAME",
                f"game {row.game_id} restores to version {live.version}, not {version}",
            )
        return live.game

    def apply_stored(
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

    async def game_at(self, row: GameRow, version: int, updated_at: float) -> LiveGame:
        """The game as it was at `version` (a stored version), last moved at `updated_at`."""
        entry = self.entry(row.game_id)
        if entry is not None and entry.live.version == version:
            return entry.live
        game, base = await self.snapshot_game(row, version)
        rows = await self.store.decisions_after(row.game_id, base, up_to=version)
        live = self.apply_stored(LiveGame(game, base, row.created_at), rows, in_place=True)
        if live.version != version:
            raise ServiceError(
                "CORRUPT_GAME", f"game {row.game_id} restores to version {live.version}"
            )
        return LiveGame(live.game, version, updated_at)
