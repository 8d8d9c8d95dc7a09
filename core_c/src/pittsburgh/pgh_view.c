/* What a seat sees: the observation vector and the position as JSON text. */
#include <stdarg.h>
#include <string.h>

#include "pgh_internal.h"

static int rel(const PittsburghGame *g, int seat, int owner) {
    return (owner - seat + g->h.num_players) % g->h.num_players;
}

/* A count over its scale, held to [-1, 1]: money, VP (negative after shortfalls) and
   spending have no hard cap (docs/ENGINE_API.md states each scale and where it saturates). */
static float scaled(int value, float scale) {
    float x = (float)value / scale;
    return x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x);
}

/* Layout (seat-relative, "me" = 0): see docs/PITTSBURGH.md. */
int pgh_observation(const PittsburghGame *g0, int seat, float *out, int cap) {
    if (cap < PGH_OBS_SIZE) return -BRASS_E_BUFFER;
    if (seat < 0 || seat >= g0->h.num_players) return -BRASS_E_BAD_ARGUMENT;
    PittsburghGame g;
    pgh_redact(g0, seat, &g);
    const PghTables *T = pgh_T(&g);
    memset(out, 0, sizeof(float) * PGH_OBS_SIZE);
    float *o = out;
    for (int s = 0; s < PGH_MAX_SPACES; s++, o += 16) {
        const PghSpace *sp = &g.spaces[s];
        if (sp->owner < 0) continue;
        o[rel(&g, seat, sp->owner)] = 1;
        o[4 + T->tiles[sp->tile].industry] = 1;
        o[14] = sp->flipped;
        o[15] = scaled(sp->cubes[0] + sp->cubes[1], 8.0f);
    }
    for (int r = 0; r < PGH_MAX_RAILS; r++, o += 6) {
        const PghRailState *rs = &g.rails[r];
        if (rs->owner < 0) continue;
        o[rel(&g, seat, rs->owner)] = 1;
        o[4] = T->link_types[rs->link_type].kind == LK_HEAVY;
        o[5] = rs->cargo;
    }
    for (int q = 0; q < PGH_MAX_PIPES; q++, o += 5) {
        if (g.pipes[q].owner < 0) continue;
        o[rel(&g, seat, g.pipes[q].owner)] = 1;
        o[4] = T->link_types[g.pipes[q].link_type].pipe == PK_RESERVE;
    }
    for (int f = 0; f < PGH_MAX_FIELDS; f++, o += 5) {
        const PghField *fd = &g.fields[f];
        o[0] = fd->barrels / 10.0f;
        o[1] = fd->pending / 10.0f;
        o[2] = fd->oc_owner == seat;
        o[3] = fd->oc_owner >= 0 && fd->oc_owner != seat;
        o[4] = fd->oc_barrels / 10.0f;
    }
    for (int m = 0; m < PGH_MAX_MARKETS; m++, o += 2) {
        o[0] = g.market_fill[m][0] / 4.0f;
        o[1] = g.market_fill[m][1] / 4.0f;
    }
    for (int ms = 0; ms < PGH_MAX_MSPACES; ms++, o += 5) {
        int t = g.mspace_tile[ms];
        if (t == PGH_NONE) continue;
        unsigned acc = g.mspace_back[ms] ? T->mtiles[t].back_accepts : T->mtiles[t].front_accepts;
        o[0] = 1;
        o[1] = g.mspace_back[ms];
        o[2] = (acc >> PI_KEROSENE) & 1;
        o[3] = (acc >> PI_MANUFACTURING) & 1;
        o[4] = (acc >> PI_AUTOMOBILE) & 1;
    }
    for (int q = 0; q < PGH_MAX_QSLOTS; q++, o += 2) {
        o[0] = g.qslot_up[q];
        o[1] = q < T->num_qslots ? T->qslot_stars[q] / 10.0f : 0;
    }
    for (int i = 0; i < PGH_MAX_PLAYERS; i++, o += 12) {
        if (i >= g.h.num_players) continue;
        int p = (seat + i) % g.h.num_players;
        const PghPlayer *pl = &g.players[p];
        int heavy = 0, pipes = 0;
        for (int lt = 1; lt < T->num_link_types; lt++) {
            if (T->link_types[lt].kind == LK_HEAVY) heavy += pl->supply[lt];
            else pipes += pl->supply[lt];
        }
        o[0] = 1;
        o[1] = scaled(pl->money, 200.0f);
        o[2] = scaled(pl->vp, 200.0f);
        o[3] = pgh_level_of(&g, pl->income_space) / 30.0f;
        o[4] = scaled(pl->spent, 200.0f);
        o[5] = pl->whiskey / 3.0f;
        o[6] = pl->hand_size / 8.0f;
        o[7] = pl->supply[0] / 9.0f;
        o[8] = heavy / 7.0f;
        o[9] = pipes / 6.0f;
        o[10] = pgh_empty_positions(&g, p) / 22.0f;
        o[11] = pl->heavy_built / 7.0f;
    }
    for (int i = 0; i < PGH_MAX_PLAYERS; i++, o += PGH_MAX_POSITIONS) {
        if (i >= g.h.num_players) continue;
        const PghPlayer *pl = &g.players[(seat + i) % g.h.num_players];
        for (int pos = 0; pos < PGH_MAX_POSITIONS; pos++) o[pos] = pl->mat_left[pos] / 3.0f;
    }
    for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) o[c] = g.players[seat].hand[c] / 8.0f;
    o += PGH_MAX_CARD_TYPES;
    for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) o[c] = g.discards[c] / 8.0f;
    o += PGH_MAX_CARD_TYPES;
    o[0] = g.deck_size / 64.0f;
    o[1] = g.h.era;
    o[2] = g.h.round / 8.0f;
    o[3] = g.h.actions_left / 2.0f;
    o[4] = g.h.current == seat && !g.h.game_over;
    o += 5;
    o[g.h.phase] = 1;
    o += PGH_NUM_PHASES;
    if (g.h.current == seat && !g.h.game_over) {
        const PghPending *pd = &g.pend;
        o[pd->action] = 1;
        for (int c = 0; c < PGH_NUM_CUBES; c++) o[6 + c] = pd->need[c] / 3.0f;
        o[11] = pd->stars / 10.0f;
        o[12] = pd->count / 4.0f;
        o[13] = pd->links_placed / 2.0f;
        o[14] = pd->free_develops / 3.0f;
    }
    o += 19;
    return (int)(o - out);
}

