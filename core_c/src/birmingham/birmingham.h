/*
 * birmingham.h - Brass: Birmingham's state, action space, decision kinds, reasons and events.
 *
 * Not part of the public API (brass.h names no ruleset's constants); the Python position
 * reader and the Birmingham-only tests and fuzzers read it too.
 */
#ifndef BRASS_BIRMINGHAM_H
#define BRASS_BIRMINGHAM_H

#include "brass.h"

#define BHAM_RULES_EDITION 1  /* bump when a rules fix changes outcomes */
#define BHAM_FORMAT_VERSION 1 /* bump when BirminghamGame's layout changes */
#define BHAM_OBS_SIZE 1024    /* observation floats */

#define BHAM_NUM_LOCATIONS 27
#define BHAM_NUM_SLOTS 49
#define BHAM_NUM_LINKS 39
#define BHAM_NUM_MERCHANT_SPACES 9
#define BHAM_NUM_INDUSTRIES 6
#define BHAM_NUM_CARD_TYPES 27
#define BHAM_MAX_DECK 64
#define BHAM_HAND_LIMIT 8
#define BHAM_LINK_TILES 14
#define BHAM_NO_CARD 255

/* Birmingham's options (BrassOptions.values[]) */
enum { BHAM_OPT_BEGINNER = 0, BHAM_OPT_MANUFACTURER_IV_COST = 1, BHAM_OPT_UNDO = 2, BHAM_NUM_OPTIONS = 3 };

enum BirminghamIndustry { IND_COTTON, IND_MANUFACTURER, IND_POTTERY, IND_COAL, IND_IRON, IND_BREWERY };
enum BirminghamEra { ERA_CANAL = 0, ERA_RAIL = 1 };

/* Action types: the first decision of every action. */
enum BirminghamActionType {
    ACT_BUILD, ACT_NETWORK, ACT_DEVELOP, ACT_SELL, ACT_LOAN, ACT_SCOUT, ACT_PASS, NUM_ACT_TYPES
};

/*
 * The fixed action space. An id's meaning depends on the range it is in; the
 * current decision kind says which ranges are valid now.
 */
enum BirminghamActionRange {
    A_ACTION_TYPE = 0,                          /* 7: BrassActionType */
    A_CARD = A_ACTION_TYPE + NUM_ACT_TYPES,     /* 27: card type to discard */
    A_INDUSTRY = A_CARD + BHAM_NUM_CARD_TYPES, /* 6: industry (build / develop) */
    A_SLOT = A_INDUSTRY + BHAM_NUM_INDUSTRIES, /* 49: a board slot (build here, sell this,
                                                   take from this mine/works/brewery, remove) */
    A_LINK = A_SLOT + BHAM_NUM_SLOTS,          /* 39: a route */
    A_MARKET = A_LINK + BHAM_NUM_LINKS,        /* 1: buy from the coal / iron market */
    A_MERCHANT = A_MARKET + 1,                  /* 9: a merchant space (sell to / its beer) */
    A_DONE = A_MERCHANT + BHAM_NUM_MERCHANT_SPACES, /* 1: stop (no second rail / sale / develop) */
    BHAM_NUM_ACTIONS = A_DONE + 1
};

