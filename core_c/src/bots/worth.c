/* brass_summary_worths and brass_worths_after: the evaluator's inner loop without a Python
   call a position (a search values thousands). The formulas are the Python evaluators'
   (clients/bots/heuristic.py, heuristic_pittsburgh.py), in the same order of operations, so
   that both give the same doubles; tests compare them on many positions. */
#include <string.h>

#include "engine.h"
#include "bots/worth.h"

/* The Python evaluators' _relative: a seat's worth less opponent_weight times the others'
   mean. */
static void relative(const double *worth, int n, double opponent_weight, double *out) {
    double total = 0.0;
    for (int i = 0; i < n; i++) total += worth[i];
    for (int i = 0; i < n; i++) out[i] = worth[i] - opponent_weight * (total - worth[i]) / (n - 1);
}

/* The params' sizes inside their arrays, and their clock small (any bytes may come in) */
static int params_fit(const BrassWorthParams *p) {
    return p->num_locations >= 0 && p->num_locations <= BRASS_WORTH_MAX_LOCATIONS &&
           p->num_slots >= 0 && p->num_slots <= BRASS_WORTH_MAX_SLOTS && p->num_tiles >= 0 &&
           p->num_tiles <= BRASS_WORTH_MAX_TILES && p->num_links >= 0 &&
           p->num_links <= BRASS_WORTH_MAX_LINKS && p->num_link_types >= 0 &&
           p->num_link_types <= BRASS_WORTH_MAX_LINK_TYPES && p->rounds_per_era >= 0 &&
           p->rounds_per_era <= 100 && p->eras >= 0 && p->eras <= 100;
}

int brass_summary_worths(const int32_t *summary, int len, const BrassWorthParams *p, double *out) {
    if (!summary || !p || !out || len <= 0 || !params_fit(p)) return BRASS_E_BAD_ARGUMENT;
    double worth[BRASS_MAX_PLAYERS];
    int players = 0, err;
    switch (p->ruleset) {
    case BRASS_RULESET_BIRMINGHAM: err = birmingham_worths(summary, len, p, worth, &players); break;
    case BRASS_RULESET_PITTSBURGH: err = pittsburgh_worths(summary, len, p, worth, &players); break;
    default: return BRASS_E_BAD_ARGUMENT;
    }
    if (err) return err;
    relative(worth, players, p->opponent_weight, out);
    return BRASS_OK;
}

typedef struct {
    const BrassWorthParams *params;
    double *out;
} WorthOut;

int state_worths(const BrassGame *g, const BrassWorthParams *p, double *out) {
    int32_t summary[BRASS_SUMMARY_CAP];
    int len = ruleset_of(g)->summary(g, summary, BRASS_SUMMARY_CAP);
    if (len < 0) return -len;
    return brass_summary_worths(summary, len, p, out);
}

static int write_worths(void *ctx, int k, const BrassGame *after) {
    WorthOut *o = ctx;
    return state_worths(after, o->params, o->out + (size_t)k * BRASS_MAX_PLAYERS);
}

int brass_worths_after(const BrassGame *g, int seat, const uint16_t *ids, const uint32_t *offsets,
                       int n, const BrassWorthParams *p, double *out, int *reason,
                       int *failed_action, int *failed_at) {
    if (!g || !p || !out) return BRASS_E_BAD_ARGUMENT;
    if (p->ruleset != g->header.ruleset) return BRASS_E_WRONG_RULESET;
    WorthOut o = {p, out};
    return each_state_after(g, seat, ids, offsets, n, write_worths, &o, reason, failed_action,
                            failed_at);
}
