/* The decision model (docs/PITTSBURGH.md): which ids are legal now (and why not), applying
   one, and running the action on until the next decision. */
#include "pgh_internal.h"

static int in(int a, int base, int n) { return a >= base && a < base + n; }

int pgh_action_type_reason(const PittsburghGame *g, const PBoard *b, int type) {
    const PghTables *T = pgh_T(g);
    if (!g->players[g->h.current].hand_size) return PR_NOT_ENOUGH_CARDS;
    switch (type) {
    case PA_BUILD: return pgh_build_action_reason(g, b);
    case PA_NETWORK: {
        int first = PR_NO_LINK_TILES;
        uint8_t reasons[PGH_MAX_LINK_TYPES];
        pgh_link_type_reasons(g, b, 0, 1, reasons);
        for (int lt = 0; lt < T->num_link_types; lt++) {
            int r = reasons[lt];
            if (r == PR_LEGAL) return r;
            if (r != PR_NO_LINK_TILES) first = r;
        }
        return first;
    }
    case PA_DEVELOP: {
        int first = PR_NO_TILES_LEFT;
        for (int pos = 0; pos < T->num_positions; pos++) {
            int r = pgh_develop_reason(g, b, pos, 0);
            if (r == PR_LEGAL) return r;
            if (r == PR_NOT_ENOUGH_MONEY) first = r;
        }
        return first;
    }
    case PA_SELL: return pgh_any_sell(g, b) ? PR_LEGAL : PR_NO_OPTION;
    case PA_LOAN: return pgh_loan_reason(g);
    default: return PR_LEGAL;
    }
}

int pgh_phase_reason(const PittsburghGame *g, const PBoard *b, int a) {
    const PghTables *T = pgh_T(g);
    const PghPending *pd = &g->pend;
    const PghPlayer *pl = &g->players[g->h.current];
    switch (g->h.phase) {
    case PP_ACTION:
        if (!in(a, PGA_TYPE, PGH_NUM_ACT_TYPES)) return PR_WRONG_DECISION;
        return pgh_action_type_reason(g, b, a - PGA_TYPE);
    case PP_CARD:
        if (!in(a, PGA_CARD, T->num_card_types)) return PR_WRONG_DECISION;
        if (!pl->hand[a - PGA_CARD]) return PR_CARD_NOT_IN_HAND;
        return pd->action == PA_BUILD ? pgh_build_card_reason(g, b, a - PGA_CARD) : PR_LEGAL;
    case PP_BUILD_POSITION:
        if (!in(a, PGA_POSITION, T->num_positions)) return PR_WRONG_DECISION;
        return pgh_build_position_reason(g, b, pd->card, a - PGA_POSITION);
    case PP_BUILD_PLACE:
        if (!in(a, PGA_SPACE, T->num_spaces) && !in(a, PGA_OILFIELD, T->num_fields)) return PR_WRONG_DECISION;
        return pgh_build_place_reason(g, b, pd->card, pd->position, a, 1);
    case PP_COAL: case PP_IRON: case PP_STEEL: case PP_COKE: case PP_OIL:
        return pgh_source_reason(g, b, a);
    case PP_MARKET_SALE:
        if (a == PGA_DONE) return opt(g, OPT_market_sale_on_build) == 1 ? PR_LEGAL : PR_MUST_CHOOSE;
        if (!in(a, PGA_MARKET, T->num_markets)) return PR_WRONG_DECISION;
        return pgh_market_sale_reason(g, b, a - PGA_MARKET);
    case PP_LINK_TYPE: case PP_SECOND_LINK:
        if (a == PGA_DONE) return g->h.phase == PP_SECOND_LINK ? PR_LEGAL : PR_MUST_CHOOSE;
        if (!in(a, PGA_LINK_TYPE, T->num_link_types)) return PR_WRONG_DECISION;
        return pgh_link_type_reason(g, b, a - PGA_LINK_TYPE, g->h.phase == PP_SECOND_LINK);
    case PP_LINK_ROUTE:
        if (!in(a, PGA_RAIL, T->num_rails) && !in(a, PGA_PIPE, T->num_pipes)) return PR_WRONG_DECISION;
        return pgh_link_route_reason(g, b, pd->link_type, a, 0);
    case PP_DEVELOP:
        if (a == PGA_DONE) return pd->count ? PR_LEGAL : PR_MUST_CHOOSE;
        if (!in(a, PGA_POSITION, T->num_positions)) return PR_WRONG_DECISION;
        return pgh_develop_reason(g, b, a - PGA_POSITION, 0);
    case PP_DEVELOP_CUBE:
        if (!in(a, PGA_CUBE, PGH_NUM_CUBES)) return PR_WRONG_DECISION;
        return pgh_develop_cube_reason(g, b, a - PGA_CUBE);
    case PP_FREE_DEVELOP:
        if (a == PGA_DONE) return PR_LEGAL;
        if (!in(a, PGA_POSITION, T->num_positions)) return PR_WRONG_DECISION;
        return pgh_develop_reason(g, b, a - PGA_POSITION, 1);
    case PP_SELL_TILE:
        if (a == PGA_DONE) return pd->count ? PR_LEGAL : PR_MUST_CHOOSE;
        if (!in(a, PGA_SPACE, T->num_spaces)) return PR_WRONG_DECISION;
        return pgh_sell_tile_reason(g, b, a - PGA_SPACE);
    case PP_SELL_MERCHANT:
        if (!in(a, PGA_MERCHANT, T->num_mspaces)) return PR_WRONG_DECISION;
        return pgh_sell_merchant_reason(g, b, pd->sell_space, a - PGA_MERCHANT);
    case PP_QUALITY:
        if (a == PGA_DONE) return PR_LEGAL;
        if (!in(a, PGA_QUALITY, T->num_qslots)) return PR_WRONG_DECISION;
        return pgh_quality_reason(g, a - PGA_QUALITY);
    case PP_BONUS_SELL:
        return a == PGA_BONUS_SELL || a == PGA_DONE ? PR_LEGAL : PR_WRONG_DECISION;
    default: return PR_WRONG_DECISION;
    }
}

