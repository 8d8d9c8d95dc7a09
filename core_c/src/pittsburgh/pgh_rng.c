/* Deterministic random numbers (splitmix64): the same seed gives the same game. */
#include "pgh_internal.h"

uint32_t pgh_prng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Unbiased: rejects the top partial range. */
uint32_t pgh_prng_below(uint64_t *s, uint32_t n) {
    if (n <= 1) return 0;
    uint32_t limit = UINT32_MAX - UINT32_MAX % n;
    for (;;) {
        uint32_t r = pgh_prng_next(s);
        if (r < limit) return r % n;
    }
}

void pgh_prng_seed(uint64_t *s, uint64_t seed) { *s = seed ^ 0x5049545453425247ull; }
