/*
 * brass.h - public API of the Brass rules core.
 *
 * The whole game lives in one plain struct (no pointers), so a copy is a memcpy
 * and a snapshot is its bytes plus a header. Every entry point validates its
 * input and returns an error code; none of them aborts.
 */
#ifndef BRASS_H
#define BRASS_H

#include <stddef.h>
#include <stdint.h>

#define BRASS_RULES_EDITION 1   /* bump when a rules fix changes outcomes */
#define BRASS_FORMAT_VERSION 1  /* bump when BrassGame's layout changes */
#define BRASS_MAGIC 0x53534152u /* "RASS" */

#define BRASS_MAX_PLAYERS 4
#define BRASS_NUM_LOCATIONS 27
#define BRASS_NUM_SLOTS 49
#define BRASS_NUM_LINKS 39
#define BRASS_NUM_MERCHANT_SPACES 9
#define BRASS_NUM_INDUSTRIES 6
#define BRASS_NUM_CARD_TYPES 27
#define BRASS_MAX_DECK 64
#define BRASS_HAND_LIMIT 8
#define BRASS_LINK_TILES 14
#define BRASS_NO_CARD 255
#define BRASS_NONE 255

/* Rulesets behind one interface; Birmingham is the first. */
enum { BRASS_RULESET_BIRMINGHAM = 0, BRASS_NUM_RULESETS = 1 };

/* ---- ruleset-neutral types (docs/RULESETS.md; being adopted by the API below) ---- */

#define BRASS_MAX_STATE_SIZE 2048 /* any ruleset's state struct fits */
#define BRASS_MAX_ACTIONS 512     /* any ruleset's action space fits */
#define BRASS_MAX_OBS_SIZE 2048   /* any ruleset's observation fits */
#define BRASS_MAX_OPTIONS 8       /* ruleset-specific options of a new game */

/* The first 20 bytes of every ruleset's state. The 8 ruleset bytes keep Birmingham's
   fields where they always were, so its stored snapshots and state hashes are unchanged. */
typedef struct BrassHeader {
    uint32_t magic;            /* BRASS_MAGIC */
    uint16_t format_version;   /* the ruleset's own state layout version */
    uint16_t rules_edition;    /* the ruleset's own rules edition */
    uint8_t ruleset;           /* BRASS_RULESET_* */
    uint8_t num_players;
    uint8_t ruleset_fields[8]; /* owned by the ruleset */
    uint8_t current;           /* seat to decide now */
    uint8_t game_over;         /* 0 or 1 */
} BrassHeader;

/* A ruleset-specific option of a new game (the engine validates values against it). */
typedef struct {
    const char *name;        /* JSON key, e.g. "beginner" */
    const char *description;
    uint8_t is_bool;         /* values 0 and 1 */
    uint8_t num_allowed;     /* 0: any value in [min, max]; else one of allowed[] */
    int16_t min, max, default_value;
    int16_t allowed[8];
} BrassOptionInfo;

/* Final (or current) standing, tie rules applied by the ruleset. */
typedef struct {
    uint8_t num_players;
    uint8_t num_first;                     /* seats sharing first place */
    uint8_t ranking[BRASS_MAX_PLAYERS];    /* seats, best first */
    int16_t vp[BRASS_MAX_PLAYERS];
    int16_t money[BRASS_MAX_PLAYERS];
    int16_t income_space[BRASS_MAX_PLAYERS];
    int16_t income_level[BRASS_MAX_PLAYERS];
} BrassResult;

/* Reason codes shared by every ruleset (same meaning everywhere); a ruleset's own reasons
   start at BRASS_R_RULESET_FIRST. */
enum BrassSharedReason {
    BRASS_R_LEGAL = 0,
    BRASS_R_WRONG_DECISION,   /* id belongs to another kind of decision */
    BRASS_R_CARD_NOT_IN_HAND,
    BRASS_R_NOT_ENOUGH_MONEY,
    BRASS_R_NOT_IN_NETWORK,
    BRASS_R_SLOT_OCCUPIED,
    BRASS_R_NO_TILES_LEFT,
    BRASS_R_LINK_TAKEN,
    BRASS_R_NO_LINK_TILES,
    BRASS_R_LOAN_LIMIT,
    BRASS_R_NOT_ENOUGH_CARDS,
    BRASS_R_NOT_YOUR_TILE,
    BRASS_R_NO_OPTION,          /* nothing of this kind can be completed now */
    BRASS_R_CANONICAL_ORDER,    /* unordered choices are taken in ascending order */
    BRASS_R_MUST_CHOOSE,        /* 'done' is not allowed before the first choice */
    BRASS_R_INCOMPLETE_ACTION,  /* a compound action must end where the action ends */
    BRASS_R_TOO_MANY_DECISIONS, /* a compound action holds exactly one action */
    BRASS_NUM_SHARED_REASONS,
    BRASS_R_RULESET_FIRST = 64
};

