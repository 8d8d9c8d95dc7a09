/* Shared internals of the Birmingham ruleset. Not part of the public API. */
#ifndef BRASS_BIRMINGHAM_INTERNAL_H
#define BRASS_BIRMINGHAM_INTERNAL_H

#include <string.h>

#include "birmingham.h"
#include "bham_tables.h"
#include "common/rng.h"

_Static_assert(BT_NUM_LOCATIONS == BHAM_NUM_LOCATIONS, "locations");
_Static_assert(BT_NUM_SLOTS == BHAM_NUM_SLOTS, "slots");
_Static_assert(BT_NUM_LINKS == BHAM_NUM_LINKS, "links");
_Static_assert(BT_NUM_MERCHANT_SPACES == BHAM_NUM_MERCHANT_SPACES, "merchant spaces");
_Static_assert(BT_NUM_CARD_TYPES == BHAM_NUM_CARD_TYPES, "card types");
_Static_assert(BT_NUM_ACTION_NAMES == BHAM_NUM_ACTIONS, "action names");
_Static_assert(sizeof(BirminghamGame) == 648, "BirminghamGame must have no hidden padding");
_Static_assert(offsetof(BirminghamGame, undo) % 4 == 0, "brass_hash masks the undo mark in one word");
_Static_assert(sizeof(BirminghamGame) % 8 == 0 && sizeof(BirminghamGame) <= BRASS_MAX_STATE_SIZE,
               "fits a BrassGame handle");
_Static_assert(BHAM_NUM_ACTIONS <= BRASS_MAX_ACTIONS && BHAM_OBS_SIZE <= BRASS_MAX_OBS_SIZE, "sizes");
/* Birmingham's state begins with the common header (brass.h) */
_Static_assert(sizeof(BrassHeader) == 20, "header size");
_Static_assert(offsetof(BirminghamGame, magic) == offsetof(BrassHeader, magic), "header magic");
_Static_assert(offsetof(BirminghamGame, format_version) == offsetof(BrassHeader, format_version), "header format");
_Static_assert(offsetof(BirminghamGame, rules_edition) == offsetof(BrassHeader, rules_edition), "header edition");
_Static_assert(offsetof(BirminghamGame, ruleset) == offsetof(BrassHeader, ruleset), "header ruleset");
_Static_assert(offsetof(BirminghamGame, num_players) == offsetof(BrassHeader, num_players), "header players");
_Static_assert(offsetof(BirminghamGame, current) == offsetof(BrassHeader, current), "header current");
_Static_assert(offsetof(BirminghamGame, game_over) == offsetof(BrassHeader, game_over), "header game_over");
_Static_assert(sizeof(BirminghamPlayer) == offsetof(BirminghamPlayer, pad_) + sizeof(((BirminghamPlayer *)0)->pad_),
               "BirminghamPlayer must have no hidden padding");

#define MARKET_SOURCE (-1)
#define TOWN_SLOTS_MASK ((1ull << BT_LOCATION_FIRST_SLOT[BT_NUM_TOWNS]) - 1ull)

/* One call's context: the game and where its events go. */
typedef struct {
    BirminghamGame *g;
    BrassEventLog *log;
} Ctx;

/* Facts about the board computed once per legality question. */
typedef struct {
    uint8_t comp[BHAM_NUM_LOCATIONS]; /* connected component of each location (built links) */
    uint8_t comp_coal[BHAM_NUM_LOCATIONS];     /* coal on unflipped mines, per component */
    uint8_t comp_merchant[BHAM_NUM_LOCATIONS]; /* component holds a merchant location */
    uint8_t comp_opp_beer[BHAM_NUM_LOCATIONS]; /* opponents' beer, per component */
    uint32_t network;   /* locations in the acting player's network */
    uint8_t presence;   /* the acting player has a tile or link on the board */
    int board_coal, board_iron, own_beer;
    int player;
    uint64_t empty_slots; /* slots with no tile */
    uint64_t cube_slots;  /* slots whose tile holds coal, iron or beer */
    uint64_t own_slots;   /* slots holding the acting player's tiles */
    uint64_t industry_slots[BHAM_NUM_INDUSTRIES]; /* slots holding a tile of each industry */
    int coal_market_cost[3], iron_cost[3]; /* money for 0..2 cubes from the coal market /
                                              for 0..2 iron (works first, then market) */
    uint8_t own_in_loc[BHAM_NUM_LOCATIONS]; /* the acting player's tiles per location */
    uint64_t open_links;  /* empty routes of this era's kind touching the network (any route
                             when nothing is on the board): the only candidates for a link */
    uint64_t net_slots;   /* slots in locations of the network (all when nothing on board) */
    uint64_t build_mask[BHAM_NUM_INDUSTRIES]; /* slots where a build of each industry could be
                                                  completed with a suitable card (lazy cache) */
    uint8_t build_mask_ready; /* bit i: build_mask[i] computed */
    uint8_t explain;          /* the caller wants why an option is refused, not only whether
                                 (brass_reason); listing legal ids skips the search for it */
} Board;


