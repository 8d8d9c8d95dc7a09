/* The decision model: which ids are legal now (and why not), and applying one. */
#include "bham_internal.h"

static int in_range(int action, int base, int count) { return action >= base && action < base + count; }

/* How far a refused option got through its checks, in the order the rules code makes them
   (build_slot_reason, develop_reason, link_reason, sell_tile_reason; each order is a sub-
   sequence of this one). An option unavailable because none of its candidates below works
   (an action type, a build card or industry) is refused with the reason of the candidate
   that got furthest: the lowest one on a tie. 0: no candidate's reason (e.g. "use the
   single-icon slot first" defers to that slot). */
static int refusal_rank(int reason) {
    switch (reason) {
    case R_NO_TILES_LEFT: return 1;
    case R_TILE_WRONG_ERA: case R_LIGHTBULB_POTTERY: return 2;
    case R_LINK_TAKEN: return 3;
    case R_LINK_WRONG_ERA: return 4;
    case R_NO_LINK_TILES: return 5;
    case R_FARM_NEEDS_INDUSTRY_CARD: case R_CARD_DOES_NOT_ALLOW: case R_NOT_IN_NETWORK:
    case R_LINK_NOT_IN_NETWORK: return 6;
    case R_NO_MERCHANT_ACCEPTS: return 7;
    case R_SLOT_OCCUPIED: case R_CANNOT_OVERBUILD: return 8;
    case R_NOT_CONNECTED_TO_MERCHANT: return 9;
    case R_CANAL_ONE_TILE_PER_TOWN: return 10;
    case R_NO_CONNECTED_COAL: return 11;
    case R_NO_BEER: return 12;
    case R_NOT_ENOUGH_MONEY: return 13;
    default: return 0;
    }
}

int better_reason(int a, int b) { return refusal_rank(b) > refusal_rank(a) ? b : a; }

/* Can the acting player complete at least one action of this type? */
static int action_type_reason(const BirminghamGame *g, const Board *b, int type) {
    const BirminghamPlayer *pl = &g->players[g->current];
    if (!pl->hand_size) return R_NOT_ENOUGH_CARDS;
    switch (type) {
    case ACT_BUILD: return build_action_reason(g, b);
    case ACT_NETWORK: {
        int best = R_NO_OPTION;
        for (uint64_t open = b->open_links; open; open &= open - 1) {
            int r = link_reason(g, b, __builtin_ctzll(open), 0);
            if (r == R_LEGAL) return R_LEGAL;
            best = better_reason(best, r);
        }
        return best;
    }
    case ACT_DEVELOP: {
        int best = R_NO_OPTION;
        for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++) {
            int r = develop_reason(g, b, i, 0);
            if (r == R_LEGAL) return R_LEGAL;
            best = better_reason(best, r);
        }
        return best;
    }
    case ACT_SELL: { /* flipped and unsellable tiles are no candidates (rank 0) */
        int best = R_NO_OPTION;
        for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
            if (g->slots[s].owner != g->current) continue;
            int r = sell_tile_reason(g, b, s);
            if (r == R_LEGAL) return R_LEGAL;
            best = better_reason(best, r);
        }
        return best;
    }
    case ACT_LOAN: return loan_reason(g);
    case ACT_SCOUT: return scout_reason(g);
    default: return R_LEGAL; /* pass */
    }
}

static int any_free_develop(const BirminghamGame *g, const Board *b) {
    for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++)
        if (develop_reason(g, b, i, 1) == R_LEGAL) return 1;
    return 0;
}

