/* Brass: Pittsburgh (provisional draft rules, /work/shared/rules/PITTSBURGH_RULINGS.md P1-P70).
 *
 * The state is one plain struct (PittsburghGame, no pointers, one memcpy to clone). Static
 * data (map, tiles, deck...) lives in generated const tables (pgh_tables_*.h, written by
 * core_c/gen_pittsburgh_tables.py from core_c/data/pittsburgh*.json); the state names its
 * table set by id, so the same code plays the official draft data or the tiny synthetic set.
 */
#ifndef PITTSBURGH_H
#define PITTSBURGH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "brass.h"

/* ---- limits every table set must fit (checked by the generator) ---- */
#define PGH_MAX_PLAYERS 4
#define PGH_MAX_LOCS 24
#define PGH_MAX_SPACES 48
#define PGH_MAX_RAILS 36
#define PGH_MAX_FIELDS 6
#define PGH_MAX_PIPES 12
#define PGH_MAX_MARKETS 6
#define PGH_MAX_MSPACES 6     /* merchant spaces */
#define PGH_MAX_MTILES 8      /* merchant tiles */
#define PGH_MAX_FTILES 6      /* oilfield tiles */
#define PGH_MAX_QSLOTS 4      /* quality reward slots */
#define PGH_MAX_QTILES 8
#define PGH_MAX_CARD_TYPES 32
#define PGH_MAX_DECK 64
#define PGH_MAX_TILES 24      /* tile kinds */
#define PGH_MAX_POSITIONS 24  /* mat positions */
#define PGH_MAX_LINK_SLOTS 12
#define PGH_MAX_LINK_TYPES 12
#define PGH_MAX_EDGES 6
#define PGH_MAX_SLOT_DEPTH 4  /* market slots per column */
#define PGH_NONE 255

enum PghTableSet { PGH_SET_PITTSBURGH = 0, PGH_SET_TINY = 1, PGH_NUM_SETS = 2 };

enum PghCube { CUBE_COAL, CUBE_IRON, CUBE_STEEL, CUBE_COKE, CUBE_OIL, PGH_NUM_CUBES };

enum PghIndustry {
    PI_KEROSENE, PI_COAL, PI_MANUFACTURING, PI_AUTOMOBILE, PI_IRON_STEEL, PI_SKYSCRAPER,
    PI_COKE, PI_OIL_CITY, PI_POLYPHASE, PI_LOCOMOTIVE, PGH_NUM_INDUSTRIES
};
#define PGH_NUM_BOARD_ICONS 6 /* K C M A S Sky: the industries with a board icon */

enum PghLocType { LT_CITY, LT_MERCHANT, LT_LINK_ONLY };
enum PghBuildKind { BK_SPACE, BK_UPGRADE, BK_OILFIELD };
enum PghVpRule { VR_FIXED, VR_EMPTY_POSITIONS, VR_HEAVY_TRAINS, VR_INCOME_LEVEL };
enum PghLinkKind { LK_LIGHT, LK_HEAVY, LK_PIPE };
enum PghHeavyKind { HK_NONE, HK_RESOURCE, HK_WHISKEY, HK_DOUBLE, HK_REPLACEMENT };
enum PghPipeKind { PK_NONE, PK_VP, PK_MONEY, PK_INCOME, PK_RESERVE };
enum PghBonusKind { BN_NONE, BN_INCOME, BN_WHISKEY, BN_DEVELOP };
enum PghMarketKind { MK_COAL_IRON, MK_STEEL_COKE };
enum PghCardKind { CK_LOCATION, CK_INDUSTRY };

/* A reward printed on a tile (merchant, oilfield, quality). */
typedef struct {
    int16_t vp, money;
    uint8_t income_spaces, whiskey, free_develops, pad_;
} PghReward;

typedef struct {
    const char *id;
    uint8_t industry, level, count, build, upgrade_of, era_mask; /* era_mask bit0 era1, bit1 era2 */
    int16_t money;
    uint8_t cost[PGH_NUM_CUBES];
    int8_t income_levels;       /* <= 0: a decrease in levels (P12) */
    int8_t oil_to_sell;         /* -1: not sold by the Sell action */
    uint8_t stars;
    uint8_t prod_cube[2], prod_n[2]; /* output put on the tile (PGH_NONE: none) */
    uint8_t oil_city_plus_field; /* Oil City: also takes the field's barrels */
    uint8_t vp_rule;
    int16_t vp;                 /* VR_FIXED: VP; else the factor */
    uint8_t vp_min0;
    uint8_t flip_income, flip_whiskey, flip_free_develops, flip_bonus_sell, flip_money_x_income;
    int16_t flip_money;
    uint8_t link_icons, enters_flipped, sellable, level_one;
} PghTile;

