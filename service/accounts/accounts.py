"""The account RPCs (CreateAccount, GetAccount, RotateAccountKey, RevokeAccountKey), the
account an API key names, and the listing of the games an account's key took a seat of.

Bounds: accounts created per client address, account reads per address, key changes per
account (the operator is not limited); a key acts for its own account only. A key is
shown once, by CreateAccount or RotateAccountKey, and is never logged, listed or stored:
only its SHA-256 digest is (keys.py).
"""

from __future__ import annotations

import time
from typing import Protocol

import structlog

from .. import auth
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..limits import RateQuota, rate_key
from ..names import display_name, name_key
from ..observability import RequestRecord
from ..requests import require
from ..store import Store, StoreUnavailable
from ..store.accounts import AccountRow
from ..views.summary import timestamp_message
from .keys import is_account_key, new_account_id, new_account_key

log = structlog.get_logger("brass_service.accounts")

MAX_ACCOUNT_ID_CHARS = 64


# GetAccount's id for the caller's own account (the key's): "me" is no account's id (ids
# are "a" and 16 hex digits), as lichess's GET /api/account answers for its token.
OWN_ACCOUNT = "me"


class AccountCaller(Protocol):
    """What the accounts need of a caller (games.access.Caller is one)."""

    token: str | None
    peer: str
    account: AccountRow | None


class AccountSettings(Protocol):
    """The settings the accounts read (games.settings.ServiceSettings has them)."""

    operator_token: str
    create_account_rate: str
    account_read_rate: str
    account_key_rate: str
    max_account_games: int


def address_key(caller: AccountCaller) -> str:
    return f"address:{rate_key(caller.peer)}"


def account_message(row: AccountRow) -> pb.Account:
    return pb.Account(account_id=row.account_id, name=row.name, bot=row.bot,
                      create_time=timestamp_message(row.created_at),
                      active=row.key_hash is not None)


def _unavailable(exc: StoreUnavailable) -> ServiceError:
    return ServiceError("UNAVAILABLE", "the account store is unavailable; retry")


