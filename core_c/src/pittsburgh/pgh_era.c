/* Turn end, round end (turn order, income, bankruptcy), era end and game end (P9-P14,
   P59-P65). */
#include "common/turn_order.h"
#include "pgh_internal.h"

void pgh_deal_to(PittsburghGame *g, int p, int n) {
    PghPlayer *pl = &g->players[p];
    while (n-- > 0 && g->deck_size) {
        uint8_t c = g->deck[--g->deck_size];
        g->deck[g->deck_size] = 0;
        pl->hand[c]++;
        pl->hand_size++;
    }
}

static void reset_pending(PittsburghGame *g) {
    memset(&g->pend, 0, sizeof g->pend);
    g->pend.card = g->pend.position = g->pend.place = g->pend.target_loc = PGH_NONE;
    g->pend.link_type = g->pend.route = g->pend.sell_space = PGH_NONE;
}

static int actions_this_round(const PittsburghGame *g) {
    const PghTables *T = pgh_T(g);
    return g->h.era == 0 && g->h.round == 1 ? T->actions_first_round : T->actions_per_turn;
}

static void start_seat(PittsburghGame *g) {
    g->h.current = g->turn_order[g->h.turn_idx];
    g->h.actions_left = (uint8_t)actions_this_round(g);
    g->h.phase = PP_ACTION;
}

void pgh_action_done(PCtx *cx) {
    PittsburghGame *g = cx->g;
    reset_pending(g);
    if (--g->h.actions_left) {
        g->h.phase = PP_ACTION;
        return;
    }
    int p = g->h.current, before = g->deck_size;
    pgh_deal_to(g, p, cx->T->hand_size - g->players[p].hand_size); /* P10: refill while it lasts */
    pgh_pemit(cx, PE_TURN_END, p, before - g->deck_size, 0, 0);
    if (++g->h.turn_idx < g->h.num_players) {
        start_seat(g);
        return;
    }
    pgh_round_end(cx);
}

/* P13-P14: income, or bankruptcy for a player who cannot pay it all. */
static void pay_income(PCtx *cx, int p) {
    PittsburghGame *g = cx->g;
    PghPlayer *pl = &g->players[p];
    int lv = pgh_player_level(g, p);
    if (lv >= 0 || pl->money >= -lv) {
        pl->money = (int16_t)(pl->money + lv);
        pgh_pemit(cx, PE_INCOME, p, lv, 0, 0);
        return;
    }
    if (opt(g, OPT_bankruptcy_payment) == 1) pl->money = 0;
    pl->whiskey = 0;
    pl->vp = (int16_t)(pl->vp + cx->T->bankruptcy_vp);
    pl->income_space = cx->T->income_start_space;
    pgh_pemit(cx, PE_BANKRUPT, p, cx->T->bankruptcy_vp, 0, 0);
}

void pgh_round_end(PCtx *cx) {
    PittsburghGame *g = cx->g;
    int n = g->h.num_players;
    /* P11: ascending spent money, ties keep their relative order (stable insertion) */
    int16_t spent[BRASS_MAX_PLAYERS];
    for (int p = 0; p < n; p++) spent[p] = g->players[p].spent;
    turn_order_by_spent(g->turn_order, n, spent);
    pgh_pemit(cx, PE_TURN_ORDER, -1, g->turn_order[0] | g->turn_order[1] << 4 | g->turn_order[2] << 8 | g->turn_order[3] << 12, 0, 0);
    for (int p = 0; p < n; p++) g->players[p].spent = 0;
    int cards = g->deck_size;
    for (int p = 0; p < n; p++) cards += g->players[p].hand_size;
    int last_of_era = cards == 0;
    if (!(last_of_era && g->h.era == 1))
        for (int i = 0; i < n; i++) pay_income(cx, g->turn_order[i]);
    pgh_pemit(cx, PE_ROUND_END, -1, g->h.round, 0, 0);
    if (last_of_era) {
        pgh_era_end(cx);
        return;
    }
    g->h.round++;
    g->h.turn_idx = 0;
    start_seat(g);
}

