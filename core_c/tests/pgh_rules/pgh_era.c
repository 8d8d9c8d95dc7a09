/* Conformance tests of src/pittsburgh/pgh_era.c: turns, rounds, income, bankruptcy, era and game end (P9-P14, P59-P65).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
