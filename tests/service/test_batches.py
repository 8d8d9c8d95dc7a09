"""RunBatch over gRPC and REST: results, determinism, limits, cancellation, responsiveness.

Batches store nothing, so they run against one SQLite server of their own (the limits test
starts a second one with a single batch slot).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import pickle
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

import brass
from brass_clients.eval import lineup, play_game
from brass_clients.sdk import GameClient, pb
from brass_service.bots.batches import BatchLimits, BatchRunner, play_batch_game
from brass_service.errors import ServiceError
from brass_service.observability import RequestRecord

from . import batch_bots
from .batch_bots import TwoArgumentError
from .conftest import TEST_OPERATOR_TOKEN
from .helpers import LOOPBACK, ServerProcess, expect_error

# Two batch worker processes (the default is one fewer than the CPUs). RunBatch needs the
# operator token, which ServerProcess.client() sends.
SERVER_ENV = {
    "BRASS_BATCH_WORKERS": "2", "BRASS_WATCH_BURST": "100000",
    "BRASS_OPERATOR_TOKEN": TEST_OPERATOR_TOKEN,
}
OPERATOR = (("authorization", f"Bearer {TEST_OPERATOR_TOKEN}"),)


@pytest.fixture(scope="module")
def batch_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("brass-batches")
    server = ServerProcess(
        workdir, database_url=f"sqlite:///{workdir / 'games.sqlite3'}", env=SERVER_ENV,
        name="batches",
    ).start()
    yield server
    server.stop()


def _comparable(result: pb.RunBatchResponse) -> tuple[Any, ...]:
    """Everything but the timing and the finishing order."""
    return (
        result.index, result.batch_seed, result.seed,
        tuple((s.seat, s.bot, s.entry, s.score) for s in result.seats),
        tuple(result.winners), tuple(result.ranking), result.decisions,
        tuple(result.decision_ids),
    )


def _run(client: GameClient, **kwargs: Any) -> list[pb.RunBatchResponse]:
    return list(client.run_batch(**kwargs))


def _rest_batch(port: int, body: dict[str, Any]) -> tuple[int, list[dict[str, Any]], str]:
    """(HTTP status, parsed lines, content type) of POST /v1/batches."""
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=120)
    try:
        connection.request(
            "POST", "/v1/batches", json.dumps(body),
            {"Content-Type": "application/json", "Authorization": f"Bearer {TEST_OPERATOR_TOKEN}"},
        )
        response = connection.getresponse()
        lines = [json.loads(line) for line in response.read().splitlines() if line.strip()]
        return response.status, lines, response.getheader("Content-Type") or ""
    finally:
        connection.close()


def _metric(server: ServerProcess, name: str) -> float:
    connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=10)
    try:
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
    finally:
        connection.close()
    match = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def _wait_for_metric(server: ServerProcess, name: str, value: float, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _metric(server, name) == value:
            return
        time.sleep(0.05)
    raise AssertionError(f"{name} did not reach {value} (last {_metric(server, name)})")


def test_batch_streams_every_game_and_replays(batch_server: ServerProcess) -> None:
    with batch_server.client() as client:
        results = _run(client, players=3, bots=["random", "greedy"], games=6, seed=11,
                       include_decisions=True)
    assert sorted(r.index for r in results) == list(range(6))
    assert [r.completed for r in results] == list(range(1, 7))
    entries = ["random", "greedy", "random"]  # the line-up repeated to fill three seats
    for result in results:
        assert result.batch_seed == 11
        # Game i seats line-up entry (seat + i) % players at each seat.
        assert [s.entry for s in result.seats] == [(s + result.index) % 3 for s in range(3)]
        assert [s.bot for s in result.seats] == [entries[s.entry] for s in result.seats]
        assert result.decisions == len(result.decision_ids) > 0
        assert result.seconds >= 0
        # The seed and the decision ids replay the game exactly in the engine.
        game = brass.Game.replay({"players": 3, "seed": result.seed,
                                  "decisions": list(result.decision_ids)})
        assert game.is_over
        assert [s.score for s in result.seats] == game.scores()
        assert list(result.winners) == game.winners()
        assert list(result.ranking) == game.ranking()


def test_batch_is_deterministic_and_matches_brass_eval(batch_server: ServerProcess) -> None:
    request = {"players": 2, "bots": ["greedy", "random"], "games": 4, "seed": 2024}
    with batch_server.client() as client:
        first = sorted(map(_comparable, _run(client, **request)))
        second = sorted(map(_comparable, _run(client, **request)))
        other_seed = sorted(map(_comparable, _run(client, **{**request, "seed": 2025})))
    assert first == second
    assert first != other_seed
    # The same games as `brass eval --seed 2024` with this line-up, played in-process.
    entries = lineup(request["bots"], 2)
    for index, _batch_seed, seed, seats, winners, ranking, decisions, _ids in first:
        local = play_game(entries, 2024, index)
        assert seed == local.seed
        assert [score for _seat, _bot, _entry, score in seats] == local.scores
        assert list(winners) == local.winners
        assert list(ranking) == local.ranking
        assert decisions == local.decisions


def test_batch_without_seed_reports_the_seed_it_chose(batch_server: ServerProcess) -> None:
    with batch_server.client() as client:
        results = _run(client, players=2, bots=["random"], games=2)
        (batch_seed,) = {r.batch_seed for r in results}
        again = _run(client, players=2, bots=["random"], games=2, seed=batch_seed)
    assert sorted(map(_comparable, results)) == sorted(map(_comparable, again))


def test_batch_options_reach_the_engine(batch_server: ServerProcess) -> None:
    with batch_server.client() as client:
        (result,) = _run(client, players=2, bots=["random"], games=1, seed=3, beginner=True,
                         include_decisions=True)
    game = brass.Game.replay({"players": 2, "seed": result.seed, "options": {"beginner": True},
                              "decisions": list(result.decision_ids)})
    assert game.is_over and game.scores() == [s.score for s in result.seats]


def test_rest_batch_streams_ndjson_like_grpc(batch_server: ServerProcess) -> None:
    status, lines, content_type = _rest_batch(
        batch_server.http_port,
        {"players": 2, "bots": ["random", "greedy"], "games": 3, "seed": "77",
         "includeDecisions": True},
    )
    assert status == 200 and content_type.startswith("application/x-ndjson")
    assert sorted(int(line.get("index", 0)) for line in lines) == [0, 1, 2]
    assert sorted(line["completed"] for line in lines) == [1, 2, 3]
    with batch_server.client() as client:
        by_index = {r.index: r for r in _run(client, players=2, bots=["random", "greedy"],
                                              games=3, seed=77, include_decisions=True)}
    for line in lines:
        expected = by_index[int(line.get("index", 0))]
        assert line["batchSeed"] == "77"  # uint64 fields are strings in proto3 JSON
        assert int(line["seed"]) == expected.seed
        assert [s["bot"] for s in line["seats"]] == [s.bot for s in expected.seats]
        assert [s.get("score", 0) for s in line["seats"]] == [s.score for s in expected.seats]
        assert line["winners"] == list(expected.winners)
        assert line["decisionIds"] == list(expected.decision_ids)


PITTSBURGH_BOTS = ["random", "greedy", "mcts:iterations=4:rollout_depth=6"]
TINY = {"data": "tiny"}


def test_pittsburgh_batch_over_grpc_reports_its_ruleset_and_replays(
    batch_server: ServerProcess,
) -> None:
    """A batch of Pittsburgh games (random, greedy and mcts seats) on the synthetic map: the
    same games as `brass eval --ruleset pittsburgh` in-process, each replayed by the engine."""
    edition = brass.get_ruleset("pittsburgh").rules_edition
    with batch_server.client() as client:
        results = _run(client, players=3, bots=PITTSBURGH_BOTS, games=2, seed=5,
                       include_decisions=True, ruleset="pittsburgh", ruleset_options=TINY)
    assert sorted(r.index for r in results) == [0, 1]
    entries = lineup(PITTSBURGH_BOTS, 3)
    for result in results:
        assert (result.ruleset, result.rules_edition) == (pb.RULESET_PITTSBURGH, edition)
        assert {s.bot for s in result.seats} == set(PITTSBURGH_BOTS)
        game = brass.Game.replay({"ruleset": "pittsburgh", "rules_edition": edition,
                                  "players": 3, "seed": result.seed, "options": TINY,
                                  "decisions": list(result.decision_ids)})
        assert game.is_over and game.scores() == [s.score for s in result.seats]
        local = play_game(entries, 5, result.index, "pittsburgh", TINY)
        assert (local.seed, local.scores, local.winners) == (
            result.seed, [s.score for s in result.seats], list(result.winners))


def test_pittsburgh_batch_over_rest_matches_grpc(batch_server: ServerProcess) -> None:
    body = {"players": 2, "bots": ["greedy", "random"], "games": 2, "seed": "8",
            "ruleset": "RULESET_PITTSBURGH", "options": {"rulesetOptions": TINY},
            "includeDecisions": True}
    status, lines, _ = _rest_batch(batch_server.http_port, body)
    assert status == 200, lines
    with batch_server.client() as client:
        by_index = {r.index: r for r in _run(client, players=2, bots=["greedy", "random"],
                                              games=2, seed=8, include_decisions=True,
                                              ruleset="pittsburgh", ruleset_options=TINY)}
    assert len(lines) == 2
    for line in lines:
        expected = by_index[int(line.get("index", 0))]
        assert line["ruleset"] == "RULESET_PITTSBURGH"
        assert line["rulesEdition"] == brass.get_ruleset("pittsburgh").rules_edition
        assert line["decisionIds"] == list(expected.decision_ids)
        assert [s.get("score", 0) for s in line["seats"]] == [s.score for s in expected.seats]


def test_birmingham_batch_results_name_birmingham(batch_server: ServerProcess) -> None:
    with batch_server.client() as client:
        (result,) = _run(client, players=2, bots=["random"], games=1, seed=1)
    assert result.ruleset == pb.RULESET_BIRMINGHAM
    assert result.rules_edition == brass.get_ruleset("birmingham").rules_edition


@pytest.mark.parametrize(
    ("options", "rest_options", "field"),
    [
        # Birmingham's option in a Pittsburgh batch, Pittsburgh's in a Birmingham one, a
        # value Pittsburgh does not play
        ({"ruleset": "pittsburgh", "beginner": True},
         {"ruleset": "RULESET_PITTSBURGH", "options": {"beginner": True}}, "options.beginner"),
        ({"ruleset_options": TINY}, {"options": {"rulesetOptions": TINY}}, "options.data"),
        ({"ruleset": "pittsburgh", "ruleset_options": {"data": "huge"}},
         {"ruleset": "RULESET_PITTSBURGH", "options": {"rulesetOptions": {"data": "huge"}}},
         "options.data"),
    ],
)
def test_pittsburgh_batch_options_are_checked_before_anything_runs(
    batch_server: ServerProcess, options: dict[str, Any], rest_options: dict[str, Any],
    field: str,
) -> None:
    request = {"players": 2, "bots": ["random"], "games": 1}
    with batch_server.client() as client:
        error = expect_error("INVALID_ARGUMENT", _run, client, **request, **options)
    assert error.metadata.get("field") == field
    status, lines, _ = _rest_batch(batch_server.http_port, {**request, **rest_options})
    assert status == 400
    assert lines[0]["error"]["reason"] == "INVALID_ARGUMENT"
    assert lines[0]["error"]["details"][0]["metadata"]["field"] == field


def test_batch_of_a_ruleset_brass_v1_lacks_is_refused(batch_server: ServerProcess) -> None:
    status, lines, _ = _rest_batch(batch_server.http_port,
                                   {"players": 2, "bots": ["random"], "games": 1, "ruleset": 9})
    assert status == 400 and lines[0]["error"]["reason"] == "INVALID_ARGUMENT"
    assert lines[0]["error"]["details"][0]["metadata"]["field"] == "ruleset"


@pytest.mark.parametrize(
    ("request_fields", "field"),
    [
        ({"players": 2, "bots": ["random"], "games": 0}, "games"),
        ({"players": 2, "bots": ["random"], "games": 1001}, "games"),
        ({"players": 5, "bots": ["random"], "games": 1}, "players"),
        ({"players": 2, "bots": [], "games": 1}, "bots"),
        ({"players": 2, "bots": ["random", "random", "random"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["nobody"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["random:speed=3"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["mcts:iterations=1000000"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["mcts:seconds=5"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["greedy:max_candidates=99999999"], "games": 1}, "bots"),
        # Options the bots would only trip over inside a worker, mid-game: every option is
        # checked when the batch is admitted.
        ({"players": 2, "bots": ["mcts:iterations=5:rollout_policy=bogus"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["greedy:money_vp=nan"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["greedy:money_vp=1e308"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["greedy:money_vp=cheap"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["greedy:liquidity_money=2.5"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["mcts:iterations=inf"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["mcts:iterations=5:rollout_depth=99999999999"], "games": 1},
         "bots"),
        ({"players": 2, "bots": ["mcts:iterations=5:exploration=nan"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["mcts:iterations=5:reuse_tree=maybe"], "games": 1}, "bots"),
        ({"players": 2, "bots": ["mcts:iterations=5:iterations=9"], "games": 1}, "bots"),
    ],
)
def test_batch_arguments_are_checked_before_anything_runs(
    batch_server: ServerProcess, request_fields: dict[str, Any], field: str
) -> None:
    with batch_server.client() as client:
        error = expect_error("INVALID_ARGUMENT", _run, client, **request_fields)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.metadata.get("field") == field
    status, lines, _ = _rest_batch(batch_server.http_port, request_fields)
    assert status == 400
    assert lines[0]["error"]["reason"] == "INVALID_ARGUMENT"
    assert lines[0]["error"]["details"][0]["metadata"]["field"] == field


def test_rest_batch_body_must_fit_the_message(batch_server: ServerProcess) -> None:
    status, lines, _ = _rest_batch(batch_server.http_port, {"players": 2, "robots": ["x"]})
    assert status == 400 and lines[0]["error"]["reason"] == "INVALID_ARGUMENT"


def test_server_answers_while_a_batch_runs(batch_server: ServerProcess) -> None:
    """The games run in worker processes: the event loop keeps serving players."""
    stop = threading.Event()
    results: list[pb.RunBatchResponse] = []

    def run() -> None:
        with batch_server.client() as client:
            for result in client.run_batch(players=4, bots=["greedy"], games=200, seed=1):
                results.append(result)
                if stop.is_set():
                    break

    runner = threading.Thread(target=run)
    runner.start()
    try:
        _wait_for_metric(batch_server, "brass_active_batches", 1.0)
        with batch_server.client() as client:
            slowest = 0.0
            for _ in range(20):
                started = time.perf_counter()
                created = client.create_game(players=2, seed=5)
                seat = created.state.summary.current_seat
                client.list_legal_actions(created.game_id, created.seats[seat].token)
                slowest = max(slowest, time.perf_counter() - started)
        assert slowest < 2.0, f"a create + list took {slowest:.2f} s during a batch"
    finally:
        stop.set()
        runner.join(timeout=120)
    assert not runner.is_alive()
    _wait_for_metric(batch_server, "brass_active_batches", 0.0)


def test_concurrent_batches_are_limited_and_a_left_batch_frees_its_slot(
    tmp_path: Path,
) -> None:
    server = ServerProcess(
        tmp_path, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        env={**SERVER_ENV, "BRASS_MAX_BATCHES": "1", "BRASS_BATCH_WORKERS": "1"},
        name="one-batch",
    ).start()
    try:
        with server.client() as client:
            # A long batch holds the only slot (mcts at the largest budget allowed).
            long_batch = client._stub.RunBatch(
                pb.RunBatchRequest(players=4, bots=["mcts:iterations=2000"], games=1000),
                metadata=OPERATOR,
            )
            _wait_for_metric(server, "brass_active_batches", 1.0)
            error = expect_error("RATE_LIMITED", _run, client, players=2, bots=["random"],
                                 games=1)
            assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert error.metadata.get("limit") == "max_batches"
            status, lines, _ = _rest_batch(
                server.http_port, {"players": 2, "bots": ["random"], "games": 1}
            )
            assert status == 429 and lines[0]["error"]["reason"] == "RATE_LIMITED"
            # The client leaves: the slot is freed and the running game stops at its next
            # decision, so the single worker is free for the next batch.
            long_batch.cancel()
            _wait_for_metric(server, "brass_active_batches", 0.0)
            started = time.perf_counter()
            results = _run(client, players=2, bots=["random"], games=2, seed=4)
            assert len(results) == 2
            assert time.perf_counter() - started < 30
        assert '"method": "RunBatch"' in server.log_text()
    finally:
        server.stop()


# ------------------------------------------------------- failures inside a worker process


def test_a_game_failing_in_its_worker_comes_back_as_plain_data() -> None:
    """The failure crosses the process boundary as strings, whatever the exception."""
    with pytest.raises(TypeError):  # what broke the pool: the exception does not round-trip
        pickle.loads(pickle.dumps(TwoArgumentError("BROKEN", "x")))
    answer = play_batch_game(["fails-mid-game", "random"], 1, 0, {}, False)
    assert answer is not None
    assert pickle.loads(pickle.dumps(answer)) == {
        "index": 0,
        "failure": {"type": "TwoArgumentError",
                    "message": "this bot fails on its first decision",
                    "engine_code": "BROKEN"},
    }


def test_engine_errors_cross_processes_intact() -> None:
    error = brass.EngineError("INVALID_ARGUMENT", "policy must be 'random' or 'sane'", None,
                              "policy")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.to_dict()) == (brass.EngineError, error.to_dict())


def test_a_batch_failing_in_a_worker_fails_alone() -> None:
    """Games that fail inside the shared pool, run past admission (an engine error: options
    the core refuses; a bot error: a rollout policy it does not know), end their own batch
    with INTERNAL; a batch running beside them on the same workers finishes, and the pool
    serves the next batch."""
    runner = BatchRunner(BatchLimits(workers=2, worker_nice=0))

    async def outcome(bots: list[str], games: int, options: dict[str, Any]
                      ) -> tuple[str, list[pb.RunBatchResponse]]:
        results: list[pb.RunBatchResponse] = []
        stream = runner._run(bots, 5, games, options, False,
                             RequestRecord("test", "RunBatch", "t"))
        try:
            async for result in stream:
                results.append(result)
        except ServiceError as error:
            return f"{error.reason}: {error.message}", results
        finally:
            await stream.aclose()
        return "OK", results

    async def main() -> list[tuple[str, list[pb.RunBatchResponse]]]:
        return list(await asyncio.gather(
            outcome(["random", "random"], 12, {}),
            outcome(["random", "random"], 4, {"manufacturer_iv_cost": 9}),
            outcome(["mcts:iterations=5:rollout_policy=bogus", "random"], 4, {}),
        ))

    try:
        (good, good_results), (engine, engine_results), (bot, bot_results) = asyncio.run(main())
        assert (good, sorted(r.index for r in good_results)) == ("OK", list(range(12)))
        assert engine.startswith("INTERNAL: game ") and "EngineError" in engine, engine
        assert "manufacturer_iv_cost must be 8 or 14" in engine
        assert bot.startswith("INTERNAL: game ") and "rollout_policy" in bot, bot
        assert engine_results == bot_results == []
        after, results = asyncio.run(outcome(["random"] * 2, 2, {}))
        assert (after, len(results)) == ("OK", 2)
    finally:
        runner.close()


def test_a_game_that_kills_its_worker_fails_only_its_own_batch() -> None:
    """A dead worker loses every game in flight on the pool, whichever batch they belong
    to: those are played again, each in a process of its own, so the batch beside the
    culprit finishes and only the culprit's batch fails."""
    # In a process of its own: when a worker dies, the pool's manager thread formats the
    # traceback, and CPython 3.11's ast (used for the carets) is not thread-safe; pytest
    # parsing a module at the same moment is left with a SystemError at the end.
    tests_dir = Path(batch_bots.__file__).resolve().parents[1]
    ran = subprocess.run(
        [sys.executable, "-m", batch_bots.__name__], cwd=tests_dir, capture_output=True,
        text=True, timeout=300, check=False,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    outcomes = json.loads(ran.stdout.splitlines()[-1])
    assert outcomes["healthy"] == {"outcome": "OK", "indices": list(range(8))}, outcomes
    bad = outcomes["culprit"]["outcome"]
    assert bad.startswith("INTERNAL: game ") and "stopped its worker process" in bad, bad


# ------------------------------------------------------------- leaving and stopping

SLOW_BOT = "mcts:iterations=2000:rollout_depth=0"  # minutes per game, under a second a move


def _open_rest_batch(port: int, body: dict[str, Any]) -> socket.socket:
    """Starts a REST batch on a raw socket and returns it once the stream has begun."""
    sock = socket.create_connection((LOOPBACK, port), timeout=30)
    payload = json.dumps(body).encode()
    sock.sendall(
        b"POST /v1/batches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        + f"Authorization: Bearer {TEST_OPERATOR_TOKEN}\r\n".encode()
        + f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the batch stream"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def test_rest_client_that_disconnects_frees_its_batch_slot(tmp_path: Path) -> None:
    """A REST client leaves in the middle of a game that would run for minutes: its slot
    and the single worker are free for another client within seconds, not when the game
    ends."""
    server = ServerProcess(
        tmp_path, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        env={**SERVER_ENV, "BRASS_MAX_BATCHES": "1", "BRASS_BATCH_WORKERS": "1"},
        name="rest-leaves",
    ).start()
    try:
        sock = _open_rest_batch(server.http_port, {"players": 4, "bots": [SLOW_BOT], "games": 5})
        _wait_for_metric(server, "brass_active_batches", 1.0)
        status, lines, _ = _rest_batch(server.http_port,
                                       {"players": 2, "bots": ["random"], "games": 1})
        assert status == 429 and lines[0]["error"]["reason"] == "RATE_LIMITED"
        sock.close()
        deadline = time.monotonic() + 30  # generous: freed within one liveness check
        while True:
            status, lines, _ = _rest_batch(server.http_port,
                                           {"players": 2, "bots": ["random"], "games": 2})
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert status == 200, lines
        assert sorted(line["completed"] for line in lines) == [1, 2]
        assert '"outcome": "CLIENT_GONE"' in server.log_text()
    finally:
        server.stop()


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _running(pid: int) -> bool:
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def test_batch_workers_do_not_outlive_a_killed_server(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        env={**SERVER_ENV, "BRASS_BATCH_WORKERS": "2"}, name="killed-with-batches",
    ).start()
    assert server.process is not None
    client = server.client()
    try:
        batch = client._stub.RunBatch(
            pb.RunBatchRequest(players=4, bots=[SLOW_BOT], games=5), metadata=OPERATOR
        )
        _wait_for_metric(server, "brass_active_batches", 1.0)
        workers = _children(server.process.pid)
        assert len(workers) >= 2
        server.stop(crash=True)  # SIGKILL: nothing of the server's own shutdown runs
        deadline = time.monotonic() + 30  # generous; the game itself would run for minutes
        while (left := {pid for pid in workers if _running(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in left}
        batch.cancel()
    finally:
        client.close()
        server.stop()


def test_sigterm_stops_running_batches_within_the_grace_period(tmp_path: Path) -> None:
    """A server running a gRPC and a REST batch of minutes-long games gets SIGTERM: it
    exits with status 0 within its grace periods (2 s for gRPC, 2 s for the HTTP front),
    the REST stream ends with an UNAVAILABLE line, and no batch worker is left behind."""
    server = ServerProcess(
        tmp_path, database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}",
        env={**SERVER_ENV, "BRASS_BATCH_WORKERS": "2"}, name="stop-batches",
    ).start()
    assert server.process is not None
    client = server.client()
    try:
        grpc_batch = client._stub.RunBatch(
            pb.RunBatchRequest(players=4, bots=[SLOW_BOT], games=5), metadata=OPERATOR
        )
        sock = _open_rest_batch(server.http_port, {"players": 4, "bots": [SLOW_BOT], "games": 5})
        _wait_for_metric(server, "brass_active_batches", 2.0)
        workers = _children(server.process.pid)
        assert len(workers) >= 2
        server.process.send_signal(signal.SIGTERM)
        try:
            # Generous against a noisy machine; without stopping the batches the HTTP
            # server waits up to its 60 s shutdown timeout for the REST stream.
            status = server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.stop(crash=True)
            raise AssertionError("the server did not stop within 30 s of SIGTERM") from None
        assert status == 0, server.log_text()[-2000:]
        rest_tail = b""
        while chunk := sock.recv(65536):
            rest_tail += chunk
        sock.close()
        assert b'"reason": "UNAVAILABLE"' in rest_tail, rest_tail[-500:]
        with pytest.raises(grpc.RpcError):
            list(grpc_batch)
        # The workers (and multiprocessing's resource tracker, which leaves once they
        # are gone) do not outlive the server.
        deadline = time.monotonic() + 15
        while (left := {pid for pid in workers if _running(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in left}
    finally:
        client.close()
        server.stop()
