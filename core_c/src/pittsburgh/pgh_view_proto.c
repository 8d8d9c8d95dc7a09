/* Pittsburgh's seat view as brass.v1.PittsburghView in protobuf binary, for the gRPC
   service: the message is filled here and encoded by nanopb's generated encoder
   (core_c/nanopb/, generated from proto/brass/v1/pittsburgh.proto with the sizes of
   core_c/nanopb/pittsburgh.options by `python -m brass_service.tools.gen_proto`). Building
   the message from the JSON text in Python costs the service 0.1-0.25 ms of CPU a view;
   this, 0.05-0.09 ms (nanopb's encoder is most of it).

   It writes the same view as pgh_position_json with hidden = 0, field for field (the
   Python suite compares the two over random games: tests/service/test_view_proto.py), so a
   change to one is a change to both. Built only where nanopb's runtime is installed
   (BRASS_HAVE_NANOPB, set by core_c/build_ffi.py); elsewhere it answers
   BRASS_E_UNSUPPORTED and the service builds the message from the JSON text. */
#include "pgh_internal.h"

#ifdef BRASS_HAVE_NANOPB
#include <pb_encode.h>

#include "common/proto_fields.h"

#include "brass/v1/pittsburgh.pb.h"

typedef brass_v1_PittsburghView View;
typedef brass_v1_PittsburghPlayerView ViewPlayer;

/* nanopb's sizes (core_c/nanopb/pittsburgh.options) hold the largest table set */
_Static_assert(PROTO_COUNT(((View *)0)->turn_order) >= PGH_MAX_PLAYERS, "turn order");
_Static_assert(PROTO_COUNT(((View *)0)->options) >= PGH_NUM_ALL_OPTIONS + 1, "options and undo");
_Static_assert(PROTO_COUNT(((View *)0)->players) >= PGH_MAX_PLAYERS, "players");
_Static_assert(PROTO_COUNT(((View *)0)->spaces) >= PGH_MAX_SPACES, "spaces");
_Static_assert(PROTO_COUNT(((View *)0)->links) >= PGH_MAX_RAILS + PGH_MAX_PIPES, "links");
_Static_assert(PROTO_COUNT(((View *)0)->oilfields) >= PGH_MAX_FIELDS, "oilfields");
_Static_assert(PROTO_COUNT(((View *)0)->markets) >= PGH_MAX_MARKETS, "markets");
_Static_assert(PROTO_COUNT(((View *)0)->merchants) >= PGH_MAX_MSPACES, "merchants");
_Static_assert(PROTO_COUNT(((View *)0)->quality) >= PGH_MAX_QSLOTS, "quality");
_Static_assert(PROTO_COUNT(((View *)0)->discards) >= PGH_MAX_CARD_TYPES, "discards");
_Static_assert(PROTO_COUNT(((ViewPlayer *)0)->hand) >= PGH_MAX_CARD_TYPES, "hand");
_Static_assert(PROTO_COUNT(((ViewPlayer *)0)->mat) >= PGH_MAX_POSITIONS, "mat");
_Static_assert(PROTO_COUNT(((ViewPlayer *)0)->supply) >= PGH_MAX_LINK_TYPES, "supply");
_Static_assert(brass_v1_PittsburghView_size <= BRASS_VIEW_PROTO_CAP, "the largest view fits");

