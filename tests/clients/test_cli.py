"""The `brass` command through click's CliRunner (and one real service on loopback)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import brass
from brass_clients import cli


def run(*args: str) -> str:
    result = CliRunner().invoke(cli.main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_bench_core_json() -> None:
    figures = json.loads(run("bench", "core", "--players", "2", "--games", "20", "--json"))
    assert figures["games"] == 20 and figures["policy"] == "random"
    for key in ("games_per_second", "decisions_per_second", "mean_decisions_per_game",
                "clone_us", "legal_generation_us", "state_bytes"):
        assert figures[key] > 0


def test_bench_core_ruleset() -> None:
    bham = json.loads(run("bench", "core", "--players", "2", "--games", "5", "--json"))
    pgh = json.loads(run("bench", "core", "--ruleset", "pittsburgh", "--players", "2",
                         "--games", "5", "--policy", "sane", "--json"))
    assert (bham["ruleset"], bham["state_bytes"]) == ("birmingham", 648)  # the default
    assert pgh["ruleset"] == "pittsburgh" and pgh["games"] == 5 and pgh["policy"] == "sane"
    assert pgh["state_bytes"] == brass.get_ruleset("pittsburgh").state_size
    result = CliRunner().invoke(cli.main, ["bench", "core", "--ruleset", "catan"])
    assert result.exit_code == 2 and "catan" in result.output


def test_bench_core_reports_cpu_time() -> None:
    figures = json.loads(run("bench", "core", "--ruleset", "pittsburgh", "--players", "4",
                             "--games", "4", "--json"))
    assert 0 < figures["cpu_seconds"]
    assert figures["games_per_cpu_second"] == pytest.approx(4 / figures["cpu_seconds"])
    assert figures["cpu_us_per_game"] == pytest.approx(1e6 * figures["cpu_seconds"] / 4)
    assert "CPU per game" in run("bench", "core", "--ruleset", "pittsburgh", "--games", "2")


def test_bench_rulesets_alternates_runs_and_reports_medians() -> None:
    report = json.loads(run("bench", "rulesets", "--players", "3", "--games", "3",
                            "--rounds", "3", "--json"))
    assert set(report["medians"]) == {"birmingham", "pittsburgh"}
    for name, runs in report["runs"].items():
        assert [r["ruleset"] for r in runs] == [name] * 3
        assert all(r["games"] == 3 and r["players"] == 3 for r in runs)
        cpu = sorted(r["games_per_cpu_second"] for r in runs)
        assert report["medians"][name]["games_per_cpu_second"] == cpu[1]
    assert report["medians"]["pittsburgh"]["state_bytes"] == 1072
    assert report["cpu_throughput_vs_birmingham"]["birmingham"] == 1.0
    assert "CPU throughput vs birmingham" in run("bench", "rulesets", "--games", "1",
                                                  "--rounds", "1")


def test_bench_core_table_and_sane_policy() -> None:
    out = run("bench", "core", "--players", "3", "--games", "10", "--policy", "sane")
    assert "games/s" in out and "state bytes" in out and "legal generation" in out


def test_bench_vector_json() -> None:
    figures = json.loads(run("bench", "vector", "--envs", "4", "--steps", "200", "--json"))
    assert figures["vector_steps_per_second"] > 0
    assert figures["single_loop_steps_per_second"] > 0


def test_play_json_and_table() -> None:
    report = json.loads(run("play", "--bots", "random,random,random", "--seed", "3", "--json"))
    assert len(report["seats"]) == 3
    assert any(seat["winner"] for seat in report["seats"])
    assert "winner" in run("play", "--bots", "random,random", "--seed", "4")


def test_play_a_person_against_a_bot_in_process() -> None:
    # a person who always takes the first option, against greedy, to the end of the game
    result = CliRunner().invoke(cli.main, ["play", "--seats", "human,greedy", "--seed", "3",
                                           "--json"], input="0\n" * 3000)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["via"] == "engine" and len(report["scores"]) == 2
    assert "seat 0, choose" in result.output and "hand:" in result.output
    # the same answers and seed give the same game
    again = CliRunner().invoke(cli.main, ["play", "--seats", "human,greedy", "--seed", "3",
                                          "--json"], input="0\n" * 3000)
    assert json.loads(again.output.strip().splitlines()[-1]) == report


def test_play_refuses_unknown_seats_before_playing() -> None:
    result = CliRunner().invoke(cli.main, ["play", "--seats", "human,bogus"])
    assert result.exit_code == 2 and "unknown bot 'bogus'" in result.output
    result = CliRunner().invoke(cli.main, ["play", "--game", "g1", "--token", "t"])
    assert result.exit_code == 2 and "--game needs --server" in result.output


def test_play_verbose_prints_decisions() -> None:
    out = run("play", "--bots", "random,random", "--seed", "2", "--verbose")
    assert "type:" in out and "card:" in out


def test_eval_json_report() -> None:
    report = json.loads(run("eval", "--bots", "mcts:iterations=3:rollout_depth=5,random",
                            "--games", "4", "--seed", "2", "--workers", "1", "--json",
                            "--no-progress"))
    assert set(report["per_bot"]) == {"mcts:iterations=3:rollout_depth=5", "random"}
    assert report["per_bot"]["random"]["games"] == 4


def test_eval_table_with_progress() -> None:
    result = CliRunner().invoke(cli.main, ["eval", "--bots", "random", "--players", "2",
                                           "--games", "3", "--workers", "2", "--progress"])
    assert result.exit_code == 0, result.output
    assert "random#2" in result.stdout and "win rate" in result.stdout


def test_eval_rejects_unknown_bot() -> None:
    result = CliRunner().invoke(cli.main, ["eval", "--bots", "nobody,random", "--games", "1"])
    assert result.exit_code != 0
    assert "unknown bot" in result.output


def test_serve_passes_options_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("brass_service.app.main", reason="the game service is not importable")
    import brass_service.app.main

    calls: list[dict] = []
    monkeypatch.setattr(brass_service.app.main, "serve", lambda **kw: calls.append(kw))
    monkeypatch.setenv("BRASS_HTTP_PORT", "18080")
    monkeypatch.setenv("BRASS_DATABASE_URL", "sqlite:///tmp/x.db")
    monkeypatch.setenv("BRASS_WORKERS", "3")
    run("serve", "--port", "15051", "--log-level", "DEBUG")
    assert calls == [{"grpc_port": 15051, "http_port": 18080,
                      "database_url": "sqlite:///tmp/x.db", "log_level": "debug",
                      "workers": 3, "trusted_proxies": None, "operator_token": None}]
    calls.clear()
    run("serve", "--workers", "2")
    assert calls[0]["workers"] == 2
    monkeypatch.delenv("BRASS_WORKERS")
    run("serve")
    assert calls[1]["workers"] == 1
    refused = CliRunner().invoke(cli.main, ["serve", "--workers", "0"])
    assert refused.exit_code == 2 and len(calls) == 2


@pytest.fixture(scope="module")
def service_target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real game service on loopback (ephemeral ports, SQLite in a temp dir)."""
    server = pytest.importorskip("brass_service.app.server",
                                 reason="the game service is not importable")
    pytest.importorskip("brass_clients.sdk", reason="the SDK is not importable")
    database = Path(tmp_path_factory.mktemp("service")) / "games.db"
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    started: asyncio.Future = loop.create_future()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.serve_async(
            0, 0, f"sqlite:///{database}", "warning", host="127.0.0.1", stop=stop,
            started=started))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    info = asyncio.run_coroutine_threadsafe(asyncio.wait_for(asyncio.shield(started), 30),
                                            loop).result(35)
    yield f"127.0.0.1:{info.grpc_port}"
    loop.call_soon_threadsafe(stop.set)
    thread.join(15)


