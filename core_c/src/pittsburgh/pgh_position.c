/* The Pittsburgh JSON position format read back into a state (docs/PITTSBURGH.md, "Position
   format"); the writer is pgh_view.c:pgh_position_json. Every value is checked where it is
   read (type, range, name, the keys an object may hold, derived values agreeing with what
   they derive from; the checks of one value are pgh_position_values.c's), each error naming
   the value's JSON path; the whole state is then checked by pgh_validate. A position written
   by the engine reads back to the same state bytes (so the same state hash). */
#include "pgh_position_values.h"

#define PGH_POSITION_NODES 4096

static const char *const TOP_KEYS[] = {
    "ruleset", "format", "rules_edition", "data", "draft_version", "num_players", "era", "round", "phase",
    "current", "actions_left", "game_over", "deck_size", "turn_order", "turn_index", "auto_resolve", "options",
    "players", "spaces", "links", "oilfields", "markets", "merchants", "quality", "discards", "deck",
    "rail_bonus_taken", "pending", "seed", "rng", "decisions_applied", NULL};
static const char *const PLAYER_KEYS[] = {
    "money", "vp", "spent", "income_space", "income_level", "whiskey", "hand_size", "heavy_built", "hand", "mat",
    "supply", "facedown", "last_discard", "links_released", NULL};
static const char *const PENDING_KEYS[] = {
    "action", "card", "position", "place", "stage", "target", "need", "link_tile", "route", "route_is_pipeline",
    "links_placed", "free_develops", "count", "last_position", "bonus_sell", "merchants_used", "sale_cube",
    "sale_last_market", "stars", "sell_space", "whiskey_build", "swapped", "free_batch", "accessible_before",
    "sold", "sold_merchant", NULL};
/* keys a seat's view has in place of hidden ones: a view is not a position */
static int view_hint(RC *c, int root) {
    if (pgh_pv_member(c, root, "format") < 0 && pgh_pv_member(c, root, "deck") < 0)
        return pgh_pv_bad(c, "format", "is required (a seat's view is not a position: it has no deck, seed or "
                                       "face-down cards)");
    return 0;
}

