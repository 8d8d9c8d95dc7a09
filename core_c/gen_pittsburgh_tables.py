"""Generate the Pittsburgh C tables from its data files.

  core_c/data/pittsburgh.json       -> core_c/src/pittsburgh/pgh_tables_pittsburgh.h
  core_c/data/pittsburgh_tiny.json  -> core_c/src/pittsburgh/pgh_tables_tiny.h

Both files share one schema (the provisional draft data file's); nothing about the map or
the components is written in C, so official data replace the draft file with no code change.
The output is committed. Run: python core_c/gen_pittsburgh_tables.py (--check: only compare).
The option keys and values are checked against core_c/src/pittsburgh/pgh_options.def (the
options the C rules know); an unknown key or value is an error here, not a silent default.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE / "src" / "pittsburgh"
SETS = [("pittsburgh", HERE / "data" / "pittsburgh.json"),
        ("tiny", HERE / "data" / "pittsburgh_tiny.json")]

# limits of pittsburgh.h (the generated header asserts they agree)
MAX = dict(LOCS=24, SPACES=48, RAILS=36, FIELDS=6, PIPES=12, MARKETS=6, MSPACES=6, MTILES=8,
           FTILES=6, QSLOTS=4, QTILES=8, CARD_TYPES=32, DECK=64, TILES=24, POSITIONS=24,
           LINK_SLOTS=12, LINK_TYPES=12, EDGES=6, SLOT_DEPTH=4)
NONE = 255
CUBES = ["coal", "iron", "steel", "coke", "oil"]
INDUSTRIES = ["kerosene", "coal", "manufacturing", "automobile", "iron_steel", "skyscraper",
              "coke", "oil_city", "polyphase", "locomotive"]
BOARD_ICONS = {"K": 0, "C": 1, "M": 2, "A": 3, "S": 4, "Sky": 5}
LOC_TYPES = {"city": 0, "merchant": 1, "link_only": 2}
BUILD_KINDS = {"space": 0, "upgrade": 1, "oilfield": 2}
VP_RULES = {"per_empty_mat_industry_position": 1, "per_heavy_train_built": 2,
            "owner_income_level": 3}
HEAVY_KINDS = {"resource": 1, "whiskey": 2, "double_link": 3, "replacement": 4}
PIPE_KINDS = {"vp": 1, "money": 2, "income_spaces": 3, "reserve": 4}
BONUS_KINDS = {"income_spaces": 1, "whiskey": 2, "free_develop": 3}
MARKET_KINDS = {"coal_iron": 0, "steel_coke": 1}
ACT_TYPES = ["build", "network", "develop", "sell", "loan", "pass"]


class DataError(Exception):
    pass


def need(cond: bool, msg: str) -> None:
    if not cond:
        raise DataError(msg)


def c_str(s: str | None) -> str:
    if s is None:
        return "0"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def read_options_def() -> list[tuple[str, int, list[str]]]:
    text = (SRC / "pgh_options.def").read_text()
    out = []
    for m in re.finditer(r"^PGH_OPTION\((\w+),\s*(\d+),\s*(\d+),\s*(.*)\)\s*$", text, re.M):
        values = re.findall(r'"([^"]*)"', m.group(4))
        out.append((m.group(1), int(m.group(2)), values))
    return out


def option_value_str(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def pc_mask(counts: list[int]) -> int:
    m = 0
    for c in counts:
        need(c in (2, 3, 4), f"player count {c}")
        m |= 1 << (c - 2)
    return m


def reward(r: dict[str, Any], where: str) -> str:
    known = {"vp", "money", "income_spaces", "whiskey", "free_develop"}
    need(set(r) <= known, f"{where}: unknown reward {sorted(set(r) - known)}")
    vals = [r.get(k, 0) for k in ("vp", "money", "income_spaces", "whiskey", "free_develop")]
    return "{" + ", ".join(map(str, vals)) + ", 0}"


def generate(name: str, data: dict[str, Any]) -> str:  # noqa: C901 - one table per block
    up = name.upper()
    k = data["constants"]
    locs = data["locations"]
    loc_ix = {loc["id"]: i for i, loc in enumerate(locs)}
    need(len(locs) <= MAX["LOCS"], "too many locations")
    # spaces in location order
    spaces: list[tuple[int, int]] = []
    loc_first: list[int] = []
    for i, loc in enumerate(locs):
        loc_first.append(len(spaces))
        for sp in loc["spaces"]:
            mask = 0
            for ic in sp["icons"]:
                need(ic in BOARD_ICONS, f"{loc['id']}: unknown icon {ic}")
                mask |= 1 << BOARD_ICONS[ic]
            spaces.append((i, mask))
    need(len(spaces) <= MAX["SPACES"], "too many industry spaces")
    markets = data["markets"]
    mkt_ix = {m["id"]: i for i, m in enumerate(markets)}
    need(len(markets) <= MAX["MARKETS"], "too many markets")
    mspaces = [loc_ix[s] for s in data["merchants"]["spaces"]]
    need(len(mspaces) <= MAX["MSPACES"], "too many merchant spaces")
    rails = data["rails"]
    need(len(rails) <= MAX["RAILS"], "too many rails")
    fields = data["oilfields"]
    field_ix = {f["id"]: i for i, f in enumerate(fields)}
    need(len(fields) <= MAX["FIELDS"], "too many oilfields")
    pipes = data["pipeline_routes"]
    need(len(pipes) <= MAX["PIPES"], "too many pipeline routes")
    ind_ix = {n: i for i, n in enumerate(INDUSTRIES)}
    # ---- cards: location types in location order, then industry types
    cards = data["cards"]["cards"]
    types: list[tuple[int, int, int]] = []
    for c in cards:
        if c["kind"] == "location":
            t = (0, loc_ix[c["location"]], 0)
        else:
            need(c["kind"] == "industry", f"card {c['id']}: kind {c['kind']}")
            t = (1, ind_ix[c["industry"]], 1 if c.get("oil_city") else 0)
        if t not in types:
            types.append(t)
    types.sort()
    need(len(types) <= MAX["CARD_TYPES"], "too many card types")
    deck = [(types.index((0, loc_ix[c["location"]], 0)) if c["kind"] == "location" else
             types.index((1, ind_ix[c["industry"]], 1 if c.get("oil_city") else 0)),
             pc_mask(c["player_counts"])) for c in cards]
    need(len(deck) <= MAX["DECK"], "too many cards")
    per_player = k["deck_cards_per_player"]
    for n in k["players"]:
        size = sum(1 for _, m in deck if m & (1 << (n - 2)))
        need(size == per_player * n, f"deck for {n} players has {size} cards, "
             f"the rules need {per_player} x {n}")
    # ---- tiles, mat
    tiles = data["industries"]["tiles"]
    tile_ix = {t["id"]: i for i, t in enumerate(tiles)}
    need(len(tiles) <= MAX["TILES"], "too many tile kinds")
    mat = data["player_mat"]
    positions = mat["positions"]
    pos_ix = {p["id"]: i for i, p in enumerate(positions)}
    need(len(positions) <= MAX["POSITIONS"], "too many mat positions")
    paths = mat["paths"]
    edges = mat.get("extra_edges", [])
    need(len(edges) <= MAX["EDGES"], "too many mat edges")
    link_types: list[dict[str, Any]] = [{"id": "light_train", "kind": 0}]
    for h in data["link_tiles"]["heavy_trains"]:
        link_types.append({"id": h["id"], "kind": 1, **h})
    for p in data["link_tiles"]["pipelines"]:
        link_types.append({"id": p["id"], "kind": 2, **p})
    lt_ix = {t["id"]: i for i, t in enumerate(link_types)}
    need(len(link_types) <= MAX["LINK_TYPES"], "too many link types")
    slots = mat["link_slots"]
    need(len(slots) <= MAX["LINK_SLOTS"], "too many link slots")
    # ---- options
    opts = read_options_def()
    data_opts = data["options"]
    unknown = sorted(set(data_opts) - {o[0] for o in opts})
    need(not unknown, f"option keys the C rules do not know: {unknown}")
    defaults = []
    for key, _kind, values in opts:
        need(key in data_opts, f"option {key} missing from the data file")
        d = option_value_str(data_opts[key]["default"])
        need(d in values, f"option {key}: default {d!r} not one of {values}")
        for alt in data_opts[key].get("alt", []):
            need(option_value_str(alt) in values, f"option {key}: value {alt!r} unknown to C")
        defaults.append(values.index(d))

    o: list[str] = []
    w = o.append
    guard = f"PGH_TABLES_{up}_H"
    w(f"/* Generated by core_c/gen_pittsburgh_tables.py from core_c/data/{SETS_FILE[name]}. "
      "Do not edit. */")
    w(f"#ifndef {guard}")
    w(f"#define {guard}")
    w('#include "pittsburgh.h"')
    for key, val in MAX.items():
        w(f"_Static_assert(PGH_MAX_{key} == {val}, \"limit {key}\");")
    w(f"_Static_assert(PGH_NUM_OPTIONS == {len(opts)}, \"options\");")
    for (key, _kind, _values), d in zip(opts, defaults, strict=True):
        ruling = data_opts[key].get("ruling", "")
        w(f"#define PGH_{up}_DEFAULT_{key} {d}")
        w(f"#define PGH_{up}_RULING_{key} {c_str(ruling)}")
    names = action_names(data, locs, spaces, loc_first, rails, fields, pipes, markets, mspaces,
                         types, positions, link_types)
    w(f"_Static_assert(PGH_NUM_ACTIONS == {len(names)}, \"action space\");")
    w(f"static const char *const PGH_NAMES_{up}[{len(names)}] = {{")
    for i in range(0, len(names), 6):
        w("  " + " ".join(c_str(n) + "," for n in names[i:i + 6]))
    w("};")
    # placeholders and version
    meta = data["meta"]
    m = re.search(r"Rulebook (v[0-9.]+)", meta.get("game", ""))
    version = meta.get("draft_version") or (m.group(1) if m else "unknown")
    ph = [f"{p['id']}: {p['what']}" for p in data.get("placeholders", [])]
    desc = (f"Brass: Pittsburgh, {data['meta'].get('status', '').split('.')[0]}. "
            f"Rules from the draft rulebook {version}; "
            + (f"placeholder data: {'; '.join(ph)}." if ph else "no placeholder data."))
    w(f"static const PghTables PGH_TABLES_{up} = {{")
    w(f"  .name = {c_str(name)}, .description = {c_str(desc)},")
    ph_ids = ",".join(p["id"] for p in data.get("placeholders", []))
    w(f"  .draft_version = {c_str(version)}, .placeholders = {c_str(ph_ids)},")
    w(f"  .num_locs = {len(locs)}, .num_spaces = {len(spaces)}, .num_rails = {len(rails)},"
      f" .num_fields = {len(fields)}, .num_pipes = {len(pipes)}, .num_markets = {len(markets)},")
    w(f"  .num_mspaces = {len(mspaces)}, .num_mtiles = {len(data['merchant_tiles'])},"
      f" .num_ftiles = {len(data['oilfield_tiles'])},"
      f" .num_qslots = {len(data['quality_rewards']['slots'])},"
      f" .num_qtiles = {len(data['quality_rewards']['tiles'])}, .num_card_types = {len(types)},")
    w(f"  .num_tiles = {len(tiles)}, .num_positions = {len(positions)},"
      f" .num_link_slots = {len(slots)}, .num_link_types = {len(link_types)},"
      f" .num_edges = {len(edges)}, .num_deck = {len(deck)}, .num_paths = {len(paths)},")
    need(k["income_start_space"] < 100, "income start")
    w(f"  .start_money = {k['starting_money']}, .start_vp = {k['starting_vp']},"
      f" .loan_money = {k['loan_money']}, .second_link_money = {k['second_link_money']},"
      f" .bankruptcy_vp = {k['bankruptcy_vp']},")
    w(f"  .loan_levels = {-k['loan_income_levels']}, .whiskey_cap = {k['whiskey_cap']},"
      f" .hand_size = {k['hand_size']}, .rounds_per_era = {k['rounds_per_era']},"
      f" .actions_per_turn = {k['actions_per_turn']},"
      f" .actions_first_round = {k['actions_first_round_era1']},"
      f" .setup_facedown = {k['setup_facedown_discard_era1']},"
      f" .income_start_space = {k['income_start_space']}, .min_level = {k['min_income_level']},")
    vp = k["vanderbilt_price"]
    w("  .vanderbilt = {" + ", ".join(str(vp.get(c, 0)) for c in CUBES) + "},")
    lc = k["link_cost"]
    w("  .link_cost = {" + ", ".join(
        "{" + ", ".join(str(lc[kind].get(c, 0)) for c in CUBES) + "}"
        for kind in ("light_train", "heavy_train", "pipeline")) + "},")
    track = data["income_track"]["table"]
    need([t["space"] for t in track] == list(range(100)), "income track must list 0..99")
    w("  .level_of_space = {" + ", ".join(str(t["level"]) for t in track) + "},")
    tops = []
    for lv in range(-10, 31):
        sp = [t["space"] for t in track if t["level"] == lv]
        need(bool(sp), f"income level {lv} has no space")
        tops.append(max(sp))
    w("  .top_space_of_level = {" + ", ".join(map(str, tops)) + "},")
    pp = data["link_tiles"]["per_player"]
    w(f"  .light_trains = {pp['light_trains']},")
    start = [0] * len(link_types)
    for lid in pp["supply_heavy_trains"] + pp["supply_pipelines"]:
        start[lt_ix[lid]] += 1
    w("  .supply_start = {" + ", ".join(map(str, start)) + "},")
    w("  .deck_size_for = {" + ", ".join(str(per_player * n) for n in (2, 3, 4)) + "},")
    w("  .locs = {")
    for i, loc in enumerate(locs):
        mk = mkt_ix[loc["market"]] if loc.get("market") else NONE
        ms = mspaces.index(i) if i in mspaces else NONE
        east = 1 if loc.get("placeholder") == "PH2" else 0
        w(f"    {{{c_str(loc['id'])}, {LOC_TYPES[loc['type']]}, {loc_first[i]}, "
          f"{len(loc['spaces'])}, {loc['link_icons']}, {mk}, {ms}, {east}}},")
    w("  },")
    w("  .spaces = {" + ", ".join(f"{{{a}, {b}}}" for a, b in spaces) + "},")
    w("  .rails = {")
    for r in rails:
        a, b = (loc_ix[e] for e in r["endpoints"])
        bonus = r.get("bonus") or {}
        bk = BONUS_KINDS[bonus["type"]] if bonus else 0
        east = 1 if "PH2" in (locs[a].get("placeholder"), locs[b].get("placeholder")) else 0
        w(f"    {{{c_str(r['id'])}, {a}, {b}, {bk}, {bonus.get('amount', 0)}, {east}}},")
    w("  },")
    w("  .field_ids = {" + ", ".join(c_str(f["id"]) for f in fields) + "},")
    w("  .pipes = {")
    for p in pipes:
        w(f"    {{{c_str(p['id'])}, {field_ix[p['oilfield']]}, {loc_ix[p['location']]}, "
          f"{p['oil_icons']}}},")
    w("  },")
    w("  .markets = {")
    for mk in markets:
        cols = list(mk["columns"].items())
        need(len(cols) == 2, f"{mk['id']}: two columns")
        cube = [CUBES.index(c) for c, _ in cols]
        nslots = [len(col["slots"]) for _, col in cols]
        need(max(nslots) <= MAX["SLOT_DEPTH"], "market column too deep")
        fill = [col["setup_fill"] for _, col in cols]
        vps = ["{" + ", ".join(str(s["vp"]) for s in col["slots"]) + "}" for _, col in cols]
        w(f"    {{{c_str(mk['id'])}, {loc_ix[mk['location']]}, {MARKET_KINDS[mk['kind']]}, "
          f"{mk['price']}, {{{cube[0]}, {cube[1]}}}, {{{nslots[0]}, {nslots[1]}}}, "
          f"{{{fill[0]}, {fill[1]}}}, {{{vps[0]}, {vps[1]}}}}},")
    w("  },")
    # per cube, the markets selling it cheapest first (ties by market order), then NONE
    by_price = []
    for cube in CUBES:
        sells = [i for i, mk in enumerate(markets) if cube in mk["columns"]]
        sells.sort(key=lambda i: markets[i]["price"])
        by_price.append(sells + [NONE] * (MAX["MARKETS"] - len(sells)))
    w("  .markets_by_price = {" + ", ".join(
        "{" + ", ".join(map(str, row)) + "}" for row in by_price) + "},")
    w("  .mspace_loc = {" + ", ".join(map(str, mspaces)) + "},")
    w("  .mtiles = {")
    for t in data["merchant_tiles"]:
        fa = sum(1 << ind_ix[x] for x in t["front"]["accepts"])
        ba = sum(1 << ind_ix[x] for x in t["back"]["accepts"])
        ph = 1 if t.get("src") == "placeholder" else 0
        w(f"    {{{c_str(t['id'])}, {fa}, {ba}, {pc_mask(t['player_counts'])}, {ph}, "
          f"{reward(t['front']['reward'], t['id'])}}},")
    w("  },")
    w("  .ftiles = {")
    for t in data["oilfield_tiles"]:
        w(f"    {{{c_str(t['id'])}, {t['oil']}, {pc_mask(t['player_counts'])}, "
          f"{reward(t['reward'], t['id'])}}},")
    w("  },")
    stars = [str(s["stars"]) for s in data["quality_rewards"]["slots"]]
    w("  .qslot_stars = {" + ", ".join(stars) + "},")
    w("  .qtiles = {")
    for t in data["quality_rewards"]["tiles"]:
        ph = 1 if t.get("src") == "placeholder" else 0
        w(f"    {{{c_str(t['id'])}, {ph}, {reward(t['reward'], t['id'])}}},")
    w("  },")
    w("  .cards = {" + ", ".join(f"{{{a}, {b}, {c}}}" for a, b, c in types) + "},")
    w("  .deck_card = {" + ", ".join(str(c) for c, _ in deck) + "},")
    w("  .deck_pc = {" + ", ".join(str(m) for _, m in deck) + "},")
    w("  .tiles = {")
    for t in tiles:
        cost = t["cost"]
        prod = [(CUBES.index(c), n) for c, n in t["produces"].items() if c in CUBES]
        need(len(prod) <= 2, f"{t['id']}: at most two outputs")
        prod += [(NONE, 0)] * (2 - len(prod))
        vpv = t["vp"]
        if isinstance(vpv, dict):
            rule, amount, min0 = VP_RULES[vpv["rule"]], vpv.get("per", 1), 1 if "min" in vpv else 0
        else:
            rule, amount, min0 = 0, vpv, 0
        fr: dict[str, int] = {}
        for item in t["flip_reward"]:
            for key, val in item.items():
                need(key in ("income_spaces", "money", "whiskey", "free_develops", "bonus_sell",
                             "money_x_income_level"), f"{t['id']}: flip reward {key}")
                fr[key] = val
        era = (1 if t["era1"] else 0) | (2 if t["era2"] else 0)
        up_of = ind_ix[t["upgrade_of"]] if t.get("upgrade_of") else NONE
        oil_sell = -1 if t["oil_to_sell"] is None else t["oil_to_sell"]
        w(f"    {{{c_str(t['id'])}, {ind_ix[t['industry']]}, {t['level']}, {t['count']}, "
          f"{BUILD_KINDS[t['build']]}, {up_of}, {era}, {cost['money']}, "
          "{" + ", ".join(str(cost.get(c, 0)) for c in CUBES) + "}, "
          f"{cost['income_levels']}, {oil_sell}, {t['quality_stars']}, "
          f"{{{prod[0][0]}, {prod[1][0]}}}, {{{prod[0][1]}, {prod[1][1]}}}, "
          f"{1 if t['produces'].get('plus_all_oil_on_oilfield') else 0}, {rule}, {amount}, {min0}, "
          f"{fr.get('income_spaces', 0)}, {fr.get('whiskey', 0)}, {fr.get('free_develops', 0)}, "
          f"{fr.get('bonus_sell', 0)}, {fr.get('money_x_income_level', 0)}, {fr.get('money', 0)}, "
          f"{t['link_icons']}, {1 if t['enters_flipped'] else 0}, {1 if t['sellable'] else 0}, "
          f"{1 if t['level_one_removed_after_era1'] else 0}}},")
    w("  },")
    w("  .positions = {")
    for p in positions:
        below = pos_ix[p["below"]] if p.get("below") else NONE
        need(tiles[tile_ix[p["tile"]]]["count"] == p["count"], f"{p['id']}: count")
        w(f"    {{{c_str(p['id'])}, {tile_ix[p['tile']]}, {p['count']}, {below}, "
          f"{paths.index(p['path'])}}},")
    w("  },")
    # per position, the positions right above it (whose tile is covered while it has one)
    above = [0] * len(positions)
    for i, p in enumerate(positions):
        if p.get("below"):
            above[pos_ix[p["below"]]] |= 1 << i
    w("  .above = {" + ", ".join(map(str, above)) + "},")
    w("  .edges = {")
    for e in edges:
        bidir = 1 if e["kind"] == "shortcut_bidirectional" else 0
        loco = 1 if (tiles[tile_ix[positions[pos_ix[e["to"]]]["tile"]]]["industry"] == "locomotive"
                     and not bidir) else 0
        w(f"    {{{pos_ix[e['from']]}, {pos_ix[e['to']]}, {bidir}, {loco}}},")
    w("  },")
    w("  .link_slots = {" + ", ".join(
        f"{{{pos_ix[s['unlocks_when_empty']]}, {lt_ix[s['link']]}}}" for s in slots) + "},")
    w("  .link_types = {")
    for t in link_types:
        kind = t["kind"]
        heavy = HEAVY_KINDS[t["type"]] if kind == 1 else 0
        pipe = PIPE_KINDS[t["type"]] if kind == 2 else 0
        cargo = NONE
        if heavy == 1:
            (cname,) = t["on_build"]["place_on_train"].keys()
            cargo = CUBES.index(cname)
        whiskey = t.get("on_build", {}).get("whiskey", 0) if kind == 1 else 0
        double = 1 if heavy == 3 else 0
        per = t.get("per_barrel", 0) if kind == 2 else 0
        res = t.get("on_build", {}).get("oil_to_oilfield", 0) if kind == 2 else 0
        w(f"    {{{c_str(t['id'])}, {kind}, {heavy}, {pipe}, {cargo}, {whiskey}, {double}, "
          f"{per}, {res}}},")
    w("  },")
    w("  .option_default = {" + ", ".join(map(str, defaults)) + "},")
    w(f"  .action_names = PGH_NAMES_{up},")
    w("};")
    w("")
    w("#endif")
    return "\n".join(o) + "\n"


SETS_FILE = {n: p.name for n, p in SETS}


def action_names(data: dict[str, Any], locs: list[dict[str, Any]], spaces: list[tuple[int, int]],
                 loc_first: list[int], rails: list[dict[str, Any]], fields: list[dict[str, Any]],
                 pipes: list[dict[str, Any]], markets: list[dict[str, Any]], mspaces: list[int],
                 types: list[tuple[int, int, int]], positions: list[dict[str, Any]],
                 link_types: list[dict[str, Any]]) -> list[str]:
    names: list[str] = []

    def block(items: list[str], size: int, prefix: str) -> None:
        need(len(items) <= size, f"too many {prefix}")
        names.extend(items)
        names.extend(f"{prefix}:unused{i}" for i in range(len(items), size))

    block([f"type:{t}" for t in ACT_TYPES], len(ACT_TYPES), "type")
    cards = []
    ind_seen: dict[int, int] = {}
    for kind, target, _oil_city in types:
        if kind == 0:
            cards.append(f"card:{locs[target]['id']}")
        else:
            n = INDUSTRIES[target]
            ind_seen[target] = ind_seen.get(target, 0) + 1
            cards.append(f"card:{n}" + ("" if ind_seen[target] == 1 else "+oil_city"))
    block(cards, MAX["CARD_TYPES"], "card")
    block([f"tile:{p['id']}" for p in positions], MAX["POSITIONS"], "tile")
    sp_names = [f"slot:{locs[li]['id']}.{si - loc_first[li]}"
                for si, (li, _) in enumerate(spaces)]
    block(sp_names, MAX["SPACES"], "slot")
    block([f"oilfield:{f['id']}" for f in fields], MAX["FIELDS"], "oilfield")
    block([f"link:{r['id']}" for r in rails], MAX["RAILS"], "link")
    block([f"pipeline:{p['id']}" for p in pipes], MAX["PIPES"], "pipeline")
    block([f"oil_city_via:{p['id']}" for p in pipes], MAX["PIPES"], "oil_city_via")
    block([f"market:{m['location']}" for m in markets], MAX["MARKETS"], "market")
    names.append("vanderbilt")
    block([f"link_tile:{t['id']}" for t in link_types], MAX["LINK_TYPES"], "link_tile")
    block([f"merchant:{locs[m]['id']}.0" for m in mspaces], MAX["MSPACES"], "merchant")
    block([f"quality:{s['stars']}" for s in data["quality_rewards"]["slots"]], MAX["QSLOTS"],
          "quality")
    names.extend(f"cube:{c}" for c in CUBES)
    names.append("bonus_sell")
    names.append("done")
    need(len(set(names)) == len(names), "action names must be unique")
    return names


def main() -> int:
    stale = 0
    for name, path in SETS:
        if not path.exists():
            print(f"missing {path}", file=sys.stderr)
            return 1
        try:
            text = generate(name, json.loads(path.read_text()))
        except (DataError, KeyError, ValueError) as e:
            print(f"{path.name}: {e}", file=sys.stderr)
            return 1
        out = SRC / f"pgh_tables_{name}.h"
        if "--check" in sys.argv:
            if not out.exists() or out.read_text() != text:
                print(f"{out} is not current: run python core_c/gen_pittsburgh_tables.py",
                      file=sys.stderr)
                stale = 1
        else:
            out.write_text(text)
    return stale


if __name__ == "__main__":
    raise SystemExit(main())
