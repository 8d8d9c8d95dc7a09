/* Sell action (ruling 10) and merchant beer bonuses (ruling 11). */
#include "bham_internal.h"

#define SELLABLE ((1u << IND_COTTON) | (1u << IND_MANUFACTURER) | (1u << IND_POTTERY))

static int beer_needed(const BirminghamSlot *t) { return BT_LEVELS[t->industry][t->level - 1].beer_to_sell; }

int sell_merchant_reason(const BirminghamGame *g, const Board *b, int slot, int space) {
    const BirminghamSlot *t = &g->slots[slot];
    uint8_t tile = g->merchant_tile[space];
    if (tile == BRASS_NONE || !(tile & (1u << t->industry))) return R_NO_MERCHANT_ACCEPTS;
    int loc = BT_SLOT_LOCATION[slot];
    if (b->comp[BT_SPACE_LOCATION[space]] != b->comp[loc]) return R_NOT_CONNECTED_TO_MERCHANT;
    int avail = b->own_beer + b->comp_opp_beer[b->comp[loc]] + g->merchant_beer[space];
    return avail >= beer_needed(t) ? R_LEGAL : R_NO_BEER;
}

int sell_tile_reason(const BirminghamGame *g, const Board *b, int slot) {
    const BirminghamSlot *t = &g->slots[slot];
    if (t->owner < 0) return R_NO_TILE_HERE;
    if (t->owner != b->player) return R_NOT_YOUR_TILE;
    if (!(SELLABLE & (1u << t->industry))) return R_NOT_SELLABLE;
    if (t->flipped) return R_ALREADY_FLIPPED;
    /* several sales in one action are unordered: take them in ascending slot order */
    if (g->phase == PH_SELL_TILE && g->pend.count > 0 && slot <= g->pend.last_choice)
        return R_CANONICAL_ORDER;
    int best = R_NO_MERCHANT_ACCEPTS;
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        int r = sell_merchant_reason(g, b, slot, m);
        if (r == R_LEGAL) return R_LEGAL;
        best = better_reason(best, r);
    }
    return best;
}

void sell_choose_merchant(Ctx *cx, int space) {
    BirminghamGame *g = cx->g;
    g->pend.merchant = (uint8_t)space;
    g->pend.beer_left = (uint8_t)beer_needed(&g->slots[g->pend.slot]);
    g->pend.after_beer = 0;
    emit(cx, EV_SELL, g->current, g->pend.slot, space, 0);
    resources_continue(cx);
}

void sell_finish_tile(Ctx *cx) {
    BirminghamGame *g = cx->g;
    int p = g->current, m = g->pend.merchant;
    flip_tile(cx, g->pend.slot);
    g->pend.count++;
    g->pend.last_choice = g->pend.slot;
    g->phase = PH_SELL_TILE;
    if (!(g->pend.after_beer & 1)) return;
    /* merchant beer consumed: that merchant location's bonus */
    int kind = BT_SPACE_BONUS_KIND[m], amount = BT_SPACE_BONUS_AMOUNT[m];
    emit(cx, EV_MERCHANT_BONUS, p, m, kind, amount);
    switch (kind) {
    case 0: gain_money(g, p, amount); break;
    case 1: gain_vp(g, p, amount); break;
    case 2: advance_income(g, p, amount); break;
    default: g->phase = PH_FREE_DEVELOP; break;
    }
}
