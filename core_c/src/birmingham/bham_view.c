/* What a seat sees: Birmingham positions and seat views as JSON text, in the documented
   position format (docs/POSITION.md, "brass-position/1"): the one writer of that format (the
   Python layer parses this text for its dicts, and the service sends it as it is); and the
   observation vector. */
#include <stdio.h>
#include <string.h>

#include "bham_internal.h"
#include "common/json_writer.h"

const char *bham_entry_name(int first, int count, int v) {
    if (v < 0 || v >= count) return "unknown";
    const char *name = BT_ACTION_NAMES[first + v];
    const char *colon = strchr(name, ':');
    return colon ? colon + 1 : name;
}

/* A name from a range, or null for BRASS_NONE. */
static void put_opt_name(JsonWriter *j, uint8_t v, int first, int count) {
    if (v == BRASS_NONE) json_null(j);
    else json_str(j, bham_entry_name(first, count, v));
}

static void put_player(JsonWriter *j, const BirminghamGame *g, int p, int seat, int hidden) {
    const BirminghamPlayer *pl = &g->players[p];
    json_raw(j, "{");
    json_field(j, "money"), json_int(j, pl->money), json_raw(j, ",");
    json_field(j, "vp"), json_int(j, pl->vp), json_raw(j, ",");
    json_field(j, "spent"), json_int(j, pl->spent), json_raw(j, ",");
    json_field(j, "income_space"), json_int(j, pl->income_space), json_raw(j, ",");
    json_field(j, "income_level"), json_int(j, bham_income_level(pl->income_space));
    json_raw(j, ",");
    json_field(j, "links_left"), json_int(j, pl->links_left), json_raw(j, ",");
    json_field(j, "mat_taken"), json_raw(j, "{");
    for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++) {
        if (i) json_raw(j, ",");
        json_map_key(j, INDUSTRY_NAME(i)), json_int(j, pl->mat_taken[i]);
    }
    json_raw(j, "},");
    json_field(j, "hand_size"), json_int(j, pl->hand_size), json_raw(j, ",");
    json_field(j, "last_discard");
    if (pl->last_discard == BHAM_NO_CARD) json_null(j);
    else json_str(j, CARD_NAME(pl->last_discard));
    json_raw(j, ",");
    if (hidden || p == seat) {
        json_field(j, "hand"), json_raw(j, "{");
        int first = 1, shown = 0;
        for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
            if (!pl->hand[c]) continue;
            if (!first) json_raw(j, ",");
            first = 0;
            shown += pl->hand[c];
            json_map_key(j, CARD_NAME(c)), json_int(j, pl->hand[c]);
        }
        json_raw(j, "}");
        /* only a preview's outcome holds cards the seat has not seen yet (drawn unseen) */
        if (!hidden && shown < pl->hand_size)
            json_raw(j, ","), json_field(j, "hand_unseen"), json_int(j, pl->hand_size - shown);
    } else {
        /* the service's styles write the map empty, as proto3 JSON writes every field
           without presence (the snake dicts leave it out) */
        if (j->keys != BRASS_KEYS_SNAKE) json_field(j, "hand"), json_raw(j, "{},");
        /* others' wild cards are public: taken and returned openly */
        json_field(j, "wild_cards"), json_raw(j, "{");
        json_field(j, "wild_location"), json_int(j, pl->hand[BT_CARD_WILD_LOCATION]);
        json_raw(j, ",");
        json_field(j, "wild_industry"), json_int(j, pl->hand[BT_CARD_WILD_INDUSTRY]);
        json_raw(j, "}");
    }
    if (hidden) {
        json_raw(j, ",");
        json_field(j, "facedown");
        if (pl->facedown_card == BHAM_NO_CARD) json_null(j);
        else json_str(j, CARD_NAME(pl->facedown_card));
    }
    json_raw(j, "}");
}

