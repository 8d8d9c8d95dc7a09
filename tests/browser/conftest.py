"""Fixtures for the browser tests: Debian's Chromium driven by Playwright (no browser is
ever downloaded: Playwright launches /usr/bin/chromium), and real servers.

Without Chromium (or Playwright) the tests are skipped, loudly: the end of the run says so.
Screenshots of the key screens go to tests/browser/artifacts/ (ignored by git), or to
BRASS_BROWSER_ARTIFACTS; the end of the run says where.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service.helpers import ServerProcess  # tests/ is on the path, as for tests/load

from .helpers import Rest

CHROMIUM = os.environ.get("BRASS_CHROMIUM", "/usr/bin/chromium")
# Flags that work on the CI machine (a container without a GPU or a sandbox, and no
# network beyond loopback: background services would only wait for timeouts).
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("BRASS_BROWSER_ARTIFACTS")
                 or Path(__file__).resolve().parent / "artifacts")
_loud: list[str] = []


def _skip(message: str) -> None:
    if message not in _loud:
        _loud.append(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# Module scope, not session: while Playwright's sync API is open it keeps an asyncio loop
# running in the test process's thread, and every later test on that xdist worker that calls
# asyncio.run() would fail ("cannot be called from a running event loop").
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per browser test module, each test with its own contexts."""
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        _skip(f"CHROMIUM MISSING at {CHROMIUM} (apt-get install chromium chromium-driver): "
              "the browser tests of the web frontend did NOT run")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip("PLAYWRIGHT MISSING (pip install -e '.[dev]'): the browser tests of the web "
              "frontend did NOT run")
    # Playwright gives every launch a new empty profile (--user-data-dir) of its own.
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("web-server"), name="web")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def site(web_server: ServerProcess) -> tuple[str, Rest]:
    """The module's server: its page address and a REST client of it."""
    return f"http://127.0.0.1:{web_server.http_port}", Rest(web_server.http_port)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for message in _loud:
        terminalreporter.write_sep("!", "BROWSER TESTS SKIPPED", red=True, bold=True)
        terminalreporter.write_line(message, red=True, bold=True)
    if ARTIFACTS.is_dir() and any(ARTIFACTS.iterdir()):
        terminalreporter.write_line(f"web frontend screenshots: {ARTIFACTS}")