static int read_players(RC *c, PittsburghGame *g, int list) {
    const PghTables *T = c->T;
    int n = g->h.num_players;
    TRY(pgh_pv_want(c, list, JT_ARRAY, "players"));
    if ((int)pgh_pv_node(c, list)->count != n) return pgh_pv_bad(c, "players", "must list %d players", n);
    int e = list + 1;
    for (int p = 0; p < n; p++, e = jt_next(&c->p, e)) {
        char path[32];
        pgh_pv_pathf(path, sizeof path, "players[%d]", p);
        TRY(pgh_pv_only(c, e, path, PLAYER_KEYS));
        PghPlayer *pl = &g->players[p];
        long long v;
        TRY(pgh_pv_get_int(c, e, "money", path, 0, 9999, NO_DEFAULT, &v));
        pl->money = (int16_t)v;
        TRY(pgh_pv_get_int(c, e, "vp", path, -9999, 9999, 0, &v));
        pl->vp = (int16_t)v;
        TRY(pgh_pv_get_int(c, e, "spent", path, 0, 9999, 0, &v));
        pl->spent = (int16_t)v;
        GET_U8(e, "income_space", path, 0, 99, T->income_start_space, pl->income_space);
        int level = pgh_level_of(g, pl->income_space);
        TRY(pgh_pv_get_int(c, e, "income_level", path, -10, 30, level, &v));
        if (v != level) {
            char where[64];
            pgh_pv_join(where, sizeof where, path, "income_level");
            return pgh_pv_bad(c, where, "must be %d, the level of income_space %d", level, pl->income_space);
        }
        GET_U8(e, "whiskey", path, 0, T->whiskey_cap, 0, pl->whiskey);
        GET_U8(e, "heavy_built", path, 0, 40, 0, pl->heavy_built);
        TRY(pgh_pv_name_counts(c, e, "hand", path, PN_CARD, T->hand_size, 1, pl->hand));
        int hs = 0;
        for (int k = 0; k < PGH_MAX_CARD_TYPES; k++) hs += pl->hand[k];
        char where[64];
        pgh_pv_join(where, sizeof where, path, "hand");
        if (hs > T->hand_size) return pgh_pv_bad(c, where, "holds %d cards; a hand holds at most %d", hs, T->hand_size);
        pl->hand_size = (uint8_t)hs;
        TRY(pgh_pv_get_int(c, e, "hand_size", path, 0, T->hand_size, hs, &v));
        if (v != hs) {
            pgh_pv_join(where, sizeof where, path, "hand_size");
            return pgh_pv_bad(c, where, "must be %d, the cards in hand", hs);
        }
        for (int pos = 0; pos < T->num_positions; pos++) pl->mat_left[pos] = T->positions[pos].count;
        TRY(pgh_pv_name_counts(c, e, "mat", path, PN_POSITION, 255, 1, pl->mat_left));
        for (int pos = 0; pos < T->num_positions; pos++)
            if (pl->mat_left[pos] > T->positions[pos].count) {
                char at[96];
                pgh_pv_pathf(at, sizeof at, "%s.mat.%s", path, T->positions[pos].id);
                return pgh_pv_bad(c, at, "must be at most %d, the tiles of that mat position", T->positions[pos].count);
            }
        memcpy(pl->supply, T->supply_start, sizeof pl->supply);
        pl->supply[0] = (uint8_t)(pl->supply[0] + T->light_trains);
        TRY(pgh_pv_name_counts(c, e, "supply", path, PN_LINK_TYPE, 20, 1, pl->supply));
        TRY(pgh_pv_get_name(c, e, "facedown", path, PN_CARD, 1, PGH_NONE, &pl->facedown_card));
        TRY(pgh_pv_get_name(c, e, "last_discard", path, PN_CARD, 1, PGH_NONE, &pl->last_discard));
        int rel = pgh_pv_member(c, e, "links_released");
        if (rel >= 0) {
            pgh_pv_join(where, sizeof where, path, "links_released");
            TRY(pgh_pv_want(c, rel, JT_ARRAY, where));
            int x = rel + 1;
            for (uint32_t i = 0; i < pgh_pv_node(c, rel)->count; i++, x = jt_next(&c->p, x)) {
                char at[96];
                pgh_pv_pathf(at, sizeof at, "%s[%u]", where, i);
                long long s;
                TRY(pgh_pv_int_at(c, x, at, 0, T->num_link_slots - 1, &s));
                if (pl->slots_released >> s & 1u) return pgh_pv_bad(c, at, "listed twice");
                pl->slots_released |= (uint16_t)(1u << s);
            }
        }
    }
    return 0;
}

static int read_spaces(RC *c, PittsburghGame *g, int list) {
    const PghTables *T = c->T;
    TRY(pgh_pv_want(c, list, JT_ARRAY, "spaces"));
    int e = list + 1;
    for (uint32_t i = 0; i < pgh_pv_node(c, list)->count; i++, e = jt_next(&c->p, e)) {
        char path[32];
        pgh_pv_pathf(path, sizeof path, "spaces[%u]", i);
        TRY(pgh_pv_want(c, e, JT_OBJECT, path));
        uint8_t s, tile;
        TRY(pgh_pv_get_name(c, e, "slot", path, PN_SPACE, 0, -1, &s));
        PghSpace *sp = &g->spaces[s];
        if (sp->owner >= 0) {
            char at[48];
            pgh_pv_join(at, sizeof at, path, "slot");
            return pgh_pv_bad(c, at, "space '%s' is listed twice", pgh_name(T, PN_SPACE, s));
        }
        TRY(pgh_pv_get_name(c, e, "tile", path, PN_TILE, 0, -1, &tile));
        const PghTile *t = &T->tiles[tile];
        const char *keys[] = {"slot", "owner", "tile", "flipped", t->prod_cube[0] < PGH_NUM_CUBES ? pgh_name(T, PN_CUBE, t->prod_cube[0]) : "none",
                              t->prod_cube[1] < PGH_NUM_CUBES ? pgh_name(T, PN_CUBE, t->prod_cube[1]) : NULL, NULL};
        TRY(pgh_pv_only(c, e, path, keys));
        long long v;
        TRY(pgh_pv_get_int(c, e, "owner", path, 0, g->h.num_players - 1, NO_DEFAULT, &v));
        sp->owner = (int8_t)v;
        sp->tile = tile;
        TRY(pgh_pv_get_bool(c, e, "flipped", path, 0, &sp->flipped));
        for (int k = 0; k < 2 && keys[4 + k]; k++) GET_U8(e, keys[4 + k], path, 0, 255, 0, sp->cubes[k]);
    }
    return 0;
}

