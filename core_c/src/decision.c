/* The decision model: which ids are legal now (and why not), and applying one. */
#include "internal.h"

static int in_range(int action, int base, int count) { return action >= base && action < base + count; }

/* Can the acting player complete at least one action of this type? */
static int action_type_reason(const BrassGame *g, const Board *b, int type) {
    const BrassPlayer *pl = &g->players[g->current];
    if (!pl->hand_size) return R_NOT_ENOUGH_CARDS;
    switch (type) {
    case ACT_BUILD:
        for (int c = 0; c < BRASS_NUM_CARD_TYPES; c++)
            if (pl->hand[c] && build_card_reason(g, b, c) == R_LEGAL) return R_LEGAL;
        return R_NO_OPTION;
    case ACT_NETWORK: {
        int first = R_NO_OPTION;
        for (int l = 0; l < BRASS_NUM_LINKS; l++) {
            int r = link_reason(g, b, l, 0);
            if (r == R_LEGAL) return R_LEGAL;
            if (r != R_LINK_TAKEN && r != R_LINK_WRONG_ERA && first == R_NO_OPTION) first = r;
        }
        return first;
    }
    case ACT_DEVELOP: {
        int first = R_NO_OPTION;
        for (int i = 0; i < BRASS_NUM_INDUSTRIES; i++) {
            int r = develop_reason(g, b, i, 0);
            if (r == R_LEGAL) return R_LEGAL;
            if (first == R_NO_OPTION) first = r;
        }
        return first;
    }
    case ACT_SELL: {
        int first = R_NO_OPTION;
        for (int s = 0; s < BRASS_NUM_SLOTS; s++) {
            if (g->slots[s].owner != g->current) continue;
            int r = sell_tile_reason(g, b, s);
            if (r == R_LEGAL) return R_LEGAL;
            if (r != R_NOT_SELLABLE && r != R_ALREADY_FLIPPED && first == R_NO_OPTION) first = r;
        }
        return first;
    }
    case ACT_LOAN: return loan_reason(g);
    case ACT_SCOUT: return scout_reason(g);
    default: return R_LEGAL; /* pass */
    }
}

static int any_free_develop(const BrassGame *g, const Board *b) {
    for (int i = 0; i < BRASS_NUM_INDUSTRIES; i++)
        if (develop_reason(g, b, i, 1) == R_LEGAL) return 1;
    return 0;
}

/* The one place that says whether `action` is a legal option of the current decision. */
int phase_reason(const BrassGame *g, const Board *b, int action) {
    const BrassPlayer *pl = &g->players[g->current];
    switch (g->phase) {
    case PH_ACTION:
        if (!in_range(action, A_ACTION_TYPE, NUM_ACT_TYPES)) return R_WRONG_DECISION;
        return action_type_reason(g, b, action - A_ACTION_TYPE);
    case PH_CARD: {
        if (!in_range(action, A_CARD, BRASS_NUM_CARD_TYPES)) return R_WRONG_DECISION;
        int card = action - A_CARD;
        if (!pl->hand[card]) return R_CARD_NOT_IN_HAND;
        if (g->pend.action == ACT_BUILD) return build_card_reason(g, b, card);
        if (g->pend.action == ACT_SCOUT) return scout_card_reason(g, card, 2);
        return R_LEGAL;
    }
    case PH_SCOUT_CARD:
        if (!in_range(action, A_CARD, BRASS_NUM_CARD_TYPES)) return R_WRONG_DECISION;
        return scout_card_reason(g, action - A_CARD, 2 - g->pend.scout_picked);
    case PH_BUILD_INDUSTRY:
        if (!in_range(action, A_INDUSTRY, BRASS_NUM_INDUSTRIES)) return R_WRONG_DECISION;
        return build_industry_reason(g, b, g->pend.card, action - A_INDUSTRY);
    case PH_BUILD_SLOT:
        if (!in_range(action, A_SLOT, BRASS_NUM_SLOTS)) return R_WRONG_DECISION;
        return build_slot_reason(g, b, g->current, g->pend.card, g->pend.industry, action - A_SLOT);
    case PH_COAL: return coal_source_reason(g, b, action);
    case PH_IRON: return iron_source_reason(g, b, action);
    case PH_BEER: return beer_source_reason(g, b, action);
    case PH_LINK:
    case PH_SECOND_RAIL:
        if (action == A_DONE) return g->phase == PH_SECOND_RAIL ? R_LEGAL : R_MUST_CHOOSE;
        if (!in_range(action, A_LINK, BRASS_NUM_LINKS)) return R_WRONG_DECISION;
        return link_reason(g, b, action - A_LINK, g->phase == PH_SECOND_RAIL);
    case PH_DEVELOP:
        if (action == A_DONE) return g->pend.count >= 1 ? R_LEGAL : R_MUST_CHOOSE;
        if (!in_range(action, A_INDUSTRY, BRASS_NUM_INDUSTRIES)) return R_WRONG_DECISION;
        return develop_reason(g, b, action - A_INDUSTRY, 0);
    case PH_SELL_TILE:
        if (action == A_DONE) return g->pend.count >= 1 ? R_LEGAL : R_MUST_CHOOSE;
        if (!in_range(action, A_SLOT, BRASS_NUM_SLOTS)) return R_WRONG_DECISION;
        return sell_tile_reason(g, b, action - A_SLOT);
    case PH_SELL_MERCHANT:
        if (!in_range(action, A_MERCHANT, BRASS_NUM_MERCHANT_SPACES)) return R_WRONG_DECISION;
        return sell_merchant_reason(g, b, g->pend.slot, action - A_MERCHANT);
    case PH_FREE_DEVELOP:
        if (action == A_DONE) return R_LEGAL;
        if (!in_range(action, A_INDUSTRY, BRASS_NUM_INDUSTRIES)) return R_WRONG_DECISION;
        return develop_reason(g, b, action - A_INDUSTRY, 1);
    case PH_SHORTFALL:
        if (!in_range(action, A_SLOT, BRASS_NUM_SLOTS)) return R_WRONG_DECISION;
        return shortfall_reason(g, action - A_SLOT);
    default: return R_WRONG_DECISION;
    }
}

