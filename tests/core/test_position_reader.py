"""The position reader (docs/POSITION.md, issue 10 F): errors name the JSON path of the
offending field, and positions no game can reach are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import brass
from brass import EngineError

Position = dict[str, Any]


def start(players: int = 2) -> Position:
    """The opening position of a game (canal era, empty board), as the writer gives it."""
    return json.loads(json.dumps(brass.Game.new(players, seed=5).position()))


def refused_at(pos: Position, field: str) -> None:
    with pytest.raises(EngineError) as exc:
        brass.Game.from_position(pos)
    assert exc.value.code == "BAD_POSITION"
    assert exc.value.field == field, (exc.value.field, exc.value.message)


def place(pos: Position, slot: str, industry: str, level: int, cubes: int, owner: int = 0,
          taken: int | None = None) -> Position:
    pos["slots"][slot] = {"owner": owner, "industry": industry, "level": level,
                          "flipped": False, "cubes": cubes}
    if taken is not None:
        pos["player_state"][owner]["mat_taken"][industry] = taken
    return pos


# ---- impossible positions (decided per case in docs/POSITION.md, "What is refused") ----

def test_a_tile_must_have_come_off_the_mat_lowest_first() -> None:
    """Coal tiles on the mat: I, II, II, III, III, IV, IV. A coal III on the board means at
    least 4 were taken; with 1 (only the coal I) the position is refused."""
    for taken in (1, 3):
        refused_at(place(start(), "dudley.0", "coal", 3, 4, taken=taken),
                   "player_state[0].mat_taken.coal")
    g = brass.Game.from_position(place(start(), "dudley.0", "coal", 3, 4, taken=4))
    assert g.position()["slots"]["dudley.0"]["level"] == 3
    # two coal II need the first three tiles
    pos = place(start(), "dudley.0", "coal", 2, 3, taken=2)
    refused_at(place(pos, "cannock.1", "coal", 2, 3), "player_state[0].mat_taken.coal")


def test_a_canal_era_brewery_holds_at_most_one_barrel() -> None:
    """Ruling 5: a brewery is built with 1 barrel in the Canal Era (2 in the Rail Era)."""
    refused_at(place(start(), "stafford.0", "brewery", 2, 2, taken=3),
               "slots.stafford.0.cubes")
    brass.Game.from_position(place(start(), "stafford.0", "brewery", 2, 1, taken=3))
    rail = place(start(), "stafford.0", "brewery", 2, 2, taken=3)
    rail["era"] = "rail"
    brass.Game.from_position(rail)


def test_tiles_of_the_wrong_era_are_refused() -> None:
    """Ruling 19: level-I tiles leave the board at the end of the Canal Era and cannot be
    built in the Rail Era (pottery I can); rail-only tiles (pottery V, brewery IV) cannot be
    on the board in the Canal Era."""
    rail = place(start(), "worcester.0", "cotton", 1, 0, taken=1)
    rail["era"] = "rail"
    refused_at(rail, "slots.worcester.0.level")
    rail = place(start(), "stafford.1", "pottery", 1, 0, taken=1)
    rail["era"] = "rail"
    brass.Game.from_position(rail)
    refused_at(place(start(), "stafford.1", "pottery", 5, 0, taken=5), "slots.stafford.1.level")


# ---- errors name the JSON path ----

@pytest.mark.parametrize("edit, field", [
    (lambda p: p["merchants"].update({"shrewsbury.0": {"goods": None, "beer": 1}}),
     "merchants.shrewsbury.0.beer"),
    (lambda p: p.update(decision="build_slot", pending={"action": "build", "card": "iron"}),
     "pending.industry"),
    (lambda p: p.update(decision="coal"), "pending.coal_left"),
    (lambda p: p.update(decision="develop"), "pending.action"),
    (lambda p: p["pending"].update(count=1), "pending.count"),
    (lambda p: p["player_state"][1].update(money=10000), "player_state[1].money"),
])
def test_consistency_errors_name_the_json_path(edit: Any, field: str) -> None:
    """brass_validate's field names are JSON paths of the format (they were e.g.
    players[0].mat, merchants[4].beer, pending#14)."""
    pos = start()
    edit(pos)
    refused_at(pos, field)


# ---- the documented example, unknown and derived keys, size ----

def _doc_example() -> Position:
    text = (Path(__file__).resolve().parents[2] / "docs" / "POSITION.md").read_text()
    block = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert block
    return json.loads(block.group(1))


def test_the_documented_example_is_a_position_the_engine_writes_back() -> None:
    example = _doc_example()
    g = brass.Game.from_position(example)
    assert g.position() == example
    assert g.decisions_applied == example["decisions_applied"]
    assert g.legal_ids()


@pytest.mark.parametrize("path, key", [
    ((), "monney"),
    (("options",), "auto_reslove"),
    (("pending",), "coal"),
    (("markets",), "beer"),
    (("wild_piles",), "locations"),
    (("merchants", "oxford.0"), "bonus"),
    (("slots", "coalbrookdale.2"), "owner_name"),
    (("player_state", 1), "monney"),
    ((), "deck_size"),
])
def test_unknown_keys_are_refused_with_their_path(path: tuple[Any, ...], key: str) -> None:
    """A misspelt key was ignored (its field took the default): now it is an error."""
    pos = _doc_example()
    obj: Any = pos
    for k in path:
        obj = obj[k]
    obj[key] = 1
    where = ".".join(str(k) for k in path if not isinstance(k, int))
    if path and isinstance(path[-1], int):
        where = f"{path[0]}[{path[1]}]"
    refused_at(pos, f"{where}.{key}" if where else key)


def test_derived_keys_must_agree() -> None:
    pos = _doc_example()
    pos["player_state"][0]["income_level"] = 3
    refused_at(pos, "player_state[0].income_level")
    pos = _doc_example()
    pos["player_state"][1]["hand_size"] = 7
    refused_at(pos, "player_state[1].hand_size")
    pos = _doc_example()  # derived keys may be left out
    for ps in pos["player_state"]:
        del ps["income_level"], ps["hand_size"]
    assert brass.Game.from_position(pos).position() == _doc_example()


def test_decisions_applied_is_read_back() -> None:
    pos = _doc_example()
    pos["decisions_applied"] = 1234
    assert brass.Game.from_position(pos).position()["decisions_applied"] == 1234
    pos["decisions_applied"] = -1
    refused_at(pos, "decisions_applied")


def test_position_text_is_bounded_and_the_game_keeps_the_engines_rewrite() -> None:
    """A game made from a position kept the caller's object (megabytes of unknown fields in
    the service); now unknown keys are refused, the text is capped and the record holds the
    core's own rewrite."""
    from brass.position import MAX_POSITION_CHARS

    text = json.dumps(_doc_example(), indent=1)
    assert len(text) < MAX_POSITION_CHARS
    g = brass.Game.from_position(text)
    assert g.replay_record()["position"] == _doc_example()
    long = text[:-1] + " " * (MAX_POSITION_CHARS - len(text) + 1) + "}"
    with pytest.raises(EngineError) as exc:
        brass.Game.from_position(long)
    assert (exc.value.code, exc.value.field) == ("BAD_POSITION", "$")
    pos = _doc_example()
    g = brass.Game.from_position(pos)
    pos["round"] = 7  # the caller's object is not kept
    assert g.replay_record()["position"]["round"] == 2
    assert brass.Game.replay(g.replay_record()).position() == g.position()