static int read_links(RC *c, PittsburghGame *g, int list) {
    static const char *const RAIL_KEYS[] = {"route", "owner", "tile", "cargo", NULL};
    static const char *const PIPE_KEYS[] = {"route", "owner", "tile", NULL};
    TRY(pgh_pv_want(c, list, JT_ARRAY, "links"));
    int e = list + 1;
    for (uint32_t i = 0; i < pgh_pv_node(c, list)->count; i++, e = jt_next(&c->p, e)) {
        char path[32], at[48];
        pgh_pv_pathf(path, sizeof path, "links[%u]", i);
        pgh_pv_join(at, sizeof at, path, "route");
        TRY(pgh_pv_want(c, e, JT_OBJECT, path));
        int r = pgh_pv_member(c, e, "route");
        if (r < 0) return pgh_pv_bad(c, at, "is required");
        int rail = pgh_pv_lookup(c, PN_RAIL, r), pipe = rail < 0 ? pgh_pv_lookup(c, PN_PIPE, r) : -1;
        if (rail < 0 && pipe < 0) return pgh_pv_bad(c, at, "unknown rail or pipeline route");
        TRY(pgh_pv_only(c, e, path, rail >= 0 ? RAIL_KEYS : PIPE_KEYS));
        int8_t *owner = rail >= 0 ? &g->rails[rail].owner : &g->pipes[pipe].owner;
        if (*owner >= 0) return pgh_pv_bad(c, at, "route listed twice");
        long long v;
        TRY(pgh_pv_get_int(c, e, "owner", path, 0, g->h.num_players - 1, NO_DEFAULT, &v));
        *owner = (int8_t)v;
        uint8_t lt;
        TRY(pgh_pv_get_name(c, e, "tile", path, PN_LINK_TYPE, 0, -1, &lt));
        if (rail >= 0) {
            g->rails[rail].link_type = lt;
            GET_U8(e, "cargo", path, 0, 1, 0, g->rails[rail].cargo);
        } else {
            g->pipes[pipe].link_type = lt;
        }
    }
    return 0;
}

/* A list with exactly one entry per table item, in table order, each naming its item. */
static int table_list(RC *c, int root, const char *key, int count, int *first) {
    int v;
    TRY(pgh_pv_required(c, root, key, "", &v));
    TRY(pgh_pv_want(c, v, JT_ARRAY, key));
    if ((int)pgh_pv_node(c, v)->count != count) return pgh_pv_bad(c, key, "must list all %d, in the data file's order", count);
    *first = v + 1;
    return 0;
}

static int check_id(RC *c, int obj, const char *key, const char *path, const char *want_id) {
    int v;
    TRY(pgh_pv_required(c, obj, key, path, &v));
    if (!jt_eq(&c->p, v, want_id)) {
        char at[64];
        pgh_pv_join(at, sizeof at, path, key);
        return pgh_pv_bad(c, at, "must be '%s' (entries follow the data file's order)", want_id);
    }
    return 0;
}

