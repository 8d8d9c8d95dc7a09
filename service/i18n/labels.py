"""GetRuleset's display labels: a ruleset's names in each language (service/i18n)."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from brass.board_common import data_dir
from brass.rulesets import get_ruleset

from .labels_catalogue import (
    ACTION_TYPES,
    CARDS,
    DATA_TILES,
    DECISION_KINDS,
    EVENTS,
    INDUSTRIES,
    LINK_TILES,
    LOCATIONS_ZH,
    OPTION_KINDS,
    OPTIONS_ZH,
    OPTIONS_ZH_OF,
    REWARDS,
    RULING_ZH,
    TILES_ZH,
    UNUSED_CARD,
    Pair,
)
from .options_catalogue import OPTION_TITLES, OPTION_VALUES, RULING_DEFAULTS
from .reasons_catalogue import REASONS_ZH

ENGLISH, CHINESE = "en", "zh-Hans"
_RULING = re.compile(r"PITTSBURGH_RULINGS\.md (P\d+)")


def _pick(table: dict[str, Pair], names: list[str]) -> dict[str, dict[str, str]]:
    """{language: {name: label}} of `names` (a KeyError names a label missing)."""
    return {ENGLISH: {n: table[n][0] for n in names}, CHINESE: {n: table[n][1] for n in names}}


def industries_of(description: dict[str, Any]) -> list[str]:
    """The industries a ruleset's description names: its industry options, its tiles'."""
    names = {a["value"] for a in description["actions"] if a["kind"] == "industry"}
    names |= {t["industry"] for t in (description.get("board") or {}).get("tiles", [])}
    return sorted(names)


def _card(card: str, parts: dict[str, dict[str, dict[str, str]]], language: str) -> str:
    """A card's label: its location's or industry's, else its own."""
    for table in ("locations", "industries"):
        if card in parts[table][language]:
            return parts[table][language][card]
    pair = CARDS.get(card) or (UNUSED_CARD if card.startswith("unused") else None)
    if pair is None:
        raise KeyError(f"no label for card {card!r}")
    return pair[0] if language == ENGLISH else pair[1]


def _option_words(ruleset: str, option: dict[str, Any], language: str) -> str:
    """An option's description in `language`: a ruling switch says what its default means,
    then its ruling ("... (ruling P60)"); the others their own words."""
    ruling = _RULING.fullmatch(option["description"])
    if ruling is not None:
        english, chinese = RULING_DEFAULTS[option["key"]]
        if language == ENGLISH:
            return f"{english} (ruling {ruling.group(1)})"
        return f"{chinese}（{RULING_ZH.format(ruling=ruling.group(1))}）"
    if language == ENGLISH:
        return option["description"]
    return OPTIONS_ZH_OF.get(ruleset, {}).get(option["key"]) or OPTIONS_ZH[option["key"]]


@cache
def _data_tiles(ruleset: str) -> tuple[dict[str, Any], ...]:
    """The merchant and oilfield tiles of a ruleset's data file (Pittsburgh's), each with
    its "kind"."""
    if ruleset != "pittsburgh":
        return ()
    data = json.loads((data_dir() / "pittsburgh.json").read_text(encoding="utf-8"))
    return tuple([{"kind": "merchant", **t} for t in data["merchant_tiles"]]
                 + [{"kind": "oilfield", **t} for t in data["oilfield_tiles"]])


def _data_tile_words(tile: dict[str, Any], industries: dict[str, str], index: int) -> str:
    """A merchant tile ("Merchant tile: Automobile Plant (8 VP)") or an oilfield tile
    ("Oilfield tile: $8, 1 barrels") in words; a placeholder's says so."""
    side = tile.get("front", tile)
    (kind, n), = side["reward"].items()
    reward = REWARDS[kind][index].format(n=n)
    if tile["kind"] == "merchant":
        goods = "/".join(industries[g] for g in side["accepts"])
        words = DATA_TILES["merchant"][index].format(goods=goods, reward=reward)
    else:
        words = DATA_TILES["oilfield"][index].format(reward=reward, n=tile["oil"])
    return words + (DATA_TILES["placeholder"][index] if tile.get("placeholder") else "")


def ruleset_labels(description: dict[str, Any]) -> dict[str, dict[str, dict[str, str]]]:
    """{language: {category: {engine name: label}}} for brass.board.describe_ruleset's
    dict: decision kinds, option kinds, action types, industries, reasons, locations (and
    oilfields), tiles (industry, link, merchant and oilfield tiles by id), events
    (GameEvent kinds), cards, and the game options' titles, descriptions and enum values
    ("key=value")."""
    name = description["ruleset"]
    actions = description["actions"]
    parts = {
        "decision_kinds": _pick(DECISION_KINDS, description["decision_kinds"]),
        "option_kinds": _pick(OPTION_KINDS, sorted({a["kind"] for a in actions})),
        "action_types": _pick(ACTION_TYPES, [a["value"] for a in actions
                                             if a["kind"] == "action_type"]),
        "industries": _pick(INDUSTRIES[name], industries_of(description)),
    }
    reasons = description["reasons"]
    parts["reasons"] = {
        ENGLISH: {r["code"]: r["message"] for r in reasons},
        CHINESE: {r["code"]: REASONS_ZH[name][r["code"]] for r in reasons},
    }
    board = description.get("board") or {}
    locations = board.get("locations", []) + board.get("oilfields", [])
    parts["locations"] = {
        ENGLISH: {p["id"]: p["name"] for p in locations},
        CHINESE: {p["id"]: LOCATIONS_ZH[name][p["id"]] for p in locations},
    }
    tiles, link_tiles = board.get("tiles", []), board.get("link_tiles", [])
    parts["tiles"] = {
        ENGLISH: {t["id"]: t["name"] for t in tiles} | {t["id"]: LINK_TILES[t["id"]][0]
                                                         for t in link_tiles},
        CHINESE: {t["id"]: TILES_ZH[name][t["id"]] for t in tiles} | {
            t["id"]: LINK_TILES[t["id"]][1] for t in link_tiles},
    }
    for index, language in enumerate((ENGLISH, CHINESE)):
        parts["tiles"][language] |= {
            t["id"]: _data_tile_words(t, parts["industries"][language], index)
            for t in _data_tiles(name)}
    parts["options"] = {language: {o["key"]: _option_words(name, o, language)
                                   for o in description["options"]}
                        for language in (ENGLISH, CHINESE)}
    parts["option_titles"] = {language: {o["key"]: OPTION_TITLES[o["key"]][index]
                                         for o in description["options"]}
                              for index, language in enumerate((ENGLISH, CHINESE))}
    values = [(o["key"], v) for o in description["options"] if o["type"] == "enum"
              for v in o["allowed"]]
    parts["option_values"] = {language: {f"{key}={value}": OPTION_VALUES[key, value][index]
                                         for key, value in values}
                              for index, language in enumerate((ENGLISH, CHINESE))}
    parts["events"] = _pick(EVENTS, [kind for kind, _ in get_ruleset(name).event_names])
    cards = {a["value"] for a in actions if a["kind"] == "card"}
    if not locations:  # a description without board data: no label for location cards
        cards = {c for c in cards if c in CARDS or c.startswith("unused")
                 or c in parts["industries"][ENGLISH]}
    parts["cards"] = {language: {card: _card(card, parts, language) for card in sorted(cards)}
                      for language in (ENGLISH, CHINESE)}
    return {language: {category: tables[language] for category, tables in parts.items()}
            for language in (ENGLISH, CHINESE)}
