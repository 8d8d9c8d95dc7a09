"""The core's JSON writer (brass_view_json / brass_position_json) against a field-by-field
reference built in Python from the C struct, over random games of every player count: same
keys in the same order, same values. Also its error paths (bad seat, small buffer)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import brass
from brass._core import ffi, lib
from brass.engine import (
    ACTION_TYPES,
    CARD_NAMES,
    ERAS,
    INDUSTRIES,
    LINK_NAMES,
    PHASE_NAMES,
    POSITION_FORMAT,
    SLOT_NAMES,
    SPACE_NAMES,
    action_name,
)

from ._support import without_undo_now

BIRMINGHAM = brass.get_ruleset("birmingham")

_NONE = lib.BRASS_NONE
_NO_CARD = lib.BHAM_NO_CARD
_CARD_IDS = {n: i for i, n in enumerate(CARD_NAMES)}
_GOODS = ("cotton", "manufacturer", "pottery")
WILD = ("wild_location", "wild_industry")


def _goods(mask: int) -> list[str] | None:
    if mask == _NONE:
        return None
    return [g for i, g in enumerate(_GOODS) if mask & (1 << i)]


def _name(v: int, names: tuple[str, ...]) -> str | None:
    return None if v == _NONE else names[v]


def reference_dict(g: Any, seat: int, hidden: bool) -> dict[str, Any]:
    """The position / view dict built field by field from the C struct in Python (the
    format's earlier writer, kept as the oracle); with hidden=False, g is redacted."""
    g = ffi.cast("BirminghamGame *", g)
    n = g.num_players
    players = []
    for p in range(n):
        pl = g.players[p]
        d: dict[str, Any] = {
            "money": pl.money, "vp": pl.vp, "spent": pl.spent,
            "income_space": pl.income_space,
            "income_level": lib.bham_income_level(pl.income_space),
            "links_left": pl.links_left,
            "mat_taken": {ind: pl.mat_taken[i] for i, ind in enumerate(INDUSTRIES)},
            "hand_size": pl.hand_size,
            "last_discard": None if pl.last_discard == _NO_CARD else CARD_NAMES[pl.last_discard],
        }
        if hidden or p == seat:
            d["hand"] = {CARD_NAMES[c]: pl.hand[c] for c in range(len(CARD_NAMES)) if pl.hand[c]}
        else:
            d["wild_cards"] = {w: pl.hand[_CARD_IDS[w]] for w in WILD}
        if hidden:
            d["facedown"] = None if pl.facedown_card == _NO_CARD else CARD_NAMES[pl.facedown_card]
        players.append(d)
    slots = {}
    for s in range(lib.BHAM_NUM_SLOTS):
        t = g.slots[s]
        if t.owner >= 0:
            slots[SLOT_NAMES[s]] = {"owner": t.owner, "industry": INDUSTRIES[t.industry],
                                    "level": t.level, "flipped": bool(t.flipped),
                                    "cubes": t.cubes}
    pend = g.pend
    out: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "rules_edition": g.rules_edition,
        "ruleset": "birmingham",
        "players": n,
        "options": {"beginner": bool(g.beginner),
                    "manufacturer_iv_cost": g.manufacturer_iv_cost,
                    "auto_resolve": bool(g.auto_resolve), "undo": not g.undo_off},
        "era": ERAS[g.era],
        "round": g.round,
        "turn_order": [g.turn_order[i] for i in range(n)],
        "turn_index": g.turn_idx,
        "actions_left": g.actions_left,
        "current": g.current,
        "decision": PHASE_NAMES[g.phase],
        "game_over": bool(g.game_over),
        "pending": {
            "action": ACTION_TYPES[pend.action],
            "card": None if pend.card == _NONE else CARD_NAMES[pend.card],
            "industry": _name(pend.industry, INDUSTRIES),
            "slot": _name(pend.slot, SLOT_NAMES),
            "link": _name(pend.link, LINK_NAMES),
            "merchant": _name(pend.merchant, SPACE_NAMES),
            "coal_left": pend.coal_left, "iron_left": pend.iron_left,
            "beer_left": pend.beer_left, "count": pend.count,
            "last_choice": pend.last_choice, "scout_picked": pend.scout_picked,
            "merchant_beer_used": bool(pend.after_beer & 1),
            "income_index": pend.income_idx,
        },
        "markets": {"coal": g.coal_market, "iron": g.iron_market},
        "wild_piles": {"location": g.wild_pile[0], "industry": g.wild_pile[1]},
        "discards": {CARD_NAMES[c]: g.discards[c] for c in range(len(CARD_NAMES))
                     if g.discards[c]},
        "merchants": {SPACE_NAMES[m]: {"goods": _goods(g.merchant_tile[m]),
                                       "beer": g.merchant_beer[m]}
                      for m in range(lib.BHAM_NUM_MERCHANT_SPACES)},
        "links": {LINK_NAMES[k]: g.link_owner[k] for k in range(lib.BHAM_NUM_LINKS)
                  if g.link_owner[k] >= 0},
        "slots": slots,
        "player_state": players,
    }
    if hidden:
        out["deck"] = [CARD_NAMES[g.deck[i]] for i in range(g.deck_size)]
        out["seed"] = int(g.seed)
        out["decisions_applied"] = int(g.decisions)
    else:
        out["deck_size"] = g.deck_size
        out["seat"] = None if seat < 0 else seat
        # the seat to act's undo now, as the core's undo function finds it (docs/UNDO.md)
        steps, reason = ffi.new("int *"), ffi.new("int *")
        lib.brass_undo_steps(ffi.cast("BrassGame *", g), -1, steps, reason)
        out["undo_steps"] = steps[0]
        out["undo_refused"] = (brass.engine._text(lib.brass_reason_name(0, reason[0]))
                               if reason[0] else None)
    return out


