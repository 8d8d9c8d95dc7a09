"""Short libFuzzer runs of the C core's fuzz harnesses (core_c/fuzz/, docs/FUZZING.md).

`make -C core_c fuzz-short` builds fuzz_restore, fuzz_state, fuzz_decisions,
fuzz_pgh_json (Pittsburgh's position reader), fuzz_pgh (Pittsburgh's decisions and
mutated positions) and fuzz_worths (the bots' evaluator in C on any params and summary)
with clang -fsanitize=fuzzer,address,undefined (the core compiled once, in the run's
shared build directory: tests/core/_build.py) and runs each for FUZZ_SECONDS
(20 s by default; BRASS_FUZZ_SECONDS overrides) from the seed corpus in
core_c/fuzz/corpus/. Any failed engine promise, sanitizer report or crash fails the test.
Needs clang with its libFuzzer runtime (Debian: apt-get install -y clang libclang-rt-14-dev);
skipped loudly without it.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

import brass

from ._build import core_make
from ._support import CORE, SNAPSHOT_HEADER

HARNESSES = ("fuzz_restore", "fuzz_state", "fuzz_decisions", "fuzz_pgh_json", "fuzz_pgh",
             "fuzz_worths")
CORPUS = CORE / "fuzz" / "corpus"
SECONDS = int(os.environ.get("BRASS_FUZZ_SECONDS", "20"))
# CI sets BRASS_FUZZ_RUNS: a fixed seed and number of runs make the session the same on every
# run, so a gate cannot fail by luck; open-ended time-boxed sessions find new inputs instead.
RUNS = int(os.environ.get("BRASS_FUZZ_RUNS", "0"))
APT = "apt-get update && apt-get install -y clang libclang-rt-14-dev"


def _libfuzzer_missing(tmp: Path) -> str | None:
    clang = shutil.which("clang")
    if clang is None:
        return "clang is not installed"
    src = tmp / "probe.c"
    src.write_text("#include <stddef.h>\n#include <stdint.h>\n"
                   "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)"
                   "{(void)d; (void)n; return 0;}\n")
    proc = subprocess.run([clang, "-fsanitize=fuzzer,address,undefined", str(src), "-o",
                           str(tmp / "probe")], capture_output=True, text=True, timeout=300,
                          check=False)
    if proc.returncode != 0:
        return f"clang cannot link libFuzzer: {proc.stderr.strip()[-300:]}"
    return None


def test_fuzz_short(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    missing = _libfuzzer_missing(tmp_path)
    if missing:
        pytest.skip(f"!!! {missing}: the C core was NOT fuzzed by this run. CI must run: "
                    f"{APT} !!!")
    built, build = core_make(tmp_path_factory, "fuzz", *(f"fuzz/{h}" for h in HARNESSES))
    assert built.returncode == 0, (built.stdout + built.stderr)[-4000:]
    # the harnesses are built: this make only runs them (outside the build lock)
    args = ["make", "-C", str(CORE), "fuzz-short", f"BUILD={build}", f"FUZZ_SECONDS={SECONDS}"]
    if RUNS:
        args[-1] = "FUZZ_SECONDS=900"
        args.append(f"FUZZ_ARGS=-seed=1 -runs={RUNS}")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=1800 + 6 * SECONDS,
                          check=False)
    out = proc.stdout + proc.stderr
    assert "FUZZ CHECK FAILED" not in out, out[-6000:]
    assert not re.search(r"ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:",
                         out), out[-6000:]
    assert proc.returncode == 0, out[-6000:]
    runs = [int(x) for x in re.findall(r"stat::number_of_executed_units: (\d+)", out)]
    assert len(runs) == len(HARNESSES), out[-3000:]
    assert all(r > 0 for r in runs), runs
    assert not list((build / "fuzz").glob("crash-*")), "crash artifacts were written"
    print(f"fuzz-short executions per harness: {dict(zip(HARNESSES, runs, strict=True))}")


def test_seed_corpus_is_present_and_current() -> None:
    """The seed corpus holds real states this engine accepts (regenerate it with
    core_c/fuzz/make_corpus.py after a format change)."""
    for h in HARNESSES:
        files = sorted((CORPUS / h).iterdir())
        assert len(files) >= 10, f"corpus of {h} has {len(files)} inputs"
    for f in sorted((CORPUS / "fuzz_restore").iterdir()):
        brass.Game.restore(f.read_bytes())
    size = brass.Game.new(2, 1).snapshot()
    header = size[:SNAPSHOT_HEADER]
    body_len = len(size) - SNAPSHOT_HEADER
    for f in sorted((CORPUS / "fuzz_state").iterdir()):
        data = f.read_bytes()
        assert len(data) >= body_len
        body = data[:body_len]
        h = 2166136261
        for x in body:
            h = ((h ^ x) * 16777619) & 0xFFFFFFFF
        edition = struct.unpack_from("<H", body, 6)[0]
        snap = (header[:4] + struct.pack("<HH", struct.unpack_from("<H", header, 4)[0], edition)
                + header[8:12] + struct.pack("<I", h) + body)
        brass.Game.restore(snap)
