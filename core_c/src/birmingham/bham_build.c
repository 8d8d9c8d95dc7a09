/* Build action: cards, slots, overbuilding, costs, production and market sales. */
#include "bham_internal.h"

static uint64_t network_slots(const Board *b) { return b->net_slots; }

/* Which slots a card lets the player use for an industry (ruling 14). */
static uint64_t card_slots(const Board *b, int card, int industry) {
    if (card < BT_NUM_TOWNS) return location_slots(card);
    if (card == BT_CARD_WILD_LOCATION) return TOWN_SLOTS_MASK;
    if (card == BT_CARD_WILD_INDUSTRY) return network_slots(b);
    if (card >= BT_CARD_FIRST_INDUSTRY && card < BT_CARD_WILD_LOCATION &&
        (BT_INDUSTRY_CARD_MASK[card - BT_CARD_FIRST_INDUSTRY] & (1u << industry)))
        return network_slots(b);
    return 0;
}

static int card_reason(const Board *b, int card, int industry, int loc) {
    if (card == BRASS_NONE) return R_LEGAL;
    if (card < BT_NUM_TOWNS || card == BT_CARD_WILD_LOCATION) {
        if (BT_LOCATION_KIND[loc] == 1) return R_FARM_NEEDS_INDUSTRY_CARD;
        return card == BT_CARD_WILD_LOCATION || card == loc ? R_LEGAL : R_CARD_DOES_NOT_ALLOW;
    }
    if (!(card_slots(b, card, industry) & location_slots(loc)))
        return (card_slots(b, card, industry) ? R_NOT_IN_NETWORK : R_CARD_DOES_NOT_ALLOW);
    return R_LEGAL;
}

/* Everything about building `industry` on `slot` (card BRASS_NONE: any card). */
int build_slot_reason(const BirminghamGame *g, const Board *b, int player, int card, int industry,
                      int slot) {
    const BirminghamPlayer *pl = &g->players[player];
    int k = pl->mat_taken[industry];
    if (k >= BT_TILES_PER_PLAYER[industry]) return R_NO_TILES_LEFT;
    int level = BT_MAT_LEVEL[industry][k];
    const BtLevel *lv = &BT_LEVELS[industry][level - 1];
    if (!(g->era == ERA_CANAL ? lv->canal_era : lv->rail_era)) return R_TILE_WRONG_ERA;
    if (!(BT_SLOT_INDUSTRIES[slot] & (1u << industry))) return R_SLOT_WRONG_INDUSTRY;
    int loc = BT_SLOT_LOCATION[slot];
    int r = card_reason(b, card, industry, loc);
    if (r) return r;
    const BirminghamSlot *t = &g->slots[slot];
    if (t->owner < 0) {
        /* a slot showing only this industry is used first (ruling 14) */
        if (BT_SLOT_INDUSTRIES[slot] != (1u << industry) &&
            (BT_LOCATION_SLOTS[loc] & BT_SINGLE_ICON_SLOTS[industry] & b->empty_slots))
            return R_SINGLE_ICON_SLOT_FIRST;
    } else {
        /* overbuilding (ruling 13) */
        if (t->industry != industry) return R_SLOT_OCCUPIED;
        if (level <= t->level) return R_CANNOT_OVERBUILD;
        if (t->owner != player) {
            if (industry == IND_COAL) {
                if (b->board_coal || g->coal_market) return R_CANNOT_OVERBUILD;
            } else if (industry == IND_IRON) {
                if (b->board_iron || g->iron_market) return R_CANNOT_OVERBUILD;
            } else {
                return R_CANNOT_OVERBUILD;
            }
        }
    }
    if (g->era == ERA_CANAL && b->own_in_loc[loc] - (t->owner == player) > 0)
        return R_CANAL_ONE_TILE_PER_TOWN;
    int coal = coal_money_needed(g, b, 1u << loc, lv->coal);
    if (coal < 0) return R_NO_CONNECTED_COAL;
    int money = tile_cost(g, industry, level) + coal + iron_money_needed(g, b, lv->iron);
    if (money > pl->money) return R_NOT_ENOUGH_MONEY;
    return R_LEGAL;
}

uint64_t build_feasible_slots(const BirminghamGame *g, const Board *b, int industry) {
    /* quick exits shared by every slot (same checks as build_slot_reason's first lines) */
    const BirminghamPlayer *pl = &g->players[b->player];
    int k = pl->mat_taken[industry];
    if (k >= BT_TILES_PER_PLAYER[industry]) return 0;
    int level = BT_MAT_LEVEL[industry][k];
    const BtLevel *lv = &BT_LEVELS[industry][level - 1];
    if (!(g->era == ERA_CANAL ? lv->canal_era : lv->rail_era)) return 0;
    if (tile_cost(g, industry, level) > pl->money) return 0;
    uint64_t m = 0;
    /* only empty slots or tiles of the same industry can take it (build_slot_reason decides) */
    uint64_t cand = BT_INDUSTRY_SLOTS[industry] & (b->empty_slots | b->industry_slots[industry]);
    for (; cand; cand &= cand - 1) {
        int s = __builtin_ctzll(cand);
        if (build_slot_reason(g, b, b->player, BRASS_NONE, industry, s) == R_LEGAL) m |= 1ull << s;
    }
    return m;
}

/* Lazily cached build_feasible_slots: the Board is a per-call scratch object. */
uint64_t build_mask(const BirminghamGame *g, const Board *b, int industry) {
    if (!(b->build_mask_ready & (1u << industry))) {
        Board *cache = (Board *)b;
        cache->build_mask[industry] = build_feasible_slots(g, b, industry);
        cache->build_mask_ready |= (uint8_t)(1u << industry);
    }
    return b->build_mask[industry];
}