static int read_board(RC *c, PittsburghGame *g, int root) {
    const PghTables *T = c->T;
    int e, v;
    if ((v = pgh_pv_member(c, root, "spaces")) >= 0) TRY(read_spaces(c, g, v));
    if ((v = pgh_pv_member(c, root, "links")) >= 0) TRY(read_links(c, g, v));
    static const char *const FIELD_KEYS[] = {"id", "barrels", "tile_state", "tile", "pending", "oil_city_owner",
                                             "oil_city_barrels", "oil_city_flipped", NULL};
    TRY(table_list(c, root, "oilfields", T->num_fields, &e));
    for (int f = 0; f < T->num_fields; f++, e = jt_next(&c->p, e)) {
        char path[32];
        pgh_pv_pathf(path, sizeof path, "oilfields[%d]", f);
        TRY(pgh_pv_only(c, e, path, FIELD_KEYS));
        TRY(check_id(c, e, "id", path, T->field_ids[f]));
        PghField *fd = &g->fields[f];
        long long x;
        GET_U8(e, "barrels", path, 0, 200, 0, fd->barrels);
        TRY(pgh_pv_get_name(c, e, "tile_state", path, PN_FIELD_STATE, 0, -1, &fd->tile_state));
        TRY(pgh_pv_get_name(c, e, "tile", path, PN_FTILE, 1, -1, &fd->tile));
        GET_U8(e, "pending", path, 0, 200, 0, fd->pending);
        TRY(pgh_pv_get_int(c, e, "oil_city_owner", path, -1, g->h.num_players - 1, -1, &x));
        fd->oc_owner = (int8_t)x;
        GET_U8(e, "oil_city_barrels", path, 0, 200, 0, fd->oc_barrels);
        TRY(pgh_pv_get_bool(c, e, "oil_city_flipped", path, 0, &fd->oc_flipped));
    }
    TRY(table_list(c, root, "markets", T->num_markets, &e));
    for (int m = 0; m < T->num_markets; m++, e = jt_next(&c->p, e)) {
        char path[32];
        pgh_pv_pathf(path, sizeof path, "markets[%d]", m);
        const PghMarket *mk = &T->markets[m];
        const char *keys[] = {"id", "price", pgh_name(T, PN_CUBE, mk->col_cube[0] % PGH_NUM_CUBES),
                              pgh_name(T, PN_CUBE, mk->col_cube[1] % PGH_NUM_CUBES), NULL};
        TRY(pgh_pv_only(c, e, path, keys));
        TRY(check_id(c, e, "id", path, mk->id));
        long long price;
        TRY(pgh_pv_get_int(c, e, "price", path, 0, 255, mk->price, &price));
        if (price != mk->price) {
            char at[48];
            pgh_pv_join(at, sizeof at, path, "price");
            return pgh_pv_bad(c, at, "must be %d, the market's printed price", mk->price);
        }
        for (int col = 0; col < 2; col++) {
            GET_U8(e, keys[2 + col], path, 0, 255, NO_DEFAULT, g->market_fill[m][col]);
            if (g->market_fill[m][col] > pgh_market_slots(g, m, col)) {
                char at[48];
                pgh_pv_join(at, sizeof at, path, keys[2 + col]);
                return pgh_pv_bad(c, at, "must be at most %d, the slots of that column", pgh_market_slots(g, m, col));
            }
        }
    }
    static const char *const MERCHANT_KEYS[] = {"location", "tile", "side", NULL};
    TRY(table_list(c, root, "merchants", T->num_mspaces, &e));
    for (int ms = 0; ms < T->num_mspaces; ms++, e = jt_next(&c->p, e)) {
        char path[32], at[48];
        pgh_pv_pathf(path, sizeof path, "merchants[%d]", ms);
        TRY(pgh_pv_only(c, e, path, MERCHANT_KEYS));
        TRY(check_id(c, e, "location", path, T->locs[T->mspace_loc[ms]].id));
        TRY(pgh_pv_get_name(c, e, "tile", path, PN_MTILE, 1, -1, &g->mspace_tile[ms]));
        int side;
        TRY(pgh_pv_required(c, e, "side", path, &side));
        pgh_pv_join(at, sizeof at, path, "side");
        if (!jt_eq(&c->p, side, "front") && !jt_eq(&c->p, side, "back")) return pgh_pv_bad(c, at, "must be 'front' or 'back'");
        g->mspace_back[ms] = jt_eq(&c->p, side, "back");
    }
    static const char *const QUALITY_KEYS[] = {"stars", "tile", "available", NULL};
    TRY(table_list(c, root, "quality", T->num_qslots, &e));
    for (int q = 0; q < T->num_qslots; q++, e = jt_next(&c->p, e)) {
        char path[32];
        pgh_pv_pathf(path, sizeof path, "quality[%d]", q);
        TRY(pgh_pv_only(c, e, path, QUALITY_KEYS));
        long long stars;
        TRY(pgh_pv_get_int(c, e, "stars", path, 0, 255, T->qslot_stars[q], &stars));
        if (stars != T->qslot_stars[q]) {
            char at[48];
            pgh_pv_join(at, sizeof at, path, "stars");
            return pgh_pv_bad(c, at, "must be %d, the slot's printed stars (slots follow the data file's order)",
                              T->qslot_stars[q]);
        }
        TRY(pgh_pv_get_name(c, e, "tile", path, PN_QTILE, 1, -1, &g->qslot_tile[q]));
        TRY(pgh_pv_get_bool(c, e, "available", path, -1, &g->qslot_up[q]));
    }
    return 0;
}

