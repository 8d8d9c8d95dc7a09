"""The webhooks' outbox in the store, on both back ends: its rows are written in the
transaction of the change that causes them (a refused change writes none); a claim leases
each due row to one claimer and only the oldest pending row of an endpoint and game; a
receiver's queue is bounded (the overflow is dead at once, QUEUE_FULL); a failed attempt
comes back after its wait, and a dead one is listed. Plus the pure parts: the targets'
guard and the signature, checked against the independent `standardwebhooks` package."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from standardwebhooks import Webhook

from brass_service.errors import ServiceError
from brass_service.store import SeatsUpdate, Snapshot, VersionConflict, open_store
from brass_service.store import webhooks as outbox
from brass_service.store.webhooks import DEAD, PENDING, EndpointRow, HookEvent, event_body
from brass_service.webhooks.sender import new_secret, retry_delay, signed_headers
from brass_service.webhooks.targets import TargetPolicy, TargetRefused, parse_target

from .conftest import Backend
from .test_store import _decision, _game, _head


def _endpoint(endpoint_id: str, account_id: str | None = None, game_id: str | None = None,
              seat: int | None = None) -> EndpointRow:
    return EndpointRow(endpoint_id, account_id, game_id, seat, "https://example.org/hook",
                       ("your_turn", "game_over"), new_secret(), time.time())


def _event(game_id: str, n: int, accounts: tuple[str, ...] = ("acc",),
           seats: tuple[int, ...] = ()) -> HookEvent:
    return HookEvent("your_turn", game_id, f"msg_{game_id}_{n}",
                     event_body("your_turn", time.time(), {"n": n}), time.time(), accounts,
                     seats)


async def _rows(store: Any) -> list[dict[str, Any]]:
    return await store.sql_rows(  # type: ignore[no-any-return]
        "SELECT seq, endpoint_id, game_id, message_id, state, last_error FROM webhook_outbox "
        "ORDER BY seq", ())


def test_outbox_rows_come_with_their_change_or_not_at_all(backend: Backend) -> None:
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            await store.webhooks.create(_endpoint("w1", account_id="acc"), 5)
            await store.webhooks.create(_endpoint("w2", game_id="g", seat=1), 5)
            await store.webhooks.create(_endpoint("w3", account_id="other"), 5)
            await store.create_game(_game("g", time.time()), Snapshot(0, b"s"),
                                    [_event("g", 0, accounts=(), seats=(1,))])
            await store.append_decision(_decision("g", 0, None), _head(1), None,
                                        [_event("g", 1)])
            # a decision on a version already moved from is refused: no row of its own
            with pytest.raises(VersionConflict):
                await store.append_decision(_decision("g", 0, None), _head(1), None,
                                            [_event("g", 99)])
            # a change of seats made on an old revision is not applied: no row either
            stale = SeatsUpdate(from_revision=7, seat_names=["A", "B"],
                                token_hashes=["0" * 64, "1" * 64], open_seats=0, status=None,
                                updated_at=time.time())
            assert not await store.update_seats("g", stale, [_event("g", 98)])
            fresh = SeatsUpdate(**{**stale.__dict__, "from_revision": 0})
            assert await store.update_seats("g", fresh, [_event("g", 2, seats=(1,))])
            # an event for nobody's webhook writes nothing
            await store.append_decision(_decision("g", 1, None), _head(2), None,
                                        [_event("g", 3, accounts=("nobody",))])
            rows = await _rows(store)
            assert sorted((row["message_id"], row["endpoint_id"]) for row in rows) == [
                ("msg_g_0", "w2"), ("msg_g_1", "w1"), ("msg_g_2", "w1"), ("msg_g_2", "w2")]
            assert all(row["state"] == PENDING for row in rows)
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_server_without_webhooks_makes_no_event_and_sees_anothers_new_one(
        backend: Backend) -> None:
    """With no webhook at all a move's event is neither written nor made (its body and
    message id are made only when asked for); once another process (here a second store
    on the same database) has created an endpoint, the next move's event is written."""
    url = backend.new_database_url()

    async def scenario() -> None:
        store, other = open_store(url), open_store(url)
        await store.open()
        await other.open()
        try:
            await store.create_game(_game("g", time.time()), Snapshot(0, b"s"))
            unheard = HookEvent.deferred("your_turn", "g", time.time(), {"version": 1},
                                         accounts=("acc",), seats=(1,))
            await store.append_decision(_decision("g", 0, None), _head(1), None, [unheard])
            assert await _rows(store) == []
            if backend.name == "sqlite":  # (PostgreSQL writes its events in the statement)
                assert unheard._body is None and unheard._message_id is None
            await other.webhooks.create(_endpoint("w1", account_id="acc"), 5)
            heard = HookEvent.deferred("your_turn", "g", time.time(), {"version": 2},
                                       accounts=("acc",))
            await store.append_decision(_decision("g", 1, None), _head(2), None, [heard])
            assert [(row["message_id"], row["endpoint_id"]) for row in await _rows(store)] == [
                (heard.message_id, "w1")]
            assert heard.message_id.startswith("msg_") and '"version":2' in heard.body
        finally:
            await store.close()
            await other.close()

    asyncio.run(scenario())