/* A map<string, int32> entry appended to `entries` (its count in entries##_count) */
#define ENTRY(msg, entries, name, v)                                      \
    do {                                                                  \
        NAME((msg).entries[(msg).entries##_count].key, (name));           \
        (msg).entries[(msg).entries##_count++].value = (v);               \
    } while (0)
/* An optional name field: set for a value, absent for PGH_NONE. */
#define OPT_NAME(msg, field, name)                  \
    do {                                            \
        const char *name_ = (name);                 \
        (msg).has_##field = name_ != NULL;          \
        if (name_) NAME((msg).field, name_);        \
    } while (0)

/* The optional cube count of a space or market, by the cube the JSON writer names its key
   after (cube_name in pgh_view.c); 0 for a cube the message has no field for. */
#define CUBE_CASE(msg, cube, field) \
    case cube: (msg)->has_##field = 1, (msg)->field = count; return 1
static int put_space_cube(brass_v1_PittsburghSpaceView *out, int cube, int count) {
    switch (cube) {
        CUBE_CASE(out, CUBE_COAL, coal);
        CUBE_CASE(out, CUBE_IRON, iron);
        CUBE_CASE(out, CUBE_STEEL, steel);
        CUBE_CASE(out, CUBE_COKE, coke);
        CUBE_CASE(out, CUBE_OIL, oil);
    default: return 0;
    }
}
static int put_market_cube(brass_v1_PittsburghMarketView *out, int cube, int count) {
    switch (cube) {
        CUBE_CASE(out, CUBE_COAL, coal);
        CUBE_CASE(out, CUBE_IRON, iron);
        CUBE_CASE(out, CUBE_STEEL, steel);
        CUBE_CASE(out, CUBE_COKE, coke);
    default: return 0;
    }
}

static int put_player(ViewPlayer *out, const PittsburghGame *g, int p, int seat) {
    const PghTables *T = pgh_T(g);
    const PghPlayer *pl = &g->players[p];
    int fits = 1;
    out->money = pl->money;
    out->vp = pl->vp;
    out->spent = pl->spent;
    out->income_space = pl->income_space;
    out->income_level = pgh_level_of(g, pl->income_space);
    out->whiskey = pl->whiskey;
    out->hand_size = pl->hand_size;
    out->heavy_built = pl->heavy_built;
    if (p == seat)
        for (int c = 0; c < T->num_card_types; c++)
            if (pl->hand[c]) ENTRY(*out, hand, pgh_name(T, PN_CARD, c), pl->hand[c]);
    for (int pos = 0; pos < T->num_positions; pos++)
        ENTRY(*out, mat, T->positions[pos].id, pl->mat_left[pos]);
    for (int lt = 0; lt < T->num_link_types; lt++)
        ENTRY(*out, supply, T->link_types[lt].id, pl->supply[lt]);
    return fits;
}

/* The board: spaces holding a tile, placed links, oilfields, markets, merchant spaces,
   quality slots and the face-up discards; 0 when a name does not fit (or a table names a
   cube the message has no field for). */
static int put_board(View *v, const PittsburghGame *g) {
    const PghTables *T = pgh_T(g);
    int fits = 1;
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0) continue;
        const PghTile *t = &T->tiles[sp->tile];
        brass_v1_PittsburghSpaceView *e = &v->spaces[v->spaces_count++];
        NAME(e->slot, pgh_name(T, PN_SPACE, s));
        e->owner = sp->owner;
        NAME(e->tile, t->id);
        e->flipped = sp->flipped;
        for (int k = 0; k < 2; k++)
            if (t->prod_cube[k] != PGH_NONE) fits &= put_space_cube(e, t->prod_cube[k], sp->cubes[k]);
    }
    for (int r = 0; r < T->num_rails; r++) {
        if (g->rails[r].owner < 0) continue;
        brass_v1_PittsburghLinkView *e = &v->links[v->links_count++];
        NAME(e->route, T->rails[r].id);
        e->owner = g->rails[r].owner;
        NAME(e->tile, T->link_types[g->rails[r].link_type].id);
        e->has_cargo = 1;
        e->cargo = g->rails[r].cargo;
    }
    for (int q = 0; q < T->num_pipes; q++) {
        if (g->pipes[q].owner < 0) continue;
        brass_v1_PittsburghLinkView *e = &v->links[v->links_count++];
        NAME(e->route, T->pipes[q].id);
        e->owner = g->pipes[q].owner;
        NAME(e->tile, T->link_types[g->pipes[q].link_type].id);
    }
    v->oilfields_count = (pb_size_t)T->num_fields;
    for (int f = 0; f < T->num_fields; f++) {
        const PghField *fd = &g->fields[f];
        brass_v1_PittsburghOilfieldView *e = &v->oilfields[f];
        NAME(e->id, T->field_ids[f]);
        e->barrels = fd->barrels;
        NAME(e->tile_state, pgh_name(T, PN_FIELD_STATE, fd->tile_state & 3));
        /* a face-down tile is never shown (the state is redacted, the JSON writer too) */
        int shown = fd->tile != PGH_NONE && fd->tile_state != FT_FACE_DOWN;
        OPT_NAME(*e, tile, shown ? T->ftiles[fd->tile].id : NULL);
        e->pending = fd->pending;
        e->oil_city_owner = fd->oc_owner;
        e->oil_city_barrels = fd->oc_barrels;
        e->oil_city_flipped = fd->oc_flipped;
    }
    v->markets_count = (pb_size_t)T->num_markets;
    for (int m = 0; m < T->num_markets; m++) {
        brass_v1_PittsburghMarketView *e = &v->markets[m];
        NAME(e->id, T->markets[m].id);
        e->price = T->markets[m].price;
        for (int k = 0; k < 2; k++) fits &= put_market_cube(e, T->markets[m].col_cube[k], g->market_fill[m][k]);
    }
    v->merchants_count = (pb_size_t)T->num_mspaces;
    for (int ms = 0; ms < T->num_mspaces; ms++) {
        int t = g->mspace_tile[ms];
        brass_v1_PittsburghMerchantView *e = &v->merchants[ms];
        NAME(e->location, T->locs[T->mspace_loc[ms]].id);
        OPT_NAME(*e, tile, t == PGH_NONE ? NULL : T->mtiles[t].id);
        NAME(e->side, g->mspace_back[ms] ? "back" : "front");
    }
    v->quality_count = (pb_size_t)T->num_qslots;
    for (int q = 0; q < T->num_qslots; q++) {
        int t = g->qslot_tile[q];
        brass_v1_PittsburghQualityView *e = &v->quality[q];
        e->stars = T->qslot_stars[q];
        OPT_NAME(*e, tile, t == PGH_NONE ? NULL : T->qtiles[t].id);
        e->available = g->qslot_up[q];
    }
    for (int c = 0; c < T->num_card_types; c++)
        if (g->discards[c]) ENTRY(*v, discards, pgh_name(T, PN_CARD, c), g->discards[c]);
    return fits;
}

/* Fills `v` (zeroed by the caller) from a state pgh_view_writable accepts; 0 when a name
   does not fit. */
static int fill_view(View *v, const PittsburghGame *g, int seat, int undo_steps, int undo_refused) {
    const PghTables *T = pgh_T(g);
    int fits = 1;
    NAME(v->ruleset, "pittsburgh");
    NAME(v->data, T->name);
    NAME(v->draft_version, T->draft_version);
    v->num_players = g->h.num_players;
    v->era = g->h.era + 1;
    v->round = g->h.round;
    NAME(v->phase, pgh_phase_name(g->h.phase));
    v->current = g->h.current;
    v->actions_left = g->h.actions_left;
    v->game_over = g->h.game_over;
    v->deck_size = g->deck_size;
    v->turn_order_count = g->h.num_players;
    for (int i = 0; i < g->h.num_players; i++) v->turn_order[i] = g->turn_order[i];
    v->options_count = PGH_NUM_ALL_OPTIONS + 1;
    for (int o = 0; o < PGH_NUM_ALL_OPTIONS; o++) {
        NAME(v->options[o].key, pgh_option_name(o));
        NAME(v->options[o].value, pgh_option_value_name(o, g->options[o]));
    }
    /* a string like every other option value: the options map holds strings */
    NAME(v->options[PGH_NUM_ALL_OPTIONS].key, "undo");
    NAME(v->options[PGH_NUM_ALL_OPTIONS].value, g->h.undo_off ? "false" : "true");
    v->players_count = g->h.num_players;
    for (int p = 0; p < g->h.num_players; p++) fits &= put_player(&v->players[p], g, p, seat);
    fits &= put_board(v, g);
    v->undo_steps = undo_steps;
    v->has_undo_refused = undo_refused != BRASS_R_LEGAL;
    if (v->has_undo_refused) v->undo_refused = (brass_v1_PittsburghReason_Code)undo_refused;
    return fits;
}

int pgh_view_proto(const PittsburghGame *g, int seat, int undo_steps, int undo_refused,
                   uint8_t *out, int cap) {
    if (!pgh_view_writable(g)) return -BRASS_E_BAD_POSITION;
    View v;
    memset(&v, 0, sizeof v);
    if (!fill_view(&v, g, seat, undo_steps, undo_refused)) return -BRASS_E_BUFFER;
    pb_ostream_t stream = pb_ostream_from_buffer(out, (size_t)cap);
    if (!pb_encode(&stream, brass_v1_PittsburghView_fields, &v)) return -BRASS_E_BUFFER;
    return (int)stream.bytes_written;
}

#else /* no nanopb in this build */

int pgh_view_proto(const PittsburghGame *g, int seat, int undo_steps, int undo_refused,
                   uint8_t *out, int cap) {
    (void)g, (void)seat, (void)undo_steps, (void)undo_refused, (void)out, (void)cap;
    return -BRASS_E_UNSUPPORTED;
}

#endif
