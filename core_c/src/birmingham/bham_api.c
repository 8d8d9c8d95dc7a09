/* Birmingham's validation, views, determinization, observation, results and names. */
#include <stdio.h>

#include "common/card_pool.h"
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
/* (names: bham_entry_name, bham_internal.h) */

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

/* ---- hidden information ---- */

/* The one redaction function: others' non-wild cards, the deck order, face-down cards and
   the random state are what no seat may see (wild cards are taken and returned openly). */
void bham_redact(const BirminghamGame *g, int seat, BirminghamGame *out) {
    *out = *g;
    for (int p = 0; p < BRASS_MAX_PLAYERS; p++) {
        BirminghamPlayer *pl = &out->players[p];
        pl->facedown_card = p < g->num_players ? 0 : BHAM_NO_CARD;
        if (p == seat) continue;
        for (int c = 0; c < BT_CARD_WILD_LOCATION; c++) pl->hand[c] = 0;
    }
    memset(out->deck, 0, sizeof out->deck);
    out->rng_state = 0;
    out->seed = 0;
}


/* Everything `seat` cannot see (the deck, others' non-wild cards, face-down cards) dealt
   back in one canonical order, card types ascending, and the random state fixed: what then
   follows from the state depends on nothing but what `seat` knows (previews). */
void bham_conceal(BirminghamGame *g, int seat) {
    uint8_t count[BHAM_NUM_CARD_TYPES] = {0};
    int n = g->num_players;
    for (int i = 0; i < g->deck_size; i++) count[g->deck[i]]++;
    for (int p = 0; p < n; p++) {
        BirminghamPlayer *pl = &g->players[p];
        if (pl->facedown_card != BHAM_NO_CARD) count[pl->facedown_card]++;
        if (p == seat) continue;
        for (int c = 0; c < BT_CARD_WILD_LOCATION; c++) {
            count[c] = (uint8_t)(count[c] + pl->hand[c]);
            pl->hand[c] = 0;
        }
    }
    int next = 0;
#define NEXT_CARD() card_pool_take_lowest(count, BHAM_NUM_CARD_TYPES, &next)
    for (int i = 0; i < g->deck_size; i++) g->deck[i] = NEXT_CARD();
    for (int p = 0; p < n; p++) {
        BirminghamPlayer *pl = &g->players[p];
        if (pl->facedown_card != BHAM_NO_CARD) pl->facedown_card = NEXT_CARD();
        if (p == seat) continue;
        int wild = pl->hand[BT_CARD_WILD_LOCATION] + pl->hand[BT_CARD_WILD_INDUSTRY];
        for (int i = wild; i < pl->hand_size; i++) pl->hand[NEXT_CARD()]++;
    }
#undef NEXT_CARD
    rng_seed(&g->rng_state, 0);
    g->seed = 0;
}

/* What `viewer` may see of `after`, the outcome of a move from `before` (a concealed state):
   `after` redacted, and the cards the viewer drew from the deck taken out of its hand
   (hand_size still counts them); at the era change every card of its new hand is drawn. */
void bham_redact_preview(const BirminghamGame *before, const BirminghamGame *after, int viewer,
                         BirminghamGame *out) {
    bham_redact(after, viewer, out);
    if (viewer < 0 || viewer >= after->num_players) return;
    uint8_t *hand = out->players[viewer].hand;
    if (after->era != before->era) {
        for (int c = 0; c < BT_CARD_WILD_LOCATION; c++) hand[c] = 0;
        return;
    }
    /* within an era the deck only shrinks, and only the seat ending its turn draws */
    for (int i = after->deck_size; i < before->deck_size && i < BHAM_MAX_DECK; i++)
        if (hand[before->deck[i]]) hand[before->deck[i]]--;
}

/* The unseen cards are gathered as counts and laid out by card type, ascending, before the
   shuffle: the deal then depends on the seed and on what `seat` knows only, never on the
   true order of the deck or the true hands (a bot's search must not read them). */
