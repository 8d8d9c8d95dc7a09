"""Hosted play (issue 13): resigning (the host's on_resign: a bot plays the seat on, or the
game ends), revoking a seat's token without a new one (before the start the seat is open
again; after it the seat is vacant until the host reissues a token or seats a bot), and the
lobby's events on the watch streams (gRPC WatchGame and SSE). Both transports, both
stores."""

from __future__ import annotations

import threading
from typing import Any

from brass_clients.sdk import pb

from .helpers import ServerProcess, expect_error, expect_rest_error, sse_events
from .test_bot_seats import human_turn, play_turn, replay_seats, wait_for


class Watcher:
    """Collects a game's WatchGame updates on a thread of its own."""

    def __init__(self, server: ServerProcess, game_id: str) -> None:
        self.updates: list[pb.WatchGameResponse] = []
        self._client = server.client()
        self._thread = threading.Thread(target=self._run, args=(game_id,), daemon=True)
        self._thread.start()

    def _run(self, game_id: str) -> None:
        try:
            for update in self._client.watch_game(game_id):
                self.updates.append(update)
        except Exception:  # the client closed at the end of the test
            pass

    def lobby_kinds(self) -> list[str]:
        return [e.lobby.kind for u in list(self.updates) for e in u.events
                if e.HasField("lobby")]

    def wait_kinds(self, *kinds: str) -> list[str]:
        return wait_for(lambda: (lambda seen: seen if seen[-len(kinds):] == list(kinds)
                                 else None)(self.lobby_kinds()), timeout=30)

    def close(self) -> None:
        self._client.close()


def test_lobby_changes_reach_grpc_watchers_as_events(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=3, seed=4, open_seats=[1, 2])
        game_id, host = created.game_id, created.host_token
        watcher = Watcher(server, game_id)
        try:
            wait_for(lambda: watcher.updates)  # the first update: the state as it is
            ann = client.join_game(game_id, "Ann", seat=1).seat
            watcher.wait_kinds("seat_joined")
            client.leave_game(game_id, ann.token)
            watcher.wait_kinds("seat_joined", "seat_left")
            client.set_seat_bot(game_id, 1, "random", host)
            bea = client.join_game(game_id, "Bea").seat
            assert bea.seat == 2
            client.revoke_seat_token(game_id, 2, host)
            cal = client.join_game(game_id, "Cal").seat
            client.start_game(game_id, host)
            kinds = watcher.wait_kinds("seat_joined", "seat_token_revoked", "seat_joined",
                                       "game_started")
            assert kinds == ["seat_joined", "seat_left", "bot_seated", "seat_joined",
                             "seat_token_revoked", "seat_joined", "game_started"]
            events = [e.lobby for u in watcher.updates for e in u.events if e.HasField("lobby")]
            assert (events[0].seat, events[0].name) == (1, "Ann")
            assert (events[2].seat, events[2].bot) == (1, "random")
            assert events[4].seat == 2 and events[4].time.seconds > 0
            # The update carrying an event has the state after it.
            last = watcher.updates[-1]
            assert last.state.summary.status == pb.GAME_STATUS_IN_PROGRESS
            # The resignation too (the stand-in bot takes seat 2 over).
            client.resign_game(game_id, cal.token)
            watcher.wait_kinds("seat_resigned")
        finally:
            watcher.close()


def test_resign_hands_the_seat_to_the_stand_in_bot(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=12, stand_in_bot="random")
        game_id = created.game_id
        tokens = {s.seat: s.token for s in created.seats}
        expect_error("UNAUTHENTICATED", client._call, "ResignGame",
                     pb.ResignGameRequest(game_id=game_id))
        resigned = client.resign_game(game_id, tokens[1]).state
        assert resigned.viewer_seat == 1  # the token still shows the seat's view
        seat = resigned.summary.seats[1]
        assert seat.resigned and seat.bot == "random" and not seat.open
        assert resigned.summary.status == pb.GAME_STATUS_IN_PROGRESS
        expect_error("SEAT_RESIGNED", client.resign_game, game_id, tokens[1])
        # The resigned seat can no longer act; the bot plays its turns.
        summary = human_turn(client, game_id, 0)
        if summary.current_seat == 0:
            play_turn(client, game_id, tokens[0], 0)
        human_turn(client, game_id, 0)
        assert 1 in replay_seats(client, game_id)
        state = client.get_game(game_id)
        if state.summary.current_seat == 1:
            expect_error("SEAT_RESIGNED", client.submit_action, game_id, tokens[1], 0)


