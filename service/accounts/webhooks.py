"""CreateWebhook, ListWebhooks, DeleteWebhook, ListWebhookDeliveries (docs/WEBHOOKS.md):
the webhooks of an account (its key) and of a game's seat (its token) or host (the host
token). A webhook's URL is checked when it is made (its form, and every address its host
resolves to: webhooks/targets.py) and again at every delivery. Its secret is returned
once; the store keeps it to sign with, and no listing shows it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import Protocol

from .. import auth
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..observability import RequestRecord
from ..requests import check_game_id, require
from ..store import Store, StoreUnavailable
from ..store.webhooks import DEAD, HOST_SEAT, DeliveryRow, EndpointRow
from ..views.summary import timestamp_message
from ..webhooks.events import ACCOUNT_EVENTS, HOST_EVENTS, SEAT_EVENTS
from ..webhooks.sender import new_secret
from ..webhooks.targets import TargetPolicy, TargetRefused, default_port, parse_target
from .accounts import AccountCaller, Accounts

# CreateWebhook's request at most (a URL of 2048 characters and the event names fit).
MAX_CREATE_BYTES = 4096
_MAX_WEBHOOK_ID_CHARS = 64
# CreateWebhook waits this long at most for the URL's host to resolve.
RESOLVE_SECONDS = 5.0


class WebhookSettings(Protocol):
    max_account_webhooks: int
    max_seat_webhooks: int
    default_page_size: int
    max_page_size: int


@dataclass(frozen=True)
class Owner:
    """Whose webhooks a call is about: an account, or a game's seat (HOST_SEAT: host)."""

    account_id: str | None
    game_id: str | None
    seat: int | None
    events: tuple[str, ...]  # the event types it may ask for
    limit: int

    def owns(self, row: EndpointRow) -> bool:
        return (row.account_id, row.game_id, row.seat) == (
            self.account_id, self.game_id, self.seat)


def webhook_message(row: EndpointRow) -> pb.Webhook:
    message = pb.Webhook(webhook_id=row.endpoint_id, url=row.url, events=row.events,
                         account_id=row.account_id or "", game_id=row.game_id or "",
                         host=row.seat == HOST_SEAT,
                         create_time=timestamp_message(row.created_at))
    if row.seat is not None and row.seat != HOST_SEAT:
        message.seat = row.seat
    return message


def delivery_message(row: DeliveryRow) -> pb.WebhookDelivery:
    return pb.WebhookDelivery(
        message_id=row.message_id, type=row.kind, game_id=row.game_id,
        state=(pb.WEBHOOK_DELIVERY_STATE_DEAD if row.state == DEAD
               else pb.WEBHOOK_DELIVERY_STATE_PENDING),
        attempts=row.attempts, create_time=timestamp_message(row.created_at),
        next_attempt_time=timestamp_message(row.next_attempt_at),
        last_error=row.last_error or "")


def _unavailable(exc: StoreUnavailable) -> ServiceError:
    return ServiceError("UNAVAILABLE", Text("store_unavailable"))