/* Ids worth asking about now, ascending: all that can be legal, and cheap necessary
   conditions of pgh_phase_reason leave out most of the others (a filter for speed only). */
static int candidates(const PittsburghGame *g, const PBoard *b, uint16_t *out) {
    const PghTables *T = pgh_T(g);
    const PghPending *pd = &g->pend;
    int n = 0, p = g->h.current;
#define RANGE(base, count) do { for (int a_ = (base); a_ < (base) + (count); a_++) out[n++] = (uint16_t)a_; } while (0)
    switch (g->h.phase) {
    case PP_ACTION: RANGE(PGA_TYPE, PGH_NUM_ACT_TYPES); break;
    case PP_CARD: /* a card in hand */
        for (int c = 0; c < T->num_card_types; c++)
            if (g->players[p].hand[c]) out[n++] = (uint16_t)(PGA_CARD + c);
        break;
    case PP_BUILD_POSITION: RANGE(PGA_POSITION, T->num_positions); break;
    case PP_BUILD_PLACE: {
        const PghTile *t = &T->tiles[T->positions[pd->position].tile];
        if (t->build == BK_OILFIELD) {
            RANGE(PGA_OILFIELD, T->num_fields);
            break;
        }
        for (int s = 0; s < T->num_spaces; s++) {
            const PghSpace *sp = &g->spaces[s];
            if (t->build == BK_UPGRADE ? sp->owner == p && sp->flipped /* P35: one's own flipped tile */
                                       : t->industry < PGH_NUM_BOARD_ICONS &&
                                             (T->spaces[s].icons & (1u << t->industry))) /* P32 */
                out[n++] = (uint16_t)(PGA_SPACE + s);
        }
        break;
    }
    case PP_COAL: case PP_IRON: case PP_STEEL: case PP_COKE: case PP_OIL: {
        int cube = g->h.phase - PP_COAL;
        if (cube != CUBE_OIL)
            for (int s = 0; s < T->num_spaces; s++) { /* an unflipped tile with this cube on it */
                const PghSpace *sp = &g->spaces[s];
                if (sp->owner < 0 || sp->flipped) continue;
                const PghTile *t = &T->tiles[sp->tile];
                int k = t->prod_cube[0] == cube ? 0 : t->prod_cube[1] == cube ? 1 : -1;
                if (k >= 0 && sp->cubes[k]) out[n++] = (uint16_t)(PGA_SPACE + s);
            }
        for (int r = 0; r < T->num_rails; r++) /* one's own train with this cargo */
            if (g->rails[r].owner == p && g->rails[r].cargo && T->link_types[g->rails[r].link_type].cargo_cube == cube)
                out[n++] = (uint16_t)(PGA_RAIL + r);
        if (cube == CUBE_OIL) {
            for (int q = 0; q < T->num_pipes; q++)
                if (g->pipes[q].owner >= 0) out[n++] = (uint16_t)(PGA_PIPE + q);
            for (int q = 0; q < T->num_pipes; q++)
                if (g->pipes[q].owner >= 0) out[n++] = (uint16_t)(PGA_PIPE_CITY + q);
        } else {
            RANGE(PGA_MARKET, T->num_markets);
        }
        RANGE(PGA_VANDERBILT, 1);
        break;
    }
    case PP_MARKET_SALE: RANGE(PGA_MARKET, T->num_markets); RANGE(PGA_DONE, 1); break;
    case PP_LINK_TYPE: case PP_SECOND_LINK: RANGE(PGA_LINK_TYPE, T->num_link_types); RANGE(PGA_DONE, 1); break;
    case PP_LINK_ROUTE: /* P43: next to one's network (once there is one) */
        if (T->link_types[pd->link_type].kind != LK_PIPE) {
            for (int r = 0; r < T->num_rails; r++)
                if (!b->presence || bit32(b->network, T->rails[r].a) || bit32(b->network, T->rails[r].b))
                    out[n++] = (uint16_t)(PGA_RAIL + r);
        } else {
            for (int q = 0; q < T->num_pipes; q++)
                if (!b->presence || bit32(b->network, T->pipes[q].loc)) out[n++] = (uint16_t)(PGA_PIPE + q);
        }
        break;
    case PP_DEVELOP: case PP_FREE_DEVELOP: /* an accessible position (pgh_memo_answers knows them) */
        for (uint32_t m = b->accessible; m; m &= m - 1)
            out[n++] = (uint16_t)(PGA_POSITION + __builtin_ctz(m));
        RANGE(PGA_DONE, 1);
        break;
    case PP_DEVELOP_CUBE: RANGE(PGA_CUBE, PGH_NUM_CUBES); break;
    case PP_SELL_TILE: /* one's own tile */
        for (int s = 0; s < T->num_spaces; s++)
            if (g->spaces[s].owner == p) out[n++] = (uint16_t)(PGA_SPACE + s);
        RANGE(PGA_DONE, 1);
        break;
    case PP_SELL_MERCHANT: RANGE(PGA_MERCHANT, T->num_mspaces); break;
    case PP_QUALITY: RANGE(PGA_QUALITY, T->num_qslots); RANGE(PGA_DONE, 1); break;
    case PP_BONUS_SELL: RANGE(PGA_BONUS_SELL, 2); break;
    default: break;
    }
#undef RANGE
    return n;
}

