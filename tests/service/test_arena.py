"""The arena (issue 24, item 4): the operator starts a tournament between bot accounts and
server bots; the server runs it to the end with its table (points by placing, wins,
games, rating changes), live over WatchArena (gRPC) and SSE, readable by GetArena (both);
it resumes after a restart; an SDK bot plays its arena games through the bot API; a bot
that does not answer forfeits by the clock; refusals and bounds. On both back ends."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from brass_clients.arena_api import create_arena, get_arena, list_arenas, watch_arena
from brass_clients.bot_api import random_option, run_bot
from brass_clients.sdk import GameClient, pb
from brass_service.arena.arenas import configured_arena_id
from brass_service.views.convert import message_to_json_dict

from .helpers import ServerProcess, expect_error, expect_rest_error, sse_events

BEGINNER = pb.GameOptions(beginner=True)  # the short game: arenas end in seconds
# (a crashed process's claims on an arena and on its games' bot moves lapse soon)
FAST = {"BRASS_ARENA_POLL_SECONDS": "0.2", "BRASS_ARENA_LEASE_SECONDS": "2",
        "BRASS_SERVER_MOVE_LEASE_SECONDS": "2"}


def _name(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


def _to_the_end(client: GameClient, arena_id: str, seconds: float = 120) -> pb.Arena:
    deadline = time.monotonic() + seconds
    arena = get_arena(client, arena_id)
    while arena.status != pb.ARENA_STATUS_FINISHED:
        assert time.monotonic() < deadline, f"arena {arena_id} did not finish: {arena}"
        time.sleep(0.2)
        arena = get_arena(client, arena_id)
    return arena


def _check_table(client: GameClient, arena: pb.Arena) -> None:
    """The standings agree with the tables, and each rating with the account's history."""
    lines = {line.account_id: line for line in arena.standings}
    points = {account: 0 for account in lines}
    for table in arena.tables:
        assert table.finished and table.game_id
        for account, rank in zip(table.account_ids, table.ranks, strict=True):
            points[account] += len(table.account_ids) - rank
        summary = client.get_game(table.game_id).summary
        assert summary.rated and [seat.account_id for seat in summary.seats] == list(
            table.account_ids)
    assert {account: line.points for account, line in lines.items()} == points
    ordered = [(line.points, line.wins) for line in arena.standings]
    assert ordered == sorted(ordered, reverse=True)
    for account, line in lines.items():
        history = client.get_rating_history(account, page_size=100).entries
        ours = [entry for entry in history
                if entry.game_id in {table.game_id for table in arena.tables}]
        assert len(ours) == line.games
        assert line.rating == ours[0].rating_after  # newest first
        assert line.rating_change == pytest.approx(
            sum(entry.rating_after - entry.rating_before for entry in ours), abs=0.01)


