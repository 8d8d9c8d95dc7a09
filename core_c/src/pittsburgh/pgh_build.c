/* Build (P31-P42): card, tile, space / upgrade / oilfield, payment, output, market sale on
   build, tiles that enter flipped, the Skyscraper's bonus sell, Locomotive Works' develops. */
#include "pgh_internal.h"

static int place_loc(const PghTables *T, int action) {
    return action < PGA_OILFIELD ? T->spaces[action - PGA_SPACE].loc : PGH_NONE;
}

/* P31, P35, P39: does the discarded card allow this build without whiskey? */
int pgh_card_allows(const PittsburghGame *g, const PBoard *b, int card, int tile, int action) {
    const PghTables *T = pgh_T(g);
    const PghCardType *ct = &T->cards[card];
    const PghTile *t = &T->tiles[tile];
    if (t->build == BK_OILFIELD) {
        if (ct->kind != CK_INDUSTRY || ct->target != PI_KEROSENE) return 0;
        return opt(g, OPT_oil_city_card) == 0 || ct->oil_city;
    }
    int loc = place_loc(T, action);
    if (ct->kind == CK_LOCATION) return ct->target == loc;
    if (t->build == BK_UPGRADE) {
        int old = T->tiles[g->spaces[action - PGA_SPACE].tile].industry;
        switch (opt(g, OPT_upgrade_card_industry)) {
        case 0: return ct->target == old || ct->target == t->industry;
        case 1: return ct->target == old;
        case 2: return ct->target == t->industry;
        default: return 0;
        }
    }
    return ct->target == t->industry && (bit32(b->network, loc) || !b->presence);
}

static int has_own_tile_in(const PittsburghGame *g, int p, int loc) {
    const PghLocation *L = &pgh_T(g)->locs[loc];
    for (int s = L->first_space; s < L->first_space + L->num_spaces; s++)
        if (g->spaces[s].owner == p) return 1;
    return 0;
}

/* Option birmingham_overbuild (P36, off by default): Birmingham's overbuilding. A tile may
   replace one of the same industry and a lower level: any of your own, or an opponent's coal
   or iron & steel tile when no cube it produces is left on any unflipped tile or in any
   market. The old tile leaves the game (it scores nothing, its cubes go back to the supply). */
static int overbuild_allowed(const PittsburghGame *g, int p, int s, const PghTile *t) {
    const PghTables *T = pgh_T(g);
    const PghSpace *sp = &g->spaces[s];
    const PghTile *old = &T->tiles[sp->tile];
    if (opt(g, OPT_birmingham_overbuild) != 1 || t->build != BK_SPACE || old->build != BK_SPACE) return 0;
    if (old->industry != t->industry || t->level <= old->level) return 0;
    if (sp->owner == p) return 1;
    if (t->industry != PI_COAL && t->industry != PI_IRON_STEEL) return 0;
    for (int k = 0; k < 2; k++) {
        int cube = old->prod_cube[k];
        if (cube >= CUBE_OIL) continue;
        for (int o = 0; o < T->num_spaces; o++) {
            const PghSpace *x = &g->spaces[o];
            if (x->owner < 0 || x->flipped) continue;
            for (int j = 0; j < 2; j++)
                if (T->tiles[x->tile].prod_cube[j] == cube && x->cubes[j]) return 0;
        }
        for (int m = 0; m < T->num_markets; m++) {
            int col;
            if (pgh_market_sells(T, m, cube, &col) && g->market_fill[m][col]) return 0;
        }
    }
    return 1;
}

/* Everything about placing tile `pos` at `action` (a space or an oilfield) but the cubes'
   cost: *money is what it costs in money, *comps where its cubes go (0: nothing left to
   check; an overbuild works its cubes out here, on the board without the old tile). */
