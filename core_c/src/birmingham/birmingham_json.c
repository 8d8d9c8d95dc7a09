/* Birmingham positions and seat views as JSON text, in the documented position format
   (docs/POSITION.md, "brass-position/1"): the one writer of that format. The Python layer
   parses this text for its dicts, and the service sends it as it is. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct {
    char *out;
    int cap;
    int len;
} Json;

static void put_bytes(Json *j, const char *s, size_t n) {
    if (j->len >= 0 && (size_t)j->len + n < (size_t)j->cap) memcpy(j->out + j->len, s, n);
    j->len += (int)n;
}

static void put_raw(Json *j, const char *s) { put_bytes(j, s, strlen(s)); }

/* Names come from the generated tables (identifiers: letters, digits, '_', '-', '.', ':'),
   so they need no escaping; gen_tables.py only emits such names. */
static void put_str(Json *j, const char *s) {
    put_bytes(j, "\"", 1);
    put_raw(j, s);
    put_bytes(j, "\"", 1);
}

static void put_int(Json *j, long long v) {
    char buf[24];
    int i = (int)sizeof buf;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        buf[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) buf[--i] = '-';
    put_bytes(j, buf + i, sizeof buf - (size_t)i);
}

static void put_key(Json *j, const char *key) {
    put_str(j, key);
    put_raw(j, ":");
}

static void put_bool(Json *j, int v) { put_raw(j, v ? "true" : "false"); }

/* The name of entry `v` of an action-space range without its prefix ("card:leek" ->
   "leek"); "unknown" for a value outside the range, so that even a state that was never
   validated is written without reading past a table. */
static const char *range_name(int first, int count, int v) {
    if (v < 0 || v >= count) return "unknown";
    const char *name = BT_ACTION_NAMES[first + v];
    const char *colon = strchr(name, ':');
    return colon ? colon + 1 : name;
}

#define CARD_NAME(c) range_name(A_CARD, BHAM_NUM_CARD_TYPES, (c))
#define INDUSTRY_NAME(i) range_name(A_INDUSTRY, BHAM_NUM_INDUSTRIES, (i))
#define SLOT_NAME(s) range_name(A_SLOT, BHAM_NUM_SLOTS, (s))
#define LINK_NAME(k) range_name(A_LINK, BHAM_NUM_LINKS, (k))
#define SPACE_NAME(m) range_name(A_MERCHANT, BHAM_NUM_MERCHANT_SPACES, (m))
#define ACTION_TYPE_NAME(t) range_name(A_ACTION_TYPE, NUM_ACT_TYPES, (t))

/* A name from a range, or null for BRASS_NONE. */
static void put_opt_name(Json *j, uint8_t v, int first, int count) {
    if (v == BRASS_NONE) put_raw(j, "null");
    else put_str(j, range_name(first, count, v));
}

static void put_player(Json *j, const BirminghamGame *g, int p, int seat, int hidden) {
    const BirminghamPlayer *pl = &g->players[p];
    put_raw(j, "{");
    put_key(j, "money"), put_int(j, pl->money), put_raw(j, ",");
    put_key(j, "vp"), put_int(j, pl->vp), put_raw(j, ",");
    put_key(j, "spent"), put_int(j, pl->spent), put_raw(j, ",");
    put_key(j, "income_space"), put_int(j, pl->income_space), put_raw(j, ",");
    put_key(j, "income_level"), put_int(j, bham_income_level(pl->income_space));
    put_raw(j, ",");
    put_key(j, "links_left"), put_int(j, pl->links_left), put_raw(j, ",");
    put_key(j, "mat_taken"), put_raw(j, "{");
    for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++) {
        if (i) put_raw(j, ",");
        put_key(j, INDUSTRY_NAME(i)), put_int(j, pl->mat_taken[i]);
    }
    put_raw(j, "},");
    put_key(j, "hand_size"), put_int(j, pl->hand_size), put_raw(j, ",");
    put_key(j, "last_discard");
    if (pl->last_discard == BHAM_NO_CARD) put_raw(j, "null");
    else put_str(j, CARD_NAME(pl->last_discard));
    put_raw(j, ",");
    if (hidden || p == seat) {
        put_key(j, "hand"), put_raw(j, "{");
        int first = 1, shown = 0;
        for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
            if (!pl->hand[c]) continue;
            if (!first) put_raw(j, ",");
            first = 0;
            shown += pl->hand[c];
            put_key(j, CARD_NAME(c)), put_int(j, pl->hand[c]);
        }
        put_raw(j, "}");
        /* only a preview's outcome holds cards the seat has not seen yet (drawn unseen) */
        if (!hidden && shown < pl->hand_size)
            put_raw(j, ","), put_key(j, "hand_unseen"), put_int(j, pl->hand_size - shown);
    } else {
        /* others' wild cards are public: taken and returned openly */
        put_key(j, "wild_cards"), put_raw(j, "{");
        put_key(j, "wild_location"), put_int(j, pl->hand[BT_CARD_WILD_LOCATION]);
        put_raw(j, ",");
        put_key(j, "wild_industry"), put_int(j, pl->hand[BT_CARD_WILD_INDUSTRY]);
        put_raw(j, "}");
    }
    if (hidden) {
        put_raw(j, ",");
        put_key(j, "facedown");
        if (pl->facedown_card == BHAM_NO_CARD) put_raw(j, "null");
        else put_str(j, CARD_NAME(pl->facedown_card));
    }
    put_raw(j, "}");
}