/* The one place that says whether `action` is a legal option of the current decision. */
int phase_reason(const BirminghamGame *g, const Board *b, int action) {
    const BirminghamPlayer *pl = &g->players[g->current];
    switch (g->phase) {
    case PH_ACTION:
        if (!in_range(action, A_ACTION_TYPE, NUM_ACT_TYPES)) return R_WRONG_DECISION;
        return action_type_reason(g, b, action - A_ACTION_TYPE);
    case PH_CARD: {
        if (!in_range(action, A_CARD, BHAM_NUM_CARD_TYPES)) return R_WRONG_DECISION;
        int card = action - A_CARD;
        if (!pl->hand[card]) return R_CARD_NOT_IN_HAND;
        if (g->pend.action == ACT_BUILD) return build_card_reason(g, b, card);
        if (g->pend.action == ACT_SCOUT) return scout_card_reason(g, card, 2);
        return R_LEGAL;
    }
    case PH_SCOUT_CARD:
        if (!in_range(action, A_CARD, BHAM_NUM_CARD_TYPES)) return R_WRONG_DECISION;
        return scout_card_reason(g, action - A_CARD, 2 - g->pend.scout_picked);
    case PH_BUILD_INDUSTRY:
        if (!in_range(action, A_INDUSTRY, BHAM_NUM_INDUSTRIES)) return R_WRONG_DECISION;
        return build_industry_reason(g, b, g->pend.card, action - A_INDUSTRY);
    case PH_BUILD_SLOT:
        if (!in_range(action, A_SLOT, BHAM_NUM_SLOTS)) return R_WRONG_DECISION;
        return build_slot_reason(g, b, g->current, g->pend.card, g->pend.industry, action - A_SLOT);
    case PH_COAL: return coal_source_reason(g, b, action);
    case PH_IRON: return iron_source_reason(g, b, action);
    case PH_BEER: return beer_source_reason(g, b, action);
    case PH_LINK:
    case PH_SECOND_RAIL:
        if (action == A_DONE) return g->phase == PH_SECOND_RAIL ? R_LEGAL : R_MUST_CHOOSE;
        if (!in_range(action, A_LINK, BHAM_NUM_LINKS)) return R_WRONG_DECISION;
        return link_reason(g, b, action - A_LINK, g->phase == PH_SECOND_RAIL);
    case PH_DEVELOP:
        if (action == A_DONE) return g->pend.count >= 1 ? R_LEGAL : R_MUST_CHOOSE;
        if (!in_range(action, A_INDUSTRY, BHAM_NUM_INDUSTRIES)) return R_WRONG_DECISION;
        return develop_reason(g, b, action - A_INDUSTRY, 0);
    case PH_SELL_TILE:
        if (action == A_DONE) return g->pend.count >= 1 ? R_LEGAL : R_MUST_CHOOSE;
        if (!in_range(action, A_SLOT, BHAM_NUM_SLOTS)) return R_WRONG_DECISION;
        return sell_tile_reason(g, b, action - A_SLOT);
    case PH_SELL_MERCHANT:
        if (!in_range(action, A_MERCHANT, BHAM_NUM_MERCHANT_SPACES)) return R_WRONG_DECISION;
        return sell_merchant_reason(g, b, g->pend.slot, action - A_MERCHANT);
    case PH_FREE_DEVELOP:
        if (action == A_DONE) return R_LEGAL;
        if (!in_range(action, A_INDUSTRY, BHAM_NUM_INDUSTRIES)) return R_WRONG_DECISION;
        return develop_reason(g, b, action - A_INDUSTRY, 1);
    case PH_SHORTFALL:
        if (!in_range(action, A_SLOT, BHAM_NUM_SLOTS)) return R_WRONG_DECISION;
        return shortfall_reason(g, action - A_SLOT);
    default: return R_WRONG_DECISION;
    }
}

/* Ids worth asking phase_reason about in each decision, by range (a filter for speed only:
   phase_reason alone decides). Ranges are listed in ascending id order. */
typedef struct {
    int lo, hi;     /* a plain id range */
    uint32_t cards; /* card types held */
    uint64_t slots, links;
    uint8_t market, merchants, done;
} Candidates;

