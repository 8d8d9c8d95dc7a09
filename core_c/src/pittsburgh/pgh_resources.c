/* Sourcing each cube and barrel (P19-P24, P27-P28): connected unflipped industry tiles
   first and mandatory, the owner's resource trains (optional, free), then connected markets
   at their fixed price, then Vanderbilt; oil only through a non-Reserve pipeline. */
#include "pgh_internal.h"

int pgh_market_sells(const PghTables *T, int m, int cube, int *col) {
    for (int k = 0; k < 2; k++)
        if (T->markets[m].col_cube[k] == cube) {
            *col = k;
            return 1;
        }
    return 0;
}

/* Money for n cubes of one type delivered to one place reachable from `comps` (components
   merged into one place), cheapest first: free industry cubes and own train cargo, then
   markets, then Vanderbilt. -1 when impossible (oil has no market and no Vanderbilt). */
int pgh_mincost(const PittsburghGame *g, const PBoard *b, int cube, int n, uint32_t comps,
            int market_less) {
    if (n <= 0) return 0;
    const PghTables *T = pgh_T(g);
    int free_cubes = 0;
    for (uint32_t m = comps; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        free_cubes += b->train[c][cube] + (cube == CUBE_OIL ? b->oil[c] : b->cubes[c][cube]);
    }
    int rest = n - free_cubes;
    if (rest <= 0) return 0;
    if (cube == CUBE_OIL) return -1;
    int cost = 0;
    const uint8_t *sellers = T->markets_by_price[cube];
    for (int i = 0; i < PGH_MAX_MARKETS && sellers[i] != PGH_NONE && rest > 0; i++) {
        int m = sellers[i], col;
        if (!pgh_market_sells(T, m, cube, &col) || !bit32(comps, b->comp[T->markets[m].loc]))
            continue;
        int have = g->market_fill[m][col] - (m == market_less);
        if (have <= 0) continue;
        int take = rest < have ? rest : have;
        cost += take * T->markets[m].price;
        rest -= take;
    }
    if (rest > 0) {
        if (!T->vanderbilt[cube]) return -1;
        cost += rest * T->vanderbilt[cube];
    }
    return cost;
}

int pgh_need_cost(const PittsburghGame *g, const PBoard *b, const uint8_t need[PGH_NUM_CUBES],
              uint32_t comps) {
    int total = 0;
    for (int c = 0; c < PGH_NUM_CUBES; c++) {
        if (!need[c]) continue;
        int m = pgh_mincost(g, b, c, need[c], comps, -1);
        if (m < 0) return -1;
        total += m;
    }
    return total;
}

int pgh_need_cost_cached(PCostCache *cache, const PittsburghGame *g, const PBoard *b,
                         const uint8_t need[PGH_NUM_CUBES], uint32_t comps) {
    for (int k = 0; k < 4; k++) /* comps is never 0: an unused entry never matches */
        if (cache->comps[k] == comps) return cache->cost[k];
    int k = cache->next;
    cache->next = (k + 1) & 3;
    cache->comps[k] = comps;
    cache->cost[k] = pgh_need_cost(g, b, need, comps);
    return cache->cost[k];
}

/* Where the pending action needs its cubes (P24, P50): one place, or for a develop any
   location of the network (no network: Vanderbilt only). */
int pgh_target_comps(const PittsburghGame *g, const PBoard *b, uint32_t *comps) {
    int loc = g->pend.target_loc;
    if (g->pend.action == PA_NETWORK && !g->pend.route_is_pipe && g->pend.route != PGH_NONE) {
        const PghRail *r = &pgh_T(g)->rails[g->pend.route]; /* either end (P44) */
        *comps = (1u << b->comp[r->a]) | (1u << b->comp[r->b]);
        return 1;
    }
    if (loc != PGH_NONE) {
        *comps = 1u << b->comp[loc];
        return 1;
    }
    *comps = pgh_develop_comps(g, b);
    return 0;
}

/* P50 develop_delivery: any location of the network (default), or anywhere. */
uint32_t pgh_develop_comps(const PittsburghGame *g, const PBoard *b) {
    if (opt(g, OPT_develop_delivery) != 1) return b->net_comps;
    uint32_t comps = 0;
    for (int i = 0; i < pgh_T(g)->num_locs; i++) comps |= 1u << b->comp[i];
    return comps;
}

