"""The in-process gateway benchmark (python -m brass_service.tools.bench_gateway) plays real
decisions through the REST gateway with each of its stores and measures them."""

from brass_service.tools.bench_gateway import STORES, measure


def test_every_store_plays_decisions_and_is_measured() -> None:
    for store in STORES:
        run = measure(store, decisions=60, concurrency=3)
        # at least the decisions asked for were accepted (each game stops at the count;
        # the three in flight may each add one)
        assert 60 <= run.decisions <= 63, store
        assert run.per_second > 0 and run.cpu_us >= 0, store
        # the threads' figures are parts of a whole process's (ticks of 10 ms: a short
        # run may read 0 for a thread)
        assert run.loop_us >= 0 and run.other_us >= 0, store
