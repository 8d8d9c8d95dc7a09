"""JSON logs (structlog) and Prometheus metrics shared by the gRPC and REST front ends."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import json
import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import structlog
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

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
# With several worker processes (`brass serve --workers N`) the metrics are prometheus_client's
# multiprocess ones: counters and histograms are summed over the workers, the per-process
# gauges below too ("livesum"), and the store-wide count of games in progress is the most
# recent one set (each worker sets it from the store when /metrics is read).
ACTIVE_GAMES = Gauge(
    "brass_active_games", "Games in progress in the store.", multiprocess_mode="livemostrecent"
)
ACTIVE_WATCHERS = Gauge(
    "brass_active_watchers", "Open WatchGame streams and SSE connections on this replica.",
    multiprocess_mode="livesum",
)
CACHED_GAMES = Gauge(
    "brass_cached_games", "Games held in this replica's memory cache.",
    multiprocess_mode="livesum",
)
ACTIVE_BATCHES = Gauge(
    "brass_active_batches", "RunBatch streams running on this replica.",
    multiprocess_mode="livesum",
)
BATCH_GAMES = Counter("brass_batch_games_total", "Games finished by RunBatch on this replica.")
WEBHOOK_ATTEMPTS = Counter(
    "brass_webhook_attempts_total",
    "Webhook delivery attempts, by outcome: delivered, failed (tried again later), dead.",
    ["outcome"],
)



def metrics_text() -> tuple[bytes, str]:
    """The Prometheus exposition of this process, or of all the workers when the server runs
    several (prometheus_client's multiprocess mode, PROMETHEUS_MULTIPROC_DIR set)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


# Text from clients (game ids, request ids, keys) is logged at most this long: a 1 MB game
# id once made 6 MB of log. Tracebacks are longer by nature and get a larger bound.
MAX_LOGGED_CHARS = 200
_MAX_LOGGED_TRACEBACK_CHARS = 16_000


def clip(text: str, limit: int = MAX_LOGGED_CHARS) -> str:
    """`text`, cut to `limit` characters with a note of how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}...(+{len(text) - limit} chars)"


def _clip_strings(_logger: object, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: bounds every text value of a log line."""
    for key, value in event.items():
        if type(value) is str:
            event[key] = clip(
                value, _MAX_LOGGED_TRACEBACK_CHARS if key == "exception" else MAX_LOGGED_CHARS
            )
    return event


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
            _clip_strings,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    request_lines.configure(sys.stderr, enabled=numeric <= logging.INFO)
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
                # a library's traceback as text (JSONRenderer would print the tuple's repr)
                structlog.processors.format_exc_info,
                _clip_strings,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(numeric, logging.INFO))


_quote = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]


def _json_value(value: object) -> str:
    if value is None:
        return "null"
    kind = type(value)
    if kind is str:
        return _quote(clip(value))  # type: ignore[arg-type]
    if kind is int:
        return str(value)
    if kind is float and value == value and value not in (float("inf"), float("-inf")):
        return repr(value)
    return json.dumps(value, default=str)  # the server's own values (flags, counts)


class RequestLines:
    """The per-request log line, written without structlog's processor chain.

    The line is the one structlog would write (same keys in the same order, ISO UTC
    timestamp), put together directly. Lines made while the event loop runs are written
    together, at most FLUSH_SECONDS after the first of them (one write for many requests
    instead of one per request); outside a loop they are written at once.
    """

    FLUSH_SECONDS = 0.05
    _MAX_PENDING = 512

    def __init__(self) -> None:
        self._file = sys.stderr
        self.enabled = True
        self._pending: list[str] = []
        self._scheduled = False
        self._second = -1
        self._second_text = ""
        self._static = ""  # fields of every line (the worker index with --workers)

    def add_static_field(self, key: str, value: object) -> None:
        self._static += f", {_quote(key)}: {_json_value(value)}"

    def configure(self, file: object, enabled: bool) -> None:
        self.flush()
        self._file = file  # type: ignore[assignment]
        self.enabled = enabled

    def _timestamp(self) -> str:
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second = second
            self._second_text = datetime.datetime.fromtimestamp(second, tz=datetime.UTC).strftime(
                "%Y-%m-%dT%H:%M:%S"
            )
        micro = int((now - second) * 1_000_000)
        if micro == 0:  # as datetime.isoformat() writes a whole second
            return self._second_text + "Z"
        return f"{self._second_text}.{micro:06d}Z"

    def write(self, fields: dict[str, object]) -> None:
        body = ", ".join(f"{_quote(key)}: {_json_value(value)}" for key, value in fields.items())
        self._pending.append(
            f'{{{body}{self._static}, "event": "request", "level": "info", '
            f'"timestamp": "{self._timestamp()}"}}'
        )
        if len(self._pending) >= self._MAX_PENDING:
            self.flush()
        elif not self._scheduled:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._scheduled = True
            loop.call_later(self.FLUSH_SECONDS, self.flush)

    def flush(self) -> None:
        self._scheduled = False
        if self._pending:
            text = "\n".join(self._pending) + "\n"
            self._pending.clear()
            try:
                self._file.write(text)
                self._file.flush()
            except (OSError, ValueError):
                pass  # a closed or broken stderr must not fail requests


request_lines = RequestLines()
# Metric children by label values (labels() takes a lock and builds a key on every call).
_request_counters: dict[tuple[str, str, str], object] = {}
_latency_histograms: dict[tuple[str, str], object] = {}


_ID_PREFIX = os.urandom(4).hex()
_id_counter = itertools.count(1)


def new_request_id() -> str:
    """A request id for requests that bring none: unique in this process (a counter) and,
    with overwhelming likelihood, across processes (a random prefix); no syscall."""
    return f"{_ID_PREFIX}{next(_id_counter) & 0xFFFFFFFF:08x}"


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
        key = (record.transport, record.method, record.outcome)
        counter = _request_counters.get(key)
        if counter is None:
            counter = _request_counters[key] = REQUESTS.labels(*key)
        counter.inc()  # type: ignore[attr-defined]
        histogram = _latency_histograms.get(key[:2])
        if histogram is None:
            histogram = _latency_histograms[key[:2]] = LATENCY.labels(*key[:2])
        histogram.observe(elapsed)  # type: ignore[attr-defined]
        if request_lines.enabled:
            fields: dict[str, object] = {
                "transport": record.transport,
                "method": record.method,
                "request_id": record.request_id,
                "game_id": record.game_id,
                "seat": record.seat,
                "version": record.version,
                "outcome": record.outcome,
                "latency_ms": round(elapsed * 1000, 3),
            }
            if record.extra:
                fields.update(record.extra)
            request_lines.write(fields)