typedef struct {
    const char *id;
    uint8_t tile, count, below;  /* below: PGH_NONE at a path's bottom */
    uint8_t path;
} PghPosition;

typedef struct {
    uint8_t from, to, bidirectional, controlled_by_loco_option;
} PghEdge;

typedef struct {
    uint8_t unlocks_when_empty, link_type;
} PghLinkSlot;

typedef struct {
    const char *id;
    uint8_t kind, heavy, pipe, cargo_cube; /* cargo_cube PGH_NONE if none */
    uint8_t whiskey, double_link;
    uint8_t per_barrel, reserve_oil;
} PghLinkType;

typedef struct {
    const char *id;
    uint8_t type, first_space, num_spaces, link_icons, market, mspace, east_placeholder;
} PghLocation;

typedef struct { uint8_t loc, icons; } PghSpaceDef; /* icons: bit per board industry */
typedef struct { const char *id; uint8_t a, b, bonus, amount, east; } PghRail;
typedef struct { const char *id; uint8_t field, loc, oil_icons; } PghPipeRoute;
typedef struct {
    const char *id;
    uint8_t loc, kind, price;
    uint8_t col_cube[2], slots[2], setup_fill[2];
    uint8_t slot_vp[2][PGH_MAX_SLOT_DEPTH];
} PghMarket;
typedef struct {
    const char *id;
    uint8_t front_accepts, back_accepts, pc_mask, placeholder; /* accepts: bit per industry */
    PghReward reward;
} PghMerchantTile;
typedef struct { const char *id; uint8_t oil, pc_mask; PghReward reward; } PghFieldTile;
typedef struct { const char *id; uint8_t placeholder; PghReward reward; } PghQualityTile;
typedef struct { uint8_t kind, target, oil_city; } PghCardType; /* target: loc or industry */

typedef struct PghTables {
    const char *name, *description, *draft_version, *placeholders;
    uint8_t num_locs, num_spaces, num_rails, num_fields, num_pipes, num_markets;
    uint8_t num_mspaces, num_mtiles, num_ftiles, num_qslots, num_qtiles, num_card_types;
    uint8_t num_tiles, num_positions, num_link_slots, num_link_types, num_edges, num_deck;
    uint8_t num_paths;
    /* constants */
    int16_t start_money, start_vp, loan_money, second_link_money, bankruptcy_vp;
    uint8_t loan_levels, whiskey_cap, hand_size, rounds_per_era, actions_per_turn,
        actions_first_round, setup_facedown, income_start_space;
    int8_t min_level;
    uint8_t vanderbilt[PGH_NUM_CUBES];       /* 0 = not delivered (oil) */
    uint8_t link_cost[3][PGH_NUM_CUBES];     /* by PghLinkKind */
    int8_t level_of_space[100];
    uint8_t top_space_of_level[41];          /* index level + 10 */
    uint8_t light_trains;
    uint8_t supply_start[PGH_MAX_LINK_TYPES]; /* link types in the starting supply */
    uint8_t deck_size_for[3];               /* 2,3,4 players */
    PghLocation locs[PGH_MAX_LOCS];
    PghSpaceDef spaces[PGH_MAX_SPACES];
    PghRail rails[PGH_MAX_RAILS];
    const char *field_ids[PGH_MAX_FIELDS];
    PghPipeRoute pipes[PGH_MAX_PIPES];
    PghMarket markets[PGH_MAX_MARKETS];
    uint8_t markets_by_price[PGH_NUM_CUBES][PGH_MAX_MARKETS]; /* sellers of a cube, cheapest first; PGH_NONE */
    uint8_t mspace_loc[PGH_MAX_MSPACES];
    PghMerchantTile mtiles[PGH_MAX_MTILES];
    PghFieldTile ftiles[PGH_MAX_FTILES];
    uint8_t qslot_stars[PGH_MAX_QSLOTS];
    PghQualityTile qtiles[PGH_MAX_QTILES];
    PghCardType cards[PGH_MAX_CARD_TYPES];
    uint8_t deck_card[PGH_MAX_DECK], deck_pc[PGH_MAX_DECK]; /* card type, player-count mask */
    PghTile tiles[PGH_MAX_TILES];
    PghPosition positions[PGH_MAX_POSITIONS];
    uint32_t above[PGH_MAX_POSITIONS];       /* positions whose `below` is this one */
    PghEdge edges[PGH_MAX_EDGES];
    PghLinkSlot link_slots[PGH_MAX_LINK_SLOTS];
    PghLinkType link_types[PGH_MAX_LINK_TYPES];
    uint8_t option_default[64];
    /* action names of this table set, index = action id */
    const char *const *action_names;
} PghTables;

