#define _POSIX_C_SOURCE 199309L /* clock_gettime for the benchmark */
/* The public API: argument checks, then dispatch through the game's ruleset (ruleset.h).
   Nothing here knows a rule of any ruleset. */
#include <string.h>
#include <time.h>

#include "ruleset.h"

/* The single RNG helpers live with the Birmingham board code; engine.c only seeds. */
uint32_t rng_below(uint64_t *state, uint32_t n);
void rng_seed(uint64_t *state, uint64_t seed);

static const BrassRuleset *const RULESETS[BRASS_NUM_RULESETS] = {&BRASS_BIRMINGHAM};

static const BrassRuleset *ruleset_of(const BrassGame *g) {
    if (!g || g->magic != BRASS_MAGIC || g->ruleset >= BRASS_NUM_RULESETS) return NULL;
    return RULESETS[g->ruleset];
}

size_t brass_state_size(void) { return sizeof(BrassGame); }

int brass_new(BrassGame *g, const BrassOptions *opt, uint64_t seed) {
    if (!g || !opt || opt->ruleset >= BRASS_NUM_RULESETS) return BRASS_E_BAD_ARGUMENT;
    return RULESETS[opt->ruleset]->new_game(g, opt, seed);
}

int brass_validate(const BrassGame *g, char *field, size_t field_len) {
    if (!g) return BRASS_E_BAD_ARGUMENT;
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs) {
        if (field && field_len) {
            strncpy(field, g->magic != BRASS_MAGIC ? "magic" : "ruleset", field_len - 1);
            field[field_len - 1] = 0;
        }
        return BRASS_E_BAD_POSITION;
    }
    return rs->validate(g, field, field_len);
}

int brass_legal(const BrassGame *g, uint16_t *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap < 0) return -BRASS_E_BAD_ARGUMENT;
    return rs->legal(g, out, cap);
}

/* 0 = legal; otherwise the ruleset's reason code. */
int brass_reason(const BrassGame *g, int action) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || action < 0 || action >= BRASS_NUM_ACTIONS || g->game_over) return R_WRONG_DECISION;
    return rs->reason(g, action);
}

static int check(const BrassGame *g, int seat, int action, int *reason) {
    if (reason) *reason = R_LEGAL;
    if (g->game_over) return BRASS_E_GAME_OVER;
    if (action < 0 || action >= BRASS_NUM_ACTIONS) return BRASS_E_UNKNOWN_ACTION;
    if (seat < -1 || seat >= g->num_players) return BRASS_E_BAD_ARGUMENT;
    if (seat >= 0 && seat != g->current) return BRASS_E_NOT_YOUR_TURN;
    int r = brass_reason(g, action);
    if (r) {
        if (reason) *reason = r;
        return BRASS_E_ILLEGAL;
    }
    return BRASS_OK;
}

int brass_apply(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs) return BRASS_E_BAD_ARGUMENT;
    int err = check(g, seat, action, reason);
    if (err) return err;
    rs->apply_legal(g, action, log, 1);
    return BRASS_OK;
}

int brass_apply_sequence(BrassGame *g, int seat, const uint16_t *ids, int n, BrassEventLog *log,
                         int *reason, int *failed_at) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || (!ids && n) || n <= 0) return BRASS_E_BAD_ARGUMENT;
    BrassGame work = *g;
    if (failed_at) *failed_at = 0;
    if (reason) *reason = R_LEGAL;
    uint32_t log_start = log ? log->count : 0;
    for (int i = 0; i < n; i++) {
        BrassGame before = work;
        int err = brass_apply(&work, seat, ids[i], log, reason);
        int ended = err == BRASS_OK && rs->action_ended(&work, &before);
        if (err == BRASS_OK && ended != (i == n - 1)) {
            err = BRASS_E_ILLEGAL;
            if (reason) *reason = ended ? R_TOO_MANY_DECISIONS : R_INCOMPLETE_ACTION;
        }
        if (err) {
            if (failed_at) *failed_at = i;
            if (log) log->count = log_start;
            return err;
        }
        seat = before.current;
    }
    *g = work;
    return BRASS_OK;
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
    BrassGame before = *g;
    if (!g->game_over && g->current < g->num_players) rs->conceal(&before, g->current);
    BrassGame work = before;
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
    uint16_t opts[BRASS_NUM_ACTIONS];
    int n = o->rs->legal(g, opts, BRASS_NUM_ACTIONS);
    for (int i = 0; i < n && !o->truncated; i++) {
        BrassGame next = *g;
        o->rs->apply_legal(&next, opts[i], NULL, 1);
        path[depth] = opts[i];
        if (o->rs->action_ended(&next, start) || depth + 1 >= MAX_ACTION_DECISIONS) {
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
    if (!g->game_over) compound_dfs(g, g, path, 0, &o);
    if (truncated) *truncated = o.truncated;
    return o.count;
}

void brass_redact(const BrassGame *g, int seat, BrassGame *out) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out) return;
    rs->redact(g, seat >= 0 && seat < g->num_players ? seat : -1, out);
}

