"""The Brass: Birmingham board for drawing (GetRuleset's board; docs/SERVICE.md "Rulesets").

Description, not rules: locations, slots, routes, merchants, markets and the player mat
come from the data file the C tables are generated from (core_c/data/birmingham.json), the
drawing points from birmingham_layout.json (real town positions, projected by
brass.board_common.project). `validate` checks the board against the engine's action space.
"""

from __future__ import annotations

from typing import Any

from brass.board_common import _check_same, project
from brass.rulesets import Ruleset

# The decision kinds that may offer an id, by the prefix of its name (docs/DECISIONS.md;
# tests check them against the ids random games offer).
DECISIONS_BY_PREFIX = {
    "type": ("action",), "card": ("card", "scout_card"),
    "industry": ("build_industry", "develop", "free_develop"),
    "slot": ("build_slot", "coal", "iron", "beer", "sell_tile", "shortfall"),
    "link": ("link", "second_rail"), "market": ("coal", "iron"),
    "merchant": ("sell_merchant", "beer"),
    "done": ("second_rail", "develop", "sell_tile", "free_develop"),
}


def build(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> dict[str, Any]:
    """The board (brass.v1.Board as a dict)."""
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


def validate(rs: Ruleset, data: dict[str, Any], layout: dict[str, Any]) -> list[str]:
    """What the board and the engine disagree on (empty when they agree)."""
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
