/* Pittsburgh's seat view as brass.v1.PittsburghView in protobuf binary, for the gRPC
   service: written in one pass by common/proto_writer.h, field numbers from
   pgh_view_fields.h (generated from proto/brass/v1/pittsburgh.proto by
   `python -m brass_service.tools.gen_proto`). Building the message from the JSON text in
   Python costs the service 0.1-0.25 ms of CPU a view.

   It writes the same view as pgh_position_json with hidden = 0, field for field (the
   Python suite compares the two over random games: tests/service/test_view_proto.py), so a
   change to one is a change to both. */
#include "pgh_internal.h"

#include "common/proto_writer.h"

#include "pgh_view_fields.h"

/* the messages' names in pgh_view_fields.h */
#define VIEW PittsburghView
#define PLAYER PittsburghPlayerView
#define SPACE PittsburghSpaceView
#define LINK PittsburghLinkView
#define OILFIELD PittsburghOilfieldView
#define MARKET PittsburghMarketView
#define MERCHANT PittsburghMerchantView
#define QUALITY PittsburghQualityView

/* The field of a space's or market's cube count, by the cube the JSON writer names its key
   after (cube_name in pgh_view.c); 0 for a cube the message has no field for. */
static uint32_t space_cube_field(int cube) {
    switch (cube) {
    case CUBE_COAL: return PROTO_TAG(SPACE, coal, PROTO_OPTIONAL_INT32);
    case CUBE_IRON: return PROTO_TAG(SPACE, iron, PROTO_OPTIONAL_INT32);
    case CUBE_STEEL: return PROTO_TAG(SPACE, steel, PROTO_OPTIONAL_INT32);
    case CUBE_COKE: return PROTO_TAG(SPACE, coke, PROTO_OPTIONAL_INT32);
    case CUBE_OIL: return PROTO_TAG(SPACE, oil, PROTO_OPTIONAL_INT32);
    default: return 0;
    }
}
static uint32_t market_cube_field(int cube) {
    switch (cube) {
    case CUBE_COAL: return PROTO_TAG(MARKET, coal, PROTO_OPTIONAL_INT32);
    case CUBE_IRON: return PROTO_TAG(MARKET, iron, PROTO_OPTIONAL_INT32);
    case CUBE_STEEL: return PROTO_TAG(MARKET, steel, PROTO_OPTIONAL_INT32);
    case CUBE_COKE: return PROTO_TAG(MARKET, coke, PROTO_OPTIONAL_INT32);
    default: return 0;
    }
}

/* The two cube counts of a tile or market column (PGH_NONE: none), in their fields' order;
   0 when a cube has no field in the message. */
static int put_cubes(ProtoWriter *w, const uint8_t cube[2], const int count[2],
                     uint32_t (*field_of)(int)) {
    uint32_t field[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        if (cube[k] != PGH_NONE && !(field[k] = field_of(cube[k]))) return 0;
    int first = field[1] && field[1] < field[0];
    for (int i = 0; i < 2; i++) {
        int k = i ^ first;
        if (field[k]) proto_optional_int32(w, field[k], count[k]);
    }
    return 1;
}

static void put_player(ProtoWriter *w, const PittsburghGame *g, int p, int seat) {
    const PghTables *T = pgh_T(g);
    const PghPlayer *pl = &g->players[p];
    int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, players);
    PW_INT32(w, PLAYER, money, pl->money);
    PW_INT32(w, PLAYER, vp, pl->vp);
    PW_INT32(w, PLAYER, spent, pl->spent);
    PW_INT32(w, PLAYER, income_space, pl->income_space);
    PW_INT32(w, PLAYER, income_level, pgh_level_of(g, pl->income_space));
    PW_INT32(w, PLAYER, whiskey, pl->whiskey);
    PW_INT32(w, PLAYER, hand_size, pl->hand_size);
    PW_INT32(w, PLAYER, heavy_built, pl->heavy_built);
    if (p == seat)
        for (int c = 0; c < T->num_card_types; c++)
            if (pl->hand[c]) PW_MAP_INT32(w, PLAYER, hand, pgh_name(T, PN_CARD, c), pl->hand[c]);
    for (int pos = 0; pos < T->num_positions; pos++)
        PW_MAP_INT32(w, PLAYER, mat, T->positions[pos].id, pl->mat_left[pos]);
    for (int lt = 0; lt < T->num_link_types; lt++)
        PW_MAP_INT32(w, PLAYER, supply, T->link_types[lt].id, pl->supply[lt]);
    proto_end(w, msg);
}

/* Spaces holding a tile and placed links; 0 when a tile names a cube the message has no
   field for. */
static int put_spaces_and_links(ProtoWriter *w, const PittsburghGame *g) {
    const PghTables *T = pgh_T(g);
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0) continue;
        const PghTile *t = &T->tiles[sp->tile];
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, spaces);
        PW_STRING(w, SPACE, slot, pgh_name(T, PN_SPACE, s));
        PW_INT32(w, SPACE, owner, sp->owner);
        PW_STRING(w, SPACE, tile, t->id);
        PW_BOOL(w, SPACE, flipped, sp->flipped);
        const int counts[2] = {sp->cubes[0], sp->cubes[1]};
        if (!put_cubes(w, t->prod_cube, counts, space_cube_field)) return 0;
        proto_end(w, msg);
    }
    for (int r = 0; r < T->num_rails; r++) {
        if (g->rails[r].owner < 0) continue;
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, links);
        PW_STRING(w, LINK, route, T->rails[r].id);
        PW_INT32(w, LINK, owner, g->rails[r].owner);
        PW_STRING(w, LINK, tile, T->link_types[g->rails[r].link_type].id);
        PW_OPTIONAL_INT32(w, LINK, cargo, g->rails[r].cargo);
        proto_end(w, msg);
    }
    for (int q = 0; q < T->num_pipes; q++) {
        if (g->pipes[q].owner < 0) continue;
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, links);
        PW_STRING(w, LINK, route, T->pipes[q].id);
        PW_INT32(w, LINK, owner, g->pipes[q].owner);
        PW_STRING(w, LINK, tile, T->link_types[g->pipes[q].link_type].id);
        proto_end(w, msg);
    }
    return 1;
}

