"""`python -m brass.bench_loop` runs and prints each figure for each ruleset (issue 22)."""

import importlib.util
import re

import pytest

from brass import bench_loop


def test_bench_loop_prints_every_figure_per_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    bench_loop.main(["--games", "1", "--rounds", "1", "--copies", "50",
                     "--memory-games", "60"])
    lines = capsys.readouterr().out.splitlines()
    figures = {tuple(line.split()[:2]) for line in lines}
    for ruleset in ("birmingham", "pittsburgh"):
        for figure in ("loop_us_per_decision", "clone_us", "game_bytes"):
            assert (ruleset, figure) in figures
    if importlib.util.find_spec("pyspiel") is not None:  # the rl extra: chess in the same run
        assert ("openspiel_chess", "loop_us_per_decision") in figures
        assert {("birmingham", "loop_to_chess"), ("pittsburgh", "loop_to_chess")} <= figures
    for line in lines:
        assert re.fullmatch(r"\w+ \w+ -?\d+(\.\d+)?( \(range [\d.]+-[\d.]+\))?", line), line
