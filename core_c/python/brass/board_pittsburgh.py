"""The Brass: Pittsburgh board for drawing (GetRuleset's board; docs/SERVICE.md "Rulesets").

Description, not rules: locations, industry spaces and their icons, rail and pipeline
routes with the link tiles each takes and their printed bonuses, merchants, markets and
oilfields come from the provisional data file the C tables are generated from
(core_c/data/pittsburgh.json); the drawing points from pittsburgh_layout.json (approximate
real-world latitudes and longitudes, projected by brass.board_common.project). `validate`
checks the board against the engine's action space, as brass.board_birmingham does for
Birmingham.
"""

from __future__ import annotations

from typing import Any

from brass.board_common import _check_same, project
from brass.rulesets import Ruleset

# The decision kinds that may offer an id, by the prefix of its name (docs/PITTSBURGH.md,
# "Decisions and the action space"; tests check them against the ids random games offer).
DECISIONS_BY_PREFIX = {
    "type": ("action",), "card": ("card",), "tile": ("build_tile", "develop", "free_develop"),
    "slot": ("build_place", "coal", "iron", "steel", "coke", "oil", "sell_tile"),
    "oilfield": ("build_place",), "link": ("link_route", "coal", "iron", "steel", "coke", "oil"),
    "pipeline": ("link_route", "oil"), "oil_city_via": ("oil",),
    "market": ("coal", "iron", "steel", "coke", "market_sale"),
    "vanderbilt": ("coal", "iron", "steel", "coke"), "link_tile": ("link_tile", "second_link"),
    "merchant": ("sell_merchant",), "quality": ("quality",), "cube": ("develop_cube",),
    "bonus_sell": ("bonus_sell",),
    "done": ("market_sale", "link_tile", "second_link", "develop", "free_develop", "sell_tile",
             "quality", "bonus_sell"),
}
# The data file's icon letters (meta.ids) and the industries they stand for.
ICONS = {"K": "kerosene", "C": "coal", "M": "manufacturing", "A": "automobile",
         "S": "iron_steel", "Sky": "skyscraper"}


def _used(rs: Ruleset, prefix: str) -> set[str]:
    """The ruleset's ids of one kind, less the unused ids of the fixed action space."""
    return {n for n in rs.names_with(prefix) if not n.startswith("unused")}


