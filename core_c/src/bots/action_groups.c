/* brass_group_actions: whole actions grouped by their ids less some (a bot's card ids, and
   where off-board cubes come from), as brass_clients.bots.greedy.source_groups groups them:
   a Pittsburgh turn lists up to 50,000 actions in about 1,000 groups, and grouping them in
   Python took half of the expert's time there. A hash table of the caller's (no
   allocation), open addressing; a key is compared id by id, so a hash collision never
   merges two groups. */
#include "brass.h"

/* the next id of action k at or after *at that drop does not mark, or -1 */
static int next_kept(const uint16_t *ids, uint32_t end, uint32_t *at, const uint8_t *drop) {
    while (*at < end) {
        uint16_t id = ids[(*at)++];
        if (!drop[id]) return id;
    }
    return -1;
}

static int same_key(const uint16_t *ids, const uint32_t *offsets, int a, int b,
                    const uint8_t *drop) {
    uint32_t i = offsets[a], j = offsets[b];
    for (;;) {
        int x = next_kept(ids, offsets[a + 1], &i, drop);
        int y = next_kept(ids, offsets[b + 1], &j, drop);
        if (x != y) return 0;
        if (x < 0) return 1;
    }
}

int brass_group_actions(const uint16_t *ids, const uint32_t *offsets, int n, const uint8_t *drop,
                        int num_ids, int32_t *group, int32_t *first, int32_t *table,
                        int table_size) {
    if (!ids || !offsets || !drop || !group || !first || !table || n < 0 || num_ids <= 0 ||
        table_size <= 0 || (int64_t)table_size < 2 * (int64_t)n || (table_size & (table_size - 1)))
        return -BRASS_E_BAD_ARGUMENT;
    for (int k = 0; k < n; k++) {
        if (offsets[k + 1] < offsets[k]) return -BRASS_E_BAD_ARGUMENT;
        for (uint32_t i = offsets[k]; i < offsets[k + 1]; i++)
            if (ids[i] >= num_ids) return -BRASS_E_BAD_ARGUMENT;
    }
    for (int s = 0; s < table_size; s++) table[s] = -1; /* slot: a group's first action */
    int groups = 0;
    uint32_t mask = (uint32_t)table_size - 1;
    for (int k = 0; k < n; k++) {
        uint32_t hash = 2166136261u, at = offsets[k];
        for (int id; (id = next_kept(ids, offsets[k + 1], &at, drop)) >= 0;)
            hash = (hash ^ (uint32_t)id) * 16777619u;
        uint32_t slot = hash & mask;
        while (table[slot] >= 0 && !same_key(ids, offsets, table[slot], k, drop))
            slot = (slot + 1) & mask;
        if (table[slot] < 0) { /* a new group, k its first action */
            table[slot] = k;
            first[groups] = k;
            group[k] = groups++;
        } else {
            group[k] = group[table[slot]];
        }
    }
    return groups;
}
