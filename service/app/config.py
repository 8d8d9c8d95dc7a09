"""The server's settings from the environment: BRASS_<FIELD> variables over the defaults of
ServiceSettings (the service's own) and Limits (the transports'), the default ports and
address, and the checks that refuse a setting at start-up (BadSetting)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields

from ..games import ServiceSettings

DEFAULT_GRPC_PORT = 50051
DEFAULT_HTTP_PORT = 8080
DEFAULT_HOST = "127.0.0.1"


@dataclass
class Limits:
    """Transport limits (service-level ones live in ServiceSettings)."""

    max_message_bytes: int = 1 << 20  # requests; positions are the largest legitimate ones
    max_send_message_bytes: int = 16 << 20
    # How long a thread may hold the GIL while another waits (Python's default is 5 ms).
    # The event loop shares the interpreter with the SQLite writer thread; handing the GIL
    # over sooner shortens the time a committed write waits to be acknowledged. 0 keeps
    # Python's default.
    gil_switch_interval_ms: float = 0.5
    # A REST connection with no request in flight for this long is closed.
    http_keepalive_seconds: float = 75.0
    # A REST request must arrive whole (head and body) within this long of its first byte.
    http_request_read_seconds: float = 30.0
    # REST connections open at once from one client address (per process).
    http_max_connections_per_address: int = 256
    # False hands every REST connection to aiohttp (api/fast_http.py's front then only
    # listens): for comparing the two, or should the lean front ever misread a client.
    http_fast_front: bool = True
    # Browser origins allowed to call the REST API and its event streams (CORS), comma
    # separated, or "*" for any; empty (the default): no CORS headers, preflights refused.
    cors_origins: str = ""


class BadSetting(ValueError):
    """A server setting (flag or BRASS_* variable) that cannot be used."""


def parse_cors_origins(text: str) -> tuple[str, ...]:
    """`--cors-origins` as a tuple: "*" alone, or origins like https://play.example.org
    (scheme://host[:port], no path); anything else is refused at start-up."""
    origins = tuple(o.strip() for o in text.split(",") if o.strip())
    if origins == ("*",):
        return origins
    for origin in origins:
        if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", origin):
            raise BadSetting(f"CORS origin {origin!r}: use scheme://host[:port] or '*'")
    return origins


def _env_bool(raw: str) -> bool:
    if raw.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if raw.strip().lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{raw!r} is not a boolean (use true or false)")


def settings_from_env() -> tuple[ServiceSettings, Limits]:
    """BRASS_<FIELD> environment variables override the defaults (e.g. BRASS_WATCH_BURST)."""
    settings, limits = ServiceSettings(), Limits()
    for target in (settings, limits):
        for spec in fields(target):
            raw = os.environ.get(f"BRASS_{spec.name.upper()}")
            if raw is not None:
                kind = type(getattr(target, spec.name))
                setattr(target, spec.name, _env_bool(raw) if kind is bool else kind(raw))
    return settings, limits