def test_a_round_robin_of_server_bots_to_the_end_over_grpc_and_rest(
        server: ServerProcess) -> None:
    rest = server.rest()
    try:
        body = {"name": _name("Round robin"), "seed": "7", "options": {"beginner": True},
                "entrants": [{"serverBot": "random"}, {"serverBot": "greedy"},
                             {"serverBot": "mcts:iterations=10"}]}
        created = rest.post("/v1/arenas", body, token=server.operator_token)["arena"]
        arena_id = created["arenaId"]
        assert created["status"] == "ARENA_STATUS_RUNNING" and created["rounds"] == 3
        with server.client() as client:
            seen = list(watch_arena(client, arena_id))  # ends once finished
            assert seen[-1].status == pb.ARENA_STATUS_FINISHED
            assert [a.revision for a in seen] == sorted({a.revision for a in seen})
            arena = get_arena(client, arena_id)
            assert arena == seen[-1]
            assert len(arena.tables) == 3 and arena.round == 3 and arena.finish_time.seconds
            assert all(line.games == 2 for line in arena.standings)
            # seats rotated: each entrant took seat 0 once
            assert sorted(table.account_ids[0] for table in arena.tables) == sorted(
                line.account_id for line in arena.standings)
            assert {line.server_bot for line in arena.standings} == {
                "random", "greedy", "mcts:iterations=10"}
            _check_table(client, arena)
        assert rest.get(f"/v1/arenas/{arena_id}")["arena"] == message_to_json_dict(arena)
        with server.client() as client:
            # ListArenas: newest first, a page at a time, standings without tables
            listed = list_arenas(client, status=pb.ARENA_STATUS_FINISHED, page_size=100)
            (found,) = [a for a in listed.arenas if a.arena_id == arena_id]
            assert list(found.standings) == list(arena.standings) and not found.tables
            newer = create_arena(client, _name("Newer"), server_bots=["random", "greedy"],
                                 options=BEGINNER)
            first = list_arenas(client, page_size=1)
            second = list_arenas(client, page_size=1, page_token=first.next_page_token)
            assert [a.arena_id for a in (*first.arenas, *second.arenas)] == [
                newer.arena_id, arena_id]
            expect_error("INVALID_ARGUMENT", list_arenas, client, page_size=101)
        page = rest.get("/v1/arenas?status=ARENA_STATUS_FINISHED&pageSize=100")
        assert arena_id in [a["arenaId"] for a in page["arenas"]]
        assert all(a["status"] == "ARENA_STATUS_FINISHED" for a in page["arenas"])
        expect_rest_error("INVALID_ARGUMENT", 400, rest.get, "/v1/arenas?status=DONE")
        events = list(sse_events(server.http_port, f"/v1/arenas/{arena_id}/events"))
        assert [kind for kind, _, _ in events] == ["arena", "end"]
        assert events[0][2]["arena"] == message_to_json_dict(arena)
    finally:
        rest.close()


def test_a_three_player_table_scores_by_placing(server: ServerProcess) -> None:
    with server.client() as client:
        arena = create_arena(client, _name("Three a table"), players=3, options=BEGINNER,
                             server_bots=["random", "greedy", "mcts:iterations=8"])
        arena = _to_the_end(client, arena.arena_id)
        (table,) = arena.tables
        assert len(table.account_ids) == len(client.get_game(table.game_id).summary.seats) == 3
        # first scores 2, second 1, last 0 (level seats share the better place)
        assert sorted(line.points for line in arena.standings) == sorted(
            3 - rank for rank in table.ranks)
        _check_table(client, arena)


def test_a_swiss_arena_resumes_after_a_restart(backend: Any) -> None:
    server = backend.start_server("arena-restart", env=FAST)
    with server.client() as client:
        arena = create_arena(client, _name("Swiss"), format=pb.ARENA_FORMAT_SWISS,
                             rounds=2, seed=3, options=BEGINNER,
                             server_bots=["random", "greedy", "mcts:iterations=10",
                                          "mcts:iterations=12"])
        deadline = time.monotonic() + 30
        first = get_arena(client, arena.arena_id)
        while not first.tables or not all(t.game_id for t in first.tables):
            assert time.monotonic() < deadline
            time.sleep(0.05)
            first = get_arena(client, arena.arena_id)
        assert [t.round for t in first.tables] == [1, 1]
    server.stop(crash=True)  # in the middle of round 1
    server.start()
    with server.client() as client:
        arena = _to_the_end(client, arena.arena_id)
        assert [t.round for t in arena.tables] == [1, 1, 2, 2]
        # round 1's games went on where they were: the same games, not new ones
        assert [t.game_id for t in arena.tables[:2]] == [t.game_id for t in first.tables]
        assert all(line.games == 2 for line in arena.standings)
        # Swiss: round 2 puts the two round-1 winners at one table
        winners = {account for table in arena.tables[:2]
                   for account, rank in zip(table.account_ids, table.ranks, strict=True)
                   if rank == 1}
        if len(winners) == 2:
            assert any(set(t.account_ids) == winners for t in arena.tables[2:])
        _check_table(client, arena)
    server.stop()


def _bot_account(client: GameClient, prefix: str) -> Any:
    return client.create_account(_name(prefix), bot=True)