/* ---- options (pittsburgh.json -> options; index order is fixed here) ---- */
enum PghOption {
#define PGH_OPTION(key, ...) OPT_##key,
#include "pgh_options.def"
#undef PGH_OPTION
    PGH_NUM_OPTIONS
};
#define PGH_OPT_DATA PGH_NUM_OPTIONS     /* extra option: the table set */
#define PGH_NUM_ALL_OPTIONS (PGH_NUM_OPTIONS + 1)
#define PGH_OPT_UNDO PGH_NUM_ALL_OPTIONS /* engine option (not in the data file): undo on/off */

/* ---- action space (fixed ids, the same for every table set) ---- */
enum PghActionType { PA_BUILD, PA_NETWORK, PA_DEVELOP, PA_SELL, PA_LOAN, PA_PASS, PGH_NUM_ACT_TYPES };
enum PghActionRange {
    PGA_TYPE = 0,
    PGA_CARD = PGA_TYPE + PGH_NUM_ACT_TYPES,
    PGA_POSITION = PGA_CARD + PGH_MAX_CARD_TYPES,   /* mat position (build / develop) */
    PGA_SPACE = PGA_POSITION + PGH_MAX_POSITIONS,   /* board space: build, sell, take cube */
    PGA_OILFIELD = PGA_SPACE + PGH_MAX_SPACES,      /* build Oil City here */
    PGA_RAIL = PGA_OILFIELD + PGH_MAX_FIELDS,       /* rail route: place, own train's cargo */
    PGA_PIPE = PGA_RAIL + PGH_MAX_RAILS,            /* pipeline route: place, oil from field */
    PGA_PIPE_CITY = PGA_PIPE + PGH_MAX_PIPES,       /* oil from the Oil City via this pipeline */
    PGA_MARKET = PGA_PIPE_CITY + PGH_MAX_PIPES,     /* buy from / sell into a market */
    PGA_VANDERBILT = PGA_MARKET + PGH_MAX_MARKETS,
    PGA_LINK_TYPE = PGA_VANDERBILT + 1,             /* link tile from the supply */
    PGA_MERCHANT = PGA_LINK_TYPE + PGH_MAX_LINK_TYPES,
    PGA_QUALITY = PGA_MERCHANT + PGH_MAX_MSPACES,
    PGA_CUBE = PGA_QUALITY + PGH_MAX_QSLOTS,        /* develop: iron or steel */
    PGA_BONUS_SELL = PGA_CUBE + PGH_NUM_CUBES,      /* take the Skyscraper's bonus sell */
    PGA_DONE = PGA_BONUS_SELL + 1,
    PGH_NUM_ACTIONS = PGA_DONE + 1
};

/* ---- decision kinds ---- */
enum PghPhase {
    PP_ACTION, PP_CARD, PP_BUILD_POSITION, PP_BUILD_PLACE,
    PP_COAL, PP_IRON, PP_STEEL, PP_COKE, PP_OIL,   /* source of the next cube (PP_COAL + cube) */
    PP_MARKET_SALE, PP_LINK_TYPE, PP_LINK_ROUTE, PP_SECOND_LINK,
    PP_DEVELOP, PP_DEVELOP_CUBE, PP_FREE_DEVELOP,
    PP_SELL_TILE, PP_SELL_MERCHANT, PP_QUALITY, PP_BONUS_SELL,
    PP_GAME_OVER, PGH_NUM_PHASES
};

