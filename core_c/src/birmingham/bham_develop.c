/* Develop action (ruling 15) and the Gloucester free develop (ruling 11). */
#include "bham_internal.h"

int develop_reason(const BirminghamGame *g, const Board *b, int industry, int free_develop) {
    const BirminghamPlayer *pl = &g->players[b->player];
    int k = pl->mat_taken[industry];
    if (k >= BT_TILES_PER_PLAYER[industry]) return R_NO_TILES_LEFT;
    if (!BT_LEVELS[industry][BT_MAT_LEVEL[industry][k] - 1].developable) return R_LIGHTBULB_POTTERY;
    if (free_develop) return R_LEGAL;
    /* the two develops are unordered: the second is never a lower industry id */
    if (g->phase == PH_DEVELOP && g->pend.count == 1 && industry < g->pend.last_choice)
        return R_CANONICAL_ORDER;
    if (iron_money_needed(g, b, 1) > pl->money) return R_NOT_ENOUGH_MONEY;
    return R_LEGAL;
}

void develop_choose(Ctx *cx, int industry) {
    cx->g->pend.industry = (uint8_t)industry;
    cx->g->pend.iron_left = 1;
    resources_continue(cx);
}

/* The tile removed is the lowest of its industry at the time it is removed. */
static void take_off_mat(Ctx *cx, int industry) {
    BirminghamGame *g = cx->g;
    int p = g->current;
    emit(cx, EV_DEVELOP, p, industry, level_of(g, industry), 0);
    g->players[p].mat_taken[industry]++;
}

void develop_remove(Ctx *cx, int industry) {
    BirminghamGame *g = cx->g;
    take_off_mat(cx, industry);
    g->pend.count++;
    g->pend.last_choice = (uint8_t)industry;
    if (g->pend.count < 2) g->phase = PH_DEVELOP;
    else action_done(cx);
}

void free_develop(Ctx *cx, int industry) {
    take_off_mat(cx, industry);
    cx->g->phase = PH_SELL_TILE;
}
