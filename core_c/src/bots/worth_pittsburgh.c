/* Pittsburgh's static evaluator (clients/bots/heuristic_pittsburgh.py, PittsburghEvaluator):
   the VP held, every VP the seat's board still scores at the era ends left (P59-P62), money,
   income and whiskey while there is time to use them. docs/PITTSBURGH.md ("Bots") says why;
   each line below is one of PittsburghEvaluator.summary_worths's. */
#include "bots/worth.h"

/* the summary's layout (pittsburgh.h, docs/ENGINE_API.md) */
#define HEAD 10
#define PER_PLAYER 8 /* money, vp, income space, income level, whiskey, hand, heavy built, empty */
#define PER_SPACE 4
#define PER_LINK 3
#define PER_FIELD 3

/* _tile_vp_of: a tile's VP at an era end, its variable rule estimated from the owner now */
static double tile_vp(const BrassWorthTile *t, const int32_t *owner) {
    switch (t->vp_rule) {
    case BRASS_TILE_VP_FIXED: return t->vp;
    case BRASS_TILE_VP_INCOME_LEVEL: return (double)owner[3] > t->vp ? (double)owner[3] : t->vp;
    case BRASS_TILE_VP_PER_HEAVY_TRAIN: return t->vp * owner[6];
    case BRASS_TILE_VP_PER_EMPTY_POSITION: return t->vp * owner[7];
    default: return 0.0;
    }
}