int brass_determinize(BrassGame *g, int seat, uint64_t seed) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || seat < 0 || seat >= g->num_players) return BRASS_E_BAD_ARGUMENT;
    return rs->determinize(g, seat, seed);
}

int brass_view_json(const BrassGame *g, int seat, char *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap <= 0 || seat < -1 || seat >= g->num_players)
        return -BRASS_E_BAD_ARGUMENT;
    BrassGame red;
    rs->redact(g, seat, &red);
    return rs->position_json(&red, seat, 0, out, cap);
}

int brass_position_json(const BrassGame *g, char *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap <= 0) return -BRASS_E_BAD_ARGUMENT;
    return rs->position_json(g, -1, 1, out, cap);
}

int brass_observation(const BrassGame *g, int seat, float *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || seat < 0 || seat >= g->num_players) return -BRASS_E_BAD_ARGUMENT;
    return rs->observation(g, seat, out, cap);
}

int brass_score_order(const BrassGame *g, uint8_t *ranking) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !ranking) return -BRASS_E_BAD_ARGUMENT;
    return rs->score_order(g, ranking);
}

const char *brass_action_name(int action) { return BRASS_BIRMINGHAM.action_name(action); }
const char *brass_phase_name(int phase) { return BRASS_BIRMINGHAM.phase_name(phase); }
const char *brass_reason_message(int reason) { return BRASS_BIRMINGHAM.reason_message(reason); }

void brass_set_seed(BrassGame *g, uint64_t seed) {
    g->seed = seed;
    rng_seed(&g->rng_state, seed);
}

/* ---- hashing and snapshots ---- */

