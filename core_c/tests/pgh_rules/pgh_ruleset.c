/* Conformance tests of src/pittsburgh/pgh_ruleset.c: the table sets and the rule-choice options (P70, options).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

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
