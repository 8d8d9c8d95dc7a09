/* Every field in range and every invariant the rules rely on (restored snapshots,
   positions from outside), so no later call can read out of bounds or get stuck. */
#include <stdio.h>

#include "pgh_internal.h"

#define FAIL(...)                                                      \
    do {                                                               \
        if (field && field_len) snprintf(field, field_len, __VA_ARGS__); \
        return BRASS_E_BAD_POSITION;                                   \
    } while (0)

static int ok_or_none(int v, int n) { return v == PGH_NONE || v < n; }

/* An entry as the position format names it (slots, routes, oilfields, markets, merchant
   spaces), so a refused position points at what its author wrote; "#i" for an index the
   tables do not name (only a corrupt snapshot holds one). */
static const char *named(const PghTables *T, int kind, int i, char buf[16]) {
    const char *name = pgh_name(T, kind, i);
    if (name) return name;
    snprintf(buf, 16, "#%d", i);
    return buf;
}

int pgh_validate(const PittsburghGame *g, char *field, size_t field_len) {
    const PghHeader *h = &g->h;
    if (h->magic != PGH_MAGIC) FAIL("magic");
    if (h->format_version != PGH_FORMAT_VERSION) FAIL("format_version");
    if (h->rules_edition < 1 || h->rules_edition > PGH_RULES_EDITION) FAIL("rules_edition");
    if (h->ruleset != PGH_RULESET_ID) FAIL("ruleset");
    int n = h->num_players;
    if (n < 2 || n > 4) FAIL("players");
    if (h->table_set >= PGH_NUM_SETS) FAIL("table_set");
    const PghTables *T = pgh_tables(h->table_set);
    char nb[16];
#define NAMED(kind, i) named(T, kind, i, nb)
    if (h->era > 1) FAIL("era");
    if (h->round < 1 || h->round > T->rounds_per_era) FAIL("round");
    if (h->phase >= PGH_NUM_PHASES || h->game_over > 1 || (h->phase == PP_GAME_OVER) != h->game_over)
        FAIL("phase");
    if (h->auto_resolve > 1) FAIL("auto_resolve");
    if (h->undo_off > 1) FAIL("undo_off");
    if (h->current >= n) FAIL("current");
    if (h->turn_idx > n || (h->turn_idx == n && !h->game_over)) FAIL("turn_index");
    if (!h->game_over && (h->actions_left < 1 || h->actions_left > T->actions_per_turn)) FAIL("actions_left");
    uint8_t seen = 0;
    for (int i = 0; i < PGH_MAX_PLAYERS; i++) {
        if (i >= n) {
            if (g->turn_order[i]) FAIL("turn_order[%d]", i);
            continue;
        }
        if (g->turn_order[i] >= n || (seen & (1u << g->turn_order[i]))) FAIL("turn_order[%d]", i);
        seen |= (uint8_t)(1u << g->turn_order[i]);
    }
    if (!h->game_over && g->turn_order[h->turn_idx] != h->current) FAIL("current");
    for (int o = 0; o < PGH_NUM_OPTIONS; o++)
        if (!pgh_option_implemented(o, g->options[o])) FAIL("options.%s", pgh_option_name(o));
    if (g->options[PGH_OPT_DATA] != h->table_set) FAIL("options.data");
    /* cards: every card of the box for this count is exactly once somewhere */
    if (g->deck_size > PGH_MAX_DECK) FAIL("deck");
    int count[PGH_MAX_CARD_TYPES] = {0};
    for (int i = 0; i < PGH_MAX_DECK; i++) {
        if (i >= g->deck_size) {
            if (g->deck[i]) FAIL("deck[%d]", i);
            continue;
        }
        if (g->deck[i] >= T->num_card_types) FAIL("deck[%d]", i);
        count[g->deck[i]]++;
    }
    for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) {
        if (c >= T->num_card_types && g->discards[c]) FAIL("discards");
        count[c] += g->discards[c];
    }
    for (int p = 0; p < PGH_MAX_PLAYERS; p++) {
        const PghPlayer *pl = &g->players[p];
        if (p >= n) {
            static const PghPlayer empty = {.facedown_card = PGH_NONE, .last_discard = PGH_NONE};
            if (memcmp(pl, &empty, sizeof *pl)) FAIL("players[%d]", p);
            continue;
        }
        if (pl->money < 0 || pl->money > 9999) FAIL("players[%d].money", p);
        if (pl->vp < -9999 || pl->vp > 9999) FAIL("players[%d].vp", p);
        if (pl->spent < 0 || pl->spent > 9999) FAIL("players[%d].spent", p);
        if (pl->income_space > 99) FAIL("players[%d].income_space", p);
        if (pl->whiskey > T->whiskey_cap) FAIL("players[%d].whiskey", p);
        for (int i = 0; i < PGH_MAX_POSITIONS; i++)
            if (pl->mat_left[i] > (i < T->num_positions ? T->positions[i].count : 0)) FAIL("players[%d].mat", p);
        for (int i = 0; i < PGH_MAX_LINK_TYPES; i++)
            if (pl->supply[i] > (i < T->num_link_types ? 20 : 0)) FAIL("players[%d].supply", p);
        if (pl->slots_released >> T->num_link_slots) FAIL("players[%d].slots_released", p);
        if (pl->heavy_built > 40) FAIL("players[%d].heavy_built", p);
        int hs = 0;
        for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) {
            if (c >= T->num_card_types && pl->hand[c]) FAIL("players[%d].hand", p);
            hs += pl->hand[c];
            count[c] += pl->hand[c];
        }
        if (hs != pl->hand_size || hs > T->hand_size) FAIL("players[%d].hand", p);
        if (!ok_or_none(pl->facedown_card, T->num_card_types)) FAIL("players[%d].facedown", p);
        if (pl->facedown_card != PGH_NONE) count[pl->facedown_card]++;
        if (!ok_or_none(pl->last_discard, T->num_card_types)) FAIL("players[%d].last_discard", p);
        if (pl->pad_[0] || pl->pad_[1]) FAIL("players[%d]", p);
    }
    int box[PGH_MAX_CARD_TYPES] = {0};
    for (int i = 0; i < T->num_deck; i++)
        if (T->deck_pc[i] & (1u << (n - 2))) box[T->deck_card[i]]++;
    for (int c = 0; c < T->num_card_types; c++)
        if (count[c] != box[c]) FAIL("cards.%s", T->action_names[PGA_CARD + c] + 5);
    for (int m = 0; m < PGH_MAX_MARKETS; m++)
        for (int c = 0; c < 2; c++)
            if (g->market_fill[m][c] > (m < T->num_markets ? pgh_market_slots(g, m, c) : 0)) FAIL("markets[%s]", NAMED(PN_MARKET, m));
    for (int ms = 0; ms < PGH_MAX_MSPACES; ms++) {
        int ok = ms < T->num_mspaces ? ok_or_none(g->mspace_tile[ms], T->num_mtiles) : g->mspace_tile[ms] == PGH_NONE;
        if (!ok || g->mspace_back[ms] > 1) FAIL("merchants[%s]", NAMED(PN_MSPACE, ms));
    }
    for (int q = 0; q < PGH_MAX_QSLOTS; q++) {
        int ok = q < T->num_qslots ? ok_or_none(g->qslot_tile[q], T->num_qtiles) : g->qslot_tile[q] == PGH_NONE;
        if (!ok || g->qslot_up[q] > 1 || (g->qslot_up[q] && g->qslot_tile[q] == PGH_NONE)) FAIL("quality[%d]", q);
    }
    for (int s = 0; s < PGH_MAX_SPACES; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0 || s >= T->num_spaces) {
            if (sp->owner != -1 || sp->tile || sp->flipped || sp->cubes[0] || sp->cubes[1]) FAIL("spaces[%s]", NAMED(PN_SPACE, s));
            continue;
        }
        if (sp->owner >= n || sp->tile >= T->num_tiles || sp->flipped > 1) FAIL("spaces[%s]", NAMED(PN_SPACE, s));
        const PghTile *t = &T->tiles[sp->tile];
        if (t->build == BK_OILFIELD) FAIL("spaces[%s].tile", NAMED(PN_SPACE, s));
        for (int k = 0; k < 2; k++) {
            int max = t->prod_cube[k] < CUBE_OIL ? t->prod_n[k] : 0;
            if (sp->cubes[k] > max || (sp->flipped && sp->cubes[k])) FAIL("spaces[%s].cubes", NAMED(PN_SPACE, s));
        }
        if (t->prod_n[0] && !sp->flipped && !sp->cubes[0] && !sp->cubes[1] &&
            !(g->pend.stage == ST_BUILD_MARKET && g->pend.place == PGA_SPACE + s))
            FAIL("spaces[%s].flipped", NAMED(PN_SPACE, s));
    }
    for (int r = 0; r < PGH_MAX_RAILS; r++) {
        const PghRailState *rs = &g->rails[r];
        if (rs->owner < 0 || r >= T->num_rails) {
            if (rs->owner != -1 || rs->link_type || rs->cargo) FAIL("links[%s]", NAMED(PN_RAIL, r));
            continue;
        }
        if (rs->owner >= n || rs->link_type >= T->num_link_types || !is_train_kind(T, rs->link_type) ||
            rs->cargo > (T->link_types[rs->link_type].cargo_cube != PGH_NONE) || pgh_rail_closed(g, r))
            FAIL("links[%s]", NAMED(PN_RAIL, r));
    }
    for (int q = 0; q < PGH_MAX_PIPES; q++) {
        const PghPipeState *ps = &g->pipes[q];
        if (ps->owner < 0 || q >= T->num_pipes) {
            if (ps->owner != -1 || ps->link_type) FAIL("links[%s]", NAMED(PN_PIPE, q));
            continue;
        }
        if (ps->owner >= n || ps->link_type >= T->num_link_types || is_train_kind(T, ps->link_type))
            FAIL("links[%s]", NAMED(PN_PIPE, q));
    }
    for (int f = 0; f < PGH_MAX_FIELDS; f++) {
        const PghField *fd = &g->fields[f];
        if (f >= T->num_fields) {
            static const PghField none = {.tile = PGH_NONE, .tile_state = FT_NO_TILE, .oc_owner = -1};
            if (memcmp(fd, &none, sizeof *fd)) FAIL("oilfields[%s]", NAMED(PN_FIELD, f));
            continue;
        }
        if (fd->tile_state > FT_NO_TILE || (fd->tile_state == FT_NO_TILE) != (fd->tile == PGH_NONE) ||
            !ok_or_none(fd->tile, T->num_ftiles) || fd->pad_ || fd->barrels > 200 || fd->oc_barrels > 200 ||
            (fd->pending && fd->tile_state != FT_PENDING) || (fd->tile_state == FT_PENDING && h->era) ||
            fd->oc_owner < -1 || fd->oc_owner >= n || fd->oc_flipped > 1 ||
            (fd->oc_owner < 0 && (fd->oc_barrels || fd->oc_flipped)) || (fd->oc_flipped && fd->oc_barrels))
            FAIL("oilfields[%s]", NAMED(PN_FIELD, f));
    }
    /* the action in progress names things that exist */
    const PghPending *pd = &g->pend;
    if (pd->action >= PGH_NUM_ACT_TYPES || !ok_or_none(pd->card, T->num_card_types) ||
        !ok_or_none(pd->position, T->num_positions) || !ok_or_none(pd->target_loc, T->num_locs) ||
        !ok_or_none(pd->link_type, T->num_link_types) || pd->stage > ST_END || pd->route_is_pipe > 1 ||
        pd->links_placed > 2 || pd->free_develops > 6 || pd->count > PGH_MAX_SPACES || pd->bonus_sell > 2 ||
        pd->sale_cube > 2 || pd->sale_last_market >= PGH_MAX_MARKETS || pd->whiskey_build > 1 ||
        pd->swapped > 1 || pd->free_batch > 2 || (pd->free_batch && pd->action == PA_DEVELOP) || pd->merchants_used >> T->num_mspaces ||
        !ok_or_none(pd->sell_space, T->num_spaces) || (pd->sold >> T->num_spaces && T->num_spaces < 64) ||
        pd->acc_before >> T->num_positions || pd->last_position >= PGH_MAX_POSITIONS)
        FAIL("pending");
    if (pd->route != PGH_NONE && pd->route >= (pd->route_is_pipe ? T->num_pipes : T->num_rails)) FAIL("pending.route");
    if (pd->place != PGH_NONE && !(pd->place >= PGA_SPACE && pd->place < PGA_SPACE + T->num_spaces) &&
        !(pd->place >= PGA_OILFIELD && pd->place < PGA_OILFIELD + T->num_fields))
        FAIL("pending.place");
    for (int s = 0; s < PGH_MAX_SPACES; s++)
        if (pd->sold_merchant[s] >= (s < T->num_spaces ? PGH_MAX_MSPACES : 1)) FAIL("pending.sold_merchant");
    int paying = h->phase >= PP_COAL && h->phase <= PP_OIL;
    for (int c = 0; c < PGH_NUM_CUBES; c++)
        if (pd->need[c] > 3 || (pd->need[c] && !paying)) FAIL("pending.need");
    if (paying && !pd->need[h->phase - PP_COAL]) FAIL("pending.need");
    int needs_position = h->phase == PP_BUILD_PLACE || h->phase == PP_DEVELOP_CUBE ||
                         (paying && (pd->action == PA_BUILD || pd->action == PA_DEVELOP));
    if (needs_position && pd->position == PGH_NONE) FAIL("pending.position");
    /* bug fix (found by fuzz_pgh): a chosen tile still to come off the mat must be there and
       accessible (a Build takes it when the place is chosen, a Develop after its cube) */
    int takes_later = h->phase == PP_BUILD_PLACE || h->phase == PP_DEVELOP_CUBE ||
                      (paying && pd->action == PA_DEVELOP);
    if (takes_later && !pgh_position_accessible(g, h->current, pd->position)) FAIL("pending.position");
    if ((h->phase == PP_BUILD_POSITION || h->phase == PP_BUILD_PLACE) && (pd->action != PA_BUILD || pd->card == PGH_NONE))
        FAIL("pending.card");
    if (h->phase == PP_LINK_ROUTE && (pd->action != PA_NETWORK || pd->link_type == PGH_NONE)) FAIL("pending.link");
    if (h->phase == PP_SELL_MERCHANT && (pd->action != PA_SELL || pd->sell_space == PGH_NONE ||
                                         g->spaces[pd->sell_space].owner != h->current))
        FAIL("pending.sell");
    if (h->phase == PP_MARKET_SALE || (paying && pd->action == PA_BUILD)) {
        if (pd->action != PA_BUILD || pd->place < PGA_SPACE || pd->place >= PGA_OILFIELD + T->num_fields ||
            (pd->place >= PGA_SPACE + T->num_spaces && pd->place < PGA_OILFIELD))
            FAIL("pending.place");
        if (h->phase == PP_MARKET_SALE && (pd->place >= PGA_OILFIELD || g->spaces[pd->place - PGA_SPACE].owner != h->current))
            FAIL("pending.place");
    }
    if (paying && pd->action == PA_NETWORK && pd->route == PGH_NONE) FAIL("pending.route");
    /* the link being placed comes from the supply; the one being paid for is on its route */
    if (h->phase == PP_LINK_ROUTE && !g->players[h->current].supply[pd->link_type]) FAIL("pending.link");
    if (paying && pd->action == PA_NETWORK) {
        int owner = pd->route_is_pipe ? g->pipes[pd->route].owner : g->rails[pd->route].owner;
        int lt = pd->route_is_pipe ? g->pipes[pd->route].link_type : g->rails[pd->route].link_type;
        if (owner != h->current || lt != pd->link_type) FAIL("pending.route");
    }
    if ((h->phase == PP_SELL_MERCHANT || (paying && pd->action == PA_SELL)) &&
        (pd->sell_space == PGH_NONE || !(pd->sold >> pd->sell_space & 1u)))
        FAIL("pending.sell");
    if (paying && (pd->action == PA_LOAN || pd->action == PA_PASS)) FAIL("pending.action");
    if (paying && pd->action != PA_DEVELOP && pd->target_loc == PGH_NONE && pd->need[h->phase - PP_COAL] &&
        !(pd->action == PA_BUILD && pd->place >= PGA_OILFIELD))
        FAIL("pending.target");
    /* the continuation belongs to the action and to the decision being taken */
    static const uint16_t STAGES_OF[PGH_NUM_ACT_TYPES] = {
        [PA_BUILD] = 1u << ST_NONE | 1u << ST_PAY | 1u << ST_BUILD_MARKET | 1u << ST_BUILD_AFTER,
        [PA_NETWORK] = 1u << ST_NONE | 1u << ST_PAY | 1u << ST_NET_SECOND,
        [PA_DEVELOP] = 1u << ST_NONE | 1u << ST_PAY | 1u << ST_DEV_AFTER,
        [PA_SELL] = 1u << ST_NONE | 1u << ST_PAY | 1u << ST_SELL_AFTER | 1u << ST_SELL_QUALITY,
        [PA_LOAN] = 1u << ST_NONE, [PA_PASS] = 1u << ST_NONE};
    if (!h->game_over && !(STAGES_OF[pd->action] >> pd->stage & 1u)) FAIL("pending.stage");
    int want = -1;
    switch (h->phase) {
    case PP_ACTION: case PP_CARD: case PP_BUILD_POSITION: case PP_BUILD_PLACE: case PP_LINK_TYPE:
        want = ST_NONE;
        break;
    case PP_COAL: case PP_IRON: case PP_STEEL: case PP_COKE: case PP_OIL: want = ST_PAY; break;
    case PP_MARKET_SALE: want = ST_BUILD_MARKET; break;
    case PP_BONUS_SELL: want = ST_BUILD_AFTER; break;
    case PP_SECOND_LINK: want = ST_NET_SECOND; break;
    case PP_QUALITY: want = ST_SELL_QUALITY; break;
    case PP_LINK_ROUTE: want = pd->links_placed ? ST_NET_SECOND : ST_NONE; break;
    case PP_DEVELOP: want = pd->count ? ST_DEV_AFTER : ST_NONE; break;
    case PP_SELL_TILE: want = pd->count ? ST_SELL_AFTER : ST_NONE; break;
    case PP_FREE_DEVELOP: if (!pd->free_develops || pd->stage == ST_PAY) FAIL("pending.free_develops"); break;
    default: break;
    }
    if (want >= 0 && pd->stage != want) FAIL("pending.stage");
    if ((h->phase == PP_ACTION || h->phase == PP_CARD) && (pd->count || pd->links_placed || pd->sold || pd->free_develops))
        FAIL("pending.count");
    if ((h->phase == PP_MARKET_SALE && (pd->sale_cube > 1 || pd->action != PA_BUILD)) ||
        (h->phase == PP_BONUS_SELL && pd->action != PA_BUILD) || (pd->bonus_sell == 2 && pd->action != PA_SELL) ||
        ((h->phase == PP_LINK_ROUTE || h->phase == PP_SECOND_LINK || h->phase == PP_LINK_TYPE) && pd->action != PA_NETWORK) ||
        ((h->phase == PP_DEVELOP || h->phase == PP_DEVELOP_CUBE) && pd->action != PA_DEVELOP) ||
        ((h->phase == PP_SELL_TILE || h->phase == PP_QUALITY) && pd->action != PA_SELL))
        FAIL("pending.action");
    if (pd->stage == ST_BUILD_MARKET || pd->stage == ST_BUILD_AFTER) {
        int s = pd->place - PGA_SPACE;
        if (pd->place == PGH_NONE || (pd->place < PGA_OILFIELD && (s < 0 || s >= T->num_spaces || g->spaces[s].owner != h->current)))
            FAIL("pending.place");
        if (pd->stage == ST_BUILD_MARKET && pd->place >= PGA_OILFIELD) FAIL("pending.place");
    }
    if (pd->stage == ST_DEV_AFTER && (!pd->count || pd->count > 2)) FAIL("pending.count");
    for (uint64_t m = pd->sold; m; m &= m - 1) {
        int s = __builtin_ctzll(m);
        if (g->spaces[s].owner != h->current || g->spaces[s].flipped) FAIL("pending.sold");
    }
    /* a position must leave the seat to act something to do */
    if (!h->game_over) {
        uint16_t opts[PGH_NUM_ACTIONS];
        if (pgh_legal_list(g, opts, PGH_NUM_ACTIONS) <= 0) FAIL("phase (no legal option)");
    }
    if (T->num_rails < 64 && g->rail_bonus_taken >> T->num_rails) FAIL("rail_bonus_taken");
    return BRASS_OK;
#undef NAMED
}
