/* Conformance tests of src/pittsburgh/pgh_loan_pass.c: loan and pass (P57-P58).
   Part of core_c/tests/pgh_rules.c (one program; support.h is included first). */

static void test_p57_loan(void) {
    fresh(TINY, 2, 4);
    int p = me();
    pl(p)->income_space = 2; /* level -8 */
    EXPECT_EQ(why("type:loan"), PR_LOAN_LIMIT);
    pl(p)->income_space = 3; /* level -7 */
    EXPECT_EQ(why("type:loan"), PR_LEGAL);
    go("type:loan", NULL);
    discard_any();
    EXPECT_EQ(pl(p)->money, 60);
    EXPECT_EQ(pl(p)->spent, 0);
    EXPECT_EQ(pl(p)->income_space, 0);
}

static void test_p58_pass_gains_a_whiskey(void) {
    fresh(TINY, 2, 4);
    int p = me();
    go("type:pass", NULL);
    discard_any();
    EXPECT_EQ(pl(p)->whiskey, 1);
}