/* What many candidates of this decision ask, worked out once (the same answers). */
void pgh_memo_answers(const PittsburghGame *g, PBoard *b, int stop_after) {
    const PghPlayer *pl = &g->players[g->h.current];
    int ph = g->h.phase;
    if (ph == PP_ACTION || (ph == PP_CARD && g->pend.action == PA_BUILD) || ph == PP_BUILD_POSITION ||
        ph == PP_DEVELOP || ph == PP_FREE_DEVELOP) {
        b->accessible = pgh_accessible_positions(g, g->h.current);
        b->accessible_known = 1;
    }
    switch (ph) {
    case PP_CARD:
        if (g->pend.action != PA_BUILD) break;
        b->build_cards = 0;
        for (int c = 0; c < pgh_T(g)->num_card_types; c++)
            if (pl->hand[c]) b->build_cards |= 1u << c;
        b->build_cards = pgh_buildable_cards(g, b, b->build_cards, 0);
        b->build_cards_known = 1;
        break;
    case PP_ACTION:
        if (!pl->hand_size) break;
        /* fall through */
    case PP_DEVELOP:
        b->develop_payable = (uint8_t)pgh_develop_payable(g, b);
        b->develop_known = 1;
        break;
    case PP_BUILD_POSITION:
        b->build_positions = pgh_buildable_positions(g, b, g->pend.card, stop_after, &b->build_decided);
        break;
    case PP_LINK_TYPE: case PP_SECOND_LINK:
        pgh_link_type_reasons(g, b, g->h.phase == PP_SECOND_LINK, stop_after, b->link_reasons);
        b->link_known = (uint8_t)(1 + (g->h.phase == PP_SECOND_LINK));
        break;
    case PP_COAL: case PP_IRON: case PP_STEEL: case PP_COKE: case PP_OIL:
        pgh_target_comps(g, b, &b->target);
        b->target_known = 1;
        break;
    default: break;
    }
}