static int read_pending(RC *c, PittsburghGame *g, int pd_node) {
    const PghTables *T = c->T;
    PghPending *pd = &g->pend;
    const char *path = "pending";
    TRY(pgh_pv_only(c, pd_node, path, PENDING_KEYS));
    TRY(pgh_pv_get_name(c, pd_node, "action", path, PN_ACTION_TYPE, 0, PA_BUILD, &pd->action));
    TRY(pgh_pv_get_name(c, pd_node, "card", path, PN_CARD, 1, PGH_NONE, &pd->card));
    TRY(pgh_pv_get_name(c, pd_node, "position", path, PN_POSITION, 1, PGH_NONE, &pd->position));
    int v = pgh_pv_member(c, pd_node, "place");
    if (v >= 0 && pgh_pv_node(c, v)->type != JT_NULL) { /* an action name: a space or an oilfield */
        pd->place = PGH_NONE;
        for (int a = PGA_SPACE; a < PGA_OILFIELD + T->num_fields && pgh_pv_node(c, v)->type == JT_STRING; a++)
            if ((a < PGA_SPACE + T->num_spaces || a >= PGA_OILFIELD) && jt_eq(&c->p, v, T->action_names[a]))
                pd->place = (uint8_t)a;
        if (pd->place == PGH_NONE) return pgh_pv_bad(c, "pending.place", "must be 'slot:<space>', 'oilfield:<id>' or null");
    }
    TRY(pgh_pv_get_name(c, pd_node, "stage", path, PN_STAGE, 0, ST_NONE, &pd->stage));
    TRY(pgh_pv_get_name(c, pd_node, "target", path, PN_LOC, 1, PGH_NONE, &pd->target_loc));
    int need = pgh_pv_member(c, pd_node, "need");
    if (need >= 0) {
        TRY(pgh_pv_want(c, need, JT_OBJECT, "pending.need"));
        TRY(pgh_pv_name_counts(c, pd_node, "need", path, PN_CUBE, 3, 0, pd->need));
    }
    TRY(pgh_pv_get_name(c, pd_node, "link_tile", path, PN_LINK_TYPE, 1, PGH_NONE, &pd->link_type));
    TRY(pgh_pv_get_bool(c, pd_node, "route_is_pipeline", path, 0, &pd->route_is_pipe));
    TRY(pgh_pv_get_name(c, pd_node, "route", path, pd->route_is_pipe ? PN_PIPE : PN_RAIL, 1, PGH_NONE, &pd->route));
    GET_U8(pd_node, "links_placed", path, 0, 2, 0, pd->links_placed);
    GET_U8(pd_node, "free_develops", path, 0, 6, 0, pd->free_develops);
    GET_U8(pd_node, "count", path, 0, PGH_MAX_SPACES, 0, pd->count);
    GET_U8(pd_node, "last_position", path, 0, PGH_MAX_POSITIONS - 1, 0, pd->last_position);
    GET_U8(pd_node, "bonus_sell", path, 0, 2, 0, pd->bonus_sell);
    uint64_t bits;
    TRY(pgh_pv_name_set(c, pd_node, "merchants_used", path, PN_MSPACE, &bits));
    pd->merchants_used = (uint8_t)bits;
    GET_U8(pd_node, "sale_cube", path, 0, 2, 0, pd->sale_cube);
    GET_U8(pd_node, "sale_last_market", path, 0, PGH_MAX_MARKETS - 1, 0, pd->sale_last_market);
    GET_U8(pd_node, "stars", path, 0, 255, 0, pd->stars);
    TRY(pgh_pv_get_name(c, pd_node, "sell_space", path, PN_SPACE, 1, PGH_NONE, &pd->sell_space));
    TRY(pgh_pv_get_bool(c, pd_node, "whiskey_build", path, 0, &pd->whiskey_build));
    TRY(pgh_pv_get_bool(c, pd_node, "swapped", path, 0, &pd->swapped));
    GET_U8(pd_node, "free_batch", path, 0, 2, 0, pd->free_batch);
    TRY(pgh_pv_name_set(c, pd_node, "accessible_before", path, PN_POSITION, &bits));
    pd->acc_before = (uint32_t)bits;
    TRY(pgh_pv_name_set(c, pd_node, "sold", path, PN_SPACE, &pd->sold));
    int sm = pgh_pv_member(c, pd_node, "sold_merchant");
    if (sm >= 0) {
        TRY(pgh_pv_want(c, sm, JT_OBJECT, "pending.sold_merchant"));
        TRY(pgh_pv_name_counts(c, pd_node, "sold_merchant", path, PN_SPACE, PGH_MAX_MSPACES - 1, 0, pd->sold_merchant));
    }
    return 0;
}

