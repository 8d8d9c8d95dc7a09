"""GameSummary, as protobuf and as proto3 JSON: the fields a row fixes (made once per row
object), and those that change with the game (version, status, clock, how it ended).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

from google.protobuf import timestamp_pb2

from .. import hosted
from ..gen import game_service_pb2 as pb
from ..model import LiveGame, clock_of, is_waiting, status_of
from ..store import GameRow
from .convert import message_to_json_dict


def timestamp_message(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


@functools.lru_cache(maxsize=64)
def _second_text(whole: int) -> str:
    """A whole second's RFC 3339 text: most stamps of a moment share their second, and
    strftime(gmtime()) costs more than the rest of the text."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))


def timestamp_json(seconds: float) -> str:
    """timestamp_message(seconds).ToJsonString(), made directly (the same RFC 3339 text: 0, 3, 6
    or 9 fractional digits, as few as the nanoseconds need)."""
    whole, nanos = divmod(int(seconds * 1e9), 1_000_000_000)
    text = _second_text(whole)
    if nanos == 0:
        return text + "Z"
    if nanos % 1_000_000 == 0:
        return f"{text}.{nanos // 1_000_000:03d}Z"
    if nanos % 1000 == 0:
        return f"{text}.{nanos // 1000:06d}Z"
    return f"{text}.{nanos:09d}Z"


def _seat_list(row: GameRow) -> list[dict[str, Any]]:
    """The seats as SeatInfo JSON: an open seat has no token digest."""
    return hosted.seat_infos(row)


def end_reason(row: GameRow, game: Any | None) -> int:
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


# The games being played now: a summary is encoded once per row while its game is busy.
# Each kept summary costs ~1.5 KB, so the bound is the busy games, not every live game
# (4,096 kept made them 1.5 KB of each of 2,000 live games' memory: issue 22).
_ROW_SUMMARIES_KEPT = 256


def _row_summary(row: GameRow) -> _RowSummary:
    cached = _row_summaries.get(id(row))
    if cached is not None and cached[0] is row:
        return cached[1]
    seats = _seat_list(row)
    summary = pb.GameSummary(
        game_id=row.game_id,
        ruleset=row.ruleset,
        seats=[pb.SeatInfo(account_id=seat["accountId"],
                           **{k: v for k, v in seat.items() if k != "accountId"})
               for seat in seats],
        create_time=timestamp_message(row.created_at),
        from_position=row.position_json is not None,
        visibility=row.visibility,
        open_seats=row.open_seats,
    )
    document: dict[str, Any] = {
        "gameId": row.game_id,
        "ruleset": RULESET_NAMES.get(row.ruleset, row.ruleset),
        "seats": seats,
        "createTime": timestamp_json(row.created_at),
        "fromPosition": row.position_json is not None,
        "visibility": _VISIBILITY_NAMES.get(row.visibility, row.visibility),
        "openSeats": row.open_seats,
    }
    hosting = hosted.hosting_of(row)
    summary.rated = bool(hosting.get("rated"))
    summary.rating_changes.extend(pb.RatingChange(**change)
                                  for change in hosting.get("ratings", ()))
    document["rated"] = summary.rated
    document["ratingChanges"] = [message_to_json_dict(change)
                                 for change in summary.rating_changes]
    summary.rematch_of = document["rematchOf"] = hosting.get("rematch_of", "")
    rematch = hosted.rematch_state(row)
    if rematch is not None:
        summary.rematch.CopyFrom(rematch)
        document["rematch"] = message_to_json_dict(rematch)
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
        ended = end_reason(row, game)
    if "clock" not in hosting:
        return ended, None
    clock = clock_of(row, live) if live is not None else row.clock
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


def game_summary(row: GameRow, live: LiveGame | None = None,
             into: pb.GameSummary | None = None) -> pb.GameSummary:
    """Public facts; from the live game when given (it may be ahead of `row`). Written into
    `into` (empty) when given: a message held by another is filled in place, not copied."""
    summary = pb.GameSummary() if into is None else into
    summary.MergeFromString(_row_summary(row).data)
    summary.update_time.FromNanoseconds(
        int((live.updated_at if live is not None else row.updated_at) * 1e9))
    if is_waiting(row):  # nobody is to act before the start
        summary.version = row.version
        summary.status = row.status
        summary.decision = row.decision
    elif live is not None:
        game = live.game
        summary.version = live.version
        summary.status = status_of(game)
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


RULESET_NAMES = {value: name for name, value in pb.Ruleset.items()}


_STATUS_NAMES = {value: name for name, value in pb.GameStatus.items()}


_VISIBILITY_NAMES = {value: name for name, value in pb.Visibility.items()}


_END_REASON_NAMES = {value: name for name, value in pb.EndReason.items()}


def game_summary_json(row: GameRow, live: LiveGame) -> dict[str, Any]:
    """The proto3 JSON of game_summary(row, live), made directly."""
    game = live.game
    document = dict(_row_summary(row).json)
    document["version"] = str(live.version)
    document["status"] = _STATUS_NAMES[row.status if is_waiting(row) else status_of(game)]
    document["decision"] = game.decision
    document["updateTime"] = timestamp_json(live.updated_at)
    if game.current_seat is not None and not is_waiting(row):
        document["currentSeat"] = game.current_seat
    ended, clock = _ending_and_clock(row, live)
    document["endReason"] = _END_REASON_NAMES[ended]
    if ended != pb.END_REASON_UNSPECIFIED:
        document["status"] = "GAME_STATUS_FINISHED"
        document.pop("currentSeat", None)
    if clock is not None:
        document["clock"] = message_to_json_dict(clock)
    return document
