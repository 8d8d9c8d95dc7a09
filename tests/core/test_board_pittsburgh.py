"""Brass: Pittsburgh's board for drawing (brass.board_pittsburgh, issue 12 item 4): every
location, space, route, merchant, market and oilfield the engine has an id for is on the
board and nothing else is, the points are a projection of approximate real positions inside
the drawing area and apart, and each id of both rulesets names the decision kinds that may
offer it."""

from __future__ import annotations

import copy
import itertools
import math
import random
from typing import Any

import pytest

import brass
from brass import board as board_module
from brass.board import BoardMismatch, build_description, describe_ruleset

RS = brass.get_ruleset("pittsburgh")
DATA = board_module._load("pittsburgh.json")
LAYOUT = board_module._load("pittsburgh_layout.json")


def _board() -> dict[str, Any]:
    return describe_ruleset("pittsburgh")["board"]


def _used(prefix: str) -> dict[str, int]:
    return {f"{prefix}:{v}": RS.action_ids[f"{prefix}:{v}"] for v in RS.names_with(prefix)
            if not v.startswith("unused")}


def test_every_id_the_engine_uses_is_on_the_board() -> None:
    board = _board()
    slots = {s["name"]: s["action_id"] for loc in board["locations"] for s in loc["slots"]}
    rails = {r["name"]: r["action_id"] for r in board["routes"] if r["kind"] == "rail"}
    pipes = {r["name"]: r["action_id"] for r in board["routes"] if r["kind"] == "pipeline"}
    spaces = {s["name"]: s["action_id"] for m in board["merchants"] for s in m["spaces"]}
    markets = {m["option_name"]: m["action_id"] for m in board["markets"]}
    fields = {f["option_name"]: f["action_id"] for f in board["oilfields"]}
    for prefix, drawn in (("slot", slots), ("link", rails), ("pipeline", pipes),
                          ("merchant", spaces), ("market", markets), ("oilfield", fields)):
        assert drawn == _used(prefix), prefix
    assert (len(slots), len(rails), len(pipes), len(spaces), len(markets), len(fields)) == (
        48, 34, 11, 4, 6, 5)
    # every location the engine's routes, merchants and markets name is a drawn location
    located = {loc["id"] for loc in board["locations"]}
    for route in board["routes"]:
        assert set(route["connects"]) <= located, route["id"]
    assert {m["location"] for m in board["merchants"]} <= located
    assert {m["location"] for m in board["markets"]} <= located
    # the views' market ids are the board's
    view = brass.Game.new(3, 1, ruleset="pittsburgh").view()
    assert [m["id"] for m in view["markets"]] == [m["id"] for m in board["markets"]]
    assert [f["id"] for f in view["oilfields"]] == [f["id"] for f in board["oilfields"]]


def test_spaces_routes_and_markets_are_the_data_files() -> None:
    board = _board()
    drawn = {loc["id"]: loc for loc in board["locations"]}
    icons = {"K": "kerosene", "C": "coal", "M": "manufacturing", "A": "automobile",
             "S": "iron_steel", "Sky": "skyscraper"}
    for loc in DATA["locations"]:
        assert [s["industries"] for s in drawn[loc["id"]]["slots"]] == [
            [icons[i] for i in s["icons"]] for s in loc["spaces"]]
        assert drawn[loc["id"]]["kind"] == loc["type"]
    routes = {r["id"]: r for r in board["routes"]}
    assert routes["detroit--canada"]["bonus"] == {"kind": "whiskey", "amount": 1}
    assert "bonus" not in routes["saginaw--detroit"]
    assert routes["detroit--canada"]["link_tiles"][:2] == ["light_train", "ht_resource_coke"]
    venango = routes["erie--venango"]
    assert (venango["kind"], venango["endpoints"], venango["oilfield"], venango["oil_icons"]) == (
        "pipeline", ["erie", "venango"], "venango", 2)
    assert venango["link_tiles"] == ["pipe_vp3", "pipe_vp5", "pipe_money10", "pipe_income2",
                                     "pipe_reserve"]
    canada = next(m for m in board["markets"] if m["location"] == "canada")
    assert (canada["id"], canada["price"]) == ("mkt_canada", 6)
    assert canada["columns"] == [{"resource": "steel", "slot_vp": [0, 0], "initial_cubes": 2},
                                 {"resource": "coke", "slot_vp": [0, 4], "initial_cubes": 1}]
    merchants = {m["location"]: m for m in board["merchants"]}
    assert merchants["the_south"]["adjacent"] == ["baltimore", "cincinnati"]
    assert merchants["canada"]["link_vp"] == 3


