/* Pittsburgh conformance tests: one per ruling (test_pNN_...), each sets up an explicit
   position, acts through the public decisions and checks the exact outcome.
   Most use the synthetic tiny table set (core_c/data/pittsburgh_tiny.json), so they do not
   lean on the draft's placeholder values; a few check the draft map's own printed data.
   Usage: pgh_rules list | pgh_rules <test name> | pgh_rules all */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "pittsburgh/pgh_internal.h"

static PittsburghGame G;
static int failed;
static const char *current_test;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "FAIL %s (line %d): %s\n", current_test, __LINE__, #cond); \
            failed = 1;                                                               \
        }                                                                             \
    } while (0)
#define EXPECT_EQ(a, b)                                                                          \
    do {                                                                                         \
        long long a_ = (long long)(a), b_ = (long long)(b);                                      \
        if (a_ != b_) {                                                                          \
            fprintf(stderr, "FAIL %s (line %d): %s = %lld, expected %lld\n", current_test, __LINE__, \
                    #a, a_, b_);                                                                 \
            failed = 1;                                                                          \
        }                                                                                        \
    } while (0)

enum { DRAFT = PGH_SET_PITTSBURGH, TINY = PGH_SET_TINY };

static void fresh_opts(int set, int players, uint64_t seed, int option, int value) {
    PghOptions o = {.players = (uint8_t)players, .auto_resolve = 0};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
    o.values[PGH_OPT_DATA] = (int16_t)set;
    if (option >= 0) o.values[option] = (int16_t)value;
    char err[128] = "";
    if (pgh_new(&G, &o, seed, err, sizeof err) != BRASS_OK) {
        fprintf(stderr, "FAIL %s: new game: %s\n", current_test, err);
        failed = 1;
    }
}
static void fresh(int set, int players, uint64_t seed) { fresh_opts(set, players, seed, -1, 0); }

static int id(const char *name) {
    for (int a = 0; a < PGH_NUM_ACTIONS; a++)
        if (!strcmp(pgh_action_name_in(G.h.table_set, a), name)) return a;
    fprintf(stderr, "FAIL %s: no action named %s\n", current_test, name);
    failed = 1;
    return 0;
}
static int why(const char *name) { return pgh_reason(&G, id(name)); }
static int me(void) { return G.h.current; }
static int other(void) { return (G.h.current + 1) % G.h.num_players; }
static PghPlayer *pl(int p) { return &G.players[p]; }

/* apply named decisions in order; each must be legal */
static void go(const char *first, ...) {
    va_list ap;
    va_start(ap, first);
    for (const char *n = first; n; n = va_arg(ap, const char *)) {
        int reason = 0, r = pgh_apply(&G, G.h.current, id(n), NULL, &reason);
        if (r != BRASS_OK) {
            fprintf(stderr, "FAIL %s: %s refused in phase %s: %s\n", current_test, n,
                    pgh_phase_name(G.h.phase), pgh_reason_name(reason));
            failed = 1;
            break;
        }
    }
    va_end(ap);
}


static int tile_of(const char *tid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_tiles; i++)
        if (!strcmp(T->tiles[i].id, tid)) return i;
    return -1;
}
static int pos_of(const char *pid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_positions; i++)
        if (!strcmp(T->positions[i].id, pid)) return i;
    return -1;
}
static int lt_of(const char *lid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_link_types; i++)
        if (!strcmp(T->link_types[i].id, lid)) return i;
    return -1;
}
static int loc_of(const char *lid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_locs; i++)
        if (!strcmp(T->locs[i].id, lid)) return i;
    return -1;
}
static int space(const char *slot) { return id(slot) - PGA_SPACE; }
static int rail(const char *link) { return id(link) - PGA_RAIL; }
static int pipe_(const char *p) { return id(p) - PGA_PIPE; }
static int mkt(const char *m) { return id(m) - PGA_MARKET; }

/* an empty hand but for the given cards (test positions need not conserve cards) */
static void hand(int p, const char *card) {
    memset(pl(p)->hand, 0, sizeof pl(p)->hand);
    pl(p)->hand_size = 0;
    if (!card) return;
    pl(p)->hand[id(card) - PGA_CARD] = 1;
    pl(p)->hand_size = 1;
}
static void put_tile(int p, const char *slot, const char *tile, int flipped, int c0, int c1) {
    PghSpace *sp = &G.spaces[space(slot)];
    sp->owner = (int8_t)p;
    sp->tile = (uint8_t)tile_of(tile);
    sp->flipped = (uint8_t)flipped;
    sp->cubes[0] = (uint8_t)c0;
    sp->cubes[1] = (uint8_t)c1;
}
static void put_rail(int p, const char *link, const char *lt) {
    PghRailState *r = &G.rails[rail(link)];
    r->owner = (int8_t)p;
    r->link_type = (uint8_t)lt_of(lt);
}
static void put_pipe(int p, const char *route, const char *lt) {
    PghPipeState *q = &G.pipes[pipe_(route)];
    q->owner = (int8_t)p;
    q->link_type = (uint8_t)lt_of(lt);
}
static void set_merchant(int ms, const char *tile_id) {
    const PghTables *T = pgh_T(&G);
    for (int t = 0; t < T->num_mtiles; t++)
        if (!strcmp(T->mtiles[t].id, tile_id)) G.mspace_tile[ms] = (uint8_t)t;
    G.mspace_back[ms] = 0;
}
static void no_markets(void) { memset(G.market_fill, 0, sizeof G.market_fill); }
static int field_of(const char *fid) {
    const PghTables *T = pgh_T(&G);
    for (int f = 0; f < T->num_fields; f++)
        if (!strcmp(T->field_ids[f], fid)) return f;
    return -1;
}
static int sell_reason(const char *slot) {
    PBoard b;
    pgh_pboard(&G, G.h.current, &b);
    return pgh_sell_tile_reason(&G, &b, space(slot));
}
static int place_reason(const char *card, const char *pos, const char *place) {
    PBoard b;
    pgh_pboard(&G, G.h.current, &b);
    return pgh_build_place_reason(&G, &b, id(card) - PGA_CARD, pos_of(pos), id(place), 1);
}
static void end_round_now(void) {
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_round_end(&cx);
}

/* ---------------- setup ---------------- */
static void test_p01_deck_keeps_cards_for_the_player_count(void) {
    for (int n = 2; n <= 4; n++) {
        fresh(TINY, n, 11);
        int box[PGH_MAX_CARD_TYPES] = {0}, have[PGH_MAX_CARD_TYPES] = {0};
        const PghTables *T = pgh_T(&G);
        for (int i = 0; i < T->num_deck; i++)
            if (T->deck_pc[i] & (1u << (n - 2))) box[T->deck_card[i]]++;
        for (int i = 0; i < G.deck_size; i++) have[G.deck[i]]++;
        for (int p = 0; p < n; p++) {
            for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) have[c] += pl(p)->hand[c];
            have[pl(p)->facedown_card]++;
        }
        for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) EXPECT_EQ(have[c], box[c]);
    }
}

static void test_p02_eight_cards_and_one_face_down(void) {
    for (int n = 2; n <= 4; n++) {
        fresh(DRAFT, n, 5);
        EXPECT_EQ(G.deck_size, 16 * n - 9 * n);
        for (int p = 0; p < n; p++) {
            EXPECT_EQ(pl(p)->hand_size, 8);
            EXPECT(pl(p)->facedown_card != PGH_NONE);
        }
    }
}

static void test_p03_merchants_front_up_and_the_15_dollar_tile_out_in_2p(void) {
    for (uint64_t s = 1; s <= 30; s++) {
        fresh(DRAFT, 2, s);
        const PghTables *T = pgh_T(&G);
        for (int ms = 0; ms < T->num_mspaces; ms++) {
            int closed = pgh_loc_closed(&G, T->mspace_loc[ms]);
            EXPECT(closed == (G.mspace_tile[ms] == PGH_NONE));
            EXPECT_EQ(G.mspace_back[ms], 0);
            if (!closed) EXPECT(strcmp(T->mtiles[G.mspace_tile[ms]].id, "mt_kero_mfg_money15"));
        }
        fresh(DRAFT, 4, s);
        for (int ms = 0; ms < T->num_mspaces; ms++) EXPECT(G.mspace_tile[ms] != PGH_NONE);
    }
}

static void test_p04_oilfield_tiles_face_down_one_each(void) {
    fresh(DRAFT, 3, 9);
    const PghTables *T = pgh_T(&G);
    unsigned seen = 0;
    for (int f = 0; f < T->num_fields; f++) {
        EXPECT_EQ(G.fields[f].tile_state, FT_FACE_DOWN);
        EXPECT(!(seen & (1u << G.fields[f].tile)));
        seen |= 1u << G.fields[f].tile;
        EXPECT_EQ(G.fields[f].barrels, 0);
    }
    PittsburghGame red;
    pgh_redact(&G, 0, &red);
    for (int f = 0; f < T->num_fields; f++) EXPECT_EQ(red.fields[f].tile, 0);
}

static void test_p05_three_quality_tiles_revealed(void) {
    fresh(DRAFT, 4, 3);
    EXPECT(G.qslot_tile[0] != G.qslot_tile[1] && G.qslot_tile[1] != G.qslot_tile[2] &&
           G.qslot_tile[0] != G.qslot_tile[2]);
    for (int q = 0; q < 3; q++) EXPECT_EQ(G.qslot_up[q], 1);
}

static void test_p06_markets_filled_one_coke_per_column(void) {
    fresh(DRAFT, 4, 3);
    int col;
    EXPECT(pgh_market_sells(pgh_T(&G), mkt("market:toledo"), CUBE_COAL, &col));
    EXPECT_EQ(G.market_fill[mkt("market:toledo")][col], 3);
    EXPECT(pgh_market_sells(pgh_T(&G), mkt("market:canada"), CUBE_COKE, &col));
    EXPECT_EQ(G.market_fill[mkt("market:canada")][col], 1);
    EXPECT(pgh_market_sells(pgh_T(&G), mkt("market:canada"), CUBE_STEEL, &col));
    EXPECT_EQ(G.market_fill[mkt("market:canada")][col], 2);
}

static void test_p07_players_start(void) {
    fresh(DRAFT, 4, 3);
    for (int p = 0; p < 4; p++) {
        EXPECT_EQ(pl(p)->money, 30);
        EXPECT_EQ(pl(p)->vp, 0);
        EXPECT_EQ(pl(p)->income_space, 10);
        EXPECT_EQ(pgh_player_level(&G, p), 0);
        EXPECT_EQ(pl(p)->whiskey, 0);
        EXPECT_EQ(pl(p)->supply[lt_of("light_train")], 9);
        EXPECT_EQ(pl(p)->supply[lt_of("ht_whiskey")], 2);
        EXPECT_EQ(pl(p)->supply[lt_of("pipe_income2")], 1);
        EXPECT_EQ(pl(p)->supply[lt_of("pipe_reserve")], 1);
        EXPECT_EQ(pl(p)->supply[lt_of("ht_double_link")], 0); /* still on the mat */
    }
}

