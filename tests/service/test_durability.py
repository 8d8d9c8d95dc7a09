"""Durability and scale-out: restarts lose nothing; replicas on one PostgreSQL agree."""

from __future__ import annotations

import random
import sqlite3
import threading

import pytest

from brass_clients.sdk import BrassError, pb, view_dict

from .conftest import Backend
from .helpers import play_random_grpc, play_random_rest


@pytest.mark.parametrize("crash", [True, False], ids=["kill-9", "sigterm"])
def test_restart_mid_game_and_continue(backend: Backend, crash: bool) -> None:
    database_url = backend.new_database_url()
    server = backend.start_server(f"restart-{crash}", database_url=database_url)
    rng = random.Random(17)
    with server.client() as client:
        created = client.create_game(players=2, seed=4242)
        game_id = created.game_id
        tokens = [s.token for s in created.seats]
        # Far enough to have taken periodic snapshots and decisions after the last one.
        play_random_grpc(client, game_id, tokens, rng, max_submissions=70)
        before = [client.get_game(game_id, t) for t in tokens]
        spectator_before = client.get_game(game_id)
        _, replay_before = client.get_replay(game_id)
    server.stop(crash=crash)

    server.start()  # same database, new process, new ports are not needed
    with server.client() as client:
        assert [client.get_game(game_id, t) for t in tokens] == before
        assert client.get_game(game_id) == spectator_before
        assert client.get_replay(game_id)[1] == replay_before
        # The old tokens still act; the game plays on (to its end after the crash).
        play_random_grpc(client, game_id, tokens, rng, max_submissions=None if crash else 20)
        final = client.get_game(game_id)
        if crash:
            assert final.summary.status == pb.GAME_STATUS_FINISHED
        assert final.summary.version > spectator_before.summary.version
    server.stop()