static int read_position(RC *c, PittsburghGame *g) {
    int root = 0, v;
    TRY(view_hint(c, root)); /* first: a view's own keys (undo_steps) are not TOP_KEYS */
    TRY(pgh_pv_only(c, root, "", TOP_KEYS));
    TRY(pgh_pv_required(c, root, "ruleset", "", &v));
    if (!jt_eq(&c->p, v, "pittsburgh")) return pgh_pv_bad(c, "ruleset", "must be 'pittsburgh' (this is Pittsburgh's position reader)");
    TRY(pgh_pv_required(c, root, "format", "", &v));
    if (!jt_eq(&c->p, v, PGH_POSITION_FORMAT)) return pgh_pv_bad(c, "format", "must be '%s'", PGH_POSITION_FORMAT);
    long long x;
    TRY(pgh_pv_get_int(c, root, "rules_edition", "", 0, 65535, NO_DEFAULT, &x));
    if (x < 1 || x > PGH_RULES_EDITION)
        return pgh_pv_bad(c, "rules_edition", "the position needs Pittsburgh rules edition %lld; this engine has %d", x,
                          PGH_RULES_EDITION);
    uint8_t set;
    TRY(pgh_pv_required(c, root, "data", "", &v));
    set = PGH_NONE;
    for (int s = 0; s < PGH_NUM_SETS; s++)
        if (jt_eq(&c->p, v, pgh_tables(s)->name)) set = (uint8_t)s;
    if (set == PGH_NONE) return pgh_pv_bad(c, "data", "unknown table set (pittsburgh or tiny)");
    const PghTables *T = c->T = pgh_tables(set);
    if ((v = pgh_pv_member(c, root, "draft_version")) >= 0 && !jt_eq(&c->p, v, T->draft_version))
        return pgh_pv_bad(c, "draft_version", "must be '%s', the draft of this engine's '%s' data", T->draft_version, T->name);
    memset(g, 0, sizeof *g);
    g->h.magic = PGH_MAGIC;
    g->h.format_version = PGH_FORMAT_VERSION;
    g->h.rules_edition = (uint16_t)x;
    g->h.ruleset = PGH_RULESET_ID;
    g->h.table_set = set;
    pgh_reset_pending(g);
    for (int s = 0; s < PGH_MAX_SPACES; s++) g->spaces[s].owner = -1;
    for (int r = 0; r < PGH_MAX_RAILS; r++) g->rails[r].owner = -1;
    for (int q = 0; q < PGH_MAX_PIPES; q++) g->pipes[q].owner = -1;
    for (int f = 0; f < PGH_MAX_FIELDS; f++) {
        g->fields[f].tile = PGH_NONE;
        g->fields[f].tile_state = FT_NO_TILE;
        g->fields[f].oc_owner = -1;
    }
    for (int i = 0; i < PGH_MAX_MSPACES; i++) g->mspace_tile[i] = PGH_NONE;
    for (int i = 0; i < PGH_MAX_QSLOTS; i++) g->qslot_tile[i] = PGH_NONE;
    for (int p = 0; p < PGH_MAX_PLAYERS; p++) g->players[p].facedown_card = g->players[p].last_discard = PGH_NONE;
    GET_U8(root, "num_players", "", 2, 4, NO_DEFAULT, g->h.num_players);
    int n = g->h.num_players;
    TRY(pgh_pv_get_int(c, root, "era", "", 1, 2, NO_DEFAULT, &x));
    g->h.era = (uint8_t)(x - 1);
    GET_U8(root, "round", "", 1, T->rounds_per_era, NO_DEFAULT, g->h.round);
    TRY(pgh_pv_get_bool(c, root, "game_over", "", 0, &g->h.game_over));
    TRY(pgh_pv_get_name(c, root, "phase", "", PN_PHASE, 0, g->h.game_over ? PP_GAME_OVER : PP_ACTION, &g->h.phase));
    TRY(pgh_pv_required(c, root, "turn_order", "", &v));
    TRY(pgh_pv_want(c, v, JT_ARRAY, "turn_order"));
    if ((int)pgh_pv_node(c, v)->count != n) return pgh_pv_bad(c, "turn_order", "must list the %d seats", n);
    int e = v + 1;
    for (int i = 0; i < n; i++, e = jt_next(&c->p, e)) {
        char at[32];
        pgh_pv_pathf(at, sizeof at, "turn_order[%d]", i);
        TRY(pgh_pv_int_at(c, e, at, 0, n - 1, &x));
        for (int j = 0; j < i; j++)
            if (g->turn_order[j] == x) return pgh_pv_bad(c, at, "seat %lld is listed twice", x);
        g->turn_order[i] = (uint8_t)x;
    }
    GET_U8(root, "turn_index", "", 0, n, 0, g->h.turn_idx);
    GET_U8(root, "current", "", 0, n - 1, g->turn_order[g->h.turn_idx % n], g->h.current);
    int first_round = g->h.era == 0 && g->h.round == 1;
    GET_U8(root, "actions_left", "", 0, T->actions_per_turn,
           first_round ? T->actions_first_round : T->actions_per_turn, g->h.actions_left);
    TRY(pgh_pv_get_bool(c, root, "auto_resolve", "", 1, &g->h.auto_resolve));
    /* options: names and value names; an absent one takes the data file's default */
    for (int o = 0; o < PGH_NUM_OPTIONS; o++) g->options[o] = T->option_default[o];
    g->options[PGH_OPT_DATA] = set;
    if ((v = pgh_pv_member(c, root, "options")) >= 0) {
        TRY(pgh_pv_want(c, v, JT_OBJECT, "options"));
        uint64_t seen = 0;
        int m = v + 1;
        for (uint32_t i = 0; i < pgh_pv_node(c, v)->count; i++, m = jt_next(&c->p, m + 1)) {
            char at[96], val[48];
            pgh_pv_join_key(c, at, sizeof at, "options", m);
            if (jt_eq(&c->p, m, "undo")) { /* the engine's own option, not the data file's */
                if (seen >> PGH_OPT_UNDO & 1u) return pgh_pv_bad(c, at, "key given twice");
                seen |= 1ull << PGH_OPT_UNDO;
                pgh_pv_key_text(c, m + 1, val, sizeof val);
                if (jt_eq(&c->p, m + 1, "true")) g->h.undo_off = 0;
                else if (jt_eq(&c->p, m + 1, "false")) g->h.undo_off = 1;
                else return pgh_pv_bad(c, at, "unknown value '%s' (values are \"true\" or \"false\")", val);
                continue;
            }
            int o = -1;
            for (int k = 0; k < PGH_NUM_ALL_OPTIONS && o < 0; k++)
                if (jt_eq(&c->p, m, pgh_option_name(k))) o = k;
            if (o < 0) return pgh_pv_bad(c, at, "unknown option");
            if (seen >> o & 1u) return pgh_pv_bad(c, at, "key given twice");
            seen |= 1ull << o;
            int value = -1;
            for (int k = 0; k < pgh_option_num_values(o) && value < 0; k++)
                if (jt_eq(&c->p, m + 1, pgh_option_value_name(o, k))) value = k;
            pgh_pv_key_text(c, m + 1, val, sizeof val);
            if (value < 0) return pgh_pv_bad(c, at, "unknown value '%s' (values are strings, as the writer gives them)", val);
            if (o == PGH_OPT_DATA ? value != set : !pgh_option_implemented(o, value))
                return pgh_pv_bad(c, at, o == PGH_OPT_DATA ? "must be the position's data ('%s')" : "value '%s' is not implemented",
                                  o == PGH_OPT_DATA ? T->name : val);
            g->options[o] = (uint8_t)value;
        }
    }
    TRY(pgh_pv_required(c, root, "players", "", &v));
    TRY(read_players(c, g, v));
    TRY(read_board(c, g, root));
    TRY(pgh_pv_name_counts(c, root, "discards", "", PN_CARD, PGH_MAX_DECK, 0, g->discards));
    if ((v = pgh_pv_member(c, root, "deck")) >= 0) {
        TRY(pgh_pv_want(c, v, JT_ARRAY, "deck"));
        if (pgh_pv_node(c, v)->count > PGH_MAX_DECK) return pgh_pv_bad(c, "deck", "holds at most %d cards", PGH_MAX_DECK);
        e = v + 1;
        for (uint32_t i = 0; i < pgh_pv_node(c, v)->count; i++, e = jt_next(&c->p, e)) {
            char at[32];
            pgh_pv_pathf(at, sizeof at, "deck[%u]", i);
            TRY(pgh_pv_name_at(c, e, at, PN_CARD, 0, &g->deck[i]));
        }
        g->deck_size = (uint8_t)pgh_pv_node(c, v)->count;
    }
    TRY(pgh_pv_get_int(c, root, "deck_size", "", 0, PGH_MAX_DECK, g->deck_size, &x));
    if (x != g->deck_size) return pgh_pv_bad(c, "deck_size", "must be %d, the cards listed in deck", g->deck_size);
    TRY(pgh_pv_name_set(c, root, "rail_bonus_taken", "", PN_RAIL, &g->rail_bonus_taken));
    if ((v = pgh_pv_member(c, root, "pending")) >= 0) TRY(read_pending(c, g, v));
    g->seed = 0;
    if ((v = pgh_pv_member(c, root, "seed")) >= 0) TRY(pgh_pv_u64_at(c, v, "seed", &g->seed));
    rng_seed(&g->rng_state, g->seed);
    if ((v = pgh_pv_member(c, root, "rng")) >= 0) TRY(pgh_pv_u64_at(c, v, "rng", &g->rng_state));
    TRY(pgh_pv_get_int(c, root, "decisions_applied", "", 0, UINT32_MAX, 0, &x));
    g->decisions = (uint32_t)x;
    return 0;
}

