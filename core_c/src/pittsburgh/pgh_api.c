/* Pittsburgh's API: options, names, new game, decisions, validation, hidden information,
   observation, results, random playouts. The BrassRuleset entry sits on top of these. */
#include <stdio.h>

#include "common/card_pool.h"
#include "pgh_internal.h"

/* ---- options ---- */
typedef struct {
    const char *key;
    int kind; /* 0 bool, 1 enum, 2 int */
    unsigned implemented;
    const char *values[4];
} PghOptionDef;

static const PghOptionDef OPTION_DEFS[PGH_NUM_OPTIONS] = {
#define PGH_OPTION(key, kind, impl, ...) {#key, kind, impl, {__VA_ARGS__}},
#include "pgh_options.def"
#undef PGH_OPTION
};

const char *pgh_option_name(int o) {
    if (o == PGH_OPT_DATA) return "data";
    return o >= 0 && o < PGH_NUM_OPTIONS ? OPTION_DEFS[o].key : NULL;
}

int pgh_option_num_values(int o) {
    if (o == PGH_OPT_DATA) return PGH_NUM_SETS;
    if (o < 0 || o >= PGH_NUM_OPTIONS) return 0;
    int n = 0;
    while (n < 4 && OPTION_DEFS[o].values[n]) n++;
    return n;
}

const char *pgh_option_value_name(int o, int v) {
    if (v < 0 || v >= pgh_option_num_values(o)) return NULL;
    if (o == PGH_OPT_DATA) return pgh_tables(v)->name;
    return OPTION_DEFS[o].values[v];
}

int pgh_option_implemented(int o, int v) {
    if (v < 0 || v >= pgh_option_num_values(o)) return 0;
    return o == PGH_OPT_DATA || ((OPTION_DEFS[o].implemented >> v) & 1u);
}

int pgh_option_index(const char *name) {
    for (int o = 0; o < PGH_NUM_ALL_OPTIONS; o++)
        if (!strcmp(pgh_option_name(o), name)) return o;
    return -1;
}

int pgh_option_value_index(int o, const char *value) {
    for (int v = 0; v < pgh_option_num_values(o); v++)
        if (!strcmp(pgh_option_value_name(o, v), value)) return v;
    return -1;
}

int pgh_new(PittsburghGame *g, const PghOptions *o, uint64_t seed, char *err, size_t err_len) {
    if (!g || !o) return BRASS_E_BAD_ARGUMENT;
    if (o->players < 2 || o->players > 4) {
        if (err) snprintf(err, err_len, "players: %d is not 2, 3 or 4", o->players);
        return BRASS_E_BAD_ARGUMENT;
    }
    if (o->auto_resolve > 1) {
        if (err) snprintf(err, err_len, "auto_resolve: must be 0 or 1");
        return BRASS_E_BAD_ARGUMENT;
    }
    int set = o->values[PGH_OPT_DATA] < 0 ? PGH_SET_PITTSBURGH : o->values[PGH_OPT_DATA];
    if (set >= PGH_NUM_SETS) {
        if (err) snprintf(err, err_len, "data: unknown table set %d", set);
        return BRASS_E_BAD_ARGUMENT;
    }
    const PghTables *T = pgh_tables(set);
    uint8_t values[PGH_NUM_ALL_OPTIONS];
    for (int i = 0; i < PGH_NUM_OPTIONS; i++) {
        int v = o->values[i] < 0 ? T->option_default[i] : o->values[i];
        if (v >= pgh_option_num_values(i)) {
            if (err) snprintf(err, err_len, "%s: unknown value %d", pgh_option_name(i), v);
            return BRASS_E_BAD_ARGUMENT;
        }
        if (!pgh_option_implemented(i, v)) {
            if (err) snprintf(err, err_len, "%s: value '%s' is not implemented", pgh_option_name(i),
                              pgh_option_value_name(i, v));
            return BRASS_E_BAD_ARGUMENT;
        }
        values[i] = (uint8_t)v;
    }
    values[PGH_OPT_DATA] = (uint8_t)set;
    int r = pgh_setup(g, o->players, set, values, seed);
    if (r == BRASS_OK) g->h.auto_resolve = o->auto_resolve;
    return r;
}

/* ---- decisions ---- */
int pgh_legal(const PittsburghGame *g, uint16_t *out, int cap) { return pgh_legal_list(g, out, cap); }

