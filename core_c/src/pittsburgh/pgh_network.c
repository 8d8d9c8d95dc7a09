/* Network (P43-P48): light trains, heavy trains and pipelines from the supply, the second
   link for $10, route bonuses, heavy-train rewards, Replacement and Reserve swaps. */
#include "pgh_internal.h"

/* P60: link icons shown at a location (flipped tiles of any owner, plus printed icons). */
int pgh_loc_icons(const PittsburghGame *g, int loc) {
    const PghTables *T = pgh_T(g);
    const PghLocation *L = &T->locs[loc];
    int n = opt(g, OPT_location_link_icons_count) == 0 && !pgh_loc_closed(g, loc) ? L->link_icons : 0;
    for (int s = L->first_space; s < L->first_space + L->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner >= 0 && (sp->flipped || opt(g, OPT_links_count_unflipped) == 1))
            n += T->tiles[sp->tile].link_icons;
    }
    return n;
}

void pgh_score_rail(PCtx *cx, int rail) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    const PghRailState *rs = &g->rails[rail];
    int vp = pgh_loc_icons(g, T->rails[rail].a) + pgh_loc_icons(g, T->rails[rail].b);
    if (T->link_types[rs->link_type].double_link) vp *= 2;
    PghPlayer *pl = &g->players[rs->owner];
    pl->vp = (int16_t)(pl->vp + vp);
    pgh_pemit(cx, PE_LINK_SCORE, rs->owner, rail, vp, 0);
}

static int extra_money(const PittsburghGame *g, int second) {
    return second ? pgh_T(g)->second_link_money : 0;
}

/* Everything about the route but the payment; *comps: where its cubes go (P44: either end,
   after placement). */
static int route_place_reason(const PittsburghGame *g, const PBoard *b, int lt, int action, uint32_t *comps) {
    const PghTables *T = pgh_T(g);
    const PghLinkType *L = &T->link_types[lt];
    int p = g->h.current;
    if (L->kind != LK_PIPE) {
        if (action < PGA_RAIL || action >= PGA_RAIL + T->num_rails) return PR_WRONG_LINK_KIND;
        int r = action - PGA_RAIL;
        if (pgh_rail_closed(g, r)) return PR_ROUTE_CLOSED;
        const PghRailState *rs = &g->rails[r];
        if (rs->owner >= 0) {
            int ok = L->heavy == HK_REPLACEMENT && T->link_types[rs->link_type].kind == LK_LIGHT &&
                     (rs->owner != p || opt(g, OPT_replacement_targets) == 1);
            if (!ok) return L->heavy == HK_REPLACEMENT ? PR_CANNOT_REPLACE : PR_LINK_TAKEN;
        } else if (L->heavy == HK_REPLACEMENT && opt(g, OPT_replacement_on_empty_route) == 1) {
            return PR_CANNOT_REPLACE;
        }
        int a = T->rails[r].a, c = T->rails[r].b;
        if (b->presence && !bit32(b->network, a) && !bit32(b->network, c)) return PR_NOT_ADJACENT;
        *comps = (1u << b->comp[a]) | (1u << b->comp[c]);
    } else {
        if (action < PGA_PIPE || action >= PGA_PIPE + T->num_pipes) return PR_WRONG_LINK_KIND;
        int q = action - PGA_PIPE;
        const PghPipeState *ps = &g->pipes[q];
        if (ps->owner >= 0) {
            int swap = ps->owner == p && T->link_types[ps->link_type].pipe == PK_RESERVE &&
                       L->pipe != PK_RESERVE;
            if (!swap) return PR_LINK_TAKEN;
        }
        int city = T->pipes[q].loc;
        if (pgh_loc_closed(g, city)) return PR_ROUTE_CLOSED;
        if (b->presence && !bit32(b->network, city)) return PR_NOT_ADJACENT;
        *comps = 1u << b->comp[city];
    }
    return PR_LEGAL;
}

static int pay_reason(const PittsburghGame *g, int cost, int second) {
    if (cost < 0 || cost + extra_money(g, second) > g->players[g->h.current].money) return PR_NOT_ENOUGH_MONEY;
    return PR_LEGAL;
}

