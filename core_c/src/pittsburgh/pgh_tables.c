/* The table sets (the draft data file and the tiny synthetic one, both generated) and the
   names of what they hold, one table for the position format's writer (pgh_view.c), its
   reader (pgh_position.c) and pgh_validate.c. */
#include "pgh_internal.h"
#include "pgh_tables_pittsburgh.h"
#include "pgh_tables_tiny.h"

const PghTables *const PGH_TABLE_SETS[PGH_NUM_SETS] = {&PGH_TABLES_PITTSBURGH, &PGH_TABLES_TINY};

const PghTables *pgh_tables(int set) {
    return set == PGH_SET_TINY ? &PGH_TABLES_TINY : &PGH_TABLES_PITTSBURGH;
}

/* ---- names: one table for the writer and the reader ---- */
static const char *const STAGE_NAMES[] = {"none", "pay", "build_market", "build_after", "net_after", "net_second",
                                          "dev_after", "sell_after", "sell_rewards", "sell_quality", "sell_flip", "end"};
_Static_assert(sizeof STAGE_NAMES / sizeof *STAGE_NAMES == ST_END + 1, "a name per stage");
static const char *const CUBE_NAMES[PGH_NUM_CUBES] = {"coal", "iron", "steel", "coke", "oil"};
static const char *const FIELD_STATE_NAMES[] = {"face_down", "pending", "revealed", "none"};

int pgh_name_count(const PghTables *T, int kind) {
    switch (kind) {
    case PN_CARD: return T->num_card_types;
    case PN_POSITION: return T->num_positions;
    case PN_SPACE: return T->num_spaces;
    case PN_RAIL: return T->num_rails;
    case PN_PIPE: return T->num_pipes;
    case PN_LINK_TYPE: return T->num_link_types;
    case PN_LOC: return T->num_locs;
    case PN_FIELD: return T->num_fields;
    case PN_MTILE: return T->num_mtiles;
    case PN_FTILE: return T->num_ftiles;
    case PN_QTILE: return T->num_qtiles;
    case PN_TILE: return T->num_tiles;
    case PN_MSPACE: return T->num_mspaces;
    case PN_MARKET: return T->num_markets;
    case PN_PHASE: return PGH_NUM_PHASES;
    case PN_STAGE: return ST_END + 1;
    case PN_ACTION_TYPE: return PGH_NUM_ACT_TYPES;
    case PN_CUBE: return PGH_NUM_CUBES;
    case PN_FIELD_STATE: return FT_NO_TILE + 1;
    default: return 0;
    }
}

const char *pgh_name(const PghTables *T, int kind, int i) {
    if (i < 0 || i >= pgh_name_count(T, kind)) return NULL;
    switch (kind) {
    case PN_CARD: return T->action_names[PGA_CARD + i] + 5;   /* "card:" */
    case PN_POSITION: return T->positions[i].id;
    case PN_SPACE: return T->action_names[PGA_SPACE + i] + 5;  /* "slot:" */
    case PN_RAIL: return T->rails[i].id;
    case PN_PIPE: return T->pipes[i].id;
    case PN_LINK_TYPE: return T->link_types[i].id;
    case PN_LOC: return T->locs[i].id;
    case PN_FIELD: return T->field_ids[i];
    case PN_MTILE: return T->mtiles[i].id;
    case PN_FTILE: return T->ftiles[i].id;
    case PN_QTILE: return T->qtiles[i].id;
    case PN_TILE: return T->tiles[i].id;
    case PN_MSPACE: return T->action_names[PGA_MERCHANT + i] + 9; /* "merchant:" */
    case PN_MARKET: return T->markets[i].id;
    case PN_PHASE: return pgh_phase_name(i);
    case PN_STAGE: return STAGE_NAMES[i];
    case PN_ACTION_TYPE: return T->action_names[PGA_TYPE + i] + 5; /* "type:" */
    case PN_CUBE: return CUBE_NAMES[i];
    case PN_FIELD_STATE: return FIELD_STATE_NAMES[i];
    default: return NULL;
    }
}
