/* Shared internals of the Pittsburgh ruleset (not part of any public API). */
#ifndef PGH_INTERNAL_H
#define PGH_INTERNAL_H

#include "common/rng.h"
#include "pittsburgh.h"

#define PGH_MAGIC 0x53534152u
#define PGH_FORMAT_VERSION 1
/* 2: shuffles, reveals and playouts draw from the shared generator (common/rng.c) */
#define PGH_RULES_EDITION 2
#define PGH_POSITION_FORMAT "brass-position/1"
#define PGH_POSITION_MAX_CHARS 65536
#define PGH_RULESET_ID 1

_Static_assert(sizeof(PghHeader) == 20, "common header layout");
_Static_assert(sizeof(PghPlayer) == 84, "PghPlayer has no hidden padding");
_Static_assert(sizeof(PghPending) == 88, "PghPending has no hidden padding");
_Static_assert(sizeof(PittsburghGame) == 1072, "PittsburghGame has no hidden padding");
_Static_assert(offsetof(PittsburghGame, undo) % 4 == 0, "brass_hash masks the undo mark in one word");
_Static_assert(sizeof(PittsburghGame) % 8 == 0 && sizeof(PittsburghGame) <= 2048, "state size");
_Static_assert(PGH_MAX_LOCS <= 32 && PGH_MAX_SPACES <= 64 && PGH_MAX_RAILS <= 64 && PGH_MAX_POSITIONS <= 32, "masks");

/* One call's context: the game, its tables and where events go. */
typedef struct {
    PittsburghGame *g;
    const PghTables *T;
    BrassEventLog *log;
} PCtx;

/* Connectivity and sources, computed once per question (P16, P18, P19). */
typedef struct {
    uint8_t comp[PGH_MAX_LOCS];        /* rail-connected component of each location */
    uint8_t cubes[PGH_MAX_LOCS][4];    /* per component: cubes on unflipped tiles by type */
    uint8_t train[PGH_MAX_LOCS][PGH_NUM_CUBES]; /* per component: the player's train cargo */
    uint8_t oil[PGH_MAX_LOCS];         /* per component: barrels reachable via pipelines */
    uint32_t network;                  /* locations of the player's network */
    uint32_t net_comps;                /* components holding a network location */
    uint8_t presence;                  /* the player has a tile or link on the board */
    uint8_t player;
    /* answers a legal list needs for many candidates, worked out once for the question
       (pgh_memo_answers; zero from pgh_pboard: not known yet, each asker works it out) */
    uint8_t build_cards_known, develop_known, develop_payable, target_known;
    uint8_t link_known;                /* 1: link_reasons of a first link, 2: of a second */
    uint8_t accessible_known;
    uint8_t explain;                   /* 1: a refusal's reason is asked for, not only legality */
    uint32_t build_decided;            /* positions whose build_positions bit is worked out */
    uint32_t build_positions;          /* where the build card's tile can go (legality only) */
    uint32_t accessible;               /* pgh_accessible_positions of the player */
    uint8_t link_reasons[PGH_MAX_LINK_TYPES];
    uint32_t build_cards;              /* card types in hand a build is possible with */
    uint32_t target;                   /* pgh_target_comps of the pending action */
} PBoard;

static inline int opt(const PittsburghGame *g, int o) { return g->options[o]; }
static inline int is_train_kind(const PghTables *T, int lt) { return T->link_types[lt].kind != LK_PIPE; }
static inline int bit32(uint32_t m, int i) { return (int)((m >> i) & 1u); }

/* pgh_board.c: connectivity, networks, income track, mat accessibility */
void pgh_pboard(const PittsburghGame *g, int player, PBoard *b); /* the last board is kept per thread */
int pgh_level_of(const PittsburghGame *g, int space);
int pgh_player_level(const PittsburghGame *g, int p);
int pgh_income_after_levels(const PittsburghGame *g, int space, int levels); /* new space */
void pgh_income_up(PittsburghGame *g, int p, int spaces);
int pgh_position_accessible(const PittsburghGame *g, int p, int pos);
int pgh_board_accessible(const PittsburghGame *g, const PBoard *b, int pos); /* the same, for the seat to act */
uint32_t pgh_accessible_positions(const PittsburghGame *g, int p);
void pgh_mat_take(PCtx *cx, int p, int pos); /* take the top tile; release unlocked links */
int pgh_rail_closed(const PittsburghGame *g, int rail);
int pgh_loc_closed(const PittsburghGame *g, int loc);
int pgh_empty_positions(const PittsburghGame *g, int p);