static void redeal(BirminghamGame *g, int seat, int keep, uint64_t seed) {
    uint8_t count[BHAM_NUM_CARD_TYPES] = {0};
    for (int i = 0; i < g->deck_size; i++) count[g->deck[i]]++;
    for (int p = 0; p < g->num_players; p++) {
        BirminghamPlayer *pl = &g->players[p];
        if (pl->facedown_card != BHAM_NO_CARD) count[pl->facedown_card]++;
        if (p == seat || p == keep) continue;
        for (int c = 0; c < BT_CARD_WILD_LOCATION; c++) {
            count[c] = (uint8_t)(count[c] + pl->hand[c]);
            pl->hand[c] = 0;
        }
    }
    uint8_t pool[BHAM_MAX_DECK + 40];
    int n = 0;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++)
        for (int i = 0; i < count[c] && n < (int)sizeof pool; i++) pool[n++] = (uint8_t)c;
    rng_seed(&g->rng_state, seed);
    g->seed = seed;
    rng_shuffle_bytes(&g->rng_state, pool, n);
    int k = 0;
    for (int i = 0; i < g->deck_size; i++) g->deck[i] = pool[k++];
    for (int p = 0; p < g->num_players; p++) {
        BirminghamPlayer *pl = &g->players[p];
        if (pl->facedown_card != BHAM_NO_CARD) pl->facedown_card = pool[k++];
        if (p == seat || p == keep) continue;
        int wild = pl->hand[BT_CARD_WILD_LOCATION] + pl->hand[BT_CARD_WILD_INDUSTRY];
        for (int i = wild; i < pl->hand_size; i++) pl->hand[pool[k++]]++;
    }
}

/* Bug fix (found by core_c/fuzz/fuzz_state): determinizing for a seat other than the one
   acting, mid-action, could deal the acting player a hand with no legal option (Scout's
   2nd/3rd card in canonical order, a Build card), a stuck state that brass_validate refuses.
   Deals that leave no legal option are rejected (the real hand is one consistent deal);
   after 64 rejections the acting player's hand is kept. */
int bham_determinize(BirminghamGame *g, int seat, uint64_t seed) {
    BirminghamGame orig = *g;
    uint16_t opts[BHAM_NUM_ACTIONS];
    for (uint64_t attempt = 0; attempt < 64; attempt++) {
        redeal(g, seat, -1, seed + attempt * 0x9e3779b97f4a7c15ull);
        g->seed = seed;
        if (g->game_over || legal_into(g, opts, BHAM_NUM_ACTIONS) > 0) return BRASS_OK;
        *g = orig;
    }
    redeal(g, seat, g->current, seed);
    return BRASS_OK;
}

/* ---- results ---- */

static int better(const BirminghamGame *g, int a, int b) {
    const BirminghamPlayer *x = &g->players[a], *y = &g->players[b];
    if (x->vp != y->vp) return x->vp > y->vp;
    int lx = BT_INCOME_LEVEL[x->income_space], ly = BT_INCOME_LEVEL[y->income_space];
    if (lx != ly) return lx > ly;
    return x->money > y->money;
}

/* Seats best first: VP, then income level, then money (ruling 20). */
int bham_score_order(const BirminghamGame *g, uint8_t *ranking) {
    int n = g->num_players;
    for (int i = 0; i < n; i++) ranking[i] = (uint8_t)i;
    for (int i = 1; i < n; i++) {
        uint8_t s = ranking[i];
        int j = i - 1;
        while (j >= 0 && better(g, s, ranking[j])) {
            ranking[j + 1] = ranking[j];
            j--;
        }
        ranking[j + 1] = s;
    }
    return n;
}

int bham_result(const BirminghamGame *g, BrassResult *out) {
    memset(out, 0, sizeof *out);
    int n = bham_score_order(g, out->ranking);
    out->num_players = (uint8_t)n;
    for (int p = 0; p < n; p++) {
        const BirminghamPlayer *pl = &g->players[p];
        out->vp[p] = pl->vp;
        out->money[p] = pl->money;
        out->income_space[p] = pl->income_space;
        out->income_level[p] = (int16_t)BT_INCOME_LEVEL[pl->income_space];
    }
    /* seats tied with the first on every tie-break share first place */
    out->num_first = 1;
    while (out->num_first < n && !better(g, out->ranking[0], out->ranking[out->num_first]))
        out->num_first++;
    return n;
}

/* ---- names ---- */

const char *bham_action_name(int action) {
    if (action < 0 || action >= BHAM_NUM_ACTIONS) return "unknown";
    return BT_ACTION_NAMES[action];
}

const char *bham_phase_name(int phase) {
    static const char *const names[NUM_PHASES] = {
        "action", "card", "scout_card", "build_industry", "build_slot", "coal", "iron", "beer",
        "link", "second_rail", "develop", "sell_tile", "sell_merchant", "free_develop",
        "shortfall", "game_over"};
    return phase >= 0 && phase < NUM_PHASES ? names[phase] : "unknown";
}

