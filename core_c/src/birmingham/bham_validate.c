/* Birmingham's validation: a state from outside (a restored snapshot, or a position read by
   the Python layer, core_c/python/brass/position.py) checked before any call plays on it. */
#include <stdio.h>

#include "bham_internal.h"

#define FAIL(name)                                                   \
    do {                                                             \
        if (field && field_len) snprintf(field, field_len, "%s", name); \
        return BRASS_E_BAD_POSITION;                                 \
    } while (0)
#define FAILF(fmt, ...)                                                        \
    do {                                                                       \
        if (field && field_len) snprintf(field, field_len, fmt, __VA_ARGS__); \
        return BRASS_E_BAD_POSITION;                                           \
    } while (0)

static int valid_opt(uint8_t v, int max) { return v == BRASS_NONE || v < max; }

/* Field names are JSON paths of the position format (docs/POSITION.md). */

/* Every field in range and every invariant the rules rely on, so that no later call can read
   out of bounds or get stuck. */
int bham_validate(const BirminghamGame *g, char *field, size_t field_len) {
    if (g->magic != BRASS_MAGIC) FAIL("magic");
    if (g->format_version != BHAM_FORMAT_VERSION) FAIL("format_version");
    if (g->rules_edition < 1 || g->rules_edition > BHAM_RULES_EDITION) FAIL("rules_edition");
    if (g->ruleset != BRASS_RULESET_BIRMINGHAM) FAIL("ruleset");
    int n = g->num_players;
    if (n < 2 || n > 4) FAIL("players");
    if (g->beginner > 1) FAIL("options.beginner");
    if (g->manufacturer_iv_cost != 8 && g->manufacturer_iv_cost != 14)
        FAIL("options.manufacturer_iv_cost");
    if (g->auto_resolve > 1) FAIL("options.auto_resolve");
    if (g->era > ERA_RAIL) FAIL("era");
    if (g->beginner && g->era != ERA_CANAL) FAIL("era");
    /* bug fix (found by fuzz_state, twice): a bound on the round that play could pass
       (round 20 played into 21; then round + cards left <= 100, passed by a round end
       after the round's last card was spent) made a legal move give a refused state.
       The counter stops at BRASS_ROUND_MAX instead, so any round from 1 is valid. */
    if (g->round < 1) FAIL("round");
    if (g->game_over > 1) FAIL("game_over");
    if (g->phase >= NUM_PHASES || (g->phase == PH_GAME_OVER) != (g->game_over == 1)) FAIL("decision");
    if (g->current >= n) FAIL("current");
    int between_turns = g->game_over || g->phase == PH_SHORTFALL;
    if (g->turn_idx > n || (g->turn_idx == n && !between_turns)) FAIL("turn_index");
    if (g->actions_left > 2 || (!g->game_over && g->phase != PH_SHORTFALL && !g->actions_left))
        FAIL("actions_left");
    uint8_t seen = 0;
    for (int i = 0; i < n; i++) {
        if (g->turn_order[i] >= n || (seen & (1u << g->turn_order[i]))) FAILF("turn_order[%d]", i);
        seen |= (uint8_t)(1u << g->turn_order[i]);
    }
    for (int i = n; i < BRASS_MAX_PLAYERS; i++)
        if (g->turn_order[i]) FAILF("turn_order[%d]", i);
    if (!between_turns && g->turn_order[g->turn_idx] != g->current)
        FAIL("current");
    if (g->deck_size > BHAM_MAX_DECK) FAIL("deck");
    if (g->coal_market > BT_COAL_CAPACITY) FAIL("markets.coal");
    if (g->iron_market > BT_IRON_CAPACITY) FAIL("markets.iron");
    if (g->wild_pile[0] > BT_WILD_CARDS_EACH) FAIL("wild_piles.location");
    if (g->wild_pile[1] > BT_WILD_CARDS_EACH) FAIL("wild_piles.industry");
    /* cards: no type more often than the box holds for this player count */
    int count[BHAM_NUM_CARD_TYPES] = {0};
    for (int i = 0; i < g->deck_size; i++) {
        if (g->deck[i] >= BT_CARD_WILD_LOCATION) FAILF("deck[%d]", i);
        count[g->deck[i]]++;
    }
    for (int i = g->deck_size; i < BHAM_MAX_DECK; i++)
        if (g->deck[i]) FAILF("deck[%d]", i);
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
        if (is_wild(c) && g->discards[c]) FAILF("discards.%s", BT_ACTION_NAMES[A_CARD + c] + 5);
        count[c] += g->discards[c];
    }
    for (int p = 0; p < BRASS_MAX_PLAYERS; p++) {
        const BirminghamPlayer *pl = &g->players[p];
        if (p >= n) {
            static const BirminghamPlayer empty_player = {.facedown_card = BHAM_NO_CARD,
                                                     .last_discard = BHAM_NO_CARD};
            if (memcmp(pl, &empty_player, sizeof *pl)) FAILF("player_state[%d]", p);
            continue;
        }
        /* bug fix (found by fuzz_state): these int16 tallies overflowed to negative near
           32767; then a loan took 9999 past the bound (found with -use_value_profile=1).
           Play stops them at BRASS_TALLY_MAX (tally_add), the bound accepted here. */
        if (pl->money < 0 || pl->money > BRASS_TALLY_MAX) FAILF("player_state[%d].money", p);
        if (pl->vp < 0 || pl->vp > BRASS_TALLY_MAX) FAILF("player_state[%d].vp", p);
        if (pl->spent < 0 || pl->spent > BRASS_TALLY_MAX) FAILF("player_state[%d].spent", p);
        if (pl->income_space > 99) FAILF("player_state[%d].income_space", p);
        if (pl->links_left > BHAM_LINK_TILES) FAILF("player_state[%d].links_left", p);
        for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++)
            if (pl->mat_taken[i] > BT_TILES_PER_PLAYER[i]) FAILF("player_state[%d].mat_taken.%s", p, INDUSTRY_NAME(i));
        int hs = 0;
        for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
            hs += pl->hand[c];
            count[c] += pl->hand[c];
        }
        if (hs != pl->hand_size || hs > BHAM_HAND_LIMIT) FAILF("player_state[%d].hand", p);
        if (pl->facedown_card != BHAM_NO_CARD) {
            if (pl->facedown_card >= BT_CARD_WILD_LOCATION) FAILF("player_state[%d].facedown", p);
            count[pl->facedown_card]++;
        }
        if (pl->last_discard != BHAM_NO_CARD && pl->last_discard >= BT_CARD_WILD_LOCATION)
            FAILF("player_state[%d].last_discard", p);
        /* bug fix (found by fuzz_state): the 2nd byte was hidden padding that was never
           checked, so one state could have several byte images (and hashes) */
        if (pl->pad_[0] || pl->pad_[1]) FAILF("player_state[%d]", p);
    }
    for (int c = 0; c < BT_CARD_WILD_LOCATION; c++)
        if (count[c] > BT_DECK[n - 2][c]) FAILF("cards.%s", BT_ACTION_NAMES[A_CARD + c] + 5);
    if (count[BT_CARD_WILD_LOCATION] + g->wild_pile[0] > BT_WILD_CARDS_EACH) FAIL("cards.wild_location");
    if (count[BT_CARD_WILD_INDUSTRY] + g->wild_pile[1] > BT_WILD_CARDS_EACH) FAIL("cards.wild_industry");
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        uint8_t t = g->merchant_tile[m];
        if (t != BRASS_NONE && (t & ~((1u << IND_COTTON) | (1u << IND_MANUFACTURER) | (1u << IND_POTTERY))))
            FAILF("merchants.%s.goods", SPACE_NAME(m));
        if (g->merchant_beer[m] > 1 || (g->merchant_beer[m] && (t == BRASS_NONE || t == 0)))
            FAILF("merchants.%s.beer", SPACE_NAME(m));
    }
    for (int l = 0; l < BHAM_NUM_LINKS; l++) {
        int o = g->link_owner[l];
        if (o < -1 || o >= n) FAILF("links.%s", BT_LINK_ID[l]);
        if (o >= 0 && !(g->era == ERA_CANAL ? BT_LINK_CANAL[l] : BT_LINK_RAIL[l]))
            FAILF("links.%s", BT_LINK_ID[l]);
    }
    int on_board[BRASS_MAX_PLAYERS][BHAM_NUM_INDUSTRIES][BT_MAX_LEVELS + 1] = {{{0}}};
    int links_used[BRASS_MAX_PLAYERS] = {0};
    for (int l = 0; l < BHAM_NUM_LINKS; l++)
        if (g->link_owner[l] >= 0) links_used[g->link_owner[l]]++;
    for (int p = 0; p < n; p++)
        if (links_used[p] + g->players[p].links_left > BHAM_LINK_TILES) FAILF("player_state[%d].links_left", p);
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < -1 || t->owner >= n) FAILF("slots.%s.owner", SLOT_NAME(s));
        if (t->owner < 0) {
            if (t->industry || t->level || t->flipped || t->cubes)
                FAILF("slots.%s", SLOT_NAME(s));
            continue;
        }
        if (t->industry >= BHAM_NUM_INDUSTRIES || !(BT_SLOT_INDUSTRIES[s] & (1u << t->industry)))
            FAILF("slots.%s.industry", SLOT_NAME(s));
        if (t->level < 1 || t->level > BT_NUM_LEVELS[t->industry])
            FAILF("slots.%s.level", SLOT_NAME(s));
        /* bug fix (issue 10): every tile on the board was built in this era, or is a tile
           of level II or more kept from the canal era (level I leaves at its end) */
        const BtLevel *lv = &BT_LEVELS[t->industry][t->level - 1];
        if (g->era == ERA_CANAL ? !lv->canal_era : (t->level == 1 && !lv->rail_era))
            FAILF("slots.%s.level", SLOT_NAME(s));
        if (t->flipped > 1) FAILF("slots.%s.flipped", SLOT_NAME(s));
        /* a brewery is built with 1 barrel in the canal era, 2 in the rail era (ruling 5) */
        int max_cubes = t->industry == IND_BREWERY ? (g->era == ERA_CANAL ? 1 : 2)
                      : (t->industry == IND_COAL || t->industry == IND_IRON)
                          ? BT_LEVELS[t->industry][t->level - 1].produces : 0;
        if (t->cubes > max_cubes || (t->flipped && t->cubes) ||
            (!t->flipped && max_cubes && !t->cubes))
            FAILF("slots.%s.cubes", SLOT_NAME(s));
        on_board[t->owner][t->industry][t->level]++;
    }
    /* bug fix (issue 10): a built tile came off the mat, lowest level first, so each level
       on the board was among the tiles taken (coal III with one coal tile taken is refused) */
    for (int p = 0; p < n; p++)
        for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++) {
            int taken[BT_MAX_LEVELS + 1] = {0};
            for (int k = 0; k < g->players[p].mat_taken[i]; k++) taken[BT_MAT_LEVEL[i][k]]++;
            for (int l = 1; l <= BT_MAX_LEVELS; l++)
                if (on_board[p][i][l] > taken[l]) FAILF("player_state[%d].mat_taken.%s", p, INDUSTRY_NAME(i));
        }
    /* the action in progress must name things that exist */
    const BirminghamPending *pd = &g->pend;
    if (pd->action >= NUM_ACT_TYPES) FAIL("pending.action");
    if (!valid_opt(pd->card, BHAM_NUM_CARD_TYPES)) FAIL("pending.card");
    if (!valid_opt(pd->industry, BHAM_NUM_INDUSTRIES)) FAIL("pending.industry");
    if (!valid_opt(pd->slot, BHAM_NUM_SLOTS)) FAIL("pending.slot");
    if (!valid_opt(pd->link, BHAM_NUM_LINKS)) FAIL("pending.link");
    if (!valid_opt(pd->merchant, BHAM_NUM_MERCHANT_SPACES)) FAIL("pending.merchant");
    if (pd->coal_left > 2) FAIL("pending.coal_left");
    if (pd->iron_left > 2) FAIL("pending.iron_left");
    if (pd->beer_left > 2) FAIL("pending.beer_left");
    if (pd->count > BHAM_NUM_SLOTS) FAIL("pending.count");
    if (pd->scout_picked > 3) FAIL("pending.scout_picked");
    if (pd->income_idx > n) FAIL("pending.income_index");
    if (pd->after_beer > 1) FAIL("pending.merchant_beer_used");
    if (pd->last_choice >= BHAM_NUM_SLOTS) FAIL("pending.last_choice");
    if (pd->pad_[0] || pd->pad_[1]) FAIL("pending");
    /* bug fix (found by fuzz_state): cubes and barrels are owed only while paying, in the
       order coal, iron, beer, and only those the action pays; and an action not yet begun
       has counted nothing. Otherwise a later step leads to a decision the action does not
       have (e.g. beer for a build, a "first" link counted as the second). */
    int paying = g->phase == PH_COAL || g->phase == PH_IRON || g->phase == PH_BEER;
    if (pd->coal_left && (!paying || g->phase != PH_COAL ||
                          (pd->action != ACT_BUILD && pd->action != ACT_NETWORK)))
        FAIL("pending.coal_left");
    if (pd->iron_left && (!paying || g->phase == PH_BEER ||
                          (pd->action != ACT_BUILD && pd->action != ACT_DEVELOP)))
        FAIL("pending.iron_left");
    if (pd->beer_left && (!paying || (pd->action != ACT_SELL && pd->action != ACT_NETWORK)))
        FAIL("pending.beer_left");
    if (g->phase == PH_ACTION || g->phase == PH_CARD) {
        if (pd->count) FAIL("pending.count");
        if (pd->scout_picked) FAIL("pending.scout_picked");
        if (pd->after_beer) FAIL("pending.merchant_beer_used");
    }
    /* bug fix (with the fuzz_state findings): a Scout in progress will take one card from
       each wild pile, and is open only to a player without wild cards */
    if (pd->action == ACT_SCOUT && (g->phase == PH_CARD || g->phase == PH_SCOUT_CARD)) {
        const BirminghamPlayer *cur = &g->players[g->current];
        if (!g->wild_pile[0] || !g->wild_pile[1] || cur->hand[BT_CARD_WILD_LOCATION] ||
            cur->hand[BT_CARD_WILD_INDUSTRY])
            FAIL("pending.action");
    }
    int need_slot = 0, need_link = 0, need_industry = 0, need_card = 0, need_merchant = 0;
    switch (g->phase) {
    case PH_CARD: break;
    case PH_SCOUT_CARD:
        /* bug fix (found by fuzz_state): Scout discards exactly 3 cards (picked 1 or 2 so
           far; 3 counted past the end) */
        if (pd->action != ACT_SCOUT || !pd->scout_picked || pd->scout_picked > 2) FAIL("pending.scout_picked");
        break;
    case PH_BUILD_INDUSTRY: need_card = 1; if (pd->action != ACT_BUILD) FAIL("pending.action"); break;
    case PH_BUILD_SLOT: need_card = need_industry = 1; if (pd->action != ACT_BUILD) FAIL("pending.action"); break;
    case PH_COAL:
        if (!pd->coal_left) FAIL("pending.coal_left");
        need_slot = pd->action == ACT_BUILD;
        need_link = pd->action == ACT_NETWORK;
        need_industry = need_slot;
        if (!need_slot && !need_link) FAIL("pending.action");
        break;
    case PH_IRON:
        if (pd->action != ACT_BUILD && pd->action != ACT_DEVELOP) FAIL("pending.action");
        if (!pd->iron_left) FAIL("pending.iron_left");
        need_industry = 1;
        need_slot = pd->action == ACT_BUILD;
        break;
    case PH_BEER:
        if (!pd->beer_left) FAIL("pending.beer_left");
        need_slot = need_merchant = pd->action == ACT_SELL;
        need_link = pd->action == ACT_NETWORK;
        if (!need_slot && !need_link) FAIL("pending.action");
        if (need_link && pd->count != 2) FAIL("pending.count"); /* only a double rail needs beer */
        break;
    case PH_LINK: case PH_SECOND_RAIL:
        if (pd->action != ACT_NETWORK) FAIL("pending.action");
        /* bug fix (found by fuzz_state): links placed so far must match the decision, or a
           "first" link becomes a double rail whose beer was never checked */
        if (pd->count != (g->phase == PH_SECOND_RAIL) ||
            (g->phase == PH_SECOND_RAIL && g->era != ERA_RAIL))
            FAIL("pending.count");
        break;
    case PH_DEVELOP:
        if (pd->action != ACT_DEVELOP) FAIL("pending.action");
        if (pd->count > 1) FAIL("pending.count");
        break;
    case PH_SELL_TILE: if (pd->action != ACT_SELL) FAIL("pending.action"); break;
    case PH_SELL_MERCHANT: case PH_FREE_DEVELOP:
        if (pd->action != ACT_SELL) FAIL("pending.action");
        /* bug fix (found by fuzz_state): the Gloucester develop follows a completed sale;
           with none counted, the sale could not end (no 'done', maybe nothing to sell) */
        if (g->phase == PH_FREE_DEVELOP && !pd->count) FAIL("pending.count");
        need_slot = 1;
        break;
    default: break;
    }
    if (need_slot && pd->slot == BRASS_NONE) FAIL("pending.slot");
    if (need_link && pd->link == BRASS_NONE) FAIL("pending.link");
    if (need_industry && pd->industry == BRASS_NONE) FAIL("pending.industry");
    if (need_card && pd->card == BRASS_NONE) FAIL("pending.card");
    if (need_merchant && pd->merchant == BRASS_NONE) FAIL("pending.merchant");
    if (need_slot && g->phase != PH_COAL && g->phase != PH_IRON && pd->action == ACT_SELL) {
        const BirminghamSlot *t = &g->slots[pd->slot];
        if (t->owner != g->current || t->industry > IND_POTTERY) FAIL("pending.slot");
    }
    /* bug fix (found by fuzz_state): a develop being paid for also takes a tile off the mat */
    if (g->phase == PH_BUILD_SLOT ||
        ((pd->action == ACT_BUILD || pd->action == ACT_DEVELOP) && need_industry)) {
        if (g->players[g->current].mat_taken[pd->industry] >= BT_TILES_PER_PLAYER[pd->industry])
            FAIL("pending.industry");
    }
    /* bug fix (found by fuzz_state): while a build is paid for, its slot is empty (an
       overbuilt tile left when the slot was chosen) and shows the industry being built */
    if (pd->action == ACT_BUILD && need_slot &&
        (g->slots[pd->slot].owner >= 0 || !(BT_SLOT_INDUSTRIES[pd->slot] & (1u << pd->industry))))
        FAIL("pending.slot");
    if (pd->action == ACT_NETWORK && need_link && g->link_owner[pd->link] != g->current) FAIL("pending.link");
    /* bug fix (found by fuzz_state): what the action still owes must be payable, as it was
       when the action was chosen, or paying the first cube or barrel strands the second */
    if (paying) {
        Board b;
        board_analyse(g, g->current, &b);
        uint32_t target = 0;
        if (pd->coal_left || pd->beer_left)
            target = pd->action == ACT_NETWORK ? BT_LINK_TOUCHES[pd->link]
                                               : 1u << BT_SLOT_LOCATION[pd->slot];
        int coal = coal_money_needed(g, &b, target, pd->coal_left);
        int iron = iron_money_needed(g, &b, pd->iron_left);
        if (coal < 0 || coal + iron > g->players[g->current].money)
            FAIL(pd->coal_left ? "pending.coal_left" : "pending.iron_left");
        int beer = !pd->beer_left ? 0
                 : pd->action == ACT_SELL ? b.comp_opp_beer[b.comp[BT_SLOT_LOCATION[pd->slot]]] +
                                                g->merchant_beer[pd->merchant]
                                          : opp_beer_reachable(&b, target);
        if (pd->beer_left && b.own_beer + beer < pd->beer_left) FAIL("pending.beer_left");
    }
    /* a position must leave the seat to act something to do */
    if (!g->game_over) {
        uint16_t opts[BHAM_NUM_ACTIONS];
        if (legal_into(g, opts, BHAM_NUM_ACTIONS) <= 0) FAIL("decision");
    }
    /* bug fix (found by fuzz_state): at the card decision the action type already chosen
       must still be possible, or discarding a card starts an action that cannot be
       completed (a develop with no money for iron, a sale with nothing to sell...) */
    if (g->phase == PH_CARD) {
        BirminghamGame t = *g;
        t.phase = PH_ACTION;
        if (bham_reason(&t, A_ACTION_TYPE + pd->action) != R_LEGAL) FAIL("pending.action");
    }
    return BRASS_OK;
}
