/* Differential check of the Pittsburgh rules: one hash over seeded random games (every legal
   list, the reason of every id at every seventh decision, each final state hash), on both
   table sets, 2-4 players and random implemented option values. A change that must not
   alter the rules (a speed-up) gives the same digest as the commit before it.
   Usage: pgh_digest [games] [reason_every] [per-game]  (make -C core_c pgh-digest) */
#include <stdio.h>
#include <stdlib.h>

#include "pittsburgh/pgh_internal.h"

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static void random_options(PghOptions *o, int game, uint64_t *rng) {
    for (int k = 0; k < PGH_NUM_ALL_OPTIONS; k++) o->values[k] = -1;
    if (game % 3 != 0) /* two games in three: random implemented option values */
        for (int k = 0; k < PGH_NUM_OPTIONS; k++) {
            int v = (int)rng_below(rng, (uint32_t)pgh_option_num_values(k));
            if (pgh_option_implemented(k, v)) o->values[k] = (int16_t)v;
        }
    o->values[PGH_OPT_DATA] = (int16_t)(game % 5 == 4 ? PGH_SET_TINY : PGH_SET_PITTSBURGH);
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 1500;
    int reason_every = argc > 2 ? atoi(argv[2]) : 7;
    int per_game = argc > 3;
    uint64_t total = 0;
    long decisions = 0;
    for (int i = 0; i < games; i++) {
        PghOptions o = {.players = (uint8_t)(2 + i % 3), .auto_resolve = 1};
        uint64_t rng;
        rng_seed(&rng, (uint64_t)i * 104729 + 3);
        random_options(&o, i, &rng);
        PittsburghGame g;
        char err[128] = "";
        if (pgh_new(&g, &o, (uint64_t)i + 1, err, sizeof err) != BRASS_OK) {
            total = mix(total, 0xdead); /* an option mix the core refuses: the refusal counts */
            continue;
        }
        uint64_t h = 0;
        uint16_t opts[PGH_NUM_ACTIONS];
        int d = 0;
        while (!g.h.game_over && d < 20000) {
            int n = pgh_legal(&g, opts, PGH_NUM_ACTIONS);
            h = mix(h, (uint64_t)n);
            for (int k = 0; k < n; k++) h = mix(h, opts[k]);
            if (reason_every && d % reason_every == 0)
                for (int a = 0; a < PGH_NUM_ACTIONS; a++) h = mix(h, (uint64_t)pgh_reason(&g, a));
            if (n <= 0) break;
            pgh_apply_legal(&g, opts[rng_below(&rng, (uint32_t)n)], NULL, 1);
            d++;
        }
        decisions += d;
        h = mix(h, pgh_hash(&g));
        if (per_game) printf("%d %016llx\n", i, (unsigned long long)h);
        total = mix(total, h);
    }
    printf("digest %016llx games %d decisions %ld\n", (unsigned long long)total, games, decisions);
    return 0;
}
