#define _POSIX_C_SOURCE 199309L /* clock_gettime for the benchmark */
/* Random playouts, the vectorised batch step and the engine's benchmark. */
#include <string.h>
#include <time.h>

#include "common/rng.h"
#include "engine.h"

/* ---- playouts and benchmark ---- */

static int pick(const BrassRuleset *rs, const BrassGame *g, const uint16_t *opts, int n,
                int policy, uint64_t *rng) {
    if (policy == POLICY_SANE && n > 1) {
        uint16_t keep[BRASS_MAX_ACTIONS];
        int m = rs->sane_options(g, opts, n, keep);
        if (m) return keep[rng_below(rng, (uint32_t)m)];
    }
    return opts[rng_below(rng, (uint32_t)n)];
}

/* Play to the end with a random policy; forced steps are resolved by the game's option. */
int brass_playout(BrassGame *g, int policy, uint64_t seed, int max_decisions) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs) return -BRASS_E_BAD_ARGUMENT;
    uint64_t rng;
    rng_seed(&rng, seed);
    uint16_t opts[BRASS_MAX_ACTIONS];
    int made = 0;
    while (!g->header.game_over && made < max_decisions) {
        int n = rs->legal(g, opts, BRASS_MAX_ACTIONS);
        if (n <= 0) return -BRASS_E_ILLEGAL; /* cannot happen in a valid state */
        /* every decision counts, forced ones included; forced steps are taken here from the
           list already computed rather than by apply_legal's auto-resolution */
        made++;
        rs->apply_legal(g, pick(rs, g, opts, n, policy, &rng), NULL, 0);
    }
    /* decisions nobody recorded cannot be replayed: nothing before here can be undone */
    if (made) *(BrassUndoMark *)(void *)(g->bytes + rs->undo_mark_offset) =
        (BrassUndoMark){0, 0, 0, BRASS_UNDO_TURN_START};
    return made;
}

/* Slot i of a batch laid out `stride` bytes apart. */
BrassGame *batch_slot(void *games, size_t stride, int i) {
    return (BrassGame *)(void *)((uint8_t *)games + (size_t)i * stride);
}

/* The ruleset of a batch's games, when every slot holds a game of one ruleset whose state
   fits the stride (8-byte aligned, as every handle must be); NULL otherwise. */
const BrassRuleset *batch_ruleset(void *games, size_t stride, int n) {
    if (stride < sizeof(BrassHeader) || stride % 8 != 0) return NULL;
    const BrassRuleset *rs = ruleset_of(batch_slot(games, stride, 0));
    if (!rs || stride < rs->state_size) return NULL;
    for (int i = 1; i < n; i++)
        if (ruleset_of(batch_slot(games, stride, i)) != rs) return NULL; /* one ruleset a batch */
    return rs;
}

int brass_playout_batch(void *games, size_t stride, int n, int policy, uint64_t seed,
                        int max_decisions) {
    if (!games || n < 0) return -BRASS_E_BAD_ARGUMENT;
    if (n && !batch_ruleset(games, stride, n)) return -BRASS_E_BAD_ARGUMENT;
    int total = 0;
    for (int i = 0; i < n; i++) {
        int r = brass_playout(batch_slot(games, stride, i), policy,
                              seed + (uint64_t)i * 0x9e3779b97f4a7c15ull, max_decisions);
        if (r < 0) return r;
        total += r;
    }
    return total;
}

int brass_step_batch(void *games, size_t stride, int n, const int32_t *actions,
                     int32_t *errors, float *obs, int obs_stride, uint8_t *masks,
                     int mask_stride, uint8_t *done) {
    if (!games || n < 0 || !actions || !errors || !obs || !masks || !done) return -BRASS_E_BAD_ARGUMENT;
    const BrassRuleset *rs = n ? batch_ruleset(games, stride, n) : NULL;
    if (n && !rs) return -BRASS_E_BAD_ARGUMENT;
    if (rs && (obs_stride < rs->observation_size || mask_stride < rs->num_actions))
        return -BRASS_E_BAD_ARGUMENT;
    int refused = 0;
    uint16_t opts[BRASS_MAX_ACTIONS];
    for (int i = 0; i < n; i++) {
        BrassGame *g = batch_slot(games, stride, i);
        float *row = obs + (size_t)i * (size_t)obs_stride;
        uint8_t *mask = masks + (size_t)i * (size_t)mask_stride;
        errors[i] = actions[i] < 0 ? BRASS_OK : brass_apply(g, -1, actions[i], NULL, NULL);
        refused += errors[i] != BRASS_OK;
        memset(row, 0, sizeof(float) * (size_t)obs_stride);
        memset(mask, 0, (size_t)mask_stride);
        done[i] = g->header.game_over;
        if (done[i]) continue;
        rs->observation(g, g->header.current, row, obs_stride);
        int k = rs->legal(g, opts, BRASS_MAX_ACTIONS);
        for (int j = 0; j < k; j++) mask[opts[j]] = 1;
    }
    return refused;
}

static double clock_seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

#define BENCH_SAMPLES 4096

int brass_bench(const BrassOptions *opt, int games, uint64_t seed, int policy,
                BrassBenchResult *out) {
    const BrassRuleset *rs = opt ? ruleset_by_id(opt->ruleset) : NULL;
    if (!out || !rs || games < 0) return BRASS_E_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    static BrassGame samples[BENCH_SAMPLES];
    const size_t size = rs->state_size;
    int nsamples = 0;
    BrassGame g;
    int err = brass_new(&g, opt, seed); /* checks the options once */
    if (err) return err;
    double t0 = now_seconds(), cpu0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < games; i++) {
        brass_new(&g, opt, seed + (uint64_t)i);
        int r = brass_playout(&g, policy, seed * 31 + (uint64_t)i, 1 << 20);
        if (r < 0) return -r;
        out->decisions += (uint64_t)r;
        out->games++;
    }
    out->seconds = now_seconds() - t0;
    /* the machine may be shared: CPU time counts only this thread's work */
    out->cpu_seconds = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    /* legality and clone timing on states met in play (replayed from seed) */
    for (int i = 0; nsamples < BENCH_SAMPLES && i < 64; i++) {
        uint64_t rng;
        brass_new(&g, opt, seed + (uint64_t)i);
        rng_seed(&rng, seed * 31 + (uint64_t)i);
        uint16_t opts[BRASS_MAX_ACTIONS];
        while (!g.header.game_over && nsamples < BENCH_SAMPLES) {
            memcpy(&samples[nsamples++], &g, size);
            int n = rs->legal(&g, opts, BRASS_MAX_ACTIONS);
            rs->apply_legal(&g, pick(rs, &g, opts, n, policy, &rng), NULL, 0);
        }
    }
    uint16_t opts[BRASS_MAX_ACTIONS];
    volatile int sink = 0;
    int reps = 20;
    t0 = now_seconds();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < nsamples; i++) sink += rs->legal(&samples[i], opts, BRASS_MAX_ACTIONS);
    out->legal_seconds = now_seconds() - t0;
    out->legal_calls = (uint64_t)reps * (uint64_t)nsamples;
    static BrassGame copy;
    t0 = now_seconds();
    for (int r = 0; r < reps * 10; r++)
        for (int i = 0; i < nsamples; i++) {
            brass_clone(&copy, &samples[i]);
            sink += copy.header.current;
        }
    out->clone_seconds = now_seconds() - t0;
    out->clones = (uint64_t)reps * 10 * (uint64_t)nsamples;
    (void)sink;
    return BRASS_OK;
}