/* Legal ids in ascending order; stop_after > 0 stops counting there (auto-resolve only
   needs to know whether there is exactly one). */
static int legal_upto(const PittsburghGame *g, PBoard *ready, uint16_t *out, int cap, int stop_after) {
    if (g->h.game_over) return 0;
    PBoard own, *b = ready ? ready : &own;
    /* these decisions ask nothing of the board */
    int board_free = (g->h.phase == PP_CARD && g->pend.action != PA_BUILD) || g->h.phase == PP_FREE_DEVELOP ||
                     g->h.phase == PP_QUALITY || g->h.phase == PP_BONUS_SELL;
    if (!ready) { /* else the board of this very state, already worked out */
        if (board_free) memset(b, 0, sizeof *b);
        else pgh_pboard(g, g->h.current, b);
    }
    pgh_memo_answers(g, b, stop_after);
    uint16_t cand[PGH_NUM_ACTIONS];
    int k = candidates(g, b, cand), n = 0;
    for (int i = 0; i < k; i++) {
        /* where only legality is known, the reason is not worked out */
        int legal = g->h.phase == PP_BUILD_POSITION && bit32(b->build_decided, cand[i] - PGA_POSITION)
                        ? bit32(b->build_positions, cand[i] - PGA_POSITION)
                        : pgh_phase_reason(g, b, cand[i]) == PR_LEGAL;
        if (!legal) continue;
        if (n >= cap) return -BRASS_E_BUFFER;
        out[n++] = cand[i];
        if (n == stop_after) return n;
    }
    return n;
}

int pgh_legal_list(const PittsburghGame *g, uint16_t *out, int cap) { return legal_upto(g, NULL, out, cap, 0); }

/* Run the action on until the next decision (or its end). 1 when it stops at a decision
   right after asking *board about it: the legal list that follows may take that board
   (nothing has changed since). */