enum BrassIndustry { IND_COTTON, IND_MANUFACTURER, IND_POTTERY, IND_COAL, IND_IRON, IND_BREWERY };
enum BrassEra { ERA_CANAL = 0, ERA_RAIL = 1 };

/* Action types: the first decision of every action. */
enum BrassActionType {
    ACT_BUILD, ACT_NETWORK, ACT_DEVELOP, ACT_SELL, ACT_LOAN, ACT_SCOUT, ACT_PASS, NUM_ACT_TYPES
};

/*
 * The fixed action space. An id's meaning depends on the range it is in; the
 * current decision kind says which ranges are valid now.
 */
enum BrassActionRange {
    A_ACTION_TYPE = 0,                          /* 7: BrassActionType */
    A_CARD = A_ACTION_TYPE + NUM_ACT_TYPES,     /* 27: card type to discard */
    A_INDUSTRY = A_CARD + BRASS_NUM_CARD_TYPES, /* 6: industry (build / develop) */
    A_SLOT = A_INDUSTRY + BRASS_NUM_INDUSTRIES, /* 49: a board slot (build here, sell this,
                                                   take from this mine/works/brewery, remove) */
    A_LINK = A_SLOT + BRASS_NUM_SLOTS,          /* 39: a route */
    A_MARKET = A_LINK + BRASS_NUM_LINKS,        /* 1: buy from the coal / iron market */
    A_MERCHANT = A_MARKET + 1,                  /* 9: a merchant space (sell to / its beer) */
    A_DONE = A_MERCHANT + BRASS_NUM_MERCHANT_SPACES, /* 1: stop (no second rail / sale / develop) */
    BRASS_NUM_ACTIONS = A_DONE + 1
};

/* Decision kinds (what the seat to act is choosing now). */
enum BrassPhase {
    PH_ACTION,         /* action type */
    PH_CARD,           /* card to discard for the chosen action */
    PH_SCOUT_CARD,     /* the 2nd and 3rd card discarded by Scout */
    PH_BUILD_INDUSTRY, /* which industry to build */
    PH_BUILD_SLOT,     /* where */
    PH_COAL,           /* which coal source pays the next cube */
    PH_IRON,           /* which iron source pays the next cube */
    PH_BEER,           /* which beer source pays the next barrel */
    PH_LINK,           /* which route (first link) */
    PH_SECOND_RAIL,    /* a second rail, or done */
    PH_DEVELOP,        /* which industry to develop (second develop: or done) */
    PH_SELL_TILE,      /* which tile to sell (after the first: or done) */
    PH_SELL_MERCHANT,  /* which merchant tile buys it */
    PH_FREE_DEVELOP,   /* Gloucester bonus: industry to develop, or done */
    PH_SHORTFALL,      /* income shortfall: which own tile to remove */
    PH_GAME_OVER,
    NUM_PHASES
};

/* Error codes of API calls. */
enum BrassError {
    BRASS_OK = 0,
    BRASS_E_ILLEGAL = 1,        /* the id is not a legal option now (see reason) */
    BRASS_E_NOT_YOUR_TURN = 2,
    BRASS_E_GAME_OVER = 3,
    BRASS_E_UNKNOWN_ACTION = 4, /* id outside the action space */
    BRASS_E_BAD_SNAPSHOT = 5,
    BRASS_E_BAD_POSITION = 6,
    BRASS_E_BAD_ARGUMENT = 7,
    BRASS_E_BUFFER = 8,         /* output buffer too small */
};