/* ---- reasons (0 legal; shared meanings first, then Pittsburgh's own) ---- */
enum PghReason {
    PR_LEGAL = 0,
    /* the shared codes of brass.h (BrassSharedReason), same numbers and meanings */
    PR_WRONG_DECISION, PR_CARD_NOT_IN_HAND, PR_NOT_ENOUGH_MONEY, PR_NOT_IN_NETWORK,
    PR_SLOT_OCCUPIED, PR_NO_TILES_LEFT, PR_LINK_TAKEN, PR_NO_LINK_TILES, PR_LOAN_LIMIT,
    PR_NOT_ENOUGH_CARDS, PR_NOT_YOUR_TILE, PR_NO_OPTION, PR_CANONICAL_ORDER, PR_MUST_CHOOSE,
    PR_INCOMPLETE_ACTION, PR_TOO_MANY_DECISIONS,
    PGH_NUM_SHARED_REASONS,
    /* Pittsburgh's own, from BRASS_R_RULESET_FIRST */
    PR_NOT_ACCESSIBLE = 64, PR_WRONG_ERA, PR_CARD_DOES_NOT_ALLOW, PR_SPACE_WRONG_ICON,
    PR_SINGLE_ICON_SPACE_FIRST, PR_ONE_TILE_PER_LOCATION, PR_NOT_AN_UPGRADE_TARGET,
    PR_INCOME_TOO_LOW, PR_NO_OIL, PR_INDUSTRY_FIRST, PR_NOT_CONNECTED,
    PR_SOURCE_EMPTY, PR_NOT_YOUR_TRAIN, PR_RESERVE_CARRIES_NO_OIL, PR_MARKET_FULL,
    PR_ROUTE_CLOSED, PR_NOT_ADJACENT, PR_NO_MERCHANT, PR_MERCHANT_DOES_NOT_ACCEPT,
    PR_NOT_SELLABLE, PR_ALREADY_FLIPPED, PR_ALREADY_CHOSEN, PR_NOT_ENOUGH_STARS,
    PR_QUALITY_TAKEN, PR_OILFIELD_TAKEN, PR_NO_PIPELINE_TO_NETWORK, PR_WRONG_CUBE,
    PR_WRONG_LINK_KIND, PR_CANNOT_REPLACE, PR_NO_SPACE, PR_NOT_NEAREST,
    PGH_NUM_REASONS
};

/* ---- events ---- */
enum PghEvent {
    PE_ACTION, PE_BUILD, PE_UPGRADE_SCORE, PE_LINK, PE_REPLACED, PE_DEVELOP, PE_SELL,
    PE_FLIP, PE_CUBE, PE_OIL, PE_PIPE_REWARD, PE_MARKET_SALE, PE_MERCHANT_REWARD,
    PE_QUALITY, PE_REVEAL, PE_ROUTE_BONUS, PE_LOAN, PE_PASS, PE_TURN_END, PE_TURN_ORDER,
    PE_INCOME, PE_BANKRUPT, PE_LINK_SCORE, PE_TILE_SCORE, PE_TILE_REMOVED, PE_ERA_END,
    PE_GAME_END, PE_ROUND_END, PE_WHISKEY, PGH_NUM_EVENTS
};

/* ---- the state ---- */
typedef struct {
    uint32_t magic;
    uint16_t format_version;
    uint16_t rules_edition;
    uint8_t ruleset;
    uint8_t num_players;
    uint8_t table_set;      /* ruleset_fields[0]: PghTableSet */
    uint8_t era;            /* 0, 1 */
    uint8_t round;          /* 1-based */
    uint8_t turn_idx;
    uint8_t actions_left;
    uint8_t phase;          /* PghPhase */
    uint8_t auto_resolve;
    uint8_t undo_off;       /* 1: the game's option turns undo off (0, the default: on) */
    uint8_t current;
    uint8_t game_over;
} PghHeader; /* the layout of the common BrassHeader (20 bytes) */

typedef struct {
    int8_t owner;           /* -1 empty */
    uint8_t tile;           /* tile kind */
    uint8_t flipped;
    uint8_t cubes[2];       /* output left, by the tile's prod_cube[0..1] */
} PghSpace;

typedef struct {
    int8_t owner;           /* -1 empty */
    uint8_t link_type;
    uint8_t cargo;          /* resource train: its cube (0/1) */
} PghRailState;

typedef struct {
    int8_t owner;
    uint8_t link_type;
} PghPipeState;

