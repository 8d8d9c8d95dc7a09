/* Pittsburgh conformance tests: one per ruling (test_pNN_...), each sets up an explicit
   position, acts through the public decisions and checks the exact outcome.
   Most use the synthetic tiny table set (core_c/data/pittsburgh_tiny.json), so they do not
   lean on the draft's placeholder values; a few check the draft map's own printed data.
   The tests live in core_c/tests/pgh_rules/, one file per rule file of src/pittsburgh/
   (a rule and its test share a name), included here into one program.
   Usage: pgh_rules list | pgh_rules <test name> | pgh_rules all */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "pittsburgh/pgh_internal.h"

#include "pgh_rules/support.h"

#include "pgh_rules/pgh_setup.c"
#include "pgh_rules/pgh_era.c"
#include "pgh_rules/pgh_board.c"
#include "pgh_rules/pgh_resources.c"
#include "pgh_rules/pgh_oil.c"
#include "pgh_rules/pgh_build.c"
#include "pgh_rules/pgh_network.c"
#include "pgh_rules/pgh_develop.c"
#include "pgh_rules/pgh_sell.c"
#include "pgh_rules/pgh_loan_pass.c"
#include "pgh_rules/pgh_ruleset.c"

#define T(name) {#name, name}
static const struct {
    const char *name;
    void (*fn)(void);
} TESTS[] = {
    T(test_p01_deck_keeps_cards_for_the_player_count), T(test_p02_eight_cards_and_one_face_down),
    T(test_p03_merchants_front_up_and_the_15_dollar_tile_out_in_2p), T(test_p04_oilfield_tiles_face_down_one_each),
    T(test_p05_three_quality_tiles_revealed), T(test_p06_markets_filled_one_coke_per_column),
    T(test_p07_players_start), T(test_p08_two_players_close_the_east),
    T(test_p09_first_round_one_action_then_two), T(test_p10_pass_discards_one_and_the_hand_refills),
    T(test_p11_turn_order_by_money_spent_ties_keep_order), T(test_p12_decreases_are_levels_onto_the_top_space),
    T(test_p13_income_every_round_but_the_last), T(test_p14_bankruptcy), T(test_p15_whiskey_cap_and_any_card_build),
    T(test_p16_pipeline_puts_its_city_in_the_network), T(test_p17_link_only_location_icons_score),
    T(test_p17_option_cincinnati_not_a_location), T(test_p18_pipelines_never_connect), T(test_p19_connected_industry_cube_first_and_free),
    T(test_p19_option_nearest_tile), T(test_p20_own_resource_train_even_when_a_tile_could_supply), T(test_p21_markets_connected_at_their_fixed_price),
    T(test_p22_buy_takes_the_lowest_filled_slot_sales_fill_the_top_empty), T(test_p23_vanderbilt_anywhere_at_his_price), T(test_p22_option_header_squares_are_slots),
    T(test_p25_p26_pipeline_route_oil_and_era1_reveal_pending), T(test_p27_oil_leaves_a_field_only_through_a_pipeline),
    T(test_p28_each_barrel_pays_the_pipeline_owner), T(test_p29_manufacturer_iii_consumes_oil),
    T(test_p30_pending_oil_is_not_usable), T(test_p31_industry_card_needs_the_network), T(test_p32_era_marks),
    T(test_p33_single_icon_space_first_and_one_tile_per_location), T(test_p34_build_needs_all_of_its_cost),
    T(test_p35_upgrade_replaces_an_own_flipped_tile_and_scores_it), T(test_p37_manufacturer_ii_scores_the_income_level),
    T(test_p38_new_tile_sells_as_many_cubes_as_fit_builder_chooses), T(test_p39_oil_city),
    T(test_p40_polyphase_pays_twice_the_income_level), T(test_p40_locomotive_works_three_free_develops),
    T(test_p40_option_polyphase_pays_for_a_negative_income),
    T(test_p41_skyscraper_bonus_sell_without_a_card), T(test_p42_manufacturer_iii_enters_flipped_with_its_reward),
    T(test_p43_link_must_touch_the_network), T(test_p44_link_costs_and_either_end_delivery), T(test_p45_route_bonuses),
    T(test_p45_option_bonus_only_for_the_first_train), T(test_p27_option_oil_city_first),
    T(test_p44_option_cubes_before_placement), T(test_p46_second_link_for_ten_dollars), T(test_p47_replacement_train_and_double_link), T(test_p48_reserve_pipeline),
    T(test_p49_develop_two_one_after_the_other), T(test_p50_develop_cube_with_no_network_only_vanderbilt),
    T(test_p50_option_priority_before_the_cube_choice), T(test_p51_only_own_unflipped_goods_tiles_sell), T(test_p53_merchant_pays_once_then_its_back_accepts),
    T(test_p53_option_a_tile_sells_to_every_connected_merchant), T(test_p54_quality_reward_with_whiskey), T(test_p55_sold_tiles_flip_for_their_income), T(test_p57_loan),
    T(test_p58_pass_gains_a_whiskey), T(test_p60_train_scoring_counts_flipped_tiles_and_printed_icons),
    T(test_p59_p61_p63_p64_era_one_end), T(test_p62_industry_scoring_flipped_only_every_era),
    T(test_p65_winner_vp_then_income_then_money), T(test_p24_link_cubes_come_to_either_end),
    T(test_p36_no_overbuilding), T(test_p36_option_birmingham_overbuild),
    T(test_p31_p34_a_card_that_builds_nothing_says_why), T(test_p33_a_card_blocked_by_one_tile_per_location_says_so),
    T(test_p12_p31_a_tile_refused_where_its_card_allows_it), T(test_p39_oil_city_refused_at_the_field_with_a_pipeline),
    T(test_p35_an_upgrade_refused_at_the_tile_its_card_allows), T(test_p52_each_tile_needs_its_printed_oil),
    T(test_p56_rewards_after_all_tiles_one_merchant_pays_once), T(test_p66_mat_paths_and_stacks), T(test_p67_shortcuts),
    T(test_p68_link_moves_to_the_supply_when_the_position_below_empties),
    T(test_p70_description_names_draft_and_placeholders), T(test_options_refuse_unknown_and_unimplemented_values), T(test_options_income_cost_in_spaces),
    T(test_options_oil_train_and_network_and_oil_city_pipeline), T(test_options_replacement_and_market_sale_and_east),
    T(test_options_merchants_bankruptcy_and_values), T(test_options_reserve_upgrade_card_and_link_unlock),
};

int main(int argc, char **argv) {
    int n = (int)(sizeof TESTS / sizeof TESTS[0]), ran = 0, bad = 0;
    if (argc > 1 && !strcmp(argv[1], "list")) {
        for (int i = 0; i < n; i++) puts(TESTS[i].name);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], "all") && strcmp(argv[1], TESTS[i].name)) continue;
        current_test = TESTS[i].name;
        failed = 0;
        TESTS[i].fn();
        printf("%s %s\n", failed ? "FAIL" : "ok", TESTS[i].name);
        bad += failed;
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no such test\n");
        return 2;
    }
    return bad != 0;
}
