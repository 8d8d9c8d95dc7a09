/* Differential check of the Birmingham rules and of the engine around them: one hash over
   seeded random games played through the public API (brass.h), so engine.c's dispatch,
   undo bookkeeping, compound actions, previews, views and snapshots count as well as the
   rule files. Per decision: the legal list and the events of the decision applied; at every
   seventh decision the reason of every id, the JSON views (the seat to act's, a spectator's
   and the whole position), the observation, the compound actions and one preview; at the end
   the state hash, the snapshot bytes and the result. 2-4 players, random option values,
   auto-resolve on and off. Determinization is left out (its deal is free to change). A
   change that must not alter the rules (a move of code, a speed-up) gives the same digest
   as the commit before it.
   Usage: bham_digest [games] [every] [per-game]  (make -C core_c bham-digest) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brass.h"
#include "common/rng.h"

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static uint64_t mix_bytes(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = mix(h, b[i]);
    return h;
}

static uint64_t mix_events(uint64_t h, const BrassEventLog *log) {
    h = mix(h, log->count);
    for (uint32_t i = 0; i < log->count && i < BRASS_MAX_EVENTS; i++) {
        const BrassEvent *e = &log->events[i];
        h = mix(h, (uint64_t)e->type | (uint64_t)(uint8_t)e->seat << 8 |
                       (uint64_t)(uint16_t)e->a << 16 | (uint64_t)(uint16_t)e->b << 32 |
                       (uint64_t)(uint16_t)e->c << 48);
    }
    return h;
}

static uint64_t mix_json(uint64_t h, int n, const char *text) {
    h = mix(h, (uint64_t)(int64_t)n);
    return n > 0 ? mix_bytes(h, text, (size_t)n) : h;
}

/* the checks made at every `every`-th decision */
static uint64_t mix_probe(uint64_t h, const BrassGame *g, int num_actions, uint64_t *rng) {
    static char json[BRASS_JSON_CAP];
    for (int a = 0; a < num_actions; a++) h = mix(h, (uint64_t)brass_reason(g, a));
    int seat = g->header.current;
    h = mix_json(h, brass_view_json(g, seat, json, sizeof json), json);
    h = mix_json(h, brass_view_json_keys(g, -1, BRASS_KEYS_CAMEL, json, sizeof json), json);
    h = mix_json(h, brass_position_json(g, json, sizeof json), json);
    float obs[BRASS_MAX_OBS_SIZE];
    int m = brass_observation(g, seat, obs, BRASS_MAX_OBS_SIZE);
    h = mix(h, (uint64_t)(int64_t)m);
    if (m > 0) h = mix_bytes(h, obs, sizeof(float) * (size_t)m);
    static uint16_t ids[8192];
    static uint32_t offsets[1025];
    int truncated = 0;
    int k = brass_compound_actions(g, ids, 8192, offsets, 1024, &truncated);
    h = mix(h, (uint64_t)(int64_t)k);
    h = mix(h, (uint64_t)truncated);
    if (k > 0) {
        h = mix_bytes(h, ids, sizeof(uint16_t) * offsets[k]);
        /* one whole compound action previewed, as the seat to act sees it */
        int pick = (int)rng_below(rng, (uint32_t)k);
        BrassGame after;
        static BrassEventLog log;
        log.count = log.dropped = 0;
        int reason = 0, failed_at = 0;
        int err = brass_preview(g, seat, ids + offsets[pick], (int)(offsets[pick + 1] - offsets[pick]),
                                &after, &log, &reason, &failed_at);
        h = mix(h, (uint64_t)err);
        h = mix(h, (uint64_t)reason);
        h = mix_events(h, &log);
        if (!err) h = mix_json(h, brass_view_json(&after, seat, json, sizeof json), json);
    }
    return h;
}

static void random_options(BrassOptions *o, int game, uint64_t *rng) {
    o->players = (uint8_t)(2 + game % 3);
    o->auto_resolve = (uint8_t)(game % 4 != 3);
    brass_default_options(BRASS_RULESET_BIRMINGHAM, o);
    if (game % 3 == 0) return; /* one game in three: the defaults */
    for (int k = 0; k < BRASS_MAX_OPTIONS; k++) {
        BrassOptionInfo info;
        if (brass_option_info(BRASS_RULESET_BIRMINGHAM, k, &info)) break;
        if (info.is_bool) o->values[k] = (int16_t)rng_below(rng, 2);
        else if (info.num_allowed) o->values[k] = info.allowed[rng_below(rng, info.num_allowed)];
    }
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 1500;
    int every = argc > 2 ? atoi(argv[2]) : 7;
    int per_game = argc > 3;
    int num_actions = brass_num_actions(BRASS_RULESET_BIRMINGHAM);
    size_t snap_size = brass_snapshot_size(BRASS_RULESET_BIRMINGHAM);
    uint64_t total = 0;
    long decisions = 0;
    static BrassEventLog log;
    for (int i = 0; i < games; i++) {
        BrassOptions o;
        memset(&o, 0, sizeof o);
        uint64_t rng;
        rng_seed(&rng, (uint64_t)i * 104729 + 5);
        random_options(&o, i, &rng);
        BrassGame g;
        if (brass_new(&g, &o, (uint64_t)i + 1) != BRASS_OK) {
            total = mix(total, 0xdead); /* an option mix the core refuses: the refusal counts */
            continue;
        }
        uint64_t h = 0;
        uint16_t opts[BRASS_MAX_ACTIONS];
        int d = 0;
        while (!g.header.game_over && d < 20000) {
            int n = brass_legal(&g, opts, BRASS_MAX_ACTIONS);
            h = mix(h, (uint64_t)(int64_t)n);
            for (int k = 0; k < n; k++) h = mix(h, opts[k]);
            h = mix(h, (uint64_t)brass_decision_kind(&g));
            if (every && d % every == 0) h = mix_probe(h, &g, num_actions, &rng);
            if (n <= 0) break;
            log.count = log.dropped = 0;
            int reason = 0;
            int err = brass_apply(&g, g.header.current, opts[rng_below(&rng, (uint32_t)n)], &log,
                                  &reason);
            h = mix(h, (uint64_t)err);
            h = mix_events(h, &log);
            h = mix(h, (uint64_t)brass_undo_depth(&g));
            d++;
        }
        decisions += d;
        h = mix(h, brass_hash(&g));
        uint8_t snap[BRASS_MAX_STATE_SIZE + 16];
        h = mix(h, (uint64_t)brass_snapshot(&g, snap, sizeof snap));
        h = mix_bytes(h, snap, snap_size);
        BrassResult r;
        memset(&r, 0, sizeof r);
        h = mix(h, (uint64_t)brass_result(&g, &r));
        h = mix_bytes(h, &r, sizeof r);
        if (per_game) printf("%d %016llx\n", i, (unsigned long long)h);
        total = mix(total, h);
    }
    printf("digest %016llx games %d decisions %ld\n", (unsigned long long)total, games, decisions);
    return 0;
}