int pgh_reason(const PittsburghGame *g, int action) {
    if (action < 0 || action >= PGH_NUM_ACTIONS || g->h.game_over) return PR_WRONG_DECISION;
    PBoard b;
    pgh_pboard(g, g->h.current, &b);
    b.explain = 1; /* one id's reason: an option no candidate completes says what blocks it */
    return pgh_phase_reason(g, &b, action);
}

int pgh_apply(PittsburghGame *g, int seat, int action, BrassEventLog *log, int *reason) {
    if (reason) *reason = PR_LEGAL;
    if (g->h.game_over) return BRASS_E_GAME_OVER;
    if (action < 0 || action >= PGH_NUM_ACTIONS) return BRASS_E_UNKNOWN_ACTION;
    if (seat != g->h.current) return BRASS_E_NOT_YOUR_TURN;
    int r = pgh_reason(g, action);
    if (r != PR_LEGAL) {
        if (reason) *reason = r;
        return BRASS_E_ILLEGAL;
    }
    pgh_apply_legal(g, action, log, 1);
    return BRASS_OK;
}

/* ---- names ---- */
const char *pgh_action_name_in(int set, int action) {
    if (action < 0 || action >= PGH_NUM_ACTIONS || set < 0 || set >= PGH_NUM_SETS) return NULL;
    return pgh_tables(set)->action_names[action];
}
const char *pgh_action_name(int action) { return pgh_action_name_in(PGH_SET_PITTSBURGH, action); }

static const char *const PHASE_NAMES[PGH_NUM_PHASES] = {
    "action", "card", "build_tile", "build_place", "coal", "iron", "steel", "coke", "oil",
    "market_sale", "link_tile", "link_route", "second_link", "develop", "develop_cube",
    "free_develop", "sell_tile", "sell_merchant", "quality", "bonus_sell", "game_over"};
const char *pgh_phase_name(int phase) {
    return phase >= 0 && phase < PGH_NUM_PHASES ? PHASE_NAMES[phase] : NULL;
}

