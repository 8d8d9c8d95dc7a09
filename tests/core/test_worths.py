"""The bots' evaluator in C (`brass.worths`: brass_summary_worths, brass_worths_after): its
answers to what does not fit. That its values are the Python formula's, float for float, is
tests/clients/test_evaluator_summary.py's; fuzz_worths (tests/core/test_fuzz_short.py) gives
it arbitrary params and summaries under the sanitizers."""

from __future__ import annotations

import pytest

import brass
from brass._core import ffi, lib
from brass.rulesets import id_lists
from brass.worths import WorthParams, WorthTile, summary_worths, worths_after
from brass_clients.bots.heuristic import evaluator_for

WEIGHTS = dict.fromkeys(("money_vp", "liquidity_vp", "liquidity_money", "income_discount",
                         "negative_income_vp", "levels_per_space", "unflipped_goods",
                         "unflipped_resources", "merchant_link_icons", "opponent_weight",
                         "whiskey_vp"), 1.0)


def _small(ruleset: str = "birmingham", **changes: object) -> WorthParams:
    facts: dict = {"weights": WEIGHTS, "slot_location": [0], "tiles": [WorthTile()],
                   "link_ends": [[0]], "num_locations": 1, "era_turns": [0, 0, 8, 8, 8]}
    return WorthParams(ruleset, **{**facts, **changes})


def test_params_larger_than_the_cores_tables_are_refused_when_made() -> None:
    with pytest.raises(ValueError, match="the core takes at most"):
        _small(slot_location=[0] * (lib.BRASS_WORTH_MAX_SLOTS + 1))
    with pytest.raises(ValueError, match="the core takes at most"):
        _small(tiles=[None] * (lib.BRASS_WORTH_MAX_TILES + 1))
    with pytest.raises(ValueError, match="the core takes at most"):
        _small(link_ends=[[0, 0, 0, 0, 0]])
    with pytest.raises(ValueError, match="the core takes at most"):
        _small(num_locations=lib.BRASS_WORTH_MAX_LOCATIONS + 1)
    with pytest.raises(KeyError):
        _small(weights={"money_vp": 1.0})


def test_a_summary_with_an_index_outside_the_params_tables_is_refused() -> None:
    game = brass.Game.new(2, seed=1)
    while game.summary()[6] == 0:  # until a tile is on the board (the head's slot count)
        game.apply(game.legal_ids()[0])
    assert game.summary()[8 + 5 * 4] > 0  # its slot is not slot 0
    # one slot known to the params: Birmingham's slots beyond it do not fit them
    with pytest.raises(ValueError, match="does not fit"):
        summary_worths(game.summary(), _small())
    summary = game.summary()
    summary[0] = 9  # nine players
    with pytest.raises(ValueError, match="does not fit"):
        summary_worths(summary, evaluator_for("birmingham").worth_params)
    with pytest.raises(ValueError, match="does not fit"):
        summary_worths(summary[:5], evaluator_for("birmingham").worth_params)


def test_the_params_must_be_the_games_ruleset() -> None:
    game = brass.Game.new(2, seed=1, ruleset="pittsburgh")
    listed, _ = game.compound_ids(limit=3)
    with pytest.raises(ValueError, match="birmingham's, the game is pittsburgh"):
        worths_after(game, listed, evaluator_for("birmingham").worth_params)
    out = ffi.new("double[]", 4 * len(listed))
    ids, offsets = id_lists(listed, game.ruleset_info)
    err = lib.brass_worths_after(game._g, -1, ffi.new("uint16_t[]", ids),
                                 ffi.new("uint32_t[]", offsets), len(listed),
                                 evaluator_for("birmingham").worth_params._params, out,
                                 ffi.NULL, ffi.NULL, ffi.NULL)
    assert err == lib.BRASS_E_WRONG_RULESET


def test_a_refused_action_is_named_and_the_game_is_unchanged() -> None:
    game = brass.Game.new(2, seed=3)
    listed, _ = game.compound_ids(limit=10)
    before = game.snapshot()
    params = evaluator_for("birmingham").worth_params
    with pytest.raises(brass.EngineError) as refused:
        worths_after(game, [listed[0], listed[1][:1]], params)
    assert refused.value.code == "ILLEGAL_ACTION" and "actions[1]" in refused.value.message
    assert worths_after(game, [], params) == []
    values = worths_after(game, listed, params)
    assert game.snapshot() == before and len(values) == len(listed)
    assert all(len(row) == 2 and row[0] == pytest.approx(-row[1]) for row in values)


def test_null_pointers_are_bad_arguments() -> None:
    params = evaluator_for("birmingham").worth_params._params
    summary = ffi.new("int32_t[]", brass.Game.new(2, seed=1).summary())
    out = ffi.new("double[]", 4)
    assert lib.brass_summary_worths(ffi.NULL, 10, params, out) == lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_summary_worths(summary, 10, ffi.NULL, out) == lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_summary_worths(summary, 0, params, out) == lib.BRASS_E_BAD_ARGUMENT
    assert lib.brass_worths_after(ffi.NULL, -1, ffi.NULL, ffi.NULL, 0, params, out, ffi.NULL,
                                  ffi.NULL, ffi.NULL) == lib.BRASS_E_BAD_ARGUMENT


@pytest.mark.parametrize("bad,code", [([-1], "UNKNOWN_ACTION"), ([10**6], "UNKNOWN_ACTION"),
                                      ("ab", "INVALID_ARGUMENT"), ([], "INVALID_ARGUMENT"),
                                      ([1.5], "INVALID_ARGUMENT")])
def test_ids_checked_in_bulk_still_name_the_bad_one(bad: object, code: str) -> None:
    game = brass.Game.new(2, seed=3)
    listed, _ = game.compound_ids(limit=3)
    params = evaluator_for("birmingham").worth_params
    for call in (lambda actions: worths_after(game, actions, params), game.summaries_after):
        with pytest.raises(brass.EngineError) as refused:
            call([listed[0], bad])
        assert refused.value.code == code
