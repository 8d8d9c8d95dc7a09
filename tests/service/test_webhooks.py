"""Webhooks (issue 25, item 1) against real servers on both back ends: every event type
reaches a loopback receiver signed by the Standard Webhooks scheme, verified with the
independent `standardwebhooks` package; retries with backoff, then success; dead letters
visible to the owner; a game's events in order; SSRF refusals with machine-readable
reasons over gRPC and REST; owners' limits and checks."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest
from standardwebhooks import Webhook

from brass_clients.sdk import GameClient, pb
from brass_service.accounts.webhooks import MAX_CREATE_BYTES
from brass_service.tools.webhook_receiver import Received, Receiver

from .conftest import Backend
from .helpers import ServerProcess, expect_error, expect_rest_error

# Loopback allowed explicitly (the default refuses it), fast retries, short leases.
WEBHOOK_ENV = {
    "BRASS_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
    "BRASS_WEBHOOK_POLL_SECONDS": "0.1",
    "BRASS_WEBHOOK_RETRY_BASE_SECONDS": "0.1",
    "BRASS_WEBHOOK_RETRY_MAX_SECONDS": "0.4",
    "BRASS_WEBHOOK_MAX_ATTEMPTS": "3",
    "BRASS_WEBHOOK_TIMEOUT_SECONDS": "2",
    "BRASS_WEBHOOK_LEASE_SECONDS": "5",
}


@pytest.fixture(scope="module")
def hook_server(backend: Backend) -> ServerProcess:
    return backend.start_server("webhooks", env=WEBHOOK_ENV)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


def create_webhook(client: GameClient, token: str, url: str, *, account_id: str = "",
                   game_id: str = "", events: tuple[str, ...] = ()
                   ) -> pb.CreateWebhookResponse:
    return client.create_webhook(token, url, account_id=account_id, game_id=game_id,
                                 events=events)


def deliveries(client: GameClient, token: str, webhook_id: str
               ) -> list[pb.WebhookDelivery]:
    return list(client.webhook_deliveries(token, webhook_id).deliveries)


def verified(secret: str, item: Received) -> dict[str, Any]:
    """The event, once `standardwebhooks` verified its signature and timestamp."""
    return Webhook(secret).verify(item.body, item.headers)  # type: ignore[no-any-return]


def _account(client: GameClient, name: str) -> pb.CreateAccountResponse:
    return client.create_account(f"{name} {uuid.uuid4().hex[:8]}")


def _play_until_turn_of(client: GameClient, game_id: str, tokens: dict[int, str],
                        seat: int) -> int:
    """Plays the first legal option until `seat` is to act; the version it acts on."""
    while True:
        state = client.get_game(game_id).summary
        if state.current_seat == seat:
            return int(state.version)
        token = tokens[state.current_seat]
        option = client.list_legal_actions(game_id, token).options[0].id
        client.submit_action(game_id, token, option)


def test_every_event_type_is_signed_and_verified(hook_server: ServerProcess,
                                                 receiver: Receiver) -> None:
    with hook_server.client() as client:
        ann, bob = _account(client, "Ann"), _account(client, "Bob")
        ann_id, bob_id = ann.account.account_id, bob.account.account_id
        ann_hook = create_webhook(client, ann.key, receiver.url("/ann"), account_id=ann_id)
        bob_hook = create_webhook(client, bob.key, receiver.url("/bob"), account_id=bob_id)
        assert ann_hook.secret.startswith("whsec_") and ann_hook.webhook.events == [
            "your_turn", "game_started", "game_over", "challenge"]
        created = client.create_game(2, account_key=ann.key, open_seats=[1],
                                     on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        game_id = created.game_id
        host_hook = create_webhook(client, created.host_token, receiver.url("/host"),
                                   game_id=game_id, events=("seat_joined",))
        assert host_hook.webhook.host and not host_hook.webhook.HasField("seat")
        joined = client.join_game(game_id, account_key=bob.key)
        client.start_game(game_id, created.host_token)
        tokens = {0: created.seats[0].token, 1: joined.seat.token}
        first = client.get_game(game_id).summary.current_seat
        turns = {first: 0, 1 - first: _play_until_turn_of(client, game_id, tokens, 1 - first)}
        challenge = client._call("CreateChallenge", pb.CreateChallengeRequest(
            account_id=bob_id), ann.key, retry=False).challenge
        client.resign_game(game_id, tokens[0])

        host = [verified(host_hook.secret, item) for item in receiver.wait_for("/host", 1)]
        assert host[0]["type"] == "seat_joined" and host[0]["data"]["seat"] == 1
        ann_events = [verified(ann_hook.secret, item)
                      for item in receiver.wait_for("/ann", 3)]
        assert [event["type"] for event in ann_events] == [
            "game_started", "your_turn", "game_over"]
        assert ann_events[1]["data"] == {"game_id": game_id, "seat": 0, "version": turns[0]}
        bob_events = [verified(bob_hook.secret, item)
                      for item in receiver.wait_for("/bob", 4)]
        by_type = {event["type"]: event["data"] for event in bob_events}
        assert set(by_type) == {"game_started", "your_turn", "game_over", "challenge"}
        assert by_type["your_turn"] == {"game_id": game_id, "seat": 1, "version": turns[1]}
        assert by_type["challenge"]["challenge_id"] == challenge.challenge_id
        # a forged or re-signed body fails the independent check
        item = receiver.on("/bob")[0]
        with pytest.raises(Exception, match="(?i)signature"):
            Webhook(ann_hook.secret).verify(item.body, item.headers)
        # the listing shows no secret; nothing is left undelivered
        listed = client.list_webhooks(ann.key, account_id=ann_id)
        assert [hook.webhook_id for hook in listed] == [ann_hook.webhook.webhook_id]
        assert ann_hook.secret not in str(listed)
        _eventually(lambda: deliveries(client, ann.key, ann_hook.webhook.webhook_id) == [])


def test_an_anonymous_seat_gets_its_turns(hook_server: ServerProcess,
                                          receiver: Receiver) -> None:
    with hook_server.client() as client:
        created = client.create_game(2)
        tokens = {seat.seat: seat.token for seat in created.seats}
        hook = create_webhook(client, tokens[1], receiver.url("/seat1"),
                              game_id=created.game_id)
        assert hook.webhook.seat == 1 and list(hook.webhook.events) == [
            "your_turn", "game_started", "game_over"]
        # another seat's token is not this webhook's owner
        expect_error("UNKNOWN_WEBHOOK", client.delete_webhook, tokens[0],
                     hook.webhook.webhook_id)
        _play_until_turn_of(client, created.game_id, tokens, 0)  # (its turn after the hook)
        version = _play_until_turn_of(client, created.game_id, tokens, 1)
        event = verified(hook.secret, receiver.wait_for("/seat1", 1)[0])
        assert event["data"] == {"game_id": created.game_id, "seat": 1, "version": version}
        client.delete_webhook(tokens[1], hook.webhook.webhook_id)
        expect_error("UNKNOWN_WEBHOOK", deliveries, client, tokens[1], hook.webhook.webhook_id)


def test_retries_with_backoff_then_success_and_dead_letters(
        hook_server: ServerProcess, receiver: Receiver) -> None:
    with hook_server.client() as client:
        ann = _account(client, "Ann")
        ann_id = ann.account.account_id
        receiver.failures["/flaky"] = 2  # two 500s, then 204
        flaky = create_webhook(client, ann.key, receiver.url("/flaky"), account_id=ann_id,
                               events=("game_started",))
        client.create_game(2, account_key=ann.key)
        started = receiver.wait_for("/flaky", 1)[0]
        assert verified(flaky.secret, started)["type"] == "game_started"
        tries = [item for item in receiver.attempts if item.path == "/flaky"]
        # the same message id at every attempt, after growing waits
        assert [item.message_id for item in tries] == [started.message_id] * 3
        waits = [later.at - earlier.at for earlier, later in zip(tries, tries[1:], strict=False)]
        assert 0.05 <= waits[0] and 0.1 <= waits[1], waits
        # delivered: its row goes (just after the receiver's answer)
        _eventually(lambda: deliveries(client, ann.key, flaky.webhook.webhook_id) == [])

        receiver.failures["/down"] = -1  # always 500
        client.delete_webhook(ann.key, flaky.webhook.webhook_id)
        down = create_webhook(client, ann.key, receiver.url("/down"), account_id=ann_id,
                              events=("game_started",))
        client.create_game(2, account_key=ann.key)
        dead = _wait_dead(client, ann.key, down.webhook.webhook_id)
        assert dead.type == "game_started" and dead.attempts == 3
        assert dead.last_error == "HTTP 500"
        with closing(hook_server.rest()) as rest:
            listed = rest.get(f"/v1/webhooks/{down.webhook.webhook_id}/deliveries",
                              token=ann.key)["deliveries"]
        assert listed[0]["state"] == "WEBHOOK_DELIVERY_STATE_DEAD"
        assert listed[0]["messageId"] == dead.message_id


def _eventually(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never came true"
        time.sleep(0.05)


def _wait_dead(client: GameClient, key: str, webhook_id: str) -> pb.WebhookDelivery:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = deliveries(client, key, webhook_id)
        if found and found[0].state == pb.WEBHOOK_DELIVERY_STATE_DEAD:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"no dead delivery: {found}")


def test_a_games_events_arrive_in_order(hook_server: ServerProcess,
                                        receiver: Receiver) -> None:
    with hook_server.client() as client:
        ann = _account(client, "Ann")
        hook = create_webhook(client, ann.key, receiver.url("/order"),
                              account_id=ann.account.account_id, events=("your_turn",))
        receiver.failures["/order"] = 1  # the first turn fails once: the others wait
        created = client.create_game(2, account_key=ann.key)
        tokens = {seat.seat: seat.token for seat in created.seats}
        versions: list[int] = []
        for _ in range(3):
            versions.append(_play_until_turn_of(client, created.game_id, tokens, 0))
            _play_until_turn_of(client, created.game_id, tokens, 1)
        got = [verified(hook.secret, item)["data"]["version"]
               for item in receiver.wait_for("/order", len(versions))]
        assert got == versions


def test_targets_webhooks_may_not_reach_are_refused(backend: Backend) -> None:
    server = backend.start_server("webhooks-guarded")
    with server.client() as client, closing(server.rest()) as rest:
        ann = _account(client, "Ann")
        ann_id = ann.account.account_id
        for url, kind in (("http://127.0.0.1:8080/x", "loopback"),
                          ("http://localhost/x", "loopback"),
                          ("https://[::1]/x", "loopback"),
                          ("http://10.1.2.3/x", "private"),
                          ("http://192.168.0.1/x", "private"),
                          ("http://169.254.169.254/latest/meta-data", "link-local"),
                          ("http://224.0.0.1/x", "multicast"),
                          ("http://0.0.0.0/x", "unspecified"),
                          ("http://[::ffff:127.0.0.1]/x", "loopback")):
            error = expect_error("WEBHOOK_TARGET_REFUSED", create_webhook, client, ann.key,
                                 url, account_id=ann_id)
            assert error.metadata["kind"] == kind, (url, error.metadata)
            refused = expect_rest_error("WEBHOOK_TARGET_REFUSED", 400, rest.post,
                                        "/v1/webhooks", {"accountId": ann_id, "url": url},
                                        token=ann.key)
            assert refused.body["error"]["details"][0]["metadata"]["kind"] == kind
        for url in ("ftp://example.org/x", "http:///x", "http://u:p@example.org/",
                    "http://example.org/" + "x" * 2100):
            expect_error("INVALID_ARGUMENT", create_webhook, client, ann.key, url,
                         account_id=ann_id)
        expect_error("INVALID_ARGUMENT", create_webhook, client, ann.key,
                     "https://example.org/", account_id=ann_id, events=("nope",))
        expect_error("UNAUTHENTICATED", create_webhook, client, "not-a-key",
                     "https://example.org/", account_id=ann_id)


def test_owners_limits_and_sizes(hook_server: ServerProcess, receiver: Receiver) -> None:
    with hook_server.client() as client, closing(hook_server.rest()) as rest:
        ann, bob = _account(client, "Ann"), _account(client, "Bob")
        ann_id = ann.account.account_id
        expect_error("NOT_YOUR_ACCOUNT", create_webhook, client, bob.key, receiver.url(),
                     account_id=ann_id)
        made = [rest.post("/v1/webhooks", {"accountId": ann_id, "url": receiver.url()},
                          token=ann.key) for _ in range(5)]
        assert all(item["secret"].startswith("whsec_") for item in made)
        expect_rest_error("WEBHOOK_LIMIT", 409, rest.post, "/v1/webhooks",
                          {"accountId": ann_id, "url": receiver.url()}, token=ann.key)
        listed = rest.get(f"/v1/webhooks?accountId={ann_id}", token=ann.key)["webhooks"]
        assert len(listed) == 5 and all("secret" not in item for item in listed)
        rest.request("DELETE", f"/v1/webhooks/{made[0]['webhook']['webhookId']}",
                     token=ann.key)
        expect_rest_error("UNKNOWN_WEBHOOK", 404, rest.request, "DELETE",
                          f"/v1/webhooks/{made[0]['webhook']['webhookId']}", token=ann.key)
        expect_error("MESSAGE_TOO_LARGE", create_webhook, client, ann.key, receiver.url(),
                     account_id=ann_id, events=("your_turn",) * (MAX_CREATE_BYTES // 10))