/* effects (pgh_board.c) */
void pgh_pemit(PCtx *cx, int type, int seat, int a, int b, int c);
void pgh_gain_whiskey(PittsburghGame *g, int p, int n);
void pgh_gain_reward(PCtx *cx, int p, const PghReward *r);
void pgh_spend(PittsburghGame *g, int p, int money);
void pgh_flip_space(PCtx *cx, int space);
int pgh_tile_vp(const PittsburghGame *g, int owner, int tile);

/* pgh_resources.c: cube and barrel sourcing (P19-P24, P27-P28) */
int pgh_mincost(const PittsburghGame *g, const PBoard *b, int cube, int n, uint32_t comps,
            int market_less); /* money for n cubes delivered to one place in `comps` (merged);
                                 -1 when impossible (oil); market_less: a market index whose
                                 column counts one cube less, or -1 */
int pgh_need_cost(const PittsburghGame *g, const PBoard *b, const uint8_t need[PGH_NUM_CUBES],
              uint32_t comps); /* all of need[], or -1 */
/* pgh_need_cost of one need[] asked for place after place: the last few answers are kept
   (places in the same components cost the same); zero-initialised before the first */
typedef struct {
    uint32_t comps[4];
    int cost[4];
    int next;
} PCostCache;
int pgh_need_cost_cached(PCostCache *cache, const PittsburghGame *g, const PBoard *b,
                         const uint8_t need[PGH_NUM_CUBES], uint32_t comps);
int pgh_target_comps(const PittsburghGame *g, const PBoard *b, uint32_t *comps); /* of pend */
uint32_t pgh_develop_comps(const PittsburghGame *g, const PBoard *b);
int pgh_loc_icons(const PittsburghGame *g, int loc);
int pgh_card_allows(const PittsburghGame *g, const PBoard *b, int card, int tile, int action);
int pgh_build_any(const PittsburghGame *g, const PBoard *b, int card);
uint32_t pgh_buildable_cards(const PittsburghGame *g, const PBoard *b, uint32_t cards, int any);
uint32_t pgh_buildable_positions(const PittsburghGame *g, const PBoard *b, int card, int stop_after,
                                 uint32_t *decided);
int pgh_source_reason(const PittsburghGame *g, const PBoard *b, int action);
void pgh_source_apply(PCtx *cx, int action);
int pgh_market_sells(const PghTables *T, int m, int cube, int *col);
/* P22 market_header_squares_are_slots: the printed columns, or one more (header) slot on top */
static inline int pgh_market_slots(const PittsburghGame *g, int m, int col) {
    return pgh_T(g)->markets[m].slots[col] + (opt(g, OPT_market_header_squares_are_slots) == 1);
}
static inline int pgh_market_slot_vp(const PittsburghGame *g, int m, int col, int slot) {
    if (opt(g, OPT_market_header_squares_are_slots) == 1) slot--;
    return slot >= 0 && slot < PGH_MAX_SLOT_DEPTH ? pgh_T(g)->markets[m].slot_vp[col][slot] : 0;
}

/* pgh_build.c */
int pgh_build_place_reason(const PittsburghGame *g, const PBoard *b, int card, int pos, int place,
                       int check_card);
int pgh_build_position_reason(const PittsburghGame *g, const PBoard *b, int card, int pos);
int pgh_build_card_reason(const PittsburghGame *g, const PBoard *b, int card);
int pgh_build_action_reason(const PittsburghGame *g, const PBoard *b);
void pgh_build_choose_place(PCtx *cx, int place);
void pgh_build_after_pay(PCtx *cx);
int pgh_market_sale_remaining(const PittsburghGame *g, const PBoard *b);
int pgh_market_sale_reason(const PittsburghGame *g, const PBoard *b, int m);
void pgh_market_sale_apply(PCtx *cx, int m);
void pgh_build_finish_market(PCtx *cx);