class Accounts:
    """Accounts: their RPCs, and the account of a caller's key."""

    def __init__(self, store: Store, settings: AccountSettings) -> None:
        self.rows = store.accounts
        self.settings = settings
        self.create_quota = RateQuota(settings.create_account_rate, "accounts created",
                                      "create_account_rate")
        self.read_quota = RateQuota(settings.account_read_rate, "account reads",
                                    "account_read_rate")
        self.key_quota = RateQuota(settings.account_key_rate, "key changes of this account",
                                   "account_key_rate")
        self._operator_digest = (
            auth.hash_token(settings.operator_token) if settings.operator_token else None
        )

    def _is_operator(self, caller: AccountCaller) -> bool:
        return auth.is_operator(caller.token, self._operator_digest)

    async def create_account(self, request: pb.CreateAccountRequest, caller: AccountCaller,
                             record: RequestRecord) -> pb.CreateAccountResponse:
        name = display_name(request.name, "name")
        if not self._is_operator(caller):
            self.create_quota.admit(address_key(caller))
        key = new_account_key()
        row = AccountRow(new_account_id(), name, request.bot, auth.hash_token(key), time.time())
        try:
            created = await self.rows.create(row, name_key(name))
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if not created:
            raise ServiceError("NAME_TAKEN", f"another account is named {name!r} (names are "
                               "the same when they differ only in case, character width or "
                               "spacing)", field="name")
        record.extra["account_id"] = row.account_id
        return pb.CreateAccountResponse(account=account_message(row), key=key)

    async def get_account(self, request: pb.GetAccountRequest, caller: AccountCaller,
                          record: RequestRecord) -> pb.GetAccountResponse:
        self.read_quota.admit(address_key(caller))
        if request.account_id == OWN_ACCOUNT:  # whose key is this (a sign-in with a key)
            return pb.GetAccountResponse(account=account_message(
                await self.caller_account(caller, "GetAccount of 'me'")))
        return pb.GetAccountResponse(account=account_message(
            await self.row(request.account_id)))

    async def rotate_key(self, request: pb.RotateAccountKeyRequest, caller: AccountCaller,
                         record: RequestRecord) -> pb.RotateAccountKeyResponse:
        key = new_account_key()
        await self._set_key(request.account_id, caller, auth.hash_token(key),
                            "RotateAccountKey", record)
        return pb.RotateAccountKeyResponse(key=key)

    async def revoke_key(self, request: pb.RevokeAccountKeyRequest, caller: AccountCaller,
                         record: RequestRecord) -> pb.RevokeAccountKeyResponse:
        row = await self._set_key(request.account_id, caller, None, "RevokeAccountKey",
                                  record)
        row.key_hash = None
        return pb.RevokeAccountKeyResponse(account=account_message(row))

    async def _set_key(self, account_id: str, caller: AccountCaller, new_hash: str | None,
                       what: str, record: RequestRecord) -> AccountRow:
        """The key change of `what`: the account's own key (counted against its quota) or
        the operator token; refused when the key changed meanwhile."""
        operator = self._is_operator(caller)
        row = await self.row(account_id) if operator else await self.acting_for(
            caller, account_id, what)
        if not operator:
            self.key_quota.admit(f"account:{row.account_id}")
        record.extra["account_id"] = row.account_id
        try:
            done = await self.rows.set_key(row.account_id, row.key_hash, new_hash, time.time(),
                                           any_old=operator)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if not done:
            raise ServiceError("UNAUTHENTICATED", "the account's key changed meanwhile")
        return row

    async def row(self, account_id: str) -> AccountRow:
        require(account_id != "", "account_id is required", "account_id")
        require(len(account_id) <= MAX_ACCOUNT_ID_CHARS, "account_id is too long",
                "account_id")
        try:
            row = await self.rows.by_id(account_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if row is None:
            raise ServiceError("UNKNOWN_ACCOUNT", f"no account has id {account_id[:64]!r}",
                               account_id=account_id[:64])
        return row

    async def resolve(self, caller: AccountCaller) -> None:
        """Sets the caller's account when its token is an account key (the transports
        call this first: the key then acts for the account's seats)."""
        caller.account = await self.account_of(caller)

    async def account_of(self, caller: AccountCaller) -> AccountRow | None:
        """The account whose key is the caller's bearer token; None when the token is no
        account key (a seat, host or operator token, or none); UNAUTHENTICATED for a key
        no account has (revoked, rotated, never issued)."""
        if not is_account_key(caller.token):
            return None
        if caller.account is not None:  # resolved by this request already
            return caller.account
        assert caller.token is not None
        try:
            row = await self.rows.by_key_hash(auth.hash_token(caller.token))
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if row is None:
            raise ServiceError("UNAUTHENTICATED", "the account key is unknown or revoked")
        return row

    async def caller_account(self, caller: AccountCaller, what: str) -> AccountRow:
        """The caller's account (UNAUTHENTICATED without an account key)."""
        account = await self.account_of(caller)
        if account is None:
            raise ServiceError("UNAUTHENTICATED",
                               f"{what} needs an account's key (Authorization: Bearer …)")
        return account

    async def acting_for(self, caller: AccountCaller, account_id: str, what: str) -> AccountRow:
        """The caller's account, which must be `account_id`'s: an account cannot act for
        another."""
        account = await self.caller_account(caller, what)
        if account.account_id != account_id:
            raise ServiceError("NOT_YOUR_ACCOUNT",
                               f"{what}: the key is not the key of account {account_id[:64]!r}",
                               account_id=account_id[:64])
        return account

    async def is_own(self, caller: AccountCaller, account_id: str) -> bool:
        """Whether the caller's key is the key of `account_id` (ListGames shows it its
        unlisted games too)."""
        account = await self.account_of(caller)
        return account is not None and account.account_id == account_id

    async def check_games_at_once(self, account: AccountRow) -> None:
        """Refuses a new seat to an account that has max_account_games games waiting or in
        progress (0: no bound)."""
        cap = self.settings.max_account_games
        if cap <= 0:
            return
        try:
            active = await self.rows.count_active_games(account.account_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if active >= cap:
            raise ServiceError(
                "RATE_LIMITED", f"account {account.account_id} has {active} games waiting or "
                f"in progress, the most it may have at once", limit="max_account_games",
                account_id=account.account_id, retry_after_seconds=60.0)

    async def list_seat(self, game_id: str, seat: int, account_id: str) -> None:
        """Lists the game under the account (ListGames' account_id). A failure is logged:
        the seat is bound all the same (the game's own row says so)."""
        try:
            await self.rows.bind_seat(game_id, seat, account_id, time.time())
        except StoreUnavailable as exc:
            log.warning("account_seat_not_listed", game_id=game_id, seat=seat, error=str(exc))
