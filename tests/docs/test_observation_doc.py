"""docs/ENGINE_API.md's observation tables are the layout: real vectors decode by them.

The tables are parsed from the document; every row must tile the used part of the vector
exactly once, and each row's numbers are compared with what the seat's view says (rows this
test cannot read from a view are listed in UNREAD and checked for range only).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import brass

DOC = Path(__file__).resolve().parents[2] / "docs" / "ENGINE_API.md"
HEADING = re.compile(r"^### (\w+) \((\d+) floats, (\d+) used\)$", re.M)
ROW = re.compile(r"^\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| `([\w.]+)` \| .* \|$")


class Row(NamedTuple):
    offset: int
    repeat: int
    stride: int
    width: int
    key: str


def _tables() -> dict[str, tuple[int, int, list[Row]]]:
    text = DOC.read_text(encoding="utf-8")
    tables = {}
    for match in HEADING.finditer(text):
        rows = []
        lines = text[match.end():].splitlines()
        first = next(n for n, line in enumerate(lines) if line.startswith("|"))
        for line in lines[first + 2:]:  # after the header and its rule
            if not line.startswith("|"):
                break
            parsed = ROW.match(line)
            assert parsed, f"unreadable table row: {line}"
            rows.append(Row(*map(int, parsed.groups()[:4]), parsed.group(5)))
        tables[match.group(1).lower()] = (int(match.group(2)), int(match.group(3)), rows)
    return tables


TABLES = _tables()


def _onehot(index: int | None, width: int) -> list[float]:
    out = [0.0] * width
    if index is not None:
        out[index] = 1.0
    return out


def _scaled(value: float, scale: float) -> float:
    return max(-1.0, min(1.0, value / scale))


class Seen(NamedTuple):
    """What the decoders read: the seat's view and the names of the ruleset."""

    view: dict[str, Any]
    seat: int
    players: int
    names: Callable[[str], tuple[str, ...]]
    kinds: list[str]

    def rel(self, owner: int | None) -> int | None:
        return None if owner is None or owner < 0 else (owner - self.seat) % self.players

    def player(self, i: int, key: str) -> Any:
        state = self.view.get("player_state") or self.view["players"]
        return state[(self.seat + i) % self.players][key] if i < self.players else None


def _player(key: str, scale: float, shift: float = 0.0) -> Callable[[Seen, int], list[float]]:
    def read(s: Seen, i: int) -> list[float]:
        value = s.player(i, key)
        return [0.0 if value is None else _scaled(value - shift, scale)]
    return read


def _pending_open(s: Seen) -> bool:
    return s.view["decision"] not in ("action", "shortfall", "game_over")


BHAM_GOODS = ("cotton", "manufacturer", "pottery")
BHAM_TILES = {"cotton": 11, "manufacturer": 11, "pottery": 5, "coal": 7, "iron": 4,
              "brewery": 7}


def _bham_slot(s: Seen, i: int) -> dict[str, Any] | None:
    return s.view["slots"].get(s.names("slot")[i])


def _bham_merchant(s: Seen, i: int) -> dict[str, Any]:
    return s.view["merchants"][s.names("merchant")[i]]


def _counts(s: Seen, table: dict[str, int], scale: float) -> list[float]:
    return [table.get(card, 0) / scale for card in s.names("card")]


def _bham_hand(s: Seen, i: int) -> list[float]:
    me = s.view["player_state"][s.seat]
    return _counts(s, {**me["hand"], **(me.get("wild_cards") or {})}, 8)


def _slot_field(read: Callable[[dict[str, Any]], list[float]], width: int
                ) -> Callable[[Seen, int], list[float]]:
    def decode(s: Seen, i: int) -> list[float]:
        slot = _bham_slot(s, i)
        return [0.0] * width if slot is None else read(slot)
    return decode


