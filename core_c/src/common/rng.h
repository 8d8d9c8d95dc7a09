/* Shared random numbers (common/rng.c). */
#ifndef BRASS_COMMON_RNG_H
#define BRASS_COMMON_RNG_H

#include <stdint.h>

uint32_t rng_next(uint64_t *state);
uint32_t rng_below(uint64_t *state, uint32_t n); /* unbiased in [0, n) */
void rng_seed(uint64_t *state, uint64_t seed);
/* Fisher-Yates shuffle of n bytes, drawing from the top index down. */
void rng_shuffle_bytes(uint64_t *state, uint8_t *a, int n);

#endif
