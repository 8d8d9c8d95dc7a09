/* libFuzzer harness: brass_restore on arbitrary bytes; an accepted state is exercised. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    BrassGame g;
    memset(&g, 0xa5, sizeof g);
    BrassGame untouched = g;
    int err = brass_restore(&g, data, size, -1);
    if (err != BRASS_OK) {
        FUZZ_CHECK(err == BRASS_E_BAD_SNAPSHOT || err == BRASS_E_WRONG_EDITION, "restore error %d", err);
        FUZZ_CHECK(memcmp(&g, &untouched, sizeof g) == 0, "refused restore wrote the output");
        return 0;
    }
    FUZZ_CHECK(size == brass_snapshot_size(BRASS_RULESET_BIRMINGHAM), "accepted %zu bytes", size);
    /* canonical: the snapshot of what was restored is the input */
    static uint8_t buf[4096];
    FUZZ_CHECK(brass_snapshot(&g, buf, sizeof buf) == BRASS_OK, "snapshot");
    FUZZ_CHECK(memcmp(buf, data, size) == 0, "snapshot(restore(x)) != x");
    exercise(&g, data + 16, 64);
    return 0;
}