int pgh_position_read(PittsburghGame *g, const char *json, size_t len, char *field, size_t field_len, char *msg,
                      size_t msg_len) {
    RC c = {.field = field, .msg = msg, .field_len = field_len, .msg_len = msg_len};
    if (field && field_len) field[0] = '\0';
    if (msg && msg_len) msg[0] = '\0';
    if (!g || !json) return BRASS_E_BAD_ARGUMENT;
    if (len > PGH_POSITION_MAX_CHARS) return pgh_pv_bad(&c, "$", "the text is over %d characters", PGH_POSITION_MAX_CHARS);
    JtNode nodes[PGH_POSITION_NODES];
    if (jt_parse(&c.p, json, len, nodes, PGH_POSITION_NODES) < 0)
        return pgh_pv_bad(&c, "$", "not valid JSON: %s at character %zu", c.p.error, c.p.i);
    if (nodes[0].type != JT_OBJECT) return pgh_pv_bad(&c, "$", "a position is a JSON object");
    PittsburghGame tmp;
    TRY(read_position(&c, &tmp));
    char vfield[64] = "";
    if (pgh_validate(&tmp, vfield, sizeof vfield) != BRASS_OK)
        return pgh_pv_bad(&c, vfield, "the position is inconsistent at %s (no game reaches it, or it cannot go on)", vfield);
    *g = tmp;
    return BRASS_OK;
}