/* Oilfields, markets, merchant spaces, quality slots and the face-up discards; 0 when a
   market lacks a column or names a cube the message has no field for. */
static int put_board(ProtoWriter *w, const PittsburghGame *g) {
    const PghTables *T = pgh_T(g);
    for (int f = 0; f < T->num_fields; f++) {
        const PghField *fd = &g->fields[f];
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, oilfields);
        PW_STRING(w, OILFIELD, id, T->field_ids[f]);
        PW_INT32(w, OILFIELD, barrels, fd->barrels);
        PW_STRING(w, OILFIELD, tile_state, pgh_name(T, PN_FIELD_STATE, fd->tile_state & 3));
        /* a face-down tile is never shown (the state is redacted, the JSON writer too) */
        if (fd->tile != PGH_NONE && fd->tile_state != FT_FACE_DOWN)
            PW_OPTIONAL_STRING(w, OILFIELD, tile, T->ftiles[fd->tile].id);
        PW_INT32(w, OILFIELD, pending, fd->pending);
        PW_INT32(w, OILFIELD, oil_city_owner, fd->oc_owner);
        PW_INT32(w, OILFIELD, oil_city_barrels, fd->oc_barrels);
        PW_BOOL(w, OILFIELD, oil_city_flipped, fd->oc_flipped);
        proto_end(w, msg);
    }
    for (int m = 0; m < T->num_markets; m++) {
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, markets);
        PW_STRING(w, MARKET, id, T->markets[m].id);
        PW_INT32(w, MARKET, price, T->markets[m].price);
        const int counts[2] = {g->market_fill[m][0], g->market_fill[m][1]};
        /* (a market has two columns: the JSON writer names both) */
        if (T->markets[m].col_cube[0] == PGH_NONE || T->markets[m].col_cube[1] == PGH_NONE ||
            !put_cubes(w, T->markets[m].col_cube, counts, market_cube_field)) return 0;
        proto_end(w, msg);
    }
    for (int ms = 0; ms < T->num_mspaces; ms++) {
        int t = g->mspace_tile[ms];
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, merchants);
        PW_STRING(w, MERCHANT, location, T->locs[T->mspace_loc[ms]].id);
        if (t != PGH_NONE) PW_OPTIONAL_STRING(w, MERCHANT, tile, T->mtiles[t].id);
        PW_STRING(w, MERCHANT, side, g->mspace_back[ms] ? "back" : "front");
        proto_end(w, msg);
    }
    for (int q = 0; q < T->num_qslots; q++) {
        int t = g->qslot_tile[q];
        int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, quality);
        PW_INT32(w, QUALITY, stars, T->qslot_stars[q]);
        if (t != PGH_NONE) PW_OPTIONAL_STRING(w, QUALITY, tile, T->qtiles[t].id);
        PW_BOOL(w, QUALITY, available, g->qslot_up[q]);
        proto_end(w, msg);
    }
    for (int c = 0; c < T->num_card_types; c++)
        if (g->discards[c]) PW_MAP_INT32(w, VIEW, discards, pgh_name(T, PN_CARD, c), g->discards[c]);
    return 1;
}

int pgh_view_proto(const PittsburghGame *g, int seat, int undo_steps, int undo_refused,
                   uint8_t *out, int cap) {
    if (!pgh_view_writable(g)) return -BRASS_E_BAD_POSITION;
    const PghTables *T = pgh_T(g);
    ProtoWriter writer = proto_writer(out, cap), *w = &writer;
    PW_STRING(w, VIEW, ruleset, "pittsburgh");
    PW_STRING(w, VIEW, data, T->name);
    PW_STRING(w, VIEW, draft_version, T->draft_version);
    PW_INT32(w, VIEW, num_players, g->h.num_players);
    PW_INT32(w, VIEW, era, g->h.era + 1);
    PW_INT32(w, VIEW, round, g->h.round);
    PW_STRING(w, VIEW, phase, pgh_phase_name(g->h.phase));
    PW_INT32(w, VIEW, current, g->h.current);
    PW_INT32(w, VIEW, actions_left, g->h.actions_left);
    PW_BOOL(w, VIEW, game_over, g->h.game_over);
    PW_INT32(w, VIEW, deck_size, g->deck_size);
    PW_PACKED_INT32(w, VIEW, turn_order, g->turn_order, g->h.num_players);
    for (int o = 0; o < PGH_NUM_ALL_OPTIONS; o++)
        PW_MAP_STRING(w, VIEW, options, pgh_option_name(o), pgh_option_value_name(o, g->options[o]));
    /* a string like every other option value: the options map holds strings */
    PW_MAP_STRING(w, VIEW, options, "undo", g->h.undo_off ? "false" : "true");
    for (int p = 0; p < g->h.num_players; p++) put_player(w, g, p, seat);
    if (!put_spaces_and_links(w, g) || !put_board(w, g)) return -BRASS_E_BUFFER;
    PW_INT32(w, VIEW, undo_steps, undo_steps);
    if (undo_refused != BRASS_R_LEGAL) PW_OPTIONAL_ENUM(w, VIEW, undo_refused, undo_refused);
    return proto_finish(w);
}