static int place_checks(const PittsburghGame *g, const PBoard *b, int card, int pos, int action, int check_card,
                        int *money, uint32_t *comps) {
    const PghTables *T = pgh_T(g);
    *comps = 0;
    int p = g->h.current, tile = T->positions[pos].tile;
    const PghTile *t = &T->tiles[tile];
    const PghPlayer *pl = &g->players[p];
    int loc = PGH_NONE, overbuild = 0;
    if (t->build == BK_OILFIELD) {
        if (action < PGA_OILFIELD || action >= PGA_OILFIELD + T->num_fields) return PR_WRONG_DECISION;
        int f = action - PGA_OILFIELD;
        if (g->fields[f].oc_owner >= 0) return PR_OILFIELD_TAKEN;
        int ok = 0;
        for (int q = 0; q < T->num_pipes && !ok; q++) {
            if (T->pipes[q].field != f || g->pipes[q].owner < 0) continue;
            switch (opt(g, OPT_oil_city_requires)) {
            case 0: ok = bit32(b->network, T->pipes[q].loc); break;
            case 1: ok = g->pipes[q].owner == p; break;
            default: ok = 1; break;
            }
        }
        if (!ok) return PR_NO_PIPELINE_TO_NETWORK;
    } else {
        if (action < PGA_SPACE || action >= PGA_SPACE + T->num_spaces) return PR_WRONG_DECISION;
        int s = action - PGA_SPACE;
        const PghSpace *sp = &g->spaces[s];
        loc = T->spaces[s].loc;
        if (t->build == BK_UPGRADE) {
            if (sp->owner < 0) return PR_NOT_AN_UPGRADE_TARGET;
            if (sp->owner != p) return PR_NOT_YOUR_TILE;
            if (!sp->flipped || T->tiles[sp->tile].industry != t->upgrade_of) return PR_NOT_AN_UPGRADE_TARGET;
            if (opt(g, OPT_upgrade_ignores_space_icon) == 1 &&
                (t->industry >= PGH_NUM_BOARD_ICONS || !(T->spaces[s].icons & (1u << t->industry))))
                return PR_SPACE_WRONG_ICON;
        } else {
            overbuild = sp->owner >= 0;
            if (overbuild && !overbuild_allowed(g, p, s, t)) return PR_SLOT_OCCUPIED;
            if (t->industry >= PGH_NUM_BOARD_ICONS) return PR_SPACE_WRONG_ICON;
            unsigned icon = 1u << t->industry;
            if (!(T->spaces[s].icons & icon)) return PR_SPACE_WRONG_ICON;
            if (!overbuild && T->spaces[s].icons != icon) { /* P33: a free single-icon space comes first */
                const PghLocation *L = &T->locs[loc];
                for (int o = L->first_space; o < L->first_space + L->num_spaces; o++)
                    if (g->spaces[o].owner < 0 && T->spaces[o].icons == icon) return PR_SINGLE_ICON_SPACE_FIRST;
            }
            if (g->h.era == 0 && sp->owner != p && has_own_tile_in(g, p, loc)) return PR_ONE_TILE_PER_LOCATION;
        }
    }
    if (check_card && pl->whiskey == 0 && !pgh_card_allows(g, b, card, tile, action))
        return PR_CARD_DOES_NOT_ALLOW;
    if (t->income_levels < 0) {
        int down = -t->income_levels;
        if (opt(g, OPT_income_cost_unit) == 0) {
            if (pgh_income_after_levels(g, pl->income_space, down) < 0) return PR_INCOME_TOO_LOW;
        } else if (pl->income_space < down || pgh_level_of(g, pl->income_space - down) < T->min_level) {
            return PR_INCOME_TOO_LOW;
        }
    }
    int cost = t->money, lv = pgh_player_level(g, p);
    if (t->flip_money_x_income && lv < 0 && opt(g, OPT_polyphase_negative_income) == 1)
        cost += -t->flip_money_x_income * lv; /* paid when it enters flipped */
    if (cost > pl->money) return PR_NOT_ENOUGH_MONEY;
    *money = cost;
    if (overbuild) { /* the old tile (and its cubes) leaves before the cubes are sourced */
        PittsburghGame after = *g;
        memset(&after.spaces[action - PGA_SPACE], 0, sizeof after.spaces[0]);
        after.spaces[action - PGA_SPACE].owner = -1;
        PBoard ab;
        pgh_pboard(&after, p, &ab);
        int c = pgh_need_cost(&after, &ab, t->cost, 1u << ab.comp[loc]);
        if (c < 0) return PR_NO_OIL;
        return cost + c > pl->money ? PR_NOT_ENOUGH_MONEY : PR_LEGAL;
    }
    if (loc != PGH_NONE) *comps = 1u << b->comp[loc];
    return PR_LEGAL;
}

