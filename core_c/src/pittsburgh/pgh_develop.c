/* Develop (P49-P50): remove 1 or 2 accessible tiles, each paid with 1 iron or 1 steel
   delivered to a location of the network; free develops remove one tile with no cube. */
#include "pgh_internal.h"

/* The cheapest delivery of one cube to some location of the network, place by place. */
static int develop_cube_cost(const PittsburghGame *g, const PBoard *b, int cube) {
    uint32_t comps = pgh_develop_comps(g, b);
    if (!comps) return pgh_mincost(g, b, cube, 1, 0, -1); /* no network: Vanderbilt */
    int other = cube == CUBE_IRON ? CUBE_STEEL : CUBE_IRON, best = -1;
    for (uint32_t m = comps; m && best != 0; m &= m - 1) { /* nothing is cheaper than free */
        int c = __builtin_ctz(m);
        if (opt(g, OPT_develop_cube_choice_before_priority) == 1 && !b->cubes[c][cube] &&
            !b->train[c][cube] && b->cubes[c][other])
            continue; /* there the other cube's tile comes first */
        int cost = pgh_mincost(g, b, cube, 1, 1u << c, -1);
        if (cost >= 0 && (best < 0 || cost < best)) best = cost;
    }
    return best;
}

int pgh_develop_cube_reason(const PittsburghGame *g, const PBoard *b, int cube) {
    if (cube != CUBE_IRON && cube != CUBE_STEEL) return PR_WRONG_CUBE;
    if (opt(g, OPT_develop_cube_choice_before_priority) == 1) {
        /* the priority comes first: some place must have this cube on a tile, or neither */
        uint32_t comps = pgh_develop_comps(g, b);
        int ok = !comps;
        for (uint32_t m = comps; m && !ok; m &= m - 1) {
            int c = __builtin_ctz(m);
            ok = b->cubes[c][cube] || (!b->cubes[c][CUBE_IRON] && !b->cubes[c][CUBE_STEEL]);
        }
        if (!ok) return PR_INDUSTRY_FIRST;
    }
    int c = develop_cube_cost(g, b, cube);
    return c >= 0 && c <= g->players[g->h.current].money ? PR_LEGAL : PR_NOT_ENOUGH_MONEY;
}

int pgh_develop_reason(const PittsburghGame *g, const PBoard *b, int pos, int free_develop) {
    const PghTables *T = pgh_T(g);
    int p = g->h.current;
    if (pos >= T->num_positions || !g->players[p].mat_left[pos]) return PR_NO_TILES_LEFT;
    if (!pgh_board_accessible(g, b, pos)) return PR_NOT_ACCESSIBLE;
    if (free_develop) { /* the same canonical order as a double Develop */
        const PghPending *pd = &g->pend;
        if (pd->free_batch == 2 && pos < pd->last_position && bit32(pd->acc_before, pos)) return PR_CANONICAL_ORDER;
        return PR_LEGAL;
    }
    /* canonical order: the second develop takes no lower position than the first, unless
       the first made it accessible */
    if (g->pend.count == 1 && pos < g->pend.last_position && bit32(g->pend.acc_before, pos))
        return PR_CANONICAL_ORDER;
    int payable = b->develop_known ? b->develop_payable : pgh_develop_payable(g, b);
    return payable ? PR_LEGAL : PR_NOT_ENOUGH_MONEY;
}

int pgh_develop_payable(const PittsburghGame *g, const PBoard *b) {
    return pgh_develop_cube_reason(g, b, CUBE_IRON) == PR_LEGAL || pgh_develop_cube_reason(g, b, CUBE_STEEL) == PR_LEGAL;
}

void pgh_develop_after_pay(PCtx *cx) {
    PittsburghGame *g = cx->g;
    PghPending *pd = &g->pend;
    pgh_mat_take(cx, g->h.current, pd->position);
    pgh_pemit(cx, PE_DEVELOP, g->h.current, pd->position, 0, 0);
    pd->count++;
    pd->last_position = pd->position;
    pd->stage = ST_DEV_AFTER;
}

void pgh_free_develop_apply(PCtx *cx, int pos) {
    pgh_mat_take(cx, cx->g->h.current, pos);
    cx->g->pend.free_develops--;
    pgh_pemit(cx, PE_DEVELOP, cx->g->h.current, pos, 1, 0);
}

int pgh_any_free_develop(const PittsburghGame *g) { return pgh_accessible_positions(g, g->h.current) != 0; }
