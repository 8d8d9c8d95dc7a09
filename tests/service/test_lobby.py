"""Hosted play, first part (issue 13): games created with open seats wait in a lobby;
players join (a given seat or the next free one) and leave; the host starts the game once
every seat is taken. Public and unlisted games; ListGames filters. Over gRPC and REST,
on both back ends; and the store's guard that lets only one of two concurrent joins of a
seat win."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import brass
from brass_clients.sdk import BrassError, GameClient, pb
from brass_service.auth import hash_token, new_token
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.observability import RequestRecord
from brass_service.store import GameRow, ListFilter, SeatsUpdate, Snapshot, open_store
from brass_service.store.sqlite_conn import SCHEMA as SQLITE_SCHEMA
from brass_service.views.convert import message_to_json_dict

from .conftest import Backend
from .helpers import ServerProcess, expect_error, expect_rest_error, without_defaults


def _summary(client: GameClient, game_id: str) -> pb.GameSummary:
    return client.get_game(game_id).summary


def _first_option(client: GameClient, game_id: str, token: str) -> int:
    return client.list_legal_actions(game_id, token).options[0].id


def test_open_seats_wait_for_joins_and_the_host_start_over_grpc(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(
            players=3, seed=7, seat_names=["Hana", "x", "y"], open_seats=[1, 2]
        )
        game_id = created.game_id
        # Only the assigned seat gets a token; the host gets its own credential.
        assert [(s.seat, s.name) for s in created.seats] == [(0, "Hana")]
        assert created.host_token and created.host_token != created.seats[0].token
        summary = created.state.summary
        assert summary.status == pb.GAME_STATUS_WAITING
        assert summary.open_seats == 2
        assert summary.visibility == pb.VISIBILITY_PUBLIC
        assert [(s.name, s.open) for s in summary.seats] == [("Hana", False), ("", True),
                                                               ("", True)]
        assert not summary.HasField("current_seat")
        hana = created.seats[0].token

        # Nothing is played before the start.
        expect_error("GAME_NOT_STARTED", client.list_legal_actions, game_id, hana)
        expect_error("GAME_NOT_STARTED", client.submit_action, game_id, hana, option_id=0)
        expect_error("GAME_NOT_STARTED", client.preview_action, game_id, hana, option_id=0)
        expect_error("SEATS_OPEN", client.start_game, game_id, created.host_token)

        # A given seat, then the next free one.
        bea = client.join_game(game_id, "Bea", seat=2)
        assert (bea.seat.seat, bea.seat.name) == (2, "Bea") and bea.seat.token
        assert bea.summary.open_seats == 1
        taken = expect_error("SEAT_TAKEN", client.join_game, game_id, "Cal", seat=2)
        assert taken.metadata["seat"] == "2"
        after_refusal = _summary(client, game_id)
        assert [s.name for s in after_refusal.seats] == ["Hana", "", "Bea"]
        assert after_refusal.open_seats == 1
        cal = client.join_game(game_id, "Cal")
        assert cal.seat.seat == 1
        assert len({hana, bea.seat.token, cal.seat.token, created.host_token}) == 4
        expect_error("GAME_FULL", client.join_game, game_id, "Dee")
        expect_error("SEAT_TAKEN", client.join_game, game_id, "Dee", seat=0)
        # Every seat taken but not started: still nothing to play.
        expect_error("GAME_NOT_STARTED", client.list_legal_actions, game_id, cal.seat.token)
        assert _summary(client, game_id).status == pb.GAME_STATUS_WAITING

        # Only the host starts it.
        expect_error("NOT_HOST", client.start_game, game_id, hana)
        expect_error("UNAUTHENTICATED", client._call, "StartGame",
                     pb.StartGameRequest(game_id=game_id))
        started = client.start_game(game_id, created.host_token).state.summary
        assert started.status == pb.GAME_STATUS_IN_PROGRESS
        assert started.open_seats == 0
        assert [s.name for s in started.seats] == ["Hana", "Cal", "Bea"]
        assert started.HasField("current_seat")
        expect_error("GAME_STARTED", client.start_game, game_id, created.host_token)
        expect_error("GAME_STARTED", client.join_game, game_id, "Eve")
        expect_error("GAME_STARTED", client.leave_game, game_id, bea.seat.token)

        # The joined seats' tokens act.
        tokens = {0: hana, 1: cal.seat.token, 2: bea.seat.token}
        seat = started.current_seat
        option = _first_option(client, game_id, tokens[seat])
        moved = client.submit_action(game_id, tokens[seat], option_id=option, expected_version=0)
        assert moved.state.summary.version >= 1
        assert moved.state.viewer_seat == seat
        # The host token sees the spectator's view, not a seat's.
        assert not client.get_game(game_id, created.host_token).HasField("viewer_seat")


def test_join_leave_and_start_over_rest(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        created = rest.post("/v1/games", {"players": 2, "seed": 3, "openSeats": [0, 1],
                                          "visibility": "VISIBILITY_UNLISTED"})
        game_id, host = created["gameId"], created["hostToken"]
        assert created.get("seats", []) == []
        assert created["state"]["summary"]["status"] == "GAME_STATUS_WAITING"
        assert created["state"]["summary"]["visibility"] == "VISIBILITY_UNLISTED"
        assert created["state"]["summary"]["openSeats"] == 2

        first = rest.post(f"/v1/games/{game_id}:join", {"name": "Ann"})
        assert first["seat"]["seat"] == 0 and first["seat"]["name"] == "Ann"
        ann = first["seat"]["token"]
        # The token is returned once: the game's public facts never carry it.
        game = rest.get(f"/v1/games/{game_id}")
        assert ann not in str(game)
        assert game["state"]["summary"]["seats"][0] == {
            "seat": 0, "name": "Ann", "open": False, "bot": "", "resigned": False, "vacant": False,
            "accountId": ""}
        assert game["state"]["summary"]["seats"][1] == {
            "seat": 1, "name": "", "open": True, "bot": "", "resigned": False, "vacant": False,
            "accountId": ""}
        assert rest.get(f"/v1/games/{game_id}", token=ann)["state"]["viewerSeat"] == 0

        expect_rest_error("SEAT_TAKEN", 409, rest.post, f"/v1/games/{game_id}:join",
                          {"name": "Bo", "seat": 0})
        expect_rest_error("NOT_HOST", 403, rest.post, f"/v1/games/{game_id}:start", {},
                          token=ann)
        expect_rest_error("SEATS_OPEN", 400, rest.post, f"/v1/games/{game_id}:start", {},
                          token=host)
        expect_rest_error("GAME_NOT_STARTED", 400, rest.get, f"/v1/games/{game_id}/actions",
                          token=ann)
        expect_rest_error("UNAUTHENTICATED", 401, rest.post, f"/v1/games/{game_id}:leave", {})

        # Leaving frees the seat; the old token is void at once.
        left = rest.post(f"/v1/games/{game_id}:leave", {}, token=ann)
        assert left["summary"]["openSeats"] == 2
        assert left["summary"]["seats"][0] == {
            "seat": 0, "name": "", "open": True, "bot": "", "resigned": False, "vacant": False,
            "accountId": ""}
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, f"/v1/games/{game_id}", token=ann)
        expect_rest_error("UNAUTHENTICATED", 401, rest.post, f"/v1/games/{game_id}:leave", {},
                          token=ann)

        again = rest.post(f"/v1/games/{game_id}:join", {"name": "Cy"})
        assert again["seat"]["seat"] == 0 and again["seat"]["token"] != ann
        other = rest.post(f"/v1/games/{game_id}:join", {"name": "Di"})
        assert other["seat"]["seat"] == 1
        expect_rest_error("GAME_FULL", 409, rest.post, f"/v1/games/{game_id}:join",
                          {"name": "Ed"})
        started = rest.post(f"/v1/games/{game_id}:start", {}, token=host)
        assert started["state"]["summary"]["status"] == "GAME_STATUS_IN_PROGRESS"
        tokens = [again["seat"]["token"], other["seat"]["token"]]
        to_act = started["state"]["summary"]["currentSeat"]
        options = rest.get(f"/v1/games/{game_id}/actions", token=tokens[to_act])["options"]
        assert options
        expect_rest_error("GAME_STARTED", 400, rest.post, f"/v1/games/{game_id}:leave", {},
                          token=tokens[0])
        expect_rest_error("UNKNOWN_GAME", 404, rest.post, "/v1/games/nosuchgame:join",
                          {"name": "Ed"})
    finally:
        rest.close()


def test_bad_lobby_requests_are_refused_and_change_nothing(server: ServerProcess) -> None:
    with server.client() as client:
        for open_seats in ([2], [-1], [1, 1]):
            error = expect_error("INVALID_ARGUMENT", client.create_game, players=2,
                                 open_seats=open_seats)
            assert error.metadata["field"] == "open_seats"
        bad_visibility = expect_error("INVALID_ARGUMENT", client._call, "CreateGame",
                                      pb.CreateGameRequest(players=2, visibility=9))
        assert bad_visibility.metadata["field"] == "visibility"
        created = client.create_game(players=2, open_seats=[1])
        game_id = created.game_id
        # white space to either reader of the document's pattern (ECMA-262 and Python)
        for name in ("", "   ", "n" * 65, "\x1e", "\ufeff", "\u3000\t"):
            error = expect_error("INVALID_ARGUMENT", client.join_game, game_id, name)
            assert error.metadata["field"] == "name"
        for seat in (2, -1):
            error = expect_error("INVALID_ARGUMENT", client.join_game, game_id, "Al", seat=seat)
            assert error.metadata["field"] == "seat"
        expect_error("UNKNOWN_GAME", client.join_game, "nosuchgame", "Al")
        expect_error("UNAUTHENTICATED", client.leave_game, game_id, "not-a-token")
        expect_error("NOT_HOST", client.start_game, game_id, "not-a-token")
        unchanged = _summary(client, game_id)
        assert unchanged.open_seats == 1 and [s.open for s in unchanged.seats] == [False, True]
        rest = server.rest()
        for name in ("\x1e", "\ufeff"):
            refused = expect_rest_error("INVALID_ARGUMENT", 400, rest.post,
                                        f"/v1/games/{game_id}:join", {"name": name})
            assert refused.body["error"]["details"][0]["metadata"]["field"] == "name"
        assert client.join_game(game_id, "n" * 64).seat.seat == 1


def test_a_game_with_every_seat_assigned_starts_at_once(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=5, seat_names=["A", "B"])
        summary = created.state.summary
        assert summary.status == pb.GAME_STATUS_IN_PROGRESS
        assert summary.open_seats == 0 and not any(s.open for s in summary.seats)
        assert [s.name for s in created.seats] == ["A", "B"]
        assert created.host_token
        expect_error("GAME_STARTED", client.join_game, created.game_id, "C")
        expect_error("GAME_STARTED", client.start_game, created.game_id, created.host_token)
        token = created.seats[summary.current_seat].token
        assert client.list_legal_actions(created.game_id, token).options


def test_list_games_shows_public_games_only_with_filters(backend: Backend) -> None:
    server = backend.start_server("lobby-list")
    with server.client() as client:
        waiting = client.create_game(players=2, open_seats=[1]).game_id
        playing = client.create_game(players=2).game_id
        hidden = client.create_game(players=2, open_seats=[0],
                                    visibility=pb.VISIBILITY_UNLISTED).game_id
        hidden_playing = client.create_game(players=3,
                                            visibility=pb.VISIBILITY_UNLISTED).game_id

        def listed(**filters: object) -> list[str]:
            return [g.game_id for g in client.list_games(**filters).games]  # type: ignore[arg-type]

        assert listed() == [playing, waiting]
        assert listed(status=pb.GAME_STATUS_WAITING) == [waiting]
        assert listed(status=pb.GAME_STATUS_IN_PROGRESS) == [playing]
        assert listed(has_open_seats=True) == [waiting]
        assert listed(has_open_seats=False) == [playing]
        assert listed(ruleset=pb.RULESET_BIRMINGHAM) == [playing, waiting]
        assert listed(ruleset=pb.RULESET_BIRMINGHAM, status=pb.GAME_STATUS_WAITING,
                      has_open_seats=True) == [waiting]
        # Unlisted games are reachable by id only.
        for game_id in (hidden, hidden_playing):
            assert client.get_game(game_id).summary.visibility == pb.VISIBILITY_UNLISTED
        assert client.join_game(hidden, "Zed").seat.seat == 0
        # Joining the last open seat moves a game out of the has-open-seats filter.
        client.join_game(waiting, "Yan")
        assert listed(has_open_seats=True) == []
        assert listed(has_open_seats=False) == [playing, waiting]

    rest = server.rest()
    try:
        page = rest.get("/v1/games?status=GAME_STATUS_WAITING&hasOpenSeats=false"
                        "&ruleset=RULESET_BIRMINGHAM")
        assert [g["gameId"] for g in page["games"]] == [waiting]
        assert [g["gameId"] for g in rest.get("/v1/games?hasOpenSeats=true")
                .get("games", [])] == []
        expect_rest_error("INVALID_ARGUMENT", 400, rest.get, "/v1/games?ruleset=CHESS")
        expect_rest_error("INVALID_ARGUMENT", 400, rest.get, "/v1/games?hasOpenSeats=maybe")
    finally:
        rest.close()


def _two_processes_on_one_database(
    backend: Backend, name: str
) -> tuple[ServerProcess, ServerProcess]:
    url = backend.new_database_url()
    return (backend.start_server(f"{name}-a", database_url=url),
            backend.start_server(f"{name}-b", database_url=url))


def test_concurrent_joins_of_one_seat_through_two_processes(backend: Backend) -> None:
    """Two server processes on one database (PostgreSQL: two replicas; SQLite: two
    processes on one file); many clients join the same seat at once: exactly one wins,
    every other one is told SEAT_TAKEN, and the seat holds the winner's token."""
    first, second = _two_processes_on_one_database(backend, "lobby")
    with first.client() as creator:
        game_id = creator.create_game(players=4, open_seats=[1, 2, 3]).game_id
    clients = [first.client() if i % 2 else second.client() for i in range(8)]
    barrier = threading.Barrier(len(clients))
    outcomes: list[object] = [None] * len(clients)

    def join(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = clients[index].join_game(game_id, f"P{index}", seat=2)
        except BrassError as error:
            outcomes[index] = error.reason

    threads = [threading.Thread(target=join, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if isinstance(o, pb.JoinGameResponse)]
    assert len(winners) == 1, outcomes
    assert sorted(o for o in outcomes if isinstance(o, str)) == ["SEAT_TAKEN"] * 7
    winner = winners[0]
    state = clients[0].get_game(game_id, winner.seat.token)
    assert state.viewer_seat == 2
    assert state.summary.seats[2].name == winner.seat.name
    assert state.summary.open_seats == 2

    # Next-free joins at once from both processes: each gets a different seat.
    barrier = threading.Barrier(2)
    seats: list[int] = []

    def join_next(client: GameClient, name: str) -> None:
        barrier.wait()
        seats.append(client.join_game(game_id, name).seat.seat)

    pair = [threading.Thread(target=join_next, args=(c, f"Next {i}"))
            for i, c in enumerate(clients[:2])]
    for thread in pair:
        thread.start()
    for thread in pair:
        thread.join()
    assert sorted(seats) == [1, 3]
    for client in clients:
        client.close()


def _lobby_row(game_id: str) -> GameRow:
    now = time.time()
    return GameRow(
        game_id=game_id, ruleset=1, rules_edition=1, players=2, seed=1, options={},
        position_json=None, seat_names=["A", ""], token_hashes=["0" * 64, ""],
        created_at=now, updated_at=now, version=0, status=pb.GAME_STATUS_WAITING,
        current_seat=0, decision="action", visibility=pb.VISIBILITY_PUBLIC,
        host_token_hash="h" * 64, open_seats=1,
    )


def test_store_applies_a_change_of_seats_only_on_the_revision_read(backend: Backend) -> None:
    async def scenario() -> None:
        store = open_store(backend.new_database_url())
        await store.open()
        try:
            await store.create_game(_lobby_row("g1"), Snapshot(0, b"s"))
            join = SeatsUpdate(0, ["A", "B"], ["0" * 64, "1" * 64], 0,
                               pb.GAME_STATUS_WAITING, time.time())
            assert await store.update_seats("g1", join)
            # A second writer that read revision 0 too is refused and changes nothing.
            rival = SeatsUpdate(0, ["A", "C"], ["0" * 64, "2" * 64], 0,
                                pb.GAME_STATUS_WAITING, time.time())
            assert not await store.update_seats("g1", rival)
            row = await store.get_game("g1")
            assert row is not None
            assert row.seat_names == ["A", "B"] and row.token_hashes[1] == "1" * 64
            assert (row.seats_revision, row.open_seats, row.host_token_hash) == (1, 0, "h" * 64)
            assert row.version == 0  # the decision log is untouched
            page = await store.list_games(10, None, None, ListFilter(has_open_seats=False))
            assert [g.game_id for g in page.games] == ["g1"]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_sqlite_database_made_before_the_lobby_opens_and_serves(tmp_path: Path) -> None:
    """A database of the previous release (the games table without the lobby columns, a
    game in it) is brought up to date when opened: its game is public, hostless, without
    open seats, listed and playable, and new games are stored beside it."""
    path = tmp_path / "old.sqlite3"
    game = brass.Game.new(players=2, seed=9)
    tokens = [new_token(), new_token()]
    with sqlite3.connect(path) as conn:
        conn.executescript(SQLITE_SCHEMA)  # the tables as the previous release made them
        present = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
        assert "visibility" not in present and "seats_revision" not in present
        now = time.time()
        conn.execute(
            "INSERT INTO games (game_id, ruleset, rules_edition, players, seed, options, "
            "position_json, seat_names, token_hashes, created_at, updated_at, version, "
            "status, current_seat, decision) VALUES (?, 1, ?, 2, '9', ?, NULL, ?, ?, ?, ?, "
            "0, 1, ?, ?)",
            ("legacy", int(game.rules_edition),
             json.dumps(game.replay_record().get("options", {})), json.dumps(["A", "B"]),
             json.dumps([hash_token(t) for t in tokens]), now - 10, now - 10,
             game.current_seat, game.decision),
        )
        conn.execute("INSERT INTO snapshots (game_id, version, data) VALUES ('legacy', 0, ?)",
                     (game.snapshot(),))
    server = ServerProcess(tmp_path / "old", database_url=f"sqlite:///{path}").start()
    try:
        with server.client() as client:
            legacy = client.get_game("legacy").summary
            assert legacy.visibility == pb.VISIBILITY_PUBLIC and legacy.open_seats == 0
            assert legacy.status == pb.GAME_STATUS_IN_PROGRESS
            assert [(s.name, s.open) for s in legacy.seats] == [("A", False), ("B", False)]
            created = client.create_game(players=2, open_seats=[0])
            assert [g.game_id for g in client.list_games().games] == [created.game_id, "legacy"]
            token = tokens[legacy.current_seat]
            option = client.list_legal_actions("legacy", token).options[0].id
            assert client.submit_action("legacy", token, option_id=option).state.summary.version
            expect_error("GAME_STARTED", client.join_game, "legacy", "New")
            expect_error("NOT_HOST", client.start_game, "legacy", token)
    finally:
        server.stop()


@pytest.mark.parametrize("path", ["/v1/games/{id}:join", "/v1/games/{id}:start"])
def test_lobby_routes_are_in_the_openapi_document(server: ServerProcess, path: str) -> None:
    rest = server.rest()
    try:
        document = rest.get("/openapi.json")
        assert path.replace("{id}", "{gameId}") in document["paths"]
    finally:
        rest.close()



def test_rest_answers_of_a_waiting_game_are_the_json_of_the_grpc_answers(
    server: ServerProcess,
) -> None:
    """The REST summary of a waiting game (made directly, not through the messages) is the
    canonical JSON of gRPC's: status WAITING, open seats flagged, no seat to act."""
    rest = server.rest()
    try:
        with server.client() as client:
            created = client.create_game(players=3, seat_names=["A", "B", "C"],
                                         open_seats=[1], visibility=pb.VISIBILITY_UNLISTED)
            game_id, token = created.game_id, created.seats[0].token
            for caller in (None, token):
                state = client.get_game(game_id, caller)
                assert without_defaults(rest.get(f"/v1/games/{game_id}", token=caller)) == (
                    without_defaults(message_to_json_dict(pb.GetGameResponse(state=state)))
                )
            summary = rest.get(f"/v1/games/{game_id}")["state"]["summary"]
            assert summary["status"] == "GAME_STATUS_WAITING" and "currentSeat" not in summary
            assert [s["open"] for s in summary["seats"]] == [False, True, False]
            assert [s["name"] for s in summary["seats"]] == ["A", "", "C"]
    finally:
        rest.close()


def test_the_host_reissues_a_seat_token_and_the_old_one_is_refused_at_once(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=21, seat_names=["A", "B"])
        game_id, host = created.game_id, created.host_token
        old = [s.token for s in created.seats]
        expect_error("NOT_HOST", client.reissue_seat_token, game_id, 0, old[0])
        expect_error("UNAUTHENTICATED", client._call, "ReissueSeatToken",
                     pb.ReissueSeatTokenRequest(game_id=game_id, seat=0))
        for seat in (2, -1):
            error = expect_error("INVALID_ARGUMENT", client.reissue_seat_token, game_id, seat,
                                 host)
            assert error.metadata["field"] == "seat"
        to_act = created.state.summary.current_seat
        client.get_game(game_id, old[to_act])  # cached with the old token
        reissued = client.reissue_seat_token(game_id, to_act, host).seat
        assert (reissued.seat, reissued.name) == (to_act, ["A", "B"][to_act])
        assert reissued.token not in old
        expect_error("UNAUTHENTICATED", client.get_game, game_id, old[to_act])
        expect_error("UNAUTHENTICATED", client.list_legal_actions, game_id, old[to_act])
        expect_error("UNAUTHENTICATED", client.submit_action, game_id, old[to_act], option_id=0)
        assert client.get_game(game_id).summary.version == 0  # nothing was applied
        # The other seat's token still acts; the new one does.
        assert client.get_game(game_id, old[1 - to_act]).viewer_seat == 1 - to_act
        option = client.list_legal_actions(game_id, reissued.token).options[0].id
        moved = client.submit_action(game_id, reissued.token, option_id=option)
        assert moved.state.summary.version >= 1

        waiting = client.create_game(players=2, open_seats=[1])
        error = expect_error("INVALID_ARGUMENT", client.reissue_seat_token, waiting.game_id,
                             1, waiting.host_token)
        assert error.metadata["field"] == "seat"
        before_start = client.reissue_seat_token(waiting.game_id, 0, waiting.host_token).seat
        expect_error("UNAUTHENTICATED", client.leave_game, waiting.game_id,
                     waiting.seats[0].token)
        assert client.leave_game(waiting.game_id, before_start.token).summary.open_seats == 2


def test_a_token_reissued_through_one_process_is_refused_by_another(backend: Backend) -> None:
    """The other process holds the game in memory with the old token's digest: its reads
    see the seats moved (the head check), and its submission, made on the copy in memory,
    is refused by the store (the decision's write is conditional on the seats read)."""
    first, second = _two_processes_on_one_database(backend, "reissue")
    with first.client() as host_side, second.client() as other:
        created = host_side.create_game(players=2, seed=4)
        game_id = created.game_id
        to_act = created.state.summary.current_seat
        old = created.seats[to_act].token
        option = other.list_legal_actions(game_id, old).options[0].id  # cached there
        new = host_side.reissue_seat_token(game_id, to_act, created.host_token).seat.token
        expect_error("UNAUTHENTICATED", other.submit_action, game_id, old, option_id=option)
        expect_error("UNAUTHENTICATED", other.get_game, game_id, old)
        assert other.get_game(game_id).summary.version == 0
        assert other.submit_action(game_id, new, option_id=option).state.summary.version >= 1
    rest = first.rest()
    try:
        again = rest.post(f"/v1/games/{game_id}:reissueSeatToken", {"seat": to_act},
                          token=created.host_token)
        assert again["seat"]["seat"] == to_act and again["seat"]["token"] != new
        expect_rest_error("NOT_HOST", 403, rest.post, f"/v1/games/{game_id}:reissueSeatToken",
                          {"seat": to_act}, token=new)
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, f"/v1/games/{game_id}", token=new)
    finally:
        rest.close()


def test_the_sweep_deletes_waiting_games_nobody_joined_for_days(backend: Backend) -> None:
    """A game waiting for players is abandoned ABANDONED_GAME_DAYS after its creation or
    its last change of seats; one joined since is kept."""

    async def scenario() -> None:
        store = open_store(backend.new_database_url())
        await store.open()
        service = GameService(store, ServiceSettings(abandoned_game_days=7.0))
        anyone = Caller(token=None, peer="192.0.2.1")
        record = RequestRecord("test", "sweep", "r")
        try:
            async def create() -> str:
                request = pb.CreateGameRequest(players=2, open_seats=[0, 1])
                return (await service.create_game(request, anyone, record)).game_id

            forgotten, joined = await create(), await create()
            await asyncio.sleep(0.01)  # the join's time is after both creations
            await service.join_game(pb.JoinGameRequest(game_id=joined, name="Jo"), anyone,
                                    record)
            rows = {game_id: await store.get_game(game_id) for game_id in (forgotten, joined)}
            first, second = (rows[g].updated_at for g in (forgotten, joined))  # type: ignore[union-attr]
            assert first < second
            cutoff = (first + second) / 2
            assert await service.delete_abandoned_games(now=cutoff + 7 * 86_400) == 1
            assert await store.get_game(forgotten) is None
            assert await store.latest_snapshot(forgotten) is None
            assert await store.get_game(joined) is not None
        finally:
            service.close()
            await store.close()

    asyncio.run(scenario())
