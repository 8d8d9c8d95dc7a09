/* Setup per player count (P1-P8). */
#include "pgh_internal.h"

int pgh_setup(PittsburghGame *g, int players, int set, const uint8_t *options, uint64_t seed) {
    const PghTables *T = pgh_tables(set);
    memset(g, 0, sizeof *g);
    g->h.magic = PGH_MAGIC;
    g->h.format_version = PGH_FORMAT_VERSION;
    g->h.rules_edition = PGH_RULES_EDITION;
    g->h.ruleset = PGH_RULESET_ID;
    g->h.num_players = (uint8_t)players;
    g->h.table_set = (uint8_t)set;
    g->h.auto_resolve = 1;
    memcpy(g->options, options, PGH_NUM_ALL_OPTIONS);
    g->options[PGH_OPT_DATA] = (uint8_t)set;
    g->seed = seed;
    rng_seed(&g->rng_state, seed);
    uint8_t pcbit = (uint8_t)(1u << (players - 2));
    /* P1-P2: the deck keeps the cards for this player count */
    for (int i = 0; i < T->num_deck; i++)
        if (T->deck_pc[i] & pcbit) g->deck[g->deck_size++] = T->deck_card[i];
    if (g->deck_size != T->deck_size_for[players - 2]) return BRASS_E_BAD_ARGUMENT;
    pgh_shuffle_deck(g);
    /* P3: one merchant tile, front up, on each open merchant space */
    uint8_t pool[PGH_MAX_MTILES + PGH_MAX_FTILES + PGH_MAX_QTILES];
    int k = 0;
    for (int t = 0; t < T->num_mtiles; t++)
        if (T->mtiles[t].pc_mask & pcbit) pool[k++] = (uint8_t)t;
    rng_shuffle_bytes(&g->rng_state, pool, k);
    int next = 0;
    for (int ms = 0; ms < PGH_MAX_MSPACES; ms++) g->mspace_tile[ms] = PGH_NONE;
    for (int ms = 0; ms < T->num_mspaces; ms++)
        if (!pgh_loc_closed(g, T->mspace_loc[ms]) && next < k) g->mspace_tile[ms] = pool[next++];
    /* P4, P8: oilfield tiles face down; with fewer tiles than fields, on random fields */
    k = 0;
    for (int t = 0; t < T->num_ftiles; t++)
        if (T->ftiles[t].pc_mask & pcbit) pool[k++] = (uint8_t)t;
    rng_shuffle_bytes(&g->rng_state, pool, k);
    uint8_t order[PGH_MAX_FIELDS];
    for (int f = 0; f < T->num_fields; f++) order[f] = (uint8_t)f;
    rng_shuffle_bytes(&g->rng_state, order, T->num_fields);
    for (int f = 0; f < PGH_MAX_FIELDS; f++) {
        g->fields[f].tile = PGH_NONE;
        g->fields[f].tile_state = FT_NO_TILE;
        g->fields[f].oc_owner = -1;
    }
    for (int i = 0; i < T->num_fields && i < k; i++) {
        g->fields[order[i]].tile = pool[i];
        g->fields[order[i]].tile_state = FT_FACE_DOWN;
    }
    /* P5: quality tiles in draw order onto the slots */
    k = 0;
    for (int t = 0; t < T->num_qtiles; t++) pool[k++] = (uint8_t)t;
    rng_shuffle_bytes(&g->rng_state, pool, k);
    for (int s = 0; s < PGH_MAX_QSLOTS; s++) g->qslot_tile[s] = PGH_NONE;
    for (int s = 0; s < T->num_qslots && s < k; s++) {
        g->qslot_tile[s] = pool[s];
        g->qslot_up[s] = 1;
    }
    /* P6: markets */
    for (int m = 0; m < T->num_markets; m++)
        for (int c = 0; c < 2; c++) { /* a full column stays full with the header slot */
            int fill = T->markets[m].setup_fill[c];
            g->market_fill[m][c] = (uint8_t)(fill == T->markets[m].slots[c] ? pgh_market_slots(g, m, c) : fill);
        }
    for (int s = 0; s < PGH_MAX_SPACES; s++) g->spaces[s].owner = -1;
    for (int r = 0; r < PGH_MAX_RAILS; r++) g->rails[r].owner = -1;
    for (int q = 0; q < PGH_MAX_PIPES; q++) g->pipes[q].owner = -1;
    /* P7: players */
    for (int p = 0; p < PGH_MAX_PLAYERS; p++) {
        PghPlayer *pl = &g->players[p];
        pl->facedown_card = PGH_NONE;
        pl->last_discard = PGH_NONE;
        if (p >= players) continue;
        pl->money = T->start_money;
        pl->vp = T->start_vp;
        pl->income_space = T->income_start_space;
        for (int i = 0; i < T->num_positions; i++) pl->mat_left[i] = T->positions[i].count;
        memcpy(pl->supply, T->supply_start, sizeof pl->supply);
        pl->supply[0] = (uint8_t)(pl->supply[0] + T->light_trains); /* link type 0: light */
    }
    for (int p = 0; p < players; p++) g->turn_order[p] = (uint8_t)p;
    rng_shuffle_bytes(&g->rng_state, g->turn_order, players);
    for (int i = 0; i < players; i++) {
        int p = g->turn_order[i];
        pgh_deal_to(g, p, T->hand_size);
    }
    for (int i = 0; i < players && T->setup_facedown; i++) { /* P2: era 1 only */
        PghPlayer *pl = &g->players[g->turn_order[i]];
        pl->facedown_card = g->deck[--g->deck_size];
        g->deck[g->deck_size] = 0;
    }
    pgh_reset_pending(g);
    g->h.era = 0;
    g->h.round = 1;
    g->h.turn_idx = 0;
    pgh_start_seat(g);
    return BRASS_OK;
}
