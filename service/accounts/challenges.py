"""Challenges (issue 24, item 2): an account challenges one to three others to a game;
each challenged account accepts (the last acceptance starts the game, each seat bound to
its account) or declines; the challenger may withdraw. Each change wakes the streams of
every account of the challenge (stream.py). Limited per account: challenges sent (a rate)
and open at once (a cap).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from google.protobuf import json_format

from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..limits import RateQuota
from ..observability import RequestRecord
from ..requests import request_options, require, ruleset_name
from ..store import Store, StoreUnavailable
from ..store.accounts import AccountRow, RowConflict
from ..store.challenges import ACCEPTED, DECLINED, OPEN, ChallengeRow
from ..views.summary import timestamp_message
from ..webhooks.events import challenge_events
from .accounts import AccountCaller, Accounts

# (request, caller, record, other seats' accounts) -> the new game: Creation.create_game
CreateGame = Callable[..., Awaitable[pb.CreateGameResponse]]


class ChallengeSettings(Protocol):
    challenge_rate: str
    max_open_challenges: int


# (account, seat, accepted) of each challenged account
Parts = list[tuple[str, int, bool]]


def challenge_message(row: ChallengeRow, parts: Parts | None = None) -> pb.Challenge:
    game = json_format.Parse(row.request, pb.CreateGameRequest())
    parts = parts or []
    return pb.Challenge(
        challenge_id=row.challenge_id, challenger_id=row.challenger_id,
        challenged_id=row.challenged_id, ruleset=game.ruleset, options=game.options,
        rated=game.rated, status=row.status,  # type: ignore[arg-type]
        game_id=row.game_id or "", create_time=timestamp_message(row.created_at),
        more_challenged_ids=[account for account, seat, _ in parts if seat > 1],
        accepted_ids=[account for account, _, accepted in parts if accepted])


def _unavailable(exc: StoreUnavailable) -> ServiceError:
    return ServiceError("UNAVAILABLE", "the challenge store is unavailable; retry")


class Challenges:
    """CreateChallenge, AcceptChallenge, DeclineChallenge."""

    def __init__(self, store: Store, settings: ChallengeSettings, accounts: Accounts,
                 create_game: CreateGame, notify: Callable[[str], None]) -> None:
        self.rows = store.challenges
        self.settings = settings
        self.accounts = accounts
        self.create_game = create_game
        self.notify = notify
        self.quota = RateQuota(settings.challenge_rate, "challenges sent by this account",
                               "challenge_rate")

    async def create(self, request: pb.CreateChallengeRequest, caller: AccountCaller,
                     record: RequestRecord) -> pb.CreateChallengeResponse:
        me = await self.accounts.caller_account(caller, "CreateChallenge")
        challenged = [request.account_id, *request.more_account_ids]
        require(len(challenged) <= 3, "at most three accounts are challenged (4 players)",
                "more_account_ids")
        require(me.account_id not in challenged and len(set(challenged)) == len(challenged),
                "the challenged accounts are distinct, and not the challenger",
                "more_account_ids" if request.more_account_ids else "account_id")
        others = [await self.accounts.row(account_id) for account_id in challenged]
        ruleset_name(request.ruleset)
        request_options(request.options)  # (refused now rather than at the acceptance)
        self.quota.admit(f"account:{me.account_id}", record=False)
        try:
            if await self.rows.count_open_from(me.account_id) >= \
                    self.settings.max_open_challenges:
                raise ServiceError(
                    "RATE_LIMITED", f"this account has {self.settings.max_open_challenges} "
                    "open challenges, the most it may have: wait for answers, or withdraw one",
                    limit="max_open_challenges", retry_after_seconds=30.0)
            self.quota.admit(f"account:{me.account_id}")
            game = pb.CreateGameRequest(ruleset=request.ruleset, players=1 + len(others),
                                        options=request.options, rated=request.rated)
            row = ChallengeRow("c" + secrets.token_hex(8), me.account_id,
                               others[0].account_id,
                               json_format.MessageToJson(game, indent=None), OPEN, None,
                               time.time())
            challenged = [other.account_id for other in others]
            await self.rows.create(row, challenged, challenge_events(
                row.challenge_id, me.account_id, challenged, row.created_at))
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        parts = [(other.account_id, seat, False) for seat, other in enumerate(others, 1)]
        self._tell(row, parts)
        return pb.CreateChallengeResponse(challenge=challenge_message(row, parts))

    async def accept(self, request: pb.AcceptChallengeRequest, caller: AccountCaller,
                     record: RequestRecord) -> pb.AcceptChallengeResponse:
        me = await self.accounts.caller_account(caller, "AcceptChallenge")
        row = await self._row(request.challenge_id)
        parts = await self.rows.parts(row.challenge_id)
        mine = [seat for account, seat, _ in parts if account == me.account_id]
        if not mine:
            raise ServiceError("NOT_YOUR_ACCOUNT", "only a challenged account accepts a "
                               "challenge", account_id=row.challenged_id)
        if row.status != OPEN:
            raise ServiceError("CHALLENGE_CLOSED", f"challenge {row.challenge_id} is no "
                               "longer open")
        with contextlib.suppress(RowConflict):  # (accepted already: once is enough)
            await self.rows.accept_part(row.challenge_id, me.account_id)
        parts = await self.rows.parts(row.challenge_id)
        if not all(accepted for _, _, accepted in parts):
            self._tell(row, parts)  # waiting for the others
            return pb.AcceptChallengeResponse(challenge=challenge_message(row, parts))
        seated = [(0, await self.accounts.row(row.challenger_id))] + [
            (seat, await self.accounts.row(account)) for account, seat, _ in parts
            if account != me.account_id]
        await self._close(row, ACCEPTED)
        game = json_format.Parse(row.request, pb.CreateGameRequest())
        game.account_seat = mine[0]
        try:
            created = await self.create_game(game, caller, record, tuple(seated))
        except BaseException:
            await self.rows.set_game(row.challenge_id, None, OPEN)  # open again
            raise
        await self.rows.set_game(row.challenge_id, created.game_id, ACCEPTED)
        row.game_id, row.status = created.game_id, ACCEPTED
        self._tell(row, parts)
        return pb.AcceptChallengeResponse(challenge=challenge_message(row, parts))

    async def decline(self, request: pb.DeclineChallengeRequest, caller: AccountCaller,
                      record: RequestRecord) -> pb.DeclineChallengeResponse:
        me = await self.accounts.caller_account(caller, "DeclineChallenge")
        row = await self._row(request.challenge_id)
        parts = await self.rows.parts(row.challenge_id)
        if me.account_id not in [row.challenger_id, *(account for account, _, _ in parts)]:
            raise ServiceError("NOT_YOUR_ACCOUNT", "the challenge is between other accounts")
        await self._close(row, DECLINED)
        row.status = DECLINED
        self._tell(row, parts)
        return pb.DeclineChallengeResponse(challenge=challenge_message(row, parts))

    async def open_of(self, account: AccountRow, limit: int) -> list[ChallengeRow]:
        return await self.rows.open_of(account.account_id, limit)

    async def _row(self, challenge_id: str) -> ChallengeRow:
        require(0 < len(challenge_id) <= 64, "challenge_id is required (at most 64 "
                "characters)", "challenge_id")
        try:
            row = await self.rows.by_id(challenge_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if row is None:
            raise ServiceError("UNKNOWN_CHALLENGE", f"no challenge has id {challenge_id!r}")
        return row

    async def _close(self, row: ChallengeRow, status: int) -> None:
        if row.status != OPEN or not await self.rows.close(row.challenge_id, status, None):
            raise ServiceError("CHALLENGE_CLOSED", f"challenge {row.challenge_id} is no "
                               "longer open")

    def _tell(self, row: ChallengeRow, parts: Parts) -> None:
        for account_id in (row.challenger_id, *(account for account, _, _ in parts)):
            self.notify(account_id)