/* Birmingham's own reasons (codes from BRASS_R_RULESET_FIRST); the shared ones are the
   engine's. NULL for a code that is not Birmingham's. */
#define OWN_REASONS (NUM_REASONS - BRASS_R_RULESET_FIRST)
static const char *const REASON_NAMES[OWN_REASONS] = {
    [R_NO_CONNECTED_COAL - BRASS_R_RULESET_FIRST] = "NO_CONNECTED_COAL",
    [R_CANAL_ONE_TILE_PER_TOWN - BRASS_R_RULESET_FIRST] = "CANAL_ONE_TILE_PER_TOWN",
    [R_SLOT_WRONG_INDUSTRY - BRASS_R_RULESET_FIRST] = "SLOT_WRONG_INDUSTRY",
    [R_SINGLE_ICON_SLOT_FIRST - BRASS_R_RULESET_FIRST] = "SINGLE_ICON_SLOT_FIRST",
    [R_TILE_WRONG_ERA - BRASS_R_RULESET_FIRST] = "TILE_WRONG_ERA",
    [R_CANNOT_OVERBUILD - BRASS_R_RULESET_FIRST] = "CANNOT_OVERBUILD",
    [R_CARD_DOES_NOT_ALLOW - BRASS_R_RULESET_FIRST] = "CARD_DOES_NOT_ALLOW",
    [R_FARM_NEEDS_INDUSTRY_CARD - BRASS_R_RULESET_FIRST] = "FARM_NEEDS_INDUSTRY_CARD",
    [R_LINK_WRONG_ERA - BRASS_R_RULESET_FIRST] = "LINK_WRONG_ERA",
    [R_LINK_NOT_IN_NETWORK - BRASS_R_RULESET_FIRST] = "LINK_NOT_IN_NETWORK",
    [R_NO_BEER - BRASS_R_RULESET_FIRST] = "NO_BEER",
    [R_NOT_NEAREST_COAL - BRASS_R_RULESET_FIRST] = "NOT_NEAREST_COAL",
    [R_MINE_COAL_FIRST - BRASS_R_RULESET_FIRST] = "MINE_COAL_FIRST",
    [R_WORKS_IRON_FIRST - BRASS_R_RULESET_FIRST] = "WORKS_IRON_FIRST",
    [R_NOT_CONNECTED_TO_MERCHANT - BRASS_R_RULESET_FIRST] = "NOT_CONNECTED_TO_MERCHANT",
    [R_NO_MERCHANT_ACCEPTS - BRASS_R_RULESET_FIRST] = "NO_MERCHANT_ACCEPTS",
    [R_ALREADY_FLIPPED - BRASS_R_RULESET_FIRST] = "ALREADY_FLIPPED",
    [R_NOT_SELLABLE - BRASS_R_RULESET_FIRST] = "NOT_SELLABLE",
    [R_LIGHTBULB_POTTERY - BRASS_R_RULESET_FIRST] = "LIGHTBULB_POTTERY",
    [R_HOLDING_WILD_CARD - BRASS_R_RULESET_FIRST] = "HOLDING_WILD_CARD",
    [R_SOURCE_EMPTY - BRASS_R_RULESET_FIRST] = "SOURCE_EMPTY",
    [R_BEER_NOT_CONNECTED - BRASS_R_RULESET_FIRST] = "BEER_NOT_CONNECTED",
    [R_MERCHANT_BEER_NOT_HERE - BRASS_R_RULESET_FIRST] = "MERCHANT_BEER_NOT_HERE",
    [R_NO_TILE_HERE - BRASS_R_RULESET_FIRST] = "NO_TILE_HERE",
    [R_NO_BUILD_WITH_CARD - BRASS_R_RULESET_FIRST] = "NO_BUILD_WITH_CARD",
    [R_BEER_NOT_NEEDED - BRASS_R_RULESET_FIRST] = "BEER_NOT_NEEDED",
};
static const char *const REASON_MESSAGES[OWN_REASONS] = {
    [R_NO_CONNECTED_COAL - BRASS_R_RULESET_FIRST] = "no connected coal, and no connection to a merchant location for the coal market",
    [R_CANAL_ONE_TILE_PER_TOWN - BRASS_R_RULESET_FIRST] = "in the Canal Era you may have only one industry tile per location",
    [R_SLOT_WRONG_INDUSTRY - BRASS_R_RULESET_FIRST] = "that slot does not show this industry",
    [R_SINGLE_ICON_SLOT_FIRST - BRASS_R_RULESET_FIRST] = "a slot showing only this industry is free in that location and must be used first",
    [R_TILE_WRONG_ERA - BRASS_R_RULESET_FIRST] = "your lowest tile of that industry cannot be built in this era",
    [R_CANNOT_OVERBUILD - BRASS_R_RULESET_FIRST] = "that tile cannot be overbuilt",
    [R_CARD_DOES_NOT_ALLOW - BRASS_R_RULESET_FIRST] = "that card does not allow this build",
    [R_FARM_NEEDS_INDUSTRY_CARD - BRASS_R_RULESET_FIRST] = "farm breweries are built only with a brewery or wild industry card",
    [R_LINK_WRONG_ERA - BRASS_R_RULESET_FIRST] = "that route cannot take a link in this era",
    [R_LINK_NOT_IN_NETWORK - BRASS_R_RULESET_FIRST] = "that route does not touch your network",
    [R_NO_BEER - BRASS_R_RULESET_FIRST] = "no beer available",
    [R_NOT_NEAREST_COAL - BRASS_R_RULESET_FIRST] = "a nearer connected coal mine must be used first",
    [R_MINE_COAL_FIRST - BRASS_R_RULESET_FIRST] = "a connected coal mine still has coal: the market may not be used",
    [R_WORKS_IRON_FIRST - BRASS_R_RULESET_FIRST] = "an iron works still has iron: the market may not be used",
    [R_NOT_CONNECTED_TO_MERCHANT - BRASS_R_RULESET_FIRST] = "not connected to a merchant location",
    [R_NO_MERCHANT_ACCEPTS - BRASS_R_RULESET_FIRST] = "no merchant tile accepts these goods",
    [R_ALREADY_FLIPPED - BRASS_R_RULESET_FIRST] = "that tile is already flipped",
    [R_NOT_SELLABLE - BRASS_R_RULESET_FIRST] = "only cotton mills, manufacturers and potteries are sold",
    [R_LIGHTBULB_POTTERY - BRASS_R_RULESET_FIRST] = "lightbulb potteries cannot be developed",
    [R_HOLDING_WILD_CARD - BRASS_R_RULESET_FIRST] = "you may not scout while holding a wild card",
    [R_SOURCE_EMPTY - BRASS_R_RULESET_FIRST] = "that source has nothing left",
    [R_BEER_NOT_CONNECTED - BRASS_R_RULESET_FIRST] = "another player's beer must be connected to where it is used",
    [R_MERCHANT_BEER_NOT_HERE - BRASS_R_RULESET_FIRST] = "merchant beer may only be used when selling to that merchant tile",
    [R_NO_TILE_HERE - BRASS_R_RULESET_FIRST] = "there is no tile there",
    [R_NO_BUILD_WITH_CARD - BRASS_R_RULESET_FIRST] = "no build can be completed with that card",
    [R_BEER_NOT_NEEDED - BRASS_R_RULESET_FIRST] = "this sale needs no beer",
};

