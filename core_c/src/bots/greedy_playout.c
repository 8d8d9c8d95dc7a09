/* brass_greedy_playout_batch: games played to the end inside C by the greedy policy (each
   whole action the best by the bots' static evaluator, brass_worths_after's), the decisions
   recorded so that Python can replay them. Training data for the value network at C speed:
   random or "sane" playouts make poor value targets (Pittsburgh's end near -39 VP), greedy
   games good ones. The policy is brass_clients.bots.greedy's: the listed whole actions
   grouped by what they do on the board, one valued a group, then every action of the best
   groups; a listing past its cap decided id by id, each id worth the best of a few random
   completions of the action after it. Ties (and, with probability epsilon, the whole
   choice) are drawn at random. The caller gives all memory (the core allocates none). */
#include <math.h>
#include <string.h>

#include "common/rng.h"
#include "engine.h"
#include "bots/worth.h"

#define IDS_PER_ACTION 16 /* as brass.preview lists: ids of the buffer a listed action */
#define TIE 1e-9          /* values this close are equal (greedy.py's tolerance) */
#define COMPLETION_CAP 64 /* decisions a random completion plays at most (an action takes
                             far fewer; the cap bounds the loop whatever the state) */

/* The scratch's arrays, carved from the caller's bytes (8-byte aligned pieces). */
typedef struct {
    double *values;
    uint32_t *offsets;
    int32_t *group, *first, *table, *chosen;
    uint16_t *ids;
    int table_size, ids_cap;
} Scratch;

static int table_size_for(int max_actions) {
    int t = 1;
    while (t < 2 * max_actions) t <<= 1;
    return t;
}

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

/* The pool of tied choices holds listed actions or legal ids (a staged or single-id
   decision), whichever can be more. */
static size_t pool_size(int max_actions) {
    return (size_t)(max_actions > BRASS_MAX_ACTIONS ? max_actions : BRASS_MAX_ACTIONS);
}

size_t brass_greedy_scratch_size(int max_actions) {
    if (max_actions < 1 || max_actions > BRASS_GREEDY_MAX_ACTIONS) return 0;
    size_t m = (size_t)max_actions;
    return round8(m * sizeof(double)) + round8((m + 1) * sizeof(uint32_t)) +
           2 * round8(m * sizeof(int32_t)) + round8(pool_size(max_actions) * sizeof(int32_t)) +
           round8((size_t)table_size_for(max_actions) * sizeof(int32_t)) +
           round8(m * IDS_PER_ACTION * sizeof(uint16_t));
}

static void *carve(uint8_t **at, size_t bytes) {
    void *p = *at;
    *at += round8(bytes);
    return p;
}

static Scratch scratch_of(const BrassGreedyPolicy *p) {
    size_t m = (size_t)p->max_actions;
    uint8_t *at = p->scratch;
    Scratch s;
    s.values = carve(&at, m * sizeof(double));
    s.offsets = carve(&at, (m + 1) * sizeof(uint32_t));
    s.group = carve(&at, m * sizeof(int32_t));
    s.first = carve(&at, m * sizeof(int32_t));
    s.chosen = carve(&at, pool_size(p->max_actions) * sizeof(int32_t));
    s.table_size = table_size_for(p->max_actions);
    s.table = carve(&at, (size_t)s.table_size * sizeof(int32_t));
    s.ids_cap = (int)(m * IDS_PER_ACTION);
    s.ids = carve(&at, (size_t)s.ids_cap * sizeof(uint16_t));
    return s;
}

/* A uniform double in [0, 1) */
static double unit(uint64_t *rng) { return (double)rng_next(rng) / 4294967296.0; }

/* The acting seat's value of the position after ids[0..n) (a whole action, or the start of
   one: a playout values what it may play). A NaN (params that make no sense) is the lowest
   value, so that every comparison orders it. */
static int value_after(const BrassGame *g, int seat, const uint16_t *ids, int n,
                       const BrassWorthParams *params, double *value) {
    const BrassRuleset *rs = ruleset_of(g);
    BrassGame work;
    memcpy(&work, g, rs->state_size);
    for (int i = 0; i < n; i++) {
        int err = brass_apply(&work, -1, ids[i], NULL, NULL);
        if (err) return err;
    }
    double out[BRASS_MAX_PLAYERS];
    int err = state_worths(&work, params, out);
    if (!err) *value = isnan(out[seat]) ? -HUGE_VAL : out[seat];
    return err;
}

