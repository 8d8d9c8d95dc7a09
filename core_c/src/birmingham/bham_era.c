/* Turns, round end (turn order, income, shortfall), era end and game end. */
#include "common/turn_order.h"
#include "bham_internal.h"

#define HAND_SIZE 8

static uint8_t *deck_top(BirminghamGame *g) { return &g->deck[g->deck_size - 1]; }

void shuffle_deck(BirminghamGame *g) { rng_shuffle_bytes(&g->rng_state, g->deck, g->deck_size); }

int draw_card(BirminghamGame *g) {
    if (!g->deck_size) return BHAM_NO_CARD;
    int c = *deck_top(g);
    *deck_top(g) = 0; /* unused deck entries stay zero: one state, one hash */
    g->deck_size--;
    return c;
}

void deal_hand(BirminghamGame *g, int player) {
    BirminghamPlayer *pl = &g->players[player];
    while (pl->hand_size < HAND_SIZE && g->deck_size) {
        pl->hand[draw_card(g)]++;
        pl->hand_size++;
    }
}

static int hands_and_deck_empty(const BirminghamGame *g) {
    if (g->deck_size) return 0;
    for (int p = 0; p < g->num_players; p++)
        if (g->players[p].hand_size) return 0;
    return 1;
}

static void end_turn(Ctx *cx);
static void round_end(Ctx *cx);

/* Seat turn_order[turn_idx] begins a turn: 1 action in the first canal round, else 2. */
void start_turn(BirminghamGame *g) {
    uint8_t income_idx = g->pend.income_idx;
    memset(&g->pend, 0, sizeof g->pend);
    g->pend.income_idx = income_idx;
    g->pend.card = g->pend.industry = g->pend.slot = g->pend.link = g->pend.merchant = BRASS_NONE;
    g->current = g->turn_order[g->turn_idx];
    g->actions_left = (g->era == ERA_CANAL && g->round == 1) ? 1 : 2;
    g->phase = PH_ACTION;
}

static void begin_turn(Ctx *cx) {
    start_turn(cx->g);
    if (!cx->g->players[cx->g->current].hand_size) end_turn(cx); /* nothing left to play */
}

void action_done(Ctx *cx) {
    BirminghamGame *g = cx->g;
    g->actions_left--;
    if (g->actions_left == 0 || g->players[g->current].hand_size == 0) {
        end_turn(cx);
        return;
    }
    uint8_t left = g->actions_left;
    start_turn(g);
    g->actions_left = left;
}

/* After a turn's actions, refill to 8 cards (as many as the deck has). */
static void end_turn(Ctx *cx) {
    BirminghamGame *g = cx->g;
    int p = g->current, before = g->players[p].hand_size;
    deal_hand(g, p);
    emit(cx, EV_TURN_END, p, g->players[p].hand_size - before, 0, 0);
    g->turn_idx++;
    if (g->turn_idx >= g->num_players) round_end(cx);
    else begin_turn(cx);
}

static int has_tiles(const BirminghamGame *g, int player) {
    for (int s = 0; s < BHAM_NUM_SLOTS; s++)
        if (g->slots[s].owner == player) return 1;
    return 0;
}

/* Pay income in turn order from pend.income_idx; stops (returns 0) when a player must sell
   tiles to cover negative income (ruling 18). */
static int pay_incomes(Ctx *cx) {
    BirminghamGame *g = cx->g;
    for (; g->pend.income_idx < g->num_players; g->pend.income_idx++) {
        int p = g->turn_order[g->pend.income_idx];
        BirminghamPlayer *pl = &g->players[p];
        int level = BT_INCOME_LEVEL[pl->income_space];
        if (level >= 0) {
            emit(cx, EV_INCOME, p, gain_money(g, p, level), 0, 0);
            continue;
        }
        int owe = -level;
        if (pl->money < owe && has_tiles(g, p)) {
            g->phase = PH_SHORTFALL;
            g->current = (uint8_t)p;
            return 0;
        }
        int paid = pl->money < owe ? pl->money : owe;
        pl->money = (int16_t)(pl->money - paid);
        emit(cx, EV_INCOME, p, -paid, 0, 0);
        if (paid < owe) {
            emit(cx, EV_VP_LOSS, p, owe - paid, 0, 0);
            gain_vp(g, p, -(owe - paid));
        }
    }
    return 1;
}

int shortfall_reason(const BirminghamGame *g, int slot) {
    if (g->slots[slot].owner < 0) return R_NO_TILE_HERE;
    return g->slots[slot].owner == g->current ? R_LEGAL : R_NOT_YOUR_TILE;
}

static void finish_round(Ctx *cx);

/* A removed tile returns half its build cost, rounded down. */
void shortfall_remove(Ctx *cx, int slot) {
    BirminghamGame *g = cx->g;
    const BirminghamSlot *t = &g->slots[slot];
    int money = tile_cost(g, t->industry, t->level) / 2;
    money = gain_money(g, g->current, money);
    emit(cx, EV_SHORTFALL_REMOVE, g->current, slot, money, 0);
    remove_tile(g, slot);
    if (pay_incomes(cx)) finish_round(cx);
}

