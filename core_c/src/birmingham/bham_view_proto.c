/* Birmingham's seat view as brass.v1.BirminghamView in protobuf binary, for the gRPC
   service: the message is filled here and encoded by nanopb's generated encoder
   (core_c/nanopb/, generated from proto/brass/v1/birmingham.proto by
   `python -m brass_service.tools.gen_proto`). Building the message from the JSON text in Python
   costs the service about 0.3 ms a response; this takes a few microseconds.

   It writes the same view as bham_position_json with hidden = 0, field for field (the
   Python suite compares the two over random games: tests/service/test_view_proto.py), so a
   change to one is a change to both. Built only where nanopb's runtime is installed
   (BRASS_HAVE_NANOPB, set by core_c/build_ffi.py); elsewhere it answers
   BRASS_E_UNSUPPORTED and the service builds the message from the JSON text. */
#include "bham_internal.h"

#ifdef BRASS_HAVE_NANOPB
#include <pb_encode.h>

#include "common/proto_fields.h"

#include "brass/v1/birmingham.pb.h"

typedef brass_v1_BirminghamView View;
typedef brass_v1_BirminghamView_Player ViewPlayer;

/* nanopb's sizes (core_c/nanopb/birmingham.options) hold the whole board */
_Static_assert(PROTO_COUNT(((View *)0)->slots) >= BHAM_NUM_SLOTS, "slots");
_Static_assert(PROTO_COUNT(((View *)0)->links) >= BHAM_NUM_LINKS, "links");
_Static_assert(PROTO_COUNT(((View *)0)->merchants) >= BHAM_NUM_MERCHANT_SPACES, "merchants");
_Static_assert(PROTO_COUNT(((View *)0)->discards) >= BHAM_NUM_CARD_TYPES, "discards");
_Static_assert(PROTO_COUNT(((View *)0)->player_state) >= BRASS_MAX_PLAYERS, "players");
_Static_assert(PROTO_COUNT(((View *)0)->turn_order) >= BRASS_MAX_PLAYERS, "turn order");
_Static_assert(PROTO_COUNT(((ViewPlayer *)0)->hand) >= BHAM_NUM_CARD_TYPES, "hand");
_Static_assert(PROTO_COUNT(((ViewPlayer *)0)->mat_taken) >= BHAM_NUM_INDUSTRIES, "mat");
_Static_assert(brass_v1_BirminghamView_size <= BRASS_VIEW_PROTO_CAP, "the largest view fits");


/* An optional name field: set for a value, absent for BRASS_NONE. */
#define OPT_NAME(msg, field, v, first, count)                                   \
    do {                                                                         \
        (msg).has_##field = (v) != BRASS_NONE;                                   \
        if ((msg).has_##field) NAME((msg).field, bham_entry_name((first), (count), (v))); \
    } while (0)

static int put_player(ViewPlayer *out, const BirminghamGame *g, int p, int seat) {
    const BirminghamPlayer *pl = &g->players[p];
    int fits = 1;
    out->money = pl->money;
    out->vp = pl->vp;
    out->spent = pl->spent;
    out->income_space = pl->income_space;
    out->income_level = bham_income_level(pl->income_space);
    out->links_left = pl->links_left;
    out->mat_taken_count = BHAM_NUM_INDUSTRIES;
    for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++) {
        NAME(out->mat_taken[i].key, INDUSTRY_NAME(i));
        out->mat_taken[i].value = pl->mat_taken[i];
    }
    out->hand_size = pl->hand_size;
    out->has_last_discard = pl->last_discard != BHAM_NO_CARD;
    if (out->has_last_discard) NAME(out->last_discard, CARD_NAME(pl->last_discard));
    if (p == seat) {
        int shown = 0;
        for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
            if (!pl->hand[c]) continue;
            NAME(out->hand[out->hand_count].key, CARD_NAME(c));
            out->hand[out->hand_count++].value = pl->hand[c];
            shown += pl->hand[c];
        }
        /* only a preview's outcome holds cards the seat has not seen yet (drawn unseen) */
        out->has_hand_unseen = shown < pl->hand_size;
        if (out->has_hand_unseen) out->hand_unseen = pl->hand_size - shown;
    } else {
        /* others' wild cards are public: taken and returned openly */
        out->has_wild_cards = 1;
        out->wild_cards.wild_location = pl->hand[BT_CARD_WILD_LOCATION];
        out->wild_cards.wild_industry = pl->hand[BT_CARD_WILD_INDUSTRY];
    }
    return fits;
}

static int put_pending(brass_v1_BirminghamView_Pending *out, const BirminghamPending *pd) {
    int fits = 1;
    NAME(out->action, ACTION_TYPE_NAME(pd->action));
    OPT_NAME(*out, card, pd->card, A_CARD, BHAM_NUM_CARD_TYPES);
    OPT_NAME(*out, industry, pd->industry, A_INDUSTRY, BHAM_NUM_INDUSTRIES);
    OPT_NAME(*out, slot, pd->slot, A_SLOT, BHAM_NUM_SLOTS);
    OPT_NAME(*out, link, pd->link, A_LINK, BHAM_NUM_LINKS);
    OPT_NAME(*out, merchant, pd->merchant, A_MERCHANT, BHAM_NUM_MERCHANT_SPACES);
    out->coal_left = pd->coal_left;
    out->iron_left = pd->iron_left;
    out->beer_left = pd->beer_left;
    out->count = pd->count;
    out->last_choice = pd->last_choice;
    out->scout_picked = pd->scout_picked;
    out->merchant_beer_used = pd->after_beer & 1;
    out->income_index = pd->income_idx;
    return fits;
}

