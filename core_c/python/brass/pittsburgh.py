"""Pittsburgh's event documents and preview cost breakdown, named for frontends.

The core reports an event as a kind and up to three numbers (`pgh_event_fields`); this
module only replaces the numbers by the ids of the ruleset's action space and data file
("slot" 5 becomes "saginaw.2", "source" 128 becomes "market:toledo"), so that every event
matches its message in proto/brass/v1/pittsburgh.proto. No rule is decided here: the cost
breakdown is a summary of the events the core emitted for the preview. `HOOKS` is the
ruleset's table of these for the neutral modules (brass.hooks).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from brass import board_pittsburgh
from brass.board_common import data_dir
from brass.hooks import RulesetHooks
from brass.position import state_from_c_position

# The core's enums the events carry (pittsburgh.h: PghPipeKind, PghBonusKind).
_PIPE_KINDS = ("none", "vp", "money", "income_spaces", "reserve")
_BONUS_KINDS = ("none", "income_spaces", "whiskey", "free_develop")
# Where a cube or barrel comes from, by the prefix of the option that takes it.
SOURCE_KINDS = {"slot": "tile", "link": "train", "market": "market", "vanderbilt": "vanderbilt",
                "pipeline": "oilfield", "oil_city_via": "oil_city"}


@cache
def _data_tile_ids() -> dict[str, tuple[str, ...]]:
    """Merchant, oilfield and quality tile ids in the core's table order (the generator
    keeps the data file's order)."""
    data = json.loads((data_dir() / "pittsburgh.json").read_text(encoding="utf-8"))
    return {"merchant": tuple(t["id"] for t in data["merchant_tiles"]),
            "oilfield": tuple(t["id"] for t in data["oilfield_tiles"]),
            "quality": tuple(t["id"] for t in data["quality_rewards"]["tiles"])}


def _pick(names: tuple[str, ...], index: Any) -> Any:
    """names[index], or the number itself when it is out of range (never raises)."""
    if isinstance(index, int) and 0 <= index < len(names):
        return names[index]
    return index


class _Names:
    """The ruleset's names by prefix, looked up once per process."""

    def __init__(self, rs: Any) -> None:
        self.actions = rs.action_names
        for prefix in ("type", "card", "tile", "slot", "oilfield", "link", "pipeline",
                       "market", "link_tile", "merchant", "quality", "cube"):
            setattr(self, prefix, rs.names_with(prefix))

    def action(self, action: Any) -> Any:
        return _pick(self.actions, action)

    def slot_or_oilfield(self, d: dict[str, Any], key: str, value: int) -> None:
        """The core writes -1 - f for an Oil City on oilfield f where a slot index goes."""
        if value < 0:
            d.pop(key, None)
            d["oilfield"] = _pick(self.oilfield, -1 - value)
        else:
            d[key] = _pick(self.slot, value)


_NAMES: dict[int, _Names] = {}


