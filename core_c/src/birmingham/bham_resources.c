/* Paying coal (ruling 7), iron (ruling 8) and beer (ruling 9), one cube or barrel per decision. */
#include "bham_internal.h"

/* Where the cube is needed: the build location, or every location the new link touches. */
static uint32_t coal_target(const BirminghamGame *g) {
    if (g->pend.action == ACT_NETWORK) return BT_LINK_TOUCHES[g->pend.link];
    return 1u << BT_SLOT_LOCATION[g->pend.slot];
}

static uint32_t beer_target(const BirminghamGame *g) { return coal_target(g); }

static int is_resource_tile(const BirminghamGame *g, int slot, int industry) {
    const BirminghamSlot *t = &g->slots[slot];
    return t->owner >= 0 && t->industry == industry && t->cubes > 0;
}

int coal_source_reason(const BirminghamGame *g, const Board *b, int action) {
    uint8_t dist[BHAM_NUM_LOCATIONS];
    uint32_t target = coal_target(g);
    coal_distances(g, target, dist);
    int nearest = 255;
    for (int s = 0; s < BHAM_NUM_SLOTS; s++)
        if (is_resource_tile(g, s, IND_COAL) && dist[BT_SLOT_LOCATION[s]] < nearest)
            nearest = dist[BT_SLOT_LOCATION[s]];
    if (action == A_MARKET) {
        if (nearest != 255) return R_MINE_COAL_FIRST;
        if (!merchant_reachable(b, target)) return R_NOT_CONNECTED_TO_MERCHANT;
        if (market_buy_cost(g->coal_market, 1, 1) > g->players[g->current].money)
            return R_NOT_ENOUGH_MONEY;
        return R_LEGAL;
    }
    if (action < A_SLOT || action >= A_SLOT + BHAM_NUM_SLOTS) return R_WRONG_DECISION;
    int s = action - A_SLOT;
    if (!is_resource_tile(g, s, IND_COAL)) return R_SOURCE_EMPTY;
    int d = dist[BT_SLOT_LOCATION[s]];
    if (d == 255) return R_NO_CONNECTED_COAL;
    return d > nearest ? R_NOT_NEAREST_COAL : R_LEGAL;
}

int iron_source_reason(const BirminghamGame *g, const Board *b, int action) {
    if (action == A_MARKET) {
        if (b->board_iron > 0) return R_WORKS_IRON_FIRST;
        if (market_buy_cost(g->iron_market, 1, 0) > g->players[g->current].money)
            return R_NOT_ENOUGH_MONEY;
        return R_LEGAL;
    }
    if (action < A_SLOT || action >= A_SLOT + BHAM_NUM_SLOTS) return R_WRONG_DECISION;
    return is_resource_tile(g, action - A_SLOT, IND_IRON) ? R_LEGAL : R_SOURCE_EMPTY;
}

int beer_source_reason(const BirminghamGame *g, const Board *b, int action) {
    if (action >= A_MERCHANT && action < A_MERCHANT + BHAM_NUM_MERCHANT_SPACES) {
        int m = action - A_MERCHANT;
        /* only the barrel beside the merchant tile being sold to; never for rails */
        if (g->pend.action != ACT_SELL || m != g->pend.merchant) return R_MERCHANT_BEER_NOT_HERE;
        return g->merchant_beer[m] ? R_LEGAL : R_SOURCE_EMPTY;
    }
    if (action < A_SLOT || action >= A_SLOT + BHAM_NUM_SLOTS) return R_WRONG_DECISION;
    int s = action - A_SLOT;
    if (!is_resource_tile(g, s, IND_BREWERY)) return R_SOURCE_EMPTY;
    if (g->slots[s].owner == g->current) return R_LEGAL; /* own beer needs no connection */
    uint8_t comps[8];
    int n = location_comp_set(b, beer_target(g), comps);
    for (int i = 0; i < n; i++)
        if (comps[i] == b->comp[BT_SLOT_LOCATION[s]]) return R_LEGAL;
    return R_BEER_NOT_CONNECTED;
}

/* One coal or iron cube: from the chosen tile, or bought from the market (cheapest first). */
static void pay_cube(Ctx *cx, int action, int is_coal) {
    BirminghamGame *g = cx->g;
    int p = g->current, event = is_coal ? EV_COAL : EV_IRON;
    if (action == A_MARKET) {
        uint8_t *market = is_coal ? &g->coal_market : &g->iron_market;
        int price = market_buy_cost(*market, 1, is_coal);
        if (*market) (*market)--;
        pay_money(cx, p, price);
        emit(cx, event, p, MARKET_SOURCE, price, 0);
    } else {
        take_cube(cx, action - A_SLOT);
        emit(cx, event, p, action - A_SLOT, 0, 0);
    }
    if (is_coal) g->pend.coal_left--;
    else g->pend.iron_left--;
    resources_continue(cx);
}

void pay_coal(Ctx *cx, int action) { pay_cube(cx, action, 1); }
void pay_iron(Ctx *cx, int action) { pay_cube(cx, action, 0); }

#define MERCHANT_BEER_USED 1

void pay_beer(Ctx *cx, int action) {
    BirminghamGame *g = cx->g;
    int p = g->current;
    if (action >= A_MERCHANT) {
        int m = action - A_MERCHANT;
        g->merchant_beer[m] = 0;
        g->pend.after_beer |= MERCHANT_BEER_USED;
        emit(cx, EV_BEER, p, MARKET_SOURCE, m, 0);
    } else {
        take_cube(cx, action - A_SLOT);
        emit(cx, EV_BEER, p, action - A_SLOT, 0, 0);
    }
    g->pend.beer_left--;
    resources_continue(cx);
}

/* Next payment step, or the action's next stage once everything is paid. */
void resources_continue(Ctx *cx) {
    BirminghamGame *g = cx->g;
    if (g->pend.coal_left) g->phase = PH_COAL;
    else if (g->pend.iron_left) g->phase = PH_IRON;
    else if (g->pend.beer_left) g->phase = PH_BEER;
    else switch (g->pend.action) {
        case ACT_BUILD: build_finish(cx); break;
        case ACT_NETWORK: network_after_coal(cx); break;
        case ACT_DEVELOP: develop_remove(cx, g->pend.industry); break;
        case ACT_SELL: sell_finish_tile(cx); break;
        default: action_done(cx); break;
        }
}
