/* What every file of the Pittsburgh conformance tests uses: the game under test, EXPECT,
   and the helpers that set up explicit positions. Included once, by core_c/tests/pgh_rules.c
   (the runner), before the test files. */
static PittsburghGame G;
static int failed;
static const char *current_test;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "FAIL %s (line %d): %s\n", current_test, __LINE__, #cond); \
            failed = 1;                                                               \
        }                                                                             \
    } while (0)
#define EXPECT_EQ(a, b)                                                                          \
    do {                                                                                         \
        long long a_ = (long long)(a), b_ = (long long)(b);                                      \
        if (a_ != b_) {                                                                          \
            fprintf(stderr, "FAIL %s (line %d): %s = %lld, expected %lld\n", current_test, __LINE__, \
                    #a, a_, b_);                                                                 \
            failed = 1;                                                                          \
        }                                                                                        \
    } while (0)

enum { DRAFT = PGH_SET_PITTSBURGH, TINY = PGH_SET_TINY };

static void fresh_opts(int set, int players, uint64_t seed, int option, int value) {
    PghOptions o = {.players = (uint8_t)players, .auto_resolve = 0};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
    o.values[PGH_OPT_DATA] = (int16_t)set;
    if (option >= 0) o.values[option] = (int16_t)value;
    char err[128] = "";
    if (pgh_new(&G, &o, seed, err, sizeof err) != BRASS_OK) {
        fprintf(stderr, "FAIL %s: new game: %s\n", current_test, err);
        failed = 1;
    }
}
static void fresh(int set, int players, uint64_t seed) { fresh_opts(set, players, seed, -1, 0); }

static int id(const char *name) {
    for (int a = 0; a < PGH_NUM_ACTIONS; a++)
        if (!strcmp(pgh_action_name_in(G.h.table_set, a), name)) return a;
    fprintf(stderr, "FAIL %s: no action named %s\n", current_test, name);
    failed = 1;
    return 0;
}
static int why(const char *name) { return pgh_reason(&G, id(name)); }
static int me(void) { return G.h.current; }
static int other(void) { return (G.h.current + 1) % G.h.num_players; }
static PghPlayer *pl(int p) { return &G.players[p]; }

/* apply named decisions in order; each must be legal */
static void go(const char *first, ...) {
    va_list ap;
    va_start(ap, first);
    for (const char *n = first; n; n = va_arg(ap, const char *)) {
        int reason = 0, r = pgh_apply(&G, G.h.current, id(n), NULL, &reason);
        if (r != BRASS_OK) {
            fprintf(stderr, "FAIL %s: %s refused in phase %s: %s\n", current_test, n,
                    pgh_phase_name(G.h.phase), pgh_reason_name(reason));
            failed = 1;
            break;
        }
    }
    va_end(ap);
}


static int tile_of(const char *tid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_tiles; i++)
        if (!strcmp(T->tiles[i].id, tid)) return i;
    return -1;
}
static int pos_of(const char *pid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_positions; i++)
        if (!strcmp(T->positions[i].id, pid)) return i;
    return -1;
}
static int lt_of(const char *lid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_link_types; i++)
        if (!strcmp(T->link_types[i].id, lid)) return i;
    return -1;
}
static int loc_of(const char *lid) {
    const PghTables *T = pgh_T(&G);
    for (int i = 0; i < T->num_locs; i++)
        if (!strcmp(T->locs[i].id, lid)) return i;
    return -1;
}
static int space(const char *slot) { return id(slot) - PGA_SPACE; }
static int rail(const char *link) { return id(link) - PGA_RAIL; }
static int pipe_(const char *p) { return id(p) - PGA_PIPE; }
static int mkt(const char *m) { return id(m) - PGA_MARKET; }

/* an empty hand but for the given cards (test positions need not conserve cards) */
static void hand(int p, const char *card) {
    memset(pl(p)->hand, 0, sizeof pl(p)->hand);
    pl(p)->hand_size = 0;
    if (!card) return;
    pl(p)->hand[id(card) - PGA_CARD] = 1;
    pl(p)->hand_size = 1;
}
static void put_tile(int p, const char *slot, const char *tile, int flipped, int c0, int c1) {
    PghSpace *sp = &G.spaces[space(slot)];
    sp->owner = (int8_t)p;
    sp->tile = (uint8_t)tile_of(tile);
    sp->flipped = (uint8_t)flipped;
    sp->cubes[0] = (uint8_t)c0;
    sp->cubes[1] = (uint8_t)c1;
}
static void put_rail(int p, const char *link, const char *lt) {
    PghRailState *r = &G.rails[rail(link)];
    r->owner = (int8_t)p;
    r->link_type = (uint8_t)lt_of(lt);
}
static void put_pipe(int p, const char *route, const char *lt) {
    PghPipeState *q = &G.pipes[pipe_(route)];
    q->owner = (int8_t)p;
    q->link_type = (uint8_t)lt_of(lt);
}
static void set_merchant(int ms, const char *tile_id) {
    const PghTables *T = pgh_T(&G);
    for (int t = 0; t < T->num_mtiles; t++)
        if (!strcmp(T->mtiles[t].id, tile_id)) G.mspace_tile[ms] = (uint8_t)t;
    G.mspace_back[ms] = 0;
}
static void no_markets(void) { memset(G.market_fill, 0, sizeof G.market_fill); }
static int field_of(const char *fid) {
    const PghTables *T = pgh_T(&G);
    for (int f = 0; f < T->num_fields; f++)
        if (!strcmp(T->field_ids[f], fid)) return f;
    return -1;
}
static int sell_reason(const char *slot) {
    PBoard b;
    pgh_pboard(&G, G.h.current, &b);
    return pgh_sell_tile_reason(&G, &b, space(slot));
}
static int place_reason(const char *card, const char *pos, const char *place) {
    PBoard b;
    pgh_pboard(&G, G.h.current, &b);
    return pgh_build_place_reason(&G, &b, id(card) - PGA_CARD, pos_of(pos), id(place), 1);
}
static void end_round_now(void) {
    PCtx cx = {&G, pgh_T(&G), NULL};
    pgh_round_end(&cx);
}

static void discard_any(void) {
    for (int k = 0; k < PGH_MAX_CARD_TYPES; k++)
        if (pl(me())->hand[k]) {
            go(pgh_action_name_in(G.h.table_set, PGA_CARD + k), NULL);
            return;
        }
}

static void sell_setup(int p) {
    put_tile(p, "slot:alpha.0", "kero_2", 0, 0, 0);
    set_merchant(0, "tm_kero_money6");
    put_rail(p, "link:alpha--port", "light_train");
    hand(p, "card:beta");
}