def test_points_are_real_geography_inside_the_box_and_apart() -> None:
    board = _board()
    width, height = board["view_box"]["width"], board["view_box"]["height"]
    at = {p["id"]: (p["x"], p["y"]) for p in board["locations"] + board["oilfields"]}
    # approximate real positions, recorded in the layout with a note that they are
    for city in (loc["id"] for loc in DATA["locations"] if loc["type"] == "city"):
        assert {"lat", "lon"} <= set(LAYOUT["locations"][city]), city
    assert "APPROXIMATE" in LAYOUT["meta"]["coordinates_source"]
    assert "PROVISIONAL" in board["coordinates_source"]
    # real geography: Pittsburgh east of Cleveland and south of Erie, Saginaw north of
    # Detroit, Chicago west of Toledo, Philadelphia east of Harrisburg, Baltimore south of it
    assert at["pittsburgh"][0] > at["cleveland"][0] and at["pittsburgh"][1] > at["erie"][1]
    assert at["saginaw"][1] < at["detroit"][1]
    assert at["chicago_whiting"][0] < at["toledo"][0]
    assert at["philadelphia"][0] > at["harrisburg"][0] < at["baltimore"][0]
    assert at["baltimore"][1] > at["harrisburg"][1]
    assert at["venango"][0] > at["cleveland"][0]  # oilfields are projected the same way
    for key, (x, y) in at.items():
        assert 0 < x < width and 0 < y < height, key
    for loc in board["locations"]:
        for slot in loc["slots"]:
            assert 0 < slot["x"] < width and 0 < slot["y"] < height, slot["name"]
            dx, dy = LAYOUT["slot_offsets"][slot["position"]]
            assert (slot["x"], slot["y"]) == (round(loc["x"] + dx, 1), round(loc["y"] + dy, 1))
    for (a, p), (b, q) in itertools.combinations(at.items(), 2):
        assert math.dist(p, q) >= 75, (a, b)
    # the merchants are drawn beside their neighbours
    places = [loc["id"] for loc in board["locations"] if loc["kind"] != "merchant"]
    for m in board["merchants"]:
        nearest = min(places, key=lambda c: math.dist(at[c], at[m["location"]]))
        assert nearest in m["adjacent"], m["location"]


def _refused(data: dict[str, Any], layout: dict[str, Any]) -> str:
    with pytest.raises(BoardMismatch) as caught:
        build_description(RS, data, layout)
    return str(caught.value)


def test_a_board_that_disagrees_with_the_engine_is_refused() -> None:
    data = copy.deepcopy(DATA)
    next(loc for loc in data["locations"] if loc["id"] == "erie")["spaces"].pop()
    assert "erie.1" in _refused(data, LAYOUT)
    data = copy.deepcopy(DATA)
    data["rails"].append({**data["rails"][0], "id": "erie--nowhere"})
    assert "erie--nowhere" in _refused(data, LAYOUT)
    data = copy.deepcopy(DATA)
    data["pipeline_routes"].pop()
    assert "clarksburg--macksburg_burning_springs" in _refused(data, LAYOUT)
    data = copy.deepcopy(DATA)
    data["markets"].pop()
    assert "philadelphia" in _refused(data, LAYOUT)
    layout = copy.deepcopy(LAYOUT)
    del layout["oilfields"]["venango"]
    assert "venango" in _refused(DATA, layout)
    layout = copy.deepcopy(LAYOUT)
    del layout["locations"]["toledo"]
    assert "toledo" in _refused(DATA, layout)
    layout = copy.deepcopy(LAYOUT)
    del layout["slot_positions"]["5"]
    assert "slot positions" in _refused(DATA, layout)
    assert build_description(RS, DATA, LAYOUT)["board"] == _board()


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_each_id_names_the_decision_kinds_that_offer_it(ruleset: str) -> None:
    rs = brass.get_ruleset(ruleset)
    actions = describe_ruleset(ruleset)["actions"]
    for a in actions:
        assert set(a["decisions"]) <= set(rs.decision_names), a["name"]
        assert bool(a["decisions"]) != ("unused" in a["name"]), a["name"]
    decisions = [set(a["decisions"]) for a in actions]
    offered: set[str] = set()
    for seed in range(6):
        game = brass.Game.new(2 + seed % 3, seed, ruleset=ruleset)
        rng = random.Random(seed)
        while not game.is_over:
            options = game.legal_actions()
            for option in options:
                assert option.decision in decisions[option.id], (option.name, option.decision)
            offered.add(game.decision)
            game.apply(rng.choice(options).id)
    assert len(offered) >= len(rs.decision_names) // 2  # the games reached most kinds
