/* Birmingham's static evaluator (clients/bots/heuristic.py, PositionEvaluator): a seat's
   worth is its VP, its money and income while there is time to use them, its tiles (an
   unflipped one in part) and its links by the icons at their ends. docs/BOTS.md has the
   formula; each line below is one of PositionEvaluator.summary_worths's. */
#include "bots/worth.h"

/* the summary's layout (bham_internal.h, docs/ENGINE_API.md) */
#define HEAD 8
#define PER_PLAYER 5
#define PER_SLOT 5
#define PER_LINK 2

/* heuristic.BoardFacts.tile: a level the data does not list */
static BrassWorthTile default_tile(int level) {
    BrassWorthTile t = {BRASS_TILE_VP_FIXED, 2.0 * level + 1, level, 1, 2, 0, 0};
    return t;
}

int birmingham_worths(const int32_t *s, int len, const BrassWorthParams *p, double *worth,
                      int *players_out) {
    if (len < HEAD + PER_PLAYER * BRASS_MAX_PLAYERS) return BRASS_E_BAD_ARGUMENT;
    int players = s[0], game_over = s[1], era = s[2], deck_size = s[4], beginner = s[5];
    int n_slots = s[6], n_links = s[7];
    if (players < 2 || players > BRASS_MAX_PLAYERS || !count_ok(n_slots) || !count_ok(n_links) ||
        !count_ok(deck_size) ||
        len < HEAD + PER_PLAYER * BRASS_MAX_PLAYERS + PER_SLOT * n_slots + PER_LINK * n_links)
        return BRASS_E_BAD_ARGUMENT;
    *players_out = players;
    const int32_t *seat = s + HEAD; /* money, vp, income space, income level, hand size */
    for (int i = 0; i < players; i++)
        if (!count_ok(seat[PER_PLAYER * i + 4])) return BRASS_E_BAD_ARGUMENT;
    if (game_over) {
        for (int i = 0; i < players; i++) {
            const int32_t *q = seat + PER_PLAYER * i;
            worth[i] = q[1] + 0.01 * q[3] + 0.001 * q[0];
        }
        return BRASS_OK;
    }
    int cards_left = deck_size;
    for (int i = 0; i < players; i++) cards_left += seat[PER_PLAYER * i + 4];
    int more_eras = era == 0 && !beginner;
    /* _clock_and_worths */
    double era_turns = p->era_turns[players];
    double turns_left_era = (double)cards_left / (double)(2 * players);
    double turns_left = turns_left_era + (more_eras ? era_turns : 0.0);
    double era_left_share = at_most_one(turns_left_era / era_turns);
    double time_to_spend = at_most_one(turns_left / 4.0);
    double money_vp = p->money_vp * time_to_spend;
    double liquidity_vp = p->liquidity_vp * time_to_spend;
    double income_vp = money_vp * p->income_discount * at_least_zero(turns_left - 1.0);
    for (int i = 0; i < players; i++) {
        const int32_t *q = seat + PER_PLAYER * i;
        int money = q[0], vp = q[1], level = q[3];
        worth[i] = vp + money_vp * money + income_vp * level +
                   liquidity_vp * smaller(money, p->liquidity_money) -
                   p->negative_income_vp * time_to_spend * at_least_zero(-(double)level);
    }
    /* tiles: link icons by location index */
    double icons[BRASS_WORTH_MAX_LOCATIONS] = {0};
    double share_goods = p->unflipped_goods * (0.35 + 0.65 * era_left_share);
    double share_resources = p->unflipped_resources * (0.35 + 0.65 * era_left_share);
    const int32_t *r = seat + PER_PLAYER * BRASS_MAX_PLAYERS;
    for (int k = 0; k < n_slots; k++, r += PER_SLOT) {
        int slot = r[0], owner = r[1], industry = r[2], level = r[3], flipped = r[4];
        if (slot < 0 || slot >= p->num_slots || owner < 0 || owner >= players || industry < 0 ||
            industry >= p->num_tiles / BRASS_WORTH_LEVELS)
            return BRASS_E_BAD_ARGUMENT;
        int location = p->slot_location[slot];
        if (location < 0 || location >= p->num_locations) return BRASS_E_BAD_ARGUMENT;
        BrassWorthTile t = level >= 0 && level < BRASS_WORTH_LEVELS
                               ? p->tiles[industry * BRASS_WORTH_LEVELS + level]
                               : default_tile(level);
        if (flipped) {
            worth[owner] += t.vp;
            icons[location] += t.link_icons;
        } else {
            /* goods or not is the industry's (its level-0 entry's) */
            double share = p->tiles[industry * BRASS_WORTH_LEVELS].goods ? share_goods : share_resources;
            double income_gain = p->levels_per_space * t.income_spaces;
            worth[owner] += share * (t.vp + income_vp * income_gain);
            icons[location] += share * t.link_icons;
        }
    }
    for (int k = 0; k < n_links; k++, r += PER_LINK) {
        int link = r[0], owner = r[1];
        if (link < 0 || link >= p->num_links || owner < 0 || owner >= players)
            return BRASS_E_BAD_ARGUMENT;
        double link_vp = 0.0;
        for (int e = 0; e < p->link_end_count[link] && e < BRASS_WORTH_MAX_ENDS; e++) {
            int location = p->link_ends[link][e];
            if (location >= p->num_locations) return BRASS_E_BAD_ARGUMENT;
            link_vp += location < 0 ? p->merchant_link_icons : icons[location];
        }
        worth[owner] += link_vp;
    }
    return BRASS_OK;
}
