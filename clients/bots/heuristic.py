"""Static evaluation of a position for one seat, in victory-point equivalents.

Only the engine's public view is read (`game.view(None)`); legality is never decided here.
Tile values (VP, link icons, income spaces) come from the engine's board data file; the
formula is documented in docs/BOTS.md. `PositionEvaluator` is Birmingham's; Pittsburgh's
is `heuristic_pittsburgh.PittsburghEvaluator`; `evaluator_for` picks a game's.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import brass
from brass.engine import LINK_NAMES
from brass.worths import WORTH_LEVELS, WorthParams, WorthTile, summary_worths, worths_after
from brass_clients.bots.base import number_option

GOODS = ("cotton", "manufacturer", "pottery")


@dataclass(frozen=True)
class HeuristicWeights:
    money_vp: float = 0.15           # VP equivalent of £1 while there is time to spend it
    liquidity_vp: float = 0.4        # extra VP per £ of the first `liquidity_money` pounds
    liquidity_money: int = 12
    income_discount: float = 1.0     # future income counts this much of its face value
    negative_income_vp: float = 0.5  # extra VP lost per income level below 0 (shortfall risk)
    levels_per_space: float = 0.5    # income levels per income space (mid-track average)
    unflipped_goods: float = 0.5     # weight of an unflipped cotton / manufacturer / pottery
    unflipped_resources: float = 0.35  # weight of an unflipped coal mine / iron works / brewery
    merchant_link_icons: int = 2     # printed link icons of a merchant location
    opponent_weight: float = 1.0     # how much the opponents' mean worth counts against ours
    whiskey_vp: float = 0.5          # Pittsburgh only: VP equivalent of one whiskey (P15)


# A weight's size is bounded so that no sum of weighted terms overflows to inf (and then
# NaN), whatever the position.
MAX_WEIGHT = 1e6


def checked_weights(bot: str, overrides: dict[str, Any]) -> HeuristicWeights:
    """HeuristicWeights with `overrides` (bot options), each checked: a known field, a
    finite number of at most MAX_WEIGHT in size, an integer for the integer fields."""
    kinds = {spec.name: spec.type for spec in dataclasses.fields(HeuristicWeights)}
    checked: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in kinds:
            known = ", ".join(kinds)
            raise ValueError(f"bot {bot!r}: unknown option {name!r} (weights: {known})")
        checked[name] = number_option(bot, name, value, integer=kinds[name] == "int",
                                      minimum=-MAX_WEIGHT, maximum=MAX_WEIGHT)
    return HeuristicWeights(**checked)


@dataclass(frozen=True)
class TileFacts:
    vp: int
    link_icons: int
    income_spaces: int


@dataclass
class BoardFacts:
    tiles: dict[tuple[str, int], TileFacts]
    link_locations: dict[str, tuple[str, ...]]
    merchant_locations: frozenset[str]
    income_level_of_space: list[int] = field(default_factory=list)

    def tile(self, industry: str, level: int) -> TileFacts:
        return self.tiles.get((industry, level), TileFacts(2 * level + 1, 1, 2))


def _board_data_file() -> Path | None:
    package_dir = Path(brass.__file__).resolve().parent
    for candidate in (package_dir / "data" / "birmingham.json",
                      package_dir.parent.parent / "data" / "birmingham.json"):
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=1)
def board_facts() -> BoardFacts:
    """Tile and link facts from the engine's data file (rough defaults when it is absent)."""
    link_locations = {name: tuple(name.split("--")) for name in LINK_NAMES}
    path = _board_data_file()
    if path is None:
        return BoardFacts({}, link_locations, frozenset())
    data = json.loads(path.read_text())
    tiles: dict[tuple[str, int], TileFacts] = {}
    for industry, facts in data["industries"]["per_industry"].items():
        for level in facts["levels"]:
            tiles[(industry, int(level["level"]))] = TileFacts(
                int(level["vp"]), int(level["link_icons"]), int(level["income_spaces"]))
    for link in data["links"]:
        link_locations[link["id"]] = tuple(link.get("connects") or link["endpoints"])
    merchants = frozenset(m["id"] for m in data["merchants"]["locations"])
    return BoardFacts(tiles, link_locations, merchants)


@lru_cache(maxsize=8)
def turns_per_era(players: int) -> float:
    """Turns each seat gets in an era, measured on a fresh deal (cards / actions per turn)."""
    view = brass.Game.new(players, seed=0).view(None)
    cards = view["deck_size"] + sum(p["hand_size"] for p in view["player_state"])
    return cards / (2 * players) + 0.5