static void test_p08_two_players_close_the_east(void) {
    fresh(DRAFT, 2, 21);
    int untiled = 0;
    const PghTables *T = pgh_T(&G);
    for (int f = 0; f < T->num_fields; f++) {
        untiled += G.fields[f].tile_state == FT_NO_TILE;
        if (G.fields[f].tile != PGH_NONE) EXPECT(strcmp(T->ftiles[G.fields[f].tile].id, "of_develop1"));
    }
    EXPECT_EQ(untiled, 1);
    EXPECT_EQ(G.deck_size + 9 * 2, 32);
    hand(me(), "card:rochester");
    go("type:network", "card:rochester", "link_tile:light_train", NULL);
    EXPECT_EQ(why("link:rochester--the_east"), PR_ROUTE_CLOSED);
    fresh(DRAFT, 3, 21);
    hand(me(), "card:rochester");
    go("type:network", "card:rochester", "link_tile:light_train", NULL);
    EXPECT_EQ(why("link:rochester--the_east"), PR_LEGAL);
}

/* ---------------- game structure ---------------- */
static void test_p09_first_round_one_action_then_two(void) {
    fresh(TINY, 3, 4);
    int first = me();
    go("type:pass", NULL);
    int c = id("card:alpha");
    (void)c;
    EXPECT_EQ(G.h.phase, PP_CARD);
    for (int k = 0; k < PGH_MAX_CARD_TYPES; k++)
        if (pl(me())->hand[k]) {
            go(pgh_action_name_in(TINY, PGA_CARD + k), NULL);
            break;
        }
    EXPECT(me() != first);
    EXPECT_EQ(G.h.actions_left, 1);
    for (int i = 0; i < 2; i++) {
        go("type:pass", NULL);
        for (int k = 0; k < PGH_MAX_CARD_TYPES; k++)
            if (pl(me())->hand[k]) {
                go(pgh_action_name_in(TINY, PGA_CARD + k), NULL);
                break;
            }
    }
    EXPECT_EQ(G.h.round, 2);
    EXPECT_EQ(G.h.actions_left, 2);
}

static void discard_any(void) {
    for (int k = 0; k < PGH_MAX_CARD_TYPES; k++)
        if (pl(me())->hand[k]) {
            go(pgh_action_name_in(G.h.table_set, PGA_CARD + k), NULL);
            return;
        }
}

static void test_p10_pass_discards_one_and_the_hand_refills(void) {
    fresh(TINY, 2, 4);
    int p = me(), deck = G.deck_size;
    go("type:pass", NULL);
    discard_any();
    EXPECT_EQ(pl(p)->hand_size, 8);
    EXPECT_EQ(G.deck_size, deck - 1);
    int discards = 0;
    for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) discards += G.discards[c];
    EXPECT_EQ(discards, 1);
}

static void test_p11_turn_order_by_money_spent_ties_keep_order(void) {
    fresh(TINY, 3, 4);
    int a = G.turn_order[0], b = G.turn_order[1], c = G.turn_order[2];
    pl(a)->spent = 5;
    pl(b)->spent = 0;
    pl(c)->spent = 5;
    G.h.turn_idx = 2;
    G.h.current = (uint8_t)c;
    end_round_now();
    EXPECT_EQ(G.turn_order[0], b);
    EXPECT_EQ(G.turn_order[1], a);
    EXPECT_EQ(G.turn_order[2], c);
    EXPECT_EQ(pl(a)->spent, 0);
}

static void test_p12_decreases_are_levels_onto_the_top_space(void) {
    fresh(DRAFT, 2, 4);
    EXPECT_EQ(pgh_income_after_levels(&G, 10, 3), 7);  /* level 0 -> -3, space 7 */
    EXPECT_EQ(pgh_income_after_levels(&G, 19, 2), 16); /* level 5 -> 3, top space 16 */
    EXPECT_EQ(pgh_income_after_levels(&G, 2, 3), -1);  /* below -10 */
    pgh_income_up(&G, 0, 95);
    EXPECT_EQ(pl(0)->income_space, 99);
}

static void test_p13_income_every_round_but_the_last(void) {
    fresh(TINY, 2, 4);
    int p = G.turn_order[0];
    pl(p)->income_space = 19; /* level 5 */
    G.h.turn_idx = 1;
    G.h.current = G.turn_order[1];
    end_round_now();
    EXPECT_EQ(pl(p)->money, 35);
    /* era 2, last round (no cards anywhere): no income */
    fresh(TINY, 2, 4);
    p = G.turn_order[0];
    pl(p)->income_space = 19;
    G.h.era = 1;
    G.deck_size = 0;
    for (int q = 0; q < 2; q++) hand(q, NULL);
    end_round_now();
    EXPECT_EQ(pl(p)->money, 30);
    EXPECT_EQ(G.h.game_over, 1);
}

static void test_p14_bankruptcy(void) {
    fresh(TINY, 2, 4);
    int p = G.turn_order[0];
    pl(p)->income_space = 5; /* level -5 */
    pl(p)->money = 2;
    pl(p)->whiskey = 2;
    pl(p)->vp = 10;
    end_round_now();
    EXPECT_EQ(pl(p)->money, 2);
    EXPECT_EQ(pl(p)->whiskey, 0);
    EXPECT_EQ(pl(p)->vp, -30);
    EXPECT_EQ(pl(p)->income_space, 10);
    int q = G.turn_order[1] == p ? G.turn_order[0] : G.turn_order[1];
    (void)q;
}

static void test_p15_whiskey_cap_and_any_card_build(void) {
    fresh(TINY, 2, 4);
    int p = me();
    pl(p)->whiskey = 3;
    go("type:pass", NULL);
    discard_any();
    EXPECT_EQ(pl(p)->whiskey, 3);
    fresh(TINY, 2, 4);
    p = me();
    hand(p, "card:delta");
    pl(p)->whiskey = 1;
    no_markets();
    go("type:build", "card:delta", "tile:mfg_1", NULL);
    EXPECT_EQ(why("slot:alpha.0"), PR_LEGAL); /* a Delta card builds in Alpha with whiskey */
    go("slot:alpha.0", NULL);
    EXPECT_EQ(pl(p)->whiskey, 0);
    EXPECT_EQ(G.spaces[space("slot:alpha.0")].owner, p);
    EXPECT_EQ(pl(p)->money, 30 - 12);
}

/* ---------------- places and connections ---------------- */
static void test_p16_pipeline_puts_its_city_in_the_network(void) {
    fresh(TINY, 2, 4);
    int p = me();
    put_pipe(p, "pipeline:gamma--well_south", "pipe_income2");
    hand(p, "card:kerosene");
    go("type:build", "card:kerosene", "tile:kero_2", NULL);
    EXPECT_EQ(why("slot:gamma.1"), PR_LEGAL);
    EXPECT_EQ(why("slot:alpha.0"), PR_CARD_DOES_NOT_ALLOW);
}

static void test_p17_link_only_location_icons_score(void) {
    fresh(TINY, 2, 4);
    int p = me();
    put_rail(p, "link:beta--junction", "light_train");
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_score_rail(&cx, rail("link:beta--junction"));
    EXPECT_EQ(pl(p)->vp, 3);
    EXPECT_EQ(pgh_T(&G)->locs[loc_of("junction")].num_spaces, 0);
}

static void test_p17_option_cincinnati_not_a_location(void) {
    for (int gone = 0; gone < 2; gone++) {
        fresh_opts(DRAFT, 3, 4, OPT_cincinnati_role, gone);
        hand(me(), "card:indianapolis");
        go("type:network", "card:indianapolis", "link_tile:light_train", NULL);
        EXPECT_EQ(why("link:indianapolis--cincinnati"), gone ? PR_ROUTE_CLOSED : PR_LEGAL);
        EXPECT_EQ(pgh_loc_icons(&G, loc_of("cincinnati")), gone ? 0 : 3);
    }
}

static void test_p18_pipelines_never_connect(void) {
    fresh(TINY, 2, 4);
    int p = me();
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    put_pipe(p, "pipeline:beta--well_north", "pipe_vp3");
    PBoard b;
    pgh_pboard(&G, p, &b);
    EXPECT(b.comp[loc_of("alpha")] != b.comp[loc_of("beta")]);
    put_rail(other(), "link:alpha--beta", "light_train");
    pgh_pboard(&G, p, &b);
    EXPECT(b.comp[loc_of("alpha")] == b.comp[loc_of("beta")]);
}

/* ---------------- cubes ---------------- */
static void test_p19_connected_industry_cube_first_and_free(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(o, "slot:gamma.0", "coal_2", 0, 1, 0);
    hand(p, "card:gamma");
    go("type:build", "card:gamma", "tile:kero_2", "slot:gamma.1", NULL);
    EXPECT_EQ(G.h.phase, PP_COAL);
    EXPECT_EQ(why("market:gamma"), PR_INDUSTRY_FIRST);
    EXPECT_EQ(why("vanderbilt"), PR_INDUSTRY_FIRST);
    int income = pl(o)->income_space;
    go("slot:gamma.0", NULL);
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].flipped, 1); /* last cube: it flips */
    EXPECT_EQ(pl(o)->income_space, income + 5);
    EXPECT_EQ(pl(p)->money, 30 - 7);
}

static void test_p19_option_nearest_tile(void) {
    for (int nearest = 0; nearest < 2; nearest++) {
        fresh_opts(TINY, 2, 4, OPT_industry_source_choice, nearest);
        int p = me(), o = other();
        put_tile(o, "slot:gamma.0", "coal_2", 0, 1, 0);
        put_tile(o, "slot:delta.2", "coal_2", 0, 1, 0);
        put_rail(o, "link:alpha--beta", "light_train");
        put_rail(o, "link:beta--gamma", "light_train");
        put_rail(o, "link:gamma--delta", "light_train");
        hand(p, "card:alpha");
        go("type:build", "card:alpha", "tile:kero_2", "slot:alpha.0", NULL); /* Gamma 2 away, Delta 3 */
        EXPECT_EQ(G.h.phase, PP_COAL);
        EXPECT_EQ(why("slot:gamma.0"), PR_LEGAL);
        EXPECT_EQ(why("slot:delta.2"), nearest ? PR_NOT_NEAREST : PR_LEGAL);
    }
}