enum PghFieldTileState { FT_FACE_DOWN, FT_PENDING, FT_GONE, FT_NO_TILE };
typedef struct {
    uint8_t barrels;        /* on the field */
    uint8_t tile;           /* oilfield tile kind, PGH_NONE if none */
    uint8_t tile_state;     /* PghFieldTileState */
    uint8_t pending;        /* era-1 reveal: barrels due at the era-1 end */
    int8_t oc_owner;        /* Oil City owner, -1 none */
    uint8_t oc_barrels;
    uint8_t oc_flipped;
    uint8_t pad_;
} PghField;

typedef struct {
    int16_t money, vp, spent;
    uint8_t income_space, whiskey;
    uint8_t mat_left[PGH_MAX_POSITIONS];
    uint8_t supply[PGH_MAX_LINK_TYPES];  /* link tiles in the supply, by type */
    uint16_t slots_released;             /* mat link slots already moved to the supply */
    uint8_t heavy_built;
    uint8_t hand_size;
    uint8_t hand[PGH_MAX_CARD_TYPES];
    uint8_t facedown_card;               /* PGH_NONE when none */
    uint8_t last_discard;
    uint8_t pad_[2];
} PghPlayer; /* 84 bytes */

enum PghStage {
    ST_NONE, ST_PAY, ST_BUILD_MARKET, ST_BUILD_AFTER, ST_NET_AFTER, ST_NET_SECOND,
    ST_DEV_AFTER, ST_SELL_AFTER, ST_SELL_REWARDS, ST_SELL_QUALITY, ST_SELL_FLIP, ST_END
};

typedef struct {
    uint8_t action, card, position, place;     /* place: space or oilfield (build) */
    uint8_t stage, target_loc;                 /* target_loc PGH_NONE: any network location */
    uint8_t need[PGH_NUM_CUBES];               /* cubes / barrels still to source */
    uint8_t link_type, route, route_is_pipe, links_placed;
    uint8_t free_develops, count, last_position, bonus_sell;
    uint8_t merchants_used, sale_cube, sale_last_market, stars;
    uint8_t sell_space, whiskey_build, swapped, free_batch; /* swapped: a Reserve swap (P48);
                                                   free_batch: 1 free develops begun, 2 one taken */
    uint32_t acc_before;                       /* develop: positions accessible before the first */
    uint64_t sold;                             /* spaces chosen in this Sell */
    uint8_t sold_merchant[PGH_MAX_SPACES];     /* merchant space per chosen tile */
} PghPending;

typedef struct PittsburghGame {
    PghHeader h;
    uint8_t deck_size;
    uint8_t turn_order[PGH_MAX_PLAYERS];
    uint8_t options[PGH_NUM_ALL_OPTIONS];
    uint8_t deck[PGH_MAX_DECK];
    uint8_t discards[PGH_MAX_CARD_TYPES];      /* face-up discards of all players */
    uint8_t market_fill[PGH_MAX_MARKETS][2];
    uint8_t mspace_tile[PGH_MAX_MSPACES];      /* merchant tile on each space, PGH_NONE */
    uint8_t mspace_back[PGH_MAX_MSPACES];      /* 1 = flipped to its back */
    uint8_t qslot_tile[PGH_MAX_QSLOTS];        /* quality tile, PGH_NONE */
    uint8_t qslot_up[PGH_MAX_QSLOTS];          /* 1 = still claimable */
    PghSpace spaces[PGH_MAX_SPACES];
    PghRailState rails[PGH_MAX_RAILS];
    PghPipeState pipes[PGH_MAX_PIPES];
    PghField fields[PGH_MAX_FIELDS];
    PghPlayer players[PGH_MAX_PLAYERS];
    PghPending pend;
    uint64_t rail_bonus_taken;                 /* rails whose bonus was given (P45 option) */
    uint64_t rng_state;
    uint64_t seed;
    uint32_t decisions;
    BrassUndoMark undo;     /* undo bookkeeping (brass.h; not part of the hash) */
} PittsburghGame;

/* ---- the API the adapter (pgh_api.c) exposes ---- */
typedef struct {
    uint8_t players, auto_resolve;
    int16_t values[PGH_NUM_ALL_OPTIONS]; /* -1 = default */
} PghOptions;

const PghTables *pgh_tables(int set);
extern const PghTables *const PGH_TABLE_SETS[PGH_NUM_SETS];
/* the table set of a game (table_set is checked < PGH_NUM_SETS by pgh_new / pgh_validate;
   the mask keeps even an unchecked byte in bounds) */