static void score_era(Ctx *cx) {
    BirminghamGame *g = cx->g;
    /* links first (ruling 19): link icons of flipped tiles in every location touched */
    for (int l = 0; l < BHAM_NUM_LINKS; l++) {
        int owner = g->link_owner[l];
        if (owner < 0) continue;
        int vp = 0;
        for (uint32_t t = BT_LINK_TOUCHES[l]; t; t &= t - 1) {
            int loc = __builtin_ctz(t);
            if (BT_LOCATION_KIND[loc] == 2) vp += BT_MERCHANT_LINK_ICONS;
            for (int s = BT_LOCATION_FIRST_SLOT[loc]; s < BT_LOCATION_FIRST_SLOT[loc + 1]; s++)
                if (g->slots[s].owner >= 0 && g->slots[s].flipped)
                    vp += BT_LEVELS[g->slots[s].industry][g->slots[s].level - 1].link_icons;
        }
        gain_vp(g, owner, vp);
        emit(cx, EV_LINK_SCORE, owner, l, vp, 0);
    }
    for (int l = 0; l < BHAM_NUM_LINKS; l++) g->link_owner[l] = -1;
    for (int p = 0; p < g->num_players; p++) g->players[p].links_left = BHAM_LINK_TILES;
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0 || !t->flipped) continue;
        int vp = BT_LEVELS[t->industry][t->level - 1].vp;
        gain_vp(g, t->owner, vp);
        emit(cx, EV_TILE_SCORE, t->owner, s, vp, 0);
    }
}

/* Beginner variant end (ruling 21). */
static void beginner_bonus(Ctx *cx) {
    BirminghamGame *g = cx->g;
    for (int p = 0; p < g->num_players; p++) {
        const BirminghamPlayer *pl = &g->players[p];
        int money_vp = pl->money / 4;
        int vp = (money_vp > 5 ? 5 : money_vp) + BT_INCOME_LEVEL[pl->income_space];
        for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
            const BirminghamSlot *t = &g->slots[s];
            if (t->owner == p && t->flipped && t->level >= 2)
                vp += BT_LEVELS[t->industry][t->level - 1].vp;
        }
        gain_vp(g, p, vp);
        emit(cx, EV_BONUS_SCORE, p, vp, 0, 0);
    }
}

static void game_over(Ctx *cx) {
    cx->g->game_over = 1;
    cx->g->phase = PH_GAME_OVER;
    emit(cx, EV_GAME_END, -1, 0, 0, 0);
}

/* Canal era end (ruling 19): level-I tiles leave, merchant beer refills, all discards
   (face-down ones too) become the new deck, 8 cards each. */
static void start_rail_era(Ctx *cx) {
    BirminghamGame *g = cx->g;
    for (int s = 0; s < BHAM_NUM_SLOTS; s++)
        if (g->slots[s].owner >= 0 && g->slots[s].level == 1) {
            emit(cx, EV_TILE_REMOVED, g->slots[s].owner, s, 0, 0);
            remove_tile(g, s);
        }
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++)
        if (g->merchant_tile[m] != BRASS_NONE && g->merchant_tile[m] != 0) g->merchant_beer[m] = 1;
    g->deck_size = 0;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
        for (int k = 0; k < g->discards[c]; k++) g->deck[g->deck_size++] = (uint8_t)c;
        g->discards[c] = 0;
    }
    for (int p = 0; p < g->num_players; p++) {
        BirminghamPlayer *pl = &g->players[p];
        if (pl->facedown_card != BHAM_NO_CARD) g->deck[g->deck_size++] = pl->facedown_card;
        pl->facedown_card = BHAM_NO_CARD;
        pl->last_discard = BHAM_NO_CARD;
    }
    shuffle_deck(g);
    for (int i = 0; i < g->num_players; i++) deal_hand(g, g->turn_order[i]);
    g->era = ERA_RAIL;
    g->round = 1;
    g->turn_idx = 0;
    begin_turn(cx);
}

static void finish_round(Ctx *cx) {
    BirminghamGame *g = cx->g;
    if (!hands_and_deck_empty(g)) {
        if (g->round < BRASS_ROUND_MAX) g->round++;
        g->turn_idx = 0;
        g->pend.income_idx = 0;
        begin_turn(cx);
        return;
    }
    score_era(cx);
    emit(cx, EV_ERA_END, -1, g->era, 0, 0);
    g->pend.income_idx = 0;
    if (g->era == ERA_CANAL && !g->beginner) {
        start_rail_era(cx);
        return;
    }
    if (g->beginner) beginner_bonus(cx);
    game_over(cx);
}

/* Next turn order: least spent first, ties keep their order; then income (ruling 18). */
static void round_end(Ctx *cx) {
    BirminghamGame *g = cx->g;
    int n = g->num_players;
    emit(cx, EV_ROUND_END, -1, g->round, 0, 0);
    int16_t spent[BRASS_MAX_PLAYERS];
    for (int p = 0; p < n; p++) spent[p] = g->players[p].spent;
    turn_order_by_spent(g->turn_order, n, spent);
    int packed = 0;
    for (int i = 0; i < n; i++) packed |= g->turn_order[i] << (4 * i);
    emit(cx, EV_TURN_ORDER, -1, packed, n, 0);
    for (int p = 0; p < n; p++) g->players[p].spent = 0;
    int final_round = hands_and_deck_empty(g) && (g->era == ERA_RAIL || g->beginner);
    g->pend.income_idx = 0;
    if (!final_round && !pay_incomes(cx)) return;
    finish_round(cx);
}
