/* Connectivity, networks, the income track, the player mat, and small shared effects. */
#include "pgh_internal.h"
#include "common/event_log.h"
#include "common/income_track.h"

static int find(uint8_t *parent, int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

int pgh_loc_closed(const PittsburghGame *g, int loc);
int pgh_rail_closed(const PittsburghGame *g, int rail) {
    const PghRail *r = &pgh_T(g)->rails[rail];
    return pgh_loc_closed(g, r->a) || pgh_loc_closed(g, r->b);
}

/* P8, P17: The East is closed in 2 players (provisional) or by the option. */
int pgh_loc_closed(const PittsburghGame *g, int loc) {
    /* P17 cincinnati_role = not_a_location: the link-only badge is no location at all */
    if (pgh_T(g)->locs[loc].type == LT_LINK_ONLY) return opt(g, OPT_cincinnati_role) == 1;
    if (!pgh_T(g)->locs[loc].east_placeholder) return 0;
    return g->h.num_players == 2 || opt(g, OPT_east_location) == 1;
}

/* P44 link_resource_delivery = before_placement: while a new train's cubes are paid, it
   does not connect yet (a Replacement's route was connected before); -1: none */
static int unconnected_rail(const PittsburghGame *g) {
    const PghPending *pd = &g->pend;
    if (opt(g, OPT_link_resource_delivery) == 1 && pd->action == PA_NETWORK && pd->stage == ST_PAY &&
        !pd->route_is_pipe && !pd->swapped && pd->route != PGH_NONE)
        return pd->route;
    return -1;
}

/* The board of the last question asked on this thread, with everything it is built from
   (the same inputs give the same board: it can never be stale). Consecutive decisions of one
   action, and the first of the next seat, mostly ask about an unchanged board: the part of
   each seat is kept for every seat. Thread-local: callers may share nothing. */
#define BOARD_BYTES_FIRST offsetof(PittsburghGame, spaces)
#define BOARD_BYTES_END offsetof(PittsburghGame, players)
_Static_assert(offsetof(PittsburghGame, spaces) < offsetof(PittsburghGame, rails) &&
                   offsetof(PittsburghGame, rails) < offsetof(PittsburghGame, pipes) &&
                   offsetof(PittsburghGame, pipes) < offsetof(PittsburghGame, fields) &&
                   offsetof(PittsburghGame, fields) < BOARD_BYTES_END,
               "the board's bytes are one run of the state");
typedef struct {
    uint8_t known, table_set, skip;     /* skip: unconnected_rail + 1 */
    uint8_t options[2];                 /* the two options the board reads besides */
    uint8_t bytes[BOARD_BYTES_END - BOARD_BYTES_FIRST]; /* spaces, rails, pipes, fields */
    PBoard board;                       /* the part that is no seat's (network, train... 0) */
    uint32_t network[PGH_MAX_PLAYERS];
    uint8_t presence[PGH_MAX_PLAYERS];
    uint64_t cargo_rails[PGH_MAX_PLAYERS]; /* each seat's trains with cargo */
} BoardMemo;
static _Thread_local BoardMemo memo;

static int seat_index(int owner) { return owner >= 0 && owner < PGH_MAX_PLAYERS ? owner : -1; }

/* P16, P18, P19, P27: components of the train network, each seat's network, the cubes and
   barrels each component can reach. (The counts and masks stay in locals, which the
   byte-sized writes to the board would otherwise force reloaded.) */
static void build_board(const PittsburghGame *g, int skip, BoardMemo *m) {
    const PghTables *T = pgh_T(g);
    const int num_rails = T->num_rails, num_spaces = T->num_spaces, num_pipes = T->num_pipes,
              num_fields = T->num_fields;
    PBoard *b = &m->board;
    memset(b, 0, sizeof *b);
    static const uint8_t identity[PGH_MAX_LOCS] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                                   12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
    _Static_assert(PGH_MAX_LOCS == 24, "identity lists every location");
    uint8_t parent[PGH_MAX_LOCS];
    memcpy(parent, identity, sizeof parent);
    uint64_t cargo_rails[PGH_MAX_PLAYERS] = {0};
    uint32_t network[PGH_MAX_PLAYERS] = {0};
    uint8_t presence[PGH_MAX_PLAYERS] = {0};
    uint32_t joined = 0; /* locations that are no root any more */
    for (int r = 0; r < num_rails; r++) {
        const PghRailState *rs = &g->rails[r];
        if (rs->owner < 0) continue;
        int seat = seat_index(rs->owner);
        if (seat >= 0) {
            presence[seat] = 1;
            if (rs->cargo) cargo_rails[seat] |= 1ull << r;
        }
        if (r == skip) continue;
        const PghRail *R = &T->rails[r];
        int a = find(parent, R->a), c = find(parent, R->b);
        if (a != c) { /* the lowest location is the root: parent[x] <= x */
            int lo = a < c ? a : c, hi = a < c ? c : a;
            parent[hi] = (uint8_t)lo;
            joined |= 1u << hi;
        }
        if (seat >= 0) network[seat] |= (1u << R->a) | (1u << R->b);
    }
    /* a component is numbered by its lowest location (numbers only tell components apart);
       in ascending order a joined location's parent is numbered before it */
    uint8_t comp[PGH_MAX_LOCS];
    memcpy(comp, identity, sizeof comp);
    for (; joined; joined &= joined - 1) comp[__builtin_ctz(joined)] = comp[parent[__builtin_ctz(joined)]];
    memcpy(b->comp, comp, sizeof comp);
    for (int s = 0; s < num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0) continue;
        int loc = T->spaces[s].loc, seat = seat_index(sp->owner);
        if (seat >= 0) {
            network[seat] |= 1u << loc;
            presence[seat] = 1;
        }
        if (sp->flipped) continue;
        const PghTile *t = &T->tiles[sp->tile];
        for (int k = 0; k < 2; k++)
            if (t->prod_cube[k] < CUBE_OIL) b->cubes[comp[loc]][t->prod_cube[k]] += sp->cubes[k];
    }
    uint32_t reached[PGH_MAX_FIELDS] = {0}; /* per field: components its pipelines reach */
    int joins = opt(g, OPT_pipeline_joins_network) == 0;
    for (int p = 0; p < num_pipes; p++) {
        const PghPipeState *ps = &g->pipes[p];
        if (ps->owner < 0) continue;
        int seat = seat_index(ps->owner);
        if (seat >= 0) {
            presence[seat] = 1;
            if (joins) network[seat] |= 1u << T->pipes[p].loc;
        }
        if (T->link_types[ps->link_type].pipe == PK_RESERVE || T->pipes[p].field >= num_fields) continue;
        reached[T->pipes[p].field] |= 1u << comp[T->pipes[p].loc];
    }
    int oil_sources = opt(g, OPT_oil_sources);
    for (int f = 0; f < num_fields; f++) {
        const PghField *fd = &g->fields[f];
        int seat = seat_index(fd->oc_owner);
        if (seat >= 0) presence[seat] = 1;
        int barrels = fd->barrels + (oil_sources == 0 ? fd->oc_barrels : 0);
        for (uint32_t r = reached[f]; r; r &= r - 1) b->oil[__builtin_ctz(r)] += (uint8_t)barrels;
    }
    memcpy(m->network, network, sizeof network);
    memcpy(m->presence, presence, sizeof presence);
    memcpy(m->cargo_rails, cargo_rails, sizeof cargo_rails);
}