static void test_p20_own_resource_train_even_when_a_tile_could_supply(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(o, "slot:beta.0", "steel_2", 0, 1, 1);
    put_rail(p, "link:alpha--beta", "ht_resource_steel");
    G.rails[rail("link:alpha--beta")].cargo = 1;
    hand(p, "card:alpha");
    no_markets();
    go("type:build", "card:alpha", "tile:mfg_1", NULL);
    go("slot:alpha.0", NULL); /* mfg_1 costs no cubes: check the train on a steel cost */
    fresh(TINY, 2, 4);
    p = me(), o = other();
    put_tile(o, "slot:beta.0", "steel_2", 0, 1, 1);
    put_rail(p, "link:alpha--beta", "ht_resource_steel");
    G.rails[rail("link:alpha--beta")].cargo = 1;
    pl(p)->mat_left[pos_of("mfg_1")] = 0;
    hand(p, "card:alpha");
    go("type:build", "card:alpha", "tile:mfg_2", "slot:alpha.0", NULL);
    EXPECT_EQ(G.h.phase, PP_STEEL);
    EXPECT_EQ(why("link:alpha--beta"), PR_LEGAL);
    EXPECT_EQ(why("slot:beta.0"), PR_LEGAL);
    EXPECT_EQ(why("vanderbilt"), PR_INDUSTRY_FIRST);
    go("link:alpha--beta", NULL);
    EXPECT_EQ(G.rails[rail("link:alpha--beta")].cargo, 0);
    EXPECT_EQ(G.spaces[space("slot:beta.0")].cubes[0], 1);
    /* another player's train is not a source */
    fresh(TINY, 2, 4);
    p = me(), o = other();
    put_rail(o, "link:alpha--beta", "ht_resource_steel");
    G.rails[rail("link:alpha--beta")].cargo = 1;
    pl(p)->mat_left[pos_of("mfg_1")] = 0;
    hand(p, "card:alpha");
    go("type:build", "card:alpha", "tile:mfg_2", "slot:alpha.0", NULL);
    EXPECT_EQ(why("link:alpha--beta"), PR_NOT_YOUR_TRAIN);
}

static void test_p21_markets_connected_at_their_fixed_price(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:alpha");
    go("type:build", "card:alpha", "tile:kero_2", "slot:alpha.0", NULL);
    EXPECT_EQ(why("market:gamma"), PR_NOT_CONNECTED);
    EXPECT_EQ(why("vanderbilt"), PR_LEGAL);
    fresh(TINY, 2, 4);
    p = me();
    put_rail(other(), "link:alpha--beta", "light_train");
    put_rail(other(), "link:beta--gamma", "light_train");
    hand(p, "card:alpha");
    go("type:build", "card:alpha", "tile:kero_2", "slot:alpha.0", "market:gamma", NULL);
    EXPECT_EQ(pl(p)->money, 30 - 7 - 3);
    EXPECT_EQ(pl(p)->spent, 10);
}

static void test_p22_buy_takes_the_lowest_filled_slot_sales_fill_the_top_empty(void) {
    fresh(TINY, 2, 4);
    int p = me(), m = mkt("market:gamma"), col;
    pgh_market_sells(pgh_T(&G), m, CUBE_COAL, &col);
    EXPECT_EQ(G.market_fill[m][col], 2);
    hand(p, "card:gamma");
    go("type:build", "card:gamma", "tile:kero_2", "slot:gamma.1", "market:gamma", NULL);
    EXPECT_EQ(G.market_fill[m][col], 1);
    /* a new coal tile sells into slot 1 (printed 1 VP) */
    fresh(TINY, 2, 4);
    p = me();
    hand(p, "card:gamma");
    G.market_fill[m][col] = 1;
    go("type:build", "card:gamma", "tile:coal_1", "slot:gamma.0", NULL);
    EXPECT_EQ(G.h.phase, PP_IRON);
    go("market:gamma", NULL); /* iron from the market, $3 */
    EXPECT_EQ(G.h.phase, PP_MARKET_SALE);
    go("market:gamma", NULL);
    EXPECT_EQ(pl(p)->vp, 1);
    EXPECT_EQ(pl(p)->money, 30 - 5 - 3 + 3);
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].cubes[0], 1);
}

static void test_p22_option_header_squares_are_slots(void) {
    fresh_opts(DRAFT, 4, 3, OPT_market_header_squares_are_slots, 1);
    int col;
    pgh_market_sells(pgh_T(&G), mkt("market:toledo"), CUBE_COAL, &col);
    EXPECT_EQ(G.market_fill[mkt("market:toledo")][col], 4);
    pgh_market_sells(pgh_T(&G), mkt("market:canada"), CUBE_COKE, &col);
    EXPECT_EQ(G.market_fill[mkt("market:canada")][col], 1);
    EXPECT_EQ(pgh_market_slots(&G, mkt("market:canada"), col), 3);
    EXPECT_EQ(pgh_market_slot_vp(&G, mkt("market:canada"), col, 2), 4); /* the lowest coke slot */
    pgh_market_sells(pgh_T(&G), mkt("market:canada"), CUBE_STEEL, &col);
    EXPECT_EQ(G.market_fill[mkt("market:canada")][col], 3);
}

static void test_p23_vanderbilt_anywhere_at_his_price(void) {
    fresh(TINY, 2, 4);
    int p = me();
    no_markets();
    pl(p)->mat_left[pos_of("mfg_1")] = 0;
    hand(p, "card:alpha");
    go("type:build", "card:alpha", "tile:mfg_2", "slot:alpha.0", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->money, 30 - 16 - 10);
    EXPECT_EQ(pl(p)->spent, 26);
}

/* ---------------- oil ---------------- */
static void test_p25_p26_pipeline_route_oil_and_era1_reveal_pending(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_south");
    G.fields[f].tile = 0; /* tf_money5: $5, 2 oil */
    G.fields[f].tile_state = FT_FACE_DOWN;
    hand(p, "card:gamma");
    go("type:network", "card:gamma", "link_tile:pipe_income2", "pipeline:gamma--well_south", "market:gamma", NULL);
    EXPECT_EQ(G.fields[f].barrels, 2); /* the route's two icons */
    EXPECT_EQ(G.fields[f].tile_state, FT_PENDING);
    EXPECT_EQ(G.fields[f].pending, 2);
    EXPECT_EQ(pl(p)->money, 30 - 3 + 5);
    /* era 2: the reveal's oil comes at once */
    fresh(TINY, 2, 4);
    p = me();
    G.h.era = 1;
    G.fields[f].tile = 1; /* tf_whiskey: 1 whiskey, 1 oil */
    G.fields[f].tile_state = FT_FACE_DOWN;
    hand(p, "card:gamma");
    go("type:network", "card:gamma", "link_tile:pipe_income2", "pipeline:delta--well_south", "vanderbilt", NULL);
    EXPECT_EQ(G.fields[f].barrels, 1 + 1);
    EXPECT_EQ(G.fields[f].tile_state, FT_GONE);
    EXPECT_EQ(pl(p)->whiskey, 1);
}

static void sell_setup(int p) {
    put_tile(p, "slot:alpha.0", "kero_2", 0, 0, 0);
    set_merchant(0, "tm_kero_money6");
    put_rail(p, "link:alpha--port", "light_train");
    hand(p, "card:beta");
}

static void test_p27_oil_leaves_a_field_only_through_a_pipeline(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other(), f = field_of("well_north");
    sell_setup(p);
    G.fields[f].barrels = 3;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_NO_OIL);
    EXPECT_EQ(why("type:sell"), PR_NO_OPTION);
    put_pipe(o, "pipeline:alpha--well_north", "pipe_reserve");
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_NO_OIL);
    put_pipe(o, "pipeline:beta--well_north", "pipe_income2");
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_NO_OIL); /* Beta is not rail-connected to Alpha */
    put_rail(o, "link:alpha--beta", "light_train");
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_LEGAL);
    go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", NULL);
    EXPECT_EQ(G.h.phase, PP_OIL);
    EXPECT_EQ(why("pipeline:alpha--well_north"), PR_RESERVE_CARRIES_NO_OIL);
    go("pipeline:beta--well_north", NULL);
    EXPECT_EQ(G.fields[f].barrels, 2);
}

static void test_p27_option_oil_city_first(void) {
    for (int prio = 0; prio < 2; prio++) {
        fresh_opts(TINY, 2, 4, OPT_oil_city_priority, prio);
        int p = me(), o = other(), f = field_of("well_north");
        sell_setup(p);
        put_pipe(o, "pipeline:alpha--well_north", "pipe_income2");
        G.fields[f].barrels = 1;
        G.fields[f].oc_owner = (int8_t)o;
        G.fields[f].oc_barrels = 2;
        G.h.era = 1;
        go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", NULL);
        EXPECT_EQ(why("pipeline:alpha--well_north"), prio ? PR_INDUSTRY_FIRST : PR_LEGAL);
        EXPECT_EQ(why("oil_city_via:alpha--well_north"), PR_LEGAL);
    }
}

static void test_p28_each_barrel_pays_the_pipeline_owner(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other(), f = field_of("well_north");
    sell_setup(p);
    G.fields[f].barrels = 1;
    put_pipe(o, "pipeline:alpha--well_north", "pipe_vp3");
    go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    EXPECT_EQ(pl(o)->vp, 3);
    EXPECT_EQ(pl(p)->vp, 0);
}

static void test_p29_manufacturer_iii_consumes_oil(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    G.fields[f].barrels = 1;
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    pl(p)->mat_left[pos_of("mfg_1")] = 0;
    pl(p)->mat_left[pos_of("mfg_2")] = 0;
    hand(p, "card:alpha");
    int income = pl(p)->income_space;
    go("type:build", "card:alpha", "tile:mfg_3", "slot:alpha.0", "vanderbilt", "vanderbilt",
       "pipeline:alpha--well_north", NULL);
    EXPECT_EQ(G.fields[f].barrels, 0);
    EXPECT_EQ(pl(p)->income_space, income + 2); /* own income pipeline paid */
}

static void test_p30_pending_oil_is_not_usable(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    sell_setup(p);
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    G.fields[f].tile_state = FT_PENDING;
    G.fields[f].pending = 2;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_NO_OIL);
    G.fields[f].barrels = 1;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_LEGAL);
}

/* ---------------- build ---------------- */
static void test_p31_industry_card_needs_the_network(void) {
    fresh(TINY, 2, 4);
    int p = me();
    put_tile(p, "slot:gamma.1", "kero_2", 0, 0, 0);
    put_rail(p, "link:gamma--delta", "light_train");
    hand(p, "card:manufacturing");
    go("type:build", "card:manufacturing", "tile:mfg_1", NULL);
    EXPECT_EQ(why("slot:delta.0"), PR_LEGAL);
    EXPECT_EQ(why("slot:alpha.0"), PR_CARD_DOES_NOT_ALLOW);
    EXPECT_EQ(why("slot:beta.1"), PR_CARD_DOES_NOT_ALLOW);
    /* with nothing on the board an industry card builds anywhere */
    fresh(TINY, 2, 4);
    p = me();
    hand(p, "card:manufacturing");
    go("type:build", "card:manufacturing", "tile:mfg_1", NULL);
    EXPECT_EQ(why("slot:alpha.0"), PR_LEGAL);
}

static void test_p32_era_marks(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:gamma");
    put_tile(p, "slot:gamma.0", "coal_1", 1, 0, 0);
    go("type:build", "card:gamma", NULL);
    EXPECT_EQ(why("tile:coke_1"), PR_LEGAL);
    for (const char *const *k = (const char *const[]){"kero_2", "kero_3", "kero_4", NULL}; *k; k++)
        pl(p)->mat_left[pos_of(*k)] = 0;
    put_pipe(p, "pipeline:gamma--well_south", "pipe_income2");
    EXPECT_EQ(why("tile:oil_city"), PR_WRONG_ERA);
    fresh(TINY, 2, 4);
    p = me();
    G.h.era = 1;
    hand(p, "card:gamma");
    put_tile(p, "slot:gamma.0", "coal_1", 1, 0, 0);
    go("type:build", "card:gamma", NULL);
    EXPECT_EQ(why("tile:coke_1"), PR_WRONG_ERA);
}

