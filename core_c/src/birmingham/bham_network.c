/* Network action: canals, single and double rails (rulings 2, 3, 16). */
#include "bham_internal.h"

#define CANAL_COST 3
#define RAIL_COST 5
#define SECOND_RAIL_COST 10 /* double rail: 15 in all */

int link_reason(const BirminghamGame *g, const Board *b, int link, int second) {
    const BirminghamPlayer *pl = &g->players[b->player];
    if (g->link_owner[link] >= 0) return R_LINK_TAKEN;
    if (!(g->era == ERA_CANAL ? BT_LINK_CANAL[link] : BT_LINK_RAIL[link])) return R_LINK_WRONG_ERA;
    if (!pl->links_left) return R_NO_LINK_TILES;
    uint32_t touches = BT_LINK_TOUCHES[link];
    if (b->presence && !(touches & b->network)) return R_LINK_NOT_IN_NETWORK;
    if (g->era == ERA_CANAL) return pl->money >= CANAL_COST ? R_LEGAL : R_NOT_ENOUGH_MONEY;
    /* coal is checked as if the link were placed: both ends' components join */
    int coal = coal_money_needed(g, b, touches, 1);
    if (coal < 0) return R_NO_CONNECTED_COAL;
    if (second && b->own_beer + opp_beer_reachable(b, touches) < 1) return R_NO_BEER;
    if ((second ? SECOND_RAIL_COST : RAIL_COST) + coal > pl->money) return R_NOT_ENOUGH_MONEY;
    return R_LEGAL;
}

void network_place(Ctx *cx, int link) {
    BirminghamGame *g = cx->g;
    int p = g->current;
    g->link_owner[link] = (int8_t)p;
    g->players[p].links_left--;
    g->pend.link = (uint8_t)link;
    g->pend.count++;
    emit(cx, EV_LINK, p, link, 0, 0);
    if (g->era == ERA_CANAL) {
        pay_money(cx, p, CANAL_COST);
        action_done(cx);
        return;
    }
    pay_money(cx, p, g->pend.count == 1 ? RAIL_COST : SECOND_RAIL_COST);
    g->pend.coal_left = 1;
    if (g->pend.count == 2) g->pend.beer_left = 1; /* the double rail's beer, after its coal */
    resources_continue(cx);
}

void network_after_coal(Ctx *cx) {
    if (cx->g->pend.count == 1) cx->g->phase = PH_SECOND_RAIL;
    else action_done(cx);
}
