"""Start-up failures are JSON log lines with an exit status, never a traceback or a password."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from brass_service.observability import configure_logging, request_lines


def _serve(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
    return subprocess.run(
        [sys.executable, "-m", "brass_service", "--port", "0", "--http-port", "0", *args],
        capture_output=True, text=True, timeout=60, cwd=cwd, env=env, check=False,
    )


def _json_lines(text: str) -> list[dict[str, object]]:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert lines, "nothing was logged"
    return [json.loads(ln) for ln in lines]  # every line is a JSON object


@pytest.mark.parametrize("workers", ["1", "2"])
def test_bad_database_url_is_one_json_line_without_the_password(tmp_path: Path,
                                                                workers: str) -> None:
    proc = _serve("--workers", workers, "--database-url", "mysql://bob:s3cret@db/x",
                  cwd=tmp_path)
    assert proc.returncode == 2
    assert "s3cret" not in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    events = _json_lines(proc.stderr)
    error = next(e for e in events if e["event"] == "bad_database_url")
    assert error["level"] == "error" and "mysql://bob:***@db/x" in str(error["error"])


@pytest.mark.parametrize("which", ["--http-port", "--port"])
def test_taken_port_is_one_json_line(tmp_path: Path, which: str) -> None:
    """The REST port or the gRPC port (issue 23, item 8: not gRPC's C-core line and a
    traceback): one JSON line saying which port and why."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env_args = ["--database-url", f"sqlite:///{tmp_path / 'g.sqlite3'}"]
        ports = {"--port": "0", "--http-port": "0", which: str(port)}
        proc = subprocess.run(
            [sys.executable, "-m", "brass_service", *(x for kv in ports.items() for x in kv),
             *env_args],
            capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False,
            env={k: v for k, v in os.environ.items() if not k.startswith("BRASS_")},
        )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    events = _json_lines(proc.stderr)
    error = next(e for e in events if e["event"] == "cannot_listen")
    assert str(port) in str(error["error"]) and "in use" in str(error["error"]).lower()
    assert ("gRPC" if which == "--port" else "REST") in str(error["error"])


def test_redact_url_hides_only_the_password() -> None:
    from brass_service.store import redact_url

    assert redact_url("postgresql://u:pw@h:5432/db?x=1") == "postgresql://u:***@h:5432/db?x=1"
    assert redact_url("postgresql://u@h/db") == "postgresql://u@h/db"
    assert redact_url("sqlite:///tmp/a.sqlite3") == "sqlite:///tmp/a.sqlite3"
    assert "pw" not in redact_url("postgresql://u:pw@[::1/db")  # unparseable


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """configure_logging points every logger at this test's captured stderr: put back what
    was there, or later tests in this process would log into a closed capture."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    structlog_config = structlog.get_config()
    lines_file, lines_enabled = request_lines._file, request_lines.enabled
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    structlog.configure(**structlog_config)
    request_lines.configure(lines_file, lines_enabled)


@pytest.mark.usefixtures("restored_logging")
def test_library_tracebacks_are_rendered_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("info")
    try:
        raise RuntimeError("boom in a library")
    except RuntimeError:
        logging.getLogger("some.library").exception("it failed")
    for handler in logging.getLogger().handlers:
        handler.flush()
    line = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert line["event"] == "it failed" and line["logger"] == "some.library"
    assert "Traceback (most recent call last)" in line["exception"]
    assert "RuntimeError: boom in a library" in line["exception"]
