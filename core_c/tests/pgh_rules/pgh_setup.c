/* Conformance tests of src/pittsburgh/pgh_setup.c: setup (P1-P8).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
