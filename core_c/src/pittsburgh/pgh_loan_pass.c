/* Loan (P57) and Pass (P58). */
#include "pgh_internal.h"

int pgh_loan_reason(const PittsburghGame *g) {
    const PghPlayer *pl = &g->players[g->h.current];
    return pgh_income_after_levels(g, pl->income_space, pgh_T(g)->loan_levels) < 0 ? PR_LOAN_LIMIT : PR_LEGAL;
}

void pgh_take_loan(PCtx *cx) {
    PittsburghGame *g = cx->g;
    PghPlayer *pl = &g->players[g->h.current];
    pl->money = (int16_t)(pl->money + cx->T->loan_money); /* not spent money (P11) */
    pl->income_space = (uint8_t)pgh_income_after_levels(g, pl->income_space, cx->T->loan_levels);
    pgh_pemit(cx, PE_LOAN, g->h.current, pl->income_space, cx->T->loan_money, 0);
}

void pgh_take_pass(PCtx *cx) {
    pgh_gain_whiskey(cx->g, cx->g->h.current, 1);
    pgh_pemit(cx, PE_PASS, cx->g->h.current, 0, 0, 0);
}
