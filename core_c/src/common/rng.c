/* The random numbers every ruleset uses (shuffles, playouts): the same on every machine. */
#include "common/rng.h"

/* PCG32 (O'Neill), fixed increment: the same numbers on every machine. */
#define PCG_MULT 6364136223846793005ull
#define PCG_INC 1442695040888963407ull

uint32_t rng_next(uint64_t *state) {
    uint64_t old = *state;
    *state = old * PCG_MULT + PCG_INC;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

/* Unbiased integer in [0, n) by rejection. */
uint32_t rng_below(uint64_t *state, uint32_t n) {
    if (n <= 1) return 0;
    uint32_t limit = (uint32_t)(-n) % n; /* 2^32 mod n */
    for (;;) {
        uint32_t r = rng_next(state);
        if (r >= limit) return r % n;
    }
}

void rng_seed(uint64_t *state, uint64_t seed) {
    /* splitmix64 scrambles nearby seeds apart */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    *state = z ^ (z >> 31);
    rng_next(state);
}

void rng_shuffle_bytes(uint64_t *state, uint8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(state, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
