"""One build directory of the C core's test programs for the whole test run.

The sanitized programs (self-play, Pittsburgh's rulings), the fuzz harnesses and the plain
Pittsburgh self-play were each compiled from all the core's sources in a test's own
directory, some by both pytest-xdist workers: minutes of CI spent compiling the same files.
Here every test asks make for its programs in one directory shared by the workers of the
run (core_c/Makefile links each program to an archive of the core compiled once), one make
at a time per directory, so that each object is compiled once per run and make never races
itself. Each kind of build (sanitized, fuzzing, plain) has its own directory and lock: they
share no file, so one need not wait for another.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core_c"


def need(*tools: str) -> None:
    """Skip loudly when a build tool is missing: nothing of the core was checked then."""
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"!!! {tool} is not installed: the C core was NOT built or checked "
                        f"by this test (CI must run: apt-get install -y {tool}) !!!")


def shared_build_dir(factory: pytest.TempPathFactory, kind: str) -> Path:
    """The run's build directory of one KIND: beside the xdist workers' base directories."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    build = root / f"core-build-{kind}"
    build.mkdir(exist_ok=True)
    return build


def core_make(factory: pytest.TempPathFactory, kind: str, *programs: str,
              timeout: int = 900) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Builds PROGRAMS (paths inside the build directory: "pgh_rules", "fuzz/fuzz_pgh") in
    the shared build directory of KIND ("sanitized", "fuzz", "plain"), under its lock;
    returns make's outcome and the directory."""
    build = shared_build_dir(factory, kind)
    paths = [str(build / program) for program in programs]
    with open(build.parent / f"core-build-{kind}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(["make", "-C", str(CORE), f"BUILD={build}", *paths],
                              capture_output=True, text=True, timeout=timeout, check=False)
    return proc, build