@pytest.mark.timeout(180)
def test_an_sdk_bot_plays_its_arena_games_through_the_bot_api(server: ServerProcess) -> None:
    with server.client() as client:
        bot = _bot_account(client, "Arena SDK")
        results: list[pb.GameSummary] = []
        thread = threading.Thread(target=lambda: results.extend(run_bot(
            server.grpc_target, bot.key, bot.account.account_id, games=2,
            choose=random_option)), daemon=True)
        thread.start()
        arena = create_arena(client, _name("With SDK"), accounts=[bot.account.account_id],
                             server_bots=["random"], rounds=2, options=BEGINNER)
        thread.join(timeout=150)
        assert len(results) == 2
        arena = _to_the_end(client, arena.arena_id)
        mine = bot.account.account_id
        # two games, the bot in seat 0 once and seat 1 once
        assert sorted(list(t.account_ids).index(mine) for t in arena.tables) == [0, 1]
        assert sorted(r.game_id for r in results) == sorted(t.game_id for t in arena.tables)
        line = next(line for line in arena.standings if line.account_id == mine)
        assert line.games == 2 and line.forfeits == 0 and not line.server_bot
        _check_table(client, arena)


def test_a_bot_that_does_not_answer_forfeits_by_the_clock(server: ServerProcess) -> None:
    with server.client() as client:
        silent = _bot_account(client, "Arena silent")
        arena = create_arena(client, _name("Forfeit"), accounts=[silent.account.account_id],
                             server_bots=["random"],
                             options=pb.GameOptions(beginner=True,
                                                    clock=pb.ClockOptions(turn_ms=300)))
        arena = _to_the_end(client, arena.arena_id, seconds=30)
        table = arena.tables[0]
        summary = client.get_game(table.game_id).summary
        assert summary.end_reason == pb.END_REASON_FORFEITED
        assert summary.host_policy.on_timeout == pb.TIMEOUT_POLICY_FORFEIT
        lines = {line.account_id: line for line in arena.standings}
        lost = lines[silent.account.account_id]
        assert (lost.forfeits, lost.points, lost.place, lost.rating_change < 0) == (1, 0, 2,
                                                                                      True)
        assert arena.standings[0].server_bot == "random" and arena.standings[0].wins == 1


def test_arena_refusals_and_bounds(backend: Any, tmp_path: Path) -> None:
    server = backend.start_server("arena-limits", env={
        **FAST, "BRASS_MAX_RUNNING_ARENAS": "1", "BRASS_MAX_ARENA_WATCHERS": "1",
        "BRASS_MAX_ARENA_GAMES": "6"})
    with server.client() as client, GameClient(server.grpc_target) as anonymous:
        bot, person = _bot_account(client, "Ref bot"), client.create_account(_name("Person"))
        expect_error("UNAUTHENTICATED", create_arena, anonymous, "x", server_bots=["random",
                                                                                  "greedy"])
        with GameClient(server.grpc_target, operator_token=bot.key) as keyed:
            expect_error("OPERATOR_ONLY", create_arena, keyed, "x",
                         server_bots=["random", "greedy"])
        for kwargs, field in (
                ({"server_bots": ["random"]}, "entrants"),
                ({"server_bots": ["random", "greedy"], "players": 3}, "players"),
                ({"server_bots": ["random", "random"]}, "entrants"),
                ({"server_bots": ["random", "nobot"]}, "entrants[1].server_bot"),
                ({"accounts": [person.account.account_id], "server_bots": ["random"]},
                 "entrants[0].account_id"),
                ({"server_bots": ["random", "greedy", "mcts:iterations=5"], "rounds": 3},
                 "rounds"),  # 9 games, over the server's 6
                ({"server_bots": ["random", "greedy"], "rounds": 51}, "rounds"),
                ({"server_bots": ["random", "greedy"],
                  "options": pb.GameOptions(clock=pb.ClockOptions(turn_ms=5))},
                 "options.clock.turn_ms")):
            refused = expect_error("INVALID_ARGUMENT", create_arena, client, "x", **kwargs)
            assert refused.metadata["field"] == field, (kwargs, refused.metadata)
        expect_error("UNKNOWN_ACCOUNT", create_arena, client, "x", accounts=["a-nobody"],
                     server_bots=["random"])
        expect_error("UNKNOWN_ARENA", get_arena, client, "r-nobody")
        # one arena at a time on this server: a silent bot with a long clock holds it
        held = create_arena(client, _name("Held"), accounts=[bot.account.account_id],
                            server_bots=["random"],
                            options=pb.GameOptions(clock=pb.ClockOptions(turn_ms=60_000)))
        refused = expect_error("RATE_LIMITED", create_arena, client, _name("Second"),
                               server_bots=["random", "greedy"])
        assert refused.metadata["limit"] == "max_running_arenas"
        first = watch_arena(client, held.arena_id)
        assert next(first).arena_id == held.arena_id
        refused = expect_error("RATE_LIMITED", lambda: next(watch_arena(client,
                                                                      held.arena_id)))
        assert refused.metadata["limit"] == "max_arena_watchers"
        first.close()
    rest = server.rest()
    try:
        body = {"name": "x", "entrants": [{"serverBot": "random"}, {"serverBot": "greedy"}]}
        expect_rest_error("UNAUTHENTICATED", 401, rest.post, "/v1/arenas", body)
        expect_rest_error("OPERATOR_ONLY", 403, rest.post, "/v1/arenas", body, token=bot.key)
        expect_rest_error("UNKNOWN_ARENA", 404, rest.get, "/v1/arenas/r-nobody")
        refused = expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/arenas",
                                    {**body, "players": 7}, token=server.operator_token)
        assert refused.body["error"]["details"][0]["metadata"]["field"] == "players"
    finally:
        rest.close()
    server.stop()