/* Why an option is unavailable (0 = it is legal). Messages: brass_reason_message(). */
enum BrassReason {
    R_LEGAL = 0,
    R_WRONG_DECISION,        /* id belongs to another kind of decision */
    R_CARD_NOT_IN_HAND,
    R_NOT_ENOUGH_MONEY,
    R_NO_CONNECTED_COAL,     /* no connected coal and no merchant connection for the market */
    R_NOT_IN_NETWORK,
    R_CANAL_ONE_TILE_PER_TOWN,
    R_SLOT_OCCUPIED,
    R_SLOT_WRONG_INDUSTRY,
    R_SINGLE_ICON_SLOT_FIRST,
    R_NO_TILES_LEFT,
    R_TILE_WRONG_ERA,
    R_CANNOT_OVERBUILD,
    R_CARD_DOES_NOT_ALLOW,
    R_FARM_NEEDS_INDUSTRY_CARD,
    R_LINK_TAKEN,
    R_LINK_WRONG_ERA,
    R_LINK_NOT_IN_NETWORK,
    R_NO_LINK_TILES,
    R_NO_BEER,
    R_NOT_NEAREST_COAL,
    R_MINE_COAL_FIRST,       /* a connected mine still has coal: the market is not allowed */
    R_WORKS_IRON_FIRST,      /* an iron works still has iron: the market is not allowed */
    R_NOT_CONNECTED_TO_MERCHANT,
    R_NO_MERCHANT_ACCEPTS,
    R_NOT_YOUR_TILE,
    R_ALREADY_FLIPPED,
    R_NOT_SELLABLE,
    R_LIGHTBULB_POTTERY,
    R_LOAN_LIMIT,
    R_HOLDING_WILD_CARD,
    R_NOT_ENOUGH_CARDS,
    R_SOURCE_EMPTY,
    R_BEER_NOT_CONNECTED,
    R_MERCHANT_BEER_NOT_HERE,
    R_NO_OPTION,             /* nothing of this kind can be completed now */
    R_CANONICAL_ORDER,       /* unordered choices are taken in ascending order */
    R_MUST_CHOOSE,           /* 'done' is not allowed before the first choice */
    R_NO_TILE_HERE,
    R_NO_BUILD_WITH_CARD,
    R_BEER_NOT_NEEDED,
    R_INCOMPLETE_ACTION,     /* a compound action must end where the action ends */
    R_TOO_MANY_DECISIONS,    /* a compound action holds exactly one action */
    NUM_REASONS
};

typedef struct {
    int8_t owner;     /* -1 empty */
    uint8_t industry; /* BrassIndustry when owned */
    uint8_t level;    /* 1-based */
    uint8_t flipped;
    uint8_t cubes;    /* coal, iron or beer on the tile */
} BrassSlot;

typedef struct {
    int16_t money;
    int16_t vp;
    int16_t spent;              /* money spent this round (turn order) */
    uint8_t income_space;       /* 0..99 on the progress track */
    uint8_t links_left;         /* link tiles in the player's supply */
    uint8_t mat_taken[BRASS_NUM_INDUSTRIES]; /* tiles gone from the mat, lowest first */
    uint8_t hand[BRASS_NUM_CARD_TYPES];      /* counts per card type */
    uint8_t hand_size;
    uint8_t facedown_card;      /* the face-down setup discard (nobody may see it) */
    uint8_t last_discard;       /* top of the face-up discard pile, or BRASS_NO_CARD */
    uint8_t pad_[2];            /* explicit (was 1 byte + 1 hidden): zero in a valid state */
} BrassPlayer;

/* The action in progress (between its first and last decision). */
typedef struct {
    uint8_t action;       /* BrassActionType */
    uint8_t card;
    uint8_t industry;
    uint8_t slot;         /* build target / tile being sold */
    uint8_t link;         /* last link placed */
    uint8_t merchant;     /* merchant space of the current sale */
    uint8_t coal_left;    /* cubes / barrels still to pay */
    uint8_t iron_left;
    uint8_t beer_left;
    uint8_t count;        /* links placed / tiles developed / sales done */
    uint8_t last_choice;  /* canonical order: last scout card, developed industry, sold slot */
    uint8_t scout_picked; /* scout cards discarded so far */
    uint8_t after_beer;   /* what comes after paying beer (internal step) */
    uint8_t income_idx;   /* round end: next turn-order index to pay income */
    uint8_t pad_[2];
} BrassPending;

typedef struct BrassGame {
    uint32_t magic;
    uint16_t format_version;
    uint16_t rules_edition;
    uint8_t ruleset;
    uint8_t num_players;
    uint8_t beginner;        /* canal-only beginner variant */
    uint8_t manufacturer_iv_cost;
    uint8_t auto_resolve;    /* apply single-option decisions automatically */
    uint8_t era;
    uint8_t round;           /* 1-based round of the current era */
    uint8_t turn_idx;        /* index into turn_order of the player taking their turn */
    uint8_t actions_left;    /* actions left in this turn */
    uint8_t phase;           /* BrassPhase */
    uint8_t current;         /* seat to decide now */
    uint8_t game_over;
    uint8_t turn_order[BRASS_MAX_PLAYERS];
    uint8_t deck_size;
    uint8_t coal_market;     /* cubes in the coal market */
    uint8_t iron_market;
    uint8_t wild_pile[2];    /* wild location, wild industry cards in their piles */
    uint8_t deck[BRASS_MAX_DECK];              /* deck[deck_size-1] is the top card */
    uint8_t discards[BRASS_NUM_CARD_TYPES];    /* face-up discards of all players */
    uint8_t merchant_tile[BRASS_NUM_MERCHANT_SPACES]; /* accepted goods mask; 0 blank; 255 none */
    uint8_t merchant_beer[BRASS_NUM_MERCHANT_SPACES];
    int8_t link_owner[BRASS_NUM_LINKS];
    uint8_t pad_[2];
    BrassSlot slots[BRASS_NUM_SLOTS];
    BrassPlayer players[BRASS_MAX_PLAYERS];
    BrassPending pend;
    uint64_t rng_state;
    uint64_t seed;           /* never part of a seat's view */
    uint32_t decisions;      /* decisions applied so far */
    uint32_t pad2_;
} BrassGame;

