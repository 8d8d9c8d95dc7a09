"""brass_summary (`Game.summary`): a spectator's numbers in each ruleset's documented layout
(docs/ENGINE_API.md, "The summary"), read against the spectator view."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import brass
from brass._core import ffi, lib

BHAM_HEAD, BHAM_PLAYER = 8, 5
PGH_HEAD, PGH_PLAYER = 10, 8
MAX_PLAYERS = 4


def _positions(ruleset: str, players: int, seed: int, every: int = 7) -> list[brass.Game]:
    """Every `every`-th position of a random game to its end (the end included)."""
    game = brass.Game.new(players, seed=seed, ruleset=ruleset)
    rng = random.Random(seed)
    kept = []
    step = 0
    while not game.is_over:
        if step % every == 0:
            kept.append(game.clone())
        game.apply(rng.choice(game.legal_ids()))
        step += 1
    kept.append(game)
    return kept


def _check_birmingham(game: brass.Game) -> None:
    s, view = game.summary(), game.view(None)
    rs = brass.get_ruleset("birmingham")
    slots, links = rs.names_with("slot"), rs.names_with("link")
    industries = rs.names_with("industry")
    n = view["players"]
    assert s[:6] == [n, view["game_over"], ["canal", "rail"].index(view["era"]), view["round"],
                     view["deck_size"], view["options"]["beginner"]]
    for p in range(MAX_PLAYERS):
        row = s[BHAM_HEAD + BHAM_PLAYER * p: BHAM_HEAD + BHAM_PLAYER * (p + 1)]
        if p >= n:
            assert row == [0] * BHAM_PLAYER
            continue
        ps = view["player_state"][p]
        assert row[0] == ps["money"] and row[1] == ps["vp"]
        assert row[3] == ps["income_level"] and row[4] == ps["hand_size"]
    at = BHAM_HEAD + BHAM_PLAYER * MAX_PLAYERS
    tiles = {}
    for k in range(at, at + 5 * s[6], 5):
        slot, owner, industry, level, flipped = s[k:k + 5]
        tiles[slots[slot]] = {"owner": owner, "industry": industries[industry],
                              "level": level, "flipped": bool(flipped)}
    assert tiles == {name: {key: tile[key] for key in ("owner", "industry", "level", "flipped")}
                     for name, tile in view["slots"].items()}
    at += 5 * s[6]
    assert {links[s[k]]: s[k + 1] for k in range(at, at + 2 * s[7], 2)} == view["links"]
    assert len(s) == at + 2 * s[7]


def _check_pittsburgh(game: brass.Game) -> None:
    s, view = game.summary(), game.view(None)
    rs = brass.get_ruleset("pittsburgh")
    slots, rails = rs.names_with("slot"), rs.names_with("link")
    link_tiles = rs.names_with("link_tile")
    pipes = rs.names_with("pipeline")
    n = view["num_players"]
    assert s[:6] == [n, view["game_over"], view["era"], view["round"], view["deck_size"], 0]
    for p in range(MAX_PLAYERS):
        row = s[PGH_HEAD + PGH_PLAYER * p: PGH_HEAD + PGH_PLAYER * (p + 1)]
        if p >= n:
            assert row == [0] * PGH_PLAYER
            continue
        pl = view["players"][p]
        empty = sum(1 for left in pl["mat"].values() if left == 0)
        assert row == [pl["money"], pl["vp"], pl["income_space"], pl["income_level"],
                       pl["whiskey"], pl["hand_size"], pl["heavy_built"], empty]
    at = PGH_HEAD + PGH_PLAYER * MAX_PLAYERS
    kinds = _tile_kinds()
    spaces = [{"slot": slots[s[k]], "owner": s[k + 1], "tile": kinds[s[k + 2]],
               "flipped": bool(s[k + 3])} for k in range(at, at + 4 * s[6], 4)]
    assert spaces == [{key: space[key] for key in ("slot", "owner", "tile", "flipped")}
                      for space in view["spaces"]]
    at += 4 * s[6]
    links = [{"route": rails[s[k]], "owner": s[k + 1], "tile": link_tiles[s[k + 2]]}
             for k in range(at, at + 3 * s[7], 3)]
    at += 3 * s[7]
    links += [{"route": pipes[s[k]], "owner": s[k + 1], "tile": link_tiles[s[k + 2]]}
              for k in range(at, at + 3 * s[8], 3)]
    assert links == [{key: link[key] for key in ("route", "owner", "tile")}
                     for link in view["links"]]
    at += 3 * s[8]
    fields = [{"oil_city_owner": s[k], "oil_city_flipped": bool(s[k + 1]),
               "oil_city_barrels": s[k + 2]} for k in range(at, at + 3 * s[9], 3)]
    assert fields == [{key: field[key] for key in fields[0]} for field in view["oilfields"]]
    assert len(s) == at + 3 * s[9]


def _tile_kinds() -> list[str]:
    """Pittsburgh's tile kinds in the data file's order (the core's tile index)."""
    package = Path(brass.__file__).resolve().parent
    for data in (package / "data" / "pittsburgh.json",
                 package.parent.parent / "data" / "pittsburgh.json"):
        if data.is_file():
            return [t["id"] for t in json.loads(data.read_text())["industries"]["tiles"]]
    raise FileNotFoundError("pittsburgh.json")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_summary_holds_the_spectator_views_numbers(ruleset: str, players: int) -> None:
    check = _check_birmingham if ruleset == "birmingham" else _check_pittsburgh
    positions = _positions(ruleset, players, seed=players)
    assert positions[-1].is_over
    for game in positions:
        check(game)


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_summary_refuses_a_short_buffer_and_fits_its_cap(ruleset: str) -> None:
    game = _positions(ruleset, 4, seed=9, every=50)[-2]
    n = len(game.summary())
    assert 0 < n <= lib.BRASS_SUMMARY_CAP
    out = ffi.new("int32_t[]", lib.BRASS_SUMMARY_CAP)
    assert lib.brass_summary(game._g, out, 8) == -lib.BRASS_E_BUFFER
    assert lib.brass_summary(game._g, ffi.NULL, lib.BRASS_SUMMARY_CAP) == -lib.BRASS_E_BAD_ARGUMENT


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_summaries_after_actions_are_those_of_the_actions_applied(ruleset: str) -> None:
    for game in _positions(ruleset, 3, seed=11, every=40)[:-1]:
        listed, _ = game.compound_ids(limit=300)
        before = game.snapshot()
        summaries = game.summaries_after(listed)
        assert game.snapshot() == before  # the game is unchanged
        assert len(summaries) == len(listed)
        for ids, summary in zip(listed, summaries, strict=True):
            trial = game.clone()
            trial.apply_compound(ids)
            assert summary == trial.summary()
    assert game.summaries_after([]) == []


def test_a_refused_action_among_summaries_is_named_by_its_index() -> None:
    game = brass.Game.new(2, seed=3)
    listed, _ = game.compound_ids(limit=10)
    with pytest.raises(brass.EngineError) as refused:
        game.summaries_after([listed[0], listed[1][:1]])  # an action's first id only
    assert refused.value.code == "ILLEGAL_ACTION" and "actions[1]" in refused.value.message
    with pytest.raises(brass.EngineError) as empty:
        game.summaries_after([listed[0], []])
    assert empty.value.code == "INVALID_ARGUMENT"
