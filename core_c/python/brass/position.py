"""The JSON position format (docs/POSITION.md): state struct <-> dict.

Only data moves here. Whether a position is consistent is decided by the core's
`brass_validate`, which names the offending field by its JSON path. Every object takes only
the keys the format defines (a misspelt key is an error, not a default), and the keys the
writer derives (`income_level`, `hand_size`) must agree with what they derive from.
"""

from __future__ import annotations

import json
from typing import Any

from brass._core import ffi, lib
from brass.birmingham_names import (
    ACTION_TYPES,
    CARD_NAMES,
    ERAS,
    INDUSTRIES,
    LINK_NAMES,
    PHASE_NAMES,
    SLOT_NAMES,
    SPACE_NAMES,
)
from brass.errors import EngineError
from brass.rulesets import get_ruleset
from brass.views import POSITION_FORMAT

_NONE = lib.BRASS_NONE
RULES_EDITION = get_ruleset("birmingham").rules_edition
_CARD_IDS = {n: i for i, n in enumerate(CARD_NAMES)}
_SLOT_IDS = {n: i for i, n in enumerate(SLOT_NAMES)}
_LINK_IDS = {n: i for i, n in enumerate(LINK_NAMES)}
_SPACE_IDS = {n: i for i, n in enumerate(SPACE_NAMES)}
_GOODS = ("cotton", "manufacturer", "pottery")
# A position's text, at most (the core writes any position in under 32 KiB).
MAX_POSITION_CHARS = 65536

_KEYS = {
    "$": ("format", "rules_edition", "ruleset", "players", "options", "era", "round",
          "turn_order", "turn_index", "actions_left", "current", "decision", "game_over",
          "pending", "markets", "wild_piles", "deck", "discards", "merchants", "links", "slots",
          "player_state", "seed", "decisions_applied"),
    "options": ("beginner", "manufacturer_iv_cost", "auto_resolve", "undo"),
    "pending": ("action", "card", "industry", "slot", "link", "merchant", "coal_left",
                "iron_left", "beer_left", "count", "last_choice", "scout_picked",
                "merchant_beer_used", "income_index"),
    "markets": ("coal", "iron"),
    "wild_piles": ("location", "industry"),
    "merchant": ("goods", "beer"),
    "slot": ("owner", "industry", "level", "flipped", "cubes"),
    "player": ("money", "vp", "spent", "income_space", "income_level", "links_left",
               "mat_taken", "hand_size", "last_discard", "hand", "facedown"),
}


_VIEW_KEYS = ("deck_size", "seat", "wild_cards", "hand_unseen", "undo_steps",
              "undo_refused")


