"""Shared helpers of the engine tests: box contents from the data file, a seeded random
policy, and invariant checks on the public JSON position.

The expected figures (deck composition, tiles per player, production) are read from
core_c/data/birmingham.json, the one source the C tables are generated from, so these
tests check the engine's state against the box, not against the engine's own tables.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import brass
from brass._core import ffi, lib

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "core_c"
DATA: dict[str, Any] = json.loads((CORE / "data" / "birmingham.json").read_text())

# A view's undo now (docs/UNDO.md): the seat to act's; a position does not carry the
# turn's undo record, so a game read from one starts at a barrier with nothing to undo.
UNDO_NOW = ("undo_steps", "undo_refused")


def without_undo_now(view: dict[str, Any]) -> dict[str, Any]:
    """A view less its undo now, for comparing a game with one read from its position."""
    return {k: v for k, v in view.items() if k not in UNDO_NOW}


INDUSTRIES = ("cotton", "manufacturer", "pottery", "coal", "iron", "brewery")
WILD = ("wild_location", "wild_industry")
WILD_EACH: int = DATA["cards"]["wild_cards"]["wild_location"]
ROUNDS_PER_ERA = {2: 10, 3: 9, 4: 8}
DECK_SIZE = {int(k): v for k, v in DATA["cards"]["deck_size"].items()}
TILES_PER_PLAYER = {k: v["tiles_per_player"]
                    for k, v in DATA["industries"]["per_industry"].items()}
LINK_TILES = 14
COAL_CAPACITY: int = DATA["markets"]["coal"]["capacity"]
COAL_EMPTY_PRICE: int = DATA["markets"]["coal"]["price_when_empty"]
COAL_PRICES: list[int] = DATA["markets"]["coal"]["slot_prices_cheapest_first"]
IRON_CAPACITY: int = DATA["markets"]["iron"]["capacity"]
IRON_EMPTY_PRICE: int = DATA["markets"]["iron"]["price_when_empty"]
IRON_PRICES: list[int] = DATA["markets"]["iron"]["slot_prices_cheapest_first"]


def _deck_composition(players: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in DATA["cards"]["location_cards"]:
        if c["in_deck"][str(players)]:
            out[c["location"]] = c["in_deck"][str(players)]
    for c in DATA["cards"]["industry_cards"]:
        if c["in_deck"][str(players)]:
            out["_".join(c["industries"])] = c["in_deck"][str(players)]
    return out


DECK = {n: _deck_composition(n) for n in (2, 3, 4)}


def _production(industry: str, level: int, era: str) -> int:
    """Cubes (coal, iron) or barrels (beer) a newly built tile carries."""
    produces = DATA["industries"]["per_industry"][industry]["levels"][level - 1]["produces"]
    if not produces:
        return 0
    if industry == "brewery":
        return produces["beer"][f"{era}_era"]
    return produces[industry]


def policy_choice(g: brass.Game, ids: list[int], rng: random.Random) -> int:
    """A random legal id; at the action-type decision, loan (4) and pass (6) are avoided
    four times in five, so games build, sell and network enough to reach every rule."""
    if g.decision == "action" and rng.random() < 0.8:
        busy = [i for i in ids if i not in (4, 6)]
        if busy:
            return rng.choice(busy)
    return rng.choice(ids)


def new_random_game(players: int, seed: int) -> brass.Game:
    """Options vary with the seed: every 3rd game uses the £14 manufacturer IV, every 5th
    game does not auto-resolve forced decisions, every 11th is the beginner variant."""
    return brass.Game.new(players, seed, beginner=seed % 11 == 0,
                          manufacturer_iv_cost=14 if seed % 3 == 0 else 8,
                          auto_resolve=seed % 5 != 0)


def play_random(players: int, seed: int, steps: int | None = None) -> brass.Game:
    """A game of random legal decisions: to the end, or `steps` decisions in."""
    g = new_random_game(players, seed)
    rng = random.Random(seed)
    k = 0
    while not g.is_over and (steps is None or k < steps):
        g.apply(policy_choice(g, g.legal_ids(), rng))
        k += 1
    return g


def preview_view(game: brass.Game, after: brass.Game, seat: int) -> dict[str, Any]:
    """What a preview of the move from `game` to `after` shows `seat`: after's view, less
    the cards the seat drew from the face-down deck (its top, as position() lists it; at
    the era change, the whole new hand), which ``hand_unseen`` counts."""
    view = after.view(seat)
    mine = view["player_state"][seat]
    if after.view(None)["era"] != game.view(None)["era"]:
        drawn = Counter({c: k for c, k in mine["hand"].items() if c not in WILD})
    else:
        deck = game.position()["deck"]
        taken = len(deck) - len(after.position()["deck"])
        drawn = Counter(deck[len(deck) - taken:])
    if drawn:
        mine["hand"] = dict(Counter(mine["hand"]) - drawn)
        mine["hand_unseen"] = sum(drawn.values())
    return view


# ---- invariants on the JSON position ----

def check_money(pos: dict[str, Any]) -> None:
    for p, ps in enumerate(pos["player_state"]):
        assert ps["money"] >= 0, f"player {p} has money {ps['money']}"
        assert ps["vp"] >= 0, f"player {p} has vp {ps['vp']}"


def check_cards(pos: dict[str, Any]) -> None:
    """Every card of the box for this player count is in exactly one place: the deck, a
    hand, the face-up discards or a face-down setup discard; wild cards are in hands or
    in their two piles (4 each)."""
    n = pos["players"]
    where: Counter[str] = Counter(pos["deck"])
    where.update(pos["discards"])
    wild = Counter({"wild_location": pos["wild_piles"]["location"],
                    "wild_industry": pos["wild_piles"]["industry"]})
    for p, ps in enumerate(pos["player_state"]):
        assert sum(ps["hand"].values()) == ps["hand_size"], f"player {p} hand_size"
        assert ps["hand_size"] <= 8, f"player {p} holds {ps['hand_size']} cards"
        for card, k in ps["hand"].items():
            assert k > 0
            (wild if card in WILD else where)[card] += k
        if ps["facedown"] is not None:
            where[ps["facedown"]] += 1
    for card in WILD:
        assert card not in pos["discards"], f"{card} on the face-up discard pile"
        assert wild[card] == WILD_EACH, f"{card}: {wild[card]} in hands and pile"
    assert dict(where) == DECK[n], (
        f"cards not conserved: extra {dict(where - Counter(DECK[n]))}, "
        f"missing {dict(Counter(DECK[n]) - where)}")
    assert sum(where.values()) == DECK_SIZE[n]


def check_tiles_and_links(pos: dict[str, Any]) -> None:
    """Per player and industry: tiles on the board <= tiles off the mat <= tiles in the box;
    link tiles on the board + in the supply == 14."""
    n = pos["players"]
    on_board = Counter((t["owner"], t["industry"]) for t in pos["slots"].values())
    links = Counter(pos["links"].values())
    for p in range(n):
        ps = pos["player_state"][p]
        for ind in INDUSTRIES:
            taken = ps["mat_taken"][ind]
            assert on_board[p, ind] <= taken <= TILES_PER_PLAYER[ind], (
                f"player {p} {ind}: {on_board[p, ind]} on board, {taken} off the mat")
        assert links[p] + ps["links_left"] == LINK_TILES, f"player {p} link tiles"


def check_position(pos: dict[str, Any]) -> None:
    check_money(pos)
    check_cards(pos)
    check_tiles_and_links(pos)
    n = pos["players"]
    assert 1 <= pos["round"] <= ROUNDS_PER_ERA[n], f"round {pos['round']}"
    assert 0 <= pos["markets"]["coal"] <= COAL_CAPACITY
    assert 0 <= pos["markets"]["iron"] <= IRON_CAPACITY


def check_view(g: brass.Game, seat: int | None, pos: dict[str, Any]) -> dict[str, Any]:
    """A seat view holds no hidden information: no deck order, seed or face-down card; no
    other seat's non-wild hand (only its wild cards and hand size); a spectator sees no
    hand at all."""
    v = g.view(seat)
    for key in ("deck", "seed", "decisions_applied"):
        assert key not in v, f"view({seat}) shows {key}"
    assert v["deck_size"] == len(pos["deck"])
    assert v["seat"] == seat
    for p, ps in enumerate(v["player_state"]):
        assert "facedown" not in ps, f"view({seat}) shows player {p}'s face-down card"
        real = pos["player_state"][p]
        assert ps["hand_size"] == real["hand_size"]
        if p == seat:
            assert ps["hand"] == real["hand"]
            assert "wild_cards" not in ps
        else:
            assert "hand" not in ps, f"view({seat}) shows player {p}'s hand"
            assert ps["wild_cards"] == {w: real["hand"].get(w, 0) for w in WILD}
    return v


# ---- the same invariants on the raw state, for every decision of long runs ----
#
# position() costs ~100 us; the checks below read the snapshot bytes at the offsets of the
# C struct's own layout (taken from cffi, not hard-coded) in a few microseconds. The full
# checks of test_properties verify that both readings agree (raw_matches_position).

def _off(*path: str) -> int:
    """Byte offset of a field in the snapshot (header + struct offset)."""
    return SNAPSHOT_HEADER + ffi.offsetof("BirminghamGame", *path)


SNAPSHOT_HEADER = (lib.brass_snapshot_size(lib.BRASS_RULESET_BIRMINGHAM)
                   - ffi.sizeof("BirminghamGame"))
_PLAYER = ffi.sizeof("BirminghamPlayer")
_SLOT = ffi.sizeof("BirminghamSlot")
_P0 = _off("players")
_S0 = _off("slots")


_OFF = {name: _off(name) for name in (
    "num_players", "beginner", "era", "round", "deck_size", "coal_market", "iron_market",
    "deck", "discards", "wild_pile", "merchant_tile", "merchant_beer", "link_owner")}
_PF = {name: ffi.offsetof("BirminghamPlayer", name) for name in (
    "money", "vp", "links_left", "mat_taken", "hand", "hand_size", "facedown_card")}
_SF = {name: ffi.offsetof("BirminghamSlot", name) for name in (
    "owner", "industry", "level", "flipped", "cubes")}
NUM_SLOTS = lib.BHAM_NUM_SLOTS
NUM_LINKS = lib.BHAM_NUM_LINKS
NUM_CARDS = lib.BHAM_NUM_CARD_TYPES
_CARD_INDEX = {c: i for i, c in enumerate(brass.engine.CARD_NAMES)}
WILD_IDS = [_CARD_INDEX[w] for w in WILD]
# card counts packed one byte per card type into one integer (little end = card 0): adding
# such integers adds the counts of every type at once (no count reaches 256)
_ONE = [1 << (8 * c) for c in range(NUM_CARDS)]
_NON_WILD = sum(255 << (8 * c) for c in range(NUM_CARDS) if c not in WILD_IDS)
DECK_PACKED = {n: sum(DECK[n].get(c, 0) << (8 * i)
                      for i, c in enumerate(brass.engine.CARD_NAMES)) for n in DECK}


def _s8(v: int) -> int:
    return v - 256 if v >= 128 else v


class RawState:
    """The fields of the state struct the invariants need, read from snapshot bytes."""

    def __init__(self, snapshot: bytes) -> None:
        b = self.b = snapshot
        o = _OFF
        self.num_players = n = b[o["num_players"]]
        self.beginner = b[o["beginner"]]
        self.era = b[o["era"]]
        self.round = b[o["round"]]
        self.coal_market = b[o["coal_market"]]
        self.iron_market = b[o["iron_market"]]
        self.deck = b[o["deck"]:o["deck"] + b[o["deck_size"]]]
        self.merchant_beer = b[o["merchant_beer"]:o["merchant_beer"] + 9]
        self.merchant_tile = b[o["merchant_tile"]:o["merchant_tile"] + 9]
        self.players = [b[_P0 + p * _PLAYER:_P0 + (p + 1) * _PLAYER] for p in range(n)]
        self.slots = b[_S0:_S0 + NUM_SLOTS * _SLOT]

    def money(self, p: int) -> int:
        return int.from_bytes(self.players[p][_PF["money"]:_PF["money"] + 2], "little",
                              signed=True)

    def vp(self, p: int) -> int:
        return int.from_bytes(self.players[p][_PF["vp"]:_PF["vp"] + 2], "little", signed=True)

    def hand(self, p: int) -> bytes:
        return self.players[p][_PF["hand"]:_PF["hand"] + NUM_CARDS]

    def mat(self, p: int) -> bytes:
        return self.players[p][_PF["mat_taken"]:_PF["mat_taken"] + 6]

    def tile(self, s: int) -> tuple[int, str, int, int] | None:
        t = self.slots[s * _SLOT:(s + 1) * _SLOT]
        if _s8(t[_SF["owner"]]) < 0:
            return None
        return (t[_SF["owner"]], INDUSTRIES[t[_SF["industry"]]], t[_SF["level"]],
                t[_SF["cubes"]])


def raw_state(snapshot: bytes) -> RawState:
    return RawState(snapshot)


def check_raw(st: RawState) -> None:
    """check_position's money, card, tile and link invariants on the raw state."""
    n, b = st.num_players, st.b
    cards = int.from_bytes(b[_OFF["discards"]:_OFF["discards"] + NUM_CARDS], "little")
    cards += sum(_ONE[c] for c in st.deck)
    on_board = [[0] * 6 for _ in range(n)]
    for s in range(0, NUM_SLOTS * _SLOT, _SLOT):
        owner = _s8(st.slots[s + _SF["owner"]])
        if owner >= 0:
            on_board[owner][st.slots[s + _SF["industry"]]] += 1
    links = [0] * n
    for v in b[_OFF["link_owner"]:_OFF["link_owner"] + NUM_LINKS]:
        if v != 255:
            links[v] += 1
    for p in range(n):
        pl = st.players[p]
        assert st.money(p) >= 0, f"player {p} money {st.money(p)}"
        assert st.vp(p) >= 0, f"player {p} vp {st.vp(p)}"
        hand = st.hand(p)
        assert sum(hand) == pl[_PF["hand_size"]] <= 8, f"player {p} hand size"
        cards += int.from_bytes(hand, "little")
        if pl[_PF["facedown_card"]] != 255:
            cards += _ONE[pl[_PF["facedown_card"]]]
        mat = st.mat(p)
        for i, ind in enumerate(INDUSTRIES):
            assert on_board[p][i] <= mat[i] <= TILES_PER_PLAYER[ind], (
                f"player {p} {ind}: {on_board[p][i]} on board, {mat[i]} off the mat")
        assert links[p] + pl[_PF["links_left"]] == LINK_TILES, f"player {p} link tiles"
    for k, c in enumerate(WILD_IDS):
        in_hands = (cards >> (8 * c)) & 255
        assert in_hands + b[_OFF["wild_pile"] + k] == WILD_EACH, f"{WILD[k]} cards"
    cards &= _NON_WILD
    if cards != DECK_PACKED[n]:
        got = cards.to_bytes(NUM_CARDS, "little")
        want = DECK_PACKED[n].to_bytes(NUM_CARDS, "little")
        diff = {brass.engine.CARD_NAMES[c]: got[c] - want[c] for c in range(NUM_CARDS)
                if got[c] != want[c]}
        raise AssertionError(f"cards not conserved (found - box): {diff}")