/* brass_summary (docs/ENGINE_API.md, "The summary"): a header, every player's numbers, then
   the pieces on the board as records, in the view's order (spaces, rails, pipelines by
   index; every oilfield). */
int pgh_summary(const PittsburghGame *g, int32_t *out, int cap) {
    if (cap < PGH_SUMMARY_SIZE) return -BRASS_E_BUFFER;
    if (!pgh_view_writable(g)) return -BRASS_E_BAD_POSITION;
    const PghTables *T = pgh_T(g);
    int32_t *o = out + PGH_SUMMARY_HEAD;
    memset(out, 0, sizeof(int32_t) * PGH_SUMMARY_HEAD);
    out[0] = g->h.num_players;
    out[1] = g->h.game_over;
    out[2] = g->h.era + 1; /* as the view counts eras */
    out[3] = g->h.round;
    out[4] = g->deck_size;
    out[5] = g->h.table_set & 1;
    for (int p = 0; p < PGH_MAX_PLAYERS; p++, o += PGH_SUMMARY_PLAYER) {
        memset(o, 0, sizeof(int32_t) * PGH_SUMMARY_PLAYER);
        if (p >= g->h.num_players) continue;
        const PghPlayer *pl = &g->players[p];
        o[0] = pl->money;
        o[1] = pl->vp;
        o[2] = pl->income_space;
        o[3] = pgh_level_of(g, pl->income_space);
        o[4] = pl->whiskey;
        o[5] = pl->hand_size;
        o[6] = pl->heavy_built;
        o[7] = pgh_empty_positions(g, p);
    }
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0) continue;
        *o++ = s, *o++ = sp->owner, *o++ = sp->tile, *o++ = sp->flipped;
        out[6]++;
    }
    for (int r = 0; r < T->num_rails; r++) {
        if (g->rails[r].owner < 0) continue;
        *o++ = r, *o++ = g->rails[r].owner, *o++ = g->rails[r].link_type;
        out[7]++;
    }
    for (int q = 0; q < T->num_pipes; q++) {
        if (g->pipes[q].owner < 0) continue;
        *o++ = q, *o++ = g->pipes[q].owner, *o++ = g->pipes[q].link_type;
        out[8]++;
    }
    for (int f = 0; f < T->num_fields; f++) {
        const PghField *fd = &g->fields[f];
        *o++ = fd->oc_owner, *o++ = fd->oc_flipped, *o++ = fd->oc_barrels;
        out[9]++;
    }
    return (int)(o - out);
}

