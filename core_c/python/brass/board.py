"""What a frontend needs to draw a ruleset's board and name its options: locations with map
coordinates, slots and their icons, routes, merchants, markets, the action space, reason
messages and game options (docs/SERVICE.md, "Rulesets").

This is description, not rules: the board facts come from the same data file the C tables
are generated from, the names, reasons and options from the engine (`get_ruleset`), and
the drawing coordinates from a layout file (`<ruleset>_layout.json`) of real town
positions. `describe_ruleset` checks the board against the engine: every slot, link and
merchant space the engine has an action for is on the board and nothing else is
(`BoardMismatch` otherwise), so a frontend never meets an id it cannot draw.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from brass._core import ffi, lib
from brass.board_common import BoardMismatch, _check_same, _load, data_dir, project
from brass.registry import HOOKS, hooks_of
from brass.rulesets import DEFAULT_RULESET, Ruleset, get_ruleset, meaning

# The shared parts keep their old import path here (brass.board.project, ...).
__all__ = ["BOARD_FILES", "BoardMismatch", "_check_same", "_load", "action_decisions",
           "build_description", "data_dir", "describe_ruleset", "project"]

# Rulesets whose board this module can describe, with their data and layout files.
BOARD_FILES = {name: hooks.board_files for name, hooks in HOOKS.items() if hooks.board_files}
# Highest ruleset-specific reason code looked up (codes from BRASS_R_RULESET_FIRST).
_MAX_REASON = 255


def _reasons(rs: Ruleset) -> list[dict[str, str]]:
    """Every refusal reason of the ruleset with the engine's message (LEGAL left out)."""
    codes = [*range(1, lib.BRASS_NUM_SHARED_REASONS),
             *range(lib.BRASS_R_RULESET_FIRST, _MAX_REASON + 1)]
    out = []
    for code in codes:
        name = lib.brass_reason_name(rs.id, code)
        if name != ffi.NULL:
            out.append({"code": ffi.string(name).decode(), "message": rs.reason_message(code)})
    return out


def action_decisions(rs: Ruleset, name: str) -> list[str]:
    """The decision kinds that may offer the id named `name` (none for an unused id of a
    ruleset's fixed action space, or a ruleset without the table)."""
    prefix, _, value = name.partition(":")
    if value.startswith("unused"):
        return []
    return list(hooks_of(rs.name).board_decisions.get(prefix, ()))


def _actions(rs: Ruleset) -> list[dict[str, Any]]:
    out = []
    for action, name in enumerate(rs.action_names):
        sense = meaning(action, rs)
        kind = sense["kind"]
        out.append({"id": action, "name": name, "kind": kind,
                    "value": sense.get(kind, "") if kind != name else "",
                    "location": sense.get("location", ""),
                    "decisions": action_decisions(rs, name)})
    return out


def _options(rs: Ruleset) -> list[dict[str, Any]]:
    """The engine's options; an int option's range only when it takes any value in it."""
    out = []
    for o in rs.describe()["options"]:
        allowed = o["allowed"] or []
        if o["type"] == "bool" and set(allowed) == {False, True}:
            allowed = []  # both: the usual case, not listed
        ranged = o["type"] == "int" and not allowed
        out.append({"key": o["name"], "type": o["type"], "default": o["default"],
                    "allowed": allowed, "min": o["min"] if ranged else None,
                    "max": o["max"] if ranged else None, "description": o["description"]})
    return out


def _board_of(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's board from its data and layout, checked against the engine first."""
    hooks = hooks_of(rs.name)
    check, build = hooks.board_problems, hooks.build_board
    if check is None or build is None:
        raise BoardMismatch(f"{rs.name} has no board description in this engine")
    problems = check(rs, data, layout)
    if problems:
        raise BoardMismatch(f"{rs.name} board data do not match the engine: "
                            + "; ".join(problems))
    return build(rs, data, layout)


def build_description(rs: Ruleset, data: dict[str, Any] | None,
                      layout: dict[str, Any] | None) -> dict[str, Any]:
    """The description of `rs` from the given board data and layout (None: no board)."""
    info = rs.describe()
    out: dict[str, Any] = {
        "ruleset": rs.name, "title": rs.title, "rules_edition": rs.rules_edition,
        "players": info["players"], "provisional": rs.provisional,
        "placeholders": list(rs.placeholders), "options": _options(rs),
        "decision_kinds": list(rs.decision_names), "actions": _actions(rs),
        "reasons": _reasons(rs),
    }
    if data is not None and layout is not None:
        out["board"] = _board_of(rs, data, layout)
    return out


@cache
def describe_ruleset(name: str = DEFAULT_RULESET) -> dict[str, Any]:
    """The ruleset's full description, JSON-ready (built once per process; do not mutate).
    A ruleset of the engine without drawing data here yet (BOARD_FILES) is described without
    its "board"; an unknown one is EngineError INVALID_ARGUMENT."""
    rs = get_ruleset(name)
    files = BOARD_FILES.get(rs.name)
    if files is None:
        return build_description(rs, None, None)
    return build_description(rs, _load(files[0]), _load(files[1]))
