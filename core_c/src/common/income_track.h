/* Moves on the income track, the same in both rulesets (Birmingham rulings 17-18,
   Pittsburgh P12): up by spaces to the track's last space, down by levels onto the top
   space of the new level. The level of each space and the top space of each level come
   from the ruleset's tables. */
#ifndef BRASS_COMMON_INCOME_TRACK_H
#define BRASS_COMMON_INCOME_TRACK_H

#include <stdint.h>

#define INCOME_TRACK_LAST_SPACE 99 /* level 30 */

static inline uint8_t income_track_up(int space, int spaces) {
    int s = space + spaces;
    return (uint8_t)(s > INCOME_TRACK_LAST_SPACE ? INCOME_TRACK_LAST_SPACE : s);
}

/* The space after falling `levels` levels from `level` onto the new level's top space
   (top_space_of_level is indexed by level + 10), or -1 below min_level. */
static inline int income_track_down(const uint8_t top_space_of_level[41], int level, int levels,
                                    int min_level) {
    int lv = level - levels;
    if (lv < min_level) return -1;
    if (lv > 30) lv = 30;
    return top_space_of_level[lv + 10];
}

#endif
