"""Hosted play (issue 13): clocks. Fischer (initial time plus an increment per turn) or a
fixed time per turn, enforced by the server's timer: on a timeout the stand-in bot plays the
turn, or the seat forfeits (and the game ends or goes on, per the host's on_resign). The
clock is stored, so a restart mid-turn neither resets the turn nor gives or takes time
(the deadline is the same before and after, and the time left is worked out from it). Two
processes on one database act on a timeout once. Clocks here are short (1-2 s), and every
wait is bounded generously; no assertion depends on a tight timing."""

from __future__ import annotations

import time

from brass_clients.sdk import pb

from .conftest import Backend
from .helpers import ServerProcess, expect_error, expect_rest_error, sse_events
from .test_bot_seats import play_turn, replay_seats, wait_for


def _seconds(stamp: object) -> float:
    return stamp.seconds + stamp.nanos / 1e9  # type: ignore[attr-defined]


def test_a_fischer_clock_counts_down_the_seat_to_act_and_adds_the_increment(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        created = client.create_game(
            players=2, seed=14, clock=pb.ClockOptions(initial_ms=600_000, increment_ms=5_000))
        game_id = created.game_id
        tokens = {s.seat: s.token for s in created.seats}
        clock = created.state.summary.clock
        assert clock.options.initial_ms == 600_000 and clock.options.increment_ms == 5_000
        seat = clock.turn_seat
        assert seat == created.state.summary.current_seat
        assert list(clock.remaining_ms)[1 - seat] == 600_000
        assert abs(_seconds(clock.turn_deadline) - _seconds(clock.turn_start) - 600) < 1e-3
        before = time.time()
        after = play_turn(client, game_id, tokens[seat], seat)
        spent_ms = (time.time() - before) * 1000
        clock = after.clock
        assert clock.turn_seat == 1 - seat
        # The seat's time: 600 s, less its turn (at most what the test measured), plus 5 s.
        left = list(clock.remaining_ms)[seat]
        assert 605_000 - spent_ms - 1000 <= left <= 605_000
        assert list(clock.remaining_ms)[1 - seat] <= 600_000


def test_bad_clocks_are_refused_naming_the_field(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        for clock, field in (({"turnMs": 1000, "initialMs": 1000}, "options.clock"),
                             ({"initialMs": 5}, "options.clock.initialMs"),
                             ({"turnMs": 10}, "options.clock.turnMs"),
                             ({"initialMs": 1000, "incrementMs": 999_999_999},
                              "options.clock.incrementMs")):
            error = expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/games",
                                      {"players": 2, "options": {"clock": clock}})
            assert error.body["error"]["details"][0]["metadata"]["field"] == field
    finally:
        rest.close()


def test_a_timeout_lets_the_stand_in_bot_play_the_turn_over_rest(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        created = rest.post("/v1/games", {
            "players": 2, "seed": 15, "options": {"clock": {"turnMs": 1500},
                                                  "standInBot": "random"}})
        game_id = created["gameId"]
        summary = created["state"]["summary"]
        first = summary["currentSeat"]
        assert summary["clock"]["turnSeat"] == first and "turnDeadline" in summary["clock"]
        # Nobody plays: the deadline passes and the stand-in plays the turn.
        kinds: list[str] = []
        for _event, _id, data in sse_events(server.http_port, f"/v1/games/{game_id}/events"):
            kinds += [e["lobby"]["kind"] for e in data.get("events", []) if "lobby" in e]
            if data.get("state", {}).get("summary", {}).get("currentSeat") not in (None, first):
                break
        assert kinds[:1] == ["turn_timed_out"]
        token = {s["seat"]: s["token"] for s in created["seats"]}[first]
        game = rest.get(f"/v1/games/{game_id}", token=token)["state"]["summary"]
        assert game["currentSeat"] != first and game["seats"][first]["bot"] == ""
    finally:
        rest.close()
    with server.client() as client:
        assert first in replay_seats(client, game_id)  # the stand-in's decisions, for it


def test_a_forfeit_on_time_ends_the_game_when_the_host_said_so(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(
            players=2, seed=16, clock=pb.ClockOptions(turn_ms=1000),
            on_timeout=pb.TIMEOUT_POLICY_FORFEIT, on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        game_id = created.game_id
        seat = created.state.summary.current_seat
        token = {s.seat: s.token for s in created.seats}[seat]
        final = wait_for(lambda: (lambda s: s if s.status == pb.GAME_STATUS_FINISHED else None)(
            client.get_game(game_id).summary), timeout=60)
        assert final.end_reason == pb.END_REASON_FORFEITED
        assert final.seats[seat].resigned and not final.seats[1 - seat].resigned
        assert final.version == 0
        expect_error("GAME_OVER", client.list_legal_actions, game_id, token)


def test_a_restart_mid_turn_neither_resets_the_turn_nor_changes_the_time_left(
    backend: Backend,
) -> None:
    url = backend.new_database_url()
    first = backend.start_server("clock-restart-a", database_url=url)
    with first.client() as client:
        created = client.create_game(players=2, seed=17,
                                     clock=pb.ClockOptions(initial_ms=300_000))
        game_id = created.game_id
        seat = created.state.summary.current_seat
        tokens = {s.seat: s.token for s in created.seats}
        play_turn(client, game_id, tokens[seat], seat)  # the other seat's turn runs now
        before = client.get_game(game_id).summary.clock
    first.stop(crash=True)
    time.sleep(1.0)  # downtime
    second = backend.start_server("clock-restart-b", database_url=url)
    with second.client() as client:
        asked = time.time()
        after = client.get_game(game_id).summary.clock
        answered = time.time()
    runner = before.turn_seat
    assert runner == 1 - seat == after.turn_seat
    # The same turn, started at the same time, with the same deadline: nothing reset,
    # nothing given; the downtime counted like any other time.
    assert after.turn_start == before.turn_start
    assert after.turn_deadline == before.turn_deadline
    deadline = _seconds(after.turn_deadline)
    left = list(after.remaining_ms)[runner]
    assert (deadline - answered) * 1000 - 50 <= left <= (deadline - asked) * 1000 + 50
    assert left < list(before.remaining_ms)[runner] - 900  # the second of downtime counted
    assert list(after.remaining_ms)[seat] == list(before.remaining_ms)[seat]


def test_two_processes_act_on_a_timeout_once(backend: Backend) -> None:
    url = backend.new_database_url()
    first = backend.start_server("clock-two-a", database_url=url)
    second = backend.start_server("clock-two-b", database_url=url)
    with first.client() as client, second.client() as other:
        created = client.create_game(
            players=2, seed=18, clock=pb.ClockOptions(turn_ms=500),
            on_timeout=pb.TIMEOUT_POLICY_FORFEIT, on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        game_id = created.game_id
        wait_for(lambda: other.get_game(game_id).summary.status == pb.GAME_STATUS_FINISHED)
        # Only the process that claimed the timeout forfeited the seat (each logs it; the
        # line may reach the log file a moment after the game is seen finished).
        def forfeits() -> list[str]:
            return [line for server in (first, second)
                    for line in server.log_text().splitlines()
                    if '"seat_forfeited"' in line and game_id in line]

        wait_for(lambda: len(forfeits()) > 0)
        stored = forfeits()
        assert len(stored) == 1, stored
        # And with the stand-in playing timed-out turns, each turn is played once.
        played = client.create_game(players=2, seed=19, clock=pb.ClockOptions(turn_ms=300),
                                    stand_in_bot="random").game_id
        wait_for(lambda: other.get_game(played).summary.version >= 12, timeout=120)
        decisions = other._call("GetReplay", pb.GetReplayRequest(game_id=played)).decisions
        assert [d.version for d in decisions] == list(range(1, len(decisions) + 1))


def test_run_batch_refuses_the_hosted_options(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        error = expect_rest_error(
            "INVALID_ARGUMENT", 400, rest.post, "/v1/batches",
            {"players": 2, "bots": ["random"], "games": 1, "options": {"clock": {"turnMs": 1000}}},
            token=server.operator_token)
        assert error.body["error"]["details"][0]["metadata"]["field"] == "options.clock"
    finally:
        rest.close()


def test_a_person_is_refused_once_the_turn_time_is_up(backend: Backend) -> None:
    """The timer of this server looks for due games only every 30 s, so the timed-out turn
    stays unplayed for a while: the seat's own decision is refused meanwhile."""
    server = backend.start_server("clock-refusal", env={"BRASS_TIMER_POLL_SECONDS": "30"})
    with server.client() as client:
        created = client.create_game(players=2, seed=20, clock=pb.ClockOptions(turn_ms=300))
        game_id = created.game_id
        seat = created.state.summary.current_seat
        token = {s.seat: s.token for s in created.seats}[seat]
        option = client.list_legal_actions(game_id, token).options[0].id
        deadline = _seconds(created.state.summary.clock.turn_deadline)
        time.sleep(max(0.0, deadline - time.time()) + 0.2)
        error = expect_error("TURN_TIMED_OUT", client.submit_action, game_id, token, option)
        assert error.metadata["seat"] == str(seat)
        assert client.get_game(game_id).summary.version == 0


def _state_at(client: object, game_id: str, version: int) -> pb.GameState:
    request = pb.GetGameRequest(game_id=game_id, at_version=version)
    return client._call("GetGame", request).state  # type: ignore[attr-defined]


def test_a_past_version_shows_the_clock_and_status_of_then(server: ServerProcess) -> None:
    """GetGame at_version (the replay viewer): the clock as it stood when that version was
    reached (whose turn, its start, each seat's time left then), not the current one, and
    still, however long ago that was; a version before a resignation that ended the game
    is in progress."""
    with server.client() as client:
        created = client.create_game(
            players=2, seed=15, clock=pb.ClockOptions(initial_ms=600_000, increment_ms=5_000),
            on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        game_id = created.game_id
        tokens = {s.seat: s.token for s in created.seats}
        start = created.state.summary.clock
        first = start.turn_seat
        after_first = play_turn(client, game_id, tokens[first], first)
        time.sleep(0.3)  # the second seat's turn runs: the current clock moves on
        after_second = play_turn(client, game_id, tokens[1 - first], 1 - first)
        time.sleep(0.3)
        play_turn(client, game_id, tokens[first], first)
        client.resign_game(game_id, tokens[first])
        head = client.get_game(game_id).summary
        assert head.status == pb.GAME_STATUS_FINISHED
        assert head.end_reason == pb.END_REASON_RESIGNED
        # version 0: the game's start, everyone's full time, the first seat's turn from then
        zero = _state_at(client, game_id, 0).summary
        assert zero.status == pb.GAME_STATUS_IN_PROGRESS
        assert zero.end_reason == pb.END_REASON_UNSPECIFIED
        assert zero.current_seat == first
        assert zero.clock.turn_seat == first
        assert list(zero.clock.remaining_ms) == [600_000, 600_000]
        assert zero.clock.turn_start == start.turn_start
        assert zero.clock.turn_deadline == start.turn_deadline
        # after each turn: the clock its answer gave (the seat to act's time as the version
        # was reached, a moment before the answer was written), and it stays put
        for summary in (after_first, after_second):
            reads = []
            for _ in range(2):
                past = _state_at(client, game_id, summary.version).summary
                assert past.status == pb.GAME_STATUS_IN_PROGRESS
                assert past.clock.turn_seat == summary.clock.turn_seat
                assert past.clock.turn_start == summary.clock.turn_start
                to_act = past.clock.turn_seat
                then, answered = list(past.clock.remaining_ms), list(summary.clock.remaining_ms)
                assert then[1 - to_act] == answered[1 - to_act]
                assert 0 <= then[to_act] - answered[to_act] < 1000
                reads.append(then)
                time.sleep(0.1)
            assert reads[0] == reads[1]
        # a version inside a turn (after its first decision): the turn's start clock, less
        # the time the seat had taken when it was reached (the turn's one submission)
        inside = _state_at(client, game_id, 1).summary
        assert inside.clock.turn_seat == first and inside.current_seat == first
        assert inside.clock.turn_start == start.turn_start
        assert list(inside.clock.remaining_ms)[1 - first] == 600_000
        assert list(inside.clock.remaining_ms)[first] <= 600_000