static const char *const REASON_NAMES[PGH_NUM_REASONS][2] = {
    [PR_LEGAL] = {"LEGAL", "legal"},
    [PR_WRONG_DECISION] = {"WRONG_DECISION", "this id belongs to another kind of decision"},
    [PR_CARD_NOT_IN_HAND] = {"CARD_NOT_IN_HAND", "that card is not in your hand"},
    [PR_NOT_ENOUGH_MONEY] = {"NOT_ENOUGH_MONEY", "not enough money to pay for it (with the cheapest sources)"},
    [PR_NOT_IN_NETWORK] = {"NOT_IN_NETWORK", "the location is not in your network"},
    [PR_SLOT_OCCUPIED] = {"SLOT_OCCUPIED", "that industry space is taken"},
    [PR_NO_TILES_LEFT] = {"NO_TILES_LEFT", "no tiles left in that mat position"},
    [PR_LINK_TAKEN] = {"LINK_TAKEN", "that route already holds a link"},
    [PR_NO_LINK_TILES] = {"NO_LINK_TILES", "no such link tile in your supply"},
    [PR_LOAN_LIMIT] = {"LOAN_LIMIT", "a loan would take your income below the lowest level"},
    [PR_NOT_ENOUGH_CARDS] = {"NOT_ENOUGH_CARDS", "no card to discard"},
    [PR_NOT_YOUR_TILE] = {"NOT_YOUR_TILE", "that tile is not yours"},
    [PR_NO_OPTION] = {"NO_OPTION", "no complete action of this kind is possible"},
    [PR_CANONICAL_ORDER] = {"CANONICAL_ORDER", "unordered choices are taken in ascending order"},
    [PR_MUST_CHOOSE] = {"MUST_CHOOSE", "'done' is not allowed here"},
    [PR_NOT_ACCESSIBLE] = {"NOT_ACCESSIBLE", "that mat position is not accessible yet (P67)"},
    [PR_WRONG_ERA] = {"WRONG_ERA", "that tile cannot be built in this era (P32)"},
    [PR_CARD_DOES_NOT_ALLOW] = {"CARD_DOES_NOT_ALLOW", "the card does not allow this build and you have no whiskey (P31)"},
    [PR_SPACE_WRONG_ICON] = {"SPACE_WRONG_ICON", "the space does not show this industry's icon (P33)"},
    [PR_SINGLE_ICON_SPACE_FIRST] = {"SINGLE_ICON_SPACE_FIRST", "a free space showing only this icon must be used first (P33)"},
    [PR_ONE_TILE_PER_LOCATION] = {"ONE_TILE_PER_LOCATION", "in era 1 you may have one industry tile per location (P33)"},
    [PR_NOT_AN_UPGRADE_TARGET] = {"NOT_AN_UPGRADE_TARGET", "an upgrade replaces one of your own flipped tiles of its industry (P35)"},
    [PR_INCOME_TOO_LOW] = {"INCOME_TOO_LOW", "this would take your income below level -10 (P12)"},
    [PR_NO_OIL] = {"NO_OIL", "not enough oil reachable through pipelines (P27)"},
    [PR_INDUSTRY_FIRST] = {"INDUSTRY_FIRST", "a connected industry tile holds this cube and must be used first (P19)"},
    [PR_NOT_CONNECTED] = {"NOT_CONNECTED", "not rail-connected to where it is needed (P18)"},
    [PR_SOURCE_EMPTY] = {"SOURCE_EMPTY", "that source holds none"},
    [PR_NOT_YOUR_TRAIN] = {"NOT_YOUR_TRAIN", "only the owner may take cargo from a resource train (P20)"},
    [PR_RESERVE_CARRIES_NO_OIL] = {"RESERVE_CARRIES_NO_OIL", "no barrel may pass through a Reserve pipeline (P48)"},
    [PR_MARKET_FULL] = {"MARKET_FULL", "that market column has no empty slot"},
    [PR_ROUTE_CLOSED] = {"ROUTE_CLOSED", "that route is closed in this game (P8)"},
    [PR_NOT_ADJACENT] = {"NOT_ADJACENT", "the link must be adjacent to your network (P43)"},
    [PR_NO_MERCHANT] = {"NO_MERCHANT", "no connected merchant tile shows this industry (P53)"},
    [PR_MERCHANT_DOES_NOT_ACCEPT] = {"MERCHANT_DOES_NOT_ACCEPT", "that merchant tile does not show this industry (P53)"},
    [PR_NOT_SELLABLE] = {"NOT_SELLABLE", "that tile is not sold by the Sell action (P51)"},
    [PR_ALREADY_FLIPPED] = {"ALREADY_FLIPPED", "that tile is already flipped"},
    [PR_ALREADY_CHOSEN] = {"ALREADY_CHOSEN", "that tile is already chosen in this sale"},
    [PR_NOT_ENOUGH_STARS] = {"NOT_ENOUGH_STARS", "not enough quality stars, even with your whiskey (P54)"},
    [PR_QUALITY_TAKEN] = {"QUALITY_TAKEN", "that quality reward is taken"},
    [PR_OILFIELD_TAKEN] = {"OILFIELD_TAKEN", "that oilfield already has an Oil City (P39)"},
    [PR_NO_PIPELINE_TO_NETWORK] = {"NO_PIPELINE_TO_NETWORK", "Oil City needs a pipeline joining the oilfield to your network (P39)"},
    [PR_WRONG_CUBE] = {"WRONG_CUBE", "that source does not hold the cube needed now"},
    [PR_WRONG_LINK_KIND] = {"WRONG_LINK_KIND", "trains go on rail routes, pipelines on pipeline routes (P43)"},
    [PR_CANNOT_REPLACE] = {"CANNOT_REPLACE", "only a Replacement train may take a route with another's light train (P47)"},
    [PR_NOT_NEAREST] = {"NOT_NEAREST", "a nearer connected tile holds this cube (option industry_source_choice)"},
    [PR_NO_SPACE] = {"NO_SPACE", "no space where this tile can go"},
    [PR_INCOMPLETE_ACTION] = {"INCOMPLETE_ACTION", "a compound action must end where the action ends"},
    [PR_TOO_MANY_DECISIONS] = {"TOO_MANY_DECISIONS", "a compound action holds exactly one action"},
};
const char *pgh_reason_name(int r) { return r >= 0 && r < PGH_NUM_REASONS ? REASON_NAMES[r][0] : NULL; }
const char *pgh_reason_message(int r) { return r >= 0 && r < PGH_NUM_REASONS ? REASON_NAMES[r][1] : NULL; }

