"""The webhooks' sender: one per process, off the request path. It claims due deliveries
from the outbox (each leased to this process for `webhook_lease_seconds`: with --workers N
every delivery is sent by one process; a process that dies leaves its leases to run out,
and another sends them again: at least once), signs them by the Standard Webhooks scheme
and posts them. A 2xx answer deletes the row; anything else (another status, a timeout, a
refused connection) counts an attempt and sets the next one after an exponential backoff
with jitter, until `webhook_max_attempts`: then the row is dead, where its owner sees it.
Only the oldest pending row of an endpoint and game is ever claimed, so a receiver gets a
game's events in order. No redirect is followed; every attempt has a timeout; the
receiver's answer is not read beyond its status.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import random
import secrets
import time
from typing import Protocol

import aiohttp
import structlog
from yarl import URL

from ..observability import WEBHOOK_ATTEMPTS
from ..store import Store, StoreUnavailable
from ..store.webhooks import DeliveryRow
from .targets import TargetPolicy, TargetRefused, is_ip_literal, resolver_kwargs

log = structlog.get_logger("brass_service.webhooks")

SECRET_PREFIX = "whsec_"
# Dead deliveries are kept this long for their owners to see, then deleted.
DEAD_RETENTION_SECONDS = 7 * 86400.0
_PRUNE_EVERY_SECONDS = 3600.0
_COALESCE_SECONDS = 0.02


class SenderSettings(Protocol):
    webhook_poll_seconds: float
    webhook_timeout_seconds: float
    webhook_lease_seconds: float
    webhook_max_attempts: int
    webhook_retry_base_seconds: float
    webhook_retry_max_seconds: float
    webhook_concurrency: int


def new_secret() -> str:
    """whsec_ and 24 random bytes in base64 (Standard Webhooks' form)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def signature(secret: str, message_id: str, timestamp: int, body: str) -> str:
    """The webhook-signature header: v1,<base64 HMAC-SHA256 of "id.timestamp.body">."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.{body}".encode()
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def signed_headers(secret: str, message_id: str, body: str, now: float) -> dict[str, str]:
    timestamp = int(now)
    return {"webhook-id": message_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": signature(secret, message_id, timestamp, body),
            "content-type": "application/json", "user-agent": "brass-webhooks/1"}


def retry_delay(attempts: int, base: float, most: float) -> float:
    """Exponential backoff with jitter: base * 2^(attempts - 1), at most `most`, then
    between half and all of it (so receivers that failed together are not retried
    together)."""
    return min(most, base * 2 ** max(0, attempts - 1)) * random.uniform(0.5, 1.0)


class WebhookSender:
    def __init__(self, store: Store, settings: SenderSettings, policy: TargetPolicy) -> None:
        self.store = store
        self.settings = settings
        self.policy = policy
        self.owner = secrets.token_hex(8)  # this process's leases
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._in_flight: set[asyncio.Task[None]] = set()
        self._session: aiohttp.ClientSession | None = None
        self._last_prune = 0.0

    def wake(self) -> None:
        """An event was queued in this process: look now rather than at the next poll."""
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="webhook-sender")

    async def stop(self) -> None:
        """Stops sending: deliveries under way are abandoned and their leases given back
        (due at once for another process, or this one restarted; should that fail, the
        leases run out)."""
        tasks = [task for task in (self._task, *self._in_flight) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        with contextlib.suppress(StoreUnavailable):
            await self.store.webhooks.release(self.owner)
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(limit=self.settings.webhook_concurrency,
                                             **resolver_kwargs(self.policy))
            self._session = aiohttp.ClientSession(
                connector=connector, auto_decompress=False,
                timeout=aiohttp.ClientTimeout(total=self.settings.webhook_timeout_seconds))
        return self._session

    async def _run(self) -> None:
        while True:
            try:
                claimed = await self.send_due()
            except StoreUnavailable as exc:
                log.warning("webhook_claim_failed", error=str(exc))
                claimed = 0
            except Exception:
                log.exception("webhook_sender_failed")
                claimed = 0
            if claimed:
                continue  # more may be due at once
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.webhook_poll_seconds)
                # under load many moves wake it: one look serves those of the next moment
                await asyncio.sleep(_COALESCE_SECONDS)

    async def send_due(self) -> int:
        """Claims what is due (as many as free slots allow) and starts sending it;
        returns how many it claimed."""
        now = time.time()
        if now - self._last_prune > _PRUNE_EVERY_SECONDS:
            self._last_prune = now
            await self.store.webhooks.prune_dead(now - DEAD_RETENTION_SECONDS)
        free = self.settings.webhook_concurrency - len(self._in_flight)
        if free <= 0 or not await self.store.webhooks.any_due(now):
            return 0
        rows = await self.store.webhooks.claim(
            now, self.owner, now + self.settings.webhook_lease_seconds, free)
        for row in rows:
            task = asyncio.create_task(self._deliver(row))
            self._in_flight.add(task)
            task.add_done_callback(self._done)
        return len(rows)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._in_flight.discard(task)
        self._wake.set()  # a slot is free, and the game's next event may be claimed

    async def _deliver(self, row: DeliveryRow) -> None:
        error, final = await self.attempt(row)
        webhooks = self.store.webhooks
        try:
            if error is None:
                await webhooks.delivered(row.seq, self.owner)
                WEBHOOK_ATTEMPTS.labels("delivered").inc()
                return
            attempts = row.attempts + 1
            dead = final or attempts >= self.settings.webhook_max_attempts
            delay = retry_delay(attempts, self.settings.webhook_retry_base_seconds,
                                self.settings.webhook_retry_max_seconds)
            await webhooks.failed(row.seq, self.owner, attempts, time.time() + delay, dead,
                                  error)
            WEBHOOK_ATTEMPTS.labels("dead" if dead else "failed").inc()
            log.info("webhook_attempt_failed", endpoint_id=row.endpoint_id,
                     message_id=row.message_id, attempts=attempts, dead=dead, error=error)
        except StoreUnavailable as exc:  # the lease runs out: it is sent again
            log.warning("webhook_outcome_not_stored", error=str(exc))

    async def attempt(self, row: DeliveryRow) -> tuple[str | None, bool]:
        """One attempt: (None, _) when delivered, else (why, whether to give up now)."""
        url = URL(row.url)
        host = url.raw_host or ""
        try:
            if is_ip_literal(host):  # (aiohttp asks no resolver for an address)
                self.policy.check(host)
            async with self._client().post(
                    url, data=row.body.encode(), allow_redirects=False,
                    headers=signed_headers(row.secret, row.message_id, row.body,
                                           time.time())) as answer:
                if 200 <= answer.status < 300:
                    return None, False
                return f"HTTP {answer.status}", False
        except TargetRefused as exc:
            return f"TARGET_REFUSED: {exc}", True
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, TargetRefused):
                return f"TARGET_REFUSED: {exc.os_error}", True
            return f"connection failed: {exc.os_error}", False
        except TimeoutError:
            return "timeout", False
        except aiohttp.ClientError as exc:
            return f"{type(exc).__name__}: {exc}"[:200], False

