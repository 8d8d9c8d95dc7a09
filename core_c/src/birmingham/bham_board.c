/* Connectivity over built links, networks, and where coal, iron and beer can come from. */
#include "bham_internal.h"

int has_presence(const BirminghamGame *g, int player) {
    for (int s = 0; s < BHAM_NUM_SLOTS; s++)
        if (g->slots[s].owner == player) return 1;
    for (int l = 0; l < BHAM_NUM_LINKS; l++)
        if (g->link_owner[l] == player) return 1;
    return 0;
}

void board_analyse(const BirminghamGame *g, int player, Board *b) {
    /* components as location bit masks: each built link joins every mask it touches */
    uint32_t comps[BHAM_NUM_LOCATIONS];
    int ncomps = 0;
    uint32_t network = 0;
    for (int l = 0; l < BHAM_NUM_LINKS; l++) {
        if (g->link_owner[l] < 0) continue;
        uint32_t m = BT_LINK_TOUCHES[l];
        if (g->link_owner[l] == player) network |= m;
        for (int i = 0; i < ncomps;) {
            if (comps[i] & m) {
                m |= comps[i];
                comps[i] = comps[--ncomps];
            } else {
                i++;
            }
        }
        comps[ncomps++] = m;
    }
    for (int i = 0; i < BHAM_NUM_LOCATIONS; i++) b->comp[i] = (uint8_t)i;
    for (int i = 0; i < ncomps; i++) {
        int id = __builtin_ctz(comps[i]);
        for (uint32_t t = comps[i]; t; t &= t - 1) b->comp[__builtin_ctz(t)] = (uint8_t)id;
    }
    memset(b->comp_coal, 0, sizeof b->comp_coal);
    memset(b->comp_merchant, 0, sizeof b->comp_merchant);
    memset(b->comp_opp_beer, 0, sizeof b->comp_opp_beer);
    for (int i = BT_LOCATION_FIRST_MERCHANT; i < BHAM_NUM_LOCATIONS; i++) b->comp_merchant[b->comp[i]] = 1;
    b->board_coal = b->board_iron = b->own_beer = 0;
    b->presence = network != 0;
    b->empty_slots = b->cube_slots = b->own_slots = 0;
    memset(b->industry_slots, 0, sizeof b->industry_slots);
    memset(b->own_in_loc, 0, sizeof b->own_in_loc);
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) {
            b->empty_slots |= 1ull << s;
            continue;
        }
        b->industry_slots[t->industry] |= 1ull << s;
        if (t->cubes) b->cube_slots |= 1ull << s;
        int loc = BT_SLOT_LOCATION[s];
        if (t->owner == player) {
            network |= 1u << loc;
            b->presence = 1;
            b->own_in_loc[loc]++;
            b->own_slots |= 1ull << s;
        }
        if (!t->cubes) continue;
        int c = b->comp[loc];
        switch (t->industry) {
        case IND_COAL:
            b->board_coal += t->cubes;
            b->comp_coal[c] = (uint8_t)(b->comp_coal[c] + t->cubes);
            break;
        case IND_IRON: b->board_iron += t->cubes; break;
        case IND_BREWERY:
            if (t->owner == player) b->own_beer += t->cubes;
            else b->comp_opp_beer[c] = (uint8_t)(b->comp_opp_beer[c] + t->cubes);
            break;
        default: break;
        }
    }
    b->network = network;
    b->player = player;
    for (int k = 0; k < 3; k++) {
        b->coal_market_cost[k] = market_buy_cost(g->coal_market, k, 1);
        b->iron_cost[k] = k <= b->board_iron ? 0 : market_buy_cost(g->iron_market, k - b->board_iron, 0);
    }
    uint64_t built_links = 0;
    for (int l = 0; l < BHAM_NUM_LINKS; l++)
        if (g->link_owner[l] >= 0) built_links |= 1ull << l;
    b->open_links = (g->era == ERA_CANAL ? BT_CANAL_LINKS : BT_RAIL_LINKS) & ~built_links;
    if (!b->presence) {
        b->net_slots = (1ull << BHAM_NUM_SLOTS) - 1ull; /* nothing on the board: anywhere */
    } else {
        b->net_slots = 0;
        uint64_t near = 0;
        for (uint32_t t = network; t; t &= t - 1) {
            b->net_slots |= location_slots(__builtin_ctz(t));
            near |= BT_LOCATION_LINKS[__builtin_ctz(t)];
        }
        b->open_links &= near;
    }
    b->build_mask_ready = 0; /* build masks are computed on first use (build_mask) */
    b->explain = 0;
}