/* Decision kinds (what the seat to act is choosing now). */
enum BirminghamPhase {
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

/* Why an option is unavailable (0 = legal): the shared codes of brass.h, then Birmingham's
   own from BRASS_R_RULESET_FIRST. Names and messages: bham_reason_name / _message. */
enum BirminghamReason {
    R_LEGAL = BRASS_R_LEGAL,
    R_WRONG_DECISION = BRASS_R_WRONG_DECISION,
    R_CARD_NOT_IN_HAND = BRASS_R_CARD_NOT_IN_HAND,
    R_NOT_ENOUGH_MONEY = BRASS_R_NOT_ENOUGH_MONEY,
    R_NOT_IN_NETWORK = BRASS_R_NOT_IN_NETWORK,
    R_SLOT_OCCUPIED = BRASS_R_SLOT_OCCUPIED,
    R_NO_TILES_LEFT = BRASS_R_NO_TILES_LEFT,
    R_LINK_TAKEN = BRASS_R_LINK_TAKEN,
    R_NO_LINK_TILES = BRASS_R_NO_LINK_TILES,
    R_LOAN_LIMIT = BRASS_R_LOAN_LIMIT,
    R_NOT_ENOUGH_CARDS = BRASS_R_NOT_ENOUGH_CARDS,
    R_NOT_YOUR_TILE = BRASS_R_NOT_YOUR_TILE,
    R_NO_OPTION = BRASS_R_NO_OPTION,
    R_CANONICAL_ORDER = BRASS_R_CANONICAL_ORDER,
    R_MUST_CHOOSE = BRASS_R_MUST_CHOOSE,
    R_INCOMPLETE_ACTION = BRASS_R_INCOMPLETE_ACTION,
    R_TOO_MANY_DECISIONS = BRASS_R_TOO_MANY_DECISIONS,
    R_NO_CONNECTED_COAL = BRASS_R_RULESET_FIRST, /* no connected coal and no merchant connection for the market */
    R_CANAL_ONE_TILE_PER_TOWN,
    R_SLOT_WRONG_INDUSTRY,
    R_SINGLE_ICON_SLOT_FIRST,
    R_TILE_WRONG_ERA,
    R_CANNOT_OVERBUILD,
    R_CARD_DOES_NOT_ALLOW,
    R_FARM_NEEDS_INDUSTRY_CARD,
    R_LINK_WRONG_ERA,
    R_LINK_NOT_IN_NETWORK,
    R_NO_BEER,
    R_NOT_NEAREST_COAL,
    R_MINE_COAL_FIRST, /* a connected mine still has coal: the market is not allowed */
    R_WORKS_IRON_FIRST, /* an iron works still has iron: the market is not allowed */
    R_NOT_CONNECTED_TO_MERCHANT,
    R_NO_MERCHANT_ACCEPTS,
    R_ALREADY_FLIPPED,
    R_NOT_SELLABLE,
    R_LIGHTBULB_POTTERY,
    R_HOLDING_WILD_CARD,
    R_SOURCE_EMPTY,
    R_BEER_NOT_CONNECTED,
    R_MERCHANT_BEER_NOT_HERE,
    R_NO_TILE_HERE,
    R_NO_BUILD_WITH_CARD,
    R_BEER_NOT_NEEDED,
    NUM_REASONS
};

typedef struct {
    int8_t owner;     /* -1 empty */
    uint8_t industry; /* BrassIndustry when owned */
    uint8_t level;    /* 1-based */
    uint8_t flipped;
    uint8_t cubes;    /* coal, iron or beer on the tile */
} BirminghamSlot;

typedef struct {
    int16_t money;
    int16_t vp;
    int16_t spent;              /* money spent this round (turn order) */
    uint8_t income_space;       /* 0..99 on the progress track */
    uint8_t links_left;         /* link tiles in the player's supply */
    uint8_t mat_taken[BHAM_NUM_INDUSTRIES]; /* tiles gone from the mat, lowest first */
    uint8_t hand[BHAM_NUM_CARD_TYPES];      /* counts per card type */
    uint8_t hand_size;
    uint8_t facedown_card;      /* the face-down setup discard (nobody may see it) */
    uint8_t last_discard;       /* top of the face-up discard pile, or BHAM_NO_CARD */
    uint8_t pad_[2];            /* explicit (was 1 byte + 1 hidden): zero in a valid state */
} BirminghamPlayer;

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
} BirminghamPending;

/* Birmingham's whole state. Its first 20 bytes are the common BrassHeader (checked in
   bham_internal.h); the opaque BirminghamGame handle holds it. */
typedef struct BirminghamGame {
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
    uint8_t deck[BHAM_MAX_DECK];              /* deck[deck_size-1] is the top card */
    uint8_t discards[BHAM_NUM_CARD_TYPES];    /* face-up discards of all players */
    uint8_t merchant_tile[BHAM_NUM_MERCHANT_SPACES]; /* accepted goods mask; 0 blank; 255 none */
    uint8_t merchant_beer[BHAM_NUM_MERCHANT_SPACES];
    int8_t link_owner[BHAM_NUM_LINKS];
    uint8_t undo_off;        /* 1: the game's option turns undo off (0, the default: on) */
    uint8_t pad_;
    BirminghamSlot slots[BHAM_NUM_SLOTS];
    BirminghamPlayer players[BRASS_MAX_PLAYERS];
    BirminghamPending pend;
    uint64_t rng_state;
    uint64_t seed;           /* never part of a seat's view */
    uint32_t decisions;      /* decisions applied so far */
    BrassUndoMark undo;      /* undo bookkeeping (brass.h; not part of the hash) */
} BirminghamGame;

/* Birmingham's event types (BrassEvent.type). */
enum BirminghamEventType {
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


/* The income level of a space on the progress track (-10..30). */
int bham_income_level(int space);

#endif
