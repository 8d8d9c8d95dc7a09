"""The C core under AddressSanitizer + UndefinedBehaviorSanitizer, its warning-free build,
and the generated tables being current.

The sanitizer self-play (core_c/tests/selfplay.c) plays 50 random games per player count
here (`make -C core_c sanitize`, the longer run, plays 300) and, inside C, checks every id
of the action space on every decision (legal ones apply, others are refused and leave the
state unchanged), snapshots, views, determinization and compound actions.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ._build import core_make, need
from ._support import CORE

SANITIZER_REPORT = re.compile(
    r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|"
    r"SUMMARY: .*Sanitizer")


def _make(*args: str, build: Path, timeout: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-C", str(CORE), *args, f"BUILD={build}"],
                          capture_output=True, text=True, timeout=timeout, check=False)


# per player count: about a third of CI's time went to 300 (the make target's longer run)
SELFPLAY_GAMES = 50


def test_sanitizer_selfplay(tmp_path_factory: pytest.TempPathFactory) -> None:
    need("gcc", "make")
    build, directory = core_make(tmp_path_factory, "sanitized", "selfplay_san", timeout=600)
    assert build.returncode == 0, (build.stdout + build.stderr)[-4000:]
    assert "-fsanitize=address,undefined" in build.stdout  # its link line
    # one shard per core: the games are split by index, every shard checks its own
    shards = max(1, os.cpu_count() or 1)
    procs = [subprocess.Popen([str(directory / "selfplay_san"), str(SELFPLAY_GAMES), str(k),
                               str(shards)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for k in range(shards)]
    played = 0
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=1800)
        assert proc.returncode == 0, (stdout + stderr)[-4000:]
        m = re.search(r"selfplay: (\d+) games per player count, shard \d+ of \d+, "
                      r"(\d+) games played, (\d+) failures", stdout)
        assert m, (stdout + stderr)[-4000:]
        assert int(m.group(1)) == SELFPLAY_GAMES and int(m.group(3)) == 0, m.group(0)
        assert not SANITIZER_REPORT.search(stderr), stderr[-4000:]
        assert "FAIL" not in stderr, stderr[-4000:]
        played += int(m.group(2))
    assert played == 3 * SELFPLAY_GAMES  # every game of every player count, once


def test_core_builds_without_warnings(tmp_path: Path) -> None:
    need("gcc", "make")
    # selfplay compiles every source of the core (the other programs of `all` repeat them)
    proc = _make(str(tmp_path / "selfplay"), build=tmp_path, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    compile_lines = [ln for ln in proc.stdout.splitlines() if " -o " in ln]
    assert compile_lines, proc.stdout
    for flag in ("-Wall", "-Wextra", "-Werror"):
        assert all(flag in ln for ln in compile_lines), f"{flag} missing: {compile_lines}"
    assert "warning:" not in proc.stderr
    assert (tmp_path / "selfplay").exists()
    run = subprocess.run([str(tmp_path / "selfplay"), "5"], capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0 and " 0 failures" in run.stdout, run.stdout + run.stderr


def _gen_tables() -> object:
    spec = importlib.util.spec_from_file_location("gen_tables", CORE / "gen_tables.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_tables_are_current() -> None:
    proc = subprocess.run([sys.executable, str(CORE / "gen_tables.py"), "--check"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    gen = _gen_tables()
    data = json.loads((CORE / "data" / "birmingham.json").read_text())
    current = (CORE / "src" / "birmingham" / "bham_tables.h").read_text()
    assert gen.generate(data) == current  # type: ignore[attr-defined]
    # the check can fail: a change to the data changes the generated text
    data["markets"]["coal"]["price_when_empty"] += 1
    assert gen.generate(data) != current  # type: ignore[attr-defined]