/* Everything about placing tile `pos` at `action` except the card; check_card adds it
   (whiskey makes any card do). cache: NULL, or the cube costs of this tile's earlier places. */
static int place_reason(PCostCache *cache, const PittsburghGame *g, const PBoard *b, int card, int pos, int action,
                        int check_card) {
    int money;
    uint32_t comps;
    int r = place_checks(g, b, card, pos, action, check_card, &money, &comps);
    if (r != PR_LEGAL || !comps) return r;
    const uint8_t *need = pgh_T(g)->tiles[pgh_T(g)->positions[pos].tile].cost;
    int c = cache ? pgh_need_cost_cached(cache, g, b, need, comps) : pgh_need_cost(g, b, need, comps);
    if (c < 0) return PR_NO_OIL;
    return money + c > g->players[g->h.current].money ? PR_NOT_ENOUGH_MONEY : PR_LEGAL;
}

int pgh_build_place_reason(const PittsburghGame *g, const PBoard *b, int card, int pos, int action,
                           int check_card) {
    return place_reason(NULL, g, b, card, pos, action, check_card);
}

/* Location cards of `cards` (a mask) by the location they name. */
static void location_cards(const PghTables *T, uint32_t cards, uint32_t loc_cards[PGH_MAX_LOCS]) {
    memset(loc_cards, 0, sizeof(uint32_t) * PGH_MAX_LOCS);
    for (uint32_t m = cards; m; m &= m - 1) {
        const PghCardType *ct = &T->cards[__builtin_ctz(m)];
        if (ct->kind == CK_LOCATION && ct->target < PGH_MAX_LOCS) loc_cards[ct->target] |= m & -m;
    }
}

/* The card types of `cards` with which the tile of accessible position `pos` can be built
   somewhere (`any`: the first found will do). Whiskey makes every card do. The card and the
   cheap parts of the place are checked before the payment, which costs more to work out. */
static uint32_t position_cards(const PittsburghGame *g, const PBoard *b, int pos, uint32_t cards,
                               const uint32_t loc_cards[PGH_MAX_LOCS], int any) {
    const PghTables *T = pgh_T(g);
    int p = g->h.current, tile = T->positions[pos].tile;
    const PghPlayer *pl = &g->players[p];
    const PghTile *t = &T->tiles[tile];
    if (!(t->era_mask & (1u << g->h.era)) || t->money > pl->money) return 0;
    uint32_t found = 0, industry_cards = 0; /* pgh_card_allows on a free space: the industry's cards */
    for (uint32_t m = cards; m; m &= m - 1) {
        const PghCardType *ct = &T->cards[__builtin_ctz(m)];
        if (ct->kind != CK_LOCATION && ct->target == t->industry) industry_cards |= m & -m;
    }
    PCostCache cache = {0};
    int lo = t->build == BK_OILFIELD ? PGA_OILFIELD : PGA_SPACE;
    int hi = t->build == BK_OILFIELD ? PGA_OILFIELD + T->num_fields : PGA_SPACE + T->num_spaces;
    for (int a = lo; a < hi; a++) {
        uint32_t allow = cards & ~found;
        if (t->build == BK_SPACE) { /* the space must show the industry (P32) */
            int s = a - PGA_SPACE, loc = T->spaces[s].loc;
            if (t->industry >= PGH_NUM_BOARD_ICONS || !(T->spaces[s].icons & (1u << t->industry))) continue;
            if (!pl->whiskey) allow &= loc_cards[loc] | (bit32(b->network, loc) || !b->presence ? industry_cards : 0);
        } else {
            if (t->build == BK_UPGRADE) { /* a flipped tile of one's own (P35) */
                const PghSpace *sp = &g->spaces[a - PGA_SPACE];
                if (sp->owner != p || !sp->flipped) continue;
            }
            if (!pl->whiskey)
                for (uint32_t m = allow; m; m &= m - 1)
                    if (!pgh_card_allows(g, b, __builtin_ctz(m), tile, a)) allow &= ~(m & -m);
        }
        if (!allow || place_reason(&cache, g, b, PGH_NONE, pos, a, 0) != PR_LEGAL) continue;
        found |= allow;
        if (any || found == cards) break;
    }
    return found;
}