static int advance(PCtx *cx, PBoard *board) {
    PittsburghGame *g = cx->g;
    PghPending *pd = &g->pend;
    for (;;) {
        if (g->h.game_over) return 0;
        if (pd->free_develops) {
            if (pgh_any_free_develop(g)) {
                if (!pd->free_batch) { /* canonical order within one run of free develops */
                    pd->free_batch = 1;
                    pd->acc_before = pgh_accessible_positions(g, g->h.current);
                }
                g->h.phase = PP_FREE_DEVELOP;
                return 0;
            }
            pd->free_develops = 0;
        }
        pd->free_batch = 0;
        switch (pd->stage) {
        case ST_PAY: {
            int c = 0;
            while (c < PGH_NUM_CUBES && !pd->need[c]) c++;
            if (c < PGH_NUM_CUBES) {
                g->h.phase = (uint8_t)(PP_COAL + c);
                return 0;
            }
            switch (pd->action) {
            case PA_BUILD: pgh_build_after_pay(cx); break;
            case PA_NETWORK: pgh_network_after_pay(cx); break;
            case PA_DEVELOP: pgh_develop_after_pay(cx); break;
            default: pd->stage = ST_SELL_AFTER; break;
            }
            break;
        }
        case ST_BUILD_MARKET:
            if (pd->sale_cube < 2) {
                pgh_pboard(g, g->h.current, board);
                if (pgh_market_sale_remaining(g, board) > 0) {
                    g->h.phase = PP_MARKET_SALE;
                    return 1;
                }
                pd->sale_cube++;
                pd->sale_last_market = 0;
                break;
            }
            pgh_build_finish_market(cx);
            pd->stage = ST_BUILD_AFTER;
            break;
        case ST_BUILD_AFTER:
            if (pd->bonus_sell == 1) {
                pd->bonus_sell = 0;
                pgh_pboard(g, g->h.current, board);
                if (pgh_any_sell(g, board)) {
                    g->h.phase = PP_BONUS_SELL;
                    return 1;
                }
            }
            pd->stage = ST_END;
            break;
        case ST_NET_SECOND:
            if (pd->links_placed == 1) {
                pgh_pboard(g, g->h.current, board);
                uint8_t reasons[PGH_MAX_LINK_TYPES];
                pgh_link_type_reasons(g, board, 1, 1, reasons);
                for (int lt = 0; lt < cx->T->num_link_types; lt++)
                    if (reasons[lt] == PR_LEGAL) {
                        g->h.phase = PP_SECOND_LINK;
                        return 1;
                    }
            }
            pd->stage = ST_END;
            break;
        case ST_DEV_AFTER:
            if (pd->count < 2) {
                pgh_pboard(g, g->h.current, board);
                board->develop_payable = (uint8_t)pgh_develop_payable(g, board);
                board->develop_known = 1;
                board->accessible = pgh_accessible_positions(g, g->h.current);
                board->accessible_known = 1;
                for (int pos = 0; pos < cx->T->num_positions; pos++)
                    if (pgh_develop_reason(g, board, pos, 0) == PR_LEGAL) {
                        g->h.phase = PP_DEVELOP;
                        return 1;
                    }
            }
            pd->stage = ST_END;
            break;
        case ST_SELL_AFTER: {
            int single = pd->bonus_sell == 2 && opt(g, OPT_skyscraper_bonus_sell) == 1;
            if (!single) {
                pgh_pboard(g, g->h.current, board);
                if (pgh_any_sell(g, board)) {
                    g->h.phase = PP_SELL_TILE;
                    return 1;
                }
            }
            pd->stage = ST_SELL_REWARDS;
            break;
        }
        case ST_SELL_REWARDS:
            pgh_sell_rewards(cx);
            pd->stage = ST_SELL_QUALITY;
            break;
        case ST_SELL_QUALITY:
            if (pgh_any_quality(g)) {
                g->h.phase = PP_QUALITY;
                return 0;
            }
            pd->stage = ST_SELL_FLIP;
            break;
        case ST_SELL_FLIP:
            pgh_sell_flip(cx);
            pd->stage = ST_END;
            break;
        default:
            pgh_action_done(cx);
            return 0;
        }
    }
}

