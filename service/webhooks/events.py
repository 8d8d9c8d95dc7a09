"""Which webhook events a change causes, as plain functions of the game's row before it
and what the change stores (a decision's head, a change of seats, a new game, a
challenge). The results go to the store with the change itself, which writes them to the
outbox in the same transaction (store/webhooks.py).

    your_turn     the seat to act changed to a seat a person plays (a bot's seat gets none)
    game_started  every seat, when the game starts (created full, or StartGame)
    game_over     every seat, when the game ends (the rules, a resignation, a forfeit)
    challenge     each challenged account, when a challenge is made
    seat_joined   the host, when a seat is taken (JoinGame)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import hosted
from ..gen import game_service_pb2 as pb
from ..store import GameRow, HeadUpdate, SeatsUpdate
from ..store.webhooks import HOST_SEAT, HookEvent

# The event types each owner of a webhook may ask for (CreateWebhook's `events`).
ACCOUNT_EVENTS = ("your_turn", "game_started", "game_over", "challenge")
SEAT_EVENTS = ("your_turn", "game_started", "game_over")
HOST_EVENTS = ("seat_joined", "game_started", "game_over")


def _event(kind: str, game_id: str, now: float, data: dict[str, Any],
           accounts: tuple[str, ...] = (), seats: tuple[int, ...] = ()) -> HookEvent:
    return HookEvent.deferred(kind, game_id, now, data, accounts, seats)


def _for_seat(kind: str, row: GameRow, seat: int, now: float, **data: Any) -> HookEvent:
    """An event for one seat: its own webhooks, and its account's when it has one."""
    account = hosted.accounts_of(row).get(seat)
    return _event(kind, row.game_id, now, {"game_id": row.game_id, "seat": seat, **data},
                  accounts=(account,) if account else (), seats=(seat,))


def _every_seat(kind: str, row: GameRow, now: float, **data: Any) -> list[HookEvent]:
    return [_for_seat(kind, row, seat, now, **data) for seat in range(row.players)]


def _turn(row: GameRow, seat: int | None, version: int, now: float) -> list[HookEvent]:
    hosting = hosted.hosting_of(row)
    if (seat is None or hosted.is_bot_seat(hosting, seat)
            or seat in hosting.get("resigned", ())):
        return []
    return [_for_seat("your_turn", row, seat, now, version=version)]


def decision_events(row: GameRow, seat_before: int | None, head: HeadUpdate
                    ) -> list[HookEvent]:
    """A decision's events: the game over, or the turn of another seat."""
    now = head.updated_at
    if head.status == pb.GAME_STATUS_FINISHED:
        return _every_seat("game_over", row, now, version=head.version)
    if head.current_seat == seat_before:
        return []  # the same seat's turn goes on
    return _turn(row, head.current_seat, head.version, now)


def seats_events(row: GameRow, update: SeatsUpdate) -> list[HookEvent]:
    """A change of seats' events: a start, an end (resignation, forfeit), seats taken."""
    now = update.updated_at
    after = dataclasses.replace(
        row, seat_names=update.seat_names, token_hashes=update.token_hashes,
        hosting=row.hosting if update.hosting is None else update.hosting)
    events: list[HookEvent] = []
    for lobby in (update.hosting or {}).get("events", ()):
        if lobby["revision"] == row.seats_revision + 1 and lobby["kind"] == "seat_joined":
            events.append(_event("seat_joined", row.game_id, now, {
                "game_id": row.game_id, "seat": lobby.get("seat"),
                "name": lobby.get("name", "")}, seats=(HOST_SEAT,)))
    if row.status == pb.GAME_STATUS_WAITING and update.status == pb.GAME_STATUS_IN_PROGRESS:
        events += started_events(after, now)
    if update.status == pb.GAME_STATUS_FINISHED and row.status != pb.GAME_STATUS_FINISHED:
        events += _every_seat("game_over", after, now, version=row.version)
    return events


def started_events(row: GameRow, now: float) -> list[HookEvent]:
    """A game's start: every seat's game_started, then the first seat's turn."""
    return [*_every_seat("game_started", row, now),
            *_turn(row, row.current_seat, row.version, now)]


def created_events(row: GameRow) -> list[HookEvent]:
    """A new game's events: its start when it was created with every seat taken."""
    if row.status != pb.GAME_STATUS_IN_PROGRESS:
        return []
    return started_events(row, row.created_at)


def challenge_events(challenge_id: str, challenger_id: str, challenged: list[str],
                     now: float) -> list[HookEvent]:
    """A challenge made: each challenged account's webhooks hear of it."""
    return [_event("challenge", "", now, {
        "challenge_id": challenge_id, "challenger_id": challenger_id,
        "challenged_ids": challenged}, accounts=tuple(challenged))]
