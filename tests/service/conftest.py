"""Fixtures: real service processes on loopback ports, on SQLite and on PostgreSQL.

PostgreSQL tests use a fresh schema of the database at BRASS_TEST_POSTGRES_URL (default
postgresql://postgres@127.0.0.1:5432/test) and are skipped, loudly, when it is unreachable.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from .helpers import LOUD_SKIPS, TEST_OPERATOR_TOKEN, ServerProcess

__all__ = ["GENEROUS_LIMITS", "TEST_OPERATOR_TOKEN"]

POSTGRES_URL = os.environ.get(
    "BRASS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
_postgres_skip_reason: list[str] = []
# Every test connects from 127.0.0.1, so the per-address limits of watch streams are
# lifted for the shared servers (ServerProcess lifts the creation quota and gives every
# server an operator token); the limit tests start their own servers with tight ones.
GENEROUS_LIMITS = {
    "BRASS_WATCH_BURST": "100000",
    "BRASS_WATCH_RATE_PER_SECOND": "100000",
    "BRASS_MAX_WATCHERS_PER_CLIENT": "100000",
    "BRASS_MAX_WATCHERS_PER_ADDRESS": "100000",
    "BRASS_MAX_WATCHERS_PER_CONNECTION": "100000",
}


def _postgres_unreachable() -> str | None:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure means: cannot run the PostgreSQL half
        return f"{type(exc).__name__}: {exc}".strip()
    return None


class Backend:
    """One storage back end: makes fresh databases and starts servers on them."""

    # Every back end of the session, for _stop_the_tests_own_servers.
    live: list[Backend] = []

    def __init__(self, name: str, workdir: Path) -> None:
        self.name = name
        self.workdir = workdir
        self._schemas: list[str] = []
        self._servers: list[ServerProcess] = []
        Backend.live.append(self)

    def new_database_url(self) -> str:
        if self.name == "sqlite":
            return f"sqlite:///{self.workdir / (uuid.uuid4().hex[:8] + '.sqlite3')}"
        import psycopg

        schema = "brass_test_" + uuid.uuid4().hex[:12]
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        self._schemas.append(schema)
        separator = "&" if "?" in POSTGRES_URL else "?"
        return f"{POSTGRES_URL}{separator}options={quote(f'-csearch_path={schema}')}"

    def start_server(
        self,
        name: str,
        database_url: str | None = None,
        env: dict[str, str] | None = None,
    ) -> ServerProcess:
        server = ServerProcess(
            self.workdir / name,
            database_url=database_url or self.new_database_url(),
            env={**GENEROUS_LIMITS, **(env or {})},
            name=name,
        )
        self._servers.append(server)
        return server.start()

    def close(self) -> None:
        for server in self._servers:
            server.stop()
        if self._schemas:
            import psycopg

            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                for schema in self._schemas:
                    conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def backend(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Backend]:
    if request.param == "postgres":
        reason = _postgres_unreachable()
        if reason is not None:
            message = (
                f"PostgreSQL UNREACHABLE at {POSTGRES_URL} ({reason}): the PostgreSQL half of "
                "the service suite did NOT run"
            )
            if not _postgres_skip_reason:
                _postgres_skip_reason.append(message)
            pytest.skip(message)
    backend = Backend(request.param, tmp_path_factory.mktemp(f"brass-{request.param}"))
    yield backend
    backend.close()


@pytest.fixture(autouse=True)
def _stop_the_tests_own_servers() -> Iterator[None]:
    """Stops, when a test ends, the servers it started through a back end (its body's and
    its function-scoped fixtures'; the module and session fixtures' servers, made before
    this runs, are kept). Each PostgreSQL server holds pooled connections and a LISTEN
    one: kept to the session's end, the suite's servers took all of PostgreSQL's 100 (CI
    failed so: 'sorry, too many clients already')."""
    started = {id(backend): len(backend._servers) for backend in Backend.live}
    yield
    for backend in Backend.live:
        for server in backend._servers[started.get(id(backend), 0):]:
            server.stop()


@pytest.fixture(scope="session")
def server(backend: Backend) -> ServerProcess:
    """The shared server of a back end (SQLite: the default file in its working directory)."""
    if backend.name == "sqlite":
        shared = ServerProcess(
            backend.workdir / "shared", database_url=None, env=GENEROUS_LIMITS, name="shared"
        )
        backend._servers.append(shared)
        return shared.start()
    return backend.start_server("shared")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for message in _postgres_skip_reason:
        terminalreporter.write_sep("!", "POSTGRESQL TESTS SKIPPED", red=True, bold=True)
        terminalreporter.write_line(message, red=True, bold=True)
    for message in LOUD_SKIPS:
        terminalreporter.write_sep("!", "TEST SKIPPED", red=True, bold=True)
        terminalreporter.write_line(message, red=True, bold=True)