BIRMINGHAM: dict[str, Callable[[Seen, int], list[float]]] = {
    "slot.owner": lambda s, i: _onehot(s.rel((_bham_slot(s, i) or {}).get("owner")), 4),
    "slot.industry": _slot_field(
        lambda t: _onehot(brass.birmingham_names.INDUSTRIES.index(t["industry"]), 6), 6),
    "slot.level": _slot_field(lambda t: [t["level"] / 8], 1),
    "slot.flipped": _slot_field(lambda t: [float(t["flipped"])], 1),
    "slot.cubes": _slot_field(lambda t: [t["cubes"] / 6], 1),
    "link.owner": lambda s, i: _onehot(s.rel(s.view["links"].get(s.names("link")[i])), 4),
    "market.coal": lambda s, i: [s.view["markets"]["coal"] / 14],
    "market.iron": lambda s, i: [s.view["markets"]["iron"] / 10],
    "merchant.accepts": lambda s, i: [float(g in (_bham_merchant(s, i)["goods"] or ()))
                                      for g in BHAM_GOODS],
    "merchant.beer": lambda s, i: [float(_bham_merchant(s, i)["beer"])],
    "player.present": lambda s, i: [float(i < s.players)],
    "player.money": _player("money", 200),
    "player.income": _player("income_level", 30),
    "player.vp": _player("vp", 200),
    "player.spent": _player("spent", 200),
    "player.links_left": _player("links_left", 14),
    "player.hand_size": _player("hand_size", 8),
    "player.mat_taken": lambda s, i: (
        [0.0] * 6 if i >= s.players else
        [s.player(i, "mat_taken")[name] / BHAM_TILES[name]
         for name in brass.birmingham_names.INDUSTRIES]),
    "hand": _bham_hand,
    "deck": lambda s, i: [s.view["deck_size"] / 64],
    "era": lambda s, i: [float(s.view["era"] == "rail")],
    "round": lambda s, i: [s.view["round"] / 10],
    "actions_left": lambda s, i: [s.view["actions_left"] / 2],
    "my_turn": lambda s, i: [float(s.view["current"] == s.seat and not s.view["game_over"])],
    "decision": lambda s, i: _onehot(s.kinds.index(s.view["decision"]), len(s.kinds)),
    "pending.action": lambda s, i: _onehot(
        brass.birmingham_names.ACTION_TYPES.index(s.view["pending"]["action"])
        if _pending_open(s) and s.view["pending"]["action"] else None, 7),
    "pending.industry": lambda s, i: _onehot(
        brass.birmingham_names.INDUSTRIES.index(s.view["pending"]["industry"])
        if _pending_open(s) and s.view["pending"]["industry"] else None, 6),
    "pending.coal": lambda s, i: [s.view["pending"]["coal_left"] / 2],
    "pending.iron": lambda s, i: [s.view["pending"]["iron_left"] / 2],
    "pending.beer": lambda s, i: [s.view["pending"]["beer_left"] / 2],
    "pending.count": lambda s, i: [s.view["pending"]["count"] / 2],
    "discards": lambda s, i: _counts(s, s.view["discards"], 8),
    "wild_pile.location": lambda s, i: [s.view["wild_piles"]["location"] / 4],
    "wild_pile.industry": lambda s, i: [s.view["wild_piles"]["industry"] / 4],
}


def _pgh_space(s: Seen, i: int) -> dict[str, Any] | None:
    name = s.names("slot")[i]
    return next((space for space in s.view["spaces"] if space["slot"] == name), None)


def _pgh_quality(s: Seen, i: int, read: Callable[[dict[str, Any]], float]) -> list[float]:
    slots = s.view["quality"]
    return [read(slots[i]) if i < len(slots) else 0.0]


PGH_DATA = json.loads((DOC.parents[1] / "core_c" / "data" / "pittsburgh.json").read_text())
PGH_INDUSTRIES = ("kerosene", "coal", "manufacturing", "automobile", "iron_steel",
                  "skyscraper", "coke", "oil_city", "polyphase", "locomotive")
PGH_TILE_INDUSTRY = {
    position["id"]: next(t["industry"] for t in PGH_DATA["industries"]["tiles"]
                         if t["id"] == position["tile"])
    for position in PGH_DATA["player_mat"]["positions"]}
PGH_MERCHANT_TILES = {t["id"]: t for t in PGH_DATA["merchant_tiles"]}
PGH_SPACE_KEYS = {"slot", "owner", "tile", "flipped"}  # the rest of a space are its cubes


def _pgh_named(s: Seen, kind: str, i: int, items: list[dict[str, Any]], key: str
               ) -> dict[str, Any] | None:
    name = s.names(kind)[i]
    return next((item for item in items if item[key] == name), None)


def _pgh_rail(s: Seen, i: int) -> dict[str, Any] | None:
    return _pgh_named(s, "link", i, s.view["links"], "route")