const char *bham_reason_name(int reason) {
    int k = reason - BRASS_R_RULESET_FIRST;
    return k >= 0 && k < OWN_REASONS ? REASON_NAMES[k] : NULL;
}

const char *bham_reason_message(int reason) {
    int k = reason - BRASS_R_RULESET_FIRST;
    return k >= 0 && k < OWN_REASONS ? REASON_MESSAGES[k] : NULL;
}

/* Event names and the names of their a, b, c fields (brass.h BrassEvent). */
static const char *const EVENT_NAMES[NUM_EVENT_TYPES][2] = {
    [EV_ACTION] = {"action", "action,card"},
    [EV_PAY] = {"pay", "money"},
    [EV_COAL] = {"coal", "source,price"},
    [EV_IRON] = {"iron", "source,price"},
    [EV_BEER] = {"beer", "source,merchant"},
    [EV_BUILD] = {"build", "slot,industry,level"},
    [EV_OVERBUILD] = {"overbuild", "slot,previous_owner,previous_level"},
    [EV_LINK] = {"link", "link"},
    [EV_DEVELOP] = {"develop", "industry,level"},
    [EV_SELL] = {"sell", "slot,merchant"},
    [EV_FLIP] = {"flip", "slot,income_spaces"},
    [EV_MARKET_SALE] = {"market_sale", "slot,cubes,money"},
    [EV_MERCHANT_BONUS] = {"merchant_bonus", "merchant,bonus,amount"},
    [EV_LOAN] = {"loan", "income_space"},
    [EV_SCOUT] = {"scout", ""},
    [EV_PASS] = {"pass", ""},
    [EV_TURN_END] = {"turn_end", "cards_drawn"},
    [EV_TURN_ORDER] = {"turn_order", "order,players"},
    [EV_INCOME] = {"income", "money"},
    [EV_SHORTFALL_REMOVE] = {"shortfall_remove", "slot,money"},
    [EV_VP_LOSS] = {"vp_loss", "vp"},
    [EV_LINK_SCORE] = {"link_score", "link,vp"},
    [EV_TILE_SCORE] = {"tile_score", "slot,vp"},
    [EV_TILE_REMOVED] = {"tile_removed", "slot"},
    [EV_ERA_END] = {"era_end", "era"},
    [EV_BONUS_SCORE] = {"bonus_score", "vp"},
    [EV_GAME_END] = {"game_end", ""},
    [EV_ROUND_END] = {"round_end", "round"},
};

