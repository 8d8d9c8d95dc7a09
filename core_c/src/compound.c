/* Whole compound actions: applied atomically (brass_apply_sequence; their first steps alone,
   brass_apply_partial), previewed on a concealed copy (brass_preview) and listed by a search
   over the decisions of one action (brass_compound_actions). Each decision goes through
   engine.c's checks and undo bookkeeping. */
#include <string.h>

#include "engine.h"

/* A compound action ends where the action ends, or where hidden information is revealed
   within it (an undo barrier, docs/UNDO.md: a Pittsburgh oilfield tile, P25-P26): what the
   seat decides next depends on what it learns there, so a listing, a preview or an atomic
   application of decisions past it would use (or show) the hidden outcome. */
static int reveals(const BrassRuleset *rs, const BrassGame *after, const BrassGame *before) {
    uint64_t was[2], now[2];
    rs->undo_keys(before, was);
    rs->undo_keys(after, now);
    return was[1] != now[1];
}

static int compound_ended(const BrassRuleset *rs, const BrassGame *after, const BrassGame *before) {
    return rs->action_ended(after, before) || reveals(rs, after, before);
}

/* Applies ids[0..n) on a copy of g, each checked; `whole`: the last one ends the compound
   action and no other does; else none does (the first steps of one). g changes only when
   all of them are applied. */
static int apply_steps(BrassGame *g, int seat, const uint16_t *ids, int n, BrassEventLog *log,
                       int *reason, int *failed_at, int whole) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || (!ids && n) || n <= 0) return BRASS_E_BAD_ARGUMENT;
    BrassGame work, before;
    memcpy(&work, g, rs->state_size);
    if (failed_at) *failed_at = 0;
    if (reason) *reason = BRASS_R_LEGAL;
    uint32_t log_start = log ? log->count : 0;
    for (int i = 0; i < n; i++) {
        memcpy(&before, &work, rs->state_size);
        int err = engine_check(rs, &work, seat, ids[i], reason);
        if (!err) engine_apply_counted(rs, &work, ids[i], log);
        int ended = err == BRASS_OK && compound_ended(rs, &work, &before);
        if (err == BRASS_OK && ended != (whole && i == n - 1)) {
            err = BRASS_E_ILLEGAL;
            if (reason) *reason = ended ? BRASS_R_TOO_MANY_DECISIONS : BRASS_R_INCOMPLETE_ACTION;
        }
        if (err) {
            if (failed_at) *failed_at = i;
            if (log) log->count = log_start;
            return err;
        }
        seat = before.header.current;
    }
    memcpy(g, &work, rs->state_size);
    return BRASS_OK;
}

int brass_apply_sequence(BrassGame *g, int seat, const uint16_t *ids, int n, BrassEventLog *log,
                         int *reason, int *failed_at) {
    return apply_steps(g, seat, ids, n, log, reason, failed_at, 1);
}

int brass_apply_partial(BrassGame *g, int seat, const uint16_t *ids, int n, int *reason,
                        int *failed_at) {
    return apply_steps(g, seat, ids, n, NULL, reason, failed_at, 0);
}

int each_state_after(const BrassGame *g, int seat, const uint16_t *ids, const uint32_t *offsets,
                     int n, AfterVisitor visit, void *ctx, int *reason, int *failed_action,
                     int *failed_at) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !ids || !offsets || n < 0) return BRASS_E_BAD_ARGUMENT;
    if (failed_action) *failed_action = 0;
    BrassGame work;
    for (int k = 0; k < n; k++) {
        if (failed_action) *failed_action = k;
        if (offsets[k + 1] <= offsets[k]) return BRASS_E_BAD_ARGUMENT;
        memcpy(&work, g, rs->state_size);
        int err = brass_apply_sequence(&work, seat, ids + offsets[k], (int)(offsets[k + 1] - offsets[k]),
                                       NULL, reason, failed_at);
        if (!err) err = visit(ctx, k, &work);
        if (err) return err;
    }
    return BRASS_OK;
}

typedef struct {
    int32_t *out, *lengths;
    int stride;
} SummaryOut;