def test_restart_keeps_idempotency_and_rest_play(backend: Backend) -> None:
    database_url = backend.new_database_url()
    server = backend.start_server("restart-rest", database_url=database_url)
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 2, "seed": "77"})
    game_id = created["gameId"]
    tokens = [s["token"] for s in created["seats"]]
    seat = created["state"]["summary"]["currentSeat"]
    legal = rest.get(f"/v1/games/{game_id}/actions", token=tokens[seat])
    body = {"action": {"optionId": legal["options"][0]["id"]}, "expectedVersion": "0",
            "idempotencyKey": "before-restart"}
    first = rest.post(f"/v1/games/{game_id}/actions", body, token=tokens[seat])
    rest.close()
    server.stop(crash=True)
    server.start()
    rest = server.rest()
    again = rest.post(f"/v1/games/{game_id}/actions", body, token=tokens[seat])
    assert again["replayed"] is True and again["state"] == first["state"]
    play_random_rest(rest, game_id, tokens, random.Random(3), max_submissions=10)
    server.stop()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sqlite_store_is_wal_and_tokens_are_hashed(backend: Backend) -> None:
    database_url = backend.new_database_url()
    server = backend.start_server("wal", database_url=database_url)
    with server.client() as client:
        created = client.create_game(players=2, seed=1)
    server.stop()
    path = database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        dump = "\n".join(conn.iterdump())
    for seat in created.seats:
        assert seat.token not in dump, "tokens are never stored in clear"


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_replicas_share_one_postgres(backend: Backend) -> None:
    """Two service processes on one database: a watcher on B hears moves made on A, and
    racing submissions across replicas are applied exactly once."""
    database_url = backend.new_database_url()
    replica_a = backend.start_server("replica-a", database_url=database_url)
    replica_b = backend.start_server("replica-b", database_url=database_url)
    with replica_a.client() as client_a, replica_b.client() as client_b:
        created = client_a.create_game(players=2, seed=8)
        game_id = created.game_id
        tokens = [s.token for s in created.seats]
        stream = client_b.watch_game(game_id, from_version=0)
        assert next(stream).version == 0
        heard: list[pb.WatchGameResponse] = []

        def listen() -> None:
            for update in stream:
                heard.append(update)
                if update.version >= 3:
                    return

        listener = threading.Thread(target=listen)
        listener.start()
        play_random_grpc(client_a, game_id, tokens, random.Random(4), max_submissions=3)
        listener.join(timeout=120)
        assert heard and heard[-1].version == client_a.get_game(game_id).summary.version
        stream.close()

        # B serves A's moves, and both views agree.
        assert client_b.get_game(game_id) == client_a.get_game(game_id)

        # A race across replicas: exactly one submission wins.
        for _ in range(3):
            state = client_a.get_game(game_id)
            seat = state.summary.current_seat
            legal = client_b.list_legal_actions(game_id, tokens[seat])
            outcomes: list[object] = [None, None]
            barrier = threading.Barrier(2)

            def submit(index: int, client: object, option: int, seat: int = seat,
                       legal: pb.ListLegalActionsResponse = legal,
                       outcomes: list[object] = outcomes,
                       barrier: threading.Barrier = barrier) -> None:
                barrier.wait()
                try:
                    outcomes[index] = client.submit_action(  # type: ignore[attr-defined]
                        game_id, tokens[seat], option, expected_version=legal.version
                    )
                except BrassError as error:
                    outcomes[index] = error

            threads = [
                threading.Thread(target=submit, args=(0, client_a, legal.options[0].id)),
                threading.Thread(target=submit, args=(1, client_b, legal.options[-1].id)),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wins = [o for o in outcomes if isinstance(o, pb.SubmitActionResponse)]
            losses = [o for o in outcomes if isinstance(o, BrassError)]
            assert len(wins) == 1 and len(losses) == 1, outcomes
            assert losses[0].reason == "STALE_VERSION"
            head = wins[0].state.summary.version
            assert client_a.get_game(game_id).summary.version == head
            assert client_b.get_game(game_id).summary.version == head
            assert view_dict(client_b.get_game(game_id)) == view_dict(client_a.get_game(game_id))
        _, record = client_b.get_replay(game_id)
        assert len(record["decisions"]) == client_b.get_game(game_id).summary.version
    replica_a.stop()
    replica_b.stop()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_two_processes_on_one_sqlite_file_answer_from_the_stored_state(
    backend: Backend,
) -> None:
    """Each process answers from the games it holds in memory only while no other process
    has written the file (the shared change counter); a move made through one process is
    seen at once through the other, and their races are settled by the store."""
    database_url = backend.new_database_url()
    process_a = backend.start_server("file-a", database_url=database_url)
    process_b = backend.start_server("file-b", database_url=database_url)
    with process_a.client() as client_a, process_b.client() as client_b:
        created = client_a.create_game(players=2, seed=21)
        game_id = created.game_id
        tokens = [s.token for s in created.seats]
        rng = random.Random(21)
        for turn in range(12):
            # Alternate: each process must see the other's last move without delay.
            mover, other = (client_a, client_b) if turn % 2 else (client_b, client_a)
            state = other.get_game(game_id)
            seat = state.summary.current_seat
            legal = mover.list_legal_actions(game_id, tokens[seat])
            assert legal.version == state.summary.version
            response = mover.submit_action(
                game_id, tokens[seat], rng.choice(legal.options).id,
                expected_version=legal.version,
            )
            version = response.state.summary.version
            assert other.get_game(game_id).summary.version == version
            assert other.list_legal_actions(
                game_id, tokens[response.state.summary.current_seat]
            ).version == version
        # A stale expectation is refused by the process that had not seen the move.
        state = client_a.get_game(game_id)
        seat = state.summary.current_seat
        legal = client_a.list_legal_actions(game_id, tokens[seat])
        client_a.submit_action(game_id, tokens[seat], legal.options[0].id,
                               expected_version=legal.version)
        seat_b = client_b.get_game(game_id).summary.current_seat
        legal_b = client_b.list_legal_actions(game_id, tokens[seat_b])
        try:
            client_b.submit_action(game_id, tokens[seat_b], legal_b.options[0].id,
                                   expected_version=legal.version)
            raise AssertionError("a submission on an old version was accepted")
        except BrassError as error:
            assert error.reason == "STALE_VERSION"
        # B submits on the version A's answer gave, without having read since: its copy is
        # behind, so the submission is evaluated again on the stored state and accepted.
        for _ in range(4):
            seat = client_a.get_game(game_id).summary.current_seat
            legal = client_a.list_legal_actions(game_id, tokens[seat])
            moved = client_a.submit_action(game_id, tokens[seat], legal.options[0].id,
                                           expected_version=legal.version)
            summary = moved.state.summary
            if summary.status != pb.GAME_STATUS_IN_PROGRESS:
                break
            options = [o.id for o in client_a.list_legal_actions(
                game_id, tokens[summary.current_seat]).options]
            accepted = client_b.submit_action(game_id, tokens[summary.current_seat], options[0],
                                              expected_version=summary.version)
            assert accepted.state.summary.version > summary.version
        assert view_dict(client_b.get_game(game_id)) == view_dict(client_a.get_game(game_id))
        _, record = client_b.get_replay(game_id)
        assert len(record["decisions"]) == client_a.get_game(game_id).summary.version
    process_a.stop()
    process_b.stop()
