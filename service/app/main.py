"""`brass serve` (and `python -m brass_service`): the server in this process, or in N
worker processes sharing its ports and store (app/workers.py). The flags are read by
clients/cli.py and service/__main__.py; settings beyond them come from the environment
(app/config.py)."""

from __future__ import annotations

import os

import structlog

from ..arena.arenas import ArenaConfigError, load_arena_config
from ..limits import parse_networks
from ..observability import configure_logging
from ..store import BadDatabaseUrl, StoreUnavailable
from .config import (
    DEFAULT_GRPC_PORT,
    DEFAULT_HTTP_PORT,
    BadSetting,
    parse_cors_origins,
    settings_from_env,
)
from .server import CannotListen, run_event_loop, serve_async
from .workers import serve_workers

log = structlog.get_logger("brass_service.server")


def serve(
    grpc_port: int = DEFAULT_GRPC_PORT,
    http_port: int = DEFAULT_HTTP_PORT,
    database_url: str | None = None,
    log_level: str = "info",
    workers: int = 1,
    *,
    trusted_proxies: str | None = None,
    operator_token: str | None = None,
) -> None:
    """Blocking entry point used by `brass serve`; exits with status 2 when the store
    cannot be opened (the reason is logged). With `workers` > 1, that many processes serve
    the same ports and store (see app/workers.py).

    `trusted_proxies` and `operator_token` (given: they override BRASS_TRUSTED_PROXIES and
    BRASS_OPERATOR_TOKEN) are exported to the environment, where every ServiceSettings
    field is read from, the workers' too."""
    if trusted_proxies is not None:
        try:
            parse_networks(trusted_proxies)
        except ValueError as exc:
            raise SystemExit(f"--trusted-proxies: {exc}") from exc
        os.environ["BRASS_TRUSTED_PROXIES"] = trusted_proxies
    if operator_token is not None:
        os.environ["BRASS_OPERATOR_TOKEN"] = operator_token
    configure_logging(log_level)
    try:  # settings are checked before any worker starts
        settings, limits = settings_from_env()
        parse_cors_origins(limits.cors_origins)
        if settings.arena_config:
            load_arena_config(settings.arena_config)
    except (BadSetting, ArenaConfigError) as exc:
        log.error("bad_setting", error=str(exc))
        raise SystemExit(2) from exc
    if workers > 1:
        raise SystemExit(serve_workers(workers, grpc_port, http_port, database_url, log_level))
    try:
        run_event_loop(
            serve_async(grpc_port, http_port, database_url, log_level, tune_process=True)
        )
    except StoreUnavailable as exc:
        log.error("store_unavailable", error=str(exc))
        raise SystemExit(2) from exc
    except BadDatabaseUrl as exc:
        log.error("bad_database_url", error=str(exc))
        raise SystemExit(2) from exc
    except BadSetting as exc:
        log.error("bad_setting", error=str(exc))
        raise SystemExit(2) from exc
    except CannotListen as exc:
        log.error("cannot_listen", error=str(exc))
        raise SystemExit(1) from exc
