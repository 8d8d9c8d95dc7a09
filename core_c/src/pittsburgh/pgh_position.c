/* The Pittsburgh JSON position format read back into a state (docs/PITTSBURGH.md, "Position
   format"); the writer is pgh_view.c:pgh_position_json. Every value is checked where it is
   read (type, range, name, the keys an object may hold, derived values agreeing with what
   they derive from), each error naming the value's JSON path; the whole state is then
   checked by pgh_validate. A position written by the engine reads back to the same state
   bytes (so the same state hash). */
#include <stdarg.h>
#include <stdio.h>

#include "common/json_tree.h"
#include "pgh_internal.h"

/* ---- the reader ---- */
#define PGH_POSITION_NODES 4096

typedef struct {
    JtParser p;
    const PghTables *T;
    char *field, *msg;
    size_t field_len, msg_len;
} RC;

static int bad(RC *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(RC *c, const char *path, const char *fmt, ...) {
    if (c->field && c->field_len) snprintf(c->field, c->field_len, "%s", path);
    if (c->msg && c->msg_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->msg, c->msg_len, fmt, ap);
        va_end(ap);
    }
    return BRASS_E_BAD_POSITION;
}

#define TRY(x)                                 \
    do {                                       \
        int err_ = (x);                        \
        if (err_) return err_;                 \
    } while (0)

static const JtNode *node(const RC *c, int k) { return &c->p.nodes[k]; }

/* A key as it may appear in a path: plain id characters only, at most 40. */
static void key_text(const RC *c, int k, char *out, size_t n) {
    const JtNode *x = node(c, k);
    size_t w = 0;
    for (uint32_t i = 0; i < x->len && w + 1 < n && w < 40; i++) {
        char ch = c->p.s[x->start + i];
        int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '-' || ch == '.' || ch == ':';
        out[w++] = plain ? ch : '?';
    }
    out[w] = '\0';
}

