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

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from brass import board_pittsburgh
from brass._core import ffi, lib
from brass.engine import Ruleset, get_ruleset, meaning

# Rulesets whose board this module can describe, with their data and layout files.
BOARD_FILES = {"birmingham": ("birmingham.json", "birmingham_layout.json"),
               "pittsburgh": ("pittsburgh.json", "pittsburgh_layout.json")}
# The decision kinds that may offer an id, by the prefix of its name (docs/DECISIONS.md;
# tests check them against the ids random games offer).
_BIRMINGHAM_DECISIONS = {
    "type": ("action",), "card": ("card", "scout_card"),
    "industry": ("build_industry", "develop", "free_develop"),
    "slot": ("build_slot", "coal", "iron", "beer", "sell_tile", "shortfall"),
    "link": ("link", "second_rail"), "market": ("coal", "iron"),
    "merchant": ("sell_merchant", "beer"),
    "done": ("second_rail", "develop", "sell_tile", "free_develop"),
}
_DECISIONS_BY_PREFIX = {"birmingham": _BIRMINGHAM_DECISIONS,
                        "pittsburgh": board_pittsburgh.DECISIONS_BY_PREFIX}
# Highest ruleset-specific reason code looked up (codes from BRASS_R_RULESET_FIRST).
_MAX_REASON = 255


class BoardMismatch(Exception):
    """The board data and the engine's action space disagree (a build or data error)."""


def data_dir() -> Path:
    """Where the data files are: installed beside the package, or core_c/data in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "data", here.parent.parent / "data"):
        if (candidate / "birmingham.json").is_file():
            return candidate
    raise FileNotFoundError("the engine's data directory (birmingham.json) is missing")


def _load(name: str) -> Any:
    return json.loads((data_dir() / name).read_text(encoding="utf-8"))


def project(layout: dict[str, Any], towns: list[str]) -> dict[str, tuple[float, float]]:
    """Each location's point in the view box (the layout's `projection` text says how):
    the board `towns` fix the reference latitude and fill the view box."""
    places = layout["locations"]
    box = layout["view_box"]
    real = {k: v for k, v in places.items() if "lat" in v}
    lat0 = sum(real[k]["lat"] for k in towns) / len(towns)
    shrink = math.cos(math.radians(lat0))

    def plane(key: str) -> tuple[float, float]:
        return real[key]["lon"] * shrink, -real[key]["lat"]

    us = [plane(k)[0] for k in towns]
    vs = [plane(k)[1] for k in towns]
    inner_w, inner_h = box["width"] - 2 * box["margin"], box["height"] - 2 * box["margin"]
    scale = min(inner_w / (max(us) - min(us)), inner_h / (max(vs) - min(vs)))
    mid_u, mid_v = (max(us) + min(us)) / 2, (max(vs) + min(vs)) / 2

    def to_box(key: str) -> tuple[float, float]:
        u, v = plane(key)
        return box["width"] / 2 + (u - mid_u) * scale, box["height"] / 2 + (v - mid_v) * scale

    points: dict[str, tuple[float, float]] = {k: to_box(k) for k in real}
    for key, place in places.items():
        if "anchor" in place:
            anchors = [points[a] for a in place["anchor"]]
            points[key] = (sum(p[0] for p in anchors) / len(anchors),
                           sum(p[1] for p in anchors) / len(anchors))
    for key, place in places.items():
        dx, dy = place.get("nudge", (0, 0))
        x, y = points[key]
        points[key] = (round(x + dx, 1), round(y + dy, 1))
    return points


def _check_same(what: str, engine: set[str], board: set[str]) -> list[str]:
    problems = []
    if engine - board:
        problems.append(f"{what} the engine has but the board lacks: {sorted(engine - board)}")
    if board - engine:
        problems.append(f"{what} on the board but not in the engine: {sorted(board - engine)}")
    return problems


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
    return list(_DECISIONS_BY_PREFIX.get(rs.name, {}).get(prefix, ()))


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


def _board(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> dict[str, Any]:
    ids = rs.action_ids
    points = project(layout, [loc["id"] for loc in data["locations"] if loc["type"] == "town"])
    offsets = layout["slot_offsets"]
    merchant_names = {m["id"]: m["name"] for m in data["merchants"]["locations"]}
    locations = []
    for loc in data["locations"]:
        x, y = points[loc["id"]]
        slots = []
        for slot in loc["slots"]:
            name = f"slot:{loc['id']}.{slot['index']}"
            dx, dy = offsets[slot["position"]]
            slots.append({"action_id": ids[name], "name": name, "index": slot["index"],
                          "position": slot["position"], "industries": slot["industries"],
                          "x": round(x + dx, 1), "y": round(y + dy, 1)})
        locations.append({"id": loc["id"], "name": loc.get("name") or merchant_names[loc["id"]],
                          "kind": loc["type"], "x": x, "y": y, "slots": slots})
    routes = []
    for link in data["links"]:
        name = f"link:{link['id']}"
        kind = ("canal_and_rail" if link["canal"] and link["rail"]
                else "canal_only" if link["canal"] else "rail_only")
        routes.append({"id": link["id"], "action_id": ids[name], "name": name,
                       "endpoints": link["endpoints"], "connects": link["connects"],
                       "canal": link["canal"], "rail": link["rail"], "kind": kind})
    merchants = []
    for m in data["merchants"]["locations"]:
        spaces = [{"action_id": ids[f"merchant:{m['id']}.{s['index']}"],
                   "name": f"merchant:{m['id']}.{s['index']}", "index": s["index"],
                   "player_counts": s["player_counts"]} for s in m["spaces"]]
        bonus = m["beer_bonus"]
        merchants.append({"location": m["id"], "name": m["name"], "spaces": spaces,
                          "beer_bonus": {"kind": bonus["type"], "amount": bonus["amount"],
                                         "text": bonus["text"]},
                          "link_vp": m["link_vp_icons"], "adjacent": m["adjacent"]})
    markets = []
    for resource in ("coal", "iron"):
        market = data["markets"][resource]
        markets.append({"resource": resource,
                        "slot_prices": market["slot_prices_cheapest_first"],
                        "capacity": market["capacity"],
                        "price_when_empty": market["price_when_empty"],
                        "initial_cubes": market["initial_cubes"],
                        "buy_needs_merchant_connection":
                            market["buy_requires_connection_to_merchant_location"]})
    box = layout["view_box"]
    return {"view_box": {"width": box["width"], "height": box["height"]},
            "projection": layout["meta"]["projection"],
            "coordinates_source": layout["meta"]["coordinates_source"],
            "locations": locations, "routes": routes, "merchants": merchants,
            "markets": markets, "player_mat": _player_mat(data)}


# What an industry's tile carries when built (goods tiles carry nothing).
_PRODUCT = {"coal": "coal", "iron": "iron", "brewery": "beer"}


def _player_mat(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every industry's tile stack on a player's mat, lowest level first."""
    mat = []
    for industry, info in data["industries"]["per_industry"].items():
        levels = []
        for tile in info["levels"]:
            produced = (tile["produces"] or {}).get(_PRODUCT.get(industry, ""), 0)
            if isinstance(produced, dict):  # a brewery: beer by era
                cubes, rail_cubes = produced.get("canal_era", 0), produced.get("rail_era", 0)
            else:
                cubes = rail_cubes = produced
            levels.append({
                "level": tile["level"], "count": tile["count"], **tile["cost"],
                "beer_to_sell": tile["beer_to_sell"] or 0,
                "income_spaces": tile["income_spaces"], "vp": tile["vp"],
                "link_icons": tile["link_icons"], "cubes": cubes, "rail_era_cubes": rail_cubes,
                "canal_era": tile["canal_era"], "rail_era": tile["rail_era"],
                "developable": tile["developable"]})
        mat.append({"industry": industry, "name": info["name"],
                    "tiles_per_player": info["tiles_per_player"], "levels": levels})
    return mat


