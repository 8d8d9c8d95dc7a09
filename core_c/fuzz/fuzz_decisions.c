/* libFuzzer harness: a seed and options (first 11 bytes), a number of random decisions to
   play first (mid-game start), then one byte per decision: legal options, arbitrary ids,
   ids outside the action space, wrong seats and whole compound actions. Every accepted call
   must leave a valid state, every refused one an unchanged state. */
#include "fuzz_common.h"

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 11) return 0;
    uint64_t seed = 0;
    memcpy(&seed, data, 8);
    BrassOptions opt;
    memset(&opt, 0, sizeof opt);
    opt.ruleset = BRASS_RULESET_BIRMINGHAM;
    opt.players = (uint8_t)(2 + data[8] % 3);
    opt.values[BHAM_OPT_BEGINNER] = (data[8] >> 2) & 1;
    opt.values[BHAM_OPT_MANUFACTURER_IV_COST] = (data[8] >> 3) & 1 ? 14 : 8;
    opt.auto_resolve = (data[8] >> 4) & 1;
    BrassGame g;
    FUZZ_CHECK(brass_new(&g, &opt, seed) == BRASS_OK, "new");
    check_valid(&g, "brass_new");
    /* mid-game start: up to 1275 random legal decisions */
    int prefix = (int)data[9] * 5;
    uint64_t rng = seed ^ data[10];
    uint16_t opts[BHAM_NUM_ACTIONS];
    for (int i = 0; i < prefix && !BH(&g)->game_over; i++) {
        int n = brass_legal(&g, opts, BHAM_NUM_ACTIONS);
        FUZZ_CHECK(n > 0, "no legal option");
        FUZZ_CHECK(brass_apply(&g, BH(&g)->current, opts[lcg(&rng) % (uint64_t)n], NULL, NULL) == BRASS_OK,
                   "prefix decision");
    }
    check_valid(&g, "the random prefix");
    if (BH(&g)->game_over) {
        exercise(&g, data + 11, size - 11);
        return 0;
    }
    drive(&g, data + 11, size - 11, 1024);
    check_valid(&g, "the driven decisions");
    check_snapshot(&g);
    return 0;
}