static int value_of_listed(const BrassGame *g, int seat, const Scratch *s, int k,
                           const BrassWorthParams *params, double *value) {
    return value_after(g, seat, s->ids + s->offsets[k], (int)(s->offsets[k + 1] - s->offsets[k]),
                       params, value);
}

/* The entries of the best value so far in pool[0..*kept) (*best their value): `entry`
   replaces them when better by more than TIE, joins them when within it. pool may be the
   list being walked, as long as entries are kept no faster than they are read. */
static void keep_best(double v, int32_t entry, double *best, int *kept, int32_t *pool) {
    if (*kept == 0 || v > *best + TIE) {
        *best = v;
        *kept = 0;
        pool[(*kept)++] = entry;
    } else if (v >= *best - TIE) {
        pool[(*kept)++] = entry;
    }
}

/* Uniformly one of the n entries of pool (n >= 1) */
static int32_t draw(const int32_t *pool, int n, uint64_t *rng) {
    return pool[rng_below(rng, (uint32_t)n)];
}

/* The listed action to play (count >= 1): the best group's best action, ties drawn. */
static int best_listed(const BrassGame *g, int seat, const BrassGreedyPolicy *p, Scratch *s,
                       int count, uint64_t *rng, int *chosen) {
    int groups = count;
    if (p->drop) {
        groups = brass_group_actions(s->ids, s->offsets, count, p->drop, p->num_ids, s->group,
                                     s->first, s->table, s->table_size);
        if (groups < 0) return -groups;
    } else {
        for (int k = 0; k < count; k++) s->group[k] = s->first[k] = k;
    }
    double top = 0.0;
    for (int gi = 0; gi < groups; gi++) {
        int err = value_of_listed(g, seat, s, s->first[gi], p->params, &s->values[gi]);
        if (err) return err;
        if (gi == 0 || s->values[gi] > top) top = s->values[gi];
    }
    /* every action of the groups within TIE of the best, each valued: a card can cost
       something (a Pittsburgh whiskey) that its group's first action does not */
    int n = 0;
    for (int k = 0; k < count; k++)
        if (s->values[s->group[k]] >= top - TIE) s->chosen[n++] = k;
    if (n > 1) {
        double best = 0.0;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int k = s->chosen[i];
            double v = s->values[s->group[k]];
            if (s->first[s->group[k]] != k) {
                int err = value_of_listed(g, seat, s, k, p->params, &v);
                if (err) return err;
            }
            keep_best(v, k, &best, &kept, s->chosen);
        }
        n = kept;
    }
    *chosen = draw(s->chosen, n, rng);
    return BRASS_OK;
}

/* One id of an action too large to list: each legal id worth the best of `per_id` random
   completions of the action after it (greedy.py's staged_values). */
static int best_staged_id(const BrassGame *g, int seat, const uint16_t *opts, int n,
                          const BrassGreedyPolicy *p, Scratch *s, uint64_t *rng, int *chosen) {
    const BrassRuleset *rs = ruleset_of(g);
    int per_id = p->staged_evaluations / n;
    if (per_id < 1) per_id = 1;
    double best = 0.0;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        for (int t = 0; t < per_id; t++) {
            BrassGame trial;
            memcpy(&trial, g, rs->state_size);
            int err = brass_apply(&trial, -1, opts[i], NULL, NULL);
            uint16_t more[BRASS_MAX_ACTIONS];
            for (int d = 0; !err && d < COMPLETION_CAP && !trial.header.game_over &&
                            !rs->at_action_start(&trial); d++) {
                int m = rs->legal(&trial, more, BRASS_MAX_ACTIONS);
                if (m <= 0) return BRASS_E_ILLEGAL; /* cannot happen in a valid state */
                err = brass_apply(&trial, -1, more[rng_below(rng, (uint32_t)m)], NULL, NULL);
            }
            if (err) return err;
            double trial_value;
            err = value_after(&trial, seat, NULL, 0, p->params, &trial_value);
            if (err) return err;
            if (t == 0 || trial_value > v) v = trial_value;
        }
        keep_best(v, opts[i], &best, &kept, s->chosen);
    }
    *chosen = draw(s->chosen, kept, rng);
    return BRASS_OK;
}

/* The best single id by the value right after it (nothing complete is listed). */
static int best_single_id(const BrassGame *g, int seat, const uint16_t *opts, int n,
                          const BrassGreedyPolicy *p, Scratch *s, uint64_t *rng, int *chosen) {
    double best = 0.0;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        double v;
        int err = value_after(g, seat, &opts[i], 1, p->params, &v);
        if (err) return err;
        keep_best(v, opts[i], &best, &kept, s->chosen);
    }
    *chosen = draw(s->chosen, kept, rng);
    return BRASS_OK;
}