/* bham_board.c: connectivity and resources */
void board_analyse(const BirminghamGame *g, int player, Board *b);
int location_comp_set(const Board *b, uint32_t touches, uint8_t *comps); /* distinct comps */
int coal_from_mines(const Board *b, uint32_t touches);
int merchant_reachable(const Board *b, uint32_t touches);
int opp_beer_reachable(const Board *b, uint32_t touches);
void coal_distances(const BirminghamGame *g, uint32_t sources, uint8_t *dist);
int market_buy_cost(int cubes, int k, int is_coal);
int coal_money_needed(const BirminghamGame *g, const Board *b, uint32_t touches, int n);
int iron_money_needed(const BirminghamGame *g, const Board *b, int n);
int tile_cost(const BirminghamGame *g, int industry, int level);
int has_presence(const BirminghamGame *g, int player);

/* bham_effects.c: small state changes shared by the rules */
void emit(Ctx *cx, int type, int seat, int a, int b, int c);
void pay_money(Ctx *cx, int player, int amount);
void advance_income(BirminghamGame *g, int player, int spaces);
void flip_tile(Ctx *cx, int slot);
void take_cube(Ctx *cx, int slot);
void discard_card(Ctx *cx, int player, int card);
void remove_tile(BirminghamGame *g, int slot);
#define BRASS_TALLY_MAX 9999 /* money, VP, spending: validate's bound, where play stops */
#define BRASS_ROUND_MAX 255  /* the round counter stops here (uint8) */
int tally_add(int tally, int amount);
int gain_money(BirminghamGame *g, int player, int amount);
void gain_vp(BirminghamGame *g, int player, int vp);

/* bham_build.c, bham_network.c, bham_develop.c, bham_sell.c, bham_loan_scout.c: reasons
   and effects of each action's decisions */
int build_slot_reason(const BirminghamGame *g, const Board *b, int player, int card, int industry,
                      int slot);
uint64_t build_feasible_slots(const BirminghamGame *g, const Board *b, int industry);
uint64_t build_mask(const BirminghamGame *g, const Board *b, int industry);
static inline uint64_t location_slots(int loc) { return BT_LOCATION_SLOTS[loc]; }
int build_card_reason(const BirminghamGame *g, const Board *b, int card);
int build_action_reason(const BirminghamGame *g, const Board *b);
int build_industry_reason(const BirminghamGame *g, const Board *b, int card, int industry);
void build_choose_slot(Ctx *cx, int slot);
void build_finish(Ctx *cx);

int link_reason(const BirminghamGame *g, const Board *b, int link, int second);
void network_place(Ctx *cx, int link);
void network_after_coal(Ctx *cx);

int develop_reason(const BirminghamGame *g, const Board *b, int industry, int free_develop);
void develop_choose(Ctx *cx, int industry);
void develop_remove(Ctx *cx, int industry);
void free_develop(Ctx *cx, int industry);

int sell_tile_reason(const BirminghamGame *g, const Board *b, int slot);
int sell_merchant_reason(const BirminghamGame *g, const Board *b, int slot, int space);
void sell_choose_merchant(Ctx *cx, int space);
void sell_finish_tile(Ctx *cx);

int coal_source_reason(const BirminghamGame *g, const Board *b, int action);
int iron_source_reason(const BirminghamGame *g, const Board *b, int action);
int beer_source_reason(const BirminghamGame *g, const Board *b, int action);
void pay_coal(Ctx *cx, int action);
void pay_iron(Ctx *cx, int action);
void pay_beer(Ctx *cx, int action);
void resources_continue(Ctx *cx);

int loan_reason(const BirminghamGame *g);
int scout_reason(const BirminghamGame *g);
int scout_card_reason(const BirminghamGame *g, int card, int picks_after);
void take_loan(Ctx *cx);
void scout_take_wilds(Ctx *cx);

/* bham_era.c: turn, round and era end */
void action_done(Ctx *cx);
void start_turn(BirminghamGame *g);
void shortfall_remove(Ctx *cx, int slot);
int draw_card(BirminghamGame *g); /* the deck's top card, or BHAM_NO_CARD */
void deal_hand(BirminghamGame *g, int player);
void shuffle_deck(BirminghamGame *g);
int shortfall_reason(const BirminghamGame *g, int slot);

