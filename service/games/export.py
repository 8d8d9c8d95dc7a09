"""Bulk export of finished games as JSON Lines (GET /v1/games:export, the operator's only):
one line per game in the versioned format of brass/schemas/game-export.v1.json, newest
first, filtered by ruleset, players, rated and creation time. Streamed with bounded memory:
one page of game rows and one game's decisions are held at a time, and each line is
written (the transport waiting for the client to read it) before the next is made.
brass.records.read_export loads such a file and checks every game's final state hash.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import brass.records

from .. import hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..requests import ENGINE_RULESETS
from ..store import GameRow, ListFilter, Store, StoreUnavailable
from ..views.summary import timestamp_json

# Games per export request: the default and the bound.
DEFAULT_EXPORT_GAMES = 1000
MAX_EXPORT_GAMES = 100_000
# Game rows read per page, and decision rows per read of one game's log.
_ROWS_PER_PAGE = 100
_DECISIONS_PER_READ = 1000


@dataclass(frozen=True)
class ExportFilter:
    """Which finished games an export holds (None: any), at most `limit` of them."""

    ruleset: int | None = None
    players: int | None = None
    rated: bool | None = None
    created_after: float | None = None  # Unix seconds, inclusive
    created_before: float | None = None  # exclusive
    limit: int = DEFAULT_EXPORT_GAMES

    def check(self) -> None:
        if self.ruleset is not None and self.ruleset not in ENGINE_RULESETS:
            raise ServiceError("INVALID_ARGUMENT", f"ruleset {self.ruleset} is not supported",
                               field="ruleset")
        if self.players is not None and not 2 <= self.players <= 4:
            raise ServiceError("INVALID_ARGUMENT", "players must be 2, 3 or 4",
                               field="players")
        if not 1 <= self.limit <= MAX_EXPORT_GAMES:
            raise ServiceError("INVALID_ARGUMENT", f"limit must be from 1 to "
                               f"{MAX_EXPORT_GAMES}", field="limit")
        for name in ("created_after", "created_before"):
            value = getattr(self, name)
            if value is not None and not (math.isfinite(value) and 0 <= value < 2**37):
                raise ServiceError("INVALID_ARGUMENT", f"{name} is not a time",
                                   field=name)

    @classmethod
    def of_request(cls, request: pb.ExportGamesRequest) -> ExportFilter:
        """The filter of ExportGames over gRPC (unset fields: any; limit: the default)."""
        def seconds(name: str) -> float | None:
            if not request.HasField(name):
                return None
            moment = getattr(request, name)
            return moment.seconds + moment.nanos / 1e9

        return cls(
            ruleset=request.ruleset or None,
            players=request.players if request.HasField("players") else None,
            rated=request.rated if request.HasField("rated") else None,
            created_after=seconds("created_after"),
            created_before=seconds("created_before"),
            limit=request.limit if request.HasField("limit") else DEFAULT_EXPORT_GAMES,
        )

    def keeps(self, row: GameRow) -> bool:
        return ((self.players is None or row.players == self.players)
                and (self.rated is None
                     or bool(hosted.hosting_of(row).get("rated")) == self.rated))


class Export:
    """The lines of a bulk export."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def lines(self, where: ExportFilter) -> AsyncIterator[bytes]:
        """Each kept finished game's line (UTF-8 JSON and a newline), newest first."""
        where.check()
        cursor = None if where.created_before is None else (where.created_before, "")
        sent = 0
        while sent < where.limit:
            try:
                page = await self.store.list_games(
                    _ROWS_PER_PAGE, cursor, pb.GAME_STATUS_FINISHED,
                    ListFilter(ruleset=where.ruleset))
            except StoreUnavailable as exc:
                raise ServiceError("UNAVAILABLE", Text("store_unavailable")
                                   ) from exc
            for row in page.games:
                if where.created_after is not None and row.created_at < where.created_after:
                    return  # newest first: every later row is older still
                if not where.keeps(row) or sent >= where.limit:
                    continue
                yield (json.dumps(await self.line(row), separators=(",", ":")) + "\n").encode()
                sent += 1
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def line(self, row: GameRow) -> dict[str, Any]:
        """A finished game's export line (game-export.v1)."""
        decisions: list[int | str] = []
        state_hash: int | None = None
        ended = row.updated_at
        while len(decisions) < row.version:
            rows = await self.store.decisions_after(row.game_id, len(decisions),
                                                    up_to=row.version,
                                                    limit=_DECISIONS_PER_READ)
            if not rows or rows[0].from_version != len(decisions):
                raise ServiceError("CORRUPT_GAME",
                                   f"game {row.game_id}: decision log is incomplete")
            for stored in rows:
                decisions.extend(["undo"] if stored.action.get("undo")
                                 else [int(i) for i in stored.action["ids"]])
                state_hash, ended = stored.state_hash, max(ended, stored.created_at)
        record: dict[str, Any] = {
            "rules_edition": row.rules_edition,
            "ruleset": ENGINE_RULESETS.get(row.ruleset, "birmingham"),
            "players": row.players, "options": row.options, "decisions": decisions,
        }
        if row.position_json is not None:
            record["position"] = json.loads(row.position_json)
        else:
            record["seed"] = str(row.seed)
        hosting = hosted.hosting_of(row)
        seats = [{"seat": info["seat"], "name": info["name"], "bot": info["bot"],
                  "account_id": info["accountId"], "resigned": info["resigned"]}
                 for info in hosted.seat_infos(row)]
        return {
            "format": brass.records.EXPORT_FORMAT,
            "game_id": row.game_id,
            "ruleset": record["ruleset"],
            "players": row.players,
            "rated": bool(hosting.get("rated")),
            "created_at": timestamp_json(row.created_at),
            "ended_at": timestamp_json(ended),
            "end_reason": pb.EndReason.Name(hosted.end_reason(row) or pb.END_REASON_SCORED),
            "seats": seats,
            "version": len(decisions),
            "state_hash": None if state_hash is None else str(state_hash),
            "record": record,
        }
