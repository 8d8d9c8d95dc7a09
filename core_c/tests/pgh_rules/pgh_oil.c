/* Conformance tests of src/pittsburgh/pgh_oil.c: oil (P25-P30).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
