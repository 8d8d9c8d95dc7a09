"""Pittsburgh rulings P1-P70 (/work/shared/rules/PITTSBURGH_RULINGS.md), one C conformance
test each (core_c/tests/pgh_rules/, one file per rule file: an explicit position, decisions
applied through the public ids, the exact outcome checked), built under ASan + UBSan and run
one by one here.

They run in C because the Pittsburgh ruleset is not wired into the Python engine yet; most
use the synthetic tiny table set so they do not lean on the draft's placeholder values.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from core._build import core_make, need

CORE = Path(__file__).resolve().parents[2] / "core_c"
# one file of tests per rule file of src/pittsburgh/ (core_c/tests/pgh_rules/), one program
NAMES = [name for path in sorted((CORE / "tests" / "pgh_rules").glob("*.c"))
         for name in re.findall(r"^static void (test_\w+)\(void\)", path.read_text(), re.M)]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need("gcc", "make")
    # built once for the run, whichever worker asks first (tests/core/_build.py)
    proc, build = core_make(tmp_path_factory, "sanitized", "pgh_rules")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    return build / "pgh_rules"


def test_every_test_is_registered(binary: Path) -> None:
    listed = subprocess.run([str(binary), "list"], capture_output=True, text=True,
                            timeout=60, check=True).stdout.split()
    assert sorted(listed) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_ruling(binary: Path, name: str) -> None:
    proc = subprocess.run([str(binary), name], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == f"ok {name}", proc.stdout + proc.stderr
