"""A bot's static evaluator run by the core (brass_summary_worths, brass_worths_after): the
inner loop of a search that values thousands of positions a decision, without a Python call
for each. The formulas are the bots' own (`brass_clients.bots.heuristic`); their weights
and board facts come from the bot in a `WorthParams`, so the core keeps no copy of them.

    params = WorthParams("birmingham", weights={...}, slot_location=[...], tiles=[...], ...)
    worths_after(game, [ids, ...], params)   # each seat's value after each whole action
    summary_worths(game.summary(), params)   # of one summary (None: not for these params)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from brass._core import ffi, lib
from brass.preview import raise_for_action
from brass.rulesets import get_ruleset, id_lists

# Levels of a Birmingham industry's tiles in the params (entry industry * WORTH_LEVELS + level).
WORTH_LEVELS = lib.BRASS_WORTH_LEVELS
# The evaluator's weights, by their names in brass_clients.bots.heuristic.HeuristicWeights.
WEIGHT_NAMES = ("money_vp", "liquidity_vp", "liquidity_money", "income_discount",
                "negative_income_vp", "levels_per_space", "unflipped_goods",
                "unflipped_resources", "merchant_link_icons", "opponent_weight", "whiskey_vp")
VP_RULES = {"none": lib.BRASS_TILE_VP_NONE, "fixed": lib.BRASS_TILE_VP_FIXED,
            "owner_income_level": lib.BRASS_TILE_VP_INCOME_LEVEL,
            "per_heavy_train_built": lib.BRASS_TILE_VP_PER_HEAVY_TRAIN,
            "per_empty_mat_industry_position": lib.BRASS_TILE_VP_PER_EMPTY_POSITION,
            "zero": lib.BRASS_TILE_VP_ZERO}


@dataclass(frozen=True)
class WorthTile:
    """A tile's facts as the evaluator reads them. `vp_rule` "fixed": `vp` is its VP;
    "owner_income_level": at least `vp`; "per_*": `vp` a count; "zero": none."""

    vp_rule: str = "fixed"
    vp: float = 0.0
    level: int = 0
    link_icons: int = 0
    income_spaces: int = 0
    money: int = 0
    goods: bool = False


def _fill(array: Any, values: Sequence[Any], limit: int, what: str) -> None:
    if len(values) > limit:
        raise ValueError(f"{what}: {len(values)} entries, the core takes at most {limit}")
    for k, value in enumerate(values):
        array[k] = value


def _fill_tile(target: Any, tile: WorthTile | None) -> None:
    tile = tile or WorthTile(vp_rule="none")
    target.vp_rule = VP_RULES[tile.vp_rule]
    target.vp = float(tile.vp)
    target.level, target.link_icons = tile.level, tile.link_icons
    target.income_spaces, target.money, target.goods = tile.income_spaces, tile.money, tile.goods


class WorthParams:
    """The core's BrassWorthParams: an evaluator's weights and board facts, checked against
    the core's table sizes once, then passed by pointer on every call."""

    def __init__(self, ruleset: str, *, weights: Mapping[str, float],
                 slot_location: Sequence[int], tiles: Sequence[WorthTile | None],
                 link_ends: Sequence[Sequence[int]], num_locations: int,
                 location_icons: Sequence[float] = (), era_turns: Sequence[float] = (),
                 rounds_per_era: int = 0, eras: int = 0, table_set: int = 0,
                 link_types: Sequence[tuple[bool, bool, int]] = (),
                 oil: WorthTile | None = None) -> None:
        self.ruleset = get_ruleset(ruleset).name
        p = ffi.new("BrassWorthParams *")
        p.ruleset = get_ruleset(ruleset).id
        p.table_set = table_set
        for name in WEIGHT_NAMES:
            setattr(p, name, float(weights[name]))
        _fill(p.era_turns, era_turns, lib.BRASS_MAX_PLAYERS + 1, "era_turns")
        p.rounds_per_era, p.eras = rounds_per_era, eras
        if num_locations > lib.BRASS_WORTH_MAX_LOCATIONS:
            raise ValueError(f"{num_locations} locations, the core takes at most "
                             f"{lib.BRASS_WORTH_MAX_LOCATIONS}")
        p.num_locations = num_locations
        _fill(p.location_icons, location_icons, lib.BRASS_WORTH_MAX_LOCATIONS, "location_icons")
        p.num_slots = len(slot_location)
        _fill(p.slot_location, slot_location, lib.BRASS_WORTH_MAX_SLOTS, "slot_location")
        if len(tiles) > lib.BRASS_WORTH_MAX_TILES:
            raise ValueError(f"{len(tiles)} tiles, the core takes at most "
                             f"{lib.BRASS_WORTH_MAX_TILES}")
        p.num_tiles = len(tiles)
        for k, tile in enumerate(tiles):
            _fill_tile(p.tiles[k], tile)
        p.num_links = len(link_ends)
        if len(link_ends) > lib.BRASS_WORTH_MAX_LINKS:
            raise ValueError(f"{len(link_ends)} links, the core takes at most "
                             f"{lib.BRASS_WORTH_MAX_LINKS}")
        for k, ends in enumerate(link_ends):
            _fill(p.link_ends[k], ends, lib.BRASS_WORTH_MAX_ENDS, f"link {k}'s ends")
            p.link_end_count[k] = len(ends)
        p.num_link_types = len(link_types)
        limit = lib.BRASS_WORTH_MAX_LINK_TYPES
        _fill(p.link_type_pipe, [pipe for pipe, _, _ in link_types], limit, "link_types")
        _fill(p.link_type_light, [light for _, light, _ in link_types], limit, "link_types")
        _fill(p.link_type_multiplier, [times for _, _, times in link_types], limit,
              "link_types")
        p.has_oil = oil is not None
        _fill_tile(p.oil, oil)
        self._params = p