/* Apply an id known to be legal. */
/* 1: *board is the board of the state reached (see advance) */
static int apply_one(PCtx *cx, int a, PBoard *board) {
    PittsburghGame *g = cx->g;
    PghPending *pd = &g->pend;
    PghPlayer *pl = &g->players[g->h.current];
    g->decisions++;
    switch (g->h.phase) {
    case PP_ACTION:
        pd->action = (uint8_t)(a - PGA_TYPE);
        g->h.phase = PP_CARD;
        return 0;
    case PP_CARD: {
        int c = a - PGA_CARD;
        pl->hand[c]--;
        pl->hand_size--;
        g->discards[c]++;
        pl->last_discard = (uint8_t)c;
        pd->card = (uint8_t)c;
        pgh_pemit(cx, PE_ACTION, g->h.current, pd->action, c, 0);
        switch (pd->action) {
        case PA_BUILD: g->h.phase = PP_BUILD_POSITION; return 0;
        case PA_NETWORK: g->h.phase = PP_LINK_TYPE; return 0;
        case PA_DEVELOP: g->h.phase = PP_DEVELOP; return 0;
        case PA_SELL: g->h.phase = PP_SELL_TILE; return 0;
        case PA_LOAN: pgh_take_loan(cx); break;
        default: pgh_take_pass(cx); break;
        }
        pd->stage = ST_END;
        break;
    }
    case PP_BUILD_POSITION:
        pd->position = (uint8_t)(a - PGA_POSITION);
        g->h.phase = PP_BUILD_PLACE;
        return 0;
    case PP_BUILD_PLACE: pgh_build_choose_place(cx, a); break;
    case PP_COAL: case PP_IRON: case PP_STEEL: case PP_COKE: case PP_OIL: pgh_source_apply(cx, a); break;
    case PP_MARKET_SALE:
        if (a == PGA_DONE) pd->sale_cube = 2;
        else pgh_market_sale_apply(cx, a - PGA_MARKET);
        break;
    case PP_LINK_TYPE: case PP_SECOND_LINK:
        if (a == PGA_DONE) {
            pd->stage = ST_END;
            break;
        }
        pgh_link_choose_type(cx, a - PGA_LINK_TYPE);
        return 0;
    case PP_LINK_ROUTE: pgh_link_place(cx, a); break;
    case PP_DEVELOP:
        if (a == PGA_DONE) {
            pd->stage = ST_END;
            break;
        }
        if (!pd->count) pd->acc_before = pgh_accessible_positions(g, g->h.current);
        pd->position = (uint8_t)(a - PGA_POSITION);
        g->h.phase = PP_DEVELOP_CUBE;
        return 0;
    case PP_DEVELOP_CUBE:
        memset(pd->need, 0, sizeof pd->need);
        pd->need[a - PGA_CUBE] = 1;
        pd->target_loc = PGH_NONE;
        pd->stage = ST_PAY;
        break;
    case PP_FREE_DEVELOP:
        if (a == PGA_DONE) {
            pd->free_develops = 0;
        } else {
            pgh_free_develop_apply(cx, a - PGA_POSITION);
            pd->free_batch = 2;
            pd->last_position = (uint8_t)(a - PGA_POSITION);
        }
        break;
    case PP_SELL_TILE:
        if (a == PGA_DONE) {
            pd->stage = ST_SELL_REWARDS;
            break;
        }
        pgh_sell_choose_tile(cx, a - PGA_SPACE);
        return 0;
    case PP_SELL_MERCHANT: pgh_sell_choose_merchant(cx, a - PGA_MERCHANT); break;
    case PP_QUALITY:
        if (a != PGA_DONE) pgh_quality_claim(cx, a - PGA_QUALITY);
        pd->stage = ST_SELL_FLIP;
        break;
    case PP_BONUS_SELL:
        if (a == PGA_DONE) {
            pd->stage = ST_END;
            break;
        }
        pd->action = PA_SELL; /* P41: a full Sell with no card, inside this Build */
        pd->bonus_sell = 2;
        pd->stage = ST_NONE;
        pd->count = 0;
        pd->sold = 0;
        pd->merchants_used = 0;
        pd->stars = 0;
        g->h.phase = PP_SELL_TILE;
        return 0;
    default: return 0;
    }
    return advance(cx, board);
}

void pgh_advance(PCtx *cx) {
    PBoard board;
    advance(cx, &board);
}

void pgh_apply_legal(PittsburghGame *g, int action, BrassEventLog *log, int resolve_forced) {
    PCtx cx = {g, pgh_T(g), log};
    PBoard board;
    int ready = apply_one(&cx, action, &board);
    if (!resolve_forced || !g->h.auto_resolve) return;
    /* a decision with one option is taken at once, except the action type and the card:
       whether those are forced depends on the hand, which the other seats must not learn */
    uint16_t opts[PGH_NUM_ACTIONS];
    while (!g->h.game_over && g->h.phase != PP_ACTION && g->h.phase != PP_CARD) {
        if (legal_upto(g, ready ? &board : NULL, opts, PGH_NUM_ACTIONS, 2) != 1) break;
        ready = apply_one(&cx, opts[0], &board);
    }
}
