/* Oilfields (P25-P26, P30, P39): barrels added by pipelines, reveals and their timing. */
#include "pgh_internal.h"

/* Barrels a pipeline placement adds to its oilfield (or, by option, onto its Oil City). */
void pgh_oil_add_route(PCtx *cx, int pipe, int barrels) {
    PittsburghGame *g = cx->g;
    if (barrels <= 0) return;
    PghField *f = &g->fields[cx->T->pipes[pipe].field];
    if (opt(g, OPT_oil_added_after_oil_city) == 1 && f->oc_owner >= 0 && !f->oc_flipped)
        f->oc_barrels = (uint8_t)(f->oc_barrels + barrels);
    else
        f->barrels = (uint8_t)(f->barrels + barrels);
    pgh_pemit(cx, PE_OIL, g->h.current, -1, pipe, barrels);
}

/* The first pipeline to an oilfield reveals its tile: the builder takes the reward now; the
   oil waits for the era-1 end, or comes at once in era 2. In a preview the tile is unknown
   (pgh_conceal): the field turns face up with no reward and no oil, and the event names no
   tile (-1), so a preview never shows or guesses the face-down tile. */
void pgh_oil_reveal(PCtx *cx, int field, int player) {
    PittsburghGame *g = cx->g;
    PghField *f = &g->fields[field];
    if (f->tile == PGH_NONE) {
        f->tile_state = g->h.era == 0 ? FT_PENDING : FT_GONE;
        pgh_pemit(cx, PE_REVEAL, player, field, -1, 0);
        return;
    }
    const PghFieldTile *t = &cx->T->ftiles[f->tile];
    pgh_gain_reward(cx, player, &t->reward);
    if (g->h.era == 0) {
        f->pending = t->oil;
        f->tile_state = FT_PENDING;
    } else {
        f->barrels = (uint8_t)(f->barrels + t->oil);
        f->tile_state = FT_GONE;
    }
    pgh_pemit(cx, PE_REVEAL, player, field, f->tile, t->oil);
}
