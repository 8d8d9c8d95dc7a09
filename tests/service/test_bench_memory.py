"""The memory benchmark (python -m brass_service.tools.bench_memory) runs and measures a
live game's bytes in the service: more than its engine state, within a sane bound."""

import pytest

from brass.bench_loop import _MALLINFO2
from brass_service.tools.bench_memory import live_game_bytes


@pytest.mark.skipif(_MALLINFO2 is None, reason="needs glibc's mallinfo2")
def test_memory_per_live_game_is_measured() -> None:
    per_game = live_game_bytes("birmingham", 120)
    # a live game holds at least its state (648 B) and its row; far from 100 KB
    assert 648 < per_game < 100_000