/* Ids worth asking phase_reason about in each decision (a filter for speed only). */
static void candidate_range(const BrassGame *g, int *lo, int *hi, int *done) {
    *done = 0;
    switch (g->phase) {
    case PH_ACTION: *lo = A_ACTION_TYPE; *hi = A_CARD; break;
    case PH_CARD:
    case PH_SCOUT_CARD: *lo = A_CARD; *hi = A_INDUSTRY; break;
    case PH_BUILD_INDUSTRY: *lo = A_INDUSTRY; *hi = A_SLOT; break;
    case PH_DEVELOP:
    case PH_FREE_DEVELOP: *lo = A_INDUSTRY; *hi = A_SLOT; *done = 1; break;
    case PH_BUILD_SLOT:
    case PH_SHORTFALL: *lo = A_SLOT; *hi = A_LINK; break;
    case PH_SELL_TILE: *lo = A_SLOT; *hi = A_LINK; *done = 1; break;
    case PH_COAL:
    case PH_IRON: *lo = A_SLOT; *hi = A_MARKET + 1; break;
    case PH_BEER: *lo = A_SLOT; *hi = A_DONE; break;
    case PH_LINK:
    case PH_SECOND_RAIL: *lo = A_LINK; *hi = A_MARKET; *done = 1; break;
    case PH_SELL_MERCHANT: *lo = A_MERCHANT; *hi = A_DONE; break;
    default: *lo = *hi = 0; break;
    }
}

int legal_into(const BrassGame *g, uint16_t *out, int cap) {
    if (g->game_over) return 0;
    Board b;
    board_analyse(g, g->current, &b);
    int lo, hi, done, n = 0;
    candidate_range(g, &lo, &hi, &done);
    const BrassPlayer *pl = &g->players[g->current];
    int is_payment = g->phase == PH_COAL || g->phase == PH_IRON || g->phase == PH_BEER;
    uint64_t build_slots = g->phase == PH_BUILD_SLOT ? build_mask(g, &b, g->pend.industry) : 0;
    for (int a = lo; a < hi; a++) {
        /* cheap skips: cards not held, slots that cannot matter here */
        if (a >= A_CARD && a < A_INDUSTRY && !pl->hand[a - A_CARD]) continue;
        if (a >= A_SLOT && a < A_LINK) {
            int s = a - A_SLOT;
            if (g->phase == PH_BUILD_SLOT && !(build_slots & (1ull << s))) continue;
            if (g->phase != PH_BUILD_SLOT && g->slots[s].owner < 0) continue;
            if (is_payment && !g->slots[s].cubes) continue;
        }
        if (a >= A_LINK && a < A_MARKET && is_payment) continue;
        if (phase_reason(g, &b, a) == R_LEGAL) {
            if (n >= cap) return -BRASS_E_BUFFER;
            out[n++] = (uint16_t)a;
        }
    }
    if (done && phase_reason(g, &b, A_DONE) == R_LEGAL) {
        if (n >= cap) return -BRASS_E_BUFFER;
        out[n++] = A_DONE;
    }
    return n;
}