const char *bham_event_name(int type) {
    return type >= 0 && type < NUM_EVENT_TYPES ? EVENT_NAMES[type][0] : NULL;
}

const char *bham_event_fields(int type) {
    return type >= 0 && type < NUM_EVENT_TYPES ? EVENT_NAMES[type][1] : NULL;
}

/* ---- observation ---- */

int bham_observation(const BirminghamGame *g, int seat, float *out, int cap) {
    if (cap < BHAM_OBS_SIZE) return -BRASS_E_BUFFER;
    memset(out, 0, sizeof(float) * BHAM_OBS_SIZE);
    int n = g->num_players, k = 0;
#define REL(o) (((o) - seat + n) % n)
    for (int s = 0; s < BHAM_NUM_SLOTS; s++, k += 13) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        out[k + REL(t->owner)] = 1.0f;
        out[k + 4 + t->industry] = 1.0f;
        out[k + 10] = t->level / 8.0f;
        out[k + 11] = t->flipped;
        out[k + 12] = t->cubes / 6.0f;
    }
    for (int l = 0; l < BHAM_NUM_LINKS; l++, k += 4)
        if (g->link_owner[l] >= 0) out[k + REL(g->link_owner[l])] = 1.0f;
    out[k++] = g->coal_market / (float)BT_COAL_CAPACITY;
    out[k++] = g->iron_market / (float)BT_IRON_CAPACITY;
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++, k += 4) {
        uint8_t t = g->merchant_tile[m] == BRASS_NONE ? 0 : g->merchant_tile[m];
        for (int i = 0; i < 3; i++) out[k + i] = (t >> i) & 1;
        out[k + 3] = g->merchant_beer[m];
    }
    for (int r = 0; r < BRASS_MAX_PLAYERS; r++, k += 13) {
        if (r >= n) continue;
        const BirminghamPlayer *pl = &g->players[(seat + r) % n];
        out[k] = 1.0f;
        out[k + 1] = pl->money / 100.0f;
        out[k + 2] = BT_INCOME_LEVEL[pl->income_space] / 30.0f;
        out[k + 3] = pl->vp / 100.0f;
        out[k + 4] = pl->spent / 100.0f;
        out[k + 5] = pl->links_left / 14.0f;
        out[k + 6] = pl->hand_size / 8.0f;
        for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++)
            out[k + 7 + i] = pl->mat_taken[i] / (float)BT_TILES_PER_PLAYER[i];
    }
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) out[k++] = g->players[seat].hand[c] / 8.0f;
    out[k++] = g->deck_size / 64.0f;
    out[k++] = g->era;
    out[k++] = g->round / 10.0f;
    out[k++] = g->actions_left / 2.0f;
    out[k++] = g->current == seat && !g->game_over;
    out[k + g->phase] = 1.0f;
    k += NUM_PHASES;
    if (g->phase != PH_ACTION && g->phase != PH_GAME_OVER && g->phase != PH_SHORTFALL) {
        out[k + g->pend.action] = 1.0f;
        if (g->pend.industry < BHAM_NUM_INDUSTRIES) out[k + NUM_ACT_TYPES + g->pend.industry] = 1.0f;
    }
    k += NUM_ACT_TYPES + BHAM_NUM_INDUSTRIES;
    out[k++] = g->pend.coal_left / 2.0f;
    out[k++] = g->pend.iron_left / 2.0f;
    out[k++] = g->pend.beer_left / 2.0f;
    out[k++] = g->pend.count / 2.0f;
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) out[k++] = g->discards[c] / 8.0f;
    out[k++] = g->wild_pile[0] / 4.0f;
    out[k++] = g->wild_pile[1] / 4.0f;
#undef REL
    return k; /* entries in use; the rest stay 0 */
}
