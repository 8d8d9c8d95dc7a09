"""The bot API (issue 24, item 2): challenges (create, accept, decline, withdraw), one
stream of events per account (gRPC and SSE) that starts with what is pending, so a bot
that reconnects misses no turn; a key acts for its own account only; and two SDK bots
(brass_clients.bot_api.run_bot) play a rated game to its end, on both back ends."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from brass_clients.bot_api import BotClient, random_option, run_bot
from brass_clients.sdk import GameClient, pb

from .helpers import LOOPBACK, ServerProcess, expect_error, expect_rest_error


def _account(client: GameClient, prefix: str) -> Any:
    return client.create_account(f"{prefix} {uuid.uuid4().hex[:8]}", bot=True)


def _next(events: Iterator[pb.StreamAccountEventsResponse],
          kind: str) -> pb.StreamAccountEventsResponse:
    for event in events:
        if event.WhichOneof("event") == kind:
            return event
    raise AssertionError(f"the stream ended before a {kind}")


def test_challenges_and_the_stream_over_grpc(server: ServerProcess) -> None:
    with server.client() as client:
        ann, bob, cat = (_account(client, name) for name in ("Ann", "Bob", "Cat"))
    with BotClient(server.grpc_target, ann.key) as a, BotClient(server.grpc_target,
                                                                 bob.key) as b:
        # withdrawn and declined challenges close; only the challenged account accepts
        withdrawn = a.create_challenge(bob.account.account_id)
        assert a.decline_challenge(withdrawn.challenge_id).status == \
            pb.CHALLENGE_STATUS_DECLINED
        expect_error("CHALLENGE_CLOSED", b.accept_challenge, withdrawn.challenge_id)
        expect_error("INVALID_ARGUMENT", a.create_challenge, ann.account.account_id)
        expect_error("UNKNOWN_ACCOUNT", a.create_challenge, "a-nobody")

        challenge = a.create_challenge(
            bob.account.account_id, rated=True,
            options=pb.GameOptions(on_resign=pb.RESIGN_POLICY_GAME_ENDS))
        assert challenge.status == pb.CHALLENGE_STATUS_OPEN and challenge.rated
        expect_error("NOT_YOUR_ACCOUNT", a.accept_challenge, challenge.challenge_id)
        with BotClient(server.grpc_target, cat.key) as c:
            expect_error("NOT_YOUR_ACCOUNT", c.decline_challenge, challenge.challenge_id)

        # the stream starts with what is pending: the open challenge
        b_events = b.events()
        shown = _next(b_events, "challenge").challenge
        assert shown.challenge_id == challenge.challenge_id
        accepted = b.accept_challenge(challenge.challenge_id)
        game_id = accepted.game_id
        assert accepted.status == pb.CHALLENGE_STATUS_ACCEPTED and game_id
        started = _next(b_events, "game_started").game_started
        assert (started.game_id, started.seat) == (game_id, 1)
        summary = a.client.get_game(game_id).summary
        assert [s.account_id for s in summary.seats] == [ann.account.account_id,
                                                         bob.account.account_id]
        assert summary.rated and summary.status == pb.GAME_STATUS_IN_PROGRESS

        # the seat to act hears of its turn; the key plays it
        a_events = a.events()
        assert _next(a_events, "game_started").game_started.seat == 0
        mover, events = (a, a_events) if summary.current_seat == 0 else (b, b_events)
        turn = _next(events, "your_turn").your_turn
        assert (turn.game_id, turn.version) == (game_id, summary.version)
        assert mover.play_turn(turn)
        # a reconnecting bot hears at once of a turn still to play
        for stream in (a_events, b_events):
            stream.close()  # type: ignore[attr-defined]
        now = a.client.get_game(game_id).summary
        seat_to_act = now.current_seat
        bot = a if seat_to_act == 0 else b
        again = bot.events()
        assert _next(again, "game_started").game_started.game_id == game_id
        pending = _next(again, "your_turn").your_turn
        assert (pending.game_id, pending.version) == (game_id, now.version)
        # the other resigns: both hear the game over
        loser = b if bot is a else a
        seat_token_of_loser = loser.key
        loser.client.resign_game(game_id, seat_token_of_loser)
        over = _next(again, "game_over").game_over.summary
        assert over.game_id == game_id
        # a rated game's game over carries its rating changes (the loser's rank: last)
        ranks = {change.account_id: change.rank for change in over.rating_changes}
        loser_id = bob.account.account_id if loser is b else ann.account.account_id
        assert len(ranks) == 2 and ranks[loser_id] == 2
        again.close()  # type: ignore[attr-defined]


def test_a_challenge_shown_open_is_sent_again_once_closed(server: ServerProcess) -> None:
    """The other side hears of an acceptance (with the game) and of a withdrawal."""
    with server.client() as client:
        ann, bob = _account(client, "Ann"), _account(client, "Bob")
    with BotClient(server.grpc_target, ann.key) as a, BotClient(server.grpc_target,
                                                                 bob.key) as b:
        withdrawn = a.create_challenge(bob.account.account_id)
        b_events = b.events()
        assert _next(b_events, "challenge").challenge.status == pb.CHALLENGE_STATUS_OPEN
        a.decline_challenge(withdrawn.challenge_id)
        closed = _next(b_events, "challenge").challenge
        assert (closed.challenge_id, closed.status) == (withdrawn.challenge_id,
                                                        pb.CHALLENGE_STATUS_DECLINED)
        b_events.close()  # type: ignore[attr-defined]

        challenge = a.create_challenge(bob.account.account_id)
        a_events = a.events()
        assert _next(a_events, "challenge").challenge.challenge_id == challenge.challenge_id
        game_id = b.accept_challenge(challenge.challenge_id).game_id
        accepted = _next(a_events, "challenge").challenge
        assert (accepted.challenge_id, accepted.status, accepted.game_id) == (
            challenge.challenge_id, pb.CHALLENGE_STATUS_ACCEPTED, game_id)
        a_events.close()  # type: ignore[attr-defined]


def test_a_three_player_challenge_starts_once_everyone_accepted(
        server: ServerProcess) -> None:
    with server.client() as client:
        ann, bob, cat = (_account(client, name) for name in ("Tri A", "Tri B", "Tri C"))
    with BotClient(server.grpc_target, ann.key) as a, \
            BotClient(server.grpc_target, bob.key) as b, \
            BotClient(server.grpc_target, cat.key) as c:
        expect_error("INVALID_ARGUMENT", a.create_challenge, bob.account.account_id,
                     bob.account.account_id)
        challenge = a.create_challenge(bob.account.account_id, cat.account.account_id,
                                       rated=True)
        assert list(challenge.more_challenged_ids) == [cat.account.account_id]
        waiting = b.accept_challenge(challenge.challenge_id)
        assert waiting.status == pb.CHALLENGE_STATUS_OPEN and not waiting.game_id
        assert list(waiting.accepted_ids) == [bob.account.account_id]
        # the third account's stream shows the challenge; its acceptance starts the game
        c_events = c.events()
        shown = _next(c_events, "challenge").challenge
        assert shown.challenge_id == challenge.challenge_id
        started = c.accept_challenge(challenge.challenge_id)
        assert started.status == pb.CHALLENGE_STATUS_ACCEPTED
        seat = _next(c_events, "game_started").game_started
        assert (seat.game_id, seat.seat) == (started.game_id, 2)
        c_events.close()  # type: ignore[attr-defined]
        summary = a.client.get_game(started.game_id).summary
        assert [s.account_id for s in summary.seats] == [
            ann.account.account_id, bob.account.account_id, cat.account.account_id]
        expect_error("CHALLENGE_CLOSED", b.accept_challenge, challenge.challenge_id)
        # any challenged account's refusal closes a challenge
        other = a.create_challenge(bob.account.account_id, cat.account.account_id)
        b.accept_challenge(other.challenge_id)
        assert c.decline_challenge(other.challenge_id).status == \
            pb.CHALLENGE_STATUS_DECLINED
        expect_error("CHALLENGE_CLOSED", c.accept_challenge, other.challenge_id)


def test_streams_are_limited_per_account_and_need_a_key(backend: Any) -> None:
    server = backend.start_server("streams-limit",
                                  env={"BRASS_MAX_ACCOUNT_STREAMS_PER_ACCOUNT": "1"})
    with server.client() as client:
        ann = _account(client, "Solo")
    with BotClient(server.grpc_target, ann.key) as first, \
            BotClient(server.grpc_target, ann.key) as second:
        events = first.events()
        challenge_from = _account(GameClient(server.grpc_target), "Other")
        with BotClient(server.grpc_target, challenge_from.key) as other:
            other.create_challenge(ann.account.account_id)
        assert _next(events, "challenge").challenge.challenger_id == \
            challenge_from.account.account_id
        refused = expect_error("RATE_LIMITED", lambda: next(iter(second.events())))
        assert refused.metadata["limit"] == "max_account_streams_per_account"
        events.close()  # type: ignore[attr-defined]
    rest = server.rest()
    try:
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, "/v1/account/events")
    finally:
        rest.close()
    server.stop()


def _sse(port: int, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
    import http.client

    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    connection.request("GET", "/v1/account/events",
                       headers={"Authorization": f"Bearer {key}"})
    response = connection.getresponse()
    assert response.status == 200
    kind = ""
    try:
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                yield kind, json.loads(line[len("data: "):])
    finally:
        connection.close()


def test_the_stream_over_sse(server: ServerProcess) -> None:
    with server.client() as client:
        ann, bob = _account(client, "Sse A"), _account(client, "Sse B")
    with BotClient(server.grpc_target, ann.key) as a:
        challenge = a.create_challenge(bob.account.account_id)
    events = _sse(server.http_port, bob.key)
    kind, data = next(events)
    assert kind == "challenge" and data["challenge"]["challengeId"] == challenge.challenge_id
    rest = server.rest()
    try:
        accepted = rest.post(f"/v1/challenges/{challenge.challenge_id}:accept", {},
                             token=bob.key)
        game_id = accepted["challenge"]["gameId"]
        expect_rest_error("CHALLENGE_CLOSED", 409, rest.post,
                          f"/v1/challenges/{challenge.challenge_id}:decline", {},
                          token=bob.key)
    finally:
        rest.close()
    # the challenge again, accepted, then its game
    kind, data = next(events)
    assert kind == "challenge" and data["challenge"]["status"] == "CHALLENGE_STATUS_ACCEPTED"
    kind, data = next(events)
    assert kind == "game_started" and data["gameStarted"] == {"gameId": game_id, "seat": 1}
    events.close()  # type: ignore[attr-defined]


@pytest.mark.timeout(300)
def test_two_sdk_bots_play_a_rated_game_to_its_end(server: ServerProcess) -> None:
    with server.client() as client:
        one, two = _account(client, "Runner One"), _account(client, "Runner Two")
    results: dict[str, Any] = {}

    def play(name: str, account: Any) -> None:
        results[name] = run_bot(server.grpc_target, account.key, account.account.account_id,
                                games=1, choose=random_option)

    threads = [threading.Thread(target=play, args=(name, account), daemon=True)
               for name, account in (("one", one), ("two", two))]
    for thread in threads:
        thread.start()
    with BotClient(server.grpc_target, one.key) as challenger:
        import time

        time.sleep(0.5)  # (either way: the stream shows a challenge made before it opened)
        challenger.create_challenge(two.account.account_id, rated=True)
    for thread in threads:
        thread.join(timeout=240)
    assert results["one"][0].game_id == results["two"][0].game_id
    summary = results["one"][0]
    assert summary.status == pb.GAME_STATUS_FINISHED and summary.rated
    assert len(summary.rating_changes) == 2  # the game over carries them
    with server.client() as client:
        for _ in range(100):
            changes = client.get_game(summary.game_id).summary.rating_changes
            if changes:
                break
            time.sleep(0.1)
        assert sorted(change.account_id for change in changes) == sorted(
            [one.account.account_id, two.account.account_id])