def _pgh_pipe(s: Seen, i: int) -> dict[str, Any] | None:
    return _pgh_named(s, "pipeline", i, s.view["links"], "route")


def _pgh_merchant(s: Seen, i: int) -> dict[str, Any] | None:
    location = s.names("merchant")[i].split(".")[0]
    return next((m for m in s.view["merchants"]
                 if m["location"] == location and m["tile"] is not None), None)


def _pgh_field(s: Seen, i: int, read: Callable[[dict[str, Any]], float]) -> list[float]:
    fields = s.view["oilfields"]
    return [read(fields[i]) if i < len(fields) else 0.0]


def _pgh_supply(s: Seen, i: int, kind: Callable[[str], bool], scale: float) -> list[float]:
    supply = s.player(i, "supply")
    return [0.0 if supply is None else sum(n for t, n in supply.items() if kind(t)) / scale]


def _pgh_market(s: Seen, i: int) -> list[float]:
    markets = s.view["markets"]
    if i >= len(markets):
        return [0.0, 0.0]
    return [n / 4 for key, n in markets[i].items() if key not in ("id", "price")]


def _pgh_accepts(s: Seen, i: int) -> list[float]:
    merchant = _pgh_merchant(s, i)
    if merchant is None:
        return [0.0] * 3
    accepts = PGH_MERCHANT_TILES[merchant["tile"]][merchant["side"]]["accepts"]
    return [float(good in accepts) for good in ("kerosene", "manufacturing", "automobile")]


PITTSBURGH: dict[str, Callable[[Seen, int], list[float]]] = {
    "space.owner": lambda s, i: _onehot(s.rel((_pgh_space(s, i) or {}).get("owner")), 4),
    "space.industry": lambda s, i: _onehot(
        PGH_INDUSTRIES.index(PGH_TILE_INDUSTRY[_pgh_space(s, i)["tile"]])
        if _pgh_space(s, i) else None, 10),
    "space.flipped": lambda s, i: [float((_pgh_space(s, i) or {}).get("flipped", False))],
    "space.cubes": lambda s, i: [sum(n for key, n in (_pgh_space(s, i) or {}).items()
                                     if key not in PGH_SPACE_KEYS) / 8],
    "rail.owner": lambda s, i: _onehot(s.rel((_pgh_rail(s, i) or {}).get("owner")), 4),
    "rail.heavy": lambda s, i: [float((_pgh_rail(s, i) or {}).get("tile", "light_train")
                                      .startswith("ht_"))],
    "rail.cargo": lambda s, i: [float((_pgh_rail(s, i) or {}).get("cargo", 0))],
    "pipe.owner": lambda s, i: _onehot(s.rel((_pgh_pipe(s, i) or {}).get("owner")), 4),
    "pipe.reserve": lambda s, i: [float((_pgh_pipe(s, i) or {}).get("tile") == "pipe_reserve")],
    "oilfield.barrels": lambda s, i: _pgh_field(s, i, lambda f: f["barrels"] / 10),
    "oilfield.pending": lambda s, i: _pgh_field(s, i, lambda f: f["pending"] / 10),
    "oilfield.my_oil_city": lambda s, i: _pgh_field(
        s, i, lambda f: float(f["oil_city_owner"] == s.seat)),
    "oilfield.other_oil_city": lambda s, i: _pgh_field(
        s, i, lambda f: float(f["oil_city_owner"] not in (-1, s.seat))),
    "oilfield.oil_city_barrels": lambda s, i: _pgh_field(
        s, i, lambda f: f["oil_city_barrels"] / 10),
    "market.filled": _pgh_market,
    "merchant.present": lambda s, i: [float(_pgh_merchant(s, i) is not None)],
    "merchant.back": lambda s, i: [float((_pgh_merchant(s, i) or {}).get("side") == "back")],
    "merchant.accepts": _pgh_accepts,
    "player.light_trains": lambda s, i: _pgh_supply(s, i, lambda t: t == "light_train", 9),
    "player.heavy_trains": lambda s, i: _pgh_supply(s, i, lambda t: t.startswith("ht_"), 7),
    "player.pipelines": lambda s, i: _pgh_supply(s, i, lambda t: t.startswith("pipe_"), 6),
    "player.empty_positions": lambda s, i: [
        0.0 if i >= s.players else
        sum(1 for left in s.player(i, "mat").values() if left == 0) / 22],
    "player.mat_left": lambda s, i: [
        0.0 if i >= s.players else s.player(i, "mat").get(position, 0) / 3
        for position in s.names("tile")],
    "quality.available": lambda s, i: _pgh_quality(s, i, lambda q: float(q["available"])),
    "quality.stars": lambda s, i: _pgh_quality(s, i, lambda q: q["stars"] / 10),
    "player.present": lambda s, i: [float(i < s.players)],
    "player.money": _player("money", 200),
    "player.vp": _player("vp", 200),
    "player.income": _player("income_level", 30),
    "player.spent": _player("spent", 200),
    "player.whiskey": _player("whiskey", 3),
    "player.hand_size": _player("hand_size", 8),
    "player.heavy_built": _player("heavy_built", 7),
    "hand": lambda s, i: _counts(s, s.view["players"][s.seat]["hand"], 8),
    "discards": lambda s, i: _counts(s, s.view["discards"], 8),
    "deck": lambda s, i: [s.view["deck_size"] / 64],
    "era": lambda s, i: [s.view["era"] - 1.0],
    "round": lambda s, i: [s.view["round"] / 8],
    "actions_left": lambda s, i: [s.view["actions_left"] / 2],
    "my_turn": lambda s, i: [float(s.view["current"] == s.seat and not s.view["game_over"])],
    "decision": lambda s, i: _onehot(s.kinds.index(s.view["phase"]), len(s.kinds)),
    "pending.unused": lambda s, i: [0.0] * 4,
}
# Pittsburgh's action in progress is not in a seat's view: checked for range and layout.
UNREAD = {"pending.action", "pending.need", "pending.stars", "pending.count",
          "pending.links_placed", "pending.free_develops"}