static uint32_t accessible_of(const PittsburghGame *g, const PBoard *b) {
    return b->accessible_known ? b->accessible : pgh_accessible_positions(g, g->h.current);
}

/* The card types of `cards` (a mask) with which a build is possible somewhere; `any`: stop
   at the first. */
uint32_t pgh_buildable_cards(const PittsburghGame *g, const PBoard *b, uint32_t cards, int any) {
    uint32_t found = 0, loc_cards[PGH_MAX_LOCS];
    location_cards(pgh_T(g), cards, loc_cards);
    for (uint32_t acc = accessible_of(g, b); acc; acc &= acc - 1) {
        found |= position_cards(g, b, __builtin_ctz(acc), cards & ~found, loc_cards, any);
        if (found && (any || found == cards)) return found;
    }
    return found;
}

/* The positions whose tile can be built with this card (where pgh_build_position_reason is
   PR_LEGAL), in ascending order up to the stop_after-th (0: all); *decided: the positions
   whose answer that is. */
uint32_t pgh_buildable_positions(const PittsburghGame *g, const PBoard *b, int card, int stop_after,
                                 uint32_t *decided) {
    uint32_t found = 0, loc_cards[PGH_MAX_LOCS];
    int n = 0;
    *decided = ~0u;
    location_cards(pgh_T(g), 1u << card, loc_cards);
    for (uint32_t acc = accessible_of(g, b); acc; acc &= acc - 1) {
        if (!position_cards(g, b, __builtin_ctz(acc), 1u << card, loc_cards, 1)) continue;
        found |= acc & -acc;
        if (++n == stop_after) {
            *decided = (acc & -acc) | ((acc & -acc) - 1); /* this one and all below */
            break;
        }
    }
    return found;
}

/* A build with this card (PGH_NONE: any card in hand) is possible somewhere. */
int pgh_build_any(const PittsburghGame *g, const PBoard *b, int card) {
    uint32_t cards = 0;
    if (card != PGH_NONE) cards = 1u << card;
    else
        for (int c = 0; c < pgh_T(g)->num_card_types; c++)
            if (g->players[g->h.current].hand[c]) cards |= 1u << c;
    return pgh_buildable_cards(g, b, cards, 1) != 0;
}

/* An option above the place decision (the action type, a card, a tile) that no place
   completes is refused with the reason of its best candidate, the one that got furthest
   through the checks, the lowest on a tie: Birmingham's rule (docs/DECISIONS.md). The order
   is place_checks' with the card first, as the card names the places (P31); 0: no candidate's
   reason (a free single-icon space comes first: that space is the candidate, P33). */