def test_claims_lease_each_row_once_in_order_per_endpoint_and_game(backend: Backend) -> None:
    url = backend.new_database_url()

    async def scenario() -> None:
        store, other = open_store(url), open_store(url)
        await store.open()
        await other.open()
        try:
            await store.webhooks.create(_endpoint("w1", account_id="acc"), 5)
            for game in ("g", "h"):
                await store.create_game(_game(game, time.time()), Snapshot(0, b"s"),
                                        [_event(game, n) for n in range(3)])
            now = time.time()
            # two claimers at once: each row to one of them, only the head of each game
            first, second = await asyncio.gather(
                store.webhooks.claim(now, "p1", now + 30, 10),
                other.webhooks.claim(now, "p2", now + 30, 10))
            claimed = sorted(row.message_id for row in first + second)
            assert claimed == ["msg_g_0", "msg_h_0"]
            assert all(row.url == "https://example.org/hook" and row.secret.startswith("whsec_")
                       for row in first + second)
            # leased rows are not claimed again; the next of a game waits for its head
            assert await store.webhooks.claim(now, "p3", now + 30, 10) == []
            done = {row.message_id: (row, owner) for rows, owner in ((first, "p1"),
                                                                     (second, "p2"))
                    for row in rows}
            row, owner = done["msg_g_0"]
            await store.webhooks.delivered(row.seq, "not-the-owner")  # (its lease: no)
            await store.webhooks.delivered(row.seq, owner)
            row, owner = done["msg_h_0"]
            await store.webhooks.failed(row.seq, owner, 1, now + 60, False, "HTTP 500")
            assert [r.message_id for r in await store.webhooks.claim(
                now, "p3", now + 100, 10)] == ["msg_g_1"]  # h waits for its retry
            later = now + 61
            assert [r.message_id for r in await store.webhooks.claim(
                later, "p4", later + 30, 10)] == ["msg_h_0"]
            # a lease that ran out (its process died) is claimed again
            much_later = now + 200
            assert sorted(r.message_id for r in await store.webhooks.claim(
                much_later, "p5", much_later + 30, 10)) == ["msg_g_1", "msg_h_0"]
            assert not await store.webhooks.any_due(much_later)
            # one given back (a graceful stop) is claimed again at once
            await store.webhooks.release("p5")
            assert await store.webhooks.any_due(much_later)
            assert len(await store.webhooks.claim(much_later, "p6", much_later + 30, 10)) == 2
        finally:
            await store.close()
            await other.close()

    asyncio.run(scenario())