static void put_pending(Json *j, const BirminghamPending *pd) {
    put_raw(j, "{");
    put_key(j, "action"), put_str(j, ACTION_TYPE_NAME(pd->action)), put_raw(j, ",");
    put_key(j, "card"), put_opt_name(j, pd->card, A_CARD, BHAM_NUM_CARD_TYPES), put_raw(j, ",");
    put_key(j, "industry"), put_opt_name(j, pd->industry, A_INDUSTRY, BHAM_NUM_INDUSTRIES), put_raw(j, ",");
    put_key(j, "slot"), put_opt_name(j, pd->slot, A_SLOT, BHAM_NUM_SLOTS), put_raw(j, ",");
    put_key(j, "link"), put_opt_name(j, pd->link, A_LINK, BHAM_NUM_LINKS), put_raw(j, ",");
    put_key(j, "merchant"), put_opt_name(j, pd->merchant, A_MERCHANT, BHAM_NUM_MERCHANT_SPACES), put_raw(j, ",");
    put_key(j, "coal_left"), put_int(j, pd->coal_left), put_raw(j, ",");
    put_key(j, "iron_left"), put_int(j, pd->iron_left), put_raw(j, ",");
    put_key(j, "beer_left"), put_int(j, pd->beer_left), put_raw(j, ",");
    put_key(j, "count"), put_int(j, pd->count), put_raw(j, ",");
    put_key(j, "last_choice"), put_int(j, pd->last_choice), put_raw(j, ",");
    put_key(j, "scout_picked"), put_int(j, pd->scout_picked), put_raw(j, ",");
    put_key(j, "merchant_beer_used"), put_bool(j, pd->after_beer & 1), put_raw(j, ",");
    put_key(j, "income_index"), put_int(j, pd->income_idx);
    put_raw(j, "}");
}

static void put_merchant_goods(Json *j, uint8_t mask) {
    static const char *const goods[3] = {"cotton", "manufacturer", "pottery"};
    if (mask == BRASS_NONE) {
        put_raw(j, "null");
        return;
    }
    put_raw(j, "[");
    int first = 1;
    for (int i = 0; i < 3; i++) {
        if (!(mask & (1 << i))) continue;
        if (!first) put_raw(j, ",");
        first = 0;
        put_str(j, goods[i]);
    }
    put_raw(j, "]");
}

/* `seat` is the viewer (-1: spectator) when !hidden; the state must then be redacted for
   it already. With `hidden`, the whole position, deck, seed and face-down cards included. */
