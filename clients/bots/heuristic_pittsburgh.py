"""Static evaluation of a Brass: Pittsburgh position for one seat, in victory-point equivalents.

Only the engine's public view is read (`game.view(None)`); legality is never decided here.
Tile VP, link icons and flip rewards come from the data file the game plays
(`core_c/data/pittsburgh.json` or a synthetic one such as `pittsburgh_tiny.json`, named by
the view's ``data``), so new data needs no change here. What the evaluation values and why
is documented in docs/PITTSBURGH.md ("Bots").

The era-end scoring (P59-P62) is what a Pittsburgh position is worth, so the evaluator
estimates it: the VP already held, plus every VP the seat's board still scores at the era
ends left (a flipped tile of level II or more scores at the end of era 1 and again at the end
of era 2; a level-I tile and a light train only once), plus money and income converted to VP
while there is time to spend them. It is an estimate: the engine scores the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import brass
from brass.worths import WorthParams, WorthTile
from brass_clients.bots.heuristic import WorthEvaluator

ROUNDS_PER_ERA = 8
ERAS = 2
SELLABLE = frozenset(("kerosene", "manufacturing", "automobile"))  # P51: sold, then flipped


@dataclass(frozen=True)
class PghTileFacts:
    level: int
    vp: int | dict[str, Any]       # a number, or the data file's variable rule (P37, P40)
    link_icons: int
    income_spaces: int             # flip reward in income spaces
    money: int                     # flip reward in money
    industry: str


@dataclass(frozen=True)
class PghBoardFacts:
    tiles: dict[str, PghTileFacts]          # by mat position (the view's "tile")
    location_icons: dict[str, int]          # icons printed on merchant / link-only locations
    rail_endpoints: dict[str, tuple[str, ...]]
    train_multiplier: dict[str, int]        # link tile -> scoring multiplier (double link 2)
    oil_city: PghTileFacts | None


def _data_file(name: str) -> Path | None:
    file_name = "pittsburgh.json" if name == "pittsburgh" else f"pittsburgh_{name}.json"
    package_dir = Path(brass.__file__).resolve().parent
    for candidate in (package_dir / "data" / file_name,
                      package_dir.parent.parent / "data" / file_name):
        if candidate.is_file():
            return candidate
    return None


def _facts_of(tile: dict[str, Any]) -> PghTileFacts:
    rewards = tile.get("flip_reward") or []
    return PghTileFacts(
        level=int(tile["level"]), vp=tile["vp"], link_icons=int(tile.get("link_icons") or 0),
        income_spaces=sum(int(r.get("income_spaces", 0)) for r in rewards),
        money=sum(int(r.get("money", 0)) for r in rewards), industry=tile["industry"])


@lru_cache(maxsize=4)
def board_facts(data: str) -> PghBoardFacts:
    """The facts the evaluation needs from the data file `data` (the game's table set)."""
    path = _data_file(data)
    if path is None:
        raise FileNotFoundError(f"the Pittsburgh data file of table set {data!r} is missing")
    d = json.loads(path.read_text())
    by_id = {t["id"]: _facts_of(t) for t in d["industries"]["tiles"]}
    tiles = {p["id"]: by_id[p["tile"]] for p in d["player_mat"]["positions"]}
    multiplier = {t["id"]: int(t.get("scoring_multiplier", 1))
                  for t in d["link_tiles"]["heavy_trains"]}
    return PghBoardFacts(
        tiles=tiles,
        location_icons={loc["id"]: int(loc.get("link_icons") or 0) for loc in d["locations"]},
        rail_endpoints={r["id"]: tuple(r["endpoints"]) for r in d["rails"]},
        train_multiplier=multiplier,
        oil_city=by_id.get("oil_city"))


# The table sets by their index in the core's summary (pittsburgh.h PghTableSet).
TABLE_SETS = ("pittsburgh", "tiny")


@dataclass(frozen=True)
class PghSummaryTables:
    """The summary's indexes as the view's names (the default table set's, the ruleset's
    action names): space -> location, tile kind -> its facts, rail -> its ends, link type ->
    (a pipeline?, a light train?, scoring multiplier)."""

    printed_icons: tuple[int | float, ...]  # by location index (0.0: none printed)
    space_location: tuple[int, ...]
    tile_of_kind: tuple[PghTileFacts | None, ...]
    rail_ends: tuple[tuple[int, ...], ...]
    link_type: tuple[tuple[bool, bool, int], ...]


@lru_cache(maxsize=1)
def summary_tables() -> PghSummaryTables:
    facts = board_facts("pittsburgh")
    path = _data_file("pittsburgh")
    assert path is not None  # board_facts found it
    kinds = [t["id"] for t in json.loads(path.read_text())["industries"]["tiles"]]
    rs = brass.get_ruleset("pittsburgh")
    spaces = [name.split(".")[0] for name in rs.names_with("slot")]
    rails = [facts.rail_endpoints.get(route, ()) for route in rs.names_with("link")]
    names = sorted(set(facts.location_icons) | set(spaces)
                   | {end for ends in rails for end in ends})
    index = {name: k for k, name in enumerate(names)}
    return PghSummaryTables(
        printed_icons=tuple(facts.location_icons.get(name, 0.0) for name in names),
        space_location=tuple(index[name] for name in spaces),
        tile_of_kind=tuple(facts.tiles.get(kind) for kind in kinds),
        rail_ends=tuple(tuple(index[end] for end in ends) for ends in rails),
        link_type=tuple((tile.startswith("pipe_"), tile == "light_train",
                         facts.train_multiplier.get(tile, 1))
                        for tile in rs.names_with("link_tile")))


def _tile_vp(t: PghTileFacts, player: dict[str, Any]) -> float:
    """A tile's VP at an era end: its number, or an estimate of its variable rule from the
    owner's state now (the engine computes the exact value when it scores)."""
    if not isinstance(t.vp, dict):
        return float(t.vp)
    rule, per = t.vp.get("rule"), float(t.vp.get("per", 1))
    if rule == "owner_income_level":
        return max(float(t.vp.get("min", 0)), float(player["income_level"]))
    if rule == "per_heavy_train_built":
        return per * player["heavy_built"]
    if rule == "per_empty_mat_industry_position":
        return per * sum(1 for left in player["mat"].values() if left == 0)
    return 0.0


class PittsburghEvaluator(WorthEvaluator):
    """`value(game, seat)`: the seat's estimated worth minus its opponents' (VP units).

    Shares `HeuristicWeights` with Birmingham's evaluator (the same meaning where the games
    share it); `whiskey_vp` is Pittsburgh's own. `merchant_link_icons` is not used: the data
    file prints each merchant location's icons.
    """

    def seat_worths(self, view: dict[str, Any]) -> list[float]:
        w = self.weights
        players = view["players"]
        n = view["num_players"]
        if view["game_over"]:  # P65: VP, then the income space, then money
            return [p["vp"] + 0.01 * p["income_space"] + 0.001 * p["money"] for p in players]
        facts = board_facts(view["data"])
        era, round_ = view["era"], view["round"]
        cards_left = view["deck_size"] + sum(p["hand_size"] for p in players)
        era_left_share, scorings_left, money_vp, income_vp, worth = _clock_and_worths(
            w, n, era, round_, cards_left,
            [(p["money"], p["vp"], p["income_level"], p["whiskey"]) for p in players])

        def scorings(level: int) -> int:
            # P62/P63: level-I tiles leave after era 1; the others score at every era end
            return 1 if level <= 1 else scorings_left

        icons_at: dict[str, float] = dict(facts.location_icons)  # P60: printed icons count
        for space in view["spaces"]:
            t = facts.tiles.get(space["tile"])
            if t is None:
                continue
            owner = space["owner"]
            location = space["slot"].split(".")[0]
            vp = _tile_vp(t, players[owner])
            if space["flipped"]:
                worth[owner] += vp * scorings(t.level)
                icons_at[location] = icons_at.get(location, 0.0) + t.link_icons
            else:
                base = w.unflipped_goods if t.industry in SELLABLE else w.unflipped_resources
                share = base * (0.35 + 0.65 * era_left_share)
                reward = (income_vp * w.levels_per_space * t.income_spaces
                          + money_vp * t.money)
                worth[owner] += share * (vp * scorings(t.level) + reward)
                # unflipped tiles show no icons (P60), but may flip before the era ends
                icons_at[location] = icons_at.get(location, 0.0) + share * t.link_icons
        if facts.oil_city is not None:
            for field in view["oilfields"]:
                owner = field["oil_city_owner"]
                if owner < 0:
                    continue
                oil = facts.oil_city
                if field["oil_city_flipped"]:
                    worth[owner] += _tile_vp(oil, players[owner]) * scorings_left
                else:
                    share = w.unflipped_resources * (0.35 + 0.65 * era_left_share)
                    worth[owner] += share * (_tile_vp(oil, players[owner]) * scorings_left
                                             + money_vp * oil.money)
        for link in view["links"]:
            tile = link["tile"]
            if tile.startswith("pipe_"):
                continue  # pipelines never score (P60)
            ends = facts.rail_endpoints.get(link["route"], ())
            icons = sum(icons_at.get(location, 0.0) for location in ends)
            # light trains leave at every era end, heavy trains only after era 2 (P61)
            times = 1 if tile == "light_train" else scorings_left
            worth[link["owner"]] += icons * facts.train_multiplier.get(tile, 1) * times
        return worth

    def make_worth_params(self) -> WorthParams:
        """The facts of seat_worths by the summary's indexes (`summary_tables`: the default
        table set's; the core answers "not these facts" for another, valued from its view)."""
        tables = summary_tables()
        oil = board_facts("pittsburgh").oil_city
        return WorthParams(
            "pittsburgh", weights=self.weight_values(), table_set=TABLE_SETS.index("pittsburgh"),
            rounds_per_era=ROUNDS_PER_ERA, eras=ERAS, location_icons=tables.printed_icons,
            num_locations=len(tables.printed_icons), slot_location=tables.space_location,
            tiles=[_worth_tile(t) for t in tables.tile_of_kind], link_ends=tables.rail_ends,
            link_types=tables.link_type, oil=None if oil is None else _worth_tile(oil))


def _worth_tile(t: PghTileFacts | None) -> WorthTile | None:
    """A tile's facts for the core: its VP a number or its variable rule (`_tile_vp`)."""
    if t is None:
        return None
    if not isinstance(t.vp, dict):
        rule, vp = "fixed", float(t.vp)
    elif t.vp.get("rule") == "owner_income_level":
        rule, vp = "owner_income_level", float(t.vp.get("min", 0))
    elif t.vp.get("rule") in ("per_heavy_train_built", "per_empty_mat_industry_position"):
        rule, vp = str(t.vp["rule"]), float(t.vp.get("per", 1))
    else:
        rule, vp = "zero", 0.0
    return WorthTile(vp_rule=rule, vp=vp, level=t.level, link_icons=t.link_icons,
                     income_spaces=t.income_spaces, money=t.money,
                     goods=t.industry in SELLABLE)


def _clock_and_worths(w: Any, n: int, era: int, round_: int, cards_left: int,
                      seats: list[tuple[int, int, int, int]]
                      ) -> tuple[float, int, float, float, list[float]]:
    """What the game's clock makes of money and income, and each seat's worth before its
    tiles, from (money, vp, income level, whiskey) a seat: (the share of the era left, era
    ends still to score, VP a pound, VP a level of income, the worths). One place for both
    evaluator paths (the view's and the summary's), so they give the same floats."""
    turns_left_era = cards_left / (2 * n)       # each action discards one card (P10)
    era_turns = ROUNDS_PER_ERA - 0.5            # era 1 round 1 is one action
    turns_left = turns_left_era + (ERAS - era) * ROUNDS_PER_ERA
    era_left_share = min(1.0, turns_left_era / era_turns)
    # Income is paid at every round end but the game's last (P13).
    incomes_left = max(0, ROUNDS_PER_ERA - round_ + (ERAS - era) * ROUNDS_PER_ERA)
    scorings_left = ERAS - era + 1              # era ends still to come (P59)
    time_to_spend = min(1.0, turns_left / 4.0)
    money_vp = w.money_vp * time_to_spend
    liquidity_vp = w.liquidity_vp * time_to_spend
    income_vp = w.money_vp * w.income_discount * incomes_left
    worth = [vp + money_vp * money + income_vp * level
             + liquidity_vp * min(money, w.liquidity_money)
             - w.negative_income_vp * time_to_spend * max(0, -level)
             + w.whiskey_vp * time_to_spend * whiskey
             for money, vp, level, whiskey in seats]
    return era_left_share, scorings_left, money_vp, income_vp, worth
