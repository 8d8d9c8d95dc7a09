/*
 * brass.h - public API of the Brass rules core, the same for every ruleset.
 *
 * Each ruleset (Brass: Birmingham, Brass: Pittsburgh) keeps its whole game in one plain
 * struct of its own (no pointers) that begins with BrassHeader; a BrassGame handle is
 * storage big enough for any of them. A copy is one memcpy of brass_state_size(ruleset)
 * bytes and a snapshot is those bytes plus a header. Every entry point validates its input
 * and returns an error code; none of them aborts. This header names no ruleset's
 * constants: sizes, names and option tables come from brass_ruleset_info() and friends
 * (docs/RULESETS.md).
 */
#ifndef BRASS_H
#define BRASS_H

#include <stddef.h>
#include <stdint.h>

#define BRASS_MAGIC 0x53534152u /* "RASS" */

enum { BRASS_RULESET_BIRMINGHAM = 0, BRASS_RULESET_PITTSBURGH = 1, BRASS_NUM_RULESETS = 2 };

#define BRASS_MAX_STATE_SIZE 2048 /* any ruleset's state struct fits */
#define BRASS_MAX_ACTIONS 512     /* any ruleset's action space fits */
#define BRASS_MAX_OBS_SIZE 2048   /* any ruleset's observation fits */
#define BRASS_MAX_OPTIONS 48      /* ruleset-specific options of a new game */
#define BRASS_MAX_PLAYERS 4
#define BRASS_NONE 255            /* "no such thing" in a byte field */

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
    uint8_t num_allowed;     /* 0: any value in [min, max]; else one of allowed[] (or, with
                                value_names, the values 0..num_allowed-1) */
    int16_t min, max, default_value;
    int16_t allowed[8];
    const char *const *value_names; /* NULL, or the JSON string of each value 0..num_allowed-1
                                       (an enumerated option: "optional", ...) */
    uint32_t unimplemented;  /* enumerated options: bit v set = value v is a rule choice this
                                core does not play yet (refused) */
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
    BRASS_R_NOTHING_TO_UNDO,    /* undo: no decision of this turn to take back */
    BRASS_R_UNDO_DISABLED,      /* undo: the game's option turns it off */
    BRASS_R_UNDO_BARRIER,       /* undo: hidden information was revealed since (it stands) */
    BRASS_NUM_SHARED_REASONS,
    BRASS_R_RULESET_FIRST = 64
};

/* A game handle: any ruleset's state, header first. Only brass_state_size(ruleset) bytes
   are meaningful (copied, hashed, snapshotted), and only they are ever read or written
   through a handle of a game of that ruleset: a caller may allocate just those bytes
   (8-byte aligned) for brass_new, brass_clone's dst and every call on the game. */
typedef union BrassGame {
    BrassHeader header;
    uint8_t bytes[BRASS_MAX_STATE_SIZE];
    uint64_t align_;
} BrassGame;

/* What a ruleset is (brass_ruleset_info). */
typedef struct {
    const char *name;          /* "birmingham" */
    const char *title;         /* "Brass: Birmingham" */
    uint16_t rules_edition;    /* bump when a rules fix changes outcomes */
    uint16_t format_version;   /* bump when the state layout changes */
    uint16_t state_size;       /* bytes of the state struct */
    uint16_t num_actions;      /* the action space: ids 0..num_actions-1 */
    uint16_t observation_size; /* floats of brass_observation */
    uint16_t num_decision_kinds;
    uint16_t num_event_types;
    uint8_t min_players, max_players;
    uint8_t num_options;       /* entries of brass_option_info */
    uint8_t provisional;       /* 1 while some of its data are placeholders */
    const char *placeholders;  /* the placeholder data, comma-separated ("" when none) */
} BrassRulesetInfo;

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
    BRASS_E_WRONG_RULESET = 9,  /* a snapshot or state of another ruleset than expected */
    BRASS_E_WRONG_EDITION = 10, /* a snapshot or state of a rules edition this core lacks */
    BRASS_E_CANNOT_UNDO = 11,   /* nothing may be undone now (see reason) */
    BRASS_E_UNSUPPORTED = 12,   /* not for this ruleset (brass_view_proto) */
};