/* The board as `player` sees it: the memo's, with that seat's network and train cargo. */
static void seat_board(const PittsburghGame *g, const BoardMemo *m, int player, PBoard *b) {
    const PghTables *T = pgh_T(g);
    *b = m->board;
    b->player = (uint8_t)player;
    int seat = seat_index(player);
    if (seat < 0) return;
    b->network = m->network[seat];
    b->presence = m->presence[seat];
    int oil_sources = opt(g, OPT_oil_sources);
    for (uint64_t r = m->cargo_rails[seat]; r; r &= r - 1) {
        const PghRailState *rs = &g->rails[__builtin_ctzll(r)];
        int cube = T->link_types[rs->link_type].cargo_cube;
        if (cube == CUBE_OIL && oil_sources != 0) continue;
        if (cube < PGH_NUM_CUBES) b->train[b->comp[T->rails[__builtin_ctzll(r)].a]][cube] += rs->cargo;
    }
    uint32_t net_comps = 0;
    for (uint32_t n = b->network; n; n &= n - 1) net_comps |= 1u << b->comp[__builtin_ctz(n)];
    b->net_comps = net_comps;
}

void pgh_pboard(const PittsburghGame *g, int player, PBoard *b) {
    const int skip = unconnected_rail(g);
    const uint8_t options[2] = {g->options[OPT_oil_sources], g->options[OPT_pipeline_joins_network]};
    const uint8_t *bytes = (const uint8_t *)g + BOARD_BYTES_FIRST;
    if (!memo.known || memo.table_set != g->h.table_set || memo.skip != skip + 1 ||
        memcmp(memo.options, options, sizeof options) || memcmp(memo.bytes, bytes, sizeof memo.bytes)) {
        build_board(g, skip, &memo);
        memo.known = 1;
        memo.table_set = g->h.table_set;
        memo.skip = (uint8_t)(skip + 1);
        memcpy(memo.options, options, sizeof options);
        memcpy(memo.bytes, bytes, sizeof memo.bytes);
    }
    seat_board(g, &memo, player, b);
}

