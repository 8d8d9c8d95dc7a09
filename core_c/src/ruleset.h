/* The interface every ruleset implements (docs/RULESETS.md). The public API in engine.c
   checks arguments and the common header, then dispatches through the game's entry; a
   ruleset keeps its own state struct (header first), tables and rule files in its folder
   (core_c/src/<ruleset>/) and adds one BrassRuleset entry to RULESETS in engine.c. */
#ifndef BRASS_RULESET_H
#define BRASS_RULESET_H

#include "brass.h"

typedef struct BrassRuleset {
    const char *name;  /* "birmingham": the Python and service name */
    const char *title; /* "Brass: Birmingham" */
    uint16_t rules_edition, format_version;
    uint16_t state_size, num_actions, observation_size;
    uint16_t num_decision_kinds, num_event_types;
    uint8_t min_players, max_players;
    uint8_t provisional;      /* 1 while some of its data are placeholders */
    const char *placeholders; /* comma-separated placeholder data, "" when none */
    const BrassOptionInfo *options;
    int num_options;

    /* players and every option value already checked against `options` */
    int (*new_game)(BrassGame *g, const BrassOptions *opt, uint64_t seed);
    /* every field in range and every invariant the rules rely on (the header's magic,
       ruleset, format, edition, players, current and game_over are checked first) */
    int (*validate)(const BrassGame *g, char *field, size_t field_len);
    int (*legal)(const BrassGame *g, uint16_t *out, int cap);
    /* 0 or a reason code; the id is in range and the game not over */
    int (*reason)(const BrassGame *g, int action);
    /* apply an id known to be legal; then, if resolve_forced and the game's option says so,
       every following single-option decision */
    void (*apply_legal)(BrassGame *g, int action, BrassEventLog *log, int resolve_forced);
    /* does `after` start a new action (or seat, or end the game) compared with `before`? */
    int (*action_ended)(const BrassGame *after, const BrassGame *before);
    void (*redact)(const BrassGame *g, int seat, BrassGame *out); /* seat -1 = spectator */
    int (*determinize)(BrassGame *g, int seat, uint64_t seed);
    int (*observation)(const BrassGame *g, int seat, float *out, int cap);
    /* brass_summary's numbers (a spectator's), at most BRASS_SUMMARY_CAP of them */
    int (*summary)(const BrassGame *g, int32_t *out, int cap);
    /* the position format as JSON text: a redacted state seen by `seat` (hidden = 0), or
       everything (hidden = 1); returns the length, or -BRASS_E_BUFFER */
    /* keys: BRASS_KEYS_* (common/json_writer.h applies it); the text ends with '}' */
    int (*position_json)(const BrassGame *g, int seat, int hidden, int keys, char *out, int cap);
    uint8_t snake_keys_only; /* position_json writes snake_case keys whatever `keys` says */
    /* a redacted state's view as the ruleset's brass.v1 view message, protobuf binary, with
       the undo fields given (NULL: none; brass_view_proto answers BRASS_E_UNSUPPORTED) */
    int (*view_proto)(const BrassGame *g, int seat, int undo_steps, int undo_refused,
                      uint8_t *out, int cap);
    /* the full position's JSON text back into a validated state (NULL: the ruleset's
       positions are read in Python, brass/position.py); BRASS_E_BAD_POSITION with the bad
       value's JSON path in field and what is wrong in message */
    int (*position_read)(BrassGame *g, const char *json, size_t len, char *field, size_t field_len,
                         char *message, size_t message_len);
    int (*result)(const BrassGame *g, BrassResult *out);
    /* options a "sane" random policy keeps (e.g. no loan while another action is legal) */
    int (*sane_options)(const BrassGame *g, const uint16_t *opts, int n, uint16_t *keep);
    int (*decision_kind)(const BrassGame *g);
    uint32_t (*decisions)(const BrassGame *g); /* decisions applied so far */
    /* undo (docs/UNDO.md): where the state keeps its BrassUndoMark and its undo-off byte (1 =
       the game's option turns undo off); keys[0] identifies the turn (a change is a new
       turn: the barrier), keys[1] what hidden information the seat to act has seen (a change
       within the turn is a reveal: the barrier too); at an action's first decision? */
    uint16_t undo_mark_offset, undo_off_offset;
    void (*undo_keys)(const BrassGame *g, uint64_t keys[2]);
    int (*at_action_start)(const BrassGame *g);
    void (*set_seed)(BrassGame *g, uint64_t seed);
    /* names (NULL out of range); reason_* are asked for the ruleset's own codes
       (>= BRASS_R_RULESET_FIRST) and may phrase a shared one (else the engine's text) */
    const char *(*action_name)(int action);
    const char *(*decision_name)(int kind);
    const char *(*reason_name)(int reason);
    const char *(*reason_message)(int reason);
    const char *(*event_name)(int type);
    const char *(*event_fields)(int type); /* NULL: the fields are called a, b, c */
    /* previews (brass_preview refuses them for a ruleset without these two): deal
       everything `seat` cannot see in one canonical order (random state
       fixed), so that a move's outcome depends on that seat's knowledge only */
    void (*conceal)(BrassGame *g, int seat);
    /* what `viewer` may see of `after`, a move's outcome from the concealed `before`: the
       redacted state, less the cards the viewer drew unseen (hand_size still counts them) */
    void (*redact_preview)(const BrassGame *before, const BrassGame *after, int viewer,
                           BrassGame *out);
} BrassRuleset;

extern const BrassRuleset BRASS_BIRMINGHAM;
extern const BrassRuleset BRASS_PITTSBURGH;

#endif