def summary_worths(summary: Sequence[int], params: WorthParams) -> list[float] | None:
    """Each seat's value of a summary (`Game.summary()`), or None where the params do not
    apply (another Pittsburgh table set). ValueError for a summary that does not fit them."""
    out = ffi.new("double[]", lib.BRASS_MAX_PLAYERS)
    err = lib.brass_summary_worths(ffi.new("int32_t[]", list(summary)), len(summary),
                                   params._params, out)
    if err == lib.BRASS_E_UNSUPPORTED:
        return None
    if err:
        raise ValueError(f"the summary does not fit the evaluator's facts (error {err})")
    return ffi.unpack(out, summary[0])


def worths_after(game: Any, actions: Sequence[Sequence[int]], params: WorthParams
                 ) -> list[list[float]] | None:
    """Each seat's value after each whole action of `actions` by the seat to act (`game`
    unchanged; as `Game.summaries_after` then `summary_worths`), or None where the params do
    not apply. EngineError as `apply_compound`'s for an action refused."""
    rs = game._rs
    if params.ruleset != rs.name:
        raise ValueError(f"the evaluator's facts are {params.ruleset}'s, the game is {rs.name}")
    flat, offsets = id_lists(actions, rs)
    n = len(offsets) - 1
    if not n:
        return []
    out = ffi.new("double[]", n * lib.BRASS_MAX_PLAYERS)
    reason, action_at, at = ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
    err = lib.brass_worths_after(game._g, -1, ffi.new("uint16_t[]", flat),
                                 ffi.new("uint32_t[]", offsets), n, params._params, out,
                                 reason, action_at, at)
    if err == lib.BRASS_E_UNSUPPORTED:
        return None
    if err:
        raise_for_action(err, reason[0], action_at[0], at[0], actions, rs)
    players = game.num_players
    flat = ffi.unpack(out, n * lib.BRASS_MAX_PLAYERS)
    return [flat[k * lib.BRASS_MAX_PLAYERS: k * lib.BRASS_MAX_PLAYERS + players]
            for k in range(n)]
