"""Durable game storage: SQLite (embedded default) or PostgreSQL (shared by replicas)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .base import (
    CorruptRecord,
    IdempotencyConflict,
    Store,
    StoreHealth,
    StoreUnavailable,
    VersionConflict,
)
from .rows import (
    DecisionRow,
    GameRow,
    HeadUpdate,
    ListFilter,
    ListPage,
    SeatsUpdate,
    Snapshot,
)

DEFAULT_SQLITE_FILE = "brass-games.sqlite3"

__all__ = [
    "BadDatabaseUrl",
    "CorruptRecord",
    "DecisionRow",
    "GameRow",
    "HeadUpdate",
    "IdempotencyConflict",
    "ListFilter",
    "ListPage",
    "SeatsUpdate",
    "Snapshot",
    "Store",
    "StoreHealth",
    "StoreUnavailable",
    "VersionConflict",
    "open_store",
    "redact_url",
]


def open_store(database_url: str | None, *, sqlite_commit_wait_ms: float | None = None,
               sqlite_loop_writes: bool = True) -> Store:
    """A store for the URL: postgresql://… or postgres://…, sqlite:///path, or None for the
    default SQLite file in the working directory. `sqlite_commit_wait_ms`: how long the
    SQLite writer waits under load for more writes to share a commit (None: its default);
    `sqlite_loop_writes`: whether SQLite commits on the event loop (store/sqlite_loop.py)."""
    sqlite_options: dict[str, Any] = {"loop_writes": sqlite_loop_writes}
    if sqlite_commit_wait_ms is not None:
        sqlite_options["commit_wait_ms"] = sqlite_commit_wait_ms
    if database_url is None or database_url == "":
        from .sqlite import SqliteStore

        return SqliteStore(Path.cwd() / DEFAULT_SQLITE_FILE, **sqlite_options)
    if database_url.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore

        return PostgresStore(database_url)
    if database_url.startswith("sqlite:///"):
        from .sqlite import SqliteStore

        return SqliteStore(database_url[len("sqlite:///") :], **sqlite_options)
    raise BadDatabaseUrl(
        f"unsupported database URL {redact_url(database_url)!r}: use postgresql://… or "
        "sqlite:///path"
    )


class BadDatabaseUrl(ValueError):
    """The database URL names no store this service has (the message hides any password)."""


def redact_url(url: str) -> str:
    """The URL with any password replaced by ***, fit for logs and error messages."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # unparseable: keep only the scheme
        return url.split(":", 1)[0] + "://***"
    if not password:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    userinfo = netloc[0].split(":", 1)[0] + ":***"
    return urlunsplit(parts._replace(netloc=f"{userinfo}@{netloc[1]}"))