/* pgh_network.c */
int pgh_link_type_reason(const PittsburghGame *g, const PBoard *b, int lt, int second);
void pgh_link_type_reasons(const PittsburghGame *g, const PBoard *b, int second, int stop_after,
                           uint8_t out[PGH_MAX_LINK_TYPES]);
int pgh_link_route_reason(const PittsburghGame *g, const PBoard *b, int lt, int action, int second);
void pgh_link_choose_type(PCtx *cx, int lt);
void pgh_link_place(PCtx *cx, int action);
void pgh_network_after_pay(PCtx *cx);
void pgh_score_rail(PCtx *cx, int rail);

/* pgh_oil.c */
void pgh_oil_add_route(PCtx *cx, int pipe, int reserve);
void pgh_oil_reveal(PCtx *cx, int field, int player);

/* pgh_develop.c */
int pgh_develop_reason(const PittsburghGame *g, const PBoard *b, int pos, int free_develop);
int pgh_develop_cube_reason(const PittsburghGame *g, const PBoard *b, int cube);
int pgh_develop_payable(const PittsburghGame *g, const PBoard *b); /* iron or steel affordable */
void pgh_develop_after_pay(PCtx *cx);
void pgh_free_develop_apply(PCtx *cx, int pos);
int pgh_any_free_develop(const PittsburghGame *g);

/* pgh_sell.c */
int pgh_sell_tile_reason(const PittsburghGame *g, const PBoard *b, int space);
int pgh_sell_merchant_reason(const PittsburghGame *g, const PBoard *b, int space, int ms);
int pgh_any_sell(const PittsburghGame *g, const PBoard *b);
void pgh_sell_choose_tile(PCtx *cx, int space);
void pgh_sell_choose_merchant(PCtx *cx, int ms);
void pgh_sell_rewards(PCtx *cx);
int pgh_quality_reason(const PittsburghGame *g, int slot);
int pgh_any_quality(const PittsburghGame *g);
void pgh_quality_claim(PCtx *cx, int slot);
void pgh_sell_flip(PCtx *cx);

/* pgh_loan_pass.c */
int pgh_loan_reason(const PittsburghGame *g);
void pgh_take_loan(PCtx *cx);
void pgh_take_pass(PCtx *cx);

/* pgh_era.c */
void pgh_action_done(PCtx *cx);
void pgh_round_end(PCtx *cx);
void pgh_era_end(PCtx *cx);
void pgh_deal_to(PittsburghGame *g, int p, int n);
void pgh_shuffle_deck(PittsburghGame *g);
void pgh_reset_pending(PittsburghGame *g);
void pgh_start_seat(PittsburghGame *g);

/* pgh_setup.c */
int pgh_setup(PittsburghGame *g, int players, int set, const uint8_t *options, uint64_t seed);

/* pgh_tables.c: the names of the position format (writer, reader and validation) */
enum PghNameKind {
    PN_CARD, PN_POSITION, PN_SPACE, PN_RAIL, PN_PIPE, PN_LINK_TYPE, PN_LOC, PN_FIELD, PN_MTILE, PN_FTILE,
    PN_QTILE, PN_TILE, PN_MSPACE, PN_MARKET, PN_PHASE, PN_STAGE, PN_ACTION_TYPE, PN_CUBE, PN_FIELD_STATE, PN_NUM
};
int pgh_name_count(const PghTables *T, int kind);
const char *pgh_name(const PghTables *T, int kind, int i); /* NULL out of range */

/* pgh_decision.c */
int pgh_phase_reason(const PittsburghGame *g, const PBoard *b, int action);
void pgh_memo_answers(const PittsburghGame *g, PBoard *b, int stop_after);
void pgh_advance(PCtx *cx);
int pgh_legal_list(const PittsburghGame *g, uint16_t *out, int cap);
void pgh_apply_legal(PittsburghGame *g, int action, BrassEventLog *log, int resolve_forced);
int pgh_action_type_reason(const PittsburghGame *g, const PBoard *b, int type);

#endif
