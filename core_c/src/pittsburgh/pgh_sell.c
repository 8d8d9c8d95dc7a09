/* Sell (P51-P56): choose tiles, each to one connected merchant showing its icon, source
   its oil; then merchant rewards, one optional Quality Reward, and the flips. */
#include "pgh_internal.h"

static unsigned merchant_accepts(const PittsburghGame *g, int ms) {
    const PghTables *T = pgh_T(g);
    int t = g->mspace_tile[ms];
    if (t == PGH_NONE) return 0;
    if (!g->mspace_back[ms]) return T->mtiles[t].front_accepts;
    return opt(g, OPT_merchant_back_accepts) == 0 ? T->mtiles[t].back_accepts : 0;
}

int pgh_sell_merchant_reason(const PittsburghGame *g, const PBoard *b, int space, int ms) {
    const PghTables *T = pgh_T(g);
    if (ms >= T->num_mspaces || g->mspace_tile[ms] == PGH_NONE) return PR_NO_MERCHANT;
    if (b->comp[T->mspace_loc[ms]] != b->comp[T->spaces[space].loc]) return PR_NOT_CONNECTED;
    int ind = T->tiles[g->spaces[space].tile].industry;
    return merchant_accepts(g, ms) & (1u << ind) ? PR_LEGAL : PR_MERCHANT_DOES_NOT_ACCEPT;
}

int pgh_sell_tile_reason(const PittsburghGame *g, const PBoard *b, int space) {
    const PghTables *T = pgh_T(g);
    if (space >= T->num_spaces) return PR_WRONG_DECISION;
    const PghSpace *sp = &g->spaces[space];
    if (sp->owner != g->h.current) return PR_NOT_YOUR_TILE;
    const PghTile *t = &T->tiles[sp->tile];
    if (!t->sellable || t->oil_to_sell < 0) return PR_NOT_SELLABLE;
    if (sp->flipped) return PR_ALREADY_FLIPPED;
    if (g->pend.sold & (1ull << space)) return PR_ALREADY_CHOSEN;
    if (g->pend.count && space < g->pend.sell_space) return PR_CANONICAL_ORDER;
    int merchant = PR_NO_MERCHANT;
    for (int ms = 0; ms < T->num_mspaces; ms++) {
        int r = pgh_sell_merchant_reason(g, b, space, ms);
        if (r == PR_LEGAL) {
            merchant = r;
            break;
        }
        if (r != PR_NO_MERCHANT) merchant = r;
    }
    if (merchant != PR_LEGAL) return merchant;
    if (pgh_mincost(g, b, CUBE_OIL, t->oil_to_sell, 1u << b->comp[T->spaces[space].loc], -1) < 0)
        return PR_NO_OIL;
    return PR_LEGAL;
}

int pgh_any_sell(const PittsburghGame *g, const PBoard *b) {
    for (int s = 0; s < pgh_T(g)->num_spaces; s++)
        if (g->spaces[s].owner == g->h.current && pgh_sell_tile_reason(g, b, s) == PR_LEGAL) return 1;
    return 0;
}

void pgh_sell_choose_tile(PCtx *cx, int space) {
    PghPending *pd = &cx->g->pend;
    pd->sell_space = (uint8_t)space;
    pd->sold |= 1ull << space;
    cx->g->h.phase = PP_SELL_MERCHANT;
}

void pgh_sell_choose_merchant(PCtx *cx, int ms) {
    PittsburghGame *g = cx->g;
    PghPending *pd = &g->pend;
    int s = pd->sell_space;
    const PghTile *t = &cx->T->tiles[g->spaces[s].tile];
    pd->sold_merchant[s] = (uint8_t)ms;
    pd->merchants_used |= (uint8_t)(1u << ms);
    if (opt(g, OPT_sell_one_merchant_per_tile) == 1) { /* else: every connected merchant showing it */
        PBoard b;
        pgh_pboard(g, g->h.current, &b);
        for (int o = 0; o < cx->T->num_mspaces; o++)
            if (pgh_sell_merchant_reason(g, &b, s, o) == PR_LEGAL) pd->merchants_used |= (uint8_t)(1u << o);
    }
    pd->stars = (uint8_t)(pd->stars + t->stars);
    pd->count++;
    memset(pd->need, 0, sizeof pd->need);
    pd->need[CUBE_OIL] = (uint8_t)t->oil_to_sell;
    pd->target_loc = cx->T->spaces[s].loc;
    pgh_pemit(cx, PE_SELL, g->h.current, s, ms, 0);
    pd->stage = ST_PAY;
}

/* P53: each face-up merchant sold to pays its front reward once, then turns face down. */
void pgh_sell_rewards(PCtx *cx) {
    PittsburghGame *g = cx->g;
    for (int ms = 0; ms < cx->T->num_mspaces; ms++) {
        if (!(g->pend.merchants_used & (1u << ms)) || g->mspace_back[ms]) continue;
        pgh_gain_reward(cx, g->h.current, &cx->T->mtiles[g->mspace_tile[ms]].reward);
        g->mspace_back[ms] = 1;
        pgh_pemit(cx, PE_MERCHANT_REWARD, g->h.current, ms, g->mspace_tile[ms], 0);
    }
}

/* P54: stars of the tiles sold plus 1 per whiskey, at most one claim. */
int pgh_quality_reason(const PittsburghGame *g, int slot) {
    const PghTables *T = pgh_T(g);
    if (slot >= T->num_qslots || g->qslot_tile[slot] == PGH_NONE || !g->qslot_up[slot])
        return PR_QUALITY_TAKEN;
    int stars = g->pend.stars + g->players[g->h.current].whiskey;
    return stars >= T->qslot_stars[slot] ? PR_LEGAL : PR_NOT_ENOUGH_STARS;
}

int pgh_any_quality(const PittsburghGame *g) {
    for (int s = 0; s < pgh_T(g)->num_qslots; s++)
        if (pgh_quality_reason(g, s) == PR_LEGAL) return 1;
    return 0;
}

void pgh_quality_claim(PCtx *cx, int slot) {
    PittsburghGame *g = cx->g;
    int p = g->h.current, need = cx->T->qslot_stars[slot] - g->pend.stars;
    if (need > 0) g->players[p].whiskey = (uint8_t)(g->players[p].whiskey - need);
    pgh_gain_reward(cx, p, &cx->T->qtiles[g->qslot_tile[slot]].reward);
    g->qslot_up[slot] = 0;
    pgh_pemit(cx, PE_QUALITY, p, slot, g->qslot_tile[slot], need > 0 ? need : 0);
}

void pgh_sell_flip(PCtx *cx) {
    for (uint64_t m = cx->g->pend.sold; m; m &= m - 1) pgh_flip_space(cx, __builtin_ctzll(m));
}
