/* Setup (a new game): its options, the markets and wild piles, the merchant tiles shuffled
   onto the spaces in use, the deck, each player's money, income, links and hand, one
   face-down card each, a random turn order, then the first turn. */
#include "bham_internal.h"

#define START_MONEY 17

int bham_new(BirminghamGame *g, const BrassOptions *opt, uint64_t seed) {
    /* players and option values were checked against BHAM_OPTIONS by brass_new */
    int beginner = opt->values[BHAM_OPT_BEGINNER];
    int manufacturer_iv_cost = opt->values[BHAM_OPT_MANUFACTURER_IV_COST];
    if (opt->players < 2 || opt->players > 4) return BRASS_E_BAD_ARGUMENT;
    if (manufacturer_iv_cost != 8 && manufacturer_iv_cost != 14) return BRASS_E_BAD_ARGUMENT;
    memset(g, 0, sizeof *g);
    g->magic = BRASS_MAGIC;
    g->format_version = BHAM_FORMAT_VERSION;
    g->rules_edition = BHAM_RULES_EDITION;
    g->ruleset = BRASS_RULESET_BIRMINGHAM;
    g->num_players = opt->players;
    g->beginner = beginner ? 1 : 0;
    g->manufacturer_iv_cost = (uint8_t)manufacturer_iv_cost;
    g->auto_resolve = opt->auto_resolve ? 1 : 0;
    g->undo_off = opt->values[BHAM_OPT_UNDO] ? 0 : 1;
    g->seed = seed;
    rng_seed(&g->rng_state, seed);
    int n = g->num_players;
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) g->slots[s].owner = -1;
    for (int l = 0; l < BHAM_NUM_LINKS; l++) g->link_owner[l] = -1;
    g->coal_market = BT_COAL_INITIAL;
    g->iron_market = BT_IRON_INITIAL;
    g->wild_pile[0] = g->wild_pile[1] = BT_WILD_CARDS_EACH;
    /* merchant tiles for this player count, shuffled onto the spaces in use */
    uint8_t tiles[BT_NUM_MERCHANT_TILES];
    int nt = 0;
    for (int i = 0; i < BT_NUM_MERCHANT_TILES; i++)
        if (BT_MERCHANT_TILE_PLAYERS[i] <= n) tiles[nt++] = BT_MERCHANT_TILE_ACCEPTS[i];
    rng_shuffle_bytes(&g->rng_state, tiles, nt);
    int k = 0;
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        if (BT_SPACE_MIN_PLAYERS[m] <= n && k < nt) {
            g->merchant_tile[m] = tiles[k++];
            g->merchant_beer[m] = g->merchant_tile[m] ? 1 : 0;
        } else {
            g->merchant_tile[m] = BRASS_NONE;
        }
    }
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++)
        for (int i = 0; i < BT_DECK[n - 2][c]; i++) g->deck[g->deck_size++] = (uint8_t)c;
    shuffle_deck(g);
    for (int p = 0; p < n; p++) {
        BirminghamPlayer *pl = &g->players[p];
        pl->money = START_MONEY;
        pl->income_space = BT_INCOME_START_SPACE;
        pl->links_left = BHAM_LINK_TILES;
        pl->last_discard = BHAM_NO_CARD;
        deal_hand(g, p);
    }
    for (int p = 0; p < n; p++) g->players[p].facedown_card = (uint8_t)draw_card(g);
    for (int p = BRASS_MAX_PLAYERS - 1; p >= n; p--) {
        g->players[p].facedown_card = BHAM_NO_CARD;
        g->players[p].last_discard = BHAM_NO_CARD;
    }
    for (int i = 0; i < n; i++) g->turn_order[i] = (uint8_t)i;
    rng_shuffle_bytes(&g->rng_state, g->turn_order, n);
    g->era = ERA_CANAL;
    g->round = 1;
    start_turn(g);
    Ctx cx = {g, NULL};
    if (g->auto_resolve) auto_resolve(&cx);
    return BRASS_OK;
}
