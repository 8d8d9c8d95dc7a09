"""Birmingham's event documents and preview cost breakdown, named for frontends, and its
table of hooks for the neutral modules (brass.hooks): its names (brass.birmingham_names),
position reader (brass.position) and board (brass.board_birmingham)."""

from __future__ import annotations

from typing import Any

from brass import board_birmingham
from brass.birmingham_names import (
    ACTION_TYPES,
    BONUS_KINDS,
    CARD_NAMES,
    ERAS,
    INDUSTRIES,
    LINK_NAMES,
    SLOT_NAMES,
    SPACE_NAMES,
)
from brass.hooks import RulesetHooks
from brass.position import state_from_position
from brass.rulesets import Ruleset


def name_event(d: dict[str, Any], rs: Ruleset, players: int) -> None:
    """Replace raw numbers in a Birmingham event by names a frontend can use."""
    t = d["type"]
    if "slot" in d:
        d["slot"] = SLOT_NAMES[d["slot"]]
    if t in ("coal", "iron", "beer"):
        d["source"] = "market" if d["source"] < 0 else SLOT_NAMES[d["source"]]
        if t == "beer":
            if d["source"] == "market":
                d["source"] = "merchant"
                d["merchant"] = SPACE_NAMES[d["merchant"]]
            else:
                d.pop("merchant", None)
    if t == "action":
        d["action"] = ACTION_TYPES[d["action"]]
        d["card"] = CARD_NAMES[d["card"]]
    if "industry" in d:
        d["industry"] = INDUSTRIES[d["industry"]]
    if "link" in d:
        d["link"] = LINK_NAMES[d["link"]]
    if "merchant" in d and isinstance(d["merchant"], int):
        d["merchant"] = SPACE_NAMES[d["merchant"]]
    if t == "merchant_bonus":
        d["bonus"] = BONUS_KINDS[d["bonus"]]
    if t == "era_end":
        d["era"] = ERAS[d["era"]]
    if t == "turn_order":
        packed, n = d.pop("order"), d.pop("players")
        d["order"] = [(packed >> (4 * i)) & 15 for i in range(n)]


def preview_cost(events: list[dict[str, Any]], actor: int, before: Any, now: Any
                 ) -> dict[str, Any]:
    """The cost breakdown of a previewed Birmingham action (BirminghamCost) from the events
    of the seat to act; `before` and `now` are the core's results around the preview."""
    cost: dict[str, Any] = {"money": 0, "coal": [], "iron": [], "beer": [],
                            "market_income": 0, "flips": [], "merchant_bonus": []}
    for e in events:
        if e["seat"] != actor:
            continue
        t = e["type"]
        if t == "pay":
            cost["money"] += e["money"]
        elif t in ("coal", "iron", "beer"):
            cost[t].append(e["source"])
        elif t == "market_sale":
            cost["market_income"] += e["money"]
        elif t == "merchant_bonus":
            cost["merchant_bonus"].append(e)
    cost["flips"] = [e for e in events if e["type"] == "flip"]
    cost["income_spaces"] = now.income_space[actor] - before.income_space[actor]
    cost["vp"] = now.vp[actor] - before.vp[actor]
    cost["money_after"] = now.money[actor]
    return cost


def read_position(position: dict[str, Any], text: str | bytes | None) -> Any:
    """A state from a Birmingham position (read here, checked by the core)."""
    return state_from_position(position)


HOOKS = RulesetHooks(
    name_event=name_event, preview_cost=preview_cost, read_position=read_position,
    board_files=("birmingham.json", "birmingham_layout.json"),
    board_decisions=board_birmingham.DECISIONS_BY_PREFIX,
    board_problems=board_birmingham.validate, build_board=board_birmingham.build)
