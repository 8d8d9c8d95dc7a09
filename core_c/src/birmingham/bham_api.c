/* Birmingham's hidden information (redaction, concealment, determinization), results and
   names. */
#include "common/card_pool.h"
#include "bham_internal.h"

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