def test_play_through_the_service(service_target: str) -> None:
    report = json.loads(run("play", "--bots", "random,random", "--seed", "5",
                            "--server", service_target, "--json"))
    local = json.loads(run("play", "--bots", "random,random", "--seed", "5", "--json"))
    assert report["via"] == "server"
    assert report["seats"] == local["seats"]
    assert report["decisions"] == local["decisions"]


def test_eval_through_the_service_matches_in_process(service_target: str) -> None:
    args = ["eval", "--bots", "mcts:iterations=3:rollout_depth=5,random", "--games", "2",
            "--seed", "9", "--workers", "1", "--json", "--no-progress"]
    via_server = json.loads(run(*args, "--server", service_target))
    in_process = json.loads(run(*args))
    assert via_server["per_bot"] == in_process["per_bot"]


def test_play_a_person_against_a_bot_through_the_service(service_target: str) -> None:
    # `--seats human,greedy --server` ended in a traceback before `brass play` was one command
    args = ["play", "--seats", "human,greedy", "--seed", "3", "--json"]
    via_server = CliRunner().invoke(cli.main, [*args, "--server", service_target],
                                    input="0\n" * 3000)
    assert via_server.exit_code == 0, via_server.output
    report = json.loads(via_server.output.strip().splitlines()[-1])
    local = json.loads(CliRunner().invoke(cli.main, args, input="0\n" * 3000)
                       .output.strip().splitlines()[-1])
    assert report["via"] == "server" and report["game_id"]
    assert (report["scores"], report["decisions"]) == (local["scores"], local["decisions"])


def test_eval_pittsburgh_through_the_service_matches_in_process(service_target: str) -> None:
    args = ["eval", "--bots", "greedy,random", "--games", "1", "--seed", "4", "--workers", "1",
            "--ruleset", "pittsburgh", "--option", "data=tiny", "--option", "auto_resolve=false",
            "--json", "--no-progress"]
    via_server = json.loads(run(*args, "--server", service_target))
    in_process = json.loads(run(*args))
    assert via_server["via"] == "server" and via_server["ruleset"] == "pittsburgh"
    assert via_server["options"]["auto_resolve"] is False
    assert via_server["per_bot"] == in_process["per_bot"]


def test_play_a_person_against_server_bots(service_target: str) -> None:
    """`--server-bots`: the random seat is the server's bot (CreateGame bot_seats); the
    person plays at the prompt to the end of the game."""
    result = CliRunner().invoke(
        cli.main, ["play", "--seats", "human,random", "--seed", "3", "--json",
                   "--server", service_target, "--server-bots"], input="0\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "bots on the server: seat 1 random" in result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["via"] == "server" and report["game_id"] and len(report["scores"]) == 2