_Static_assert(PGH_NUM_SETS == 2, "pgh_T masks the table set with 1");
static inline const PghTables *pgh_T(const PittsburghGame *g) { return PGH_TABLE_SETS[g->h.table_set & 1]; }

int pgh_new(PittsburghGame *g, const PghOptions *opt, uint64_t seed, char *err, size_t err_len);
int pgh_legal(const PittsburghGame *g, uint16_t *out, int cap);
int pgh_reason(const PittsburghGame *g, int action);
int pgh_apply(PittsburghGame *g, int seat, int action, BrassEventLog *log, int *reason);
int pgh_validate(const PittsburghGame *g, char *field, size_t field_len);
void pgh_redact(const PittsburghGame *g, int seat, PittsburghGame *out);
int pgh_determinize(PittsburghGame *g, int seat, uint64_t seed);
#define PGH_OBS_SIZE 2048
int pgh_observation(const PittsburghGame *g, int seat, float *out, int cap);
/* brass_summary: a head of 10, 8 per player (4 players), then 4 per occupied space, 3 per
   rail and pipeline placed, 3 per oilfield (docs/ENGINE_API.md) */
#define PGH_SUMMARY_HEAD 10
#define PGH_SUMMARY_PLAYER 8
#define PGH_SUMMARY_SIZE (PGH_SUMMARY_HEAD + PGH_SUMMARY_PLAYER * PGH_MAX_PLAYERS + 4 * PGH_MAX_SPACES + \
                          3 * PGH_MAX_RAILS + 3 * PGH_MAX_PIPES + 3 * PGH_MAX_FIELDS)
int pgh_summary(const PittsburghGame *g, int32_t *out, int cap);
int pgh_score_order(const PittsburghGame *g, uint8_t *ranking);
int pgh_sane_options(const PittsburghGame *g, const uint16_t *opts, int n, uint16_t *keep);
int pgh_position_json(const PittsburghGame *g, int seat, int hidden, char *out, int cap);
/* the view's fields whose values are maps (their keys are names): for json_rekey */
extern const char *const PGH_VIEW_MAPS[];
/* Whether the view writers can name every index of a state (a redacted one included):
   both views refuse the others (BRASS_E_BAD_POSITION) rather than read out of bounds. */
int pgh_view_writable(const PittsburghGame *g);
/* A redacted state's view (what pgh_position_json writes with hidden = 0) as
   brass.v1.PittsburghView in protobuf binary, with the undo fields given: the length, or
   -BRASS_E_BUFFER, -BRASS_E_BAD_POSITION. */
int pgh_view_proto(const PittsburghGame *g, int seat, int undo_steps, int undo_refused,
                   uint8_t *out, int cap);
/* The full position's JSON text (hidden = 1 above) back into a state, validated; on error
   BRASS_E_BAD_POSITION with the JSON path of the bad value in field and what is wrong in msg */
int pgh_position_read(PittsburghGame *g, const char *json, size_t len, char *field, size_t field_len, char *msg,
                      size_t msg_len);
const char *pgh_action_name(int action);
const char *pgh_action_name_in(int set, int action);
const char *pgh_phase_name(int phase);
const char *pgh_reason_name(int reason);
const char *pgh_reason_message(int reason);
const char *pgh_event_name(int type);
const char *pgh_option_name(int option);
const char *pgh_option_value_name(int option, int value);
int pgh_option_num_values(int option);
int pgh_option_implemented(int option, int value);
int pgh_option_index(const char *name);
int pgh_option_value_index(int option, const char *value);
int pgh_income_level(const PittsburghGame *g, int space);
uint64_t pgh_hash(const PittsburghGame *g);
int pgh_playout(PittsburghGame *g, int sane, uint64_t seed, int max_decisions);
int pgh_action_ended(const PittsburghGame *after, const PittsburghGame *before);
const char *pgh_event_fields(int type);
void pgh_conceal(PittsburghGame *g, int seat);
void pgh_redact_preview(const PittsburghGame *before, const PittsburghGame *after, int viewer,
                        PittsburghGame *out);
#ifdef BRASS_MAX_STATE_SIZE
int pgh_result(const PittsburghGame *g, BrassResult *out);
#endif

#endif