uint64_t brass_hash(const BrassGame *g) {
    uint64_t h = 0x243f6a8885a308d3ull;
    const uint8_t *p = (const uint8_t *)g;
    for (size_t i = 0; i + 8 <= sizeof *g; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h ^= w;
        h *= 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return h;
}

#define SNAPSHOT_HEADER 16

static uint32_t checksum32(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t brass_snapshot_size(void) { return SNAPSHOT_HEADER + sizeof(BrassGame); }

int brass_snapshot(const BrassGame *g, uint8_t *buf, size_t cap) {
    if (!g || !buf) return BRASS_E_BAD_ARGUMENT;
    if (cap < brass_snapshot_size()) return BRASS_E_BUFFER;
    memcpy(buf + SNAPSHOT_HEADER, g, sizeof *g);
    put32(buf, BRASS_MAGIC);
    put32(buf + 4, (uint32_t)BRASS_FORMAT_VERSION | (uint32_t)g->rules_edition << 16);
    put32(buf + 8, (uint32_t)sizeof *g);
    put32(buf + 12, checksum32(buf + SNAPSHOT_HEADER, sizeof *g));
    return BRASS_OK;
}

int brass_restore(BrassGame *g, const uint8_t *buf, size_t len) {
    /* the checksum catches damage; brass_validate rejects well-formed but impossible states */
    if (!g || (!buf && len)) return BRASS_E_BAD_ARGUMENT;
    if (len != brass_snapshot_size()) return BRASS_E_BAD_SNAPSHOT;
    if (get32(buf) != BRASS_MAGIC) return BRASS_E_BAD_SNAPSHOT;
    if ((get32(buf + 4) & 0xffffu) != BRASS_FORMAT_VERSION) return BRASS_E_BAD_SNAPSHOT;
    if (get32(buf + 8) != sizeof *g) return BRASS_E_BAD_SNAPSHOT;
    if (get32(buf + 12) != checksum32(buf + SNAPSHOT_HEADER, sizeof *g)) return BRASS_E_BAD_SNAPSHOT;
    BrassGame tmp;
    memcpy(&tmp, buf + SNAPSHOT_HEADER, sizeof tmp);
    if (brass_validate(&tmp, NULL, 0)) return BRASS_E_BAD_SNAPSHOT;
    /* bug fix (found by fuzz_restore): the header's rules edition was never compared with
       the state's, so a header claiming another edition was accepted */
    if ((get32(buf + 4) >> 16) != tmp.rules_edition) return BRASS_E_BAD_SNAPSHOT;
    *g = tmp;
    return BRASS_OK;
}

/* ---- playouts and benchmark ---- */

static int pick(const BrassRuleset *rs, const BrassGame *g, const uint16_t *opts, int n,
                int policy, uint64_t *rng) {
    if (policy == POLICY_SANE && n > 1) {
        uint16_t keep[BRASS_NUM_ACTIONS];
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
    uint16_t opts[BRASS_NUM_ACTIONS];
    int made = 0;
    while (!g->game_over && made < max_decisions) {
        int n = rs->legal(g, opts, BRASS_NUM_ACTIONS);
        if (n <= 0) return -BRASS_E_ILLEGAL; /* cannot happen in a valid state */
        /* every decision counts, forced ones included; forced steps are taken here from the
           list already computed rather than by apply_legal's auto-resolution */
        made++;
        rs->apply_legal(g, pick(rs, g, opts, n, policy, &rng), NULL, 0);
    }
    return made;
}

int brass_playout_batch(BrassGame *games, int n, int policy, uint64_t seed, int max_decisions) {
    if (!games || n < 0) return -BRASS_E_BAD_ARGUMENT;
    int total = 0;
    for (int i = 0; i < n; i++) {
        int r = brass_playout(&games[i], policy, seed + (uint64_t)i * 0x9e3779b97f4a7c15ull, max_decisions);
        if (r < 0) return r;
        total += r;
    }
    return total;
}

int brass_step_batch(BrassGame *games, int n, const int32_t *actions, int32_t *errors,
                     float *obs, uint8_t *masks, uint8_t *done) {
    if (!games || n < 0 || !actions || !errors || !obs || !masks || !done) return -BRASS_E_BAD_ARGUMENT;
    int refused = 0;
    uint16_t opts[BRASS_NUM_ACTIONS];
    for (int i = 0; i < n; i++) {
        BrassGame *g = &games[i];
        const BrassRuleset *rs = ruleset_of(g);
        float *row = obs + (size_t)i * BRASS_OBS_SIZE;
        uint8_t *mask = masks + (size_t)i * BRASS_NUM_ACTIONS;
        errors[i] = actions[i] < 0 ? BRASS_OK : brass_apply(g, -1, actions[i], NULL, NULL);
        refused += errors[i] != BRASS_OK;
        memset(row, 0, sizeof(float) * BRASS_OBS_SIZE);
        memset(mask, 0, BRASS_NUM_ACTIONS);
        done[i] = !rs || g->game_over;
        if (done[i]) continue;
        rs->observation(g, g->current, row, BRASS_OBS_SIZE);
        int k = rs->legal(g, opts, BRASS_NUM_ACTIONS);
        for (int j = 0; j < k; j++) mask[opts[j]] = 1;
    }
    return refused;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define BENCH_SAMPLES 4096

int brass_bench(int players, int games, uint64_t seed, int policy, BrassBenchResult *out) {
    if (!out || games < 0 || players < 2 || players > 4) return BRASS_E_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    BrassOptions opt = {(uint8_t)players, 0, 8, 1, BRASS_RULESET_BIRMINGHAM};
    const BrassRuleset *rs = RULESETS[BRASS_RULESET_BIRMINGHAM];
    static BrassGame samples[BENCH_SAMPLES];
    int nsamples = 0;
    double t0 = now_seconds();
    for (int i = 0; i < games; i++) {
        BrassGame g;
        brass_new(&g, &opt, seed + (uint64_t)i);
        int r = brass_playout(&g, policy, seed * 31 + (uint64_t)i, 1 << 20);
        if (r < 0) return -r;
        out->decisions += (uint64_t)r;
        out->games++;
        if (nsamples < BENCH_SAMPLES && i % 8 == 0) samples[nsamples++] = g; /* end states */
    }
    out->seconds = now_seconds() - t0;
    /* legality and clone timing on states met in play (replayed from seed) */
    nsamples = 0;
    for (int i = 0; nsamples < BENCH_SAMPLES && i < 64; i++) {
        BrassGame g;
        uint64_t rng;
        brass_new(&g, &opt, seed + (uint64_t)i);
        rng_seed(&rng, seed * 31 + (uint64_t)i);
        uint16_t opts[BRASS_NUM_ACTIONS];
        while (!g.game_over && nsamples < BENCH_SAMPLES) {
            samples[nsamples++] = g;
            int n = rs->legal(&g, opts, BRASS_NUM_ACTIONS);
            rs->apply_legal(&g, pick(rs, &g, opts, n, policy, &rng), NULL, 0);
        }
    }
    uint16_t opts[BRASS_NUM_ACTIONS];
    volatile int sink = 0;
    int reps = 20;
    t0 = now_seconds();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < nsamples; i++) sink += rs->legal(&samples[i], opts, BRASS_NUM_ACTIONS);
    out->legal_seconds = now_seconds() - t0;
    out->legal_calls = (uint64_t)reps * (uint64_t)nsamples;
    static BrassGame copy;
    t0 = now_seconds();
    for (int r = 0; r < reps * 10; r++)
        for (int i = 0; i < nsamples; i++) {
            copy = samples[i];
            sink += copy.round;
        }
    out->clone_seconds = now_seconds() - t0;
    out->clones = (uint64_t)reps * 10 * (uint64_t)nsamples;
    (void)sink;
    return BRASS_OK;
}
