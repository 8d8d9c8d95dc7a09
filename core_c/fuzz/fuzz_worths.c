/* libFuzzer harness for the bots' evaluator in C (brass_summary_worths): arbitrary params and
   an arbitrary summary, then a real game's summary (a playout of a few decisions) valued
   with the same params. Whatever the bytes, it answers BRASS_OK, BRASS_E_BAD_ARGUMENT or
   BRASS_E_UNSUPPORTED, and reads nothing outside the params and the summary (ASan, UBSan). */
#include <stdint.h>
#include <string.h>

#include "brass.h"
#include "fuzz_check.h"

static void check_answer(int err) {
    FUZZ_CHECK(err == BRASS_OK || err == BRASS_E_BAD_ARGUMENT || err == BRASS_E_UNSUPPORTED,
               "brass_summary_worths answered %d", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    BrassWorthParams p;
    if (size < sizeof p) return 0;
    memcpy(&p, data, sizeof p);
    data += sizeof p, size -= sizeof p;
    int32_t summary[BRASS_SUMMARY_CAP];
    int len = (int)(size / sizeof(int32_t));
    if (len > BRASS_SUMMARY_CAP) len = BRASS_SUMMARY_CAP;
    memcpy(summary, data, (size_t)len * sizeof(int32_t));
    double out[BRASS_MAX_PLAYERS];
    if (len > 0) check_answer(brass_summary_worths(summary, len, &p, out));

    /* a real position of the params' ruleset */
    int ruleset = (int)((unsigned)p.ruleset % BRASS_NUM_RULESETS);
    BrassOptions opt;
    if (brass_default_options(ruleset, &opt) != BRASS_OK) return 0;
    opt.players = (uint8_t)(2 + (size % 3));
    opt.auto_resolve = 1;
    static BrassGame g; /* large: not on the stack */
    uint64_t seed = size;
    if (brass_new(&g, &opt, seed) != BRASS_OK) return 0;
    brass_playout(&g, POLICY_SANE, seed, (int)(size % 200));
    len = brass_summary(&g, summary, BRASS_SUMMARY_CAP);
    FUZZ_CHECK(len > 0, "brass_summary answered %d", len);
    check_answer(brass_summary_worths(summary, len, &p, out));
    return 0;
}