/* ---- JSON ---- */
typedef struct {
    char *out;
    int cap, len;
} Buf;

/* Text that fits is written; `len` counts all of it, so a short buffer shows at the end. */
static void put_text(Buf *b, const char *s, size_t n) {
    if ((size_t)b->len + n < (size_t)b->cap) memcpy(b->out + b->len, s, n);
    b->len += (int)n;
}

/* Decimal digits of v, written backwards from end; returns where they start. */
static char *put_digits(char *end, unsigned long long v) {
    do *--end = (char)('0' + v % 10); while (v /= 10);
    return end;
}

/* The writer's printf, for the only conversions it uses: %s, %d, %lu and %llu (the format
   attribute checks their arguments). vsnprintf made the writing most of a view's cost: a
   view is about 500 of these. NUL-terminated whenever the text fits. */
static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    const char *run = fmt, *p = fmt;
    char digits[24], *end = digits + sizeof digits;
    for (; *p; p++) {
        if (*p != '%') continue;
        put_text(b, run, (size_t)(p - run));
        p++;
        if (*p == 's') {
            const char *s = va_arg(ap, const char *);
            put_text(b, s, strlen(s));
        } else if (*p == 'd') {
            int v = va_arg(ap, int);
            unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            char *at = put_digits(end, mag);
            if (v < 0) *--at = '-';
            put_text(b, at, (size_t)(end - at));
        } else if (p[0] == 'l' && p[1] == 'u') {
            char *at = put_digits(end, va_arg(ap, unsigned long));
            put_text(b, at, (size_t)(end - at));
            p++;
        } else if (p[0] == 'l' && p[1] == 'l' && p[2] == 'u') {
            char *at = put_digits(end, va_arg(ap, unsigned long long));
            put_text(b, at, (size_t)(end - at));
            p += 2;
        }
        run = p + 1;
    }
    put_text(b, run, (size_t)(p - run));
    va_end(ap);
    if (b->len < b->cap) b->out[b->len] = 0;
}

static const char *cube_name(int c) {
    static const char *const n[] = {"coal", "iron", "steel", "coke", "oil"};
    return c >= 0 && c < PGH_NUM_CUBES ? n[c] : "none";
}

/* Whether every index the writer reads a table or name at is in range. The engine only
   holds valid states, but the writer also gets redacted ones (previews) and, from a caller
   that bypasses restore and the position reader, arbitrary bytes: those are refused, never
   read out of bounds (found by fuzz_state: a rail's link type 255). The protobuf view
   (pgh_view_proto.c) reads the same indexes and refuses the same states. */
int pgh_view_writable(const PittsburghGame *g) {
    const PghTables *T = pgh_T(g);
    if (g->h.num_players < 2 || g->h.num_players > PGH_MAX_PLAYERS) return 0;
    if (!pgh_phase_name(g->h.phase)) return 0;
    for (int o = 0; o < PGH_NUM_ALL_OPTIONS; o++)
        if (!pgh_option_value_name(o, g->options[o])) return 0;
    for (int p = 0; p < g->h.num_players; p++)
        if (g->players[p].income_space >= sizeof T->level_of_space) return 0;
    for (int s = 0; s < T->num_spaces; s++)
        if (g->spaces[s].owner >= 0 && g->spaces[s].tile >= T->num_tiles) return 0;
    for (int r = 0; r < T->num_rails; r++)
        if (g->rails[r].owner >= 0 && g->rails[r].link_type >= T->num_link_types) return 0;
    for (int q = 0; q < T->num_pipes; q++)
        if (g->pipes[q].owner >= 0 && g->pipes[q].link_type >= T->num_link_types) return 0;
    for (int f = 0; f < T->num_fields; f++)
        if (g->fields[f].tile != PGH_NONE && g->fields[f].tile >= T->num_ftiles) return 0;
    for (int m = 0; m < T->num_mspaces; m++)
        if (g->mspace_tile[m] != PGH_NONE && g->mspace_tile[m] >= T->num_mtiles) return 0;
    for (int q = 0; q < T->num_qslots; q++)
        if (g->qslot_tile[q] != PGH_NONE && g->qslot_tile[q] >= T->num_qtiles) return 0;
    return 1;
}