/* Undo within a turn (docs/UNDO.md). Every ruleset's state holds one of these: how many
   decisions were applied (brass_apply, each id of brass_apply_sequence) since the undo
   barrier, the start of the seat's turn or the last point where hidden information became
   visible. Bookkeeping, not position: brass_hash leaves it out, snapshots keep it. */
enum { BRASS_UNDO_TURN_START = 0, BRASS_UNDO_REVEAL = 1, BRASS_UNDO_LIMIT = 2 };
typedef struct {
    uint8_t depth;        /* decisions since the barrier (0: at the barrier) */
    uint8_t action_start; /* depth where the action in progress began */
    uint8_t prev_start;   /* depth where the turn's previous action began (when below
                             action_start; all zero at the barrier) */
    uint8_t barrier;      /* BRASS_UNDO_*: why the barrier is there */
} BrassUndoMark;


/* Events one call caused (for frontends, previews and logs); `type` is the ruleset's
   (brass_event_name), a, b, c are named by brass_event_fields. */
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


/* A new game: the ruleset, the players and the ruleset's own options by index
   (brass_option_info; unused entries 0). brass_new refuses a value outside the table. */
typedef struct {
    uint8_t ruleset;      /* BRASS_RULESET_* */
    uint8_t players;
    uint8_t auto_resolve; /* apply single-option decisions automatically */
    uint8_t pad_;
    int16_t values[BRASS_MAX_OPTIONS];
} BrassOptions;

/* ---- rulesets ---- */
int brass_ruleset_info(int ruleset, BrassRulesetInfo *out);  /* BRASS_E_BAD_ARGUMENT if none */
int brass_option_info(int ruleset, int index, BrassOptionInfo *out);
/* Options filled with the ruleset's defaults (players and auto_resolve left to the caller). */
int brass_default_options(int ruleset, BrassOptions *out);
size_t brass_state_size(int ruleset);  /* 0 for an unknown ruleset */
int brass_num_actions(int ruleset);    /* 0 for an unknown ruleset */
/* Names are stable and NULL when out of range: an action id ("card:birmingham"), a decision
   kind ("build_slot"), a reason (shared or the ruleset's, "NOT_ENOUGH_MONEY"), an event
   type ("build") and the names of its a, b, c fields ("slot,industry,level"). */
const char *brass_action_name(int ruleset, int action);
const char *brass_decision_name(int ruleset, int kind);
const char *brass_reason_name(int ruleset, int reason);
const char *brass_reason_message(int ruleset, int reason);
const char *brass_event_name(int ruleset, int type);
const char *brass_event_fields(int ruleset, int type);

/* ---- lifecycle ---- */
int brass_new(BrassGame *g, const BrassOptions *opt, uint64_t seed);
/* dst = src (brass_state_size bytes; the rest of dst, if any, is left as it was) */
void brass_clone(BrassGame *dst, const BrassGame *src);
/* Check every field and invariant of a state (after restore or a position). On error,
   writes the offending field's name into field (if not NULL). */
int brass_validate(const BrassGame *g, char *field, size_t field_len);

/* ---- decisions ---- */
int brass_legal(const BrassGame *g, uint16_t *out, int cap);      /* returns count or -error */
int brass_reason(const BrassGame *g, int action);                  /* reason code for one id */
int brass_apply(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason);
/* brass_apply for a binding's loop, what it reads next in the same call: `log` (may be
   NULL) is emptied first; returns -error (reason as brass_apply's) or, packed in one int, the events
   recorded (bits 0-8), the undo depth after it (brass_undo_depth, bits 9-16) and the
   game's players (bits 17-19). One crossing where a binding made five. */
int brass_step(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason);
#define BRASS_STEP_EVENTS_MASK 511
#define BRASS_STEP_DEPTH_SHIFT 9
#define BRASS_STEP_PLAYERS_SHIFT 17
/* A whole compound action, atomically: all of it or nothing. *failed_at = index refused. */
int brass_apply_sequence(BrassGame *g, int seat, const uint16_t *ids, int n,
                         BrassEventLog *log, int *reason, int *failed_at);