def test_a_full_queue_is_dead_at_once_and_listed_and_deletes_clean_up(backend: Backend,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    url = backend.new_database_url()
    monkeypatch.setattr(outbox, "MAX_PENDING", 2)

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            await store.webhooks.create(_endpoint("w1", account_id="acc"), 5)
            assert not await store.webhooks.create(_endpoint("w9", account_id="acc"), 1)
            await store.create_game(_game("g", time.time()), Snapshot(0, b"s"),
                                    [_event("g", n) for n in range(3)])
            rows = await _rows(store)
            assert [(row["state"], row["last_error"]) for row in rows] == [
                (PENDING, None), (PENDING, None), (DEAD, "QUEUE_FULL")]
            listed = await store.webhooks.deliveries("w1", None, 2)
            assert [row.message_id for row in listed] == ["msg_g_2", "msg_g_1", "msg_g_0"]
            await store.webhooks.delete("w1")
            assert await _rows(store) == [] and await store.webhooks.by_id("w1") is None
            # a game deleted by the expiry sweep takes its seats' webhooks with it
            await store.webhooks.create(_endpoint("w5", game_id="g", seat=0), 2)
            await store.append_decision(_decision("g", 0, None), _head(1), None,
                                        [_event("g", 5, accounts=(), seats=(0,))])
            assert await store.delete_game_if_idle("g", 1, time.time() + 60)
            assert await store.webhooks.by_id("w5") is None and await _rows(store) == []
        finally:
            await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(("address", "kind"), [
    ("127.0.0.1", "loopback"), ("::1", "loopback"), ("::ffff:10.0.0.1", "private"),
    ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("192.168.1.1", "private"),
    ("fd00::1", "private"), ("169.254.169.254", "link-local"), ("fe80::1", "link-local"),
    ("224.0.0.251", "multicast"), ("ff02::1", "multicast"), ("0.0.0.0", "unspecified"),
    ("240.0.0.1", "reserved"), ("100.64.0.1", "non-global"),
])
def test_the_guard_refuses_addresses_that_are_not_global(address: str, kind: str) -> None:
    with pytest.raises(TargetRefused) as refused:
        TargetPolicy().check(address)
    assert refused.value.kind == kind
    TargetPolicy(allow_private=True).check(address)  # the operator allows them all


def test_the_guard_allows_global_addresses_and_listed_networks() -> None:
    TargetPolicy().check("93.184.215.14")
    TargetPolicy().check("2606:4700::1111")
    loopback = TargetPolicy.parse(False, "127.0.0.0/8, ::1/128")
    loopback.check("127.0.0.1")
    loopback.check("::1")
    with pytest.raises(TargetRefused):
        loopback.check("10.0.0.1")
    with pytest.raises(ValueError):
        TargetPolicy.parse(False, "not-a-network")
    for url in ("ftp://x.org/", "http://", "http://u@x.org/", "http://x.org/#f",
                "http://x.org:0/", "http://x.org:99999/"):
        with pytest.raises(ServiceError) as refused:
            parse_target(url)
        assert refused.value.reason == "INVALID_ARGUMENT"


def test_signatures_verify_with_an_independent_implementation() -> None:
    secret = new_secret()
    body = event_body("your_turn", time.time(), {"game_id": "g", "seat": 1, "version": 4})
    headers = signed_headers(secret, "msg_1", body, time.time())
    assert headers["webhook-signature"].startswith("v1,")
    assert Webhook(secret).verify(body, headers)["data"]["version"] == 4
    with pytest.raises(Exception, match="(?i)signature"):
        Webhook(new_secret()).verify(body, headers)
    with pytest.raises(Exception, match="(?i)signature"):
        Webhook(secret).verify(body.replace("4", "5"), headers)


def test_backoff_grows_exponentially_with_jitter_and_a_ceiling() -> None:
    waits = [[retry_delay(attempt, 1.0, 60.0) for _ in range(200)] for attempt in (1, 2, 5, 9)]
    for samples, full in zip(waits, (1.0, 2.0, 16.0, 60.0), strict=True):
        assert all(full / 2 <= wait <= full for wait in samples)
        assert max(samples) - min(samples) > full / 10  # jittered, not fixed