DECODERS = {"birmingham": BIRMINGHAM, "pittsburgh": PITTSBURGH}


def _positions(ruleset: str) -> list[brass.Game]:
    """Games of 2-4 players at every 31st decision of a random game, and at their end."""
    games = []
    for players in (2, 3, 4):
        rng = random.Random(players)
        game = brass.Game.new(players, seed=players * 11, ruleset=ruleset)
        while not game.is_over:
            if game.version % 31 == 0:
                games.append(game.clone())
            game.apply(rng.choice(game.legal_ids()))
        games.append(game)
    return games


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_table_tiles_the_used_vector_once(ruleset: str) -> None:
    size, used, rows = TABLES[ruleset]
    assert size == brass.get_ruleset(ruleset).observation_size
    covered = np.zeros(size, dtype=int)
    for row in rows:
        for i in range(row.repeat):
            start = row.offset + i * row.stride
            covered[start:start + row.width] += 1
    assert np.array_equal(covered[:used], np.ones(used, dtype=int))
    assert not covered[used:].any()
    keys = {row.key for row in rows}
    assert keys == set(DECODERS[ruleset]) | (UNREAD if ruleset == "pittsburgh" else set())


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_real_vectors_read_by_the_table(ruleset: str) -> None:
    size, used, rows = TABLES[ruleset]
    rules = brass.get_ruleset(ruleset)
    kinds = list(rules.decision_names)
    decoders = DECODERS[ruleset]
    checked = 0
    for game in _positions(ruleset):
        for seat in range(game.num_players):
            vector = game.observation(seat)
            assert vector.min() >= -1.0 and vector.max() <= 1.0  # the documented range
            assert not vector[used:].any()
            seen = Seen(game.view(seat), seat, game.num_players, rules.names_with, kinds)
            for row in rows:
                if row.key not in decoders:
                    continue
                for i in range(row.repeat):
                    start = row.offset + i * row.stride
                    got = vector[start:start + row.width]
                    expected = decoders[row.key](seen, i)
                    assert np.allclose(got, expected, atol=1e-6), (
                        f"{ruleset} {row.key}[{i}] at {start}: {got} != {expected} "
                        f"(seat {seat}, version {game.version})")
                    checked += 1
    assert checked > 5_000


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_no_feature_leaves_the_range_in_whole_games(ruleset: str) -> None:
    """Games played to the end in C (money and VP at their largest), every seat's vector."""
    for players in (2, 4):
        for seed in range(6):
            game = brass.Game.new(players, seed=seed, ruleset=ruleset)
            game.playout(seed, policy="sane" if seed % 2 else "random")
            for seat in range(players):
                vector = game.observation(seat)
                assert -1.0 <= vector.min() and vector.max() <= 1.0
