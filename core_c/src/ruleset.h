/* The interface every ruleset implements. The public API in engine.c only dispatches
   through it, so a new ruleset (Brass: Pittsburgh next) adds its own tables and rule files
   plus one BrassRuleset entry, without touching another ruleset's rules. */
#ifndef BRASS_RULESET_H
#define BRASS_RULESET_H

#include "brass.h"

typedef struct BrassRuleset {
    const char *name;
    int (*new_game)(BrassGame *g, const BrassOptions *opt, uint64_t seed);
    /* every field in range and every invariant the rules rely on */
    int (*validate)(const BrassGame *g, char *field, size_t field_len);
    int (*legal)(const BrassGame *g, uint16_t *out, int cap);
    int (*reason)(const BrassGame *g, int action);
    /* apply an id known to be legal; then, if resolve_forced and the game's option says so,
       every following single-option decision */
    void (*apply_legal)(BrassGame *g, int action, BrassEventLog *log, int resolve_forced);
    /* does `after` start a new action (or seat, or end the game) compared with `before`? */
    int (*action_ended)(const BrassGame *after, const BrassGame *before);
    void (*redact)(const BrassGame *g, int seat, BrassGame *out);
    int (*determinize)(BrassGame *g, int seat, uint64_t seed);
    int (*observation)(const BrassGame *g, int seat, float *out, int cap);
    /* the position format as JSON text: a redacted state seen by `seat` (hidden = 0), or
       everything (hidden = 1); returns the length, or -BRASS_E_BUFFER */
    int (*position_json)(const BrassGame *g, int seat, int hidden, char *out, int cap);
    int (*score_order)(const BrassGame *g, uint8_t *ranking);
    /* options a "sane" random policy keeps (e.g. no loan while another action is legal) */
    int (*sane_options)(const BrassGame *g, const uint16_t *opts, int n, uint16_t *keep);
    const char *(*action_name)(int action);
    const char *(*phase_name)(int phase);
    const char *(*reason_message)(int reason);
    /* previews (brass_preview refuses them for a ruleset without these two): deal
       everything `seat` cannot see in one canonical order (random state fixed), so that a
       move's outcome depends on that seat's knowledge only */
    void (*conceal)(BrassGame *g, int seat);
    /* what `viewer` may see of `after`, a move's outcome from the concealed `before`: the
       redacted state, less the cards the viewer drew unseen (hand_size still counts them) */
    void (*redact_preview)(const BrassGame *before, const BrassGame *after, int viewer,
                           BrassGame *out);
} BrassRuleset;

extern const BrassRuleset BRASS_BIRMINGHAM;

#endif
