/* Conformance tests of src/pittsburgh/pgh_board.c: the income track, whiskey, locations, connections, tile values and the mat (P12, P15-P18, P37, P40, P66-P68).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

static void test_p12_decreases_are_levels_onto_the_top_space(void) {
    fresh(DRAFT, 2, 4);
    EXPECT_EQ(pgh_income_after_levels(&G, 10, 3), 7);  /* level 0 -> -3, space 7 */
    EXPECT_EQ(pgh_income_after_levels(&G, 19, 2), 16); /* level 5 -> 3, top space 16 */
    EXPECT_EQ(pgh_income_after_levels(&G, 2, 3), -1);  /* below -10 */
    pgh_income_up(&G, 0, 95);
    EXPECT_EQ(pl(0)->income_space, 99);
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
