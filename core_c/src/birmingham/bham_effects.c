/* Small state changes shared by every rule: money, income, flips, cubes, cards. */
#include "bham_internal.h"
#include "common/income_track.h"
#include "common/event_log.h"

void emit(Ctx *cx, int type, int seat, int a, int b, int c) {
    brass_log_event(cx->log, type, seat, a, b, c);
}

/* Money paid to the bank counts as spending for turn order (ruling 18). */
void pay_money(Ctx *cx, int player, int amount) {
    if (amount <= 0) return;
    BirminghamPlayer *p = &cx->g->players[player];
    p->money = (int16_t)(p->money - amount);
    p->spent = (int16_t)tally_add(p->spent, amount);
    emit(cx, EV_PAY, player, amount, 0, 0);
}

/* Income rises by track spaces; level 30 (space 99) is the cap (ruling 18). */
void advance_income(BirminghamGame *g, int player, int spaces) {
    g->players[player].income_space = income_track_up(g->players[player].income_space, spaces);
}

int bham_income_level(int space) {
    if (space < 0) space = 0;
    if (space > 99) space = 99;
    return BT_INCOME_LEVEL[space];
}

/* Money, VP and spending stop at BRASS_TALLY_MAX, the bound brass_validate accepts: a real
   game stays far below, and so a legal move from any valid state gives a valid state. */
int tally_add(int tally, int amount) {
    int v = tally + amount;
    return v < 0 ? 0 : v > BRASS_TALLY_MAX ? BRASS_TALLY_MAX : v;
}

/* Returns the money credited (less than amount only at the bound), for the events. */
int gain_money(BirminghamGame *g, int player, int amount) {
    int before = g->players[player].money;
    g->players[player].money = (int16_t)tally_add(before, amount);
    return g->players[player].money - before;
}

void gain_vp(BirminghamGame *g, int player, int vp) {
    g->players[player].vp = (int16_t)tally_add(g->players[player].vp, vp);
}

void flip_tile(Ctx *cx, int slot) {
    BirminghamSlot *t = &cx->g->slots[slot];
    t->flipped = 1;
    int spaces = BT_LEVELS[t->industry][t->level - 1].income_spaces;
    advance_income(cx->g, t->owner, spaces);
    emit(cx, EV_FLIP, t->owner, slot, spaces, 0);
}

/* Taking the last cube or barrel from a mine, works or brewery flips it. */
void take_cube(Ctx *cx, int slot) {
    BirminghamSlot *t = &cx->g->slots[slot];
    t->cubes--;
    if (t->cubes == 0) flip_tile(cx, slot);
}

/* A used card goes face up on the discard pile; a wild card back to its pile (ruling 6). */
void discard_card(Ctx *cx, int player, int card) {
    BirminghamGame *g = cx->g;
    BirminghamPlayer *p = &g->players[player];
    p->hand[card]--;
    p->hand_size--;
    if (card == BT_CARD_WILD_LOCATION) g->wild_pile[0]++;
    else if (card == BT_CARD_WILD_INDUSTRY) g->wild_pile[1]++;
    else {
        g->discards[card]++;
        p->last_discard = (uint8_t)card;
    }
}

void remove_tile(BirminghamGame *g, int slot) {
    memset(&g->slots[slot], 0, sizeof(BirminghamSlot));
    g->slots[slot].owner = -1;
}
