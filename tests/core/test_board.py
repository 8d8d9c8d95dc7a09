"""The board description frontends draw from (brass.board, issue 12 item 4): it matches the
engine's action space id for id, its coordinates are the documented projection of real
town positions, and a board that disagrees with the engine is refused."""

from __future__ import annotations

import copy
import itertools
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import brass
from brass import board as board_module
from brass.board import BoardMismatch, build_description, describe_ruleset, project

from ._support import DATA, REPO

LAYOUT = board_module._load("birmingham_layout.json")
RS = brass.get_ruleset("birmingham")


def _board() -> dict[str, Any]:
    return describe_ruleset("birmingham")["board"]


def _locations() -> dict[str, dict[str, Any]]:
    return {loc["id"]: loc for loc in _board()["locations"]}


def test_every_slot_route_and_merchant_space_of_the_engine_is_on_the_board() -> None:
    board = _board()
    slots = {s["name"]: s["action_id"] for loc in board["locations"] for s in loc["slots"]}
    routes = {r["name"]: r["action_id"] for r in board["routes"]}
    spaces = {s["name"]: s["action_id"] for m in board["merchants"] for s in m["spaces"]}
    for prefix, drawn in (("slot", slots), ("link", routes), ("merchant", spaces)):
        engine = {f"{prefix}:{v}": RS.action_ids[f"{prefix}:{v}"] for v in RS.names_with(prefix)}
        assert drawn == engine, prefix
    assert (len(slots), len(routes), len(spaces)) == (49, 39, 9)
    # the icons are the data file's, the route kinds its canal/rail flags
    for loc in DATA["locations"]:
        drawn_loc = _locations()[loc["id"]]
        assert [s["industries"] for s in drawn_loc["slots"]] == [
            s["industries"] for s in loc["slots"]]
    kinds = {r["id"]: r["kind"] for r in board["routes"]}
    assert kinds["burton_on_trent--walsall"] == "canal_only"
    assert kinds["belper--leek"] == "rail_only" and kinds["belper--derby"] == "canal_and_rail"
    three_way = {r["id"]: r["connects"] for r in board["routes"]}["kidderminster--worcester"]
    assert sorted(three_way) == ["farm_brewery_south", "kidderminster", "worcester"]


def test_the_action_space_reasons_and_options_are_the_engines() -> None:
    d = describe_ruleset("birmingham")
    assert [a["id"] for a in d["actions"]] == list(range(RS.num_actions))
    for a in d["actions"]:
        assert a["name"] == RS.action_names[a["id"]]
        sense = brass.engine.meaning(a["id"])
        assert a["kind"] == sense["kind"] and a["location"] == sense.get("location", "")
    assert d["actions"][RS.action_ids["slot:birmingham.0"]] == {
        "id": RS.action_ids["slot:birmingham.0"], "name": "slot:birmingham.0", "kind": "slot",
        "value": "birmingham.0", "location": "birmingham",
        "decisions": ["build_slot", "coal", "iron", "beer", "sell_tile", "shortfall"]}
    assert d["actions"][RS.action_ids["done"]]["value"] == ""
    assert d["decision_kinds"] == list(RS.decision_names)
    assert (d["provisional"], d["placeholders"]) == (False, [])
    # the engine's option table, and as defaults what a game made without options gets
    assert d["options"] == [
        {"key": "beginner", "type": "bool", "default": False, "allowed": [], "min": None,
         "max": None, "description": RS.options[0].description},
        {"key": "manufacturer_iv_cost", "type": "int", "default": 8, "allowed": [8, 14],
         "min": None, "max": None, "description": RS.options[1].description},
        {"key": "undo", "type": "bool", "default": True, "allowed": [], "min": None,
         "max": None, "description": RS.options[2].description}]
    made = brass.Game.new(2, seed=1).replay_record()["options"]
    assert {o["key"]: o["default"] for o in d["options"]} == {
        k: v for k, v in made.items() if k != "auto_resolve"}
    messages = {r["code"]: r["message"] for r in d["reasons"]}
    assert "LEGAL" not in messages
    assert messages["NOT_ENOUGH_MONEY"] == "not enough money"
    # every reason a game gives is listed, with the message its errors carry
    game = brass.Game.new(4, seed=3)
    for _ in range(60):
        for _action, reason, message in game.unavailable():
            assert messages[reason] == message
        game.apply(game.legal_ids()[0])


def test_projection_is_equirectangular_at_the_mean_latitude_y_south() -> None:
    layout = {"view_box": {"width": 1000, "height": 1000, "margin": 100},
              "locations": {"a": {"lat": 50.0, "lon": 0.0}, "b": {"lat": 51.0, "lon": 1.0},
                            "far": {"lat": 49.0, "lon": 0.0, "nudge": [0, -50]},
                            "farm": {"anchor": ["a", "b"], "nudge": [10, -5]}}}
    k = math.cos(math.radians(50.5))  # only a and b are board towns
    points = project(layout, ["a", "b"])
    # v spans 1 degree, u spans k < 1: the height fills 800 units, the width is centred
    assert points["a"] == (round(500 - 400 * k, 1), 900.0)
    assert points["b"] == (round(500 + 400 * k, 1), 100.0)
    assert points["far"] == (round(500 - 400 * k, 1), 1700.0 - 50)  # a degree south, nudged
    assert points["farm"] == (510.0, 495.0)  # the anchors' midpoint plus its nudge