typedef struct {
    uint16_t *record; /* NULL: not recorded */
    int made, max_decisions;
} Played;

static int play_id(BrassGame *g, int id, Played *played) {
    int err = brass_apply(g, -1, id, NULL, NULL);
    if (err) return err;
    if (played->record) played->record[played->made] = (uint16_t)id;
    played->made++;
    return BRASS_OK;
}

/* One turn's worth of play: the decision at hand, and the rest of its action when the
   choice was a listed whole action. */
static int greedy_step(BrassGame *g, const BrassGreedyPolicy *p, Scratch *s, uint64_t *rng,
                       Played *played) {
    const BrassRuleset *rs = ruleset_of(g);
    int seat = g->header.current;
    uint16_t opts[BRASS_MAX_ACTIONS];
    int n = rs->legal(g, opts, BRASS_MAX_ACTIONS);
    if (n <= 0) return BRASS_E_ILLEGAL; /* cannot happen in a valid state */
    if (n == 1) return play_id(g, opts[0], played);
    int truncated = 0;
    s->offsets[0] = 0;
    int count = brass_compound_actions(g, s->ids, s->ids_cap, s->offsets, p->max_actions,
                                       &truncated);
    if (count < 0) return -count;
    int id, err;
    if (truncated && p->staged_evaluations > 0) {
        err = best_staged_id(g, seat, opts, n, p, s, rng, &id);
        return err ? err : play_id(g, id, played);
    }
    if (count == 0) {
        err = best_single_id(g, seat, opts, n, p, s, rng, &id);
        return err ? err : play_id(g, id, played);
    }
    int k;
    if (p->epsilon > 0.0 && unit(rng) < p->epsilon) {
        k = (int)rng_below(rng, (uint32_t)count);
    } else {
        err = best_listed(g, seat, p, s, count, rng, &k);
        if (err) return err;
    }
    for (uint32_t i = s->offsets[k]; i < s->offsets[k + 1]; i++) {
        if (played->made >= played->max_decisions) return BRASS_OK;
        err = play_id(g, s->ids[i], played);
        if (err) return err;
    }
    return BRASS_OK;
}

static int policy_ok(const BrassGreedyPolicy *p, const BrassRuleset *rs, int ruleset) {
    return p && p->params && p->scratch && p->max_actions >= 1 &&
           p->max_actions <= BRASS_GREEDY_MAX_ACTIONS &&
           p->scratch_size >= brass_greedy_scratch_size(p->max_actions) &&
           ((uintptr_t)p->scratch & 7) == 0 && p->staged_evaluations >= 0 &&
           p->staged_evaluations <= BRASS_GREEDY_MAX_STAGED &&
           p->epsilon >= 0.0 && p->epsilon <= 1.0 &&
           (!p->drop || p->num_ids == rs->num_actions) && p->params->ruleset == ruleset;
}

int brass_greedy_playout_batch(void *games, size_t stride, int n, const BrassGreedyPolicy *policy,
                               uint64_t seed, int max_decisions, uint16_t *record,
                               int record_stride, int32_t *lengths) {
    if (!games || n < 0 || max_decisions < 0 || !lengths) return BRASS_E_BAD_ARGUMENT;
    if (record && record_stride < max_decisions) return BRASS_E_BAD_ARGUMENT;
    if (!n) return BRASS_OK;
    const BrassRuleset *rs = batch_ruleset(games, stride, n);
    if (!rs || !policy_ok(policy, rs, batch_slot(games, stride, 0)->header.ruleset)) return BRASS_E_BAD_ARGUMENT;
    Scratch s = scratch_of(policy);
    for (int i = 0; i < n; i++) {
        BrassGame *g = batch_slot(games, stride, i);
        uint64_t rng;
        rng_seed(&rng, seed + (uint64_t)i * 0x9e3779b97f4a7c15ull);
        Played played = {record ? record + (size_t)i * (size_t)record_stride : NULL, 0,
                         max_decisions};
        while (!g->header.game_over && played.made < max_decisions) {
            int err = greedy_step(g, policy, &s, &rng, &played);
            if (err) {
                lengths[i] = played.made;
                return err;
            }
        }
        lengths[i] = played.made;
    }
    return BRASS_OK;
}
