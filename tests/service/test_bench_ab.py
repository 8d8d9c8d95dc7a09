"""python -m brass_service.tools.bench_ab: servers measured in turns, in rotated order, each from
a fresh start, and summarised per server and as ratios to the first.

Only what it does is checked (which servers ran, in which order, that every run accepted
decisions, what the summary says of the runs): never how fast anything is.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from brass_service.tools import bench_ab
from brass_service.tools.bench_ab import Run, rotation, summary


def test_rotation_puts_each_server_first_in_turn() -> None:
    names = ["a", "b", "c"]
    assert [rotation(names, r) for r in (1, 2, 3, 4)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"]]


def test_summary_gives_ranges_medians_and_per_round_ratios() -> None:
    runs = [Run(1, "a", 100, 10.0, 0.5, 0.1), Run(1, "b", 120, 12.0, 0.4, 0.2),
            Run(2, "b", 90, 9.0, 0.6, 0.3), Run(2, "a", 100, 11.0, 0.5, 0.2),
            Run(3, "a", 200, 20.0, 0.3, 0.05)]  # a round b missed: no ratio from it
    lines = summary(runs, ["a", "b"])
    assert lines[0] == ("a: 3 runs, 100-200/s, median 100/s; p99 10.0-20.0 ms, "
                        "median 11.0 ms; server CPU 0.300-0.500 ms/decision, median 0.500 "
                        "(of it system, median 0.100)")
    assert lines[1] == ("b: 2 runs, 90-120/s, median 105/s; p99 9.0-12.0 ms, median 10.5 ms; "
                        "server CPU 0.400-0.600 ms/decision, median 0.500 (of it system, "
                        "median 0.250)")
    assert lines[2] == "b / a: median ratio 1.050 (0.900-1.200) over 2 rounds"
    assert lines[3] == ("b / a server CPU per decision: median ratio 1.000 "
                        "(0.800-1.200)")


@pytest.mark.parametrize(("transport", "rounds", "ruleset"),
                         [("rest", 2, "birmingham"), ("grpc", 1, "birmingham"),
                          ("rest", 1, "pittsburgh")])
def test_two_servers_measured_in_turns(
    transport: str, rounds: int, ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two names for this interpreter's build: each round starts each server afresh and
    plays real games on it over the transport."""
    runs = bench_ab.main([
        "--server", f"first={sys.executable}", "--server", f"second={sys.executable}",
        "--transport", transport, "--rounds", str(rounds), "--seconds", "1",
        "--workers", "1", "--clients", "1", "--concurrency", "2", "--settle", "0",
        "--ruleset", ruleset,
    ])
    expected = [(1, "first"), (1, "second"), (2, "second"), (2, "first")][:2 * rounds]
    assert [(r.round, r.server) for r in runs] == expected
    assert all(r.per_second > 0 and r.p99_ms > 0 and r.server_cpu_ms > 0 for r in runs)
    assert all(0 <= r.server_system_ms <= r.server_cpu_ms for r in runs)
    out = capsys.readouterr().out
    printed = re.findall(rf"^round (\d) (\w+) {transport}: (\d+) decisions", out, re.M)
    assert [(int(n), name) for n, name, _ in printed] == expected
    assert all(int(decisions) > 0 for _, _, decisions in printed)
    assert re.search(rf"^second / first: median ratio [\d.]+ \([\d.]+-[\d.]+\) over {rounds} "
                     "rounds$", out, re.M)


def test_a_server_that_cannot_start_is_reported_with_its_log(tmp_path: Path) -> None:
    """A build that fails at start-up stops the run with what it printed."""
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\necho 'no such build' >&2\nexit 3\n")
    broken.chmod(0o755)
    with pytest.raises(RuntimeError, match="no such build"):
        bench_ab.main(["--server", f"broken={broken}", "--rounds", "1", "--seconds", "1"])


def test_a_server_spec_needs_a_name_and_an_interpreter() -> None:
    with pytest.raises(SystemExit):
        bench_ab.main(["--server", "no-interpreter"])
    with pytest.raises(SystemExit):
        bench_ab.main(["--server", f"a={sys.executable}", "--server", f"a={sys.executable}"])
