/* libFuzzer harness for the bots' code in C (core_c/src/bots/). The evaluator
   (brass_summary_worths): arbitrary params and an arbitrary summary, then a real game's
   summary (a playout of a few decisions) valued with the same params; whatever the bytes, it
   answers BRASS_OK, BRASS_E_BAD_ARGUMENT or BRASS_E_UNSUPPORTED. The grouping
   (brass_group_actions): the summary's bytes as ids and action lengths, grouped by the
   params' bytes as the drop table; every group number in range, the first of each group
   its own. The greedy playout (brass_greedy_playout_batch): a few decisions of that game
   played with the params and the bytes as the drop table; BRASS_OK or an error code, every
   recorded id legal when replayed. None reads outside its input (ASan, UBSan). */
#include <stdint.h>
#include <stdlib.h>
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

    /* the grouping: up to 64 actions of 1-8 ids below 64 */
    {
        uint16_t ids[512];
        uint32_t offsets[65];
        int32_t group[64], first[64], table[128];
        int actions = len > 64 ? 64 : len, at = 0;
        offsets[0] = 0;
        for (int k = 0; k < actions; k++) {
            int length = 1 + (int)((uint32_t)summary[k] % 8);
            for (int i = 0; i < length; i++, at++) ids[at] = (uint16_t)((summary[k] >> (3 + i)) & 63);
            offsets[k + 1] = (uint32_t)at;
        }
        const uint8_t *drop = (const uint8_t *)&p;
        int groups = brass_group_actions(ids, offsets, actions, drop, 64, group, first, table, 128);
        FUZZ_CHECK(groups >= 0 || actions == 0, "grouping answered %d", groups);
        for (int k = 0; k < actions; k++) {
            FUZZ_CHECK(group[k] >= 0 && group[k] < groups, "group %d of %d", group[k], groups);
            FUZZ_CHECK(first[group[k]] <= k && group[first[group[k]]] == group[k], "first");
        }
    }

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

    /* the greedy playout from there: a few decisions with these params, listing as many
       actions as the input's size says, then listing one only and staging the rest */
    enum { MAX_LISTED = 64, MAX_PLAYED = 12 };
    static uint8_t drop[1 << 12];
    int num_ids = brass_num_actions(ruleset);
    FUZZ_CHECK(num_ids > 0 && num_ids <= (int)sizeof drop, "%d ids", num_ids);
    for (int i = 0; i < num_ids; i++) drop[i] = (uint8_t)(((const uint8_t *)&p)[i % sizeof p] & 1);
    for (int config = 0; config < 2; config++) {
        static BrassGame copy, replay;
        int listed = config ? 1 : 1 + (int)(size % MAX_LISTED);
        int staged = config ? 8 : (int)(size % 50);
        /* exactly the size asked for, so that ASan sees a write past it */
        size_t scratch_size = brass_greedy_scratch_size(listed);
        void *scratch = malloc(scratch_size);
        FUZZ_CHECK(scratch != NULL, "no memory");
        BrassGreedyPolicy policy = {&p, (size & 1) ? drop : NULL, num_ids, listed, staged,
                                    (double)(size % 3) / 4.0, scratch, scratch_size};
        uint16_t record[MAX_PLAYED];
        int32_t played = 0;
        memcpy(&copy, &g, sizeof g);
        memcpy(&replay, &g, sizeof g);
        int err = brass_greedy_playout_batch(&copy, sizeof copy, 1, &policy, seed, MAX_PLAYED,
                                             record, MAX_PLAYED, &played);
        FUZZ_CHECK(err == BRASS_OK || err == BRASS_E_BAD_ARGUMENT || err == BRASS_E_UNSUPPORTED,
                   "brass_greedy_playout_batch answered %d", err);
        FUZZ_CHECK(played >= 0 && played <= MAX_PLAYED, "%d played", played);
        for (int i = 0; err == BRASS_OK && i < played; i++)
            FUZZ_CHECK(brass_apply(&replay, -1, record[i], NULL, NULL) == BRASS_OK,
                       "recorded id %d refused", record[i]);
        free(scratch);
    }
    return 0;
}