def test_resign_ends_the_game_when_the_host_said_so_over_rest(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        created = rest.post("/v1/games", {
            "players": 3, "seed": 6, "options": {"onResign": "RESIGN_POLICY_GAME_ENDS"}})
        game_id = created["gameId"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        done = rest.post(f"/v1/games/{game_id}:resign", {}, token=tokens[2])
        summary = done["state"]["summary"]
        assert summary["status"] == "GAME_STATUS_FINISHED"
        assert summary["endReason"] == "END_REASON_RESIGNED"
        assert summary["seats"][2]["resigned"] is True and "currentSeat" not in summary
        assert done["state"]["scores"] == []  # ended, not scored
        # Nothing more can be played, by anyone.
        for seat in (0, 1):
            expect_rest_error("GAME_OVER", 400, rest.get, f"/v1/games/{game_id}/actions",
                              token=tokens[seat])
            expect_rest_error("GAME_OVER", 400, rest.post, f"/v1/games/{game_id}/actions",
                              {"action": {"optionId": 0}}, token=tokens[seat])
            expect_rest_error("GAME_OVER", 400, rest.post, f"/v1/games/{game_id}:resign", {},
                              token=tokens[seat])
        # A watcher gets the end, then the stream ends.
        updates = [data for event, _id, data in
                   sse_events(server.http_port, f"/v1/games/{game_id}/events")
                   if event == "update"]
        assert updates[-1]["state"]["summary"]["endReason"] == "END_REASON_RESIGNED"
        waiting = rest.post("/v1/games", {"players": 2, "openSeats": [1]})
        expect_rest_error("GAME_NOT_STARTED", 400, rest.post,
                          f"/v1/games/{waiting['gameId']}:resign", {},
                          token=waiting["seats"][0]["token"])
    finally:
        rest.close()


def _seat(summary: dict[str, Any], seat: int) -> dict[str, Any]:
    return summary["seats"][seat]  # type: ignore[no-any-return]


def test_revoke_before_the_start_opens_the_seat_again_over_rest(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        created = rest.post("/v1/games", {"players": 2, "openSeats": [1]})
        game_id, host = created["gameId"], created["hostToken"]
        joined = rest.post(f"/v1/games/{game_id}:join", {"name": "Dan"})
        dan = joined["seat"]["token"]
        expect_rest_error("NOT_HOST", 403, rest.post, f"/v1/games/{game_id}:revokeSeatToken",
                          {"seat": 1}, token=dan)
        revoked = rest.post(f"/v1/games/{game_id}:revokeSeatToken", {"seat": 1}, token=host)
        assert _seat(revoked["summary"], 1)["open"] is True
        assert revoked["summary"]["openSeats"] == 1
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, f"/v1/games/{game_id}", token=dan)
        expect_rest_error("INVALID_ARGUMENT", 400, rest.post,
                          f"/v1/games/{game_id}:revokeSeatToken", {"seat": 1}, token=host)
        again = rest.post(f"/v1/games/{game_id}:join", {"name": "Eve"})
        assert again["seat"]["seat"] == 1
    finally:
        rest.close()


def test_revoke_after_the_start_leaves_the_seat_vacant(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=13)
        game_id, host = created.game_id, created.host_token
        tokens = {s.seat: s.token for s in created.seats}
        summary = client.revoke_seat_token(game_id, 1, host).summary
        seat = summary.seats[1]
        assert seat.vacant and not seat.open and seat.name == "Player 2"
        expect_error("UNAUTHENTICATED", client.get_game, game_id, tokens[1])
        expect_error("GAME_STARTED", client.join_game, game_id, "Late")
        # The host gives the seat a new token, then revokes it and seats a bot instead.
        fresh = client.reissue_seat_token(game_id, 1, host).seat.token
        assert client.get_game(game_id, fresh).viewer_seat == 1
        assert not client.get_game(game_id).summary.seats[1].vacant
        client.revoke_seat_token(game_id, 1, host)
        expect_error("SEAT_TAKEN", client.set_seat_bot, game_id, 0, "random", host)
        summary = client.set_seat_bot(game_id, 1, "random", host).summary
        assert summary.seats[1].bot == "random" and not summary.seats[1].vacant
        expect_error("BOT_SEAT", client.reissue_seat_token, game_id, 1, host)
        if client.get_game(game_id).summary.current_seat == 0:
            play_turn(client, game_id, tokens[0], 0)
        human_turn(client, game_id, 0)
        assert 1 in replay_seats(client, game_id)


def test_lobby_events_reach_sse_watchers(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, open_seats=[1])
        game_id = created.game_id
        stream = sse_events(server.http_port, f"/v1/games/{game_id}/events")
        next(stream)  # the state as it is
        client.join_game(game_id, "Fay")
        _event, _id, data = next(stream)
        lobby = [e["lobby"] for e in data["events"] if "lobby" in e]
        assert lobby[0]["kind"] == "seat_joined" and lobby[0]["name"] == "Fay"
        assert data["state"]["summary"]["openSeats"] == 0
        stream.close()


def test_the_summary_says_the_hosts_policy_over_both_transports(server: ServerProcess) -> None:
    """A player taking a seat can read what a resignation or a timeout will do."""
    with server.client() as client:
        created = client.create_game(
            2, seed=6, open_seats=[1], on_resign=pb.RESIGN_POLICY_GAME_ENDS,
            on_timeout=pb.TIMEOUT_POLICY_FORFEIT, stand_in_bot="random",
            clock=pb.ClockOptions(turn_ms=60_000))
        summary = client.get_game(created.game_id).summary
        assert summary.host_policy == pb.HostPolicy(
            on_resign=pb.RESIGN_POLICY_GAME_ENDS, on_timeout=pb.TIMEOUT_POLICY_FORFEIT,
            stand_in_bot="random")
        defaults = client.create_game(2, seed=6)  # no settings: the documented defaults
        assert client.get_game(defaults.game_id).summary.host_policy == pb.HostPolicy(
            on_resign=pb.RESIGN_POLICY_BOT_TAKES_OVER,
            on_timeout=pb.TIMEOUT_POLICY_BOT_PLAYS_TURN, stand_in_bot="greedy")
    rest = server.rest()
    assert rest.get(f"/v1/games/{created.game_id}")["state"]["summary"]["hostPolicy"] == {
        "onResign": "RESIGN_POLICY_GAME_ENDS", "onTimeout": "TIMEOUT_POLICY_FORFEIT",
        "standInBot": "random", "spectatorDelayTurns": 0}
