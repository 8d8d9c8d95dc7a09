/* Conformance tests of src/pittsburgh/pgh_resources.c: sourcing cubes (P19-P24).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