/* ---- income track (P12) ---- */
int pgh_level_of(const PittsburghGame *g, int space) { return pgh_T(g)->level_of_space[space]; }
int pgh_player_level(const PittsburghGame *g, int p) { return pgh_level_of(g, g->players[p].income_space); }

/* The space after a decrease of `levels` levels (onto the top space of the new level), or -1
   below the lowest level. */
int pgh_income_after_levels(const PittsburghGame *g, int space, int levels) {
    const PghTables *T = pgh_T(g);
    return income_track_down(T->top_space_of_level, pgh_level_of(g, space), levels, T->min_level);
}

void pgh_income_up(PittsburghGame *g, int p, int spaces) {
    g->players[p].income_space = income_track_up(g->players[p].income_space, spaces);
}

/* ---- player mat (P66-P68) ---- */
static int edge_active(const PittsburghGame *g, const PghEdge *e) {
    const PghTables *T = pgh_T(g);
    if (e->controlled_by_loco_option) return opt(g, OPT_auto_vi_unlocks_loco_works) == 0;
    if (!e->bidirectional) return 1;
    switch (opt(g, OPT_mat_shortcut_semantics)) {
    case 0: return 1;
    case 1: return T->positions[e->from].path < T->positions[e->to].path;
    default: return 0;
    }
}

int pgh_position_accessible(const PittsburghGame *g, int p, int pos) {
    const PghTables *T = pgh_T(g);
    const PghPlayer *pl = &g->players[p];
    if (!pl->mat_left[pos]) return 0;
    int below = T->positions[pos].below;
    if (below == PGH_NONE || !pl->mat_left[below]) return 1;
    for (int e = 0; e < T->num_edges; e++)
        if (T->edges[e].to == pos && !pl->mat_left[T->edges[e].from] && edge_active(g, &T->edges[e]))
            return 1;
    return 0;
}

int pgh_board_accessible(const PittsburghGame *g, const PBoard *b, int pos) {
    return b->accessible_known ? bit32(b->accessible, pos) : pgh_position_accessible(g, g->h.current, pos);
}

/* Bit i set where byte i of the 8 at p is not zero: the high bit of each byte set by an
   add that carries into it from a nonzero low part (or the byte's own high bit), then the
   eight high bits gathered into the top byte by one multiplication. */
static uint32_t nonzero_bytes8(const uint8_t *p) {
    uint64_t x;
    memcpy(&x, p, sizeof x);
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;
    uint64_t nonzero = (((x & low7) + low7) | x) & high;
    return (uint32_t)(((nonzero >> 7) * 0x0102040810204080ull) >> 56);
}

/* pgh_position_accessible of every position, in one pass over the positions and edges */
uint32_t pgh_accessible_positions(const PittsburghGame *g, int p) {
    const PghTables *T = pgh_T(g);
    const PghPlayer *pl = &g->players[p];
    const int num_positions = T->num_positions;
    uint32_t left = 0, via_edge = 0, covered = 0;
    _Static_assert(PGH_MAX_POSITIONS == 24, "three words of mat_left");
    left = nonzero_bytes8(pl->mat_left) | nonzero_bytes8(pl->mat_left + 8) << 8 | nonzero_bytes8(pl->mat_left + 16) << 16;
    left &= ~(~0u << num_positions); /* num_positions <= 24 */
    for (int e = 0; e < T->num_edges; e++)
        if (!bit32(left, T->edges[e].from) && edge_active(g, &T->edges[e])) via_edge |= 1u << T->edges[e].to;
    for (uint32_t m = left; m; m &= m - 1) covered |= T->above[__builtin_ctz(m)]; /* a tile left below */
    return left & (~covered | via_edge);
}

int pgh_empty_positions(const PittsburghGame *g, int p) {
    int n = 0;
    for (int i = 0; i < pgh_T(g)->num_positions; i++) n += !g->players[p].mat_left[i];
    return n;
}

/* Take the top tile of a position; a mat link whose position below is now empty moves to
   the supply at once (P68). */