/* Events one call caused (for frontends, previews and logs). */
enum BrassEventType {
    EV_ACTION,        /* seat, a=action type, b=card */
    EV_PAY,           /* seat, a=money paid to the bank */
    EV_COAL,          /* seat, a=slot (or -1 market), b=price */
    EV_IRON,          /* seat, a=slot (or -1 market), b=price */
    EV_BEER,          /* seat, a=slot (or -1 merchant space b) */
    EV_BUILD,         /* seat, a=slot, b=industry, c=level */
    EV_OVERBUILD,     /* seat, a=slot, b=previous owner, c=previous level */
    EV_LINK,          /* seat, a=link */
    EV_DEVELOP,       /* seat, a=industry, b=level removed */
    EV_SELL,          /* seat, a=slot, b=merchant space */
    EV_FLIP,          /* seat=owner, a=slot, b=income spaces */
    EV_MARKET_SALE,   /* seat, a=slot, b=cubes sold, c=money earned */
    EV_MERCHANT_BONUS,/* seat, a=merchant space, b=bonus kind, c=amount */
    EV_LOAN,          /* seat, a=new income space */
    EV_SCOUT,         /* seat */
    EV_PASS,          /* seat */
    EV_TURN_END,      /* seat, a=cards drawn */
    EV_TURN_ORDER,    /* a,b,c,d packed in a (4 bits each) */
    EV_INCOME,        /* seat, a=money (negative = paid) */
    EV_SHORTFALL_REMOVE, /* seat, a=slot, b=money received */
    EV_VP_LOSS,       /* seat, a=VP lost */
    EV_LINK_SCORE,    /* seat, a=link, b=VP */
    EV_TILE_SCORE,    /* seat, a=slot, b=VP */
    EV_TILE_REMOVED,  /* seat=owner, a=slot (level-I removal at canal end) */
    EV_ERA_END,       /* a=era that ended */
    EV_BONUS_SCORE,   /* seat, a=VP (beginner variant end bonus) */
    EV_GAME_END,
    EV_ROUND_END,     /* a=round that ended */
    NUM_EVENT_TYPES
};

typedef struct {
    uint8_t type;
    int8_t seat;
    int16_t a, b, c;
} BrassEvent;

#define BRASS_MAX_EVENTS 256
typedef struct {
    uint32_t count;      /* events recorded (capped at BRASS_MAX_EVENTS) */
    uint32_t dropped;
    BrassEvent events[BRASS_MAX_EVENTS];
} BrassEventLog;

typedef struct {
    uint8_t players;
    uint8_t beginner;
    uint8_t manufacturer_iv_cost; /* 8 (default) or 14 */
    uint8_t auto_resolve;
    uint8_t ruleset;              /* BRASS_RULESET_* (0 = Birmingham) */
} BrassOptions;

/* ---- lifecycle ---- */
int brass_new(BrassGame *g, const BrassOptions *opt, uint64_t seed);
size_t brass_state_size(void);
/* Check every field and invariant of a state (after restore or a position). On error,
   writes the offending field's name into field (if not NULL). */
int brass_validate(const BrassGame *g, char *field, size_t field_len);

/* ---- decisions ---- */
int brass_legal(const BrassGame *g, uint16_t *out, int cap);      /* returns count or -error */
int brass_reason(const BrassGame *g, int action);                  /* BrassReason for one id */
int brass_apply(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason);
/* A whole compound action, atomically: all of it or nothing. *failed_at = index refused. */
int brass_apply_sequence(BrassGame *g, int seat, const uint16_t *ids, int n,
                         BrassEventLog *log, int *reason, int *failed_at);