int pgh_link_route_reason(const PittsburghGame *g, const PBoard *b, int lt, int action, int second) {
    uint32_t comps;
    int r = route_place_reason(g, b, lt, action, &comps);
    if (r != PR_LEGAL) return r;
    return pay_reason(g, pgh_need_cost(g, b, pgh_T(g)->link_cost[pgh_T(g)->link_types[lt].kind], comps), second);
}

/* The link type before its routes (the supply, the second link's money), or -1: ask them. */
static int type_reason(const PittsburghGame *g, int lt, int second) {
    if (lt >= pgh_T(g)->num_link_types) return PR_WRONG_DECISION;
    if (!g->players[g->h.current].supply[lt]) return PR_NO_LINK_TILES;
    if (g->players[g->h.current].money < extra_money(g, second)) return PR_NOT_ENOUGH_MONEY;
    return -1;
}

/* The routes of a link type: PR_LEGAL as soon as one is, else PR_NOT_ENOUGH_MONEY when one
   failed for money, else PR_NO_OPTION. */
static int route_search(const PittsburghGame *g, const PBoard *b, int lt, int second) {
    const PghTables *T = pgh_T(g);
    int pipe = T->link_types[lt].kind == LK_PIPE;
    int lo = pipe ? PGA_PIPE : PGA_RAIL, hi = pipe ? PGA_PIPE + T->num_pipes : PGA_RAIL + T->num_rails;
    int first = PR_NO_OPTION;
    PCostCache cache = {0};
    const uint8_t *need = T->link_cost[T->link_types[lt].kind];
    for (int a = lo; a < hi; a++) {
        /* a route away from the network is refused for no lack of money: skipped at once */
        if (b->presence && (pipe ? !bit32(b->network, T->pipes[a - PGA_PIPE].loc)
                                 : !bit32(b->network, T->rails[a - PGA_RAIL].a) &&
                                       !bit32(b->network, T->rails[a - PGA_RAIL].b)))
            continue;
        uint32_t comps;
        int r = route_place_reason(g, b, lt, a, &comps);
        if (r == PR_LEGAL) r = pay_reason(g, pgh_need_cost_cached(&cache, g, b, need, comps), second);
        if (r == PR_LEGAL) return PR_LEGAL;
        if (r == PR_NOT_ENOUGH_MONEY) first = r;
    }
    return first;
}

int pgh_link_type_reason(const PittsburghGame *g, const PBoard *b, int lt, int second) {
    if (b->link_known == 1 + second && lt < PGH_MAX_LINK_TYPES && b->link_reasons[lt] != 255) return b->link_reasons[lt];
    int r = type_reason(g, lt, second);
    return r >= 0 ? r : route_search(g, b, lt, second);
}

/* pgh_link_type_reason of every link type in order, up to the stop_after-th legal one
   (0: all); the ones after it are 255 (not worked out). Link types that place alike (their
   kind, Replacement or not, Reserve or not: all route_place_reason and the cost ask) share
   one route search. */
void pgh_link_type_reasons(const PittsburghGame *g, const PBoard *b, int second, int stop_after,
                           uint8_t out[PGH_MAX_LINK_TYPES]) {
    const PghTables *T = pgh_T(g);
    uint8_t searched[3 * 4];
    memset(searched, 255, sizeof searched);
    memset(out, 255, PGH_MAX_LINK_TYPES);
    int legal = 0;
    for (int lt = 0; lt < PGH_MAX_LINK_TYPES; lt++) {
        int r = type_reason(g, lt, second);
        if (r < 0) {
            const PghLinkType *L = &T->link_types[lt];
            int alike = L->kind * 4 + (L->heavy == HK_REPLACEMENT) * 2 + (L->pipe == PK_RESERVE);
            if (searched[alike] == 255) searched[alike] = (uint8_t)route_search(g, b, lt, second);
            r = searched[alike];
        }
        out[lt] = (uint8_t)r;
        if (r == PR_LEGAL && ++legal == stop_after) return;
    }
}

void pgh_link_choose_type(PCtx *cx, int lt) {
    PittsburghGame *g = cx->g;
    if (g->h.phase == PP_SECOND_LINK) pgh_spend(g, g->h.current, cx->T->second_link_money); /* P46 */
    g->pend.link_type = (uint8_t)lt;
    g->h.phase = PP_LINK_ROUTE;
}

