"""Spectator delay (issue 25, item 3): until the game ends a spectator sees the game as it
was N whole turns back (GetGame, at_version, GetReplay, WatchGame) over both transports;
seats see the game as now; after the end everything is public."""

from __future__ import annotations

import random

import pytest

import brass
from brass_clients.sdk import pb, view_dict
from brass_service.games.delay import _Turns, delayed_version, turn_starts
from service.helpers import engine_view

from .helpers import ServerProcess, expect_error, expect_rest_error, sse_events
from .test_replay_viewer import _state_at

DELAY = 2


def expected_version(seats_to_act: list[int | None], delay: int) -> int:
    """The version a delayed spectator sees, from the engine's seat to act at every version
    (the last entry: at the head): the start of the turn `delay` turns before the current
    one, a turn beginning where the seat to act changes."""
    starts = [0] + [v for v in range(1, len(seats_to_act))
                    if seats_to_act[v] != seats_to_act[v - 1]]
    return starts[max(len(starts) - 1 - delay, 0)]


def test_turn_starts_follow_the_seat_that_made_each_decision() -> None:
    # seat 0 twice, seat 1 three times (an undo among them is a row of seat 1), seat 0 ...
    turns = turn_starts([(0, 0), (1, 0), (2, 1), (3, 1), (4, 1), (5, 0)], 6)
    assert turns.starts == [0, 2, 5]
    assert delayed_version(turns, 6, 0, 0) == 5  # (0 turns: the current turn's start)
    assert delayed_version(turns, 6, 0, 1) == 2
    assert delayed_version(turns, 6, 1, 1) == 5  # seat 1 began a turn at the head
    assert delayed_version(turns, 6, 1, 20) == 0
    assert delayed_version(_Turns(), 0, 0, 3) == 0


def test_a_delayed_spectator_sees_the_game_turns_back(server: ServerProcess) -> None:
    rng = random.Random(25)
    rest = server.rest()
    with server.client() as client:
        created = client.create_game(2, seed=2503, spectator_delay_turns=DELAY)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        assert created.state.summary.host_policy.spectator_delay_turns == DELAY
        mirror = brass.Game.new(2, seed=2503)
        seats: list[int | None] = [mirror.current_seat]
        views = [mirror.view(None)]
        checked = 0
        while not mirror.is_over:
            seat = mirror.current_seat
            option = rng.choice(mirror.legal_ids())
            client.submit_action(game_id, tokens[seat], option, expected_version=mirror.version)
            mirror.apply(option)
            seats.append(mirror.current_seat)
            views.append(mirror.view(None))
            if mirror.version % 7 and mirror.version > 30:
                continue
            head, seen = mirror.version, expected_version(seats, DELAY)
            assert seen < head or head < 6
            spectator = client.get_game(game_id)
            assert spectator.summary.version == seen
            assert view_dict(spectator) == engine_view(views[seen])
            # a seat sees its own view as now
            assert client.get_game(game_id, tokens[0]).summary.version == head
            # REST: the same delay
            assert rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"] == str(seen)
            # the past up to it, nothing newer
            assert _state_at(client, game_id, seen, None).summary.version == seen
            if seen < head:
                error = expect_error("SPECTATOR_DELAY", _state_at, client, game_id, seen + 1,
                                     None)
                assert error.metadata["visible_version"] == str(seen)
                assert error.metadata["delay_turns"] == str(DELAY)
                body = expect_rest_error("SPECTATOR_DELAY", 400, rest.get,
                                         f"/v1/games/{game_id}?atVersion={head}").body
                assert body["error"]["details"][0]["metadata"]["field"] == "atVersion"
                assert _state_at(client, game_id, head, tokens[1]).summary.version == head
            complete, record = client.get_replay(game_id)
            assert not complete and len(record["decisions"]) == seen
            assert len(client.get_replay(game_id, tokens[1])[1]["decisions"]) == head
            assert len(rest.get(f"/v1/games/{game_id}/replay")["decisions"]) == seen
            checked += 1
        # over: everything is public
        assert client.get_game(game_id).summary.version == mirror.version
        complete, record = client.get_replay(game_id)
        assert complete and len(record["decisions"]) == mirror.version
    assert checked > 10


def test_a_delayed_spectators_watch_stream_stops_at_the_delayed_version(
        server: ServerProcess) -> None:
    rng = random.Random(7)
    with server.client() as client:
        created = client.create_game(3, seed=77, spectator_delay_turns=1)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        mirror = brass.Game.new(3, seed=77)
        seats: list[int | None] = [mirror.current_seat]
        while len(set(seats)) < 3 or mirror.version < 12:
            option = rng.choice(mirror.legal_ids())
            client.submit_action(game_id, tokens[mirror.current_seat], option)
            mirror.apply(option)
            seats.append(mirror.current_seat)
        seen = expected_version(seats, 1)
        assert 0 < seen < mirror.version
        # gRPC: the first update is the delayed state, with the decisions up to it only
        stream = client._stub.WatchGame(pb.WatchGameRequest(game_id=game_id))  # type: ignore[attr-defined]
        first = next(iter(stream))
        stream.cancel()
        assert first.version == seen and first.state.summary.version == seen
        assert max(e.version for e in first.events) == seen
        error = expect_error("SPECTATOR_DELAY", lambda: next(iter(client.watch_game(
            game_id, from_version=seen + 1))))
        assert error.metadata["field"] == "from_version"
        # a seat's stream is not delayed
        mine = client._stub.WatchGame(  # type: ignore[attr-defined]
            pb.WatchGameRequest(game_id=game_id), metadata=(("authorization",
                                                              f"Bearer {tokens[0]}"),))
        assert next(iter(mine)).version == mirror.version
        mine.cancel()
    # SSE: the same
    for event, _id, data in sse_events(server.http_port, f"/v1/games/{game_id}/events"):
        assert event == "update" and data["version"] == str(seen)
        assert data["state"]["summary"]["version"] == str(seen)
        break


@pytest.mark.parametrize("delay", [-1, 21])
def test_the_delay_is_bounded(server: ServerProcess, delay: int) -> None:
    with server.client() as client:
        error = expect_error("INVALID_ARGUMENT", client.create_game, 2,
                             spectator_delay_turns=delay)
        assert error.metadata["field"] == "options.spectator_delay_turns"
    body = expect_rest_error("INVALID_ARGUMENT", 400, server.rest().post, "/v1/games",
                             {"players": 2, "options": {"spectatorDelayTurns": delay}}).body
    assert body["error"]["details"][0]["metadata"]["field"] == "options.spectatorDelayTurns"
