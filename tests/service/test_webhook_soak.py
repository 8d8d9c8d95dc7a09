"""The webhooks' soak run, short (issue 25's "done when"; not in the default run:
`pytest -m slow tests/service/test_webhook_soak.py`): across SIGKILLs of a `--workers 2`
server playing games, every event the store committed is delivered (at least once), with
signatures the independent `standardwebhooks` package verifies."""

from __future__ import annotations

import pytest

from brass_service.tools.webhook_soak import run

from .conftest import Backend


@pytest.mark.slow
def test_no_webhook_is_lost_across_sigkills_of_two_workers(backend: Backend) -> None:
    url = None if backend.name == "sqlite" else backend.new_database_url()
    figures = run(kills=3, kill_every=4, games=4, database_url=url, workers=2)
    assert figures["events_committed"] > 50, figures
    assert figures["lost"] == 0 and figures["still_pending"] == 0, figures
    assert figures["delivered"] == figures["events_committed"], figures
    assert figures["unknown"] == 0 and figures["signatures_failed"] == 0, figures
