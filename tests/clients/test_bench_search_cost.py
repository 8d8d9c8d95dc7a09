"""`python -m brass_clients.bench_search_cost` runs and prints its table for both rulesets
(its figures are measurements, checked by reading them, not by a test)."""

from __future__ import annotations

import pytest

import brass
from brass_clients.bench_search_cost import main, sample_positions


def test_positions_are_action_starts_with_a_choice() -> None:
    found = sample_positions("pittsburgh", 3, 5, seed=2)
    assert len(found) == 5
    for game in found:
        assert isinstance(game, brass.Game) and not game.is_over
        assert game.decision == "action" and len(game.legal_ids()) > 1


def test_the_benchmark_prints_a_row_a_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--positions", "1", "--players", "2"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("constants: DECISIONS_PER_REPLY 250, DECISIONS_PER_LEAF 40")
    rows = [line.split(" | ") for line in out[2:]]
    assert [row[:2] for row in rows] == [["birmingham", "2"], ["pittsburgh", "2"]]
    assert all(float(row[2]) > 0 for row in rows)  # a rollout decision's µs