/* The first decisions of one compound action (none of them ends the action nor reveals
   hidden information), applied atomically, so that the decision after them can be asked:
   its options and each refused option's reason, as the seat will meet them. An id that ends
   the action is BRASS_E_ILLEGAL with *reason BRASS_R_TOO_MANY_DECISIONS (*failed_at = its
   index); other errors as brass_apply_sequence. */
int brass_apply_partial(BrassGame *g, int seat, const uint16_t *ids, int n, int *reason,
                        int *failed_at);
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

/* ---- undo within a turn ---- */
/* How many decisions an undo by `seat` (-1: the seat to act) takes back: those of the action
   in progress (back to its start), else the turn's previous action. BRASS_OK and *steps >= 1,
   or BRASS_E_GAME_OVER, BRASS_E_NOT_YOUR_TURN, BRASS_E_BAD_ARGUMENT, BRASS_E_CANNOT_UNDO with
   *reason BRASS_R_NOTHING_TO_UNDO, BRASS_R_UNDO_DISABLED or BRASS_R_UNDO_BARRIER. */
int brass_undo_steps(const BrassGame *g, int seat, int *steps, int *reason);
/* Decisions applied since the undo barrier (0: g is at it), or -error. */
int brass_undo_depth(const BrassGame *g);
/* Undo: g becomes `barrier` (the state at the barrier: depth 0) with ids[0..n-steps) applied
   again, where ids are the n = brass_undo_depth(g) decisions applied since it. Checked: the
   barrier must be a valid state of g's ruleset at depth 0 from which ids lead exactly to g,
   else BRASS_E_BAD_ARGUMENT and g is unchanged; other errors as brass_undo_steps. */
int brass_undo(BrassGame *g, int seat, const BrassGame *barrier, const uint16_t *ids, int n,
               int *steps, int *reason);

/* ---- information ---- */
int brass_decision_kind(const BrassGame *g);        /* the ruleset's kind, or -error */
uint32_t brass_decisions_applied(const BrassGame *g);
uint64_t brass_hash(const BrassGame *g);  /* over the state bytes: ruleset and edition included */
/* Copy of the state with everything `seat` cannot see removed (seat -1 = spectator). */
void brass_redact(const BrassGame *g, int seat, BrassGame *out);
/* Re-deal what `seat` cannot see (others' hands, deck order, face-down cards), reseeded. */
int brass_determinize(BrassGame *g, int seat, uint64_t seed);
/* The ruleset's position format as JSON text, NUL-terminated: `seat`'s view (seat -1 =
   spectator; redacted here, as brass_redact) or the whole position (hidden information
   included). Returns the length, or -BRASS_E_BUFFER when `cap` is too small
   (BRASS_JSON_CAP always suffices), -BRASS_E_BAD_ARGUMENT for a bad seat, and (Pittsburgh)
   -BRASS_E_BAD_POSITION for a state brass_validate refuses. */
#define BRASS_JSON_CAP 32768
int brass_view_json(const BrassGame *g, int seat, char *out, int cap);
int brass_position_json(const BrassGame *g, char *out, int cap);
/* A state from the whole position's JSON text (the format brass_position_json writes),
   for rulesets whose reader is in C (Pittsburgh; Birmingham's is brass/position.py:
   BRASS_E_BAD_ARGUMENT). Every value is checked, then the whole state (brass_validate); on
   BRASS_E_BAD_POSITION, `field` gets the JSON path of the bad value ("players[1].money",
   "$" for the text itself) and `message` what is wrong. g is written only on success. */
int brass_position_read(BrassGame *g, int ruleset, const char *json, int len, char *field,
                        size_t field_len, char *message, size_t message_len);
/* Key styles of a view's JSON text: snake_case field names with nulls written (the Python
   engine API, the position format); canonical proto3 JSON for the service (lowerCamelCase
   field names, null members left out: it parses strictly into the ruleset's typed view
   message of proto/brass/v1); or that message's own field names (snake_case) with null
   members left out, as a protobuf runtime's message constructor takes them. Map keys
   (slot, link, card names) are the same in all. */
