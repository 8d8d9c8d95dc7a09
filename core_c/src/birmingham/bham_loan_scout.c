/* Loan (ruling 17) and Scout (ruling 6). */
#include "bham_internal.h"
#include "common/income_track.h"

#define LOAN_MONEY 30
#define LOAN_LEVELS 3
#define MIN_INCOME_LEVEL (-10)

int loan_reason(const BirminghamGame *g) {
    int level = BT_INCOME_LEVEL[g->players[g->current].income_space];
    return level - LOAN_LEVELS < MIN_INCOME_LEVEL ? R_LOAN_LIMIT : R_LEGAL;
}

/* £30; income falls 3 levels, onto the highest space of the new level. */
void take_loan(Ctx *cx) {
    BirminghamGame *g = cx->g;
    BirminghamPlayer *pl = &g->players[g->current];
    /* loan_reason keeps the new level at MIN_INCOME_LEVEL or above */
    pl->income_space = (uint8_t)income_track_down(BT_LEVEL_TOP_SPACE, BT_INCOME_LEVEL[pl->income_space],
                                                  LOAN_LEVELS, MIN_INCOME_LEVEL);
    gain_money(g, g->current, LOAN_MONEY);
    emit(cx, EV_LOAN, g->current, pl->income_space, 0, 0);
}

int scout_reason(const BirminghamGame *g) {
    const BirminghamPlayer *pl = &g->players[g->current];
    if (pl->hand[BT_CARD_WILD_LOCATION] || pl->hand[BT_CARD_WILD_INDUSTRY])
        return R_HOLDING_WILD_CARD;
    if (pl->hand_size < 3) return R_NOT_ENOUGH_CARDS;
    if (!g->wild_pile[0] || !g->wild_pile[1]) return R_NO_OPTION;
    return R_LEGAL;
}

/* Scout's three cards are unordered: taken in ascending card order, and never a pick
   that leaves too few cards for the rest. */
int scout_card_reason(const BirminghamGame *g, int card, int picks_after) {
    const BirminghamPlayer *pl = &g->players[g->current];
    if (!pl->hand[card]) return R_CARD_NOT_IN_HAND;
    if (g->pend.scout_picked && card < g->pend.last_choice) return R_CANONICAL_ORDER;
    int rest = pl->hand[card] - 1;
    for (int c = card + 1; c < BHAM_NUM_CARD_TYPES; c++) rest += pl->hand[c];
    return rest >= picks_after ? R_LEGAL : R_CANONICAL_ORDER;
}

void scout_take_wilds(Ctx *cx) {
    BirminghamGame *g = cx->g;
    BirminghamPlayer *pl = &g->players[g->current];
    g->wild_pile[0]--;
    g->wild_pile[1]--;
    pl->hand[BT_CARD_WILD_LOCATION]++;
    pl->hand[BT_CARD_WILD_INDUSTRY]++;
    pl->hand_size = (uint8_t)(pl->hand_size + 2);
    emit(cx, EV_SCOUT, g->current, 0, 0, 0);
}