static void candidates(const BirminghamGame *g, const Board *b, Candidates *c) {
    memset(c, 0, sizeof *c);
    const BirminghamPlayer *pl = &g->players[g->current];
    switch (g->phase) {
    case PH_ACTION: c->lo = A_ACTION_TYPE; c->hi = A_CARD; break;
    case PH_CARD:
    case PH_SCOUT_CARD:
        for (int k = 0; k < BHAM_NUM_CARD_TYPES; k++)
            if (pl->hand[k]) c->cards |= 1u << k;
        break;
    case PH_BUILD_INDUSTRY: c->lo = A_INDUSTRY; c->hi = A_SLOT; break;
    case PH_DEVELOP:
    case PH_FREE_DEVELOP: c->lo = A_INDUSTRY; c->hi = A_SLOT; c->done = 1; break;
    case PH_BUILD_SLOT: c->slots = build_mask(g, b, g->pend.industry); break;
    case PH_SHORTFALL: c->slots = b->own_slots; break;
    case PH_SELL_TILE: c->slots = b->own_slots; c->done = 1; break;
    case PH_COAL: c->slots = b->industry_slots[IND_COAL] & b->cube_slots; c->market = 1; break;
    case PH_IRON: c->slots = b->industry_slots[IND_IRON] & b->cube_slots; c->market = 1; break;
    case PH_BEER:
        c->slots = b->industry_slots[IND_BREWERY] & b->cube_slots;
        c->merchants = 1;
        break;
    case PH_LINK:
    case PH_SECOND_RAIL: c->links = b->open_links; c->done = 1; break;
    case PH_SELL_MERCHANT: c->merchants = 1; break;
    default: break;
    }
}

#define PUSH_IF_LEGAL(id)                                   \
    do {                                                    \
        if (phase_reason(g, &b, (id)) == R_LEGAL) {         \
            if (n >= cap) return -BRASS_E_BUFFER;           \
            out[n++] = (uint16_t)(id);                      \
        }                                                   \
    } while (0)

int legal_into(const BirminghamGame *g, uint16_t *out, int cap) {
    if (g->game_over) return 0;
    Board b;
    /* choosing the card of a non-build action, or Scout's cards, needs no board facts */
    int cards_only = g->phase == PH_SCOUT_CARD || (g->phase == PH_CARD && g->pend.action != ACT_BUILD);
    if (cards_only) memset(&b, 0, sizeof b);
    else board_analyse(g, g->current, &b);
    Candidates c;
    candidates(g, &b, &c);
    int n = 0;
    for (int a = c.lo; a < c.hi; a++) PUSH_IF_LEGAL(a);
    for (uint32_t m = c.cards; m; m &= m - 1) PUSH_IF_LEGAL(A_CARD + __builtin_ctz(m));
    for (uint64_t m = c.slots; m; m &= m - 1) PUSH_IF_LEGAL(A_SLOT + __builtin_ctzll(m));
    for (uint64_t m = c.links; m; m &= m - 1) PUSH_IF_LEGAL(A_LINK + __builtin_ctzll(m));
    if (c.market) PUSH_IF_LEGAL(A_MARKET);
    if (c.merchants)
        for (int k = 0; k < BHAM_NUM_MERCHANT_SPACES; k++) PUSH_IF_LEGAL(A_MERCHANT + k);
    if (c.done) PUSH_IF_LEGAL(A_DONE);
    return n;
}