enum { BRASS_KEYS_SNAKE = 0, BRASS_KEYS_CAMEL = 1, BRASS_KEYS_PROTO = 2 };
/* brass_view_json in a key style (brass_view_json is BRASS_KEYS_SNAKE). */
int brass_view_json_keys(const BrassGame *g, int seat, int keys, char *out, int cap);
/* `seat`'s view (seat -1 = spectator; redacted here) as the ruleset's typed view message of
   brass.v1 in protobuf binary (BirminghamView, PittsburghView), the same view as
   brass_view_json_keys writes. Returns the length, -BRASS_E_BUFFER when `cap` is too small
   (nothing is written past `cap`; BRASS_VIEW_PROTO_CAP is ten times the largest view the
   tests see, about 6 KB), -BRASS_E_BAD_ARGUMENT for a bad seat, -BRASS_E_BAD_POSITION for
   a state the JSON writer refuses too, or -BRASS_E_UNSUPPORTED for a ruleset without one. */
#define BRASS_VIEW_PROTO_CAP 65536
int brass_view_proto(const BrassGame *g, int seat, uint8_t *out, int cap);
/* Seed the random state used for future shuffles (positions built from JSON). */
void brass_set_seed(BrassGame *g, uint64_t seed);
/* Scores and standing (seats best first, the ruleset's tie rules applied). */
int brass_result(const BrassGame *g, BrassResult *out);
int brass_score_order(const BrassGame *g, uint8_t *ranking); /* seats best first; returns n */

/* ---- snapshots ---- */
/* Header (16 bytes): magic, format version | rules edition << 16, state size | ruleset << 16,
   checksum; then the state bytes. */
size_t brass_snapshot_size(int ruleset);
int brass_snapshot(const BrassGame *g, uint8_t *buf, size_t cap);
/* expected_ruleset: BRASS_RULESET_* or -1 for any; a snapshot of another ruleset is
   BRASS_E_WRONG_RULESET, of a later rules edition BRASS_E_WRONG_EDITION. */
int brass_restore(BrassGame *g, const uint8_t *buf, size_t len, int expected_ruleset);
/* The ruleset and rules edition a snapshot claims (its header only), or -BRASS_E_BAD_SNAPSHOT */
int brass_snapshot_ruleset(const uint8_t *buf, size_t len, int *rules_edition);

/* ---- AI surface ---- */
int brass_observation(const BrassGame *g, int seat, float *out, int cap);
/* The public numbers a static evaluator reads of a state (all a spectator sees of them), as
   int32 in the ruleset's layout (docs/ENGINE_API.md, "The summary"): the same facts as the
   spectator view's JSON, without writing and parsing text. Returns the count written,
   -BRASS_E_BUFFER when `cap` is too small (BRASS_SUMMARY_CAP always fits), or
   -BRASS_E_BAD_POSITION for a state the view writer refuses too. */
#define BRASS_SUMMARY_CAP 512
int brass_summary(const BrassGame *g, int32_t *out, int cap);
/* brass_summary after each of n whole actions (action k: ids[offsets[k]..offsets[k+1])),
   each applied by `seat` to its own copy of g as brass_apply_sequence does (g unchanged):
   summary k at out + k * stride, its length in lengths[k]. Returns BRASS_OK, or the first
   refusal's error (brass_apply_sequence's, with *reason and *failed_at; *failed_action = k),
   BRASS_E_BUFFER for a stride the summary does not fit, BRASS_E_BAD_ARGUMENT for an empty
   action or a bad pointer. A search's trial moves, valued without a Python call each. */
int brass_summaries_after(const BrassGame *g, int seat, const uint16_t *ids,
                          const uint32_t *offsets, int n, int32_t *out, int stride,
                          int32_t *lengths, int *reason, int *failed_action, int *failed_at);
/* ---- a bot's static evaluator in C (brass_clients.bots.heuristic: the search's inner loop) ----
   The worth of every seat of a summary, relative to the others, as the Python evaluators'
   `values` compute it from the same summary, in the same order of operations (the same
   doubles). The evaluator's weights and board facts come from Python in BrassWorthParams,
   so no board data is kept twice; which formula applies is the params' ruleset. */
