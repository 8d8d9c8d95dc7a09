"""Pittsburgh through the Python engine API (brass.Game with ruleset="pittsburgh"): it is
registered as provisional with its placeholders, full random games end with a ranking on
both table sets and every player count, options are typed (string values mapped by name,
unknown keys and unplayed values refused), and refused ids come with Pittsburgh's reasons.
The rules themselves are tested in C (test_rulings.py), since no rule is decided in Python.
"""

from __future__ import annotations

import random

import pytest

import brass
from brass import EngineError, Game


def test_registered_as_provisional_with_its_placeholders() -> None:
    rs = brass.get_ruleset("pittsburgh")
    assert rs.num_actions == 212
    assert rs.provisional
    assert rs.placeholders == tuple(f"PH{i}" for i in range(1, 7))
    assert "v2026.01" in rs.describe()["title"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("data", ["pittsburgh", "tiny"])
def test_random_games_end_with_a_ranking(players: int, data: str) -> None:
    g = Game.new(players, seed=players * 7, ruleset="pittsburgh", options={"data": data})
    rng = random.Random(players)
    steps = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_ids()))
        steps += 1
        assert steps < 20000
    assert sorted(g.ranking()) == list(range(players))


def test_options_are_typed_and_refused_when_unknown_or_unplayed() -> None:
    g = Game.new(3, seed=1, ruleset="pittsburgh",
                 options={"mfg_v_vp": 11, "market_sale_on_build": "optional"})
    assert not g.is_over
    with pytest.raises(EngineError):
        Game.new(3, seed=1, ruleset="pittsburgh", options={"no_such_option": True})
    with pytest.raises(EngineError):
        Game.new(3, seed=1, ruleset="pittsburgh", options={"market_slot_order": "player_choice"})


def test_refused_ids_carry_pittsburgh_reasons() -> None:
    g = Game.new(4, seed=3, ruleset="pittsburgh")
    names = {g.reason(a) for a in range(g.num_actions) if a not in g.legal_ids()}
    assert "WRONG_DECISION" in names


def test_compound_actions_previews_and_determinize_work_through_the_engine() -> None:
    g = Game.new(3, seed=6, ruleset="pittsburgh")
    actions, truncated = g.compound_actions(limit=500)
    assert actions and truncated  # many complete builds from the first position
    first = actions[0]
    assert first.key.startswith("type:build card:")
    twin = g.clone()
    twin.apply_compound(first.ids)
    assert twin.current_seat != g.current_seat  # round 1: one action, then the next seat
    preview = g.preview(list(first.ids))
    assert {"events", "view"} <= set(preview)
    assert g.view(0)["ruleset"] == "pittsburgh"
    other = g.determinize(0, 3)
    assert other.view(0) == g.view(0)  # what seat 0 sees is kept