/* Distinct components touched by a set of locations. */
int location_comp_set(const Board *b, uint32_t touches, uint8_t *comps) {
    int n = 0;
    for (uint32_t t = touches; t; t &= t - 1) {
        uint8_t c = b->comp[__builtin_ctz(t)];
        int seen = 0;
        for (int i = 0; i < n; i++) seen |= comps[i] == c;
        if (!seen) comps[n++] = c;
    }
    return n;
}

int coal_from_mines(const Board *b, uint32_t touches) {
    uint8_t comps[8];
    int n = location_comp_set(b, touches, comps), sum = 0;
    for (int i = 0; i < n; i++) sum += b->comp_coal[comps[i]];
    return sum;
}

int merchant_reachable(const Board *b, uint32_t touches) {
    uint8_t comps[8];
    int n = location_comp_set(b, touches, comps);
    for (int i = 0; i < n; i++)
        if (b->comp_merchant[comps[i]]) return 1;
    return 0;
}

int opp_beer_reachable(const Board *b, uint32_t touches) {
    uint8_t comps[8];
    int n = location_comp_set(b, touches, comps), sum = 0;
    for (int i = 0; i < n; i++) sum += b->comp_opp_beer[comps[i]];
    return sum;
}

/* Links between each location and the source set (255 = not connected). */
void coal_distances(const BirminghamGame *g, uint32_t sources, uint8_t *dist) {
    memset(dist, 255, BHAM_NUM_LOCATIONS);
    uint32_t frontier = sources, seen = sources;
    for (uint32_t t = sources; t; t &= t - 1) dist[__builtin_ctz(t)] = 0;
    for (int d = 1; frontier; d++) {
        uint32_t next = 0;
        for (int l = 0; l < BHAM_NUM_LINKS; l++) {
            if (g->link_owner[l] < 0) continue;
            uint32_t t = BT_LINK_TOUCHES[l];
            if (t & frontier) next |= t & ~seen;
        }
        for (uint32_t t = next; t; t &= t - 1) dist[__builtin_ctz(t)] = (uint8_t)d;
        seen |= next;
        frontier = next;
    }
}

/* Money for k cubes bought cheapest first from a market holding `cubes`. */
int market_buy_cost(int cubes, int k, int is_coal) {
    int cap = is_coal ? BT_COAL_CAPACITY : BT_IRON_CAPACITY;
    const uint8_t *prices = is_coal ? BT_COAL_PRICES : BT_IRON_PRICES;
    int empty = is_coal ? BT_COAL_EMPTY_PRICE : BT_IRON_EMPTY_PRICE, cost = 0;
    for (int i = 0; i < k; i++) {
        if (cubes > 0) {
            cost += prices[cap - cubes];
            cubes--;
        } else {
            cost += empty;
        }
    }
    return cost;
}

/* Money n coal costs at a place (mines first, then the market); -1 = cannot get it. */
int coal_money_needed(const BirminghamGame *g, const Board *b, uint32_t touches, int n) {
    if (n <= 0) return 0;
    int free_coal = (touches & (touches - 1)) ? coal_from_mines(b, touches)
                                              : b->comp_coal[b->comp[__builtin_ctz(touches)]];
    if (free_coal >= n) return 0;
    if (!merchant_reachable(b, touches)) return -1;
    if (n - free_coal < 3) return b->coal_market_cost[n - free_coal];
    return market_buy_cost(g->coal_market, n - free_coal, 1);
}

int iron_money_needed(const BirminghamGame *g, const Board *b, int n) {
    if (n <= b->board_iron) return 0;
    if (n < 3) return b->iron_cost[n];
    return market_buy_cost(g->iron_market, n - b->board_iron, 0);
}

int tile_cost(const BirminghamGame *g, int industry, int level) {
    if (industry == IND_MANUFACTURER && level == 4) return g->manufacturer_iv_cost;
    return BT_LEVELS[industry][level - 1].money;
}
