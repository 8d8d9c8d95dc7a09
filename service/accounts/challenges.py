"""Challenges (issue 24, item 2): an account challenges another to a two-player game;
the challenged account accepts (the game starts at once, each seat bound to its account)
or declines; the challenger may withdraw. Each change wakes both accounts' streams
(stream.py). Limited per account: challenges sent (a rate) and open at once (a cap).
"""

from __future__ import annotations

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
from ..store.accounts import AccountRow
from ..store.challenges import ACCEPTED, DECLINED, OPEN, ChallengeRow
from ..views.summary import timestamp_message
from .accounts import AccountCaller, Accounts

# (request, caller, record, other seats' accounts) -> the new game: Creation.create_game
CreateGame = Callable[..., Awaitable[pb.CreateGameResponse]]


class ChallengeSettings(Protocol):
    challenge_rate: str
    max_open_challenges: int


def challenge_message(row: ChallengeRow) -> pb.Challenge:
    game = json_format.Parse(row.request, pb.CreateGameRequest())
    return pb.Challenge(
        challenge_id=row.challenge_id, challenger_id=row.challenger_id,
        challenged_id=row.challenged_id, ruleset=game.ruleset, options=game.options,
        rated=game.rated, status=row.status,  # type: ignore[arg-type]
        game_id=row.game_id or "", create_time=timestamp_message(row.created_at))


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
        require(request.account_id != me.account_id, "an account cannot challenge itself",
                "account_id")
        other = await self.accounts.row(request.account_id)
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
            game = pb.CreateGameRequest(ruleset=request.ruleset, players=2,
                                        options=request.options, rated=request.rated)
            row = ChallengeRow("c" + secrets.token_hex(8), me.account_id, other.account_id,
                               json_format.MessageToJson(game, indent=None), OPEN, None,
                               time.time())
            await self.rows.create(row)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        self._tell(row)
        return pb.CreateChallengeResponse(challenge=challenge_message(row))

    async def accept(self, request: pb.AcceptChallengeRequest, caller: AccountCaller,
                     record: RequestRecord) -> pb.AcceptChallengeResponse:
        me = await self.accounts.caller_account(caller, "AcceptChallenge")
        row = await self._row(request.challenge_id)
        if row.challenged_id != me.account_id:
            raise ServiceError("NOT_YOUR_ACCOUNT", "only the challenged account accepts a "
                               "challenge", account_id=row.challenged_id)
        challenger = await self.accounts.row(row.challenger_id)
        await self._close(row, ACCEPTED)
        game = json_format.Parse(row.request, pb.CreateGameRequest())
        game.account_seat = 1
        try:
            created = await self.create_game(game, caller, record,
                                             ((0, challenger),))
        except BaseException:
            await self.rows.set_game(row.challenge_id, None, OPEN)  # open again
            raise
        await self.rows.set_game(row.challenge_id, created.game_id, ACCEPTED)
        row.game_id, row.status = created.game_id, ACCEPTED
        self._tell(row)
        return pb.AcceptChallengeResponse(challenge=challenge_message(row))

    async def decline(self, request: pb.DeclineChallengeRequest, caller: AccountCaller,
                      record: RequestRecord) -> pb.DeclineChallengeResponse:
        me = await self.accounts.caller_account(caller, "DeclineChallenge")
        row = await self._row(request.challenge_id)
        if me.account_id not in (row.challenged_id, row.challenger_id):
            raise ServiceError("NOT_YOUR_ACCOUNT", "the challenge is between other accounts")
        await self._close(row, DECLINED)
        row.status = DECLINED
        self._tell(row)
        return pb.DeclineChallengeResponse(challenge=challenge_message(row))

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

    def _tell(self, row: ChallengeRow) -> None:
        for account_id in (row.challenger_id, row.challenged_id):
            self.notify(account_id)