/* Can `industry` be built on one of `allowed`? Few slots are checked one by one. */
static int build_possible_in(const BirminghamGame *g, const Board *b, int industry, uint64_t allowed) {
    uint64_t cand = allowed & BT_INDUSTRY_SLOTS[industry] &
                    (b->empty_slots | b->industry_slots[industry]);
    if (!cand) return 0;
    uint64_t beyond_four = cand;
    for (int k = 0; k < 4; k++) beyond_four &= beyond_four - 1;
    if ((b->build_mask_ready & (1u << industry)) || beyond_four)
        return (build_mask(g, b, industry) & cand) != 0;
    for (; cand; cand &= cand - 1)
        if (build_slot_reason(g, b, b->player, BRASS_NONE, industry, __builtin_ctzll(cand)) ==
            R_LEGAL)
            return 1;
    return 0;
}

/* An option above the slot decision (action type, card, industry) that no slot completes
   is refused with the reason of its best candidate (better_reason, bham_decision.c). A slot
   refused because a single-icon slot must be used first is no candidate (rank 0): that
   slot is, and its own reason is the one that counts. */
/* Why no slot takes `industry` with `card`: its best candidate's reason (every slot showing
   the industry is a candidate; the card's own limits are among the reasons). */
static int build_best_reason(const BirminghamGame *g, const Board *b, int card, int industry) {
    int best = R_NO_OPTION;
    if (!b->explain) return best;
    for (uint64_t cand = BT_INDUSTRY_SLOTS[industry]; cand; cand &= cand - 1)
        best = better_reason(best, build_slot_reason(g, b, b->player, card, industry,
                                                     __builtin_ctzll(cand)));
    return best;
}

int build_industry_reason(const BirminghamGame *g, const Board *b, int card, int industry) {
    uint64_t allowed = card_slots(b, card, industry);
    if (!allowed) return R_CARD_DOES_NOT_ALLOW;
    if (build_possible_in(g, b, industry, allowed)) return R_LEGAL;
    return build_best_reason(g, b, card, industry);
}

/* Industries the card cannot build at all are no candidates of the card. */
int build_card_reason(const BirminghamGame *g, const Board *b, int card) {
    for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++)
        if (build_possible_in(g, b, i, card_slots(b, card, i))) return R_LEGAL;
    int best = R_NO_BUILD_WITH_CARD;
    for (int i = 0; i < BHAM_NUM_INDUSTRIES && b->explain; i++)
        if (card_slots(b, card, i)) best = better_reason(best, build_best_reason(g, b, card, i));
    return best;
}

/* The Build action type: the best candidate over the cards held. */
int build_action_reason(const BirminghamGame *g, const Board *b) {
    const BirminghamPlayer *pl = &g->players[b->player];
    int best = R_NO_OPTION;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
        if (!pl->hand[c]) continue;
        int r = build_card_reason(g, b, c);
        if (r == R_LEGAL) return R_LEGAL;
        best = better_reason(best, r);
    }
    return best;
}

void build_choose_slot(Ctx *cx, int slot) {
    BirminghamGame *g = cx->g;
    int p = g->current, ind = g->pend.industry, level = level_of(g, ind);
    BirminghamSlot *t = &g->slots[slot];
    if (t->owner >= 0) {
        /* the old tile leaves the game; its cubes return to the supply */
        emit(cx, EV_OVERBUILD, p, slot, t->owner, t->level);
        remove_tile(g, slot);
    }
    const BtLevel *lv = &BT_LEVELS[ind][level - 1];
    g->pend.slot = (uint8_t)slot;
    pay_money(cx, p, tile_cost(g, ind, level));
    g->pend.coal_left = lv->coal;
    g->pend.iron_left = lv->iron;
    resources_continue(cx);
}

/* A new mine connected to a merchant location, and every new iron works, sell cubes to the
   market, most expensive empty slot first; emptied tiles flip (ruling 12). */
static void sell_to_market(Ctx *cx, int slot, int is_coal) {
    BirminghamGame *g = cx->g;
    BirminghamSlot *t = &g->slots[slot];
    uint8_t *market = is_coal ? &g->coal_market : &g->iron_market;
    int cap = is_coal ? BT_COAL_CAPACITY : BT_IRON_CAPACITY;
    const uint8_t *prices = is_coal ? BT_COAL_PRICES : BT_IRON_PRICES;
    int sold = 0, earned = 0;
    while (t->cubes > 0 && *market < cap) {
        earned += prices[cap - *market - 1];
        (*market)++;
        t->cubes--;
        sold++;
    }
    if (!sold) return;
    emit(cx, EV_MARKET_SALE, t->owner, slot, sold, gain_money(g, t->owner, earned));
    if (t->cubes == 0) flip_tile(cx, slot);
}

void build_finish(Ctx *cx) {
    BirminghamGame *g = cx->g;
    int p = g->current, ind = g->pend.industry, slot = g->pend.slot, level = level_of(g, ind);
    BirminghamSlot *t = &g->slots[slot];
    t->owner = (int8_t)p;
    t->industry = (uint8_t)ind;
    t->level = (uint8_t)level;
    t->flipped = 0;
    if (ind == IND_BREWERY) t->cubes = g->era == ERA_CANAL ? 1 : 2; /* ruling 5 */
    else t->cubes = BT_LEVELS[ind][level - 1].produces;
    g->players[p].mat_taken[ind]++;
    emit(cx, EV_BUILD, p, slot, ind, level);
    if (ind == IND_COAL) {
        Board b;
        board_analyse(g, p, &b);
        if (merchant_reachable(&b, 1u << BT_SLOT_LOCATION[slot])) sell_to_market(cx, slot, 1);
    } else if (ind == IND_IRON) {
        sell_to_market(cx, slot, 0);
    }
    action_done(cx);
}
