"""`brass eval`: bots by import path, a time cap with a partial report, time per decision."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from brass_clients import cli
from brass_clients import eval as evaluation
from brass_clients.bots import make_bot, parse_bot_spec

BOT_MODULE = """
import time

from brass_clients.bots import Bot


class Burner(Bot):
    name = "burner"

    def __init__(self, ms: float = 3.0) -> None:
        self.ms = ms

    def choose(self, game, rng):
        started = time.thread_time()
        while time.thread_time() - started < self.ms / 1000:
            pass
        return game.legal_ids()[0]


class NotABot:
    pass
"""


@pytest.fixture
def bot_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = "h26_custom_bots"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(BOT_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def test_spec_by_import_path_parses_and_loads_only_when_allowed(bot_module: str) -> None:
    spec = f"{bot_module}:Burner:ms=0.5"
    assert parse_bot_spec(spec) == (f"{bot_module}:Burner", {"ms": 0.5})
    assert make_bot(spec, allow_import=True).ms == 0.5
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot(spec)  # the service's default: no imports from a client's spec
    with pytest.raises(ValueError, match="not a class with a choose"):
        make_bot(f"{bot_module}:NotABot", allow_import=True)
    with pytest.raises(ValueError, match="has no 'Missing'"):
        make_bot(f"{bot_module}:Missing", allow_import=True)
    with pytest.raises(ValueError, match="cannot import"):
        make_bot("no_such_module_h26:Bot", allow_import=True)
    with pytest.raises(ValueError, match="key=value"):
        parse_bot_spec("mcts:fast")  # a registered name keeps its option syntax


def test_eval_reports_time_per_decision_of_a_custom_bot(bot_module: str) -> None:
    spec = f"{bot_module}:Burner:ms=2"
    report = evaluation.evaluate([spec, "random"], 2, 2, seed=3, workers=1)
    assert report["games"] == report["games_planned"] == 2 and not report["stopped"]
    assert report["per_bot"][spec]["games"] == 2
    times = report["timing"]["per_bot"]
    assert times[spec]["decisions"] > 0 and times["random"]["decisions"] > 0
    assert times[spec]["ms_per_decision"] >= 1.9
    assert times[spec]["max_ms_per_decision"] >= times[spec]["ms_per_decision"]
    assert times["random"]["ms_per_decision"] < times[spec]["ms_per_decision"]
    # every decision of a game is some seat's: the counts add up to the games' lengths
    lengths = report["per_bot"]["random"]["mean_game_length"] * 2
    assert times[spec]["decisions"] + times["random"]["decisions"] == pytest.approx(lengths)


def test_max_seconds_stops_with_a_partial_report() -> None:
    report = evaluation.evaluate(["random", "random"], 2, 100_000, seed=1, workers=1,
                                 max_seconds=0.3)
    assert report["stopped"] and 1 <= report["games"] < 100_000
    assert report["games_planned"] == 100_000
    assert sum(row["games"] for row in report["per_bot"].values()) == 2 * report["games"]
    assert report["timing"]["seconds"] < 5


def test_cli_eval_custom_bot_and_time_cap(bot_module: str) -> None:
    result = CliRunner().invoke(cli.main, [
        "eval", "--bots", f"{bot_module}:Burner:ms=0.2,random", "--games", "100000",
        "--workers", "2", "--max-seconds", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "stopped after" in result.stdout and "ms/decision" in result.stdout
    assert f"{bot_module}:Burner" in result.stdout
    result = CliRunner().invoke(cli.main, [
        "eval", "--bots", "random", "--players", "2", "--games", "2", "--workers", "1",
        "--json", "--no-progress"])
    report = json.loads(result.output)
    assert not report["stopped"] and set(report["timing"]["per_bot"]) == {"random", "random#2"}
