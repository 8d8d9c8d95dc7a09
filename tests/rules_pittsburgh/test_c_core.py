"""The Pittsburgh C core on its own (not yet wired into the Python engine): its generated
tables are current and come from the data files, the generator refuses option keys and
values the C rules do not know, the self-play under ASan + UBSan plays full games on both
table sets and every player count with invariants checked in C (money never negative,
cards and link tiles conserved, 8 rounds an era, every refused id leaves the state alone),
and a finished position's JSON holds what the data file says. Some self-play games set
every option to its last implemented alternative value.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from core._build import core_make, need

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "core_c"
SANITIZER_REPORT = re.compile(r"AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:")


def _gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_pgh", CORE / "gen_pittsburgh_tables.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_tables_are_current_and_follow_the_data() -> None:
    proc = subprocess.run([sys.executable, str(CORE / "gen_pittsburgh_tables.py"), "--check"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    gen = _gen()
    for name, path in gen.SETS:
        data = json.loads(path.read_text())
        current = (CORE / "src" / "pittsburgh" / f"pgh_tables_{name}.h").read_text()
        assert gen.generate(name, data) == current
        changed = copy.deepcopy(data)
        changed["markets"][0]["price"] += 1
        assert gen.generate(name, changed) != current


def test_data_file_is_the_shared_provisional_file() -> None:
    ours = json.loads((CORE / "data" / "pittsburgh.json").read_text())
    assert ours["meta"]["status"].startswith("PROVISIONAL")
    assert {p["id"] for p in ours["placeholders"]} == {f"PH{i}" for i in range(1, 7)}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["options"].__setitem__("new_rule", {"default": True, "alt": []}),
     "option keys the C rules do not know: ['new_rule']"),
    (lambda d: d["options"]["mfg_v_vp"].__setitem__("alt", [13]), "option mfg_v_vp: value 13"),
    (lambda d: d["options"]["market_sale_on_build"].__setitem__("default", "never"),
     "option market_sale_on_build: default 'never'"),
    (lambda d: d["cards"]["cards"].pop(), "deck for 4 players has 63 cards"),
])
def test_generator_refuses_what_the_rules_cannot_play(change, message) -> None:  # type: ignore[no-untyped-def]
    gen = _gen()
    data = json.loads((CORE / "data" / "pittsburgh.json").read_text())
    change(data)
    with pytest.raises(gen.DataError, match=re.escape(message)):
        gen.generate("pittsburgh", data)


def test_selfplay_under_sanitizers(tmp_path_factory: pytest.TempPathFactory) -> None:
    need("gcc", "make")
    proc, build = core_make(tmp_path_factory, "sanitized", "pgh_selfplay_san")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    proc = subprocess.run([str(build / "pgh_selfplay_san"), "40"], capture_output=True,
                          text=True, timeout=1800, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    m = re.search(r"pgh_selfplay: (\d+) games per player count and table set "
                  r"\(and (\d+) with every alternative option value\), (\d+) failures", proc.stdout)
    assert m and int(m.group(1)) == 40 and int(m.group(2)) == 10 and int(m.group(3)) == 0, \
        out[-4000:]
    assert not SANITIZER_REPORT.search(proc.stderr), proc.stderr[-4000:]


@pytest.mark.parametrize("table_set, data_file",
                         [(0, "pittsburgh.json"), (1, "pittsburgh_tiny.json")])
def test_position_json_follows_the_data(tmp_path_factory: pytest.TempPathFactory,
                                        table_set: int, data_file: str) -> None:
    need("gcc", "make")
    proc, build = core_make(tmp_path_factory, "plain", "pgh_selfplay")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    run = subprocess.run([str(build / "pgh_selfplay"), "json", "7", str(table_set)],
                         capture_output=True, text=True, timeout=120, check=True)
    pos = json.loads(run.stdout)
    data = json.loads((CORE / "data" / data_file).read_text())
    assert pos["ruleset"] == "pittsburgh" and pos["num_players"] == len(pos["players"]) == 4
    assert [f["id"] for f in pos["oilfields"]] == [f["id"] for f in data["oilfields"]]
    assert [m["id"] for m in pos["markets"]] == [m["id"] for m in data["markets"]]
    mat = {p["id"] for p in data["player_mat"]["positions"]}
    assert all(set(p["mat"]) == mat for p in pos["players"])
    assert set(pos["options"]) == set(data["options"]) | {"data", "undo"}