static int refusal_rank(int reason) {
    switch (reason) {
    case PR_NO_TILES_LEFT: return 1;
    case PR_NOT_ACCESSIBLE: return 2;
    case PR_WRONG_ERA: return 3;
    case PR_CARD_DOES_NOT_ALLOW: return 4;
    case PR_SLOT_OCCUPIED: case PR_NOT_YOUR_TILE: case PR_OILFIELD_TAKEN: return 5;
    case PR_NOT_AN_UPGRADE_TARGET: case PR_NO_PIPELINE_TO_NETWORK: return 6;
    case PR_SPACE_WRONG_ICON: return 7;
    case PR_ONE_TILE_PER_LOCATION: return 8;
    case PR_INCOME_TOO_LOW: return 9;
    case PR_NO_OIL: return 10;
    case PR_NOT_ENOUGH_MONEY: return 11;
    default: return 0;
    }
}

static int better_reason(int a, int b) { return refusal_rank(b) > refusal_rank(a) ? b : a; }

/* A place as a candidate of a tile: the card first, then the place (whiskey makes any card
   do). PR_LEGAL exactly where place_reason with the card is. */
static int candidate_reason(PCostCache *cache, const PittsburghGame *g, const PBoard *b, int card, int pos,
                            int action) {
    if (!g->players[g->h.current].whiskey && !pgh_card_allows(g, b, card, pgh_T(g)->positions[pos].tile, action))
        return PR_CARD_DOES_NOT_ALLOW;
    return place_reason(cache, g, b, card, pos, action, 0);
}

int pgh_build_position_reason(const PittsburghGame *g, const PBoard *b, int card, int pos) {
    const PghTables *T = pgh_T(g);
    int p = g->h.current;
    if (pos >= T->num_positions || !g->players[p].mat_left[pos]) return PR_NO_TILES_LEFT;
    if (!pgh_board_accessible(g, b, pos)) return PR_NOT_ACCESSIBLE;
    const PghTile *t = &T->tiles[T->positions[pos].tile];
    if (!(t->era_mask & (1u << g->h.era))) return PR_WRONG_ERA;
    int lo = t->build == BK_OILFIELD ? PGA_OILFIELD : PGA_SPACE;
    int hi = t->build == BK_OILFIELD ? PGA_OILFIELD + T->num_fields : PGA_SPACE + T->num_spaces;
    int best = PR_NO_SPACE;
    PCostCache cache = {0};
    for (int a = lo; a < hi; a++) {
        /* no candidates: a space without the industry's icon (P32), an empty one for an
           upgrade (P35) */
        if (t->build == BK_SPACE &&
            (t->industry >= PGH_NUM_BOARD_ICONS || !(T->spaces[a - PGA_SPACE].icons & (1u << t->industry))))
            continue;
        if (t->build == BK_UPGRADE && g->spaces[a - PGA_SPACE].owner < 0) continue;
        int r = candidate_reason(&cache, g, b, card, pos, a);
        if (r == PR_LEGAL) return PR_LEGAL;
        best = better_reason(best, r);
    }
    return best == PR_NO_SPACE && t->build == BK_UPGRADE ? PR_NOT_AN_UPGRADE_TARGET : best;
}

/* Why no tile can be built with `card`: its best position's reason. */
static int card_best_reason(const PittsburghGame *g, const PBoard *b, int card) {
    int best = PR_NO_OPTION;
    for (int pos = 0; pos < pgh_T(g)->num_positions; pos++)
        best = better_reason(best, pgh_build_position_reason(g, b, card, pos));
    return refusal_rank(best) ? best : PR_CARD_DOES_NOT_ALLOW;
}

int pgh_build_card_reason(const PittsburghGame *g, const PBoard *b, int card) {
    int ok = b->build_cards_known ? bit32(b->build_cards, card) : pgh_build_any(g, b, card);
    if (ok) return PR_LEGAL;
    return b->explain ? card_best_reason(g, b, card) : PR_CARD_DOES_NOT_ALLOW;
}

