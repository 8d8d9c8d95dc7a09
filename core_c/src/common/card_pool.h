/* Dealing from a pool of card counts in one canonical order (previews deal what the seat
   cannot see this way, so the outcome depends on what it knows only): shared by rulesets. */
#ifndef BRASS_COMMON_CARD_POOL_H
#define BRASS_COMMON_CARD_POOL_H

#include <stdint.h>

/* Takes the lowest card type left in `count` (num_types entries), scanning up from *next.
   A valid state's counts hold enough cards; the bound only keeps any other state inside
   the array. */
static inline uint8_t card_pool_take_lowest(uint8_t *count, int num_types, int *next) {
    while (*next < num_types - 1 && !count[*next]) ++*next;
    if (count[*next]) count[*next]--;
    return (uint8_t)*next;
}

#endif
