/* Conformance tests of src/pittsburgh/pgh_network.c: network (P43-P48).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
