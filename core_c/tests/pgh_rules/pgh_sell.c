/* Conformance tests of src/pittsburgh/pgh_sell.c: sell (P51-P56).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
