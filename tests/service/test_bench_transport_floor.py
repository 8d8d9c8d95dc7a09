"""The transport floor benchmark (python -m brass_service.tools.bench_transport_floor) serves
real calls on both transports and measures the server's CPU for them."""

from brass_service.tools.bench_transport_floor import measure


def test_each_transport_answers_calls_and_is_measured() -> None:
    for kind in ("grpc", "grpc-sync", "rest"):
        per_second, cpu_us = measure(kind, seconds=0.5, concurrency=2)
        # calls were answered (a broken server or client would leave none, or raise) ...
        assert per_second > 10, kind
        # ... and the server's CPU is given per call (/proc counts in 10 ms ticks, so a
        # short run may read 0), not per run (0.5 s, 500,000 µs)
        assert 0 <= cpu_us < 100_000, kind