/* Is there a component of the target without this cube on an industry tile (so markets
   and Vanderbilt may serve it)? `only`: restrict to the components holding location loc. */
static int industry_free_comp(const PBoard *b, uint32_t comps, int cube, int only_comp) {
    for (uint32_t m = comps; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (only_comp >= 0 && c != only_comp) continue;
        if (!b->cubes[c][cube]) return 1;
    }
    return 0;
}

/* P50 develop_cube_choice_before_priority = false: for a develop, a connected tile with
   either iron or steel comes before any market or Vanderbilt. */
static int develop_free_comp(const PittsburghGame *g, const PBoard *b, uint32_t comps, int cube, int only) {
    if (g->pend.action != PA_DEVELOP || opt(g, OPT_develop_cube_choice_before_priority) != 1)
        return industry_free_comp(b, comps, cube, only);
    for (uint32_t m = comps; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (only >= 0 && c != only) continue;
        if (!b->cubes[c][CUBE_IRON] && !b->cubes[c][CUBE_STEEL]) return 1;
    }
    return 0;
}

/* Money still needed for what remains after this source, assuming the cheapest sources. */
static int rest_cost(const PittsburghGame *g, const PBoard *b, int cube, uint32_t comps, int market_less) {
    int total = 0;
    for (int c = 0; c < PGH_NUM_CUBES; c++) {
        int n = g->pend.need[c] - (c == cube);
        int m = pgh_mincost(g, b, c, n, comps, c == cube ? market_less : -1);
        if (m < 0) return 1 << 20;
        total += m;
    }
    return total;
}

static int pipe_carries(const PittsburghGame *g, const PBoard *b, int pipe, uint32_t comps) {
    const PghTables *T = pgh_T(g);
    if (g->pipes[pipe].owner < 0) return PR_SOURCE_EMPTY;
    if (T->link_types[g->pipes[pipe].link_type].pipe == PK_RESERVE) return PR_RESERVE_CARRIES_NO_OIL;
    if (!bit32(comps, b->comp[T->pipes[pipe].loc])) return PR_NOT_CONNECTED;
    return PR_LEGAL;
}

/* Rail distance (trains of any owner) from the places where the cube is needed. */
static void distances_from(const PittsburghGame *g, uint32_t starts, uint8_t *dist) {
    const PghTables *T = pgh_T(g);
    memset(dist, 255, PGH_MAX_LOCS);
    uint8_t queue[PGH_MAX_LOCS];
    int head = 0, tail = 0;
    for (int i = 0; i < T->num_locs; i++)
        if (starts >> i & 1u) {
            dist[i] = 0;
            queue[tail++] = (uint8_t)i;
        }
    while (head < tail) {
        int x = queue[head++];
        for (int r = 0; r < T->num_rails; r++) {
            if (g->rails[r].owner < 0 || (T->rails[r].a != x && T->rails[r].b != x)) continue;
            int y = T->rails[r].a == x ? T->rails[r].b : T->rails[r].a;
            if (dist[y] != 255) continue;
            dist[y] = (uint8_t)(dist[x] + 1);
            queue[tail++] = (uint8_t)y;
        }
    }
}

/* P19 industry_source_choice = nearest: only a tile at the least rail distance. */
static int nearest_tile_reason(const PittsburghGame *g, const PBoard *b, int space, int cube) {
    const PghTables *T = pgh_T(g);
    uint32_t starts = 0;
    if (g->pend.action == PA_NETWORK && !g->pend.route_is_pipe && g->pend.route != PGH_NONE)
        starts = (1u << T->rails[g->pend.route].a) | (1u << T->rails[g->pend.route].b);
    else if (g->pend.target_loc != PGH_NONE)
        starts = 1u << g->pend.target_loc;
    else
        starts = b->network;
    uint8_t dist[PGH_MAX_LOCS];
    distances_from(g, starts, dist);
    int best = 255;
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0 || sp->flipped) continue;
        const PghTile *t = &T->tiles[sp->tile];
        int k = t->prod_cube[0] == cube ? 0 : t->prod_cube[1] == cube ? 1 : -1;
        if (k >= 0 && sp->cubes[k] && dist[T->spaces[s].loc] < best) best = dist[T->spaces[s].loc];
    }
    return dist[T->spaces[space].loc] == best ? PR_LEGAL : PR_NOT_NEAREST;
}