static void put_merchant_goods(brass_v1_BirminghamView_MerchantSpace *out, uint8_t mask) {
    static const char *const goods[3] = {"cotton", "manufacturer", "pottery"};
    if (mask == BRASS_NONE) return; /* no tile: no goods */
    for (int i = 0; i < 3; i++)
        if (mask & (1 << i))
            (void)proto_put_name(out->goods[out->goods_count++], sizeof out->goods[0], goods[i]);
}

/* Fills `v` (zeroed by the caller); 0 when a name does not fit. */
static int fill_view(View *v, const BirminghamGame *g, int seat, int undo_steps,
                     int undo_refused) {
    static const char *const eras[2] = {"canal", "rail"};
    int fits = 1;
    /* (bounded by the arrays, so that an unvalidated state is written without overrun) */
    int n = g->num_players < BRASS_MAX_PLAYERS ? g->num_players : BRASS_MAX_PLAYERS;
    NAME(v->format, "brass-position/1");
    v->rules_edition = g->rules_edition;
    NAME(v->ruleset, "birmingham");
    v->players = n;
    v->has_options = 1;
    v->options.beginner = g->beginner;
    v->options.manufacturer_iv_cost = g->manufacturer_iv_cost;
    v->options.auto_resolve = g->auto_resolve;
    v->options.undo = !g->undo_off;
    NAME(v->era, eras[g->era & 1]);
    v->round = g->round;
    v->turn_order_count = (pb_size_t)n;
    for (int i = 0; i < n; i++) v->turn_order[i] = g->turn_order[i];
    v->turn_index = g->turn_idx;
    v->actions_left = g->actions_left;
    v->current = g->current;
    NAME(v->decision, bham_phase_name(g->phase));
    v->game_over = g->game_over;
    v->has_pending = 1;
    fits &= put_pending(&v->pending, &g->pend);
    v->has_markets = 1;
    v->markets.coal = g->coal_market;
    v->markets.iron = g->iron_market;
    v->has_wild_piles = 1;
    v->wild_piles.location = g->wild_pile[0];
    v->wild_piles.industry = g->wild_pile[1];
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
        if (!g->discards[c]) continue;
        NAME(v->discards[v->discards_count].key, CARD_NAME(c));
        v->discards[v->discards_count++].value = g->discards[c];
    }
    v->merchants_count = BHAM_NUM_MERCHANT_SPACES;
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        NAME(v->merchants[m].key, SPACE_NAME(m));
        v->merchants[m].has_value = 1;
        put_merchant_goods(&v->merchants[m].value, g->merchant_tile[m]);
        v->merchants[m].value.beer = g->merchant_beer[m];
    }
    for (int k = 0; k < BHAM_NUM_LINKS; k++) {
        if (g->link_owner[k] < 0) continue;
        NAME(v->links[v->links_count].key, LINK_NAME(k));
        v->links[v->links_count++].value = g->link_owner[k];
    }
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        brass_v1_BirminghamView_SlotsEntry *e = &v->slots[v->slots_count++];
        NAME(e->key, SLOT_NAME(s));
        e->has_value = 1;
        e->value.owner = t->owner;
        NAME(e->value.industry, INDUSTRY_NAME(t->industry));
        e->value.level = t->level;
        e->value.flipped = t->flipped;
        e->value.cubes = t->cubes;
    }
    v->player_state_count = (pb_size_t)n;
    for (int p = 0; p < n; p++) fits &= put_player(&v->player_state[p], g, p, seat);
    v->deck_size = g->deck_size;
    v->has_seat = seat >= 0;
    if (v->has_seat) v->seat = seat;
    v->undo_steps = undo_steps;
    v->has_undo_refused = undo_refused != BRASS_R_LEGAL;
    if (v->has_undo_refused) v->undo_refused = (brass_v1_BirminghamReason_Code)undo_refused;
    return fits;
}

int bham_view_proto(const BirminghamGame *g, int seat, int undo_steps, int undo_refused,
                    uint8_t *out, int cap) {
    View v;
    memset(&v, 0, sizeof v);
    if (!fill_view(&v, g, seat, undo_steps, undo_refused)) return -BRASS_E_BUFFER;
    pb_ostream_t stream = pb_ostream_from_buffer(out, (size_t)cap);
    if (!pb_encode(&stream, brass_v1_BirminghamView_fields, &v)) return -BRASS_E_BUFFER;
    return (int)stream.bytes_written;
}

#else /* no nanopb in this build */

int bham_view_proto(const BirminghamGame *g, int seat, int undo_steps, int undo_refused,
                    uint8_t *out, int cap) {
    (void)g, (void)seat, (void)undo_steps, (void)undo_refused, (void)out, (void)cap;
    return -BRASS_E_UNSUPPORTED;
}

#endif