/* The Build action type: the best candidate over the cards held. */
int pgh_build_action_reason(const PittsburghGame *g, const PBoard *b) {
    if (pgh_build_any(g, b, PGH_NONE)) return PR_LEGAL;
    int best = PR_NO_OPTION;
    for (int c = 0; c < pgh_T(g)->num_card_types && b->explain; c++)
        if (g->players[g->h.current].hand[c]) best = better_reason(best, card_best_reason(g, b, c));
    return best;
}

/* The tile leaves the mat, the card (or whiskey) and the money and income are paid, an
   upgraded tile scores and leaves (P35); then the cubes are sourced. */
void pgh_build_choose_place(PCtx *cx, int action) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    PghPending *pd = &g->pend;
    int p = g->h.current, tile = T->positions[pd->position].tile;
    const PghTile *t = &T->tiles[tile];
    PghPlayer *pl = &g->players[p];
    PBoard b;
    pgh_pboard(g, p, &b);
    if (!pgh_card_allows(g, &b, pd->card, tile, action)) {
        pl->whiskey--;
        pd->whiskey_build = 1;
        pgh_pemit(cx, PE_WHISKEY, p, -1, 0, 0);
    }
    pgh_mat_take(cx, p, pd->position);
    pgh_spend(g, p, t->money);
    if (t->income_levels < 0) {
        int down = -t->income_levels;
        pl->income_space = (uint8_t)(opt(g, OPT_income_cost_unit) == 0
                                         ? pgh_income_after_levels(g, pl->income_space, down)
                                         : pl->income_space - down);
    }
    pd->place = (uint8_t)action;
    memcpy(pd->need, t->cost, sizeof pd->need);
    if (t->build == BK_OILFIELD) {
        pd->target_loc = PGH_NONE;
    } else {
        int s = action - PGA_SPACE;
        pd->target_loc = T->spaces[s].loc;
        PghSpace *sp = &g->spaces[s];
        if (t->build == BK_UPGRADE) {
            int vp = pgh_tile_vp(g, p, sp->tile);
            pl->vp = (int16_t)(pl->vp + vp);
            pgh_pemit(cx, PE_UPGRADE_SCORE, p, s, sp->tile, vp);
            memset(sp, 0, sizeof *sp);
            sp->owner = -1;
        } else if (sp->owner >= 0) { /* option birmingham_overbuild: the old tile leaves the game */
            pgh_pemit(cx, PE_TILE_REMOVED, sp->owner, s, sp->tile, 0);
            memset(sp, 0, sizeof *sp);
            sp->owner = -1;
        }
    }
    pd->stage = ST_PAY;
}

/* P38-P42: the tile goes down with its output; sale to markets follows. */
void pgh_build_after_pay(PCtx *cx) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    PghPending *pd = &g->pend;
    int p = g->h.current, tile = T->positions[pd->position].tile;
    const PghTile *t = &T->tiles[tile];
    if (t->build == BK_OILFIELD) {
        PghField *f = &g->fields[pd->place - PGA_OILFIELD];
        int n = t->prod_cube[0] == CUBE_OIL ? t->prod_n[0] : 0;
        f->oc_owner = (int8_t)p;
        f->oc_barrels = (uint8_t)(n + (t->oil_city_plus_field ? f->barrels : 0));
        if (t->oil_city_plus_field) f->barrels = 0;
        f->oc_flipped = 0;
        pgh_pemit(cx, PE_BUILD, p, pd->place, tile, 0);
        pd->stage = ST_BUILD_AFTER;
        return;
    }
    int s = pd->place - PGA_SPACE;
    PghSpace *sp = &g->spaces[s];
    sp->owner = (int8_t)p;
    sp->tile = (uint8_t)tile;
    sp->flipped = 0;
    sp->cubes[0] = t->prod_cube[0] < CUBE_OIL ? t->prod_n[0] : 0;
    sp->cubes[1] = t->prod_cube[1] < CUBE_OIL ? t->prod_n[1] : 0;
    pgh_pemit(cx, PE_BUILD, p, s, tile, 0);
    if (t->enters_flipped) pgh_flip_space(cx, s);
    pd->sale_cube = 0;
    pd->sale_last_market = 0;
    int sells = t->industry == PI_COAL || t->industry == PI_IRON_STEEL || t->industry == PI_COKE;
    pd->stage = sells && (sp->cubes[0] || sp->cubes[1]) ? ST_BUILD_MARKET : ST_BUILD_AFTER;
}