def raw_matches_position(st: RawState, pos: dict[str, Any]) -> None:
    """The raw reading and position() describe the same state."""
    n = pos["players"]
    assert st.num_players == n and st.round == pos["round"]
    for p in range(n):
        ps = pos["player_state"][p]
        assert (st.money(p), st.vp(p)) == (ps["money"], ps["vp"])
        hand = {brass.engine.CARD_NAMES[c]: k for c, k in enumerate(st.hand(p)) if k}
        assert hand == ps["hand"]
        assert list(st.mat(p)) == [ps["mat_taken"][i] for i in INDUSTRIES]
        assert st.players[p][_PF["links_left"]] == ps["links_left"]
    assert [brass.engine.CARD_NAMES[c] for c in st.deck] == pos["deck"]
    assert (st.coal_market, st.iron_market) == (pos["markets"]["coal"], pos["markets"]["iron"])
    tiles = {brass.engine.SLOT_NAMES[s]: st.tile(s) for s in range(NUM_SLOTS)
             if st.tile(s) is not None}
    assert tiles == {k: (v["owner"], v["industry"], v["level"], v["cubes"])
                     for k, v in pos["slots"].items()}


_SLOT_INDEX = {name: i for i, name in enumerate(brass.engine.SLOT_NAMES)}
_SPACE_INDEX = {name: i for i, name in enumerate(brass.engine.SPACE_NAMES)}
_IND_INDEX = {name: i for i, name in enumerate(INDUSTRIES)}