int pgh_source_reason(const PittsburghGame *g, const PBoard *b, int action) {
    const PghTables *T = pgh_T(g);
    int cube = g->h.phase - PP_COAL, p = g->h.current;
    uint32_t comps = b->target;
    if (!b->target_known) pgh_target_comps(g, b, &comps);
    int money = g->players[p].money;
    if (action >= PGA_SPACE && action < PGA_SPACE + T->num_spaces) {
        if (cube == CUBE_OIL) return PR_WRONG_CUBE;
        int s = action - PGA_SPACE;
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0 || sp->flipped) return PR_SOURCE_EMPTY;
        const PghTile *t = &T->tiles[sp->tile];
        int k = t->prod_cube[0] == cube ? 0 : t->prod_cube[1] == cube ? 1 : -1;
        if (k < 0) return PR_WRONG_CUBE;
        if (!sp->cubes[k]) return PR_SOURCE_EMPTY;
        if (!bit32(comps, b->comp[T->spaces[s].loc])) return PR_NOT_CONNECTED;
        if (opt(g, OPT_industry_source_choice) == 1) return nearest_tile_reason(g, b, s, cube);
        return PR_LEGAL;
    }
    if (action >= PGA_RAIL && action < PGA_RAIL + T->num_rails) {
        int r = action - PGA_RAIL;
        const PghRailState *rs = &g->rails[r];
        if (rs->owner < 0) return PR_SOURCE_EMPTY;
        if (rs->owner != p) return PR_NOT_YOUR_TRAIN;
        if (T->link_types[rs->link_type].cargo_cube != cube) return PR_WRONG_CUBE;
        if (!rs->cargo) return PR_SOURCE_EMPTY;
        if (cube == CUBE_OIL && opt(g, OPT_oil_sources) != 0) return PR_NO_OIL;
        int c = b->comp[T->rails[r].a];
        if (!bit32(comps, c)) return PR_NOT_CONNECTED;
        /* P20: by default the owner's train may be used even when a tile could supply */
        if (cube != CUBE_OIL && opt(g, OPT_resource_train_overrides_industry_priority) == 1 &&
            !industry_free_comp(b, comps, cube, c))
            return PR_INDUSTRY_FIRST;
        return PR_LEGAL;
    }
    if (action >= PGA_MARKET && action < PGA_MARKET + T->num_markets) {
        int m = action - PGA_MARKET, col;
        if (cube == CUBE_OIL || !pgh_market_sells(T, m, cube, &col)) return PR_WRONG_CUBE;
        if (!g->market_fill[m][col]) return PR_SOURCE_EMPTY;
        int c = b->comp[T->markets[m].loc];
        if (!bit32(comps, c)) return PR_NOT_CONNECTED;
        if (!develop_free_comp(g, b, comps, cube, c)) return PR_INDUSTRY_FIRST;
        if (T->markets[m].price + rest_cost(g, b, cube, comps, m) > money) return PR_NOT_ENOUGH_MONEY;
        return PR_LEGAL;
    }
    if (action == PGA_VANDERBILT) {
        if (!T->vanderbilt[cube]) return PR_NO_OIL;
        if (comps && !develop_free_comp(g, b, comps, cube, -1)) return PR_INDUSTRY_FIRST;
        if (T->vanderbilt[cube] + rest_cost(g, b, cube, comps, -1) > money) return PR_NOT_ENOUGH_MONEY;
        return PR_LEGAL;
    }
    if (action >= PGA_PIPE && action < PGA_PIPE + T->num_pipes) {
        if (cube != CUBE_OIL) return PR_WRONG_CUBE;
        int pipe = action - PGA_PIPE, r = pipe_carries(g, b, pipe, comps);
        if (r != PR_LEGAL) return r;
        if (!g->fields[T->pipes[pipe].field].barrels) return PR_SOURCE_EMPTY;
        /* P27 oil_city_priority (default false): else a reachable Oil City comes first */
        if (opt(g, OPT_oil_city_priority) == 1 && opt(g, OPT_oil_sources) == 0)
            for (int q = 0; q < T->num_pipes; q++)
                if (g->fields[T->pipes[q].field].oc_barrels && pipe_carries(g, b, q, comps) == PR_LEGAL)
                    return PR_INDUSTRY_FIRST;
        return PR_LEGAL;
    }
    if (action >= PGA_PIPE_CITY && action < PGA_PIPE_CITY + T->num_pipes) {
        if (cube != CUBE_OIL) return PR_WRONG_CUBE;
        if (opt(g, OPT_oil_sources) != 0) return PR_NO_OIL;
        int pipe = action - PGA_PIPE_CITY, r = pipe_carries(g, b, pipe, comps);
        if (r != PR_LEGAL) return r;
        return g->fields[T->pipes[pipe].field].oc_barrels ? PR_LEGAL : PR_SOURCE_EMPTY;
    }
    return PR_WRONG_DECISION;
}