/* A name or null (names are plain ASCII ids: no escaping needed). */
static void put_name(Buf *b, const PghTables *T, int kind, int i) {
    const char *n = i == PGH_NONE ? NULL : pgh_name(T, kind, i);
    if (n) put(b, "\"%s\"", n);
    else put(b, "null");
}

/* A bit set as the list of the names of its members. */
static void put_name_set(Buf *b, const PghTables *T, int kind, uint64_t bits) {
    put(b, "[");
    for (int i = 0, first = 1; i < pgh_name_count(T, kind); i++)
        if (bits >> i & 1u) {
            put(b, "%s\"%s\"", first ? "" : ",", pgh_name(T, kind, i));
            first = 0;
        }
    put(b, "]");
}

/* What only a full position holds of a player: face-down card, last discard, link slots
   moved to the supply. */
static void put_hidden_player(Buf *b, const PghTables *T, const PghPlayer *pl) {
    put(b, ",\"facedown\":");
    put_name(b, T, PN_CARD, pl->facedown_card);
    put(b, ",\"last_discard\":");
    put_name(b, T, PN_CARD, pl->last_discard);
    put(b, ",\"links_released\":[");
    for (int s = 0, first = 1; s < T->num_link_slots; s++)
        if (pl->slots_released >> s & 1u) {
            put(b, "%s%d", first ? "" : ",", s);
            first = 0;
        }
    put(b, "]");
}

/* What only a full position holds of the game: the deck, the action in progress (every
   field of PghPending, so that reading it back gives the same state bytes), the route
   bonuses given, the random state and the decision count. */
static void put_hidden_state(Buf *b, const PittsburghGame *g) {
    const PghTables *T = pgh_T(g);
    const PghPending *pd = &g->pend;
    put(b, ",\"deck\":[");
    for (int i = 0; i < g->deck_size; i++) {
        put(b, "%s", i ? "," : "");
        put_name(b, T, PN_CARD, g->deck[i]);
    }
    put(b, "],\"rail_bonus_taken\":");
    put_name_set(b, T, PN_RAIL, g->rail_bonus_taken);
    put(b, ",\"pending\":{\"action\":");
    put_name(b, T, PN_ACTION_TYPE, pd->action);
    put(b, ",\"card\":");
    put_name(b, T, PN_CARD, pd->card);
    put(b, ",\"position\":");
    put_name(b, T, PN_POSITION, pd->position);
    put(b, ",\"place\":");
    if (pd->place == PGH_NONE) put(b, "null");
    else put(b, "\"%s\"", T->action_names[pd->place]);
    put(b, ",\"stage\":");
    put_name(b, T, PN_STAGE, pd->stage);
    put(b, ",\"target\":");
    put_name(b, T, PN_LOC, pd->target_loc);
    put(b, ",\"need\":{");
    for (int c = 0; c < PGH_NUM_CUBES; c++) put(b, "%s\"%s\":%d", c ? "," : "", pgh_name(T, PN_CUBE, c), pd->need[c]);
    put(b, "},\"link_tile\":");
    put_name(b, T, PN_LINK_TYPE, pd->link_type);
    put(b, ",\"route\":");
    put_name(b, T, pd->route_is_pipe ? PN_PIPE : PN_RAIL, pd->route);
    put(b, ",\"route_is_pipeline\":%s,\"links_placed\":%d,\"free_develops\":%d,\"count\":%d,"
           "\"last_position\":%d,\"bonus_sell\":%d,\"merchants_used\":",
        pd->route_is_pipe ? "true" : "false", pd->links_placed, pd->free_develops, pd->count,
        pd->last_position, pd->bonus_sell);
    put_name_set(b, T, PN_MSPACE, pd->merchants_used);
    put(b, ",\"sale_cube\":%d,\"sale_last_market\":%d,\"stars\":%d,\"sell_space\":", pd->sale_cube,
        pd->sale_last_market, pd->stars);
    put_name(b, T, PN_SPACE, pd->sell_space);
    put(b, ",\"whiskey_build\":%s,\"swapped\":%s,\"free_batch\":%d,\"accessible_before\":",
        pd->whiskey_build ? "true" : "false", pd->swapped ? "true" : "false", pd->free_batch);
    put_name_set(b, T, PN_POSITION, pd->acc_before);
    put(b, ",\"sold\":");
    put_name_set(b, T, PN_SPACE, pd->sold);
    put(b, ",\"sold_merchant\":{");
    for (int s = 0, first = 1; s < T->num_spaces; s++)
        if (pd->sold_merchant[s]) {
            put(b, "%s\"%s\":%d", first ? "" : ",", pgh_name(T, PN_SPACE, s), pd->sold_merchant[s]);
            first = 0;
        }
    put(b, "}},\"seed\":%llu,\"rng\":%llu,\"decisions_applied\":%lu", (unsigned long long)g->seed,
        (unsigned long long)g->rng_state, (unsigned long)g->decisions);
}