class _Reader:
    """Typed access to the position dict, naming the field on every error."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise EngineError("BAD_POSITION", "position must be a JSON object", None, "$")
        self.data = data

    @staticmethod
    def fail(path: str, what: str) -> EngineError:
        return EngineError("BAD_POSITION", f"position field {path}: {what}", None, path)

    def only(self, obj: Any, path: str, keys: str) -> None:
        """Refuse keys the format does not define in this object (`keys`: a _KEYS entry)."""
        if not isinstance(obj, dict):
            raise self.fail(path, "must be an object")
        allowed = _KEYS[keys]
        for k in obj:
            if k not in allowed:
                where = f"{path}.{k}" if path != "$" else str(k)
                hint = " (a seat's view is not a position)" if k in _VIEW_KEYS else ""
                raise self.fail(where, f"unknown key{hint}")

    def get(self, obj: Any, key: str, path: str, kind: type | tuple[type, ...],
            default: Any = ...) -> Any:
        if not isinstance(obj, dict):
            raise self.fail(path.rsplit(".", 1)[0], "must be an object")
        if key not in obj:
            if default is ...:
                raise self.fail(path, "is required")
            return default
        v = obj[key]
        if kind is int and isinstance(v, bool) or not isinstance(v, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.fail(path, f"must be {names}")
        return v

    def int_in(self, obj: Any, key: str, path: str, lo: int, hi: int, default: Any = ...) -> int:
        v = self.get(obj, key, path, int, default)
        if not lo <= v <= hi:
            raise self.fail(path, f"must be between {lo} and {hi}")
        return v

    def name(self, v: Any, table: dict[str, int], path: str, allow_none: bool = False) -> int:
        if v is None and allow_none:
            return _NONE
        if not isinstance(v, str) or v not in table:
            raise self.fail(path, f"unknown name {v!r}")
        return table[v]


def state_from_c_position(position: dict[str, Any] | str | bytes, ruleset: str) -> Any:
    """A state from a position of a ruleset whose reader is in the core (Pittsburgh:
    core_c/src/pittsburgh/pgh_position.c), given as the dict or the JSON text itself. The core
    checks every value and names the bad one by its JSON path."""
    if isinstance(position, dict):
        text = json.dumps(position, separators=(",", ":"), allow_nan=False).encode()
    else:
        text = position.encode() if isinstance(position, str) else bytes(position)
    rs = get_ruleset(ruleset)
    handle = ffi.new("BrassGame *")
    field, message = ffi.new("char[128]"), ffi.new("char[256]")
    err = lib.brass_position_read(handle, rs.id, text, len(text), field, 128, message, 256)
    if err:
        path = ffi.string(field).decode("utf-8", "replace") or "$"
        what = ffi.string(message).decode("utf-8", "replace") or "invalid"
        raise EngineError("BAD_POSITION", f"position field {path}: {what}", None, path)
    return handle


def state_from_position(data: Any) -> Any:
    r = _Reader(data)
    d = r.data
    # the ruleset first: another ruleset's position has other keys
    if r.get(d, "ruleset", "ruleset", str, "birmingham") != "birmingham":
        raise r.fail("ruleset", "must be 'birmingham' or 'pittsburgh'")
    r.only(d, "$", "$")
    fmt = r.get(d, "format", "format", str, POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise r.fail("format", f"must be {POSITION_FORMAT!r}")
    edition = r.int_in(d, "rules_edition", "rules_edition", 1, RULES_EDITION, RULES_EDITION)
    n = r.int_in(d, "players", "players", 2, 4)
    opts = r.get(d, "options", "options", dict, {})
    r.only(opts, "options", "options")
    beginner = r.get(opts, "beginner", "options.beginner", bool, False)
    mfr = r.get(opts, "manufacturer_iv_cost", "options.manufacturer_iv_cost", int, 8)
    auto = r.get(opts, "auto_resolve", "options.auto_resolve", bool, True)
    undo = r.get(opts, "undo", "options.undo", bool, True)
    handle = ffi.new("BrassGame *")
    opt = ffi.new("BrassOptions *", {
        "ruleset": lib.BRASS_RULESET_BIRMINGHAM, "players": n, "auto_resolve": int(auto),
        "values": [int(beginner), mfr if mfr in (8, 14) else 8, int(undo)]})
    lib.brass_new(handle, opt, 0)  # a blank, valid frame; every field is set below
    g = ffi.cast("BirminghamGame *", handle)
    g.manufacturer_iv_cost = mfr if 0 <= mfr <= 255 else 0
    g.rules_edition = edition
    era = r.get(d, "era", "era", str)
    if era not in ERAS:
        raise r.fail("era", "must be 'canal' or 'rail'")
    g.era = ERAS.index(era)
    g.round = r.int_in(d, "round", "round", 1, 255)  # the counter stops at 255
    order = r.get(d, "turn_order", "turn_order", list)
    if len(order) != n:
        raise r.fail("turn_order", f"must list {n} seats")
    for i in range(4):
        g.turn_order[i] = 0
    for i, v in enumerate(order):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
            raise r.fail(f"turn_order[{i}]", f"must be a seat 0..{n - 1}")
        g.turn_order[i] = v
    g.turn_idx = r.int_in(d, "turn_index", "turn_index", 0, n, 0)
    g.actions_left = r.int_in(d, "actions_left", "actions_left", 0, 2, 2)
    g.current = r.int_in(d, "current", "current", 0, n - 1, order[g.turn_idx % n])
    phase = r.get(d, "decision", "decision", str, "action")
    if phase not in PHASE_NAMES:
        raise r.fail("decision", f"unknown decision {phase!r}")
    g.phase = PHASE_NAMES.index(phase)
    g.game_over = int(r.get(d, "game_over", "game_over", bool, False))
    pend = r.get(d, "pending", "pending", dict, {})
    r.only(pend, "pending", "pending")
    p = g.pend
    act = r.get(pend, "action", "pending.action", str, "build")
    if act not in ACTION_TYPES:
        raise r.fail("pending.action", f"unknown action {act!r}")
    p.action = ACTION_TYPES.index(act)
    p.card = r.name(pend.get("card"), _CARD_IDS, "pending.card", True)
    p.industry = r.name(pend.get("industry"), {k: i for i, k in enumerate(INDUSTRIES)},
                        "pending.industry", True)
    p.slot = r.name(pend.get("slot"), _SLOT_IDS, "pending.slot", True)
    p.link = r.name(pend.get("link"), _LINK_IDS, "pending.link", True)
    p.merchant = r.name(pend.get("merchant"), _SPACE_IDS, "pending.merchant", True)
    for key, attr in (("coal_left", "coal_left"), ("iron_left", "iron_left"),
                      ("beer_left", "beer_left"), ("count", "count"),
                      ("last_choice", "last_choice"), ("scout_picked", "scout_picked"),
                      ("income_index", "income_idx")):
        setattr(p, attr, r.int_in(pend, key, f"pending.{key}", 0, 255, 0))
    p.after_beer = int(r.get(pend, "merchant_beer_used", "pending.merchant_beer_used", bool,
                             False))
    markets = r.get(d, "markets", "markets", dict)
    r.only(markets, "markets", "markets")
    g.coal_market = r.int_in(markets, "coal", "markets.coal", 0, 255)
    g.iron_market = r.int_in(markets, "iron", "markets.iron", 0, 255)
    wild = r.get(d, "wild_piles", "wild_piles", dict, {"location": 4, "industry": 4})
    r.only(wild, "wild_piles", "wild_piles")
    g.wild_pile[0] = r.int_in(wild, "location", "wild_piles.location", 0, 255)
    g.wild_pile[1] = r.int_in(wild, "industry", "wild_piles.industry", 0, 255)
    deck = r.get(d, "deck", "deck", list, [])
    if len(deck) > lib.BHAM_MAX_DECK:
        raise r.fail("deck", f"at most {lib.BHAM_MAX_DECK} cards")
    for i in range(lib.BHAM_MAX_DECK):
        g.deck[i] = 0
    for i, c in enumerate(deck):
        g.deck[i] = r.name(c, _CARD_IDS, f"deck[{i}]")
    g.deck_size = len(deck)
    discards = r.get(d, "discards", "discards", dict, {})
    for c in range(len(CARD_NAMES)):
        g.discards[c] = 0
    for k in discards:
        g.discards[r.name(k, _CARD_IDS, f"discards.{k}")] = r.int_in(discards, k,
                                                                     f"discards.{k}", 0, 255)
    merchants = r.get(d, "merchants", "merchants", dict)
    for m in range(lib.BHAM_NUM_MERCHANT_SPACES):
        g.merchant_tile[m] = _NONE
        g.merchant_beer[m] = 0
    for k, v in merchants.items():
        m = r.name(k, _SPACE_IDS, f"merchants.{k}")
        r.only(v, f"merchants.{k}", "merchant")
        goods = r.get(v, "goods", f"merchants.{k}.goods", (list, type(None)))
        if goods is None:
            g.merchant_tile[m] = _NONE
        else:
            mask = 0
            for j, good in enumerate(goods):
                if good not in _GOODS:
                    raise r.fail(f"merchants.{k}.goods[{j}]", f"unknown goods {good!r}")
                mask |= 1 << _GOODS.index(good)
            g.merchant_tile[m] = mask
        g.merchant_beer[m] = r.int_in(v, "beer", f"merchants.{k}.beer", 0, 255, 0)
    links = r.get(d, "links", "links", dict, {})
    for k in range(lib.BHAM_NUM_LINKS):
        g.link_owner[k] = -1
    for k in links:
        g.link_owner[r.name(k, _LINK_IDS, f"links.{k}")] = r.int_in(links, k, f"links.{k}", 0,
                                                                    n - 1)
    slots = r.get(d, "slots", "slots", dict, {})
    for s in range(lib.BHAM_NUM_SLOTS):
        t = g.slots[s]
        t.owner, t.industry, t.level, t.flipped, t.cubes = -1, 0, 0, 0, 0
    for k, v in slots.items():
        s = r.name(k, _SLOT_IDS, f"slots.{k}")
        r.only(v, f"slots.{k}", "slot")
        t = g.slots[s]
        t.owner = r.int_in(v, "owner", f"slots.{k}.owner", 0, n - 1)
        ind = r.get(v, "industry", f"slots.{k}.industry", str)
        if ind not in INDUSTRIES:
            raise r.fail(f"slots.{k}.industry", f"unknown industry {ind!r}")
        t.industry = INDUSTRIES.index(ind)
        t.level = r.int_in(v, "level", f"slots.{k}.level", 1, 8)
        t.flipped = int(r.get(v, "flipped", f"slots.{k}.flipped", bool, False))
        t.cubes = r.int_in(v, "cubes", f"slots.{k}.cubes", 0, 255, 0)
    pstates = r.get(d, "player_state", "player_state", list)
    if len(pstates) != n:
        raise r.fail("player_state", f"must list {n} players")
    for i, ps in enumerate(pstates):
        base = f"player_state[{i}]"
        r.only(ps, base, "player")
        pl = g.players[i]
        pl.money = r.int_in(ps, "money", f"{base}.money", 0, 32767)
        pl.vp = r.int_in(ps, "vp", f"{base}.vp", 0, 32767, 0)
        pl.spent = r.int_in(ps, "spent", f"{base}.spent", 0, 32767, 0)
        pl.income_space = r.int_in(ps, "income_space", f"{base}.income_space", 0, 99, 10)
        level = lib.bham_income_level(pl.income_space)
        if r.int_in(ps, "income_level", f"{base}.income_level", -10, 30, level) != level:
            raise r.fail(f"{base}.income_level", f"must be {level}, the level of income_space "
                         f"{pl.income_space}")
        pl.links_left = r.int_in(ps, "links_left", f"{base}.links_left", 0, 14, 14)
        mat = r.get(ps, "mat_taken", f"{base}.mat_taken", dict, {})
        for j, ind in enumerate(INDUSTRIES):
            pl.mat_taken[j] = r.int_in(mat, ind, f"{base}.mat_taken.{ind}", 0, 11, 0)
        for k in mat:
            if k not in INDUSTRIES:
                raise r.fail(f"{base}.mat_taken.{k}", "unknown industry")
        hand = r.get(ps, "hand", f"{base}.hand", dict, {})
        for c in range(len(CARD_NAMES)):
            pl.hand[c] = 0
        total = 0
        for k in hand:
            c = r.name(k, _CARD_IDS, f"{base}.hand.{k}")
            pl.hand[c] = r.int_in(hand, k, f"{base}.hand.{k}", 0, 8)
            total += pl.hand[c]
        if total > 8:
            raise r.fail(f"{base}.hand", "at most 8 cards")
        pl.hand_size = total
        if r.int_in(ps, "hand_size", f"{base}.hand_size", 0, 8, total) != total:
            raise r.fail(f"{base}.hand_size", f"must be {total}, the cards in hand")
        pl.facedown_card = r.name(ps.get("facedown"), _CARD_IDS, f"{base}.facedown", True)
        pl.last_discard = r.name(ps.get("last_discard"), _CARD_IDS, f"{base}.last_discard",
                                 True)
    seed = r.int_in(d, "seed", "seed", 0, 2**64 - 1, 0)
    g.decisions = r.int_in(d, "decisions_applied", "decisions_applied", 0, 2**32 - 1, 0)
    lib.brass_set_seed(handle, seed)
    field = ffi.new("char[96]")
    err = lib.brass_validate(handle, field, 96)
    if err:
        name = ffi.string(field).decode()
        raise EngineError("BAD_POSITION", f"position is inconsistent at {name}", None, name)
    return handle