def test_board_points_keep_real_geography_and_stay_legible() -> None:
    locs = _locations()
    box = _board()["view_box"]

    def at(name: str) -> tuple[float, float]:
        return locs[name]["x"], locs[name]["y"]

    # real geography: Derby east of Stoke, Worcester south of Kidderminster, Leek north of
    # Birmingham, Coventry east of Birmingham
    assert at("derby")[0] > at("stoke_on_trent")[0]
    assert at("worcester")[1] > at("kidderminster")[1]
    assert at("leek")[1] < at("birmingham")[1] < at("redditch")[1]
    assert at("coventry")[0] > at("birmingham")[0]
    for loc in locs.values():
        assert 0 < loc["x"] < box["width"] and 0 < loc["y"] < box["height"], loc["id"]
    for a, b in itertools.combinations(locs.values(), 2):
        assert math.dist((a["x"], a["y"]), (b["x"], b["y"])) >= 75, (a["id"], b["id"])
    # slots sit at their labelled offsets from the town's point
    for loc in locs.values():
        for slot in loc["slots"]:
            dx, dy = LAYOUT["slot_offsets"][slot["position"]]
            assert (slot["x"], slot["y"]) == (round(loc["x"] + dx, 1), round(loc["y"] + dy, 1))
    # the farm breweries: north is west of Cannock (its only link) and nearest to it
    north = at("farm_brewery_north")
    assert north[0] < at("cannock")[0]
    towns = [k for k, v in locs.items() if v["kind"] == "town"]
    assert min(towns, key=lambda t: math.dist(at(t), north)) == "cannock"
    # south lies beside the Kidderminster-Worcester link: nearer its midpoint than any town
    south = at("farm_brewery_south")
    middle = tuple((p + q) / 2 for p, q in zip(at("kidderminster"), at("worcester"),
                                                strict=True))
    assert math.dist(south, middle) < min(math.dist(south, at(t)) for t in towns)
    # every merchant is drawn nearest to one of its board neighbours
    for m in _board()["merchants"]:
        nearest = min(towns, key=lambda t: math.dist(at(t), at(m["location"])))
        assert nearest in m["adjacent"], m["location"]


def _refused(data: dict[str, Any], layout: dict[str, Any]) -> str:
    with pytest.raises(BoardMismatch) as caught:
        build_description(RS, data, layout)
    return str(caught.value)


def test_a_board_that_disagrees_with_the_engine_is_refused() -> None:
    data = copy.deepcopy(DATA)
    dudley = next(loc for loc in data["locations"] if loc["id"] == "dudley")
    dudley["slots"].pop()
    assert "slot" in _refused(data, LAYOUT) and "dudley.1" in _refused(data, LAYOUT)
    data = copy.deepcopy(DATA)
    data["links"].append({**data["links"][0], "id": "belper--nowhere"})
    assert "belper--nowhere" in _refused(data, LAYOUT)
    data = copy.deepcopy(DATA)
    data["merchants"]["locations"][0]["spaces"].append({"index": 5, "player_counts": [4]})
    assert "shrewsbury.5" in _refused(data, LAYOUT)
    layout = copy.deepcopy(LAYOUT)
    del layout["locations"]["tamworth"]
    assert "tamworth" in _refused(DATA, layout)
    layout = copy.deepcopy(LAYOUT)
    del layout["slot_offsets"]["SW"]
    assert "SW" in _refused(DATA, layout)
    # the real data pass
    assert build_description(RS, DATA, LAYOUT)["board"] == _board()


def test_a_ruleset_without_drawing_data_is_described_without_a_board() -> None:
    bare = build_description(RS, None, None)
    full = describe_ruleset("birmingham")
    assert "board" not in bare and bare == {k: v for k, v in full.items() if k != "board"}


def test_unknown_rulesets_are_refused() -> None:
    with pytest.raises(brass.EngineError) as caught:
        describe_ruleset("monopoly")
    assert caught.value.code == "INVALID_ARGUMENT" and caught.value.field == "ruleset"


def test_a_built_package_ships_the_board_data(tmp_path: Path) -> None:
    """A wheel (`pip install .`) has no core_c/: build_py puts the data files in brass/data,
    the first place data_dir() looks."""
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
                   cwd=REPO, check=True, capture_output=True)
    shipped = tmp_path / "brass" / "data"
    for name in board_module.BOARD_FILES["birmingham"]:
        assert (shipped / name).read_bytes() == (board_module.data_dir() / name).read_bytes()
    assert (tmp_path / "brass" / "board.py").is_file()