static void test_p33_single_icon_space_first_and_one_tile_per_location(void) {
    fresh(DRAFT, 2, 4);
    int p = me();
    hand(p, "card:chicago_whiting");
    pl(p)->mat_left[pos_of("steel_1")] = 0;
    pl(p)->mat_left[pos_of("steel_2")] = 0;
    pl(p)->money = 100;
    go("type:build", "card:chicago_whiting", "tile:sky_20", NULL);
    EXPECT_EQ(why("slot:chicago_whiting.0"), PR_SINGLE_ICON_SPACE_FIRST);
    EXPECT_EQ(why("slot:chicago_whiting.1"), PR_LEGAL);
    fresh(TINY, 2, 4);
    p = me();
    put_tile(p, "slot:alpha.1", "coal_1", 0, 2, 0);
    hand(p, "card:alpha");
    EXPECT_EQ(why("type:build"), PR_NO_OPTION);
    EXPECT_EQ(place_reason("card:alpha", "kero_2", "slot:alpha.0"), PR_ONE_TILE_PER_LOCATION);
    G.h.era = 1;
    EXPECT_EQ(place_reason("card:alpha", "kero_2", "slot:alpha.0"), PR_LEGAL);
}

static void test_p34_build_needs_all_of_its_cost(void) {
    fresh(TINY, 2, 4);
    int p = me();
    pl(p)->money = 13; /* kero_2: $7 + 1 coal from Vanderbilt $7 (mfg_1 $12 is possible) */
    hand(p, "card:alpha");
    go("type:build", "card:alpha", NULL);
    EXPECT_EQ(why("tile:kero_2"), PR_NOT_ENOUGH_MONEY);
    EXPECT_EQ(place_reason("card:alpha", "kero_2", "slot:alpha.0"), PR_NOT_ENOUGH_MONEY);
    pl(p)->money = 14;
    EXPECT_EQ(why("tile:kero_2"), PR_LEGAL);
    go("tile:kero_2", "slot:alpha.0", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->money, 0);
    EXPECT_EQ(pl(p)->income_space, pgh_income_after_levels(&G, 10, 1));
}

static void test_p35_upgrade_replaces_an_own_flipped_tile_and_scores_it(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    no_markets();
    put_tile(p, "slot:gamma.0", "coal_1", 1, 0, 0);
    put_tile(o, "slot:delta.2", "coal_1", 1, 0, 0);
    put_tile(p, "slot:alpha.1", "coal_1", 0, 2, 0);
    pl(p)->money = 40;
    hand(p, "card:coal");
    go("type:build", "card:coal", "tile:coke_1", NULL);
    EXPECT_EQ(why("slot:gamma.0"), PR_LEGAL);
    EXPECT_EQ(why("slot:delta.2"), PR_NOT_YOUR_TILE);
    EXPECT_EQ(why("slot:alpha.1"), PR_NOT_AN_UPGRADE_TARGET);
    EXPECT_EQ(why("slot:gamma.1"), PR_NOT_AN_UPGRADE_TARGET);
    go("slot:gamma.0", "vanderbilt", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->vp, 1); /* the coal_1 scored as it left */
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].tile, tile_of("coke_1"));
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].cubes[0], 2);
    EXPECT_EQ(pl(p)->money, 40 - 18 - 14);
}

static void test_p37_manufacturer_ii_scores_the_income_level(void) {
    fresh(TINY, 2, 4);
    pl(0)->income_space = 23; /* level 7 */
    EXPECT_EQ(pgh_tile_vp(&G, 0, tile_of("mfg_2")), 7);
    pl(0)->income_space = 8; /* level -2 */
    EXPECT_EQ(pgh_tile_vp(&G, 0, tile_of("mfg_2")), 0);
    EXPECT_EQ(pgh_tile_vp(&G, 0, tile_of("mfg_5")), 12);
    fresh_opts(TINY, 2, 4, OPT_mfg_v_vp, 1);
    EXPECT_EQ(pgh_tile_vp(&G, 0, tile_of("mfg_5")), 11);
}

static void test_p38_new_tile_sells_as_many_cubes_as_fit_builder_chooses(void) {
    fresh(TINY, 2, 4);
    int p = me(), m = mkt("market:gamma"), col;
    pgh_market_sells(pgh_T(&G), m, CUBE_COAL, &col);
    G.market_fill[m][col] = 0;
    pl(p)->mat_left[pos_of("coal_1")] = 0;
    hand(p, "card:gamma");
    go("type:build", "card:gamma", "tile:coal_2", "slot:gamma.0", "vanderbilt", NULL);
    EXPECT_EQ(G.h.phase, PP_MARKET_SALE);
    EXPECT_EQ(why("done"), PR_MUST_CHOOSE);
    go("market:gamma", "market:gamma", NULL);
    EXPECT_EQ(G.market_fill[m][col], 2);
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].cubes[0], 2); /* 4 - 2 that fit */
    EXPECT_EQ(pl(p)->money, 30 - 8 - 7 + 6);
    EXPECT_EQ(pl(p)->vp, 1);
    EXPECT(G.h.phase == PP_ACTION || G.h.current != p);
}

static void test_p39_oil_city(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other(), f = field_of("well_south");
    G.h.era = 1;
    pl(p)->mat_left[pos_of("kero_2")] = 0;
    pl(p)->mat_left[pos_of("kero_3")] = 0;
    pl(p)->mat_left[pos_of("kero_4")] = 0;
    pl(p)->income_space = 19; /* level 5 */
    hand(p, "card:kerosene");
    put_pipe(o, "pipeline:gamma--well_south", "pipe_vp3");
    G.fields[f].barrels = 2;
    EXPECT_EQ(place_reason("card:kerosene", "oil_city", "oilfield:well_south"), PR_NO_PIPELINE_TO_NETWORK);
    EXPECT_EQ(place_reason("card:kerosene", "oil_city", "oilfield:well_north"), PR_NO_PIPELINE_TO_NETWORK);
    put_tile(p, "slot:gamma.1", "kero_3", 1, 0, 0);
    EXPECT_EQ(place_reason("card:kerosene", "oil_city", "oilfield:well_south"), PR_LEGAL);
    EXPECT_EQ(place_reason("card:gamma", "oil_city", "oilfield:well_south"), PR_CARD_DOES_NOT_ALLOW);
    go("type:build", "card:kerosene", "tile:oil_city", "oilfield:well_south", NULL);
    EXPECT_EQ(G.fields[f].oc_owner, p);
    EXPECT_EQ(G.fields[f].oc_barrels, 5);
    EXPECT_EQ(G.fields[f].barrels, 0);
    EXPECT_EQ(pgh_player_level(&G, p), 1);
}

static void test_p40_polyphase_pays_twice_the_income_level(void) {
    fresh(TINY, 2, 4);
    int p = me();
    pl(p)->mat_left[pos_of("coal_1")] = 0;
    pl(p)->mat_left[pos_of("coal_2")] = 0;
    pl(p)->mat_left[pos_of("coal_3")] = 0;
    pl(p)->income_space = 19; /* level 5 */
    put_tile(p, "slot:gamma.0", "coal_3", 1, 0, 0);
    hand(p, "card:gamma");
    go("type:build", "card:gamma", "tile:polyphase", "slot:gamma.0", "market:gamma", "market:gamma", NULL);
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].flipped, 1);
    EXPECT_EQ(pl(p)->money, 30 - 15 - 3 - 3 + 10);
    EXPECT_EQ(pl(p)->vp, 3); /* the coal_3 upgraded away */
    EXPECT_EQ(pgh_tile_vp(&G, p, tile_of("polyphase")), 4); /* coal_1..3 + polyphase empty */
}

static void test_p40_option_polyphase_pays_for_a_negative_income(void) {
    for (int pay = 0; pay < 2; pay++) {
        fresh_opts(TINY, 2, 4, OPT_polyphase_negative_income, pay);
        int p = me();
        pl(p)->mat_left[pos_of("coal_1")] = 0;
        pl(p)->mat_left[pos_of("coal_2")] = 0;
        pl(p)->mat_left[pos_of("coal_3")] = 0;
        pl(p)->income_space = 7; /* level -3 */
        put_tile(p, "slot:gamma.0", "coal_3", 1, 0, 0);
        hand(p, "card:gamma");
        go("type:build", "card:gamma", "tile:polyphase", "slot:gamma.0", "market:gamma", "market:gamma", NULL);
        EXPECT_EQ(pl(p)->money, 30 - 15 - 3 - 3 - (pay ? 6 : 0));
        EXPECT_EQ(pl(p)->spent, 21 + (pay ? 6 : 0));
    }
}

static void test_p40_locomotive_works_three_free_develops(void) {
    fresh(TINY, 2, 4);
    int p = me();
    G.h.era = 1;
    for (const char *const *k = (const char *const[]){"mfg_1", "mfg_2", "mfg_3", "mfg_5", NULL}; *k; k++)
        pl(p)->mat_left[pos_of(*k)] = 0;
    put_tile(p, "slot:delta.0", "mfg_5", 1, 0, 0);
    hand(p, "card:delta");
    go("type:build", "card:delta", "tile:loco_works", "slot:delta.0", "vanderbilt", NULL);
    EXPECT_EQ(G.h.phase, PP_FREE_DEVELOP);
    EXPECT_EQ(G.pend.free_develops, 3);
    go("tile:coal_1", NULL);
    EXPECT_EQ(why("tile:kero_2"), PR_CANONICAL_ORDER); /* kero_2 then coal_1 is the same outcome */
    EXPECT_EQ(why("tile:coal_2"), PR_LEGAL);
    fresh(TINY, 2, 4);
    p = me();
    G.h.era = 1;
    for (const char *const *k = (const char *const[]){"mfg_1", "mfg_2", "mfg_3", "mfg_5", NULL}; *k; k++)
        pl(p)->mat_left[pos_of(*k)] = 0;
    put_tile(p, "slot:delta.0", "mfg_5", 1, 0, 0);
    hand(p, "card:delta");
    go("type:build", "card:delta", "tile:loco_works", "slot:delta.0", "vanderbilt", NULL);
    go("tile:kero_2", "tile:kero_3", "done", NULL);
    EXPECT_EQ(pl(p)->mat_left[pos_of("kero_2")], 0);
    EXPECT_EQ(pl(p)->mat_left[pos_of("kero_3")], 1);
    EXPECT(G.h.phase == PP_ACTION || G.h.current != p);
    pl(p)->heavy_built = 2;
    EXPECT_EQ(pgh_tile_vp(&G, p, tile_of("loco_works")), 8);
}