static const PghTile *oil_city_tile(const PghTables *T, int *idx) {
    for (int i = 0; i < T->num_tiles; i++)
        if (T->tiles[i].industry == PI_OIL_CITY) {
            *idx = i;
            return &T->tiles[i];
        }
    *idx = 0;
    return &T->tiles[0];
}

/* P59-P64 */
void pgh_era_end(PCtx *cx) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    int n = g->h.num_players;
    for (int r = 0; r < T->num_rails; r++)
        if (g->rails[r].owner >= 0) pgh_score_rail(cx, r);
    for (int r = 0; r < T->num_rails; r++) {
        PghRailState *rs = &g->rails[r];
        if (rs->owner < 0) continue;
        int light = T->link_types[rs->link_type].kind == LK_LIGHT;
        if (g->h.era == 1 || light) {
            g->players[rs->owner].supply[rs->link_type]++; /* light ones are reused in era 2 */
            rs->owner = -1;
            rs->link_type = 0;
            rs->cargo = 0;
        }
    }
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0 || !sp->flipped) continue;
        int vp = pgh_tile_vp(g, sp->owner, sp->tile);
        g->players[sp->owner].vp = (int16_t)(g->players[sp->owner].vp + vp);
        pgh_pemit(cx, PE_TILE_SCORE, sp->owner, s, vp, 0);
    }
    int oc_idx;
    const PghTile *oc = oil_city_tile(T, &oc_idx);
    for (int f = 0; f < T->num_fields; f++) {
        if (g->fields[f].oc_owner < 0 || !g->fields[f].oc_flipped) continue;
        int vp = pgh_tile_vp(g, g->fields[f].oc_owner, oc_idx);
        g->players[g->fields[f].oc_owner].vp = (int16_t)(g->players[g->fields[f].oc_owner].vp + vp);
        pgh_pemit(cx, PE_TILE_SCORE, g->fields[f].oc_owner, -1 - f, vp, 0);
    }
    (void)oc;
    pgh_pemit(cx, PE_ERA_END, -1, g->h.era, 0, 0);
    if (g->h.era == 1) {
        g->h.game_over = 1;
        g->h.phase = PP_GAME_OVER;
        pgh_pemit(cx, PE_GAME_END, -1, 0, 0, 0);
        return;
    }
    /* P63: level-I tiles leave; pending oil arrives; the discards become the era-2 deck */
    for (int s = 0; s < T->num_spaces; s++) {
        PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0 || !T->tiles[sp->tile].level_one) continue;
        pgh_pemit(cx, PE_TILE_REMOVED, sp->owner, s, sp->tile, 0);
        memset(sp, 0, sizeof *sp);
        sp->owner = -1;
    }
    for (int f = 0; f < T->num_fields; f++) {
        PghField *fd = &g->fields[f];
        if (fd->tile_state != FT_PENDING) continue;
        fd->barrels = (uint8_t)(fd->barrels + fd->pending);
        fd->pending = 0;
        fd->tile_state = FT_GONE;
    }
    g->deck_size = 0;
    for (int c = 0; c < T->num_card_types; c++) {
        while (g->discards[c]) {
            g->discards[c]--;
            g->deck[g->deck_size++] = (uint8_t)c;
        }
    }
    for (int p = 0; p < n; p++) {
        PghPlayer *pl = &g->players[p];
        if (pl->facedown_card != PGH_NONE) g->deck[g->deck_size++] = pl->facedown_card;
        pl->facedown_card = PGH_NONE;
        pl->last_discard = PGH_NONE;
    }
    pgh_shuffle_deck(g);
    for (int i = 0; i < n; i++) pgh_deal_to(g, g->turn_order[i], T->hand_size);
    g->h.era = 1;
    g->h.round = 1;
    g->h.turn_idx = 0;
    start_seat(g);
}

/* exported for setup */
void pgh_shuffle_deck(PittsburghGame *g) { rng_shuffle_bytes(&g->rng_state, g->deck, g->deck_size); }
void pgh_reset_pending(PittsburghGame *g) { reset_pending(g); }
void pgh_start_seat(PittsburghGame *g) { start_seat(g); }
