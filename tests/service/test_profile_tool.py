"""python -m brass_service.tools.profile: a per-stage breakdown of SubmitAction on each
transport and ruleset. Only what it prints is checked (every stage, for every transport
and ruleset, from real decisions), never how fast anything is."""

from __future__ import annotations

import re

import pytest

from brass_service.tools import profile


def test_the_profile_names_every_stage_of_each_transport_and_ruleset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = profile.main(["--decisions", "4", "--warmup", "2",
                            "--transport", "rest", "grpc",
                            "--ruleset", "birmingham", "pittsburgh"])
    assert [(r.transport, r.ruleset) for r in results] == [
        ("rest", "birmingham"), ("rest", "pittsburgh"),
        ("grpc", "birmingham"), ("grpc", "pittsburgh")]
    assert all(r.decisions == 4 for r in results)
    out = capsys.readouterr().out
    blocks = re.split(r"^(?=(?:rest|grpc) )", out, flags=re.M)[1:]
    assert len(blocks) == 4
    for block in blocks:
        for stage in (*profile.STAGES, "SubmitAction"):
            assert re.search(rf"^  {re.escape(stage)} +[\d.]+ +[\d.]+$", block, re.M), stage
    # the stages the service spends time in are seen in every block
    for result in results:
        for stage in ("parse", "authenticate", "engine apply", "store append", "encode view",
                      "encode events", "respond"):
            assert result.stages.get(stage, 0) > 0, (result.transport, result.ruleset, stage)