static void test_p41_skyscraper_bonus_sell_without_a_card(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    sell_setup(p);
    G.fields[f].barrels = 1;
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    put_rail(p, "link:alpha--beta", "light_train");
    pl(p)->mat_left[pos_of("steel_1")] = 0;
    pl(p)->mat_left[pos_of("steel_2")] = 0;
    pl(p)->income_space = 19;
    pl(p)->money = 50;
    go("type:build", "card:beta", "tile:sky_20", "slot:beta.2", "market:port", "vanderbilt", NULL);
    EXPECT_EQ(G.h.phase, PP_BONUS_SELL);
    go("bonus_sell", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    int discards = 0;
    for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) discards += G.discards[c];
    EXPECT_EQ(discards, 1); /* the Build's card only */
    EXPECT_EQ(G.spaces[space("slot:alpha.0")].flipped, 1);
    EXPECT_EQ(pl(p)->money, 50 - 20 - 5 - 10 + 6);
    EXPECT_EQ(G.mspace_back[0], 1);
}

static void test_p42_manufacturer_iii_enters_flipped_with_its_reward(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    G.fields[f].barrels = 1;
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    pl(p)->mat_left[pos_of("mfg_1")] = 0;
    pl(p)->mat_left[pos_of("mfg_2")] = 0;
    hand(p, "card:alpha");
    go("type:build", "card:alpha", "tile:mfg_3", "slot:alpha.0", "vanderbilt", "vanderbilt",
       "pipeline:alpha--well_north", NULL);
    EXPECT_EQ(G.spaces[space("slot:alpha.0")].flipped, 1);
    EXPECT_EQ(pl(p)->money, 30 - 6 - 14 + 8);
    EXPECT_EQ(pl(p)->whiskey, 1);
}

/* ---------------- network ---------------- */
static void test_p43_link_must_touch_the_network(void) {
    fresh(TINY, 2, 4);
    int p = me();
    put_tile(p, "slot:alpha.0", "kero_2", 0, 0, 0);
    hand(p, "card:alpha");
    go("type:network", "card:alpha", "link_tile:light_train", NULL);
    EXPECT_EQ(why("link:alpha--beta"), PR_LEGAL);
    EXPECT_EQ(why("link:gamma--delta"), PR_NOT_ADJACENT);
    put_rail(other(), "link:alpha--port", "light_train");
    EXPECT_EQ(why("link:alpha--port"), PR_LINK_TAKEN);
}

static void test_p44_link_costs_and_either_end_delivery(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(o, "slot:beta.0", "steel_2", 0, 2, 2);
    hand(p, "card:alpha");
    pl(p)->supply[lt_of("ht_whiskey")] = 1;
    go("type:network", "card:alpha", "link_tile:ht_whiskey", "link:alpha--beta", NULL);
    EXPECT_EQ(G.h.phase, PP_STEEL); /* 2 steel, here from Beta through the new train itself */
    EXPECT_EQ(why("vanderbilt"), PR_INDUSTRY_FIRST);
    EXPECT_EQ(why("market:port"), PR_NOT_CONNECTED);
    go("slot:beta.0", "slot:beta.0", NULL);
    EXPECT_EQ(G.spaces[space("slot:beta.0")].cubes[0], 0); /* steel gone, iron left */
    EXPECT_EQ(G.spaces[space("slot:beta.0")].cubes[1], 2);
    EXPECT_EQ(pl(p)->whiskey, 1 + 1); /* Whiskey train + the route's whiskey bonus */
    EXPECT_EQ(pl(p)->heavy_built, 1);
}

static void test_p44_option_cubes_before_placement(void) {
    for (int before = 0; before < 2; before++) {
        fresh_opts(TINY, 2, 4, OPT_link_resource_delivery, before);
        int p = me(), o = other();
        put_tile(p, "slot:gamma.1", "kero_2", 0, 0, 0);
        put_tile(o, "slot:delta.2", "coal_1", 0, 1, 0);
        hand(p, "card:gamma");
        go("type:network", "card:gamma", "link_tile:light_train", "link:gamma--delta", NULL);
        /* before placement, Delta's coal is at the other end and Gamma's market is free to use */
        EXPECT_EQ(why("market:gamma"), before ? PR_LEGAL : PR_INDUSTRY_FIRST);
        EXPECT_EQ(why("slot:delta.2"), PR_LEGAL);
    }
}

static void test_p45_route_bonuses(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:delta");
    no_markets();
    go("type:network", "card:delta", "link_tile:light_train", "link:delta--port", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->income_space, 12);
    fresh(TINY, 2, 4);
    p = me();
    hand(p, "card:delta");
    no_markets();
    go("type:network", "card:delta", "link_tile:light_train", "link:gamma--delta", "vanderbilt", NULL);
    EXPECT_EQ(G.h.phase, PP_FREE_DEVELOP);
    go("tile:coal_1", NULL);
    EXPECT_EQ(pl(p)->mat_left[pos_of("coal_1")], 0);
}

static void test_p45_option_bonus_only_for_the_first_train(void) {
    fresh_opts(TINY, 2, 4, OPT_route_bonus_every_placement, 1);
    int p = me();
    G.rail_bonus_taken = 1ull << rail("link:delta--port");
    hand(p, "card:delta");
    no_markets();
    go("type:network", "card:delta", "link_tile:light_train", "link:delta--port", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->income_space, 10);
    fresh(TINY, 2, 4);
    p = me();
    G.rail_bonus_taken = 1ull << rail("link:delta--port");
    hand(p, "card:delta");
    no_markets();
    go("type:network", "card:delta", "link_tile:light_train", "link:delta--port", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->income_space, 12); /* default: every placement earns it */
}

static void test_p46_second_link_for_ten_dollars(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:alpha");
    no_markets();
    go("type:network", "card:alpha", "link_tile:light_train", "link:alpha--port", "vanderbilt", NULL);
    EXPECT_EQ(G.h.phase, PP_SECOND_LINK);
    go("link_tile:light_train", NULL);
    EXPECT_EQ(pl(p)->money, 30 - 7 - 10);
    EXPECT_EQ(pl(p)->spent, 17);
    go("link:alpha--beta", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->whiskey, 1);
    EXPECT_EQ(pl(p)->money, 30 - 7 - 10 - 7);
    EXPECT_EQ(pl(p)->supply[lt_of("light_train")], 6 - 2);
}

static void test_p47_replacement_train_and_double_link(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(o, "slot:alpha.0", "kero_2", 1, 0, 0); /* 2 link icons */
    put_rail(o, "link:alpha--port", "light_train");
    put_tile(p, "slot:alpha.1", "coal_1", 1, 0, 0); /* 1 icon; Alpha in p's network */
    pl(p)->supply[lt_of("ht_replacement")] = 1;
    hand(p, "card:alpha");
    int o_light = pl(o)->supply[lt_of("light_train")];
    go("type:network", "card:alpha", "link_tile:ht_replacement", NULL);
    EXPECT_EQ(why("link:alpha--port"), PR_LEGAL);
    go("link:alpha--port", "vanderbilt", "vanderbilt", NULL);
    EXPECT_EQ(pl(o)->vp, 2 + 1 + 2); /* Alpha's flipped tiles + Port's printed icons */
    EXPECT_EQ(pl(o)->supply[lt_of("light_train")], o_light + 1);
    EXPECT_EQ(G.rails[rail("link:alpha--port")].owner, p);
    /* a Double Link train scores twice */
    put_rail(o, "link:alpha--beta", "ht_double_link");
    PCtx cx = {&G, pgh_T(&G), NULL};
    int before = pl(o)->vp;
    pgh_score_rail(&cx, rail("link:alpha--beta"));
    EXPECT_EQ(pl(o)->vp - before, 2 * (2 + 1));
}

static void test_p48_reserve_pipeline(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    G.fields[f].tile_state = FT_GONE;
    hand(p, "card:alpha");
    go("type:network", "card:alpha", "link_tile:pipe_reserve", "pipeline:alpha--well_north", "vanderbilt", NULL);
    EXPECT_EQ(G.fields[f].barrels, 1 + 1); /* route icon + its own barrel */
    EXPECT_EQ(G.h.phase, PP_SECOND_LINK);
    go("link_tile:pipe_income2", NULL);
    EXPECT_EQ(why("pipeline:alpha--well_north"), PR_LEGAL); /* the swap */
    go("pipeline:alpha--well_north", "vanderbilt", NULL);
    EXPECT_EQ(G.fields[f].barrels, 2); /* the route's oil is not added again */
    EXPECT_EQ(pl(p)->supply[lt_of("pipe_reserve")], 1);
    EXPECT_EQ(G.pipes[pipe_("pipeline:alpha--well_north")].link_type, lt_of("pipe_income2"));
}

/* ---------------- develop ---------------- */
static void test_p49_develop_two_one_after_the_other(void) {
    fresh(TINY, 2, 4);
    int p = me();
    no_markets();
    hand(p, "card:alpha");
    go("type:develop", "card:alpha", NULL);
    EXPECT_EQ(why("tile:kero_3"), PR_NOT_ACCESSIBLE);
    go("tile:kero_2", "cube:iron", "vanderbilt", NULL);
    EXPECT_EQ(G.h.phase, PP_DEVELOP);
    EXPECT_EQ(why("tile:kero_3"), PR_LEGAL);       /* the first made it accessible */
    EXPECT_EQ(why("tile:coal_1"), PR_LEGAL);
    go("tile:kero_3", "cube:steel", "vanderbilt", NULL);
    EXPECT_EQ(pl(p)->mat_left[pos_of("kero_2")], 0);
    EXPECT_EQ(pl(p)->mat_left[pos_of("kero_3")], 1);
    EXPECT_EQ(pl(p)->money, 30 - 7 - 10);
    EXPECT_EQ(pl(p)->supply[lt_of("pipe_vp3")], 1); /* P68: released by the empty Kero II */
}

static void test_p50_develop_cube_with_no_network_only_vanderbilt(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(o, "slot:gamma.1", "steel_2", 0, 3, 3);
    hand(p, "card:alpha");
    go("type:develop", "card:alpha", "tile:coal_1", "cube:iron", NULL);
    EXPECT_EQ(why("slot:gamma.1"), PR_NOT_CONNECTED);
    EXPECT_EQ(why("market:gamma"), PR_NOT_CONNECTED);
    EXPECT_EQ(why("vanderbilt"), PR_LEGAL);
    /* with Gamma in the network the steel works must supply */
    fresh(TINY, 2, 4);
    p = me(), o = other();
    put_tile(o, "slot:gamma.1", "steel_2", 0, 3, 3);
    put_tile(p, "slot:gamma.0", "coal_1", 0, 2, 0);
    hand(p, "card:alpha");
    go("type:develop", "card:alpha", "tile:kero_2", "cube:iron", NULL);
    EXPECT_EQ(why("vanderbilt"), PR_INDUSTRY_FIRST);
    go("slot:gamma.1", NULL);
    EXPECT_EQ(G.spaces[space("slot:gamma.1")].cubes[1], 2); /* an iron of steel_2's 3 */
}

static void test_p50_option_priority_before_the_cube_choice(void) {
    for (int before = 0; before < 2; before++) {
        fresh_opts(TINY, 2, 4, OPT_develop_cube_choice_before_priority, before);
        int p = me(), o = other();
        put_tile(o, "slot:gamma.1", "steel_4", 0, 2, 0); /* steel only left */
        G.spaces[space("slot:gamma.1")].cubes[1] = 0;
        put_tile(p, "slot:gamma.0", "coal_1", 0, 2, 0);
        hand(p, "card:alpha");
        go("type:develop", "card:alpha", "tile:kero_2", NULL);
        /* default: iron may be chosen and bought; else the steel on the tile comes first */
        EXPECT_EQ(why("cube:iron"), before ? PR_INDUSTRY_FIRST : PR_LEGAL);
        EXPECT_EQ(why("cube:steel"), PR_LEGAL);
    }
}