static void put_pending(JsonWriter *j, const BirminghamPending *pd) {
    json_raw(j, "{");
    json_field(j, "action"), json_str(j, ACTION_TYPE_NAME(pd->action)), json_raw(j, ",");
    json_field(j, "card"), put_opt_name(j, pd->card, A_CARD, BHAM_NUM_CARD_TYPES), json_raw(j, ",");
    json_field(j, "industry"), put_opt_name(j, pd->industry, A_INDUSTRY, BHAM_NUM_INDUSTRIES), json_raw(j, ",");
    json_field(j, "slot"), put_opt_name(j, pd->slot, A_SLOT, BHAM_NUM_SLOTS), json_raw(j, ",");
    json_field(j, "link"), put_opt_name(j, pd->link, A_LINK, BHAM_NUM_LINKS), json_raw(j, ",");
    json_field(j, "merchant"), put_opt_name(j, pd->merchant, A_MERCHANT, BHAM_NUM_MERCHANT_SPACES), json_raw(j, ",");
    json_field(j, "coal_left"), json_int(j, pd->coal_left), json_raw(j, ",");
    json_field(j, "iron_left"), json_int(j, pd->iron_left), json_raw(j, ",");
    json_field(j, "beer_left"), json_int(j, pd->beer_left), json_raw(j, ",");
    json_field(j, "count"), json_int(j, pd->count), json_raw(j, ",");
    json_field(j, "last_choice"), json_int(j, pd->last_choice), json_raw(j, ",");
    json_field(j, "scout_picked"), json_int(j, pd->scout_picked), json_raw(j, ",");
    json_field(j, "merchant_beer_used"), json_bool(j, pd->after_beer & 1), json_raw(j, ",");
    json_field(j, "income_index"), json_int(j, pd->income_idx);
    json_raw(j, "}");
}

static void put_merchant_goods(JsonWriter *j, uint8_t mask) {
    static const char *const goods[3] = {"cotton", "manufacturer", "pottery"};
    if (mask == BRASS_NONE) { /* no tile: null, or an empty list (a repeated field) */
        json_raw(j, j->keys == BRASS_KEYS_SNAKE ? "null" : "[]");
        return;
    }
    json_raw(j, "[");
    int first = 1;
    for (int i = 0; i < 3; i++) {
        if (!(mask & (1 << i))) continue;
        if (!first) json_raw(j, ",");
        first = 0;
        json_str(j, goods[i]);
    }
    json_raw(j, "]");
}

/* `seat` is the viewer (-1: spectator) when !hidden; the state must then be redacted for
   it already. With `hidden`, the whole position, deck, seed and face-down cards included. */