def name_event(d: dict[str, Any], rs: Any, players: int) -> None:
    """Replace the core's numbers in a Pittsburgh event document by names (in place)."""
    n = _NAMES.get(rs.id)
    if n is None:
        n = _NAMES[rs.id] = _Names(rs)
    tiles = _data_tile_ids()
    t = d["type"]
    if t == "action":
        d["action"] = _pick(n.type, d["action"])
        d["card"] = _pick(n.card, d["card"])
    elif t == "build":
        place = d.pop("place")
        d["tile"] = _pick(n.tile, d["tile"])
        name = n.action(place)
        if isinstance(name, str) and name.startswith("oilfield:"):
            d["oilfield"] = name.partition(":")[2]
        else:
            d["place"] = _pick(n.slot, place)
    elif t in ("upgrade_score", "tile_removed"):
        d["slot"] = _pick(n.slot, d["slot"])
        d["tile"] = _pick(n.tile, d["tile"])
    elif t == "link":
        d["route"] = n.action(d["route"])
        d["link_tile"] = _pick(n.link_tile, d["link_tile"])
    elif t == "replaced":
        d["link"] = _pick(n.link, d["link"])
        d["link_tile"] = _pick(n.link_tile, d["link_tile"])
    elif t == "develop":
        d["position"] = _pick(n.tile, d["position"])
        d["free"] = bool(d["free"])
    elif t == "sell":
        d["slot"] = _pick(n.slot, d["slot"])
        d["merchant"] = _pick(n.merchant, d["merchant"])
    elif t in ("flip", "tile_score"):
        n.slot_or_oilfield(d, "slot", d["slot"])
        if t == "flip":
            d["tile"] = _pick(n.tile, d["tile"])
    elif t == "cube":
        d["cube"] = _pick(n.cube, d["cube"])
        d["source"] = n.action(d["source"])
    elif t == "oil":
        if d["cube"] < 0:  # barrels a pipeline's placement added to its oilfield
            del d["cube"]
            d["source"] = "pipeline:" + str(_pick(n.pipeline, d["source"]))
        else:
            d["cube"] = _pick(n.cube, d["cube"])
            d["source"] = n.action(d["source"])
    elif t == "pipe_reward":
        d["pipeline"] = _pick(n.pipeline, d["pipeline"])
        d["kind"] = _pick(_PIPE_KINDS, d["kind"])
    elif t == "market_sale":
        d["market"] = _pick(n.market, d["market"])
        d["cube"] = _pick(n.cube, d["cube"])
    elif t == "merchant_reward":
        d["merchant"] = _pick(n.merchant, d["merchant"])
        d["tile"] = _pick(tiles["merchant"], d["tile"])
    elif t == "quality":
        d["quality"] = _pick(n.quality, d["quality"])
        d["tile"] = _pick(tiles["quality"], d["tile"])
    elif t == "reveal":
        d["oilfield"] = _pick(n.oilfield, d["oilfield"])
        # -1: a preview's reveal, whose face-down tile the core does not show
        d["tile"] = "unknown" if d["tile"] == -1 else _pick(tiles["oilfield"], d["tile"])
    elif t == "route_bonus":
        d["link"] = _pick(n.link, d["link"])
        d["kind"] = _pick(_BONUS_KINDS, d["kind"])
    elif t == "link_score":
        d["link"] = _pick(n.link, d["link"])
    elif t == "turn_order":
        packed = d["order"]
        d["order"] = [(packed >> (4 * i)) & 15 for i in range(players)]
    elif t == "era_end":
        d["era"] += 1  # as the view counts eras


def event_by_kind(e: dict[str, Any]) -> dict[str, Any]:
    """An event document in PittsburghEvent's form: {"seat": 0, "<type>": {its fields}}
    (the seat left out when the event has none)."""
    out: dict[str, Any] = {e["type"]: {k: v for k, v in e.items() if k not in ("type", "seat")}}
    if e.get("seat") is not None:
        out["seat"] = e["seat"]
    return out


def preview_cost(events: list[dict[str, Any]], actor: int, before: Any, after: Any
                 ) -> dict[str, Any]:
    """The cost breakdown of a previewed Pittsburgh action (PittsburghPreviewCost): what
    pays each cube and barrel the seat to act takes, and what follows. `before` and `after`
    are the core's results (money, VP, income space by seat) around the preview."""
    cost: dict[str, Any] = {"money": before.money[actor] - after.money[actor],
                            "money_after": after.money[actor], "resource_money": 0,
                            "resources": [], "oil_added": [], "market_sales": [],
                            "market_income": 0, "flips": [], "pipe_rewards": [],
                            "income_spaces": after.income_space[actor] - before.income_space[actor],
                            "vp": after.vp[actor] - before.vp[actor]}
    for e in events:
        t = e["type"]
        fields = {k: v for k, v in e.items() if k not in ("type", "seat")}
        if t == "flip":
            cost["flips"].append(event_by_kind(e))
        elif t == "pipe_reward":
            cost["pipe_rewards"].append(event_by_kind(e))
        if e["seat"] != actor:
            continue
        if t == "cube" or (t == "oil" and "cube" in e):
            prefix, _, which = str(e["source"]).partition(":")
            price = e.get("price", 0)
            cost["resources"].append({"cube": e["cube"], "price": price, "source": which,
                                      "source_kind": SOURCE_KINDS.get(prefix, prefix)})
            cost["resource_money"] += price
        elif t == "oil":
            cost["oil_added"].append(fields)
        elif t == "market_sale":
            cost["market_sales"].append(fields)
            cost["market_income"] += e["price"]
    return cost


def read_position(position: dict[str, Any], text: str | bytes | None) -> Any:
    """A state from a Pittsburgh position: read by the core (core_c/src/pittsburgh), from
    the caller's own text when the position came as text."""
    return state_from_c_position(position if text is None else text, "pittsburgh")


HOOKS = RulesetHooks(
    name_event=name_event, preview_cost=preview_cost, read_position=read_position,
    board_files=("pittsburgh.json", "pittsburgh_layout.json"),
    board_decisions=board_pittsburgh.DECISIONS_BY_PREFIX,
    board_problems=board_pittsburgh.validate, build_board=board_pittsburgh.build)