#define BRASS_WORTH_MAX_LOCATIONS 64
#define BRASS_WORTH_MAX_SLOTS 64
#define BRASS_WORTH_MAX_TILES 80 /* Birmingham: industry * BRASS_WORTH_LEVELS + level; Pittsburgh: kind */
#define BRASS_WORTH_LEVELS 9
#define BRASS_WORTH_MAX_LINKS 64
#define BRASS_WORTH_MAX_ENDS 4
#define BRASS_WORTH_MAX_LINK_TYPES 16
/* A tile's VP: none (the tile is not valued), a number, or one of Pittsburgh's variable rules */
enum { BRASS_TILE_VP_NONE = 0, BRASS_TILE_VP_FIXED = 1, BRASS_TILE_VP_INCOME_LEVEL = 2,
       BRASS_TILE_VP_PER_HEAVY_TRAIN = 3, BRASS_TILE_VP_PER_EMPTY_POSITION = 4,
       BRASS_TILE_VP_ZERO = 5 };
typedef struct {
    int32_t vp_rule; /* BRASS_TILE_VP_* */
    double vp;       /* FIXED: the VP; INCOME_LEVEL: its minimum; PER_*: VP per count */
    int32_t level, link_icons, income_spaces, money;
    int32_t goods;   /* weighted as goods when unflipped (else as a resource) */
} BrassWorthTile;
typedef struct {
    int32_t ruleset;   /* BRASS_RULESET_*: which evaluator */
    int32_t table_set; /* Pittsburgh: the summary's table set these facts are of */
    /* HeuristicWeights */
    double money_vp, liquidity_vp, liquidity_money, income_discount, negative_income_vp,
        levels_per_space, unflipped_goods, unflipped_resources, merchant_link_icons,
        opponent_weight, whiskey_vp;
    double era_turns[BRASS_MAX_PLAYERS + 1]; /* Birmingham: a seat's turns in an era, by players */
    int32_t rounds_per_era, eras;            /* Pittsburgh */
    int32_t num_locations, num_slots, num_tiles, num_links, num_link_types;
    double location_icons[BRASS_WORTH_MAX_LOCATIONS]; /* icons before any tile (printed ones) */
    int32_t slot_location[BRASS_WORTH_MAX_SLOTS];
    BrassWorthTile tiles[BRASS_WORTH_MAX_TILES];
    int32_t link_ends[BRASS_WORTH_MAX_LINKS][BRASS_WORTH_MAX_ENDS]; /* -1: a merchant (Birmingham) */
    int32_t link_end_count[BRASS_WORTH_MAX_LINKS];
    int32_t link_type_pipe[BRASS_WORTH_MAX_LINK_TYPES], link_type_light[BRASS_WORTH_MAX_LINK_TYPES],
        link_type_multiplier[BRASS_WORTH_MAX_LINK_TYPES];
    int32_t has_oil;
    BrassWorthTile oil;
} BrassWorthParams;
/* Each seat's value of one summary (brass_summary's) into out[0..players): BRASS_OK,
   BRASS_E_UNSUPPORTED for a Pittsburgh table set the params are not of (the Python
   evaluator reads the view then), BRASS_E_BAD_ARGUMENT for params or a summary that do
   not fit each other (an index outside a table). */
int brass_summary_worths(const int32_t *summary, int len, const BrassWorthParams *p, double *out);
/* brass_summaries_after, then brass_summary_worths of each: action k's values at
   out + k * BRASS_MAX_PLAYERS. Errors as those two (*failed_action: the action). */
int brass_worths_after(const BrassGame *g, int seat, const uint16_t *ids, const uint32_t *offsets,
                       int n, const BrassWorthParams *p, double *out, int *reason,
                       int *failed_action, int *failed_at);
/* Whole actions (action k: ids[offsets[k]..offsets[k+1])) grouped by their ids less those
   `drop` marks (drop[id] != 0 for id < num_ids; e.g. a bot's card ids): group[k] is action
   k's group, the groups numbered by first appearance, first[g] the first action of group g.
   `table` is the caller's scratch of table_size int32, a power of two at least 2n. Returns
   the number of groups, or -BRASS_E_BAD_ARGUMENT (an id of num_ids or more, offsets going
   back, a bad size or pointer). A search's grouping of the actions it lists. */