int bham_position_json(const BirminghamGame *g, int seat, int hidden, int keys, char *out,
                       int cap) {
    static const char *const eras[2] = {"canal", "rail"};
    JsonWriter j = json_writer(out, cap, keys);
    /* (bounded by the arrays, so that an unvalidated state is written without overrun) */
    int n = g->num_players < BRASS_MAX_PLAYERS ? g->num_players : BRASS_MAX_PLAYERS;
    int deck = g->deck_size < BHAM_MAX_DECK ? g->deck_size : BHAM_MAX_DECK;
    json_raw(&j, "{");
    json_field(&j, "format"), json_str(&j, "brass-position/1"), json_raw(&j, ",");
    json_field(&j, "rules_edition"), json_int(&j, g->rules_edition), json_raw(&j, ",");
    json_field(&j, "ruleset"), json_str(&j, "birmingham"), json_raw(&j, ",");
    json_field(&j, "players"), json_int(&j, n), json_raw(&j, ",");
    json_field(&j, "options"), json_raw(&j, "{");
    json_field(&j, "beginner"), json_bool(&j, g->beginner), json_raw(&j, ",");
    json_field(&j, "manufacturer_iv_cost"), json_int(&j, g->manufacturer_iv_cost), json_raw(&j, ",");
    json_field(&j, "auto_resolve"), json_bool(&j, g->auto_resolve), json_raw(&j, ",");
    json_field(&j, "undo"), json_bool(&j, !g->undo_off), json_raw(&j, "},");
    json_field(&j, "era"), json_str(&j, eras[g->era & 1]), json_raw(&j, ",");
    json_field(&j, "round"), json_int(&j, g->round), json_raw(&j, ",");
    json_field(&j, "turn_order"), json_raw(&j, "[");
    for (int i = 0; i < n; i++) {
        if (i) json_raw(&j, ",");
        json_int(&j, g->turn_order[i]);
    }
    json_raw(&j, "],");
    json_field(&j, "turn_index"), json_int(&j, g->turn_idx), json_raw(&j, ",");
    json_field(&j, "actions_left"), json_int(&j, g->actions_left), json_raw(&j, ",");
    json_field(&j, "current"), json_int(&j, g->current), json_raw(&j, ",");
    json_field(&j, "decision"), json_str(&j, bham_phase_name(g->phase)), json_raw(&j, ",");
    json_field(&j, "game_over"), json_bool(&j, g->game_over), json_raw(&j, ",");
    json_field(&j, "pending"), put_pending(&j, &g->pend), json_raw(&j, ",");
    json_field(&j, "markets"), json_raw(&j, "{");
    json_field(&j, "coal"), json_int(&j, g->coal_market), json_raw(&j, ",");
    json_field(&j, "iron"), json_int(&j, g->iron_market), json_raw(&j, "},");
    json_field(&j, "wild_piles"), json_raw(&j, "{");
    json_field(&j, "location"), json_int(&j, g->wild_pile[0]), json_raw(&j, ",");
    json_field(&j, "industry"), json_int(&j, g->wild_pile[1]), json_raw(&j, "},");
    json_field(&j, "discards"), json_raw(&j, "{");
    int first = 1;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
        if (!g->discards[c]) continue;
        if (!first) json_raw(&j, ",");
        first = 0;
        json_map_key(&j, CARD_NAME(c)), json_int(&j, g->discards[c]);
    }
    json_raw(&j, "},");
    json_field(&j, "merchants"), json_raw(&j, "{");
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        if (m) json_raw(&j, ",");
        json_map_key(&j, SPACE_NAME(m)), json_raw(&j, "{");
        json_field(&j, "goods"), put_merchant_goods(&j, g->merchant_tile[m]), json_raw(&j, ",");
        json_field(&j, "beer"), json_int(&j, g->merchant_beer[m]), json_raw(&j, "}");
    }
    json_raw(&j, "},");
    json_field(&j, "links"), json_raw(&j, "{");
    first = 1;
    for (int k = 0; k < BHAM_NUM_LINKS; k++) {
        if (g->link_owner[k] < 0) continue;
        if (!first) json_raw(&j, ",");
        first = 0;
        json_map_key(&j, LINK_NAME(k)), json_int(&j, g->link_owner[k]);
    }
    json_raw(&j, "},");
    json_field(&j, "slots"), json_raw(&j, "{");
    first = 1;
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        if (!first) json_raw(&j, ",");
        first = 0;
        json_map_key(&j, SLOT_NAME(s)), json_raw(&j, "{");
        json_field(&j, "owner"), json_int(&j, t->owner), json_raw(&j, ",");
        json_field(&j, "industry"), json_str(&j, INDUSTRY_NAME(t->industry)), json_raw(&j, ",");
        json_field(&j, "level"), json_int(&j, t->level), json_raw(&j, ",");
        json_field(&j, "flipped"), json_bool(&j, t->flipped), json_raw(&j, ",");
        json_field(&j, "cubes"), json_int(&j, t->cubes), json_raw(&j, "}");
    }
    json_raw(&j, "},");
    json_field(&j, "player_state"), json_raw(&j, "[");
    for (int p = 0; p < n; p++) {
        if (p) json_raw(&j, ",");
        put_player(&j, g, p, seat, hidden);
    }
    json_raw(&j, "],");
    if (hidden) {
        json_field(&j, "deck"), json_raw(&j, "[");
        for (int i = 0; i < deck; i++) {
            if (i) json_raw(&j, ",");
            json_str(&j, CARD_NAME(g->deck[i]));
        }
        json_raw(&j, "],");
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
        json_field(&j, "seed"), json_raw(&j, seed), json_raw(&j, ",");
        json_field(&j, "decisions_applied"), json_int(&j, g->decisions);
    } else {
        json_field(&j, "deck_size"), json_int(&j, g->deck_size), json_raw(&j, ",");
        json_field(&j, "seat");
        if (seat < 0) json_null(&j);
        else json_int(&j, seat);
    }
    json_raw(&j, "}");
    return json_finish(&j);
}

/* ---- observation ---- */

/* A count over its scale, held to [-1, 1]: money, VP and spending have no hard cap
   (docs/ENGINE_API.md states each scale and where it saturates). */
static float scaled(int value, float scale) {
    float x = (float)value / scale;
    return x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x);
}

/* brass_summary (docs/ENGINE_API.md, "The summary"): a header, every player's numbers,
   then the tiles and links on the board as records, by slot and link index. */