static const PghTile *oil_city_tile(const PghTables *T) {
    for (int i = 0; i < T->num_tiles; i++)
        if (T->tiles[i].industry == PI_OIL_CITY) return &T->tiles[i];
    return &T->tiles[0];
}

/* P28: each barrel through a pipeline pays its owner at once. */
static void pipe_reward(PCtx *cx, int pipe) {
    PittsburghGame *g = cx->g;
    int owner = g->pipes[pipe].owner;
    const PghLinkType *lt = &cx->T->link_types[g->pipes[pipe].link_type];
    PghPlayer *pl = &g->players[owner];
    switch (lt->pipe) {
    case PK_VP: pl->vp = (int16_t)(pl->vp + lt->per_barrel); break;
    case PK_MONEY: pl->money = (int16_t)(pl->money + lt->per_barrel); break;
    case PK_INCOME: pgh_income_up(g, owner, lt->per_barrel); break;
    default: break;
    }
    pgh_pemit(cx, PE_PIPE_REWARD, owner, pipe, lt->pipe, lt->per_barrel);
}

void pgh_source_apply(PCtx *cx, int action) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    int cube = g->h.phase - PP_COAL, p = g->h.current;
    g->pend.need[cube]--;
    if (action >= PGA_SPACE && action < PGA_SPACE + PGH_MAX_SPACES) {
        int s = action - PGA_SPACE;
        PghSpace *sp = &g->spaces[s];
        const PghTile *t = &T->tiles[sp->tile];
        sp->cubes[t->prod_cube[0] == cube ? 0 : 1]--;
        pgh_pemit(cx, PE_CUBE, p, cube, action, 0);
        if (!sp->cubes[0] && !sp->cubes[1]) pgh_flip_space(cx, s);
    } else if (action >= PGA_RAIL && action < PGA_RAIL + PGH_MAX_RAILS) {
        g->rails[action - PGA_RAIL].cargo--;
        pgh_pemit(cx, cube == CUBE_OIL ? PE_OIL : PE_CUBE, p, cube, action, 0);
    } else if (action >= PGA_MARKET && action < PGA_MARKET + PGH_MAX_MARKETS) {
        int m = action - PGA_MARKET, col = 0;
        pgh_market_sells(T, m, cube, &col);
        g->market_fill[m][col]--;
        pgh_spend(g, p, T->markets[m].price);
        pgh_pemit(cx, PE_CUBE, p, cube, action, T->markets[m].price);
    } else if (action == PGA_VANDERBILT) {
        pgh_spend(g, p, T->vanderbilt[cube]);
        pgh_pemit(cx, PE_CUBE, p, cube, action, T->vanderbilt[cube]);
    } else if (action >= PGA_PIPE && action < PGA_PIPE + PGH_MAX_PIPES) {
        int pipe = action - PGA_PIPE;
        g->fields[T->pipes[pipe].field].barrels--;
        pgh_pemit(cx, PE_OIL, p, cube, action, 0);
        pipe_reward(cx, pipe);
    } else if (action >= PGA_PIPE_CITY && action < PGA_PIPE_CITY + PGH_MAX_PIPES) {
        int pipe = action - PGA_PIPE_CITY;
        PghField *f = &g->fields[T->pipes[pipe].field];
        f->oc_barrels--;
        pgh_pemit(cx, PE_OIL, p, cube, action, 0);
        pipe_reward(cx, pipe);
        if (!f->oc_barrels && !f->oc_flipped) { /* P39: the Oil City flips on its last barrel */
            const PghTile *oc = oil_city_tile(T);
            f->oc_flipped = 1;
            PghPlayer *o = &g->players[f->oc_owner];
            o->money = (int16_t)(o->money + oc->flip_money);
            if (oc->flip_income) pgh_income_up(g, f->oc_owner, oc->flip_income);
            pgh_pemit(cx, PE_FLIP, f->oc_owner, -1 - T->pipes[pipe].field, oc - T->tiles, oc->flip_income);
        }
    }
}
