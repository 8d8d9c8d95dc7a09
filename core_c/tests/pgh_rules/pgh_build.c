/* Conformance tests of src/pittsburgh/pgh_build.c: build (P31-P42).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
    EXPECT_EQ(why("type:build"), PR_ONE_TILE_PER_LOCATION); /* what blocks it (docs/DECISIONS.md) */
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

/* Refusals above the place say what blocks the best candidate (docs/DECISIONS.md, Birmingham's
   rule): the place the card allows (P31), not the first one in board order. */
static void test_p31_p34_a_card_that_builds_nothing_says_why(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:alpha");
    go("type:build", NULL);
    pl(p)->money = 5; /* P34: kero_2 $7, coal_1 $5 + an iron at $7, mfg_1 $12 */
    EXPECT_EQ(why("card:alpha"), PR_NOT_ENOUGH_MONEY);
    fresh(TINY, 2, 4);
    p = me();
    hand(p, "card:alpha");
    pl(p)->money = 5;
    EXPECT_EQ(why("type:build"), PR_NOT_ENOUGH_MONEY);
}

static void test_p33_a_card_blocked_by_one_tile_per_location_says_so(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:alpha");
    go("type:build", NULL);
    put_tile(p, "slot:alpha.1", "coal_1", 0, 2, 0);
    EXPECT_EQ(why("card:alpha"), PR_ONE_TILE_PER_LOCATION);
}

static void test_p12_p31_a_tile_refused_where_its_card_allows_it(void) {
    fresh(TINY, 2, 4);
    int p = me();
    hand(p, "card:delta");
    go("type:build", "card:delta", NULL); /* mfg_1 on delta.0 is possible */
    pl(p)->income_space = 0; /* kero_2 costs a level (P12); its only place the card allows is delta.1 */
    EXPECT_EQ(why("tile:kero_2"), PR_INCOME_TOO_LOW);
    EXPECT_EQ(why("tile:mfg_1"), PR_LEGAL);
}

static void test_p39_oil_city_refused_at_the_field_with_a_pipeline(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    G.h.era = 1;
    pl(p)->mat_left[pos_of("kero_2")] = 0;
    pl(p)->mat_left[pos_of("kero_3")] = 0;
    pl(p)->mat_left[pos_of("kero_4")] = 0;
    pl(p)->income_space = 19;
    hand(p, "card:kerosene");
    put_pipe(o, "pipeline:gamma--well_south", "pipe_vp3");
    put_tile(p, "slot:gamma.1", "kero_3", 1, 0, 0);
    go("type:build", "card:kerosene", NULL);
    /* well_north has no pipeline to the network; well_south has one, but 4 levels of income
       are more than are left */
    pl(p)->income_space = 2;
    EXPECT_EQ(why("tile:oil_city"), PR_INCOME_TOO_LOW);
    pl(p)->income_space = 19;
    EXPECT_EQ(why("tile:oil_city"), PR_LEGAL);
}

static void test_p35_an_upgrade_refused_at_the_tile_its_card_allows(void) {
    fresh(TINY, 2, 4);
    int p = me(), o = other();
    hand(p, "card:delta");
    go("type:build", "card:delta", NULL);
    put_tile(o, "slot:alpha.1", "coal_1", 1, 0, 0); /* first in board order: not one's own */
    put_tile(p, "slot:delta.2", "coal_1", 0, 2, 0); /* the card's place: not flipped yet */
    EXPECT_EQ(why("tile:coke_1"), PR_NOT_AN_UPGRADE_TARGET);
    /* with no tile to upgrade at all */
    memset(&G.spaces[space("slot:delta.2")], 0, sizeof G.spaces[0]);
    G.spaces[space("slot:delta.2")].owner = -1;
    EXPECT_EQ(why("tile:coke_1"), PR_CARD_DOES_NOT_ALLOW);
}
