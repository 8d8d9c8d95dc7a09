"""docs/ARCHITECTURE.md is a map that cannot drift: every file it names exists, and every
module of the service and of the `brass` package is named in it (a new module needs its
line, a moved one its new place)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
NAMED = re.compile(r"`((?:service|core_c)/[\w./]+)`")
# Not the service's own code: generated protobuf modules, tools run beside the service.
UNLISTED = ("service/gen/", "service/tools/")


def _named() -> set[str]:
    return {name.rstrip("/") for name in NAMED.findall(DOC.read_text(encoding="utf-8"))}


def test_every_file_the_architecture_names_exists() -> None:
    named = _named()
    assert len(named) > 60
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert missing == []


def test_every_module_of_the_service_and_the_engine_api_is_placed() -> None:
    named = _named()
    modules = [
        path.relative_to(ROOT).as_posix()
        for folder in ("service", "core_c/python/brass")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "__pycache__" not in path.parts
    ]
    unplaced = [
        module for module in modules
        if module not in named
        and not module.startswith(UNLISTED)
        and not (module.endswith("/__init__.py") and module != "core_c/python/brass/__init__.py")
    ]
    assert unplaced == []