class Webhooks:
    """The webhooks' RPCs."""

    def __init__(self, store: Store, settings: WebhookSettings, accounts: Accounts,
                 policy: TargetPolicy) -> None:
        self.store = store
        self.rows = store.webhooks
        self.settings = settings
        self.accounts = accounts
        self.policy = policy

    async def create(self, request: pb.CreateWebhookRequest, caller: AccountCaller,
                     record: RequestRecord) -> pb.CreateWebhookResponse:
        if request.ByteSize() > MAX_CREATE_BYTES:
            raise ServiceError("MESSAGE_TOO_LARGE", "CreateWebhook's request is at most "
                               f"{MAX_CREATE_BYTES} bytes", limit=MAX_CREATE_BYTES)
        owner = await self._owner(request.account_id, request.game_id, caller, "CreateWebhook")
        parts = parse_target(request.url)
        events = tuple(request.events) or owner.events
        for kind in events:
            require(kind in owner.events, f"events: {kind[:32]!r} is not one of "
                    + ", ".join(owner.events), "events")
        require(len(set(events)) == len(events), "events: each type at most once", "events")
        try:
            async with asyncio.timeout(RESOLVE_SECONDS):
                await self.policy.resolve(parts.hostname or "", default_port(parts))
        except TargetRefused as exc:
            raise exc.service_error() from exc
        except TimeoutError as exc:
            raise ServiceError("INVALID_ARGUMENT", f"url: its host was not resolved within "
                               f"{RESOLVE_SECONDS:g} s", field="url") from exc
        except OSError as exc:
            raise ServiceError("INVALID_ARGUMENT", f"url: its host cannot be resolved "
                               f"({exc.strerror or exc})", field="url") from exc
        row = EndpointRow("w" + secrets.token_hex(8), owner.account_id, owner.game_id,
                          owner.seat, request.url, events, new_secret(), time.time())
        try:
            created = await self.rows.create(row, owner.limit)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if not created:
            raise ServiceError("WEBHOOK_LIMIT", f"the owner has {owner.limit} webhooks, the "
                               "most it may have: delete one first", limit=owner.limit)
        record.extra["webhook_id"] = row.endpoint_id
        return pb.CreateWebhookResponse(webhook=webhook_message(row), secret=row.secret)

    async def list(self, request: pb.ListWebhooksRequest, caller: AccountCaller,
                   record: RequestRecord) -> pb.ListWebhooksResponse:
        owner = await self._owner(request.account_id, request.game_id, caller, "ListWebhooks")
        try:
            if owner.account_id is not None:
                rows = await self.rows.of_account(owner.account_id)
            else:
                assert owner.game_id is not None and owner.seat is not None
                rows = await self.rows.of_seat(owner.game_id, owner.seat)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        return pb.ListWebhooksResponse(webhooks=[webhook_message(row) for row in rows])

    async def delete(self, request: pb.DeleteWebhookRequest, caller: AccountCaller,
                     record: RequestRecord) -> pb.DeleteWebhookResponse:
        row = await self._own_row(request.webhook_id, caller, "DeleteWebhook")
        try:
            await self.rows.delete(row.endpoint_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        return pb.DeleteWebhookResponse()

    async def list_deliveries(self, request: pb.ListWebhookDeliveriesRequest,
                              caller: AccountCaller, record: RequestRecord
                              ) -> pb.ListWebhookDeliveriesResponse:
        row = await self._own_row(request.webhook_id, caller, "ListWebhookDeliveries")
        size = request.page_size or self.settings.default_page_size
        require(0 < size <= self.settings.max_page_size,
                f"page_size is from 1 to {self.settings.max_page_size}", "page_size")
        before = None
        if request.page_token:
            if not (request.page_token.isdigit() and len(request.page_token) <= 19):
                raise ServiceError("BAD_PAGE_TOKEN", "page_token is not a token returned by "
                                   "ListWebhookDeliveries", field="page_token")
            before = int(request.page_token)
        try:
            rows = await self.rows.deliveries(row.endpoint_id, before, size)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        more = len(rows) > size
        rows = rows[:size]
        return pb.ListWebhookDeliveriesResponse(
            deliveries=[delivery_message(delivery) for delivery in rows],
            next_page_token=str(rows[-1].seq) if more else "")

    async def _own_row(self, webhook_id: str, caller: AccountCaller, what: str
                       ) -> EndpointRow:
        """The caller's webhook (UNKNOWN_WEBHOOK for another's: its existence is not told)."""
        require(0 < len(webhook_id) <= _MAX_WEBHOOK_ID_CHARS,
                f"webhook_id is required (at most {_MAX_WEBHOOK_ID_CHARS} characters)",
                "webhook_id")
        if caller.token is None:
            raise ServiceError("UNAUTHENTICATED", f"{what} needs the webhook owner's key or "
                               "token (Authorization: Bearer …)")
        try:
            row = await self.rows.by_id(webhook_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        unknown = ServiceError("UNKNOWN_WEBHOOK", f"no webhook of yours has id "
                               f"{webhook_id!r}", webhook_id=webhook_id)
        if row is None:
            raise unknown
        try:
            owner = await self._owner(row.account_id or "", row.game_id or "", caller, what)
        except ServiceError as error:
            if error.reason in ("NOT_YOUR_ACCOUNT", "UNAUTHENTICATED", "UNKNOWN_GAME"):
                raise unknown from error
            raise
        if not owner.owns(row):
            raise unknown
        return row

    async def _owner(self, account_id: str, game_id: str, caller: AccountCaller, what: str
                     ) -> Owner:
        require(bool(account_id) != bool(game_id), "set account_id or game_id (one of them)",
                "account_id")
        if account_id:
            account = await self.accounts.acting_for(caller, account_id, what)
            return Owner(account.account_id, None, None, ACCOUNT_EVENTS,
                         self.settings.max_account_webhooks)
        check_game_id(game_id)
        if caller.token is None:
            raise ServiceError("UNAUTHENTICATED", Text("needs_seat_token", what=what))
        try:
            row = await self.store.get_game(game_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if row is None:
            raise ServiceError("UNKNOWN_GAME", Text("unknown_game", game_id=game_id),
                               game_id=game_id)
        limit = self.settings.max_seat_webhooks
        if auth.token_matches(caller.token, row.host_token_hash):
            return Owner(None, game_id, HOST_SEAT, HOST_EVENTS, limit)
        seat = auth.seat_of_token(caller.token, row.token_hashes)
        if seat is None:
            raise ServiceError("UNAUTHENTICATED", Text("not_a_seat_token", game_id=game_id))
        return Owner(None, game_id, seat, SEAT_EVENTS, limit)