def _ordered(value: Any) -> Any:
    """Dicts as lists of (key, value): comparing them compares key order too."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def _states(players: int, games: int) -> Any:
    rng = random.Random(players)
    for _ in range(games):
        game = brass.Game.new(players=players, seed=rng.getrandbits(64),
                              beginner=rng.random() < 0.2,
                              manufacturer_iv_cost=rng.choice((8, 14)))
        while True:
            yield game
            if game.is_over:
                break
            for _ in range(rng.randint(1, 25)):
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_ids()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_and_positions_match_the_reference(players: int) -> None:
    checked = 0
    for game in _states(players, games=6):
        for seat in [None, *range(players)]:
            s = -1 if seat is None else seat
            red = ffi.new("BrassGame *")
            lib.brass_redact(game._g, s, red)
            expected = reference_dict(red, seat=s, hidden=False)
            assert _ordered(json.loads(game.view_json(seat))) == _ordered(expected)
            assert game.view(seat) == expected
        assert _ordered(game.position()) == _ordered(reference_dict(game._g, -1, True))
        checked += 1
    assert checked > 50


def test_the_whole_position_round_trips() -> None:
    # (The random generator's state is not part of the format: equal as positions, not as
    # snapshots. The decision counter is read back, as every key the writer emits.)
    for game in _states(4, games=2):
        again = brass.Game.from_position(json.dumps(game.position()))
        first, second = game.position(), again.position()
        assert _ordered(second) == _ordered(first)
        # A position does not carry the turn's undo record (docs/UNDO.md): the game read
        # back starts at a barrier, the views are the same but for the undo now.
        if game.undo_depth == 0 or game.is_over:
            assert again.view_json(1) == game.view_json(1)
        else:
            view_again = again.view(1)
            assert (view_again["undo_steps"], view_again["undo_refused"]) == (
                0, "NOTHING_TO_UNDO")
            assert without_undo_now(view_again) == without_undo_now(game.view(1))


def test_every_name_is_plain_json_without_escaping() -> None:
    # The writer quotes names without escaping them (bham_view.c, put_str).
    for action in range(BIRMINGHAM.num_actions):
        assert re.fullmatch(r"[a-z0-9_.:-]+", action_name(action)), action_name(action)


def test_bad_seat_and_small_buffer_are_refused() -> None:
    game = brass.Game.new(players=2, seed=5)
    out = ffi.new("char[]", lib.BRASS_JSON_CAP)
    assert lib.brass_view_json(game._g, 2, out, lib.BRASS_JSON_CAP) == -lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_view_json(game._g, -2, out, lib.BRASS_JSON_CAP) == -lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_view_json(game._g, 0, out, 0) == -lib.BRASS_E_BAD_ARGUMENT
    n = lib.brass_position_json(game._g, out, lib.BRASS_JSON_CAP)
    assert n > 0 and ffi.string(out) == ffi.unpack(out, n)
    small = ffi.new("char[]", 64)
    assert lib.brass_position_json(game._g, small, 64) == -lib.BRASS_E_BUFFER
    assert lib.brass_view_json(game._g, 0, small, 64) == -lib.BRASS_E_BUFFER
    # exactly the length needed plus the terminating NUL fits; one byte less does not
    exact = ffi.new("char[]", n + 1)
    assert lib.brass_position_json(game._g, exact, n + 1) == n
    assert lib.brass_position_json(game._g, exact, n) == -lib.BRASS_E_BUFFER
    with pytest.raises(brass.EngineError):
        game.view(3)