/* What applying `ids` would do (one decision when n == 1, else a whole compound action, as
   brass_apply_sequence), as `seat` may see it (-1: as a spectator, the move made for the
   seat to act): g is unchanged; `after` gets the outcome redacted for `seat`, with the cards
   drawn from the face-down deck (at the era change: the whole new hand) left out of the
   seat's hand while hand_size counts them. The outcome is worked out from what the seat to
   act knows only, so deals it cannot tell apart give the same preview. `after` is for
   brass_view_json and public fields only, not a playable state. Errors as brass_apply. */
int brass_preview(const BrassGame *g, int seat, const uint16_t *ids, int n, BrassGame *after,
                  BrassEventLog *log, int *reason, int *failed_at);
/* All complete compound actions from here: flattened ids, offsets[k]..offsets[k+1].
   Returns the number of actions (or -error); *truncated set when caps were hit. */
int brass_compound_actions(const BrassGame *g, uint16_t *ids, int ids_cap, uint32_t *offsets,
                           int max_actions, int *truncated);

/* ---- information ---- */
const char *brass_reason_message(int reason);
const char *brass_action_name(int action);   /* stable short name, e.g. "card:birmingham" */
const char *brass_phase_name(int phase);
uint64_t brass_hash(const BrassGame *g);
/* Copy of the state with everything `seat` cannot see removed (seat -1 = spectator). */
void brass_redact(const BrassGame *g, int seat, BrassGame *out);
/* Re-deal what `seat` cannot see (others' hands, deck order, face-down cards), reseeded. */
int brass_determinize(BrassGame *g, int seat, uint64_t seed);
int brass_income_level(int space);
/* The documented position format (docs/POSITION.md) as JSON text, NUL-terminated: `seat`'s
   view (seat -1 = spectator; redacted here, as brass_redact) or the whole position (hidden
   information included). Returns the length, or -BRASS_E_BUFFER when `cap` is too small
   (BRASS_JSON_CAP always suffices), -BRASS_E_BAD_ARGUMENT for a bad seat. */
#define BRASS_JSON_CAP 32768
int brass_view_json(const BrassGame *g, int seat, char *out, int cap);
int brass_position_json(const BrassGame *g, char *out, int cap);
/* The JSON text of an object (e.g. a view from brass_view_json) as the wire bytes of a
   google.protobuf.Struct: map entries in the text's order (a key given twice is written
   twice; readers keep the last), numbers as doubles. Returns the length, or
   -BRASS_E_BUFFER when `cap` is too small (BRASS_STRUCT_CAP(len) always suffices),
   -BRASS_E_BAD_ARGUMENT when the text is not a JSON object, holds a string that is not
   UTF-8, a number longer than 39 characters or nests deeper than 32. */
#define BRASS_STRUCT_CAP(len) (8 * (len) + 64)
int brass_json_to_struct(const char *json, int len, uint8_t *out, int cap);
/* Seed the random state used for future shuffles (positions built from JSON). */
void brass_set_seed(BrassGame *g, uint64_t seed);
int brass_score_order(const BrassGame *g, uint8_t *ranking); /* seats best first; returns n */

/* ---- snapshots ---- */
size_t brass_snapshot_size(void);
int brass_snapshot(const BrassGame *g, uint8_t *buf, size_t cap);
int brass_restore(BrassGame *g, const uint8_t *buf, size_t len);

/* ---- AI surface ---- */
#define BRASS_OBS_SIZE 1024
int brass_observation(const BrassGame *g, int seat, float *out, int cap);
enum { POLICY_RANDOM = 0, POLICY_SANE = 1 };
/* Play to the end with a random policy; returns decisions made or -error. */
int brass_playout(BrassGame *g, int policy, uint64_t seed, int max_decisions);
typedef struct {
    uint64_t games, decisions, legal_calls;
    double seconds, legal_seconds, clone_seconds;
    uint64_t clones;
} BrassBenchResult;
int brass_bench(int players, int games, uint64_t seed, int policy, BrassBenchResult *out);
/* Vectorised stepping: one decision in each of n games (actions[i] < 0 skips game i), then
   for each game its observation for the seat to act (row of BRASS_OBS_SIZE floats; zeros when
   over), its legal mask (row of BRASS_NUM_ACTIONS bytes) and its done flag. errors[i] gets
   the brass_apply result. Returns the number of refused actions. */
int brass_step_batch(BrassGame *games, int n, const int32_t *actions, int32_t *errors,
                     float *obs, uint8_t *masks, uint8_t *done);
/* Batched playouts: games[i] played to the end in place. */
int brass_playout_batch(BrassGame *games, int n, int policy, uint64_t seed, int max_decisions);

#endif