void pgh_mat_take(PCtx *cx, int p, int pos) {
    const PghTables *T = cx->T;
    PghPlayer *pl = &cx->g->players[p];
    pl->mat_left[pos]--;
    for (int s = 0; s < T->num_link_slots; s++) {
        if (pl->slots_released & (1u << s)) continue;
        int below = T->link_slots[s].unlocks_when_empty;
        int open = opt(cx->g, OPT_link_unlock) == 0 ? !pl->mat_left[below]
                                                    : pl->mat_left[below] < T->positions[below].count;
        if (!open) continue;
        pl->slots_released |= (uint16_t)(1u << s);
        pl->supply[T->link_slots[s].link_type]++;
    }
}

/* ---- small effects ---- */
void pgh_pemit(PCtx *cx, int type, int seat, int a, int b, int c) {
    brass_log_event(cx->log, type, seat, a, b, c);
}

void pgh_gain_whiskey(PittsburghGame *g, int p, int n) {
    int w = g->players[p].whiskey + n, cap = pgh_T(g)->whiskey_cap;
    g->players[p].whiskey = (uint8_t)(w > cap ? cap : w);
}

void pgh_spend(PittsburghGame *g, int p, int money) {
    g->players[p].money = (int16_t)(g->players[p].money - money);
    g->players[p].spent = (int16_t)(g->players[p].spent + money);
}

void pgh_gain_reward(PCtx *cx, int p, const PghReward *r) {
    PghPlayer *pl = &cx->g->players[p];
    pl->vp = (int16_t)(pl->vp + r->vp);
    pl->money = (int16_t)(pl->money + r->money);
    if (r->income_spaces) pgh_income_up(cx->g, p, r->income_spaces);
    if (r->whiskey) pgh_gain_whiskey(cx->g, p, r->whiskey);
    if (r->free_develops && p == cx->g->h.current) cx->g->pend.free_develops += r->free_develops;
}

/* A tile flips (P19 last cube, P42 enters flipped, P55 sold): its owner takes the reward. */
void pgh_flip_space(PCtx *cx, int space) {
    PittsburghGame *g = cx->g;
    PghSpace *sp = &g->spaces[space];
    const PghTile *t = &cx->T->tiles[sp->tile];
    int p = sp->owner;
    sp->flipped = 1;
    PghPlayer *pl = &g->players[p];
    if (t->flip_income) pgh_income_up(g, p, t->flip_income);
    if (t->flip_whiskey) pgh_gain_whiskey(g, p, t->flip_whiskey);
    pl->money = (int16_t)(pl->money + t->flip_money);
    if (t->flip_money_x_income) {
        int lv = pgh_player_level(g, p);
        if (lv > 0) pl->money = (int16_t)(pl->money + t->flip_money_x_income * lv);
        /* P40 polyphase_negative_income: zero (default), or pay (spent money, P11) */
        else if (lv < 0 && opt(g, OPT_polyphase_negative_income) == 1) pgh_spend(g, p, -t->flip_money_x_income * lv);
    }
    if (t->flip_free_develops) g->pend.free_develops += t->flip_free_develops;
    if (t->flip_bonus_sell) g->pend.bonus_sell = 1;
    pgh_pemit(cx, PE_FLIP, p, space, sp->tile, t->flip_income);
}

/* VP of a flipped tile at scoring (P37, P40, P41, P62). */
int pgh_tile_vp(const PittsburghGame *g, int owner, int tile) {
    const PghTile *t = &pgh_T(g)->tiles[tile];
    switch (t->vp_rule) {
    case VR_EMPTY_POSITIONS: return t->vp * pgh_empty_positions(g, owner);
    case VR_HEAVY_TRAINS: {
        int n = g->players[owner].heavy_built;
        if (opt(g, OPT_loco_counts) == 1) {
            n = 0;
            for (int r = 0; r < pgh_T(g)->num_rails; r++)
                if (g->rails[r].owner == owner && pgh_T(g)->link_types[g->rails[r].link_type].kind == LK_HEAVY)
                    n++;
        }
        return t->vp * n;
    }
    case VR_INCOME_LEVEL: {
        int o = opt(g, OPT_mfg_ii_vp_rule);
        if (o == 1) return 0;
        if (o == 2) return 5;
        int lv = pgh_player_level(g, owner);
        return lv > 0 ? lv * t->vp : 0;
    }
    default:
        if (t->industry == PI_SKYSCRAPER && opt(g, OPT_skyscraper_values) == 1) return 20;
        if (t->industry == PI_MANUFACTURING && t->level == 5 && opt(g, OPT_mfg_v_vp) == 1) return 11;
        return t->vp;
    }
}
