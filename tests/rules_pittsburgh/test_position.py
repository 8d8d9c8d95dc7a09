"""Pittsburgh's JSON position format both ways (docs/PITTSBURGH.md, "Position format"): the
core writes it (pgh_view.c) and reads it back (pgh_position.c), every value checked and named
by its JSON path. Written positions of random games of every player count and both table
sets read back to the identical state (state hash and position); corrupted ones are refused
at the field that is wrong; ruleset and rules-edition mismatches are refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import brass
from brass._core import ffi, lib


def _random_positions(players: int, data: str, seed: int, every: int) -> list[brass.Game]:
    """A game played at random to the end, a copy kept every `every` decisions (and the end)."""
    game = brass.Game.new(players, seed, ruleset="pittsburgh", options={"data": data})
    rng = random.Random(seed)
    kept, step = [game.clone()], 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_ids()))
        step += 1
        if step % every == 0:
            kept.append(game.clone())
    kept.append(game.clone())
    return kept


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("data", ["pittsburgh", "tiny"])
def test_written_positions_read_back_to_the_identical_state(players: int, data: str) -> None:
    for seed in (1, 2):
        for game in _random_positions(players, data, seed + 10 * players, every=37):
            position = game.position()
            back = brass.Game.from_position(position)
            assert back.state_hash() == game.state_hash()
            assert back.position() == position
            # a position does not carry the turn's undo record (docs/UNDO.md; the hash leaves
            # it out): the bytes are the same wherever there is nothing to undo
            if game.undo_depth == 0:
                assert back.snapshot() == game.snapshot()
            # the text itself, as the service passes it, reads the same
            assert brass.Game.from_position(json.dumps(position)).state_hash() == game.state_hash()
            if not game.is_over:  # and plays on identically
                a, b = game.clone(), back
                action = a.legal_ids()[0]
                a.apply(action)
                b.apply(action)
                assert a.state_hash() == b.state_hash()


def _mid_game() -> dict[str, Any]:
    game = brass.Game.new(3, 8, ruleset="pittsburgh")
    rng = random.Random(8)
    for _ in range(120):
        game.apply(rng.choice(game.legal_ids()))
    return game.position()


def _set(path: list[Any], value: Any) -> Any:
    def edit(p: dict[str, Any]) -> None:
        obj = p
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return edit


def _delete(path: list[Any]) -> Any:
    def edit(p: dict[str, Any]) -> None:
        obj = p
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]
    return edit


CORRUPTIONS = [
    (_set(["players", 0, "monney"], 5), "players[0].monney", "unknown key"),
    (_set(["players", 1, "money"], -1), "players[1].money", "between 0 and 9999"),
    (_set(["players", 1, "money"], 1.5), "players[1].money", "whole number"),
    (_set(["players", 0, "money"], "12"), "players[0].money", "must be a number"),
    (_delete(["players", 2, "money"]), "players[2].money", "is required"),
    (_set(["players", 0, "income_level"], 29), "players[0].income_level", "the level of"),
    (_set(["players", 0, "hand_size"], 9), "players[0].hand_size", ""),
    (_set(["players", 0, "whiskey"], 4), "players[0].whiskey", "between 0 and 3"),
    (_set(["players", 0, "mat", "kero_3"], 9), "players[0].mat.kero_3", "at most"),
    (_set(["players", 0, "mat", "kero_9"], 1), "players[0].mat.kero_9", "unknown mat position"),
    (_set(["players", 0, "hand", "atlantis"], 1), "players[0].hand.atlantis", "unknown card"),
    (_set(["players", 0, "facedown"], "atlantis"), "players[0].facedown", "unknown card"),
    (_set(["era"], 3), "era", "between 1 and 2"),
    (_set(["round"], 0), "round", "between 1 and 8"),
    (_set(["phase"], "scout"), "phase", "unknown decision"),
    (_set(["turn_order"], [0, 0, 1]), "turn_order[1]", "listed twice"),
    (_set(["turn_order"], [0, 1]), "turn_order", "3 seats"),
    (_set(["options", "birmingham_overbuild"], True), "options.birmingham_overbuild",
     "unknown value"),
    (_set(["options", "colour"], "red"), "options.colour", "unknown option"),
    (_set(["options", "data"], "tiny"), "options.data", "the position's data"),
    (_set(["options", "two_player_setup"], "official_2p_board (needs data)"),
     "options.two_player_setup", "not implemented"),
    (_set(["data"], "huge"), "data", "unknown table set"),
    (_set(["ruleset"], "catan"), "ruleset", ""),
    (_set(["format"], "brass-position/2"), "format", "brass-position/1"),
    (_set(["rules_edition"], 3), "rules_edition", "rules edition 3; this engine has 2"),
    (_set(["rules_edition"], 0), "rules_edition", ""),
    (_set(["draft_version"], "v2099"), "draft_version", ""),
    (_set(["deck_size"], 99), "deck_size", ""),
    (_set(["seed"], -1), "seed", "2^64"),
    (_set(["seed"], 2**64), "seed", "2^64"),
    (_set(["markets", 0, "price"], 1), "markets[0].price", "printed price"),
    (_set(["markets", 0, "coal"], 9), "markets[0].coal", "at most"),
    (_set(["merchants", 0, "side"], "edge"), "merchants[0].side", "'front' or 'back'"),
    (_set(["oilfields", 0, "id"], "texas"), "oilfields[0].id", "data file's order"),
    (_set(["oilfields", 0, "tile_state"], "lost"), "oilfields[0].tile_state", "unknown"),
    (_set(["quality", 0, "stars"], 9), "quality[0].stars", "printed stars"),
    (_set(["pending", "stage"], "tea"), "pending.stage", "unknown stage"),
    (_set(["pending", "place"], "slot:atlantis.0"), "pending.place", ""),
    (_set(["pending", "need", "coal"], 4), "pending.need.coal", "between 0 and 3"),
    (_set(["decisions_applied"], 2**32), "decisions_applied", ""),
    (_set(["spaces"], [{"slot": "pittsburgh.0", "owner": 7, "tile": "coal_1", "flipped": False,
                        "coal": 1}]), "spaces[0].owner", "between 0 and 2"),
    # consistent in each value, but no game reaches it: the whole-state check names it
    (lambda p: p["discards"].update({"kerosene": p["discards"].get("kerosene", 0) + 1}),
     "cards.kerosene", "inconsistent"),
]


@pytest.mark.parametrize("edit, field, words", CORRUPTIONS)
def test_corrupted_positions_are_refused_at_their_field(edit: Any, field: str,
                                                        words: str) -> None:
    position = _mid_game()
    brass.Game.from_position(copy.deepcopy(position))  # the untouched one reads
    edit(position)
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.from_position(position)
    assert exc.value.code == "BAD_POSITION"
    assert exc.value.field == field, exc.value.message
    assert words in exc.value.message


def test_the_whole_state_check_names_what_the_position_names() -> None:
    """Values each in range but together unreachable are refused by the whole-state check,
    which names the space and the route as the position does, never an internal index."""
    position = _mid_game()
    space = next(s for s in position["spaces"] if "coal" in s and not s["flipped"])
    space["coal"] = 9  # more cubes than its tile makes
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.from_position(position)
    assert exc.value.field == f"spaces[{space['slot']}].cubes", exc.value.message
    assert "inconsistent" in exc.value.message
    position = _mid_game()
    link = next(k for k in position["links"] if k["tile"] == "light_train")
    link["cargo"] = 1  # a light train carries no cargo (only resource heavy trains do)
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.from_position(position)
    assert exc.value.field == f"links[{link['route']}]", exc.value.message


@pytest.mark.parametrize("text, words", [
    ('{"ruleset": "pittsburgh", "ruleset": "pittsburgh"}', "given twice"),
    ('{"ruleset": "pittsburgh", "format": "brass-position/1"} x', "not valid JSON"),
    ("[1, 2]", "not valid JSON"),  # Python's loader takes it; the dispatcher needs an object
])
def test_bad_texts_are_refused(text: str, words: str) -> None:
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.from_position(text)
    assert exc.value.code == "BAD_POSITION"


def test_the_core_reader_names_the_text_for_json_errors() -> None:
    game = brass.Game.new(2, 3, ruleset="pittsburgh")
    text = json.dumps(game.position())
    field, message = ffi.new("char[128]"), ffi.new("char[256]")
    handle = ffi.new("BrassGame *")
    rid = brass.get_ruleset("pittsburgh").id
    for bad in (text[:-1], text.replace('"era"', '"era" "'), "[" * 40 + "]" * 40):
        raw = bad.encode()
        err = lib.brass_position_read(handle, rid, raw, len(raw), field, 128, message, 256)
        assert err == lib.BRASS_E_BAD_POSITION
        assert ffi.string(field) == b"$"
    raw = text.encode()
    assert lib.brass_position_read(handle, rid, raw, len(raw), field, 128, message, 256) == 0
    # Birmingham's positions are read in Python: the core has no reader for them
    bham = brass.get_ruleset("birmingham").id
    assert lib.brass_position_read(handle, bham, raw, len(raw), field, 128, message, 256) \
        == lib.BRASS_E_BAD_ARGUMENT


def test_a_view_is_not_a_position() -> None:
    game = brass.Game.new(2, 3, ruleset="pittsburgh")
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.from_position(game.view(0))
    assert exc.value.field == "format" and "view is not a position" in exc.value.message


def test_a_replay_from_a_pittsburgh_position() -> None:
    """A game made from a position keeps the engine's rewrite in its record and replays."""
    source = _random_positions(4, "pittsburgh", 5, every=50)[2]
    game = brass.Game.from_position(source.position())
    rng = random.Random(1)
    for _ in range(30):
        game.apply(rng.choice(game.legal_ids()))
    record = game.replay_record()
    assert record["ruleset"] == "pittsburgh" and record["position"] == source.position()
    assert brass.Game.replay(record).state_hash() == game.state_hash()
    record.update(ruleset="birmingham", rules_edition=1)
    with pytest.raises(brass.EngineError) as exc:
        brass.Game.replay(record)
    assert exc.value.field == "ruleset"


def test_a_hand_written_position_takes_the_documented_defaults() -> None:
    """Keys left out take the defaults docs/PITTSBURGH.md lists (a study position)."""
    full = brass.Game.new(2, 4, ruleset="pittsburgh").position()
    short = {k: full[k] for k in ("ruleset", "format", "rules_edition", "data", "num_players",
                                  "era", "round", "turn_order", "players", "oilfields",
                                  "markets", "merchants", "quality", "deck", "seed")}
    short["players"] = [{k: p[k] for k in ("money", "hand", "mat", "supply", "facedown")}
                        for p in full["players"]]
    game = brass.Game.from_position(short)
    assert game.position()["players"][0]["income_level"] == 0
    assert game.current_seat == full["turn_order"][0]
    assert game.position()["options"] == full["options"]