int bham_summary(const BirminghamGame *g, int32_t *out, int cap) {
    if (cap < BHAM_SUMMARY_SIZE) return -BRASS_E_BUFFER;
    /* (bounded by the arrays, as the view writer is) */
    int n = g->num_players < BRASS_MAX_PLAYERS ? g->num_players : BRASS_MAX_PLAYERS;
    int32_t *o = out + BHAM_SUMMARY_HEAD;
    memset(out, 0, sizeof(int32_t) * BHAM_SUMMARY_HEAD);
    out[0] = n;
    out[1] = g->game_over;
    out[2] = g->era & 1; /* 0 canal, 1 rail */
    out[3] = g->round;
    out[4] = g->deck_size;
    out[5] = g->beginner;
    for (int p = 0; p < BRASS_MAX_PLAYERS; p++, o += BHAM_SUMMARY_PLAYER) {
        memset(o, 0, sizeof(int32_t) * BHAM_SUMMARY_PLAYER);
        if (p >= n) continue;
        const BirminghamPlayer *pl = &g->players[p];
        o[0] = pl->money;
        o[1] = pl->vp;
        o[2] = pl->income_space;
        o[3] = bham_income_level(pl->income_space);
        o[4] = pl->hand_size;
    }
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        *o++ = s, *o++ = t->owner, *o++ = t->industry, *o++ = t->level, *o++ = t->flipped;
        out[6]++;
    }
    for (int k = 0; k < BHAM_NUM_LINKS; k++) {
        if (g->link_owner[k] < 0) continue;
        *o++ = k, *o++ = g->link_owner[k];
        out[7]++;
    }
    return (int)(o - out);
}

int bham_observation(const BirminghamGame *g, int seat, float *out, int cap) {
    if (cap < BHAM_OBS_SIZE) return -BRASS_E_BUFFER;
    memset(out, 0, sizeof(float) * BHAM_OBS_SIZE);
    int n = g->num_players, k = 0;
#define REL(o) (((o) - seat + n) % n)
    for (int s = 0; s < BHAM_NUM_SLOTS; s++, k += 13) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        out[k + REL(t->owner)] = 1.0f;
        out[k + 4 + t->industry] = 1.0f;
        out[k + 10] = t->level / 8.0f;
        out[k + 11] = t->flipped;
        out[k + 12] = t->cubes / 6.0f;
    }
    for (int l = 0; l < BHAM_NUM_LINKS; l++, k += 4)
        if (g->link_owner[l] >= 0) out[k + REL(g->link_owner[l])] = 1.0f;
    out[k++] = g->coal_market / (float)BT_COAL_CAPACITY;
    out[k++] = g->iron_market / (float)BT_IRON_CAPACITY;
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++, k += 4) {
        uint8_t t = g->merchant_tile[m] == BRASS_NONE ? 0 : g->merchant_tile[m];
        for (int i = 0; i < 3; i++) out[k + i] = (t >> i) & 1;
        out[k + 3] = g->merchant_beer[m];
    }
    for (int r = 0; r < BRASS_MAX_PLAYERS; r++, k += 13) {
        if (r >= n) continue;
        const BirminghamPlayer *pl = &g->players[(seat + r) % n];
        out[k] = 1.0f;
        out[k + 1] = scaled(pl->money, 200.0f);
        out[k + 2] = BT_INCOME_LEVEL[pl->income_space] / 30.0f;
        out[k + 3] = scaled(pl->vp, 200.0f);
        out[k + 4] = scaled(pl->spent, 200.0f);
        out[k + 5] = pl->links_left / 14.0f;
        out[k + 6] = pl->hand_size / 8.0f;
        for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++)
            out[k + 7 + i] = pl->mat_taken[i] / (float)BT_TILES_PER_PLAYER[i];
    }
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) out[k++] = g->players[seat].hand[c] / 8.0f;
    out[k++] = g->deck_size / 64.0f;
    out[k++] = g->era;
    out[k++] = g->round / 10.0f;
    out[k++] = g->actions_left / 2.0f;
    out[k++] = g->current == seat && !g->game_over;
    out[k + g->phase] = 1.0f;
    k += NUM_PHASES;
    if (g->phase != PH_ACTION && g->phase != PH_GAME_OVER && g->phase != PH_SHORTFALL) {
        out[k + g->pend.action] = 1.0f;
        if (g->pend.industry < BHAM_NUM_INDUSTRIES) out[k + NUM_ACT_TYPES + g->pend.industry] = 1.0f;
    }
    k += NUM_ACT_TYPES + BHAM_NUM_INDUSTRIES;
    out[k++] = g->pend.coal_left / 2.0f;
    out[k++] = g->pend.iron_left / 2.0f;
    out[k++] = g->pend.beer_left / 2.0f;
    out[k++] = g->pend.count / 2.0f;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) out[k++] = g->discards[c] / 8.0f;
    out[k++] = g->wild_pile[0] / 4.0f;
    out[k++] = g->wild_pile[1] / 4.0f;
#undef REL
    return k; /* entries in use; the rest stay 0 */
}