/* A path into a buffer (cut short rather than overflow: paths are for messages). */
static void pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pathf(char *out, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

static void join(char *out, size_t n, const char *path, const char *key) {
    pathf(out, n, "%s%s%s", path, *path ? "." : "", key);
}

static void join_key(const RC *c, char *out, size_t n, const char *path, int k) {
    char key[48];
    key_text(c, k, key, sizeof key);
    join(out, n, path, key);
}

static const char *type_name(int t) {
    static const char *const n[] = {"an object", "a list", "a string", "a number", "true", "false", "null"};
    return n[t];
}

static int want(RC *c, int k, int type, const char *path) {
    if (node(c, k)->type == type) return 0;
    if (type == JT_TRUE && node(c, k)->type == JT_FALSE) return 0;
    return bad(c, path, "must be %s, not %s", type == JT_TRUE ? "true or false" : type_name(type),
               type_name(node(c, k)->type));
}

/* An object holding only the given keys, each at most once. */
static int only(RC *c, int obj, const char *path, const char *const *keys) {
    TRY(want(c, obj, JT_OBJECT, *path ? path : "$"));
    int m = obj + 1;
    for (uint32_t i = 0; i < node(c, obj)->count; i++, m = jt_next(&c->p, m + 1)) {
        int known = 0;
        for (int j = 0; keys[j] && !known; j++) known = jt_eq(&c->p, m, keys[j]);
        char where[160];
        join_key(c, where, sizeof where, path, m);
        if (!known) return bad(c, where, "unknown key");
        for (int e = obj + 1; e < m; e = jt_next(&c->p, e + 1))
            if (node(c, e)->len == node(c, m)->len &&
                !memcmp(c->p.s + node(c, e)->start, c->p.s + node(c, m)->start, node(c, m)->len))
                return bad(c, where, "key given twice");
    }
    return 0;
}

/* The value of `key` in an object, or -1. */
static int member(const RC *c, int obj, const char *key) {
    int m = obj + 1;
    for (uint32_t i = 0; i < node(c, obj)->count; i++, m = jt_next(&c->p, m + 1))
        if (jt_eq(&c->p, m, key)) return m + 1;
    return -1;
}

static int required(RC *c, int obj, const char *key, const char *path, int *v) {
    *v = member(c, obj, key);
    if (*v >= 0) return 0;
    char where[160];
    join(where, sizeof where, path, key);
    return bad(c, where, "is required");
}

/* An integer value in [lo, hi]. */
static int int_at(RC *c, int k, const char *path, long long lo, long long hi, long long *out) {
    TRY(want(c, k, JT_NUMBER, path));
    const JtNode *x = node(c, k);
    const char *s = c->p.s + x->start;
    long long v = 0;
    int neg = s[0] == '-';
    for (uint32_t i = (uint32_t)neg; i < x->len; i++) {
        if (s[i] < '0' || s[i] > '9') return bad(c, path, "must be a whole number");
        if (v > (hi > -lo ? hi : -lo) / 10 + 1) return bad(c, path, "must be between %lld and %lld", lo, hi);
        v = v * 10 + (s[i] - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return bad(c, path, "must be between %lld and %lld", lo, hi);
    *out = v;
    return 0;
}

static int u64_at(RC *c, int k, const char *path, uint64_t *out) {
    TRY(want(c, k, JT_NUMBER, path));
    const JtNode *x = node(c, k);
    const char *s = c->p.s + x->start;
    uint64_t v = 0;
    for (uint32_t i = 0; i < x->len; i++) {
        if (s[i] < '0' || s[i] > '9') return bad(c, path, "must be a whole number from 0 to 2^64-1");
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return bad(c, path, "must be a whole number from 0 to 2^64-1");
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* `key` of an object as an integer (dflt when absent, or required when dflt is NO_DEFAULT). */
#define NO_DEFAULT (-(1LL << 62))
static int get_int(RC *c, int obj, const char *key, const char *path, long long lo, long long hi, long long dflt,
                   long long *out) {
    char where[160];
    join(where, sizeof where, path, key);
    int v = member(c, obj, key);
    if (v < 0) {
        if (dflt == NO_DEFAULT) return bad(c, where, "is required");
        *out = dflt;
        return 0;
    }
    return int_at(c, v, where, lo, hi, out);
}

#define GET_U8(obj, key, path, lo, hi, dflt, dst)                       \
    do {                                                                \
        long long v_;                                                   \
        TRY(get_int(c, obj, key, path, lo, hi, dflt, &v_));             \
        (dst) = (uint8_t)v_;                                            \
    } while (0)

static int get_bool(RC *c, int obj, const char *key, const char *path, int dflt, uint8_t *out) {
    char where[160];
    join(where, sizeof where, path, key);
    int v = member(c, obj, key);
    if (v < 0) {
        if (dflt < 0) return bad(c, where, "is required");
        *out = (uint8_t)dflt;
        return 0;
    }
    TRY(want(c, v, JT_TRUE, where));
    *out = node(c, v)->type == JT_TRUE;
    return 0;
}

/* The index of string node k among the names of `kind`, or -1. */
static int lookup(const RC *c, int kind, int k) {
    if (node(c, k)->type != JT_STRING) return -1;
    for (int i = 0; i < pgh_name_count(c->T, kind); i++)
        if (jt_eq(&c->p, k, pgh_name(c->T, kind, i))) return i;
    return -1;
}

static const char *kind_word(int kind) {
    static const char *const w[PN_NUM] = {
        [PN_CARD] = "card", [PN_POSITION] = "mat position", [PN_SPACE] = "industry space", [PN_RAIL] = "rail route",
        [PN_PIPE] = "pipeline route", [PN_LINK_TYPE] = "link tile", [PN_LOC] = "location", [PN_FIELD] = "oilfield",
        [PN_MTILE] = "merchant tile", [PN_FTILE] = "oilfield tile", [PN_QTILE] = "quality tile",
        [PN_TILE] = "industry tile", [PN_MSPACE] = "merchant space", [PN_MARKET] = "market",
        [PN_PHASE] = "decision", [PN_STAGE] = "stage", [PN_ACTION_TYPE] = "action", [PN_CUBE] = "cube",
        [PN_FIELD_STATE] = "oilfield tile state"};
    return kind >= 0 && kind < PN_NUM ? w[kind] : "name";
}

/* Node k as a name of `kind` (null allowed when allow_null: PGH_NONE). */
static int name_at(RC *c, int k, const char *path, int kind, int allow_null, uint8_t *out) {
    if (allow_null && node(c, k)->type == JT_NULL) {
        *out = PGH_NONE;
        return 0;
    }
    if (node(c, k)->type != JT_STRING)
        return bad(c, path, "must be the name of a %s%s", kind_word(kind), allow_null ? " or null" : "");
    int i = lookup(c, kind, k);
    if (i < 0) {
        char text[48];
        key_text(c, k, text, sizeof text);
        return bad(c, path, "unknown %s '%s'", kind_word(kind), text);
    }
    *out = (uint8_t)i;
    return 0;
}

static int get_name(RC *c, int obj, const char *key, const char *path, int kind, int allow_null, int dflt,
                    uint8_t *out) {
    char where[160];
    join(where, sizeof where, path, key);
    int v = member(c, obj, key);
    if (v < 0) {
        if (dflt < 0) return bad(c, where, "is required");
        *out = (uint8_t)dflt;
        return 0;
    }
    return name_at(c, v, where, kind, allow_null, out);
}

/* A list of names of `kind`, each at most once, as a bit set. */
static int name_set(RC *c, int obj, const char *key, const char *path, int kind, uint64_t *out) {
    char where[160];
    join(where, sizeof where, path, key);
    *out = 0;
    int v = member(c, obj, key);
    if (v < 0) return 0;
    TRY(want(c, v, JT_ARRAY, where));
    int e = v + 1;
    for (uint32_t i = 0; i < node(c, v)->count; i++, e = jt_next(&c->p, e)) {
        char at[176];
        pathf(at, sizeof at, "%s[%u]", where, i);
        uint8_t x;
        TRY(name_at(c, e, at, kind, 0, &x));
        if (*out >> x & 1u) return bad(c, at, "listed twice");
        *out |= 1ull << x;
    }
    return 0;
}

/* An object of names of `kind` to counts in [0, hi] (absent names keep their value). */
static int name_counts(RC *c, int obj, const char *key, const char *path, int kind, int hi, int need, uint8_t *out) {
    char where[160];
    join(where, sizeof where, path, key);
    int v = member(c, obj, key);
    if (v < 0) return need ? bad(c, where, "is required") : 0;
    TRY(want(c, v, JT_OBJECT, where));
    uint64_t seen = 0;
    int m = v + 1;
    for (uint32_t i = 0; i < node(c, v)->count; i++, m = jt_next(&c->p, m + 1)) {
        char at[176];
        join_key(c, at, sizeof at, where, m);
        int x = lookup(c, kind, m);
        if (x < 0) return bad(c, at, "unknown %s", kind_word(kind));
        if (seen >> x & 1u) return bad(c, at, "key given twice");
        seen |= 1ull << x;
        long long n;
        TRY(int_at(c, m + 1, at, 0, hi, &n));
        out[x] = (uint8_t)n;
    }
    return 0;
}

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
    if (member(c, root, "format") < 0 && member(c, root, "deck") < 0)
        return bad(c, "format", "is required (a seat's view is not a position: it has no deck, seed or "
                                "face-down cards)");
    return 0;
}

static int read_players(RC *c, PittsburghGame *g, int list) {
    const PghTables *T = c->T;
    int n = g->h.num_players;
    TRY(want(c, list, JT_ARRAY, "players"));
    if ((int)node(c, list)->count != n) return bad(c, "players", "must list %d players", n);
    int e = list + 1;
    for (int p = 0; p < n; p++, e = jt_next(&c->p, e)) {
        char path[32];
        pathf(path, sizeof path, "players[%d]", p);
        TRY(only(c, e, path, PLAYER_KEYS));
        PghPlayer *pl = &g->players[p];
        long long v;
        TRY(get_int(c, e, "money", path, 0, 9999, NO_DEFAULT, &v));
        pl->money = (int16_t)v;
        TRY(get_int(c, e, "vp", path, -9999, 9999, 0, &v));
        pl->vp = (int16_t)v;
        TRY(get_int(c, e, "spent", path, 0, 9999, 0, &v));
        pl->spent = (int16_t)v;
        GET_U8(e, "income_space", path, 0, 99, T->income_start_space, pl->income_space);
        int level = pgh_level_of(g, pl->income_space);
        TRY(get_int(c, e, "income_level", path, -10, 30, level, &v));
        if (v != level) {
            char where[64];
            join(where, sizeof where, path, "income_level");
            return bad(c, where, "must be %d, the level of income_space %d", level, pl->income_space);
        }
        GET_U8(e, "whiskey", path, 0, T->whiskey_cap, 0, pl->whiskey);
        GET_U8(e, "heavy_built", path, 0, 40, 0, pl->heavy_built);
        TRY(name_counts(c, e, "hand", path, PN_CARD, T->hand_size, 1, pl->hand));
        int hs = 0;
        for (int k = 0; k < PGH_MAX_CARD_TYPES; k++) hs += pl->hand[k];
        char where[64];
        join(where, sizeof where, path, "hand");
        if (hs > T->hand_size) return bad(c, where, "holds %d cards; a hand holds at most %d", hs, T->hand_size);
        pl->hand_size = (uint8_t)hs;
        TRY(get_int(c, e, "hand_size", path, 0, T->hand_size, hs, &v));
        if (v != hs) {
            join(where, sizeof where, path, "hand_size");
            return bad(c, where, "must be %d, the cards in hand", hs);
        }
        for (int pos = 0; pos < T->num_positions; pos++) pl->mat_left[pos] = T->positions[pos].count;
        TRY(name_counts(c, e, "mat", path, PN_POSITION, 255, 1, pl->mat_left));
        for (int pos = 0; pos < T->num_positions; pos++)
            if (pl->mat_left[pos] > T->positions[pos].count) {
                char at[96];
                pathf(at, sizeof at, "%s.mat.%s", path, T->positions[pos].id);
                return bad(c, at, "must be at most %d, the tiles of that mat position", T->positions[pos].count);
            }
        memcpy(pl->supply, T->supply_start, sizeof pl->supply);
        pl->supply[0] = (uint8_t)(pl->supply[0] + T->light_trains);
        TRY(name_counts(c, e, "supply", path, PN_LINK_TYPE, 20, 1, pl->supply));
        TRY(get_name(c, e, "facedown", path, PN_CARD, 1, PGH_NONE, &pl->facedown_card));
        TRY(get_name(c, e, "last_discard", path, PN_CARD, 1, PGH_NONE, &pl->last_discard));
        int rel = member(c, e, "links_released");
        if (rel >= 0) {
            join(where, sizeof where, path, "links_released");
            TRY(want(c, rel, JT_ARRAY, where));
            int x = rel + 1;
            for (uint32_t i = 0; i < node(c, rel)->count; i++, x = jt_next(&c->p, x)) {
                char at[96];
                pathf(at, sizeof at, "%s[%u]", where, i);
                long long s;
                TRY(int_at(c, x, at, 0, T->num_link_slots - 1, &s));
                if (pl->slots_released >> s & 1u) return bad(c, at, "listed twice");
                pl->slots_released |= (uint16_t)(1u << s);
            }
        }
    }
    return 0;
}

static int read_spaces(RC *c, PittsburghGame *g, int list) {
    const PghTables *T = c->T;
    TRY(want(c, list, JT_ARRAY, "spaces"));
    int e = list + 1;
    for (uint32_t i = 0; i < node(c, list)->count; i++, e = jt_next(&c->p, e)) {
        char path[32];
        pathf(path, sizeof path, "spaces[%u]", i);
        TRY(want(c, e, JT_OBJECT, path));
        uint8_t s, tile;
        TRY(get_name(c, e, "slot", path, PN_SPACE, 0, -1, &s));
        PghSpace *sp = &g->spaces[s];
        if (sp->owner >= 0) {
            char at[48];
            join(at, sizeof at, path, "slot");
            return bad(c, at, "space '%s' is listed twice", pgh_name(T, PN_SPACE, s));
        }
        TRY(get_name(c, e, "tile", path, PN_TILE, 0, -1, &tile));
        const PghTile *t = &T->tiles[tile];
        const char *keys[] = {"slot", "owner", "tile", "flipped", t->prod_cube[0] < PGH_NUM_CUBES ? pgh_name(T, PN_CUBE, t->prod_cube[0]) : "none",
                              t->prod_cube[1] < PGH_NUM_CUBES ? pgh_name(T, PN_CUBE, t->prod_cube[1]) : NULL, NULL};
        TRY(only(c, e, path, keys));
        long long v;
        TRY(get_int(c, e, "owner", path, 0, g->h.num_players - 1, NO_DEFAULT, &v));
        sp->owner = (int8_t)v;
        sp->tile = tile;
        TRY(get_bool(c, e, "flipped", path, 0, &sp->flipped));
        for (int k = 0; k < 2 && keys[4 + k]; k++) GET_U8(e, keys[4 + k], path, 0, 255, 0, sp->cubes[k]);
    }
    return 0;
}

static int read_links(RC *c, PittsburghGame *g, int list) {
    static const char *const RAIL_KEYS[] = {"route", "owner", "tile", "cargo", NULL};
    static const char *const PIPE_KEYS[] = {"route", "owner", "tile", NULL};
    TRY(want(c, list, JT_ARRAY, "links"));
    int e = list + 1;
    for (uint32_t i = 0; i < node(c, list)->count; i++, e = jt_next(&c->p, e)) {
        char path[32], at[48];
        pathf(path, sizeof path, "links[%u]", i);
        join(at, sizeof at, path, "route");
        TRY(want(c, e, JT_OBJECT, path));
        int r = member(c, e, "route");
        if (r < 0) return bad(c, at, "is required");
        int rail = lookup(c, PN_RAIL, r), pipe = rail < 0 ? lookup(c, PN_PIPE, r) : -1;
        if (rail < 0 && pipe < 0) return bad(c, at, "unknown rail or pipeline route");
        TRY(only(c, e, path, rail >= 0 ? RAIL_KEYS : PIPE_KEYS));
        int8_t *owner = rail >= 0 ? &g->rails[rail].owner : &g->pipes[pipe].owner;
        if (*owner >= 0) return bad(c, at, "route listed twice");
        long long v;
        TRY(get_int(c, e, "owner", path, 0, g->h.num_players - 1, NO_DEFAULT, &v));
        *owner = (int8_t)v;
        uint8_t lt;
        TRY(get_name(c, e, "tile", path, PN_LINK_TYPE, 0, -1, &lt));
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
    TRY(required(c, root, key, "", &v));
    TRY(want(c, v, JT_ARRAY, key));
    if ((int)node(c, v)->count != count) return bad(c, key, "must list all %d, in the data file's order", count);
    *first = v + 1;
    return 0;
}

static int check_id(RC *c, int obj, const char *key, const char *path, const char *want_id) {
    int v;
    TRY(required(c, obj, key, path, &v));
    if (!jt_eq(&c->p, v, want_id)) {
        char at[64];
        join(at, sizeof at, path, key);
        return bad(c, at, "must be '%s' (entries follow the data file's order)", want_id);
    }
    return 0;
}

static int read_board(RC *c, PittsburghGame *g, int root) {
    const PghTables *T = c->T;
    int e, v;
    if ((v = member(c, root, "spaces")) >= 0) TRY(read_spaces(c, g, v));
    if ((v = member(c, root, "links")) >= 0) TRY(read_links(c, g, v));
    static const char *const FIELD_KEYS[] = {"id", "barrels", "tile_state", "tile", "pending", "oil_city_owner",
                                             "oil_city_barrels", "oil_city_flipped", NULL};
    TRY(table_list(c, root, "oilfields", T->num_fields, &e));
    for (int f = 0; f < T->num_fields; f++, e = jt_next(&c->p, e)) {
        char path[32];
        pathf(path, sizeof path, "oilfields[%d]", f);
        TRY(only(c, e, path, FIELD_KEYS));
        TRY(check_id(c, e, "id", path, T->field_ids[f]));
        PghField *fd = &g->fields[f];
        long long x;
        GET_U8(e, "barrels", path, 0, 200, 0, fd->barrels);
        TRY(get_name(c, e, "tile_state", path, PN_FIELD_STATE, 0, -1, &fd->tile_state));
        TRY(get_name(c, e, "tile", path, PN_FTILE, 1, -1, &fd->tile));
        GET_U8(e, "pending", path, 0, 200, 0, fd->pending);
        TRY(get_int(c, e, "oil_city_owner", path, -1, g->h.num_players - 1, -1, &x));
        fd->oc_owner = (int8_t)x;
        GET_U8(e, "oil_city_barrels", path, 0, 200, 0, fd->oc_barrels);
        TRY(get_bool(c, e, "oil_city_flipped", path, 0, &fd->oc_flipped));
    }
    TRY(table_list(c, root, "markets", T->num_markets, &e));
    for (int m = 0; m < T->num_markets; m++, e = jt_next(&c->p, e)) {
        char path[32];
        pathf(path, sizeof path, "markets[%d]", m);
        const PghMarket *mk = &T->markets[m];
        const char *keys[] = {"id", "price", pgh_name(T, PN_CUBE, mk->col_cube[0] % PGH_NUM_CUBES),
                              pgh_name(T, PN_CUBE, mk->col_cube[1] % PGH_NUM_CUBES), NULL};
        TRY(only(c, e, path, keys));
        TRY(check_id(c, e, "id", path, mk->id));
        long long price;
        TRY(get_int(c, e, "price", path, 0, 255, mk->price, &price));
        if (price != mk->price) {
            char at[48];
            join(at, sizeof at, path, "price");
            return bad(c, at, "must be %d, the market's printed price", mk->price);
        }
        for (int col = 0; col < 2; col++) {
            GET_U8(e, keys[2 + col], path, 0, 255, NO_DEFAULT, g->market_fill[m][col]);
            if (g->market_fill[m][col] > pgh_market_slots(g, m, col)) {
                char at[48];
                join(at, sizeof at, path, keys[2 + col]);
                return bad(c, at, "must be at most %d, the slots of that column", pgh_market_slots(g, m, col));
            }
        }
    }
    static const char *const MERCHANT_KEYS[] = {"location", "tile", "side", NULL};
    TRY(table_list(c, root, "merchants", T->num_mspaces, &e));
    for (int ms = 0; ms < T->num_mspaces; ms++, e = jt_next(&c->p, e)) {
        char path[32], at[48];
        pathf(path, sizeof path, "merchants[%d]", ms);
        TRY(only(c, e, path, MERCHANT_KEYS));
        TRY(check_id(c, e, "location", path, T->locs[T->mspace_loc[ms]].id));
        TRY(get_name(c, e, "tile", path, PN_MTILE, 1, -1, &g->mspace_tile[ms]));
        int side;
        TRY(required(c, e, "side", path, &side));
        join(at, sizeof at, path, "side");
        if (!jt_eq(&c->p, side, "front") && !jt_eq(&c->p, side, "back")) return bad(c, at, "must be 'front' or 'back'");
        g->mspace_back[ms] = jt_eq(&c->p, side, "back");
    }
    static const char *const QUALITY_KEYS[] = {"stars", "tile", "available", NULL};
    TRY(table_list(c, root, "quality", T->num_qslots, &e));
    for (int q = 0; q < T->num_qslots; q++, e = jt_next(&c->p, e)) {
        char path[32];
        pathf(path, sizeof path, "quality[%d]", q);
        TRY(only(c, e, path, QUALITY_KEYS));
        long long stars;
        TRY(get_int(c, e, "stars", path, 0, 255, T->qslot_stars[q], &stars));
        if (stars != T->qslot_stars[q]) {
            char at[48];
            join(at, sizeof at, path, "stars");
            return bad(c, at, "must be %d, the slot's printed stars (slots follow the data file's order)",
                       T->qslot_stars[q]);
        }
        TRY(get_name(c, e, "tile", path, PN_QTILE, 1, -1, &g->qslot_tile[q]));
        TRY(get_bool(c, e, "available", path, -1, &g->qslot_up[q]));
    }
    return 0;
}

static int read_pending(RC *c, PittsburghGame *g, int pd_node) {
    const PghTables *T = c->T;
    PghPending *pd = &g->pend;
    const char *path = "pending";
    TRY(only(c, pd_node, path, PENDING_KEYS));
    TRY(get_name(c, pd_node, "action", path, PN_ACTION_TYPE, 0, PA_BUILD, &pd->action));
    TRY(get_name(c, pd_node, "card", path, PN_CARD, 1, PGH_NONE, &pd->card));
    TRY(get_name(c, pd_node, "position", path, PN_POSITION, 1, PGH_NONE, &pd->position));
    int v = member(c, pd_node, "place");
    if (v >= 0 && node(c, v)->type != JT_NULL) { /* an action name: a space or an oilfield */
        pd->place = PGH_NONE;
        for (int a = PGA_SPACE; a < PGA_OILFIELD + T->num_fields && node(c, v)->type == JT_STRING; a++)
            if ((a < PGA_SPACE + T->num_spaces || a >= PGA_OILFIELD) && jt_eq(&c->p, v, T->action_names[a]))
                pd->place = (uint8_t)a;
        if (pd->place == PGH_NONE) return bad(c, "pending.place", "must be 'slot:<space>', 'oilfield:<id>' or null");
    }
    TRY(get_name(c, pd_node, "stage", path, PN_STAGE, 0, ST_NONE, &pd->stage));
    TRY(get_name(c, pd_node, "target", path, PN_LOC, 1, PGH_NONE, &pd->target_loc));
    int need = member(c, pd_node, "need");
    if (need >= 0) {
        TRY(want(c, need, JT_OBJECT, "pending.need"));
        TRY(name_counts(c, pd_node, "need", path, PN_CUBE, 3, 0, pd->need));
    }
    TRY(get_name(c, pd_node, "link_tile", path, PN_LINK_TYPE, 1, PGH_NONE, &pd->link_type));
    TRY(get_bool(c, pd_node, "route_is_pipeline", path, 0, &pd->route_is_pipe));
    TRY(get_name(c, pd_node, "route", path, pd->route_is_pipe ? PN_PIPE : PN_RAIL, 1, PGH_NONE, &pd->route));
    GET_U8(pd_node, "links_placed", path, 0, 2, 0, pd->links_placed);
    GET_U8(pd_node, "free_develops", path, 0, 6, 0, pd->free_develops);
    GET_U8(pd_node, "count", path, 0, PGH_MAX_SPACES, 0, pd->count);
    GET_U8(pd_node, "last_position", path, 0, PGH_MAX_POSITIONS - 1, 0, pd->last_position);
    GET_U8(pd_node, "bonus_sell", path, 0, 2, 0, pd->bonus_sell);
    uint64_t bits;
    TRY(name_set(c, pd_node, "merchants_used", path, PN_MSPACE, &bits));
    pd->merchants_used = (uint8_t)bits;
    GET_U8(pd_node, "sale_cube", path, 0, 2, 0, pd->sale_cube);
    GET_U8(pd_node, "sale_last_market", path, 0, PGH_MAX_MARKETS - 1, 0, pd->sale_last_market);
    GET_U8(pd_node, "stars", path, 0, 255, 0, pd->stars);
    TRY(get_name(c, pd_node, "sell_space", path, PN_SPACE, 1, PGH_NONE, &pd->sell_space));
    TRY(get_bool(c, pd_node, "whiskey_build", path, 0, &pd->whiskey_build));
    TRY(get_bool(c, pd_node, "swapped", path, 0, &pd->swapped));
    GET_U8(pd_node, "free_batch", path, 0, 2, 0, pd->free_batch);
    TRY(name_set(c, pd_node, "accessible_before", path, PN_POSITION, &bits));
    pd->acc_before = (uint32_t)bits;
    TRY(name_set(c, pd_node, "sold", path, PN_SPACE, &pd->sold));
    int sm = member(c, pd_node, "sold_merchant");
    if (sm >= 0) {
        TRY(want(c, sm, JT_OBJECT, "pending.sold_merchant"));
        TRY(name_counts(c, pd_node, "sold_merchant", path, PN_SPACE, PGH_MAX_MSPACES - 1, 0, pd->sold_merchant));
    }
    return 0;
}

static int read_position(RC *c, PittsburghGame *g) {
    int root = 0, v;
    TRY(view_hint(c, root)); /* first: a view's own keys (undo_steps) are not TOP_KEYS */
    TRY(only(c, root, "", TOP_KEYS));
    TRY(required(c, root, "ruleset", "", &v));
    if (!jt_eq(&c->p, v, "pittsburgh")) return bad(c, "ruleset", "must be 'pittsburgh' (this is Pittsburgh's position reader)");
    TRY(required(c, root, "format", "", &v));
    if (!jt_eq(&c->p, v, PGH_POSITION_FORMAT)) return bad(c, "format", "must be '%s'", PGH_POSITION_FORMAT);
    long long x;
    TRY(get_int(c, root, "rules_edition", "", 0, 65535, NO_DEFAULT, &x));
    if (x < 1 || x > PGH_RULES_EDITION)
        return bad(c, "rules_edition", "the position needs Pittsburgh rules edition %lld; this engine has %d", x,
                   PGH_RULES_EDITION);
    uint8_t set;
    TRY(required(c, root, "data", "", &v));
    set = PGH_NONE;
    for (int s = 0; s < PGH_NUM_SETS; s++)
        if (jt_eq(&c->p, v, pgh_tables(s)->name)) set = (uint8_t)s;
    if (set == PGH_NONE) return bad(c, "data", "unknown table set (pittsburgh or tiny)");
    const PghTables *T = c->T = pgh_tables(set);
    if ((v = member(c, root, "draft_version")) >= 0 && !jt_eq(&c->p, v, T->draft_version))
        return bad(c, "draft_version", "must be '%s', the draft of this engine's '%s' data", T->draft_version, T->name);
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
    TRY(get_int(c, root, "era", "", 1, 2, NO_DEFAULT, &x));
    g->h.era = (uint8_t)(x - 1);
    GET_U8(root, "round", "", 1, T->rounds_per_era, NO_DEFAULT, g->h.round);
    TRY(get_bool(c, root, "game_over", "", 0, &g->h.game_over));
    TRY(get_name(c, root, "phase", "", PN_PHASE, 0, g->h.game_over ? PP_GAME_OVER : PP_ACTION, &g->h.phase));
    TRY(required(c, root, "turn_order", "", &v));
    TRY(want(c, v, JT_ARRAY, "turn_order"));
    if ((int)node(c, v)->count != n) return bad(c, "turn_order", "must list the %d seats", n);
    int e = v + 1;
    for (int i = 0; i < n; i++, e = jt_next(&c->p, e)) {
        char at[32];
        pathf(at, sizeof at, "turn_order[%d]", i);
        TRY(int_at(c, e, at, 0, n - 1, &x));
        for (int j = 0; j < i; j++)
            if (g->turn_order[j] == x) return bad(c, at, "seat %lld is listed twice", x);
        g->turn_order[i] = (uint8_t)x;
    }
    GET_U8(root, "turn_index", "", 0, n, 0, g->h.turn_idx);
    GET_U8(root, "current", "", 0, n - 1, g->turn_order[g->h.turn_idx % n], g->h.current);
    int first_round = g->h.era == 0 && g->h.round == 1;
    GET_U8(root, "actions_left", "", 0, T->actions_per_turn,
           first_round ? T->actions_first_round : T->actions_per_turn, g->h.actions_left);
    TRY(get_bool(c, root, "auto_resolve", "", 1, &g->h.auto_resolve));
    /* options: names and value names; an absent one takes the data file's default */
    for (int o = 0; o < PGH_NUM_OPTIONS; o++) g->options[o] = T->option_default[o];
    g->options[PGH_OPT_DATA] = set;
    if ((v = member(c, root, "options")) >= 0) {
        TRY(want(c, v, JT_OBJECT, "options"));
        uint64_t seen = 0;
        int m = v + 1;
        for (uint32_t i = 0; i < node(c, v)->count; i++, m = jt_next(&c->p, m + 1)) {
            char at[96], val[48];
            join_key(c, at, sizeof at, "options", m);
            if (jt_eq(&c->p, m, "undo")) { /* the engine's own option, not the data file's */
                if (seen >> PGH_OPT_UNDO & 1u) return bad(c, at, "key given twice");
                seen |= 1ull << PGH_OPT_UNDO;
                key_text(c, m + 1, val, sizeof val);
                if (jt_eq(&c->p, m + 1, "true")) g->h.undo_off = 0;
                else if (jt_eq(&c->p, m + 1, "false")) g->h.undo_off = 1;
                else return bad(c, at, "unknown value '%s' (values are \"true\" or \"false\")", val);
                continue;
            }
            int o = -1;
            for (int k = 0; k < PGH_NUM_ALL_OPTIONS && o < 0; k++)
                if (jt_eq(&c->p, m, pgh_option_name(k))) o = k;
            if (o < 0) return bad(c, at, "unknown option");
            if (seen >> o & 1u) return bad(c, at, "key given twice");
            seen |= 1ull << o;
            int value = -1;
            for (int k = 0; k < pgh_option_num_values(o) && value < 0; k++)
                if (jt_eq(&c->p, m + 1, pgh_option_value_name(o, k))) value = k;
            key_text(c, m + 1, val, sizeof val);
            if (value < 0) return bad(c, at, "unknown value '%s' (values are strings, as the writer gives them)", val);
            if (o == PGH_OPT_DATA ? value != set : !pgh_option_implemented(o, value))
                return bad(c, at, o == PGH_OPT_DATA ? "must be the position's data ('%s')" : "value '%s' is not implemented",
                           o == PGH_OPT_DATA ? T->name : val);
            g->options[o] = (uint8_t)value;
        }
    }
    TRY(required(c, root, "players", "", &v));
    TRY(read_players(c, g, v));
    TRY(read_board(c, g, root));
    TRY(name_counts(c, root, "discards", "", PN_CARD, PGH_MAX_DECK, 0, g->discards));
    if ((v = member(c, root, "deck")) >= 0) {
        TRY(want(c, v, JT_ARRAY, "deck"));
        if (node(c, v)->count > PGH_MAX_DECK) return bad(c, "deck", "holds at most %d cards", PGH_MAX_DECK);
        e = v + 1;
        for (uint32_t i = 0; i < node(c, v)->count; i++, e = jt_next(&c->p, e)) {
            char at[32];
            pathf(at, sizeof at, "deck[%u]", i);
            TRY(name_at(c, e, at, PN_CARD, 0, &g->deck[i]));
        }
        g->deck_size = (uint8_t)node(c, v)->count;
    }
    TRY(get_int(c, root, "deck_size", "", 0, PGH_MAX_DECK, g->deck_size, &x));
    if (x != g->deck_size) return bad(c, "deck_size", "must be %d, the cards listed in deck", g->deck_size);
    TRY(name_set(c, root, "rail_bonus_taken", "", PN_RAIL, &g->rail_bonus_taken));
    if ((v = member(c, root, "pending")) >= 0) TRY(read_pending(c, g, v));
    g->seed = 0;
    if ((v = member(c, root, "seed")) >= 0) TRY(u64_at(c, v, "seed", &g->seed));
    rng_seed(&g->rng_state, g->seed);
    if ((v = member(c, root, "rng")) >= 0) TRY(u64_at(c, v, "rng", &g->rng_state));
    TRY(get_int(c, root, "decisions_applied", "", 0, UINT32_MAX, 0, &x));
    g->decisions = (uint32_t)x;
    return 0;
}

int pgh_position_read(PittsburghGame *g, const char *json, size_t len, char *field, size_t field_len, char *msg,
                      size_t msg_len) {
    RC c = {.field = field, .msg = msg, .field_len = field_len, .msg_len = msg_len};
    if (field && field_len) field[0] = '\0';
    if (msg && msg_len) msg[0] = '\0';
    if (!g || !json) return BRASS_E_BAD_ARGUMENT;
    if (len > PGH_POSITION_MAX_CHARS) return bad(&c, "$", "the text is over %d characters", PGH_POSITION_MAX_CHARS);
    JtNode nodes[PGH_POSITION_NODES];
    if (jt_parse(&c.p, json, len, nodes, PGH_POSITION_NODES) < 0)
        return bad(&c, "$", "not valid JSON: %s at character %zu", c.p.error, c.p.i);
    if (nodes[0].type != JT_OBJECT) return bad(&c, "$", "a position is a JSON object");
    PittsburghGame tmp;
    TRY(read_position(&c, &tmp));
    char vfield[64] = "";
    if (pgh_validate(&tmp, vfield, sizeof vfield) != BRASS_OK)
        return bad(&c, vfield, "the position is inconsistent at %s (no game reaches it, or it cannot go on)", vfield);
    *g = tmp;
    return BRASS_OK;
}