int brass_group_actions(const uint16_t *ids, const uint32_t *offsets, int n, const uint8_t *drop,
                        int num_ids, int32_t *group, int32_t *first, int32_t *table,
                        int table_size);
/* The greedy playout policy (brass_greedy_playout_batch): brass_clients.bots.greedy's
   choice made in C. `scratch`: brass_greedy_scratch_size(max_actions) bytes of the caller's,
   8-byte aligned (the core allocates nothing). */
#define BRASS_GREEDY_MAX_ACTIONS 100000
#define BRASS_GREEDY_MAX_STAGED 1048576
typedef struct {
    const BrassWorthParams *params; /* the evaluator valuing each whole action */
    const uint8_t *drop; /* by id: 1 for the ids a group leaves out (brass_group_actions'); NULL:
                            every listed action valued */
    int num_ids;         /* drop's length: the ruleset's action count */
    int max_actions;     /* whole actions listed a decision, 1..BRASS_GREEDY_MAX_ACTIONS */
    int staged_evaluations; /* a listing past max_actions: the decision is made id by id, each
                               id worth the best of random completions of its action, this many
                               in all, at most BRASS_GREEDY_MAX_STAGED (0: the listed actions
                               are valued) */
    double epsilon;      /* chance of a uniformly random listed action instead of the best */
    void *scratch;
    size_t scratch_size;
} BrassGreedyPolicy;
/* Bytes of scratch for max_actions (0 when out of range). */
size_t brass_greedy_scratch_size(int max_actions);
/* n games (a batch, as brass_playout_batch's) played on by the greedy policy for the seat to
   act until over or max_decisions decisions; game i's random draws from seed + i * a constant.
   Game i's ids go to record + i * record_stride (NULL: not kept; record_stride at least
   max_decisions) and their count to lengths[i], so that Python can replay the games.
   BRASS_OK; BRASS_E_BAD_ARGUMENT (a bad batch, policy, scratch or params of another ruleset)
   before any game is played; BRASS_E_UNSUPPORTED where the params do not value these games
   (brass_summary_worths'), the games before it played. */
int brass_greedy_playout_batch(void *games, size_t stride, int n, const BrassGreedyPolicy *policy,
                               uint64_t seed, int max_decisions, uint16_t *record,
                               int record_stride, int32_t *lengths);
enum { POLICY_RANDOM = 0, POLICY_SANE = 1 };
/* Play to the end with a random policy; returns decisions made or -error. */
int brass_playout(BrassGame *g, int policy, uint64_t seed, int max_decisions);
typedef struct {
    uint64_t games, decisions, legal_calls;
    double seconds, legal_seconds, clone_seconds;
    uint64_t clones;
    double cpu_seconds; /* CPU time of the calling thread over the games (seconds: wall) */
} BrassBenchResult;
/* Random full games of `opt`'s ruleset and options (seeds seed, seed+1, ...). */
int brass_bench(const BrassOptions *opt, int games, uint64_t seed, int policy,
                BrassBenchResult *out);
/* Batches: n games of one ruleset laid out `stride` bytes apart (a multiple of 8, at least
   brass_state_size: a batch of Birmingham games need not take BRASS_MAX_STATE_SIZE a game).
   Vectorised stepping: one decision in each game (actions[i] < 0 skips game i), then for each game its observation for the seat to act (row of obs_stride floats;
   zeros when over), its legal mask (row of mask_stride bytes) and its done flag. The strides
   must be at least the ruleset's observation size and action count. errors[i] gets the
   brass_apply result. Returns the number of refused actions, or -BRASS_E_BAD_ARGUMENT
   (games of several rulesets, short strides) before touching any game. */
int brass_step_batch(void *games, size_t stride, int n, const int32_t *actions,
                     int32_t *errors, float *obs, int obs_stride, uint8_t *masks,
                     int mask_stride, uint8_t *done);
/* Batched playouts: every game played to the end in place (-BRASS_E_BAD_ARGUMENT, before
   any is played, for a bad stride or games of several rulesets). */
int brass_playout_batch(void *games, size_t stride, int n, int policy, uint64_t seed,
                        int max_decisions);

#endif