/* ---------------- sell ---------------- */
static void test_p51_only_own_unflipped_goods_tiles_sell(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    sell_setup(p);
    put_tile(p, "slot:gamma.0", "coal_1", 0, 1, 0);
    put_tile(o, "slot:delta.1", "kero_2", 0, 0, 0);
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    G.fields[field_of("well_north")].barrels = 2;
    go("type:sell", "card:beta", NULL);
    EXPECT_EQ(why("slot:gamma.0"), PR_NOT_SELLABLE);
    EXPECT_EQ(why("slot:delta.1"), PR_NOT_YOUR_TILE);
    EXPECT_EQ(why("slot:alpha.0"), PR_LEGAL);
}

static void test_p53_merchant_pays_once_then_its_back_accepts(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    sell_setup(p);
    put_tile(p, "slot:beta.1", "mfg_2", 0, 0, 0); /* 0 oil */
    put_rail(p, "link:alpha--beta", "light_train");
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    G.fields[f].barrels = 1;
    G.mspace_tile[1] = PGH_NONE;
    go("type:sell", "card:beta", NULL);
    EXPECT_EQ(why("slot:beta.1"), PR_MERCHANT_DOES_NOT_ACCEPT); /* the front shows only kerosene */
    go("slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    if (G.h.phase == PP_QUALITY) go("done", NULL);
    EXPECT_EQ(pl(p)->money, 30 + 6);
    EXPECT_EQ(G.mspace_back[0], 1);
    PBoard b;
    G.h.current = (uint8_t)p;
    pgh_pboard(&G, p, &b);
    EXPECT_EQ(pgh_sell_merchant_reason(&G, &b, space("slot:beta.1"), 0), PR_LEGAL); /* back: M */
}

static void test_p53_option_a_tile_sells_to_every_connected_merchant(void) {
    for (int one = 0; one < 2; one++) {
        fresh_opts(TINY, 2, 4, OPT_sell_one_merchant_per_tile, one);
        int p = me(), f = field_of("well_north");
        sell_setup(p);
        set_merchant(1, "tm_kero_money6");
        put_rail(p, "link:alpha--beta", "light_train");
        put_rail(p, "link:beta--gamma", "light_train");
        put_rail(p, "link:gamma--harbor", "light_train");
        put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
        G.fields[f].barrels = 1;
        go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
        if (G.h.phase == PP_QUALITY) go("done", NULL);
        EXPECT_EQ(pl(p)->money, 30 + 6 * (one ? 2 : 1));
        EXPECT_EQ(G.mspace_back[1], one);
    }
}

static void test_p54_quality_reward_with_whiskey(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    put_tile(p, "slot:alpha.0", "kero_3", 0, 0, 0); /* 1 star */
    set_merchant(0, "tm_kero_money6");
    put_rail(p, "link:alpha--port", "light_train");
    hand(p, "card:beta");
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    G.fields[f].barrels = 1;
    pl(p)->whiskey = 3;
    G.qslot_tile[0] = 0; /* tq_vp4 at 3 stars */
    G.qslot_tile[1] = 1; /* tq_money9 at 4 stars */
    G.qslot_tile[2] = 2; /* 6 stars */
    go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    EXPECT_EQ(G.h.phase, PP_QUALITY);
    EXPECT_EQ(why("quality:6"), PR_NOT_ENOUGH_STARS);
    go("quality:4", NULL);
    EXPECT_EQ(pl(p)->whiskey, 0);
    EXPECT_EQ(pl(p)->money, 30 + 6 + 9);
    EXPECT_EQ(G.qslot_up[1], 0);
}

static void test_p55_sold_tiles_flip_for_their_income(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    sell_setup(p);
    put_pipe(p, "pipeline:alpha--well_north", "pipe_vp3");
    G.fields[f].barrels = 1;
    go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    if (G.h.phase == PP_QUALITY) go("done", NULL);
    EXPECT_EQ(G.spaces[space("slot:alpha.0")].flipped, 1);
    EXPECT_EQ(pl(p)->income_space, 15);
    EXPECT_EQ(pl(p)->vp, 3); /* own VP pipeline */
}

/* ---------------- loan and pass ---------------- */
static void test_p57_loan(void) {
    fresh(TINY, 2, 4);
    int p = me();
    pl(p)->income_space = 2; /* level -8 */
    EXPECT_EQ(why("type:loan"), PR_LOAN_LIMIT);
    pl(p)->income_space = 3; /* level -7 */
    EXPECT_EQ(why("type:loan"), PR_LEGAL);
    go("type:loan", NULL);
    discard_any();
    EXPECT_EQ(pl(p)->money, 60);
    EXPECT_EQ(pl(p)->spent, 0);
    EXPECT_EQ(pl(p)->income_space, 0);
}

static void test_p58_pass_gains_a_whiskey(void) {
    fresh(TINY, 2, 4);
    int p = me();
    go("type:pass", NULL);
    discard_any();
    EXPECT_EQ(pl(p)->whiskey, 1);
}

/* ---------------- era end ---------------- */
static void test_p60_train_scoring_counts_flipped_tiles_and_printed_icons(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(o, "slot:alpha.0", "kero_2", 1, 0, 0); /* flipped: 2 icons */
    put_tile(p, "slot:alpha.1", "coal_1", 0, 2, 0); /* unflipped: 0 */
    put_rail(p, "link:alpha--port", "light_train");
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_score_rail(&cx, rail("link:alpha--port"));
    EXPECT_EQ(pl(p)->vp, 2 + 2);
    fresh_opts(TINY, 2, 4, OPT_links_count_unflipped, 1);
    p = me(), o = other();
    put_tile(o, "slot:alpha.0", "kero_2", 1, 0, 0);
    put_tile(p, "slot:alpha.1", "coal_1", 0, 2, 0);
    put_rail(p, "link:alpha--port", "light_train");
    PCtx cx2 = {&G, pgh_T(&G), NULL};
    pgh_score_rail(&cx2, rail("link:alpha--port"));
    EXPECT_EQ(pl(p)->vp, 2 + 1 + 2);
}

static void test_p59_p61_p63_p64_era_one_end(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other(), f = field_of("well_north");
    put_rail(p, "link:alpha--port", "light_train");
    put_rail(o, "link:alpha--beta", "ht_whiskey");
    put_tile(p, "slot:alpha.1", "coal_1", 1, 0, 0);  /* level I: removed (after scoring 1) */
    put_tile(o, "slot:gamma.0", "coal_2", 0, 1, 0);  /* unflipped: stays */
    put_tile(p, "slot:beta.0", "steel_1", 0, 1, 2);  /* level I unflipped: removed */
    G.fields[f].tile_state = FT_PENDING;
    G.fields[f].tile = 0;
    G.fields[f].pending = 2;
    int light = pl(p)->supply[lt_of("light_train")];
    G.deck_size = 0;
    memset(G.deck, 0, sizeof G.deck);
    hand(0, NULL);
    hand(1, NULL);
    memset(G.discards, 0, sizeof G.discards);
    G.discards[0] = 30; /* the era's face-up discards (30 + 2 face-down = 32) */
    end_round_now();
    EXPECT_EQ(G.h.era, 1);
    EXPECT_EQ(G.h.round, 1);
    EXPECT_EQ(G.h.actions_left, 2);
    EXPECT_EQ(G.rails[rail("link:alpha--port")].owner, -1);
    EXPECT_EQ(pl(p)->supply[lt_of("light_train")], light + 1);
    EXPECT_EQ(G.rails[rail("link:alpha--beta")].owner, o);
    EXPECT_EQ(G.spaces[space("slot:alpha.1")].owner, -1);
    EXPECT_EQ(G.spaces[space("slot:beta.0")].owner, -1);
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].owner, o);
    EXPECT_EQ(G.fields[f].barrels, 2);
    EXPECT_EQ(G.fields[f].tile_state, FT_GONE);
    EXPECT_EQ(pl(0)->hand_size, 8);
    EXPECT_EQ(pl(1)->hand_size, 8);
    EXPECT_EQ(G.deck_size, 32 - 16);
    EXPECT_EQ(pl(p)->facedown_card, PGH_NONE);
    /* trains: Alpha-Port 1 (coal_1 flipped) + 2 (Port); tiles: coal_1 1 */
    EXPECT_EQ(pl(p)->vp, 3 + 1);
}

static void test_p62_industry_scoring_flipped_only_every_era(void) {
    fresh(TINY, 2, 4);
    int p = me();
    put_tile(p, "slot:alpha.0", "kero_2", 1, 0, 0);
    put_tile(p, "slot:delta.1", "kero_3", 0, 0, 0);
    G.h.era = 1;
    G.deck_size = 0;
    hand(0, NULL);
    hand(1, NULL);
    end_round_now();
    EXPECT_EQ(pl(p)->vp, 4);
    EXPECT_EQ(G.h.game_over, 1);
}


static void test_p24_link_cubes_come_to_either_end(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(p, "slot:gamma.1", "kero_2", 0, 0, 0);
    put_tile(o, "slot:delta.2", "coal_1", 0, 1, 0);
    hand(p, "card:gamma");
    go("type:network", "card:gamma", "link_tile:light_train", "link:gamma--delta", NULL);
    EXPECT_EQ(G.h.phase, PP_COAL);
    EXPECT_EQ(why("market:gamma"), PR_INDUSTRY_FIRST); /* Delta's coal, through the new train */
    EXPECT_EQ(why("slot:delta.2"), PR_LEGAL);
}

static void test_p36_no_overbuilding(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    put_tile(p, "slot:alpha.0", "kero_2", 1, 0, 0);
    put_tile(o, "slot:gamma.0", "coal_1", 1, 0, 0);
    pl(p)->mat_left[pos_of("kero_2")] = 0;
    G.h.era = 1;
    EXPECT_EQ(place_reason("card:alpha", "kero_3", "slot:alpha.0"), PR_SLOT_OCCUPIED);
    EXPECT_EQ(place_reason("card:gamma", "coal_1", "slot:gamma.0"), PR_SLOT_OCCUPIED);
}