/* P43-P44: the link goes down first, then its cubes are sourced to either end. */
void pgh_link_place(PCtx *cx, int action) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    PghPending *pd = &g->pend;
    int p = g->h.current, lt = pd->link_type;
    const PghLinkType *L = &T->link_types[lt];
    g->players[p].supply[lt]--;
    pd->swapped = 0;
    if (L->kind != LK_PIPE) {
        int r = action - PGA_RAIL;
        PghRailState *rs = &g->rails[r];
        if (rs->owner >= 0) { /* P47 Replacement: the replaced train scores, goes home */
            pgh_score_rail(cx, r);
            g->players[rs->owner].supply[rs->link_type]++;
            pgh_pemit(cx, PE_REPLACED, rs->owner, r, rs->link_type, 0);
            pd->swapped = 1; /* the route was connected before (P44 before_placement) */
        }
        rs->owner = (int8_t)p;
        rs->link_type = (uint8_t)lt;
        rs->cargo = 0;
        pd->route = (uint8_t)r;
        pd->route_is_pipe = 0;
        pd->target_loc = T->rails[r].a;
    } else {
        int q = action - PGA_PIPE;
        PghPipeState *ps = &g->pipes[q];
        if (ps->owner >= 0) { /* P48: the Reserve returns to the supply */
            g->players[p].supply[ps->link_type]++;
            pd->swapped = 1;
        }
        ps->owner = (int8_t)p;
        ps->link_type = (uint8_t)lt;
        pd->route = (uint8_t)q;
        pd->route_is_pipe = 1;
        pd->target_loc = T->pipes[q].loc;
    }
    memcpy(pd->need, T->link_cost[L->kind], sizeof pd->need);
    pgh_pemit(cx, PE_LINK, p, action, lt, 0);
    pd->stage = ST_PAY;
}

/* After the cubes: heavy-train rewards and route bonuses (P45, P47), or the pipeline's oil
   and the oilfield reveal (P26, P48). */
void pgh_network_after_pay(PCtx *cx) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    PghPending *pd = &g->pend;
    int p = g->h.current;
    const PghLinkType *L = &T->link_types[pd->link_type];
    if (!pd->route_is_pipe) {
        PghRailState *rs = &g->rails[pd->route];
        if (L->kind == LK_HEAVY) {
            g->players[p].heavy_built++;
            if (L->cargo_cube != PGH_NONE) rs->cargo = 1;
            if (L->whiskey) pgh_gain_whiskey(g, p, L->whiskey);
        }
        const PghRail *R = &T->rails[pd->route];
        int bonus = R->bonus;
        /* P45 route_bonus_every_placement (default true): else only the first train earns it */
        if (bonus && opt(g, OPT_route_bonus_every_placement) == 1 && (g->rail_bonus_taken >> pd->route & 1u))
            bonus = BN_NONE;
        if (bonus) g->rail_bonus_taken |= 1ull << pd->route;
        switch (bonus) {
        case BN_INCOME: pgh_income_up(g, p, R->amount); break;
        case BN_WHISKEY: pgh_gain_whiskey(g, p, R->amount); break;
        case BN_DEVELOP: pd->free_develops += R->amount; break;
        default: break;
        }
        if (R->bonus) pgh_pemit(cx, PE_ROUTE_BONUS, p, pd->route, R->bonus, R->amount);
    } else {
        int q = pd->route, f = T->pipes[q].field;
        int reserve = L->pipe == PK_RESERVE;
        int route_oil = pd->swapped ? opt(g, OPT_reserve_swap_readds_route_oil) == 1
                                    : !reserve || opt(g, OPT_reserve_adds_route_oil) == 0;
        pgh_oil_add_route(cx, q, (route_oil ? T->pipes[q].oil_icons : 0) + (reserve ? L->reserve_oil : 0));
        if (g->fields[f].tile_state == FT_FACE_DOWN) pgh_oil_reveal(cx, f, p);
    }
    pd->links_placed++;
    pd->stage = ST_NET_SECOND;
}
