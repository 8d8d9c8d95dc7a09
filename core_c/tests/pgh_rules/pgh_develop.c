/* Conformance tests of src/pittsburgh/pgh_develop.c: develop (P49-P50).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