/* Apply an id already known to be legal. */
int apply_unchecked(Ctx *cx, int action) {
    BrassGame *g = cx->g;
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

void auto_resolve(Ctx *cx) {
    uint16_t opts[BRASS_NUM_ACTIONS];
    while (!cx->g->game_over) {
        int n = legal_into(cx->g, opts, BRASS_NUM_ACTIONS);
        if (n != 1) break;
        apply_unchecked(cx, opts[0]);
    }
}

int brass_legal(const BrassGame *g, uint16_t *out, int cap) {
    if (!g || !out || cap < 0) return -BRASS_E_BAD_ARGUMENT;
    return legal_into(g, out, cap);
}

int brass_reason(const BrassGame *g, int action) {
    if (!g || action < 0 || action >= BRASS_NUM_ACTIONS) return R_WRONG_DECISION;
    if (g->game_over) return R_WRONG_DECISION;
    Board b;
    board_analyse(g, g->current, &b);
    return phase_reason(g, &b, action);
}

static int check(const BrassGame *g, int seat, int action, int *reason) {
    if (reason) *reason = R_LEGAL;
    if (g->game_over) return BRASS_E_GAME_OVER;
    if (action < 0 || action >= BRASS_NUM_ACTIONS) return BRASS_E_UNKNOWN_ACTION;
    if (seat >= 0 && seat != g->current) return BRASS_E_NOT_YOUR_TURN;
    if (seat < -1 || seat >= g->num_players) return BRASS_E_BAD_ARGUMENT;
    int r = brass_reason(g, action);
    if (r) {
        if (reason) *reason = r;
        return BRASS_E_ILLEGAL;
    }
    return BRASS_OK;
}

int brass_apply(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason) {
    if (!g) return BRASS_E_BAD_ARGUMENT;
    int err = check(g, seat, action, reason);
    if (err) return err;
    Ctx cx = {g, log};
    apply_unchecked(&cx, action);
    if (g->auto_resolve) auto_resolve(&cx);
    return BRASS_OK;
}

/* Where one action ends: the next action begins, another seat decides, or the game ends. */
static int action_boundary(const BrassGame *after, const BrassGame *before) {
    if (after->game_over || after->phase == PH_ACTION || after->phase == PH_SHORTFALL) return 1;
    return after->current != before->current || after->actions_left != before->actions_left ||
           after->era != before->era || after->round != before->round;
}

int brass_apply_sequence(BrassGame *g, int seat, const uint16_t *ids, int n, BrassEventLog *log,
                         int *reason, int *failed_at) {
    if (!g || (!ids && n) || n <= 0) return BRASS_E_BAD_ARGUMENT;
    BrassGame work = *g;
    if (failed_at) *failed_at = 0;
    if (reason) *reason = R_LEGAL;
    uint32_t log_start = log ? log->count : 0;
    for (int i = 0; i < n; i++) {
        BrassGame before = work;
        int err = brass_apply(&work, seat, ids[i], log, reason);
        int boundary = err == BRASS_OK && action_boundary(&work, &before);
        if (err == BRASS_OK && boundary != (i == n - 1)) {
            err = BRASS_E_ILLEGAL;
            if (reason) *reason = boundary ? R_TOO_MANY_DECISIONS : R_INCOMPLETE_ACTION;
        }
        if (err) {
            if (failed_at) *failed_at = i;
            if (log) log->count = log_start;
            return err;
        }
        seat = before.current;
    }
    *g = work;
    return BRASS_OK;
}

typedef struct {
    uint16_t *ids;
    int ids_cap, ids_used;
    uint32_t *offsets;
    int max_actions, count, truncated;
} CompoundOut;

static void compound_dfs(const BrassGame *g, const BrassGame *start, uint16_t *path, int depth,
                         CompoundOut *o) {
    uint16_t opts[BRASS_NUM_ACTIONS];
    int n = legal_into(g, opts, BRASS_NUM_ACTIONS);
    for (int i = 0; i < n && !o->truncated; i++) {
        BrassGame next = *g;
        Ctx cx = {&next, NULL};
        apply_unchecked(&cx, opts[i]);
        if (next.auto_resolve) auto_resolve(&cx);
        path[depth] = opts[i];
        if (action_boundary(&next, start) || depth + 1 >= 32) {
            if (o->count >= o->max_actions || o->ids_used + depth + 1 > o->ids_cap) {
                o->truncated = 1;
                return;
            }
            memcpy(o->ids + o->ids_used, path, (size_t)(depth + 1) * sizeof(uint16_t));
            o->ids_used += depth + 1;
            o->count++;
            o->offsets[o->count] = (uint32_t)o->ids_used;
        } else {
            compound_dfs(&next, start, path, depth + 1, o);
        }
    }
}

int brass_compound_actions(const BrassGame *g, uint16_t *ids, int ids_cap, uint32_t *offsets,
                           int max_actions, int *truncated) {
    if (!g || !ids || !offsets || ids_cap < 0 || max_actions < 0) return -BRASS_E_BAD_ARGUMENT;
    CompoundOut o = {ids, ids_cap, 0, offsets, max_actions, 0, 0};
    uint16_t path[32];
    offsets[0] = 0;
    if (!g->game_over) compound_dfs(g, g, path, 0, &o);
    if (truncated) *truncated = o.truncated;
    return o.count;
}
