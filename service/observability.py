"""JSON logs (structlog) and Prometheus metrics shared by the gRPC and REST front ends."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import structlog
from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter(
    "brass_requests_total",
    "Requests handled, by transport, method and outcome (OK or an error reason).",
    ["transport", "method", "outcome"],
)
LATENCY = Histogram(
    "brass_request_latency_seconds",
    "Request latency in seconds (for streams: until the first message), by transport and "
    "method.",
    ["transport", "method"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
DECISIONS = Counter("brass_decisions_total", "Submissions accepted and stored.")
ACTIVE_GAMES = Gauge("brass_active_games", "Games in progress in the store.")
ACTIVE_WATCHERS = Gauge(
    "brass_active_watchers", "Open WatchGame streams and SSE connections on this replica."
)
CACHED_GAMES = Gauge("brass_cached_games", "Games held in this replica's memory cache.")
ACTIVE_BATCHES = Gauge("brass_active_batches", "RunBatch streams running on this replica.")
BATCH_GAMES = Counter("brass_batch_games_total", "Games finished by RunBatch on this replica.")

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "error": logging.ERROR}


def configure_logging(level: str = "info") -> None:
    """One JSON object per line on stderr."""
    numeric = _LEVELS.get(level.lower())
    if numeric is None:
        raise ValueError(f"unknown log level {level!r}; use one of {', '.join(_LEVELS)}")
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    # Libraries log through the standard logging module (psycopg_pool, aiohttp, asyncio):
    # render those as JSON lines too, so the whole stream stays machine-readable.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processor=structlog.processors.JSONRenderer(),
            foreign_pre_chain=[
                structlog.stdlib.add_logger_name,
                structlog.processors.add_log_level,
                structlog.processors.TimeStamper(fmt="iso", utc=True),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(numeric, logging.INFO))


request_log = structlog.get_logger("brass_service.request")


@dataclass
class RequestRecord:
    """What the request log line says; handlers fill in what they learn."""

    transport: str
    method: str
    request_id: str
    game_id: str | None = None
    seat: int | None = None
    version: int | None = None
    outcome: str = "OK"
    extra: dict[str, Any] = field(default_factory=dict)


@contextmanager
def observe_request(record: RequestRecord) -> Iterator[RequestRecord]:
    """Times the request, then logs one line and updates the metrics, whatever happens.

    Never put a token (or anything else secret) in the record.
    """
    start = time.perf_counter()
    try:
        yield record
    except BaseException as exc:
        if record.outcome == "OK":
            record.outcome = getattr(exc, "reason", None) or type(exc).__name__
        raise
    finally:
        elapsed = time.perf_counter() - start
        REQUESTS.labels(record.transport, record.method, record.outcome).inc()
        LATENCY.labels(record.transport, record.method).observe(elapsed)
        request_log.info(
            "request",
            transport=record.transport,
            method=record.method,
            request_id=record.request_id,
            game_id=record.game_id,
            seat=record.seat,
            version=record.version,
            outcome=record.outcome,
            latency_ms=round(elapsed * 1000, 3),
            **record.extra,
        )