static void test_p36_option_birmingham_overbuild(void) {
    /* an own tile of the same industry and a lower level, even unflipped and in era 1 */
    fresh_opts(TINY, 2, 4, OPT_birmingham_overbuild, 1);
    int p = me(), o = other();
    put_tile(p, "slot:alpha.0", "kero_2", 0, 0, 0);
    put_tile(p, "slot:delta.1", "kero_3", 0, 0, 0);
    put_tile(o, "slot:beta.0", "steel_1", 1, 0, 0);
    pl(p)->mat_left[pos_of("kero_2")] = 0;
    EXPECT_EQ(place_reason("card:delta", "kero_2", "slot:delta.1"), PR_SLOT_OCCUPIED); /* not lower */
    EXPECT_EQ(place_reason("card:alpha", "mfg_1", "slot:alpha.0"), PR_SLOT_OCCUPIED);  /* other industry */
    hand(p, "card:alpha");
    int vp = pl(p)->vp;
    go("type:build", "card:alpha", "tile:kero_3", "slot:alpha.0", "vanderbilt", NULL); /* $9 + coal $7 */
    const PghSpace *sp = &G.spaces[space("slot:alpha.0")];
    EXPECT_EQ(sp->owner, p);
    EXPECT_EQ(sp->tile, tile_of("kero_3"));
    EXPECT_EQ(sp->flipped, 0);
    EXPECT_EQ(pl(p)->vp, vp); /* the old tile scores nothing */
    EXPECT_EQ(pl(p)->money, 30 - 9 - 7);
    EXPECT_EQ(pl(p)->mat_left[pos_of("kero_3")], 1);
    /* an opponent's coal only when no coal is left on a tile or in a market */
    fresh_opts(TINY, 2, 4, OPT_birmingham_overbuild, 1);
    p = me(), o = other();
    put_tile(o, "slot:gamma.0", "coal_1", 1, 0, 0);
    put_tile(o, "slot:delta.2", "coal_1", 0, 1, 0);
    pl(p)->mat_left[pos_of("coal_1")] = 0;
    EXPECT_EQ(place_reason("card:gamma", "coal_2", "slot:gamma.0"), PR_SLOT_OCCUPIED); /* cubes on delta */
    G.spaces[space("slot:delta.2")].cubes[0] = 0;
    G.spaces[space("slot:delta.2")].flipped = 1;
    EXPECT_EQ(place_reason("card:gamma", "coal_2", "slot:gamma.0"), PR_SLOT_OCCUPIED); /* coal in a market */
    no_markets();
    EXPECT_EQ(place_reason("card:gamma", "coal_2", "slot:gamma.0"), PR_LEGAL);
    put_tile(o, "slot:gamma.1", "kero_2", 1, 0, 0); /* not coal or iron & steel */
    EXPECT_EQ(place_reason("card:gamma", "kero_3", "slot:gamma.1"), PR_SLOT_OCCUPIED);
    hand(p, "card:gamma");
    int ovp = pl(o)->vp;
    go("type:build", "card:gamma", "tile:coal_2", "slot:gamma.0", "vanderbilt", /* $8 + iron $7 */
       "market:gamma", "market:gamma", NULL);                                   /* 2 of 4 coal sold */
    sp = &G.spaces[space("slot:gamma.0")];
    EXPECT_EQ(sp->owner, p);
    EXPECT_EQ(sp->tile, tile_of("coal_2"));
    EXPECT_EQ(sp->cubes[0], 2);
    EXPECT_EQ(pl(o)->vp, ovp);
    EXPECT_EQ(pl(p)->money, 30 - 8 - 7 + 3 + 3);
    EXPECT_EQ(pl(p)->vp, 1); /* the second cube fills the 1 VP slot */
    /* the default (P36): no overbuilding at all */
    fresh(TINY, 2, 4);
    put_tile(me(), "slot:alpha.0", "kero_2", 0, 0, 0);
    EXPECT_EQ(place_reason("card:alpha", "kero_3", "slot:alpha.0"), PR_SLOT_OCCUPIED);
}

static void test_p52_each_tile_needs_its_printed_oil(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    sell_setup(p);
    put_tile(p, "slot:alpha.0", "kero_4", 0, 0, 0); /* 2 oil */
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    G.fields[f].barrels = 1;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_NO_OIL);
    G.fields[f].barrels = 2;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_LEGAL);
    go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north",
       "pipeline:alpha--well_north", NULL);
    EXPECT_EQ(G.fields[f].barrels, 0);
    EXPECT_EQ(pl(p)->income_space, 10 + 2 + 2); /* own income pipeline, per barrel */
}

static void test_p56_rewards_after_all_tiles_one_merchant_pays_once(void) {
    fresh(TINY, 2, 4);
    int p = me(), f = field_of("well_north");
    sell_setup(p);
    put_tile(p, "slot:beta.1", "mfg_2", 0, 0, 0); /* no oil; accepted by tm_mfg_auto_vp3 */
    put_tile(p, "slot:delta.1", "kero_2", 0, 0, 0);
    put_rail(p, "link:alpha--beta", "light_train");
    put_rail(p, "link:delta--port", "light_train");
    put_pipe(p, "pipeline:alpha--well_north", "pipe_vp3");
    set_merchant(1, "tm_mfg_auto_vp3");
    put_rail(p, "link:beta--gamma", "light_train");
    put_rail(p, "link:gamma--harbor", "light_train");
    G.fields[f].barrels = 2;
    go("type:sell", "card:beta", "slot:alpha.0", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    EXPECT_EQ(why("slot:beta.1"), PR_LEGAL);
    EXPECT_EQ(why("slot:delta.1"), PR_LEGAL);
    go("slot:beta.1", "merchant:harbor.0", "slot:delta.1", "merchant:port.0", "pipeline:alpha--well_north", NULL);
    if (G.h.phase == PP_QUALITY) go("done", NULL);
    EXPECT_EQ(pl(p)->money, 30 + 6);         /* Port's front once */
    EXPECT_EQ(pl(p)->vp, 3 + 3 + 3);          /* Harbor's front + 2 barrels through the VP pipeline */
    EXPECT_EQ(G.mspace_back[0] && G.mspace_back[1], 1);
    EXPECT_EQ(pl(p)->income_space, 10 + 5 + 2 + 5);
}

static void test_p66_mat_paths_and_stacks(void) {
    fresh(DRAFT, 2, 4);
    int total = 0;
    for (int pos = 0; pos < pgh_T(&G)->num_positions; pos++) total += pl(0)->mat_left[pos];
    EXPECT_EQ(total, 36);
    EXPECT_EQ(pl(0)->mat_left[pos_of("kero_3")], 3);
    EXPECT_EQ(pl(0)->mat_left[pos_of("auto_6")], 3);
    EXPECT_EQ(pgh_accessible_positions(&G, 0),
              (1u << pos_of("kero_2")) | (1u << pos_of("coal_1")) | (1u << pos_of("mfg_1")) |
                  (1u << pos_of("coke_1")) | (1u << pos_of("steel_1")));
}

static void test_p65_winner_vp_then_income_then_money(void) {
    fresh(TINY, 3, 4);
    pl(0)->vp = 50; pl(1)->vp = 50; pl(2)->vp = 50;
    pl(0)->income_space = 20; pl(1)->income_space = 30; pl(2)->income_space = 30;
    pl(0)->money = 99; pl(1)->money = 5; pl(2)->money = 6;
    uint8_t r[4];
    pgh_score_order(&G, r);
    EXPECT_EQ(r[0], 2);
    EXPECT_EQ(r[1], 1);
    EXPECT_EQ(r[2], 0);
}

/* ---------------- mat ---------------- */
static void test_p67_shortcuts(void) {
    fresh(TINY, 2, 4);
    int p = me();
    EXPECT(!pgh_position_accessible(&G, p, pos_of("mfg_4")));
    pl(p)->mat_left[pos_of("mfg_1")] = 0;
    pl(p)->mat_left[pos_of("mfg_2")] = 0;
    pl(p)->mat_left[pos_of("mfg_3")] = 0;
    EXPECT(pgh_position_accessible(&G, p, pos_of("mfg_4")));
    fresh_opts(TINY, 2, 4, OPT_mat_shortcut_semantics, 2);
    p = me();
    pl(p)->mat_left[pos_of("mfg_3")] = 0;
    EXPECT(!pgh_position_accessible(&G, p, pos_of("mfg_4")));
    fresh(TINY, 2, 4);
    p = me();
    pl(p)->mat_left[pos_of("auto_6")] = 0;
    EXPECT(pgh_position_accessible(&G, p, pos_of("loco_works")));
    fresh_opts(TINY, 2, 4, OPT_auto_vi_unlocks_loco_works, 1);
    p = me();
    pl(p)->mat_left[pos_of("auto_6")] = 0;
    EXPECT(!pgh_position_accessible(&G, p, pos_of("loco_works")));
}

static void test_p68_link_moves_to_the_supply_when_the_position_below_empties(void) {
    fresh(DRAFT, 2, 4);
    int p = me();
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_mat_take(&cx, p, pos_of("kero_2"));
    EXPECT_EQ(pl(p)->supply[lt_of("pipe_vp3")], 0); /* one Kero II left */
    pgh_mat_take(&cx, p, pos_of("kero_2"));
    EXPECT_EQ(pl(p)->supply[lt_of("pipe_vp3")], 1);
}

static void test_p70_description_names_draft_and_placeholders(void) {
    const PghTables *T = pgh_tables(DRAFT);
    EXPECT(strstr(T->description, "v2026.01") != NULL);
    for (const char *const *ph = (const char *const[]){"PH1", "PH2", "PH3", "PH4", "PH5", "PH6", NULL}; *ph; ph++)
        EXPECT(strstr(T->description, *ph) != NULL && strstr(T->placeholders, *ph) != NULL);
    EXPECT(strstr(pgh_tables(TINY)->description, "no placeholder") != NULL);
}

static void test_options_refuse_unknown_and_unimplemented_values(void) {
    PghOptions o = {.players = 3, .auto_resolve = 1};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
    char err[128] = "";
    o.values[OPT_market_slot_order] = 1;
    EXPECT_EQ(pgh_new(&G, &o, 1, err, sizeof err), BRASS_E_BAD_ARGUMENT);
    EXPECT(!strcmp(err, "market_slot_order: value 'player_choice' is not implemented"));
    o.values[OPT_market_slot_order] = 7;
    EXPECT_EQ(pgh_new(&G, &o, 1, err, sizeof err), BRASS_E_BAD_ARGUMENT);
    EXPECT(!strcmp(err, "market_slot_order: unknown value 7"));
    EXPECT_EQ(pgh_option_index("no_such_option"), -1);
    EXPECT_EQ(pgh_option_value_index(OPT_mfg_v_vp, "11"), 1);
    o.values[OPT_market_slot_order] = -1;
    EXPECT_EQ(pgh_new(&G, &o, 1, err, sizeof err), BRASS_OK);
    EXPECT_EQ(G.options[OPT_mfg_v_vp], 0);
}


/* ---------------- alternative option values (one exact outcome each) ---------------- */
static void test_options_income_cost_in_spaces(void) {
    for (int spaces = 0; spaces < 2; spaces++) {
        fresh_opts(TINY, 2, 4, OPT_income_cost_unit, spaces);
        int p = me();
        pl(p)->mat_left[pos_of("kero_2")] = 0;
        pl(p)->income_space = 19; /* level 5 */
        hand(p, "card:alpha");
        go("type:build", "card:alpha", "tile:kero_3", "slot:alpha.0", "vanderbilt", NULL);
        EXPECT_EQ(pl(p)->income_space, spaces ? 17 : 16); /* 2 spaces, or 2 levels onto level 3's top */
    }
}

static void test_options_oil_train_and_network_and_oil_city_pipeline(void) {
    fresh_opts(TINY, 2, 4, OPT_oil_sources, 1);
    int p = me();
    sell_setup(p);
    put_rail(p, "link:alpha--beta", "ht_resource_oil");
    G.rails[rail("link:alpha--beta")].cargo = 1;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_NO_OIL);
    fresh(TINY, 2, 4);
    p = me();
    sell_setup(p);
    put_rail(p, "link:alpha--beta", "ht_resource_oil");
    G.rails[rail("link:alpha--beta")].cargo = 1;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_LEGAL); /* default: the own oil train */
    fresh_opts(TINY, 2, 4, OPT_pipeline_joins_network, 1);
    p = me();
    put_pipe(p, "pipeline:gamma--well_south", "pipe_income2");
    EXPECT_EQ(place_reason("card:kerosene", "kero_2", "slot:gamma.1"), PR_CARD_DOES_NOT_ALLOW);
    fresh_opts(TINY, 2, 4, OPT_oil_city_requires, 2);
    p = me();
    G.h.era = 1;
    put_pipe(other(), "pipeline:gamma--well_south", "pipe_vp3");
    EXPECT_EQ(place_reason("card:kerosene", "oil_city", "oilfield:well_south"), PR_LEGAL);
    EXPECT_EQ(place_reason("card:kerosene", "oil_city", "oilfield:well_north"), PR_NO_PIPELINE_TO_NETWORK);
}