def check_accounting(before: RawState, events: list[dict[str, Any]], after: RawState) -> None:
    """Cubes, barrels and tiles are neither made nor lost except as the events say.

    Replays one decision's events over the raw state before it: a build places its
    production (coal/iron per level, beer 1 in the canal era and 2 in the rail era), a
    coal/iron/beer payment takes one cube or barrel from its source (the market loses one
    only when it has one, at the price of its cheapest filled space), a market sale moves
    cubes from the new tile to the market, overbuilt and removed tiles leave, merchant beer
    is used once and refills when the rail era begins. The result must be the state after
    it: every tile event touched cube for cube, every other slot byte for byte; and the
    tiles taken off each mat are exactly the builds and develops.
    """
    tiles: dict[int, tuple[int, str, int, int] | None] = {}
    market = {"coal": before.coal_market, "iron": before.iron_market}
    beer = [int(x) for x in before.merchant_beer]
    era = "rail" if before.era else "canal"
    mat = [[0] * 6 for _ in range(4)]

    def tile(s: int) -> tuple[int, str, int, int] | None:
        if s not in tiles:
            tiles[s] = before.tile(s)
        return tiles[s]

    for e in events:
        t = e["type"]
        if "slot" in e:
            s = _SLOT_INDEX[e["slot"]]
            tile(s)
        if t == "build":
            assert tiles[s] is None, f"build on occupied {e['slot']}"
            tiles[s] = (e["seat"], e["industry"], e["level"],
                        _production(e["industry"], e["level"], era))
            mat[e["seat"]][_IND_INDEX[e["industry"]]] += 1
        elif t == "develop":
            mat[e["seat"]][_IND_INDEX[e["industry"]]] += 1
        elif t in ("overbuild", "tile_removed", "shortfall_remove"):
            assert tiles[s] is not None, f"{t} of empty {e['slot']}"
            tiles[s] = None
        elif t == "market_sale":
            o, ind, lv, c = tiles[s]  # type: ignore[misc]
            assert ind in ("coal", "iron") and 0 < e["cubes"] <= c
            tiles[s] = (o, ind, lv, c - e["cubes"])
            market[ind] += e["cubes"]
        elif t in ("coal", "iron", "beer"):
            src = e["source"]
            if src == "market":
                cap, prices, empty = ((COAL_CAPACITY, COAL_PRICES, COAL_EMPTY_PRICE)
                                      if t == "coal" else
                                      (IRON_CAPACITY, IRON_PRICES, IRON_EMPTY_PRICE))
                m = market[t]
                assert e["price"] == (prices[cap - m] if m else empty), (
                    f"{t} bought at {e['price']} with {m} cubes in the market")
                market[t] = max(0, m - 1)
            elif src == "merchant":
                m = _SPACE_INDEX[e["merchant"]]
                assert beer[m] == 1, f"no beer at {e['merchant']}"
                beer[m] = 0
            else:
                s = _SLOT_INDEX[src]
                o, ind, lv, c = tile(s) or (-1, "", 0, 0)
                want = {"coal": "coal", "iron": "iron", "beer": "brewery"}[t]
                assert ind == want and c > 0, f"{t} from {src}: {tiles[s]}"
                tiles[s] = (o, ind, lv, c - 1)
        elif t == "era_end" and e["era"] == "canal" and not before.beginner:
            era = "rail"
            for m in range(len(beer)):
                if after.merchant_tile[m] not in (0, 255):
                    beer[m] = 1
    assert market == {"coal": after.coal_market, "iron": after.iron_market}, f"markets {market}"
    assert beer == [int(x) for x in after.merchant_beer], f"merchant beer {beer}"
    for s, want in tiles.items():
        assert after.tile(s) == want, f"slot {brass.engine.SLOT_NAMES[s]}: {want}"
    if before.slots != after.slots:
        for s in range(NUM_SLOTS):
            if s not in tiles:
                a, b = s * _SLOT, (s + 1) * _SLOT
                assert before.slots[a:b] == after.slots[a:b], (
                    f"slot {brass.engine.SLOT_NAMES[s]} changed, but no event named it")
    for p in range(before.num_players):
        got = [x - y for x, y in zip(after.mat(p), before.mat(p), strict=True)]
        assert got == mat[p], f"player {p} mat changes {got} != builds + develops {mat[p]}"