int pittsburgh_worths(const int32_t *s, int len, const BrassWorthParams *p, double *worth,
                      int *players_out) {
    if (len < HEAD + PER_PLAYER * BRASS_MAX_PLAYERS) return BRASS_E_BAD_ARGUMENT;
    int n = s[0], game_over = s[1], era = s[2], round = s[3], deck_size = s[4], table_set = s[5];
    int n_spaces = s[6], n_rails = s[7], n_pipes = s[8], n_fields = s[9];
    if (n < 2 || n > BRASS_MAX_PLAYERS || !count_ok(n_spaces) || !count_ok(n_rails) ||
        !count_ok(n_pipes) || !count_ok(n_fields) || !count_ok(deck_size) ||
        len < HEAD + PER_PLAYER * BRASS_MAX_PLAYERS + PER_SPACE * n_spaces +
                  PER_LINK * (n_rails + n_pipes) + PER_FIELD * n_fields)
        return BRASS_E_BAD_ARGUMENT;
    if (table_set != p->table_set) return BRASS_E_UNSUPPORTED;
    *players_out = n;
    const int32_t *seat = s + HEAD;
    for (int i = 0; i < n; i++)
        if (!count_ok(seat[PER_PLAYER * i + 5])) return BRASS_E_BAD_ARGUMENT;
    if (game_over) { /* P65: VP, then the income space, then money */
        for (int i = 0; i < n; i++) {
            const int32_t *q = seat + PER_PLAYER * i;
            worth[i] = q[1] + 0.01 * q[2] + 0.001 * q[0];
        }
        return BRASS_OK;
    }
    if (era < 0 || era > p->eras || !count_ok(round)) return BRASS_E_BAD_ARGUMENT;
    int cards_left = deck_size;
    for (int i = 0; i < n; i++) cards_left += seat[PER_PLAYER * i + 5];
    /* _clock_and_worths */
    double turns_left_era = (double)cards_left / (double)(2 * n); /* a card an action (P10) */
    double era_turns = p->rounds_per_era - 0.5;                    /* era 1 round 1: one action */
    double turns_left = turns_left_era + (p->eras - era) * p->rounds_per_era;
    double era_left_share = at_most_one(turns_left_era / era_turns);
    int incomes_left = at_least_zero_int(p->rounds_per_era - round + (p->eras - era) * p->rounds_per_era);
    int scorings_left = p->eras - era + 1; /* era ends still to score (P59) */
    double time_to_spend = at_most_one(turns_left / 4.0);
    double money_vp = p->money_vp * time_to_spend;
    double liquidity_vp = p->liquidity_vp * time_to_spend;
    double income_vp = p->money_vp * p->income_discount * incomes_left;
    for (int i = 0; i < n; i++) {
        const int32_t *q = seat + PER_PLAYER * i;
        int money = q[0], vp = q[1], level = q[3], whiskey = q[4];
        worth[i] = vp + money_vp * money + income_vp * level +
                   liquidity_vp * smaller(money, p->liquidity_money) -
                   p->negative_income_vp * time_to_spend * at_least_zero(-(double)level) +
                   p->whiskey_vp * time_to_spend * whiskey;
    }
    /* icons by location, from the printed ones (P60) */
    double icons[BRASS_WORTH_MAX_LOCATIONS];
    for (int k = 0; k < BRASS_WORTH_MAX_LOCATIONS; k++) icons[k] = p->location_icons[k];
    double share_sellable = p->unflipped_goods * (0.35 + 0.65 * era_left_share);
    double share_resources = p->unflipped_resources * (0.35 + 0.65 * era_left_share);
    const int32_t *r = seat + PER_PLAYER * BRASS_MAX_PLAYERS;
    for (int k = 0; k < n_spaces; k++, r += PER_SPACE) {
        int space = r[0], owner = r[1], kind = r[2], flipped = r[3];
        if (kind < 0 || kind >= p->num_tiles) return BRASS_E_BAD_ARGUMENT;
        const BrassWorthTile *t = &p->tiles[kind];
        if (t->vp_rule == BRASS_TILE_VP_NONE) continue;
        if (space < 0 || space >= p->num_slots || owner < 0 || owner >= n) return BRASS_E_BAD_ARGUMENT;
        int location = p->slot_location[space];
        if (location < 0 || location >= p->num_locations) return BRASS_E_BAD_ARGUMENT;
        double vp = tile_vp(t, seat + PER_PLAYER * owner);
        int scorings = t->level <= 1 ? 1 : scorings_left; /* P62/P63 */
        if (flipped) {
            worth[owner] += vp * scorings;
            icons[location] += t->link_icons;
        } else {
            double share = t->goods ? share_sellable : share_resources;
            double reward = income_vp * p->levels_per_space * t->income_spaces + money_vp * t->money;
            worth[owner] += share * (vp * scorings + reward);
            icons[location] += share * t->link_icons; /* unflipped: no icons yet, but may flip */
        }
    }
    const int32_t *links = r;
    r += PER_LINK * (n_rails + n_pipes);
    if (p->has_oil) {
        for (int k = 0; k < n_fields; k++, r += PER_FIELD) {
            int owner = r[0], flipped = r[1];
            if (owner < 0) continue;
            if (owner >= n) return BRASS_E_BAD_ARGUMENT;
            double vp = tile_vp(&p->oil, seat + PER_PLAYER * owner);
            if (flipped)
                worth[owner] += vp * scorings_left;
            else
                worth[owner] += share_resources * (vp * scorings_left + money_vp * p->oil.money);
        }
    }
    for (int k = 0; k < n_rails; k++, links += PER_LINK) { /* pipelines never score (P60) */
        int route = links[0], owner = links[1], type = links[2];
        if (route < 0 || route >= p->num_links || owner < 0 || owner >= n || type < 0 ||
            type >= p->num_link_types)
            return BRASS_E_BAD_ARGUMENT;
        if (p->link_type_pipe[type]) continue;
        double at_ends = 0.0;
        for (int e = 0; e < p->link_end_count[route] && e < BRASS_WORTH_MAX_ENDS; e++) {
            int location = p->link_ends[route][e];
            if (location < 0 || location >= p->num_locations) return BRASS_E_BAD_ARGUMENT;
            at_ends += icons[location];
        }
        int times = p->link_type_light[type] ? 1 : scorings_left; /* P61 */
        worth[owner] += at_ends * p->link_type_multiplier[type] * times;
    }
    return BRASS_OK;
}