/* Birmingham's entries of the ruleset interface (ruleset.h) */
int bham_new(BirminghamGame *g, const BrassOptions *opt, uint64_t seed); /* bham_setup.c */
int bham_validate(const BirminghamGame *g, char *field, size_t field_len); /* bham_validate.c */
int bham_reason(const BirminghamGame *g, int action);
void bham_apply_legal(BirminghamGame *g, int action, BrassEventLog *log, int resolve_forced);
int bham_action_ended(const BirminghamGame *after, const BirminghamGame *before);
int bham_sane_options(const BirminghamGame *g, const uint16_t *opts, int n, uint16_t *keep);
void bham_redact(const BirminghamGame *g, int seat, BirminghamGame *out);
int bham_determinize(BirminghamGame *g, int seat, uint64_t seed);
void bham_conceal(BirminghamGame *g, int seat);
void bham_redact_preview(const BirminghamGame *before, const BirminghamGame *after, int viewer,
                         BirminghamGame *out);
int bham_observation(const BirminghamGame *g, int seat, float *out, int cap);
/* brass_summary: a head of 8, 5 per player (4 players), then 5 per tile on the board and 2
   per link (docs/ENGINE_API.md) */
#define BHAM_SUMMARY_HEAD 8
#define BHAM_SUMMARY_PLAYER 5
#define BHAM_SUMMARY_SIZE (BHAM_SUMMARY_HEAD + BHAM_SUMMARY_PLAYER * BRASS_MAX_PLAYERS + \
                           5 * BHAM_NUM_SLOTS + 2 * BHAM_NUM_LINKS)
int bham_summary(const BirminghamGame *g, int32_t *out, int cap);
/* The name of entry `v` of an action-space range without its prefix ("card:leek" ->
   "leek"); "unknown" for a value outside the range, so that even a state that was never
   validated is written without reading past a table (bham_view.c). */
const char *bham_entry_name(int first, int count, int v);
#define CARD_NAME(c) bham_entry_name(A_CARD, BHAM_NUM_CARD_TYPES, (c))
#define INDUSTRY_NAME(i) bham_entry_name(A_INDUSTRY, BHAM_NUM_INDUSTRIES, (i))
#define SLOT_NAME(s) bham_entry_name(A_SLOT, BHAM_NUM_SLOTS, (s))
#define LINK_NAME(k) bham_entry_name(A_LINK, BHAM_NUM_LINKS, (k))
#define SPACE_NAME(m) bham_entry_name(A_MERCHANT, BHAM_NUM_MERCHANT_SPACES, (m))
#define ACTION_TYPE_NAME(t) bham_entry_name(A_ACTION_TYPE, NUM_ACT_TYPES, (t))
/* The seat view of a redacted state as brass.v1.BirminghamView in protobuf binary
   (bham_view_proto.c, common/proto_writer.h): the same view as bham_position_json writes
   with hidden = 0, then undo_steps and undo_refused (a reason code, BRASS_R_LEGAL for
   none). Returns the length, or -BRASS_E_BUFFER when it does not fit in `cap`. */
int bham_view_proto(const BirminghamGame *g, int seat, int undo_steps, int undo_refused,
                    uint8_t *out, int cap);
int bham_position_json(const BirminghamGame *g, int seat, int hidden, int keys, char *out,
                       int cap);
int bham_score_order(const BirminghamGame *g, uint8_t *ranking);
const char *bham_action_name(int action);
const char *bham_phase_name(int phase);
const char *bham_reason_name(int reason);
const char *bham_reason_message(int reason);
const char *bham_event_name(int type);
const char *bham_event_fields(int type);
int bham_result(const BirminghamGame *g, BrassResult *out);

/* bham_decision.c */
int better_reason(int a, int b); /* the refusal of the candidate that got furthest */
int phase_reason(const BirminghamGame *g, const Board *b, int action);
int legal_into(const BirminghamGame *g, uint16_t *out, int cap);
int apply_unchecked(Ctx *cx, int action);
void auto_resolve(Ctx *cx);
int bham_forced_step_public(const BirminghamGame *g);

static inline int level_of(const BirminghamGame *g, int industry) {
    int k = g->players[g->current].mat_taken[industry];
    return k < BT_TILES_PER_PLAYER[industry] ? BT_MAT_LEVEL[industry][k] : 0;
}
static inline int popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int is_wild(int card) {
    return card == BT_CARD_WILD_LOCATION || card == BT_CARD_WILD_INDUSTRY;
}

#endif