def test_a_configured_arena_runs_once_across_restarts(backend: Any, tmp_path: Path) -> None:
    config = tmp_path / "arenas.json"
    name = _name("Configured")
    config.write_text(json.dumps({"arenas": [
        {"name": name, "options": {"beginner": True},
         "entrants": [{"serverBot": "random"}, {"serverBot": "greedy"}]},
        # an arena that cannot be made is logged and left out; the others run
        {"name": _name("Refused"), "entrants": [{"accountId": "a-nobody"},
                                                {"serverBot": "random"}]}]}))
    server = backend.start_server("arena-config", env={**FAST,
                                                       "BRASS_ARENA_CONFIG": str(config)})
    arena_id = configured_arena_id(name)
    with server.client() as client:
        arena = _to_the_end(client, arena_id)
        assert arena.name == name and len(arena.tables) == 1
    assert '"arena_config_refused"' in server.log_text()
    server.stop()
    server.start()  # the same file: the finished arena stays as it was
    with server.client() as client:
        assert get_arena(client, arena_id) == arena
    server.stop()
    config.write_text("{not json")
    with pytest.raises(RuntimeError, match="arena configuration"):
        server.start()


def test_a_game_made_before_a_crash_is_the_tables_game_after_it(tmp_path: Path) -> None:
    """A crash between a table's game being made and the arena's state naming it: the
    resumed arena finds the game (its seed and accounts) rather than making a second."""
    database = tmp_path / "arena.sqlite3"
    server = ServerProcess(tmp_path / "server", database_url=f"sqlite:///{database}",
                           env=FAST, name="arena-adopt").start()
    try:
        with server.client() as client:
            arena = create_arena(client, _name("Adopt"), server_bots=["random", "greedy"],
                                 options=BEGINNER, seed=11)
            deadline = time.monotonic() + 30
            while not get_arena(client, arena.arena_id).tables[0].game_id:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            game_id = get_arena(client, arena.arena_id).tables[0].game_id
        server.stop(crash=True)
        with sqlite3.connect(database) as db:  # the state as it was before it named the game
            (state,) = db.execute("SELECT state FROM arenas WHERE arena_id = ?",
                                  (arena.arena_id,)).fetchone()
            document = json.loads(state)
            document["rounds"][0]["tables"][0].update(game_id=None, done=False)
            db.execute("UPDATE arenas SET state = ? WHERE arena_id = ?",
                       (json.dumps(document), arena.arena_id))
        server.start()
        with server.client() as client:
            arena = _to_the_end(client, arena.arena_id)
            assert [table.game_id for table in arena.tables] == [game_id]
            games = client.list_games(account_id=arena.standings[0].account_id, page_size=100)
            assert [game.game_id for game in games.games].count(game_id) == 1
            assert '"arena_game_adopted"' in server.log_text()
    finally:
        server.stop()
