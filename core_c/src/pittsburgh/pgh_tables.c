/* The table sets: the draft data file and the tiny synthetic one, both generated. */
#include "pittsburgh.h"
#include "pgh_tables_pittsburgh.h"
#include "pgh_tables_tiny.h"

const PghTables *const PGH_TABLE_SETS[PGH_NUM_SETS] = {&PGH_TABLES_PITTSBURGH, &PGH_TABLES_TINY};

const PghTables *pgh_tables(int set) {
    return set == PGH_SET_TINY ? &PGH_TABLES_TINY : &PGH_TABLES_PITTSBURGH;
}
