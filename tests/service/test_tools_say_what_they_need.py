"""The tools a newcomer runs say what they need in a sentence, not a traceback or a bare
"RESULT: FAIL" (issue 23, item 8): the benchmark (no server, the creation quota), the load
test (locust missing, a quota, a dead server). gen_proto's is in test_contract.py."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from brass_service.tools import bench

from .helpers import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_benchmark_without_a_server_says_how_to_start_one() -> None:
    port = _closed_port()
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--http", f"127.0.0.1:{port}", "--only", "rest", "--seconds", "1"])
    text = str(stopped.value.code)
    assert f"no server answers rest at 127.0.0.1:{port}" in text
    assert "BRASS_CREATE_GAME_RATE= brass serve" in text


def test_the_benchmark_stopped_by_the_creation_quota_says_how_to_lift_it(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path, env={"BRASS_CREATE_GAME_RATE": "1/minute"})
    server.start()
    try:  # as a newcomer runs it (its client processes are spawned)
        completed = subprocess.run(
            [sys.executable, "-m", "brass_service.tools.bench", "--http",
             f"127.0.0.1:{server.http_port}", "--only", "rest", "--seconds", "3",
             "--clients", "1", "--concurrency", "3"],
            capture_output=True, text=True, timeout=120, check=False)
    finally:
        server.stop()
    text = completed.stderr
    assert completed.returncode == 1 and completed.stdout == ""
    assert "game-creation quota" in text and "create_game_rate" in text
    assert "BRASS_CREATE_GAME_RATE= brass serve" in text and "Traceback" not in text


def test_the_load_test_without_locust_says_to_install_the_dev_extra(tmp_path: Path) -> None:
    # a `locust` that cannot be imported, ahead of the real one on the path
    (tmp_path / "locust").mkdir()
    (tmp_path / "locust" / "__init__.py").write_text("raise ImportError('no gevent here')\n")
    completed = subprocess.run(
        ["bash", str(ROOT / "loadtest" / "run.sh"), "--run-time", "1s",
         "--out", str(tmp_path / "out")],
        env={**os.environ, "PYTHON": sys.executable, "PYTHONPATH": str(tmp_path)},
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert completed.returncode == 2
    assert "needs locust" in completed.stderr and "no gevent here" in completed.stderr
    assert "pip install -e '.[dev]'" in completed.stderr
    assert not (tmp_path / "out" / "server.log").exists()  # no server was started


def _support():  # noqa: ANN202 - loadtest/support.py is a script, not a package module
    spec = importlib.util.spec_from_file_location("loadtest_support",
                                                  ROOT / "loadtest" / "support.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_failed_load_test_says_why() -> None:
    why_failed = _support().why_failed
    out = Path("/tmp/load")
    quota = why_failed(
        decisions=0, unexpected=12, server_alive=True, locust_exit=1, server_log="",
        locust_log="", out=out,
        failures=["POST /v1/games: {'error': {'reason': 'RATE_LIMITED', 'details': "
                  "[{'metadata': {'limit': 'create_account_rate'}}]}}"])
    assert len(quota) == 1 and "limit create_account_rate" in quota[0]
    assert "BRASS_CREATE_ACCOUNT_RATE=" in quota[0]
    missing = why_failed(decisions=0, unexpected=0, server_alive=True, locust_exit=1,
                         server_log="", locust_log="/x/python: No module named locust",
                         failures=[], out=out)
    assert missing == ["locust is not installed for this Python: install the dev extra, "
                       "pip install -e '.[dev]'"]
    dead = why_failed(decisions=5, unexpected=0, server_alive=False, locust_exit=0,
                      server_log='{"event": "serving"}\nKilled\n', locust_log="",
                      failures=[], out=out)
    assert len(dead) == 1 and "the server died" in dead[0] and "Killed" in dead[0]
    nothing = why_failed(decisions=0, unexpected=0, server_alive=True, locust_exit=0,
                         server_log="", locust_log="", failures=[], out=out)
    assert nothing == ["no decision was accepted in the run: see /tmp/load/locust.log"]