/* Apply an id already known to be legal. */
int apply_unchecked(Ctx *cx, int action) {
    BirminghamGame *g = cx->g;
    int p = g->current;
    switch (g->phase) {
    case PH_ACTION:
        g->pend.action = (uint8_t)(action - A_ACTION_TYPE);
        g->phase = PH_CARD;
        break;
    case PH_CARD: {
        int card = action - A_CARD;
        discard_card(cx, p, card);
        g->pend.card = (uint8_t)card;
        emit(cx, EV_ACTION, p, g->pend.action, card, 0);
        switch (g->pend.action) {
        case ACT_BUILD: g->phase = PH_BUILD_INDUSTRY; break;
        case ACT_NETWORK: g->phase = PH_LINK; break;
        case ACT_DEVELOP: g->phase = PH_DEVELOP; break;
        case ACT_SELL: g->phase = PH_SELL_TILE; break;
        case ACT_LOAN: take_loan(cx); action_done(cx); break;
        case ACT_SCOUT:
            g->pend.scout_picked = 1;
            g->pend.last_choice = (uint8_t)card;
            g->phase = PH_SCOUT_CARD;
            break;
        default: emit(cx, EV_PASS, p, 0, 0, 0); action_done(cx); break;
        }
        break;
    }
    case PH_SCOUT_CARD:
        discard_card(cx, p, action - A_CARD);
        g->pend.last_choice = (uint8_t)(action - A_CARD);
        if (++g->pend.scout_picked == 3) {
            scout_take_wilds(cx);
            action_done(cx);
        }
        break;
    case PH_BUILD_INDUSTRY:
        g->pend.industry = (uint8_t)(action - A_INDUSTRY);
        g->phase = PH_BUILD_SLOT;
        break;
    case PH_BUILD_SLOT: build_choose_slot(cx, action - A_SLOT); break;
    case PH_COAL: pay_coal(cx, action); break;
    case PH_IRON: pay_iron(cx, action); break;
    case PH_BEER: pay_beer(cx, action); break;
    case PH_LINK:
    case PH_SECOND_RAIL:
        if (action == A_DONE) action_done(cx);
        else network_place(cx, action - A_LINK);
        break;
    case PH_DEVELOP:
        if (action == A_DONE) action_done(cx);
        else develop_choose(cx, action - A_INDUSTRY);
        break;
    case PH_SELL_TILE:
        if (action == A_DONE) {
            action_done(cx);
        } else {
            g->pend.slot = (uint8_t)(action - A_SLOT);
            g->phase = PH_SELL_MERCHANT;
        }
        break;
    case PH_SELL_MERCHANT: sell_choose_merchant(cx, action - A_MERCHANT); break;
    case PH_FREE_DEVELOP:
        if (action == A_DONE) g->phase = PH_SELL_TILE;
        else free_develop(cx, action - A_INDUSTRY);
        break;
    case PH_SHORTFALL: shortfall_remove(cx, action - A_SLOT); break;
    default: return BRASS_E_ILLEGAL;
    }
    g->decisions++;
    /* the Gloucester bonus is skipped when nothing can be developed */
    if (g->phase == PH_FREE_DEVELOP) {
        Board b;
        board_analyse(g, g->current, &b);
        if (!any_free_develop(g, &b)) g->phase = PH_SELL_TILE;
    }
    return BRASS_OK;
}

/* May a single-option decision of this kind be applied automatically? Not the action type
   nor the cards: whether those are forced depends on the hand, and resolving them at once
   would tell the other seats something about it. Every later step depends only on public
   facts (the card played is face up). */
int bham_forced_step_public(const BirminghamGame *g) {
    return g->phase != PH_ACTION && g->phase != PH_CARD && g->phase != PH_SCOUT_CARD;
}

void auto_resolve(Ctx *cx) {
    /* room for two options: listing stops at a third (-BRASS_E_BUFFER), as Pittsburgh's
       legal_upto: only "exactly one" matters here */
    uint16_t opts[2];
    while (!cx->g->game_over && bham_forced_step_public(cx->g)) {
        int n = legal_into(cx->g, opts, 2);
        if (n != 1) break;
        apply_unchecked(cx, opts[0]);
    }
}

int bham_reason(const BirminghamGame *g, int action) {
    Board b;
    board_analyse(g, g->current, &b);
    b.explain = 1;
    return phase_reason(g, &b, action);
}

void bham_apply_legal(BirminghamGame *g, int action, BrassEventLog *log, int resolve_forced) {
    Ctx cx = {g, log};
    apply_unchecked(&cx, action);
    if (resolve_forced && g->auto_resolve) auto_resolve(&cx);
}

/* Where one action ends: the next action begins, another seat decides, or the game ends. */
int bham_action_ended(const BirminghamGame *after, const BirminghamGame *before) {
    if (after->game_over || after->phase == PH_ACTION || after->phase == PH_SHORTFALL) return 1;
    return after->current != before->current || after->actions_left != before->actions_left ||
           after->era != before->era || after->round != before->round;
}

/* The sane policy: no loan (nor pass) while another action type is legal. */
int bham_sane_options(const BirminghamGame *g, const uint16_t *opts, int n, uint16_t *keep) {
    int m = 0;
    if (g->phase != PH_ACTION) return 0;
    for (int i = 0; i < n; i++)
        if (opts[i] != A_ACTION_TYPE + ACT_LOAN && opts[i] != A_ACTION_TYPE + ACT_PASS)
            keep[m++] = opts[i];
    return m;
}