class WorthEvaluator:
    """`value(game, seat)`: the seat's estimated worth minus its opponents' (VP units); a
    ruleset's evaluator gives `seat_worths` of the spectator view, the readable form of its
    formula, and the same formula's facts for the core (`worth_params`), which values the
    summary (brass_summary_worths: the same doubles, a search's inner loop in C)."""

    def __init__(self, weights: HeuristicWeights | None = None) -> None:
        self.weights = weights or HeuristicWeights()
        self._worth_params: WorthParams | None = None

    def value(self, game: brass.Game, seat: int) -> float:
        return self.values(game)[seat]

    def values(self, game: brass.Game) -> list[float]:
        """`value` for every seat at once, from the core's summary of the game
        (`Game.summary`, valued by the core: the spectator view's numbers without its
        JSON); `values_of_view` is the same from the view's JSON."""
        values = summary_worths(game.summary(), self.worth_params)
        return values if values is not None else self.values_of_view(game.view(None))

    def values_after(self, game: brass.Game, actions: Sequence[Sequence[int]]
                     ) -> list[list[float]]:
        """`values` of the position after each whole action of `actions` by the seat to act
        (`game` unchanged), all worked out in one core call (`brass.worths.worths_after`):
        the same as a clone, `apply_compound` and `values` each."""
        values = worths_after(game, actions, self.worth_params)
        if values is not None:
            return values
        out = []
        for ids in actions:
            trial = game.clone()
            trial.apply_compound(ids, events=False)
            out.append(self.values_of_view(trial.view(None)))
        return out

    def values_of_view(self, view: dict[str, Any]) -> list[float]:
        """`values` from a spectator view (`game.view(None)`): the same numbers."""
        return self._relative(self.seat_worths(view))

    def _relative(self, worth: list[float]) -> list[float]:
        total, n = sum(worth), len(worth)
        return [w - self.weights.opponent_weight * (total - w) / (n - 1) for w in worth]

    def seat_worths(self, view: dict[str, Any]) -> list[float]:
        raise NotImplementedError

    @property
    def worth_params(self) -> WorthParams:
        """The weights and board facts the core values summaries with (made once)."""
        if self._worth_params is None:
            self._worth_params = self.make_worth_params()
        return self._worth_params

    def make_worth_params(self) -> WorthParams:
        raise NotImplementedError

    def weight_values(self) -> dict[str, float]:
        return dataclasses.asdict(self.weights)


class PositionEvaluator(WorthEvaluator):
    """Birmingham's evaluator (docs/BOTS.md)."""

    def __init__(self, weights: HeuristicWeights | None = None) -> None:
        super().__init__(weights)
        self.facts = board_facts()
        self._tables: SummaryTables | None = None

    def seat_worths(self, view: dict[str, Any]) -> list[float]:
        w = self.weights
        players = view["players"]
        states = view["player_state"]
        if view["game_over"]:
            return [p["vp"] + 0.01 * p["income_level"] + 0.001 * p["money"] for p in states]
        cards_left = view["deck_size"] + sum(p["hand_size"] for p in states)
        more_eras = view["era"] == "canal" and not view["options"]["beginner"]
        era_left_share, income_vp, worth = _clock_and_worths(
            w, players, more_eras, cards_left,
            [(p["money"], p["vp"], p["income_level"]) for p in states])

        icons_at: dict[str, float] = {}
        for slot_name, tile in view["slots"].items():
            location = slot_name.split(".")[0]
            industry, owner = tile["industry"], tile["owner"]
            t = self.facts.tile(industry, tile["level"])
            if tile["flipped"]:
                worth[owner] += t.vp
                icons_at[location] = icons_at.get(location, 0.0) + t.link_icons
            else:
                base = w.unflipped_goods if industry in GOODS else w.unflipped_resources
                share = base * (0.35 + 0.65 * era_left_share)
                income_gain = w.levels_per_space * t.income_spaces
                worth[owner] += share * (t.vp + income_vp * income_gain)
                icons_at[location] = icons_at.get(location, 0.0) + share * t.link_icons
        for link_name, owner in view["links"].items():
            link_vp = 0.0
            for location in self.facts.link_locations.get(link_name, ()):
                if location in self.facts.merchant_locations:
                    link_vp += w.merchant_link_icons
                else:
                    link_vp += icons_at.get(location, 0.0)
            worth[owner] += link_vp
        return worth


    def make_worth_params(self) -> WorthParams:
        """The facts of seat_worths by the summary's indexes (`summary_tables`)."""
        tables = self.tables
        tiles = [WorthTile(vp=t.vp, level=level, link_icons=t.link_icons,
                           income_spaces=t.income_spaces, goods=goods)
                 for levels, goods in zip(tables.tile_of, tables.goods, strict=True)
                 for level, t in enumerate(levels)]
        return WorthParams(
            "birmingham", weights=self.weight_values(), slot_location=tables.slot_location,
            tiles=tiles, link_ends=tables.link_ends, num_locations=tables.locations,
            era_turns=[0.0, 0.0, *(turns_per_era(players) for players in (2, 3, 4))])

    @property
    def tables(self) -> SummaryTables:
        if self._tables is None:
            self._tables = summary_tables(self.facts)
        return self._tables