def _validate(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> None:
    if rs.name == "pittsburgh":
        problems = board_pittsburgh.validate(rs, data, layout)
    else:
        problems = _birmingham_problems(rs, data, layout)
    if problems:
        raise BoardMismatch(f"{rs.name} board data do not match the engine: "
                            + "; ".join(problems))


def _birmingham_problems(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]
                         ) -> list[str]:
    board_slots = {f"{loc['id']}.{s['index']}" for loc in data["locations"]
                   for s in loc["slots"]}
    board_links = {link["id"] for link in data["links"]}
    board_spaces = {f"{m['id']}.{s['index']}" for m in data["merchants"]["locations"]
                    for s in m["spaces"]}
    problems = (_check_same("slots", set(rs.names_with("slot")), board_slots)
                + _check_same("links", set(rs.names_with("link")), board_links)
                + _check_same("merchant spaces", set(rs.names_with("merchant")), board_spaces))
    location_ids = {loc["id"] for loc in data["locations"]}
    problems += _check_same("located places", location_ids, set(layout["locations"]))
    for link in data["links"]:
        for end in link["connects"]:
            if end not in location_ids:
                problems.append(f"link {link['id']} connects an unknown location {end}")
    labels = {s["position"] for loc in data["locations"] for s in loc["slots"]}
    unplaced = labels - set(layout["slot_offsets"])
    if unplaced:
        problems.append(f"slot positions without an offset: {sorted(unplaced)}")
    return problems


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
        _validate(rs, data, layout)
        builder = board_pittsburgh.build if rs.name == "pittsburgh" else _board
        out["board"] = builder(rs, data, layout)
    return out


@cache
def describe_ruleset(name: str = "birmingham") -> dict[str, Any]:
    """The ruleset's full description, JSON-ready (built once per process; do not mutate).
    A ruleset of the engine without drawing data here yet (BOARD_FILES) is described without
    its "board"; an unknown one is EngineError INVALID_ARGUMENT."""
    rs = get_ruleset(name)
    files = BOARD_FILES.get(rs.name)
    if files is None:
        return build_description(rs, None, None)
    return build_description(rs, _load(files[0]), _load(files[1]))