const char *const PGH_VIEW_MAPS[] = {"options", "hand", "mat", "supply", "discards", NULL};

/* The whole position (hidden = 1) or what `seat` sees (hidden = 0; seat -1 spectator). */
int pgh_position_json(const PittsburghGame *g0, int seat, int hidden, char *out, int cap) {
    /* a full position names everything (deck, action in progress): only valid states */
    if (!pgh_view_writable(g0) || (hidden && pgh_validate(g0, NULL, 0) != BRASS_OK)) return -BRASS_E_BAD_POSITION;
    PittsburghGame g;
    if (hidden) g = *g0;
    else pgh_redact(g0, seat, &g);
    const PghTables *T = pgh_T(&g);
    Buf b = {out, cap, 0};
    put(&b, "{\"ruleset\":\"pittsburgh\",");
    if (hidden) put(&b, "\"format\":\"%s\",\"rules_edition\":%d,", PGH_POSITION_FORMAT, g.h.rules_edition);
    put(&b, "\"data\":\"%s\",\"draft_version\":\"%s\",\"num_players\":%d,"
            "\"era\":%d,\"round\":%d,\"phase\":\"%s\",\"current\":%d,\"actions_left\":%d,\"game_over\":%s,"
            "\"deck_size\":%d,\"turn_order\":[",
        T->name, T->draft_version, g.h.num_players, g.h.era + 1, g.h.round, pgh_phase_name(g.h.phase),
        g.h.current, g.h.actions_left, g.h.game_over ? "true" : "false", g.deck_size);
    for (int i = 0; i < g.h.num_players; i++) put(&b, "%s%d", i ? "," : "", g.turn_order[i]);
    put(&b, "]");
    if (hidden) put(&b, ",\"turn_index\":%d,\"auto_resolve\":%s", g.h.turn_idx, g.h.auto_resolve ? "true" : "false");
    put(&b, ",\"options\":{");
    for (int o = 0; o < PGH_NUM_ALL_OPTIONS; o++)
        put(&b, "%s\"%s\":\"%s\"", o ? "," : "", pgh_option_name(o), pgh_option_value_name(o, g.options[o]));
    /* a string like every other option value: the options map holds strings */
    put(&b, ",\"undo\":\"%s\"},\"players\":[", g.h.undo_off ? "false" : "true");
    for (int p = 0; p < g.h.num_players; p++) {
        const PghPlayer *pl = &g.players[p];
        put(&b, "%s{\"money\":%d,\"vp\":%d,\"spent\":%d,\"income_space\":%d,\"income_level\":%d,"
                "\"whiskey\":%d,\"hand_size\":%d,\"heavy_built\":%d,\"hand\":{",
            p ? "," : "", pl->money, pl->vp, pl->spent, pl->income_space, pgh_level_of(&g, pl->income_space),
            pl->whiskey, pl->hand_size, pl->heavy_built);
        int first = 1;
        if (hidden || p == seat)
            for (int c = 0; c < T->num_card_types; c++)
                if (pl->hand[c]) {
                    put(&b, "%s\"%s\":%d", first ? "" : ",", T->action_names[PGA_CARD + c] + 5, pl->hand[c]);
                    first = 0;
                }
        put(&b, "},\"mat\":{");
        for (int pos = 0; pos < T->num_positions; pos++)
            put(&b, "%s\"%s\":%d", pos ? "," : "", T->positions[pos].id, pl->mat_left[pos]);
        put(&b, "},\"supply\":{");
        for (int lt = 0; lt < T->num_link_types; lt++)
            put(&b, "%s\"%s\":%d", lt ? "," : "", T->link_types[lt].id, pl->supply[lt]);
        put(&b, "}");
        if (hidden) put_hidden_player(&b, T, pl);
        put(&b, "}");
    }
    put(&b, "],\"spaces\":[");
    int first = 1;
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g.spaces[s];
        if (sp->owner < 0) continue;
        const PghTile *t = &T->tiles[sp->tile];
        put(&b, "%s{\"slot\":\"%s\",\"owner\":%d,\"tile\":\"%s\",\"flipped\":%s", first ? "" : ",",
            T->action_names[PGA_SPACE + s] + 5, sp->owner, t->id, sp->flipped ? "true" : "false");
        /* one key per cube the tile produces (none for a tile that produces nothing) */
        for (int k = 0; k < 2; k++)
            if (t->prod_cube[k] != PGH_NONE) put(&b, ",\"%s\":%d", cube_name(t->prod_cube[k]), sp->cubes[k]);
        put(&b, "}");
        first = 0;
    }
    put(&b, "],\"links\":[");
    first = 1;
    for (int r = 0; r < T->num_rails; r++) {
        if (g.rails[r].owner < 0) continue;
        put(&b, "%s{\"route\":\"%s\",\"owner\":%d,\"tile\":\"%s\",\"cargo\":%d}", first ? "" : ",",
            T->rails[r].id, g.rails[r].owner, T->link_types[g.rails[r].link_type].id, g.rails[r].cargo);
        first = 0;
    }
    for (int q = 0; q < T->num_pipes; q++) {
        if (g.pipes[q].owner < 0) continue;
        put(&b, "%s{\"route\":\"%s\",\"owner\":%d,\"tile\":\"%s\"}", first ? "" : ",", T->pipes[q].id,
            g.pipes[q].owner, T->link_types[g.pipes[q].link_type].id);
        first = 0;
    }
    put(&b, "],\"oilfields\":[");
    static const char *const st[] = {"face_down", "pending", "revealed", "none"};
    for (int f = 0; f < T->num_fields; f++) {
        const PghField *fd = &g.fields[f];
        int shown = fd->tile != PGH_NONE && (hidden || fd->tile_state != FT_FACE_DOWN);
        put(&b, "%s{\"id\":\"%s\",\"barrels\":%d,\"tile_state\":\"%s\",\"tile\":%s%s%s,\"pending\":%d,"
                "\"oil_city_owner\":%d,\"oil_city_barrels\":%d,\"oil_city_flipped\":%s}",
            f ? "," : "", T->field_ids[f], fd->barrels, st[fd->tile_state & 3], shown ? "\"" : "",
            shown ? T->ftiles[fd->tile].id : "null", shown ? "\"" : "", fd->pending, fd->oc_owner,
            fd->oc_barrels, fd->oc_flipped ? "true" : "false");
    }
    put(&b, "],\"markets\":[");
    for (int m = 0; m < T->num_markets; m++)
        put(&b, "%s{\"id\":\"%s\",\"price\":%d,\"%s\":%d,\"%s\":%d}", m ? "," : "", T->markets[m].id,
            T->markets[m].price, cube_name(T->markets[m].col_cube[0]), g.market_fill[m][0],
            cube_name(T->markets[m].col_cube[1]), g.market_fill[m][1]);
    put(&b, "],\"merchants\":[");
    for (int ms = 0; ms < T->num_mspaces; ms++) {
        int t = g.mspace_tile[ms];
        put(&b, "%s{\"location\":\"%s\",\"tile\":%s%s%s,\"side\":\"%s\"}", ms ? "," : "",
            T->locs[T->mspace_loc[ms]].id, t == PGH_NONE ? "" : "\"", t == PGH_NONE ? "null" : T->mtiles[t].id,
            t == PGH_NONE ? "" : "\"", g.mspace_back[ms] ? "back" : "front");
    }
    put(&b, "],\"quality\":[");
    for (int q = 0; q < T->num_qslots; q++) {
        int t = g.qslot_tile[q];
        put(&b, "%s{\"stars\":%d,\"tile\":%s%s%s,\"available\":%s}", q ? "," : "", T->qslot_stars[q],
            t == PGH_NONE ? "" : "\"", t == PGH_NONE ? "null" : T->qtiles[t].id, t == PGH_NONE ? "" : "\"",
            g.qslot_up[q] ? "true" : "false");
    }
    put(&b, "],\"discards\":{");
    first = 1;
    for (int c = 0; c < T->num_card_types; c++)
        if (g.discards[c]) {
            put(&b, "%s\"%s\":%d", first ? "" : ",", T->action_names[PGA_CARD + c] + 5, g.discards[c]);
            first = 0;
        }
    put(&b, "}");
    if (hidden) put_hidden_state(&b, &g);
    put(&b, "}");
    if (b.len >= cap) return -BRASS_E_BUFFER;
    return b.len;
}