@dataclass(frozen=True)
class SummaryTables:
    """Birmingham's summary indexes as the evaluator uses them (board_facts): slot ->
    location index, industry -> its tiles' facts by level and whether it is goods, link ->
    the indexes of the locations it joins (-1 for a merchant location)."""

    locations: int
    slot_location: tuple[int, ...]
    tile_of: tuple[tuple[TileFacts, ...], ...]
    goods: tuple[bool, ...]
    link_ends: tuple[tuple[int, ...], ...]


def summary_tables(facts: BoardFacts) -> SummaryTables:
    rs = brass.get_ruleset("birmingham")
    industries = rs.names_with("industry")
    slot_names = [name.split(".")[0] for name in rs.names_with("slot")]
    link_names = [facts.link_locations.get(name, ()) for name in rs.names_with("link")]
    names = sorted(set(slot_names) | {loc for ends in link_names for loc in ends})
    index = {name: k for k, name in enumerate(names)}
    return SummaryTables(
        locations=len(names),
        slot_location=tuple(index[name] for name in slot_names),
        tile_of=tuple(tuple(facts.tile(industry, level) for level in range(WORTH_LEVELS))
                      for industry in industries),
        goods=tuple(name in GOODS for name in industries),
        link_ends=tuple(tuple(-1 if loc in facts.merchant_locations else index[loc]
                              for loc in ends) for ends in link_names))


class Evaluator(Protocol):
    def value(self, game: brass.Game, seat: int) -> float: ...

    def values(self, game: brass.Game) -> list[float]: ...

    def values_after(self, game: brass.Game, actions: Sequence[Sequence[int]]
                     ) -> list[list[float]]: ...


def evaluator_for(ruleset: str, weights: HeuristicWeights | None = None) -> Evaluator:
    """The static evaluator of a ruleset's positions ("birmingham", "pittsburgh")."""
    if ruleset == "pittsburgh":
        from brass_clients.bots.heuristic_pittsburgh import PittsburghEvaluator

        return PittsburghEvaluator(weights)
    if ruleset == "birmingham":
        return PositionEvaluator(weights)
    raise ValueError(f"no static evaluator for ruleset {ruleset!r}")


def _clock_and_worths(w: Any, players: int, more_eras: bool, cards_left: int,
                      seats: list[tuple[int, int, int]]) -> tuple[float, float, list[float]]:
    """What the game's clock makes of money and income, and each seat's worth before its
    tiles, from (money, vp, income level) a seat: (the share of the era left, VP a level of
    income, the worths). The core's brass_summary_worths (core_c/src/bots/) follows it
    line for line, so both give the same floats."""
    era_turns = turns_per_era(players)
    turns_left_era = cards_left / (2 * players)
    turns_left = turns_left_era + (era_turns if more_eras else 0.0)
    era_left_share = min(1.0, turns_left_era / era_turns)
    time_to_spend = min(1.0, turns_left / 4.0)
    money_vp = w.money_vp * time_to_spend
    liquidity_vp = w.liquidity_vp * time_to_spend
    income_vp = money_vp * w.income_discount * max(0.0, turns_left - 1.0)
    worth = [vp + money_vp * money + income_vp * level
             + liquidity_vp * min(money, w.liquidity_money)
             - w.negative_income_vp * time_to_spend * max(0, -level)
             for money, vp, level in seats]
    return era_left_share, income_vp, worth