def validate(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> list[str]:
    """What the board and the engine disagree on (empty when they agree)."""
    board_slots = {f"{loc['id']}.{s['index']}" for loc in data["locations"]
                   for s in loc["spaces"]}
    problems = _check_same("slots", _used(rs, "slot"), board_slots)
    problems += _check_same("rail routes", _used(rs, "link"), {r["id"] for r in data["rails"]})
    pipes = {p["id"] for p in data["pipeline_routes"]}
    problems += _check_same("pipeline routes", _used(rs, "pipeline"), pipes)
    problems += _check_same("Oil City routes", _used(rs, "oil_city_via"), pipes)
    problems += _check_same("oilfields", _used(rs, "oilfield"),
                            {f["id"] for f in data["oilfields"]})
    problems += _check_same("markets", _used(rs, "market"),
                            {m["location"] for m in data["markets"]})
    problems += _check_same("merchant spaces", _used(rs, "merchant"),
                            {f"{m}.0" for m in data["merchants"]["spaces"]})
    link_tiles = ({"light_train"} | {t["id"] for t in data["link_tiles"]["heavy_trains"]}
                  | {t["id"] for t in data["link_tiles"]["pipelines"]})
    problems += _check_same("link tiles", _used(rs, "link_tile"), link_tiles)
    location_ids = {loc["id"] for loc in data["locations"]}
    problems += _check_same("located places", location_ids, set(layout["locations"]))
    problems += _check_same("located oilfields", {f["id"] for f in data["oilfields"]},
                            set(layout["oilfields"]))
    for rail in data["rails"]:
        for end in rail["endpoints"]:
            if end not in location_ids:
                problems.append(f"rail route {rail['id']} connects an unknown location {end}")
    counts = {str(len(loc["spaces"])) for loc in data["locations"] if loc["spaces"]}
    if counts - set(layout["slot_positions"]):
        problems.append(f"space counts without slot positions: {sorted(counts)}")
    icons = {i for loc in data["locations"] for space in loc["spaces"] for i in space["icons"]}
    unknown = icons - set(ICONS)
    if unknown:
        problems.append(f"industry icons of no industry: {sorted(unknown)}")
    return problems


def build(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> dict[str, Any]:
    """The board (brass.v1.Board as a dict)."""
    ids = rs.action_ids
    cities = [loc["id"] for loc in data["locations"] if loc["type"] == "city"]
    points = project({**layout, "locations": {**layout["locations"], **layout["oilfields"]}},
                     cities)
    offsets = layout["slot_offsets"]
    locations = []
    for loc in data["locations"]:
        x, y = points[loc["id"]]
        labels = layout["slot_positions"].get(str(len(loc["spaces"])), [])
        slots = []
        for space, label in zip(loc["spaces"], labels, strict=False):
            name = f"slot:{loc['id']}.{space['index']}"
            dx, dy = offsets[label]
            slots.append({"action_id": ids[name], "name": name, "index": space["index"],
                          "position": label, "industries": [ICONS[i] for i in space["icons"]],
                          "x": round(x + dx, 1), "y": round(y + dy, 1)})
        locations.append({"id": loc["id"], "name": loc["name"], "kind": loc["type"],
                          "x": x, "y": y, "slots": slots})
    heavy, pipes = data["link_tiles"]["heavy_trains"], data["link_tiles"]["pipelines"]
    trains = ["light_train", *(t["id"] for t in heavy)]
    pipe_tiles = [t["id"] for t in pipes]
    routes = []
    for rail in data["rails"]:
        name = f"link:{rail['id']}"
        route = {"id": rail["id"], "action_id": ids[name], "name": name,
                 "endpoints": rail["endpoints"], "connects": rail["endpoints"],
                 "canal": False, "rail": True, "kind": "rail", "link_tiles": trains}
        if rail.get("bonus"):
            route["bonus"] = {"kind": rail["bonus"]["type"], "amount": rail["bonus"]["amount"]}
        routes.append(route)
    for pipe in data["pipeline_routes"]:
        name = f"pipeline:{pipe['id']}"
        routes.append({"id": pipe["id"], "action_id": ids[name], "name": name,
                       "endpoints": [pipe["location"], pipe["oilfield"]],
                       "connects": [pipe["location"]], "canal": False, "rail": False,
                       "kind": "pipeline", "link_tiles": pipe_tiles,
                       "oilfield": pipe["oilfield"], "oil_icons": pipe["oil_icons"]})
    by_id = {loc["id"]: loc for loc in data["locations"]}
    merchants = []
    for location in data["merchants"]["spaces"]:
        space = f"merchant:{location}.0"
        adjacent = sorted({end for rail in data["rails"] if location in rail["endpoints"]
                           for end in rail["endpoints"] if end != location})
        merchants.append({"location": location, "name": by_id[location]["name"],
                          "spaces": [{"action_id": ids[space], "name": space, "index": 0,
                                      "player_counts": []}],
                          "link_vp": by_id[location]["link_icons"], "adjacent": adjacent})
    markets = []
    for market in data["markets"]:
        name = f"market:{market['location']}"
        columns = [{"resource": resource,
                    "slot_vp": [slot["vp"] for slot in column["slots"]],
                    "initial_cubes": column["setup_fill"]}
                   for resource, column in market["columns"].items()]
        markets.append({"id": market["id"], "action_id": ids[name], "option_name": name,
                        "location": market["location"], "price": market["price"],
                        "columns": columns})
    oilfields = []
    for field in data["oilfields"]:
        name = f"oilfield:{field['id']}"
        x, y = points[field["id"]]
        oilfields.append({"id": field["id"], "action_id": ids[name], "option_name": name,
                          "name": field["name"], "x": x, "y": y,
                          "pipeline_routes": field["pipeline_routes"]})
    box = layout["view_box"]
    meta = layout["meta"]
    return {"view_box": {"width": box["width"], "height": box["height"]},
            "projection": meta["projection"],
            "coordinates_source": meta["coordinates_source"] + " " + meta["provisional"],
            "locations": locations, "routes": routes, "merchants": merchants,
            "markets": markets, "oilfields": oilfields,
            "tiles": [{"id": t["id"], "name": t["name"], "industry": t["industry"],
                       "level": t["level"]} for t in data["industries"]["tiles"]],
            "link_tiles": [
                {"id": "light_train", "kind": "light_train", "type": ""},
                *({"id": t["id"], "kind": "heavy_train", "type": t["type"]} for t in heavy),
                *({"id": t["id"], "kind": "pipeline", "type": t["type"]} for t in pipes)]}