static int sale_cube_type(const PittsburghGame *g, int *k) {
    const PghSpace *sp = &g->spaces[g->pend.place - PGA_SPACE];
    *k = g->pend.sale_cube;
    return pgh_T(g)->tiles[sp->tile].prod_cube[*k];
}

static int market_free(const PittsburghGame *g, const PBoard *b, int m, int cube, int loc) {
    const PghTables *T = pgh_T(g);
    int col;
    if (!pgh_market_sells(T, m, cube, &col) || b->comp[T->markets[m].loc] != b->comp[loc]) return 0;
    return pgh_market_slots(g, m, col) - g->market_fill[m][col];
}

/* Cubes of the current output type still to move into markets (the maximum, P38). */
int pgh_market_sale_remaining(const PittsburghGame *g, const PBoard *b) {
    const PghTables *T = pgh_T(g);
    int k, cube = sale_cube_type(g, &k);
    if (k > 1 || cube >= CUBE_OIL) return 0;
    int s = g->pend.place - PGA_SPACE, loc = T->spaces[s].loc, free_slots = 0;
    for (int m = 0; m < T->num_markets; m++) free_slots += market_free(g, b, m, cube, loc);
    int left = g->spaces[s].cubes[k];
    return left < free_slots ? left : free_slots;
}

/* Canonical order: markets in ascending id, and a choice must leave the maximum possible. */
int pgh_market_sale_reason(const PittsburghGame *g, const PBoard *b, int m) {
    const PghTables *T = pgh_T(g);
    if (m >= T->num_markets) return PR_WRONG_DECISION;
    int k, cube = sale_cube_type(g, &k), col;
    if (!pgh_market_sells(T, m, cube, &col)) return PR_WRONG_CUBE;
    int loc = T->spaces[g->pend.place - PGA_SPACE].loc;
    if (b->comp[T->markets[m].loc] != b->comp[loc]) return PR_NOT_CONNECTED;
    if (!market_free(g, b, m, cube, loc)) return PR_MARKET_FULL;
    if (m < g->pend.sale_last_market) return PR_CANONICAL_ORDER;
    int after = 0;
    for (int o = m; o < T->num_markets; o++) after += market_free(g, b, o, cube, loc);
    return after >= pgh_market_sale_remaining(g, b) ? PR_LEGAL : PR_CANONICAL_ORDER;
}

void pgh_market_sale_apply(PCtx *cx, int m) {
    PittsburghGame *g = cx->g;
    const PghTables *T = cx->T;
    int p = g->h.current, k, cube = sale_cube_type(g, &k), col = 0;
    pgh_market_sells(T, m, cube, &col);
    int slot = g->market_fill[m][col];
    int vp = pgh_market_slot_vp(g, m, col, slot);
    g->market_fill[m][col]++;
    g->spaces[g->pend.place - PGA_SPACE].cubes[k]--;
    PghPlayer *pl = &g->players[p];
    pl->money = (int16_t)(pl->money + T->markets[m].price);
    pl->vp = (int16_t)(pl->vp + vp);
    g->pend.sale_last_market = (uint8_t)m;
    pgh_pemit(cx, PE_MARKET_SALE, p, m, cube, T->markets[m].price);
}

/* After the sale: a tile left with no cubes flips now (P38). */
void pgh_build_finish_market(PCtx *cx) {
    PittsburghGame *g = cx->g;
    int s = g->pend.place - PGA_SPACE;
    PghSpace *sp = &g->spaces[s];
    if (!sp->flipped && !sp->cubes[0] && !sp->cubes[1]) pgh_flip_space(cx, s);
}
