/* What the public API's files share (engine.c, compound.c, snapshot.c, playout.c): the
   ruleset table, the look-ups every entry point starts with, and one decision's checks and
   application with its undo bookkeeping (docs/UNDO.md). Not a public header. */
#ifndef BRASS_ENGINE_H
#define BRASS_ENGINE_H

#include "ruleset.h"

extern const BrassRuleset *const RULESETS[BRASS_NUM_RULESETS];

static inline const BrassRuleset *ruleset_by_id(int ruleset) {
    return ruleset >= 0 && ruleset < BRASS_NUM_RULESETS ? RULESETS[ruleset] : NULL;
}

static inline const BrassRuleset *ruleset_of(const BrassGame *g) {
    if (!g || g->header.magic != BRASS_MAGIC) return NULL;
    return ruleset_by_id(g->header.ruleset);
}

static inline const BrassUndoMark *mark_of(const BrassRuleset *rs, const BrassGame *g) {
    return (const BrassUndoMark *)(const void *)(g->bytes + rs->undo_mark_offset);
}

/* BRASS_OK, or why `seat` may not take `action` now (*reason for BRASS_E_ILLEGAL) */
int engine_check(const BrassRuleset *rs, const BrassGame *g, int seat, int action, int *reason);
/* a legal decision, applied with its undo bookkeeping */
void engine_apply_counted(const BrassRuleset *rs, BrassGame *g, int action, BrassEventLog *log);

/* Each of n whole actions (action k: ids[offsets[k]..offsets[k+1])) applied by `seat` to its
   own copy of g, as brass_apply_sequence does, and the copy handed to visit(ctx, k, copy):
   brass_summaries_after's and brass_worths_after's loop. Returns BRASS_OK, the first
   refusal's error (*failed_action = k), or the first error visit returns. */
typedef int (*AfterVisitor)(void *ctx, int k, const BrassGame *after);
int each_state_after(const BrassGame *g, int seat, const uint16_t *ids, const uint32_t *offsets,
                     int n, AfterVisitor visit, void *ctx, int *reason, int *failed_action,
                     int *failed_at);

/* Batches (playout.c): slot i of games laid out `stride` bytes apart, and the ruleset of a
   batch whose n slots all hold games of one ruleset fitting the stride (NULL otherwise) */
BrassGame *batch_slot(void *games, size_t stride, int i);
const BrassRuleset *batch_ruleset(void *games, size_t stride, int n);

#endif
