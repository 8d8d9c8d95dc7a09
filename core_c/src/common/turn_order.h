/* The turn order by money spent, the same in both rulesets (Birmingham ruling 18,
   Pittsburgh P11): who spent least goes first, ties keep their relative order. */
#ifndef BRASS_COMMON_TURN_ORDER_H
#define BRASS_COMMON_TURN_ORDER_H

#include <stdint.h>

/* Sorts order[0..n) (seats) by spent[seat], ascending; stable (insertion). */
static inline void turn_order_by_spent(uint8_t *order, int n, const int16_t *spent) {
    for (int i = 1; i < n; i++) {
        uint8_t s = order[i];
        int j = i;
        while (j > 0 && spent[order[j - 1]] > spent[s]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = s;
    }
}

#endif
