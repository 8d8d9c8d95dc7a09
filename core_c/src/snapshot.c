/* The state hash and snapshots (a checksummed header, then the ruleset's state bytes). */
#include <string.h>

#include "engine.h"

/* ---- hashing and snapshots ---- */

/* Over the ruleset's state bytes (header included, so ruleset and edition are part of it):
   a Birmingham state hashes as it always did. */
/* The undo bookkeeping is left out (read as zeros): it says how the game got here, not
   where it is, and states stored before it existed keep their hashes. */
uint64_t brass_hash(const BrassGame *g) {
    const BrassRuleset *rs = ruleset_of(g);
    size_t n = rs ? rs->state_size : sizeof(BrassHeader);
    size_t mark = rs ? rs->undo_mark_offset : n;
    uint64_t h = 0x243f6a8885a308d3ull;
    const uint8_t *p = g->bytes;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (mark >= i && mark < i + 8) {
            uint8_t bytes[8];
            memcpy(bytes, &w, 8);
            memset(bytes + (mark - i), 0, sizeof(BrassUndoMark));
            memcpy(&w, bytes, 8);
        }
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

size_t brass_snapshot_size(int ruleset) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs ? SNAPSHOT_HEADER + rs->state_size : 0;
}

int brass_snapshot(const BrassGame *g, uint8_t *buf, size_t cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !buf) return BRASS_E_BAD_ARGUMENT;
    size_t n = rs->state_size;
    if (cap < SNAPSHOT_HEADER + n) return BRASS_E_BUFFER;
    memcpy(buf + SNAPSHOT_HEADER, g->bytes, n);
    put32(buf, BRASS_MAGIC);
    put32(buf + 4, (uint32_t)rs->format_version | (uint32_t)g->header.rules_edition << 16);
    /* Birmingham is ruleset 0: its snapshots read as they did before rulesets were named */
    put32(buf + 8, (uint32_t)n | (uint32_t)g->header.ruleset << 16);
    put32(buf + 12, checksum32(buf + SNAPSHOT_HEADER, n));
    return BRASS_OK;
}

int brass_snapshot_ruleset(const uint8_t *buf, size_t len, int *rules_edition) {
    if (!buf || len < SNAPSHOT_HEADER || get32(buf) != BRASS_MAGIC) return -BRASS_E_BAD_SNAPSHOT;
    if (rules_edition) *rules_edition = (int)(get32(buf + 4) >> 16);
    return (int)(get32(buf + 8) >> 16);
}

int brass_restore(BrassGame *g, const uint8_t *buf, size_t len, int expected_ruleset) {
    /* the checksum catches damage; brass_validate rejects well-formed but impossible states */
    if (!g || (!buf && len)) return BRASS_E_BAD_ARGUMENT;
    if (len < SNAPSHOT_HEADER || get32(buf) != BRASS_MAGIC) return BRASS_E_BAD_SNAPSHOT;
    int ruleset = (int)(get32(buf + 8) >> 16), edition = (int)(get32(buf + 4) >> 16);
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs) return BRASS_E_BAD_SNAPSHOT;
    if (expected_ruleset >= 0 && ruleset != expected_ruleset) return BRASS_E_WRONG_RULESET;
    size_t n = rs->state_size;
    if ((get32(buf + 4) & 0xffffu) != rs->format_version) return BRASS_E_BAD_SNAPSHOT;
    if ((get32(buf + 8) & 0xffffu) != n || len != SNAPSHOT_HEADER + n) return BRASS_E_BAD_SNAPSHOT;
    if (get32(buf + 12) != checksum32(buf + SNAPSHOT_HEADER, n)) return BRASS_E_BAD_SNAPSHOT;
    if (edition > rs->rules_edition) return BRASS_E_WRONG_EDITION;
    BrassGame tmp;
    memset(&tmp, 0, sizeof tmp);
    memcpy(tmp.bytes, buf + SNAPSHOT_HEADER, n);
    /* bug fix (found by fuzz_restore): the header's rules edition was never compared with
       the state's, so a header claiming another edition was accepted */
    if (tmp.header.ruleset != ruleset || tmp.header.rules_edition != edition)
        return BRASS_E_BAD_SNAPSHOT;
    if (brass_validate(&tmp, NULL, 0)) return BRASS_E_BAD_SNAPSHOT;
    memcpy(g, &tmp, n);
    return BRASS_OK;
}