static void test_options_replacement_and_market_sale_and_east(void) {
    fresh_opts(TINY, 2, 4, OPT_replacement_on_empty_route, 1);
    int p = me();
    pl(p)->supply[lt_of("ht_replacement")] = 1;
    hand(p, "card:alpha");
    go("type:network", "card:alpha", "link_tile:light_train", NULL);
    G.pend.link_type = (uint8_t)lt_of("ht_replacement");
    EXPECT_EQ(why("link:alpha--port"), PR_CANNOT_REPLACE);
    fresh_opts(TINY, 2, 4, OPT_market_sale_on_build, 1);
    p = me();
    int m = mkt("market:gamma"), col;
    pgh_market_sells(pgh_T(&G), m, CUBE_COAL, &col);
    G.market_fill[m][col] = 0;
    pl(p)->mat_left[pos_of("coal_1")] = 0;
    hand(p, "card:gamma");
    go("type:build", "card:gamma", "tile:coal_2", "slot:gamma.0", "vanderbilt", NULL);
    EXPECT_EQ(why("done"), PR_LEGAL);
    go("done", NULL);
    EXPECT_EQ(G.spaces[space("slot:gamma.0")].cubes[0], 4);
    fresh_opts(DRAFT, 3, 4, OPT_east_location, 1);
    hand(me(), "card:rochester");
    go("type:network", "card:rochester", "link_tile:light_train", NULL);
    EXPECT_EQ(why("link:rochester--the_east"), PR_ROUTE_CLOSED);
}

static void test_options_merchants_bankruptcy_and_values(void) {
    fresh_opts(TINY, 2, 4, OPT_merchant_back_accepts, 1);
    int p = me();
    sell_setup(p);
    put_pipe(p, "pipeline:alpha--well_north", "pipe_income2");
    G.fields[field_of("well_north")].barrels = 1;
    G.mspace_tile[1] = PGH_NONE;
    G.mspace_back[0] = 1;
    EXPECT_EQ(sell_reason("slot:alpha.0"), PR_MERCHANT_DOES_NOT_ACCEPT);
    fresh_opts(TINY, 2, 4, OPT_bankruptcy_payment, 1);
    p = G.turn_order[0];
    pl(p)->income_space = 5;
    pl(p)->money = 2;
    end_round_now();
    EXPECT_EQ(pl(p)->money, 0);
    EXPECT_EQ(pl(p)->vp, -40);
    fresh_opts(TINY, 2, 4, OPT_skyscraper_values, 1);
    EXPECT_EQ(pgh_tile_vp(&G, 0, tile_of("sky_40")), 20);
    fresh_opts(TINY, 2, 4, OPT_mfg_ii_vp_rule, 2);
    EXPECT_EQ(pgh_tile_vp(&G, 0, tile_of("mfg_2")), 5);
    fresh_opts(TINY, 2, 4, OPT_location_link_icons_count, 1);
    p = me();
    put_rail(p, "link:alpha--port", "light_train");
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_score_rail(&cx, rail("link:alpha--port"));
    EXPECT_EQ(pl(p)->vp, 0);
}

static void test_options_reserve_upgrade_card_and_link_unlock(void) {
    fresh_opts(TINY, 2, 4, OPT_reserve_adds_route_oil, 1);
    int p = me(), f = field_of("well_north");
    G.fields[f].tile_state = FT_GONE;
    hand(p, "card:alpha");
    go("type:network", "card:alpha", "link_tile:pipe_reserve", "pipeline:alpha--well_north", "vanderbilt", NULL);
    EXPECT_EQ(G.fields[f].barrels, 1); /* its own barrel only */
    fresh_opts(TINY, 2, 4, OPT_upgrade_card_industry, 3);
    p = me();
    put_tile(p, "slot:gamma.0", "coal_1", 1, 0, 0);
    EXPECT_EQ(place_reason("card:coal", "coke_1", "slot:gamma.0"), PR_CARD_DOES_NOT_ALLOW);
    pl(p)->money = 60;
    EXPECT_EQ(place_reason("card:gamma", "coke_1", "slot:gamma.0"), PR_LEGAL);
    fresh_opts(DRAFT, 2, 4, OPT_link_unlock, 1);
    p = me();
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_mat_take(&cx, p, pos_of("kero_2"));
    EXPECT_EQ(pl(p)->supply[lt_of("pipe_vp3")], 1); /* the first tile below taken */
}

#define T(name) {#name, name}
static const struct {
    const char *name;
    void (*fn)(void);
} TESTS[] = {
    T(test_p01_deck_keeps_cards_for_the_player_count), T(test_p02_eight_cards_and_one_face_down),
    T(test_p03_merchants_front_up_and_the_15_dollar_tile_out_in_2p), T(test_p04_oilfield_tiles_face_down_one_each),
    T(test_p05_three_quality_tiles_revealed), T(test_p06_markets_filled_one_coke_per_column),
    T(test_p07_players_start), T(test_p08_two_players_close_the_east),
    T(test_p09_first_round_one_action_then_two), T(test_p10_pass_discards_one_and_the_hand_refills),
    T(test_p11_turn_order_by_money_spent_ties_keep_order), T(test_p12_decreases_are_levels_onto_the_top_space),
    T(test_p13_income_every_round_but_the_last), T(test_p14_bankruptcy), T(test_p15_whiskey_cap_and_any_card_build),
    T(test_p16_pipeline_puts_its_city_in_the_network), T(test_p17_link_only_location_icons_score),
    T(test_p17_option_cincinnati_not_a_location), T(test_p18_pipelines_never_connect), T(test_p19_connected_industry_cube_first_and_free),
    T(test_p19_option_nearest_tile), T(test_p20_own_resource_train_even_when_a_tile_could_supply), T(test_p21_markets_connected_at_their_fixed_price),
    T(test_p22_buy_takes_the_lowest_filled_slot_sales_fill_the_top_empty), T(test_p23_vanderbilt_anywhere_at_his_price), T(test_p22_option_header_squares_are_slots),
    T(test_p25_p26_pipeline_route_oil_and_era1_reveal_pending), T(test_p27_oil_leaves_a_field_only_through_a_pipeline),
    T(test_p28_each_barrel_pays_the_pipeline_owner), T(test_p29_manufacturer_iii_consumes_oil),
    T(test_p30_pending_oil_is_not_usable), T(test_p31_industry_card_needs_the_network), T(test_p32_era_marks),
    T(test_p33_single_icon_space_first_and_one_tile_per_location), T(test_p34_build_needs_all_of_its_cost),
    T(test_p35_upgrade_replaces_an_own_flipped_tile_and_scores_it), T(test_p37_manufacturer_ii_scores_the_income_level),
    T(test_p38_new_tile_sells_as_many_cubes_as_fit_builder_chooses), T(test_p39_oil_city),
    T(test_p40_polyphase_pays_twice_the_income_level), T(test_p40_locomotive_works_three_free_develops),
    T(test_p40_option_polyphase_pays_for_a_negative_income),
    T(test_p41_skyscraper_bonus_sell_without_a_card), T(test_p42_manufacturer_iii_enters_flipped_with_its_reward),
    T(test_p43_link_must_touch_the_network), T(test_p44_link_costs_and_either_end_delivery), T(test_p45_route_bonuses),
    T(test_p45_option_bonus_only_for_the_first_train), T(test_p27_option_oil_city_first),
    T(test_p44_option_cubes_before_placement), T(test_p46_second_link_for_ten_dollars), T(test_p47_replacement_train_and_double_link), T(test_p48_reserve_pipeline),
    T(test_p49_develop_two_one_after_the_other), T(test_p50_develop_cube_with_no_network_only_vanderbilt),
    T(test_p50_option_priority_before_the_cube_choice), T(test_p51_only_own_unflipped_goods_tiles_sell), T(test_p53_merchant_pays_once_then_its_back_accepts),
    T(test_p53_option_a_tile_sells_to_every_connected_merchant), T(test_p54_quality_reward_with_whiskey), T(test_p55_sold_tiles_flip_for_their_income), T(test_p57_loan),
    T(test_p58_pass_gains_a_whiskey), T(test_p60_train_scoring_counts_flipped_tiles_and_printed_icons),
    T(test_p59_p61_p63_p64_era_one_end), T(test_p62_industry_scoring_flipped_only_every_era),
    T(test_p65_winner_vp_then_income_then_money), T(test_p24_link_cubes_come_to_either_end),
    T(test_p36_no_overbuilding), T(test_p36_option_birmingham_overbuild), T(test_p52_each_tile_needs_its_printed_oil),
    T(test_p56_rewards_after_all_tiles_one_merchant_pays_once), T(test_p66_mat_paths_and_stacks), T(test_p67_shortcuts),
    T(test_p68_link_moves_to_the_supply_when_the_position_below_empties),
    T(test_p70_description_names_draft_and_placeholders), T(test_options_refuse_unknown_and_unimplemented_values), T(test_options_income_cost_in_spaces),
    T(test_options_oil_train_and_network_and_oil_city_pipeline), T(test_options_replacement_and_market_sale_and_east),
    T(test_options_merchants_bankruptcy_and_values), T(test_options_reserve_upgrade_card_and_link_unlock),
};

int main(int argc, char **argv) {
    int n = (int)(sizeof TESTS / sizeof TESTS[0]), ran = 0, bad = 0;
    if (argc > 1 && !strcmp(argv[1], "list")) {
        for (int i = 0; i < n; i++) puts(TESTS[i].name);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], "all") && strcmp(argv[1], TESTS[i].name)) continue;
        current_test = TESTS[i].name;
        failed = 0;
        TESTS[i].fn();
        printf("%s %s\n", failed ? "FAIL" : "ok", TESTS[i].name);
        bad += failed;
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no such test\n");
        return 2;
    }
    return bad != 0;
}