int bham_position_json(const BirminghamGame *g, int seat, int hidden, char *out, int cap) {
    static const char *const eras[2] = {"canal", "rail"};
    Json j = {out, cap, 0};
    /* (bounded by the arrays, so that an unvalidated state is written without overrun) */
    int n = g->num_players < BRASS_MAX_PLAYERS ? g->num_players : BRASS_MAX_PLAYERS;
    int deck = g->deck_size < BHAM_MAX_DECK ? g->deck_size : BHAM_MAX_DECK;
    put_raw(&j, "{");
    put_key(&j, "format"), put_str(&j, "brass-position/1"), put_raw(&j, ",");
    put_key(&j, "rules_edition"), put_int(&j, g->rules_edition), put_raw(&j, ",");
    put_key(&j, "ruleset"), put_str(&j, "birmingham"), put_raw(&j, ",");
    put_key(&j, "players"), put_int(&j, n), put_raw(&j, ",");
    put_key(&j, "options"), put_raw(&j, "{");
    put_key(&j, "beginner"), put_bool(&j, g->beginner), put_raw(&j, ",");
    put_key(&j, "manufacturer_iv_cost"), put_int(&j, g->manufacturer_iv_cost), put_raw(&j, ",");
    put_key(&j, "auto_resolve"), put_bool(&j, g->auto_resolve), put_raw(&j, ",");
    put_key(&j, "undo"), put_bool(&j, !g->undo_off), put_raw(&j, "},");
    put_key(&j, "era"), put_str(&j, eras[g->era & 1]), put_raw(&j, ",");
    put_key(&j, "round"), put_int(&j, g->round), put_raw(&j, ",");
    put_key(&j, "turn_order"), put_raw(&j, "[");
    for (int i = 0; i < n; i++) {
        if (i) put_raw(&j, ",");
        put_int(&j, g->turn_order[i]);
    }
    put_raw(&j, "],");
    put_key(&j, "turn_index"), put_int(&j, g->turn_idx), put_raw(&j, ",");
    put_key(&j, "actions_left"), put_int(&j, g->actions_left), put_raw(&j, ",");
    put_key(&j, "current"), put_int(&j, g->current), put_raw(&j, ",");
    put_key(&j, "decision"), put_str(&j, bham_phase_name(g->phase)), put_raw(&j, ",");
    put_key(&j, "game_over"), put_bool(&j, g->game_over), put_raw(&j, ",");
    put_key(&j, "pending"), put_pending(&j, &g->pend), put_raw(&j, ",");
    put_key(&j, "markets"), put_raw(&j, "{");
    put_key(&j, "coal"), put_int(&j, g->coal_market), put_raw(&j, ",");
    put_key(&j, "iron"), put_int(&j, g->iron_market), put_raw(&j, "},");
    put_key(&j, "wild_piles"), put_raw(&j, "{");
    put_key(&j, "location"), put_int(&j, g->wild_pile[0]), put_raw(&j, ",");
    put_key(&j, "industry"), put_int(&j, g->wild_pile[1]), put_raw(&j, "},");
    put_key(&j, "discards"), put_raw(&j, "{");
    int first = 1;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
        if (!g->discards[c]) continue;
        if (!first) put_raw(&j, ",");
        first = 0;
        put_key(&j, CARD_NAME(c)), put_int(&j, g->discards[c]);
    }
    put_raw(&j, "},");
    put_key(&j, "merchants"), put_raw(&j, "{");
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        if (m) put_raw(&j, ",");
        put_key(&j, SPACE_NAME(m)), put_raw(&j, "{");
        put_key(&j, "goods"), put_merchant_goods(&j, g->merchant_tile[m]), put_raw(&j, ",");
        put_key(&j, "beer"), put_int(&j, g->merchant_beer[m]), put_raw(&j, "}");
    }
    put_raw(&j, "},");
    put_key(&j, "links"), put_raw(&j, "{");
    first = 1;
    for (int k = 0; k < BHAM_NUM_LINKS; k++) {
        if (g->link_owner[k] < 0) continue;
        if (!first) put_raw(&j, ",");
        first = 0;
        put_key(&j, LINK_NAME(k)), put_int(&j, g->link_owner[k]);
    }
    put_raw(&j, "},");
    put_key(&j, "slots"), put_raw(&j, "{");
    first = 1;
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        if (!first) put_raw(&j, ",");
        first = 0;
        put_key(&j, SLOT_NAME(s)), put_raw(&j, "{");
        put_key(&j, "owner"), put_int(&j, t->owner), put_raw(&j, ",");
        put_key(&j, "industry"), put_str(&j, INDUSTRY_NAME(t->industry)), put_raw(&j, ",");
        put_key(&j, "level"), put_int(&j, t->level), put_raw(&j, ",");
        put_key(&j, "flipped"), put_bool(&j, t->flipped), put_raw(&j, ",");
        put_key(&j, "cubes"), put_int(&j, t->cubes), put_raw(&j, "}");
    }
    put_raw(&j, "},");
    put_key(&j, "player_state"), put_raw(&j, "[");
    for (int p = 0; p < n; p++) {
        if (p) put_raw(&j, ",");
        put_player(&j, g, p, seat, hidden);
    }
    put_raw(&j, "],");
    if (hidden) {
        put_key(&j, "deck"), put_raw(&j, "[");
        for (int i = 0; i < deck; i++) {
            if (i) put_raw(&j, ",");
            put_str(&j, CARD_NAME(g->deck[i]));
        }
        put_raw(&j, "],");
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
        put_key(&j, "seed"), put_raw(&j, seed), put_raw(&j, ",");
        put_key(&j, "decisions_applied"), put_int(&j, g->decisions);
    } else {
        put_key(&j, "deck_size"), put_int(&j, g->deck_size), put_raw(&j, ",");
        put_key(&j, "seat");
        if (seat < 0) put_raw(&j, "null");
        else put_int(&j, seat);
    }
    put_raw(&j, "}");
    if (j.len >= cap) return -BRASS_E_BUFFER; /* (room for the terminating NUL too) */
    out[j.len] = 0;
    return j.len;
}