static const char *const EVENT_NAMES[PGH_NUM_EVENTS] = {
    "action", "build", "upgrade_score", "link", "replaced", "develop", "sell", "flip", "cube",
    "oil", "pipe_reward", "market_sale", "merchant_reward", "quality", "reveal", "route_bonus",
    "loan", "pass", "turn_end", "turn_order", "income", "bankrupt", "link_score", "tile_score",
    "tile_removed", "era_end", "game_end", "round_end", "whiskey"};
const char *pgh_event_name(int t) { return t >= 0 && t < PGH_NUM_EVENTS ? EVENT_NAMES[t] : NULL; }

/* ---- information ---- */
int pgh_income_level(const PittsburghGame *g, int space) {
    return space < 0 || space > 99 ? 0 : pgh_level_of(g, space);
}

uint64_t pgh_hash(const PittsburghGame *g) {
    const uint8_t *p = (const uint8_t *)g;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof *g; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Others' hands, the deck, face-down cards and face-down oilfield tiles are hidden, and the
   random state (seat -1: a spectator sees no hand). */
void pgh_redact(const PittsburghGame *g, int seat, PittsburghGame *out) {
    *out = *g;
    for (int p = 0; p < PGH_MAX_PLAYERS; p++) {
        PghPlayer *pl = &out->players[p];
        if (pl->facedown_card != PGH_NONE) pl->facedown_card = 0;
        if (p != seat) memset(pl->hand, 0, sizeof pl->hand);
    }
    memset(out->deck, 0, sizeof out->deck);
    for (int f = 0; f < PGH_MAX_FIELDS; f++)
        if (out->fields[f].tile_state == FT_FACE_DOWN) out->fields[f].tile = 0;
    out->rng_state = 0;
    out->seed = 0;
}

/* Re-deal what `seat` cannot see, consistently with what it can: the unseen cards (others'
   hands, deck, face-down cards) and the face-down oilfield tiles. */
int pgh_determinize(PittsburghGame *g, int seat, uint64_t seed) {
    const PghTables *T = pgh_T(g);
    if (seat < -1 || seat >= g->h.num_players) return BRASS_E_BAD_ARGUMENT;
    int n = g->h.num_players;
    /* every card is somewhere: box count minus what seat sees (own hand, face-up discards) */
    int unseen[PGH_MAX_CARD_TYPES] = {0};
    uint8_t pcbit = (uint8_t)(1u << (n - 2));
    for (int i = 0; i < T->num_deck; i++)
        if (T->deck_pc[i] & pcbit) unseen[T->deck_card[i]]++;
    for (int c = 0; c < T->num_card_types; c++) {
        unseen[c] -= g->discards[c];
        if (seat >= 0) unseen[c] -= g->players[seat].hand[c];
    }
    uint8_t pool[PGH_MAX_DECK + 8];
    int k = 0;
    for (int c = 0; c < T->num_card_types; c++)
        for (int i = 0; i < unseen[c]; i++) {
            if (k >= (int)sizeof pool || unseen[c] < 0) return BRASS_E_BAD_POSITION;
            pool[k++] = (uint8_t)c;
        }
    uint64_t rng;
    rng_seed(&rng, seed);
    rng_shuffle_bytes(&rng, pool, k);
    int next = 0, need = g->deck_size;
    for (int p = 0; p < n; p++) {
        if (p != seat) need += g->players[p].hand_size;
        if (g->players[p].facedown_card != PGH_NONE) need++;
    }
    if (need != k) return BRASS_E_BAD_POSITION;
    for (int i = 0; i < g->deck_size; i++) g->deck[i] = pool[next++];
    for (int p = 0; p < n; p++) {
        PghPlayer *pl = &g->players[p];
        if (pl->facedown_card != PGH_NONE) pl->facedown_card = pool[next++];
        if (p == seat) continue;
        memset(pl->hand, 0, sizeof pl->hand);
        for (int i = 0; i < pl->hand_size; i++) pl->hand[pool[next++]]++;
    }
    /* face-down oilfield tiles: any of the tiles not yet revealed */
    uint8_t tiles[PGH_MAX_FTILES];
    int nt = 0;
    for (int t = 0; t < T->num_ftiles; t++) {
        if (!(T->ftiles[t].pc_mask & pcbit)) continue;
        int seen = 0;
        for (int f = 0; f < T->num_fields; f++)
            if ((g->fields[f].tile_state == FT_PENDING || g->fields[f].tile_state == FT_GONE) &&
                g->fields[f].tile == t)
                seen = 1;
        if (!seen) tiles[nt++] = (uint8_t)t;
    }
    rng_shuffle_bytes(&rng, tiles, nt);
    int ti = 0;
    for (int f = 0; f < T->num_fields; f++)
        if (g->fields[f].tile_state == FT_FACE_DOWN) {
            if (ti >= nt) return BRASS_E_BAD_POSITION;
            g->fields[f].tile = tiles[ti++];
        }
    rng_seed(&g->rng_state, seed ^ 0xD1CEull);
    return BRASS_OK;
}

/* ---- results ---- */
/* P65: most VP, then the higher income space, then the most money; seats best first. */
int pgh_score_order(const PittsburghGame *g, uint8_t *ranking) {
    int n = g->h.num_players;
    for (int i = 0; i < n; i++) ranking[i] = (uint8_t)i;
    for (int i = 1; i < n; i++) {
        uint8_t s = ranking[i];
        int j = i;
        while (j > 0) {
            const PghPlayer *a = &g->players[ranking[j - 1]], *b = &g->players[s];
            int better = b->vp != a->vp ? b->vp > a->vp
                       : b->income_space != a->income_space ? b->income_space > a->income_space
                       : b->money > a->money;
            if (!better) break;
            ranking[j] = ranking[j - 1];
            j--;
        }
        ranking[j] = s;
    }
    return n;
}

/* A "sane" random policy: no Pass while another action type is possible, and no Loan while
   another is possible, and never one that takes the income below level 0 (random loans
   otherwise end in bankruptcy). */
int pgh_sane_options(const PittsburghGame *g, const uint16_t *opts, int n, uint16_t *keep) {
    int k = 0;
    if (g->h.phase != PP_ACTION) {
        for (int i = 0; i < n; i++) keep[k++] = opts[i];
        return k;
    }
    for (int i = 0; i < n; i++) {
        int t = opts[i] - PGA_TYPE;
        if (t == PA_PASS && n > 1) continue;
        const PghPlayer *pl = &g->players[g->h.current];
        int level = pgh_player_level(g, g->h.current);
        if (t == PA_LOAN && (level < 3 || (n > 2 && pl->money >= 15))) continue;
        keep[k++] = opts[i];
    }
    if (!k)
        for (int i = 0; i < n; i++) keep[k++] = opts[i];
    return k;
}

int pgh_playout(PittsburghGame *g, int sane, uint64_t seed, int max_decisions) {
    uint64_t rng;
    rng_seed(&rng, seed);
    uint16_t opts[PGH_NUM_ACTIONS], keep[PGH_NUM_ACTIONS];
    int d = 0;
    while (!g->h.game_over && d < max_decisions) {
        int n = pgh_legal(g, opts, PGH_NUM_ACTIONS);
        if (n <= 0) return -BRASS_E_BAD_POSITION;
        if (sane) n = pgh_sane_options(g, opts, n, keep);
        else memcpy(keep, opts, sizeof(uint16_t) * (size_t)n);
        pgh_apply_legal(g, keep[rng_below(&rng, (uint32_t)n)], NULL, 1);
        d++;
    }
    return d;
}

/* ---- what the engine table needs besides the above ---- */

/* Does `after` start a new action (or seat, round, era, or end the game) after `before`? */
int pgh_action_ended(const PittsburghGame *after, const PittsburghGame *before) {
    if (after->h.game_over) return 1;
    return after->h.current != before->h.current || after->h.actions_left != before->h.actions_left ||
           after->h.round != before->h.round || after->h.era != before->h.era ||
           (after->h.phase == PP_ACTION && before->h.phase != PP_ACTION);
}

/* Standing with P65's tie rules; seats equal on all three share first place. */
int pgh_result(const PittsburghGame *g, BrassResult *out) {
    memset(out, 0, sizeof *out);
    int n = g->h.num_players;
    out->num_players = (uint8_t)n;
    pgh_score_order(g, out->ranking);
    const PghPlayer *best = &g->players[out->ranking[0]];
    for (int i = 0; i < n; i++) {
        const PghPlayer *pl = &g->players[out->ranking[i]];
        if (pl->vp == best->vp && pl->income_space == best->income_space && pl->money == best->money)
            out->num_first++;
    }
    for (int p = 0; p < n; p++) {
        out->vp[p] = g->players[p].vp;
        out->money[p] = g->players[p].money;
        out->income_space[p] = g->players[p].income_space;
        out->income_level[p] = (int16_t)pgh_level_of(g, g->players[p].income_space);
    }
    return BRASS_OK;
}

static const char *const EVENT_FIELDS[PGH_NUM_EVENTS] = {
    [PE_ACTION] = "action,card,", [PE_BUILD] = "place,tile,", [PE_UPGRADE_SCORE] = "slot,tile,vp",
    [PE_LINK] = "route,link_tile,", [PE_REPLACED] = "link,link_tile,", [PE_DEVELOP] = "position,free,",
    [PE_SELL] = "slot,merchant,", [PE_FLIP] = "slot,tile,income", [PE_CUBE] = "cube,source,price",
    [PE_OIL] = "cube,source,barrels", [PE_PIPE_REWARD] = "pipeline,kind,amount",
    [PE_MARKET_SALE] = "market,cube,price", [PE_MERCHANT_REWARD] = "merchant,tile,",
    [PE_QUALITY] = "quality,tile,whiskey", [PE_REVEAL] = "oilfield,tile,oil", [PE_ROUTE_BONUS] = "link,kind,amount",
    [PE_LOAN] = "income_space,money,", [PE_PASS] = ",,", [PE_TURN_END] = "cards_drawn,,",
    [PE_TURN_ORDER] = "order,,", [PE_INCOME] = "money,,", [PE_BANKRUPT] = "vp,,", [PE_LINK_SCORE] = "link,vp,",
    [PE_TILE_SCORE] = "slot,vp,", [PE_TILE_REMOVED] = "slot,tile,", [PE_ERA_END] = "era,,",
    [PE_GAME_END] = ",,", [PE_ROUND_END] = "round,,", [PE_WHISKEY] = ",,",
};
const char *pgh_event_fields(int t) { return t >= 0 && t < PGH_NUM_EVENTS ? EVENT_FIELDS[t] : NULL; }


/* Previews: everything `seat` cannot see dealt in one canonical order (lowest card first),
   the face-down oilfield tiles unknown (a reveal in the preview gives nothing: pgh_oil_reveal),
   random state fixed. */
void pgh_conceal(PittsburghGame *g, int seat) {
    const PghTables *T = pgh_T(g);
    int n = g->h.num_players;
    uint8_t count[PGH_MAX_CARD_TYPES] = {0};
    for (int i = 0; i < g->deck_size; i++) count[g->deck[i]]++;
    for (int p = 0; p < n; p++) {
        PghPlayer *pl = &g->players[p];
        if (pl->facedown_card != PGH_NONE) count[pl->facedown_card]++;
        if (p == seat) continue;
        for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) {
            count[c] = (uint8_t)(count[c] + pl->hand[c]);
            pl->hand[c] = 0;
        }
    }
    int next = 0;
#define NEXT_CARD() card_pool_take_lowest(count, PGH_MAX_CARD_TYPES, &next)
    for (int i = 0; i < g->deck_size; i++) g->deck[i] = NEXT_CARD();
    for (int p = 0; p < n; p++) {
        PghPlayer *pl = &g->players[p];
        if (pl->facedown_card != PGH_NONE) pl->facedown_card = NEXT_CARD();
        if (p == seat) continue;
        for (int i = 0; i < pl->hand_size; i++) pl->hand[NEXT_CARD()]++;
    }
#undef NEXT_CARD
    for (int f = 0; f < T->num_fields; f++)
        if (g->fields[f].tile_state == FT_FACE_DOWN) g->fields[f].tile = PGH_NONE;
    rng_seed(&g->rng_state, 0);
    g->seed = 0;
}

/* What `viewer` may see of `after`, a move's outcome from the concealed `before`: the
   redacted state, less the cards the viewer drew unseen (hand_size still counts them). */
void pgh_redact_preview(const PittsburghGame *before, const PittsburghGame *after, int viewer,
                        PittsburghGame *out) {
    pgh_redact(after, viewer, out);
    if (viewer < 0 || viewer >= after->h.num_players) return;
    uint8_t *hand = out->players[viewer].hand;
    if (after->h.era != before->h.era) {
        memset(out->players[viewer].hand, 0, sizeof out->players[viewer].hand);
        return;
    }
    for (int i = after->deck_size; i < before->deck_size && i < PGH_MAX_DECK; i++)
        if (hand[before->deck[i]]) hand[before->deck[i]]--;
}