static int write_summary(void *ctx, int k, const BrassGame *after) {
    SummaryOut *o = ctx;
    int len = ruleset_of(after)->summary(after, o->out + (size_t)k * (size_t)o->stride, o->stride);
    if (len < 0) return -len;
    o->lengths[k] = len;
    return BRASS_OK;
}

int brass_summaries_after(const BrassGame *g, int seat, const uint16_t *ids,
                          const uint32_t *offsets, int n, int32_t *out, int stride,
                          int32_t *lengths, int *reason, int *failed_action, int *failed_at) {
    if (!out || !lengths || stride <= 0) return BRASS_E_BAD_ARGUMENT;
    SummaryOut o = {out, lengths, stride};
    return each_state_after(g, seat, ids, offsets, n, write_summary, &o, reason, failed_action,
                            failed_at);
}

/* A preview is worked out on a copy concealed for the seat to act (what it cannot see dealt
   canonically), so it depends on what that seat knows only; its outcome is then redacted
   for the viewer, the cards drawn from the face-down deck left out. */
int brass_preview(const BrassGame *g, int seat, const uint16_t *ids, int n, BrassGame *after,
                  BrassEventLog *log, int *reason, int *failed_at) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !ids || n <= 0 || !after) return BRASS_E_BAD_ARGUMENT;
    /* a ruleset without the two preview hooks has no preview (rather than a wrong one) */
    if (!rs->conceal || !rs->redact_preview) return BRASS_E_BAD_ARGUMENT;
    if (failed_at) *failed_at = 0;
    BrassGame before, work;
    memcpy(&before, g, rs->state_size);
    const BrassHeader *h = &g->header;
    if (!h->game_over && h->current < h->num_players) rs->conceal(&before, h->current);
    memcpy(&work, &before, rs->state_size);
    int err = n == 1 ? brass_apply(&work, seat, ids[0], log, reason)
                     : brass_apply_sequence(&work, seat, ids, n, log, reason, failed_at);
    if (err) return err;
    rs->redact_preview(&before, &work, seat, after);
    return BRASS_OK;
}

typedef struct {
    const BrassRuleset *rs;
    uint16_t *ids;
    int ids_cap, ids_used;
    uint32_t *offsets;
    int max_actions, count, truncated;
} CompoundOut;

#define MAX_ACTION_DECISIONS 32

static void compound_dfs(const BrassGame *g, const BrassGame *start, uint16_t *path, int depth,
                         CompoundOut *o) {
    uint16_t opts[BRASS_MAX_ACTIONS];
    int n = o->rs->legal(g, opts, BRASS_MAX_ACTIONS);
    for (int i = 0; i < n && !o->truncated; i++) {
        BrassGame next;
        memcpy(&next, g, o->rs->state_size);
        o->rs->apply_legal(&next, opts[i], NULL, 1);
        path[depth] = opts[i];
        if (o->rs->action_ended(&next, start) || reveals(o->rs, &next, g) ||
            depth + 1 >= MAX_ACTION_DECISIONS) {
            if (o->count >= o->max_actions || o->ids_used + depth + 1 > o->ids_cap) {
                o->truncated = 1;
                return;
            }
            memcpy(o->ids + o->ids_used, path, (size_t)(depth + 1) * sizeof(uint16_t));
            o->ids_used += depth + 1;
            o->count++;
            o->offsets[o->count] = (uint32_t)o->ids_used;
        } else {
            compound_dfs(&next, start, path, depth + 1, o);
        }
    }
}

int brass_compound_actions(const BrassGame *g, uint16_t *ids, int ids_cap, uint32_t *offsets,
                           int max_actions, int *truncated) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !ids || !offsets || ids_cap < 0 || max_actions < 0) return -BRASS_E_BAD_ARGUMENT;
    CompoundOut o = {rs, ids, ids_cap, 0, offsets, max_actions, 0, 0};
    uint16_t path[MAX_ACTION_DECISIONS];
    offsets[0] = 0;
    if (!g->header.game_over) compound_dfs(g, g, path, 0, &o);
    if (truncated) *truncated = o.truncated;
    return o.count;
}
