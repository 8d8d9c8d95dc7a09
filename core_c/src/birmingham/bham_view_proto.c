/* Birmingham's seat view as brass.v1.BirminghamView in protobuf binary, for the gRPC
   service: written in one pass by common/proto_writer.h, field numbers from
   bham_view_fields.h (generated from proto/brass/v1/birmingham.proto by
   `python -m brass_service.tools.gen_proto`). Building the message from the JSON text in
   Python costs the service about 0.3 ms a response; this takes a few microseconds.

   It writes the same view as bham_position_json with hidden = 0, field for field (the
   Python suite compares the two over random games: tests/service/test_view_proto.py), so a
   change to one is a change to both. */
#include "bham_internal.h"

#include "common/proto_writer.h"

#include "bham_view_fields.h"

/* the messages' names in bham_view_fields.h */
#define VIEW BirminghamView
#define OPTIONS BirminghamView_Options
#define PENDING BirminghamView_Pending
#define MARKETS BirminghamView_Markets
#define WILD_PILES BirminghamView_WildPiles
#define MERCHANT BirminghamView_MerchantSpace
#define SLOT BirminghamView_Slot
#define PLAYER BirminghamView_Player
#define WILD_CARDS BirminghamView_WildCards

/* An optional name field: written for a value, absent for BRASS_NONE. */
#define OPT_NAME(w, field, v, first, count)                                                 \
    do {                                                                                     \
        if ((v) != BRASS_NONE)                                                               \
            PW_OPTIONAL_STRING(w, PENDING, field, bham_entry_name((first), (count), (v)));   \
    } while (0)

static void put_player(ProtoWriter *w, const BirminghamGame *g, int p, int seat) {
    const BirminghamPlayer *pl = &g->players[p];
    int msg = PW_BEGIN_REPEATED_MESSAGE(w, VIEW, player_state);
    PW_INT32(w, PLAYER, money, pl->money);
    PW_INT32(w, PLAYER, vp, pl->vp);
    PW_INT32(w, PLAYER, spent, pl->spent);
    PW_INT32(w, PLAYER, income_space, pl->income_space);
    PW_INT32(w, PLAYER, income_level, bham_income_level(pl->income_space));
    PW_INT32(w, PLAYER, links_left, pl->links_left);
    for (int i = 0; i < BHAM_NUM_INDUSTRIES; i++)
        PW_MAP_INT32(w, PLAYER, mat_taken, INDUSTRY_NAME(i), pl->mat_taken[i]);
    PW_INT32(w, PLAYER, hand_size, pl->hand_size);
    if (pl->last_discard != BHAM_NO_CARD)
        PW_OPTIONAL_STRING(w, PLAYER, last_discard, CARD_NAME(pl->last_discard));
    if (p == seat) {
        int shown = 0;
        for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++) {
            if (!pl->hand[c]) continue;
            PW_MAP_INT32(w, PLAYER, hand, CARD_NAME(c), pl->hand[c]);
            shown += pl->hand[c];
        }
        /* only a preview's outcome holds cards the seat has not seen yet (drawn unseen) */
        if (shown < pl->hand_size) PW_OPTIONAL_INT32(w, PLAYER, hand_unseen, pl->hand_size - shown);
    } else {
        /* others' wild cards are public: taken and returned openly */
        int wild = PW_BEGIN_MESSAGE(w, PLAYER, wild_cards);
        PW_INT32(w, WILD_CARDS, wild_location, pl->hand[BT_CARD_WILD_LOCATION]);
        PW_INT32(w, WILD_CARDS, wild_industry, pl->hand[BT_CARD_WILD_INDUSTRY]);
        proto_end(w, wild);
    }
    proto_end(w, msg);
}

static void put_pending(ProtoWriter *w, const BirminghamPending *pd) {
    int msg = PW_BEGIN_MESSAGE(w, VIEW, pending);
    PW_STRING(w, PENDING, action, ACTION_TYPE_NAME(pd->action));
    OPT_NAME(w, card, pd->card, A_CARD, BHAM_NUM_CARD_TYPES);
    OPT_NAME(w, industry, pd->industry, A_INDUSTRY, BHAM_NUM_INDUSTRIES);
    OPT_NAME(w, slot, pd->slot, A_SLOT, BHAM_NUM_SLOTS);
    OPT_NAME(w, link, pd->link, A_LINK, BHAM_NUM_LINKS);
    OPT_NAME(w, merchant, pd->merchant, A_MERCHANT, BHAM_NUM_MERCHANT_SPACES);
    PW_INT32(w, PENDING, coal_left, pd->coal_left);
    PW_INT32(w, PENDING, iron_left, pd->iron_left);
    PW_INT32(w, PENDING, beer_left, pd->beer_left);
    PW_INT32(w, PENDING, count, pd->count);
    PW_INT32(w, PENDING, last_choice, pd->last_choice);
    PW_INT32(w, PENDING, scout_picked, pd->scout_picked);
    PW_BOOL(w, PENDING, merchant_beer_used, pd->after_beer & 1);
    PW_INT32(w, PENDING, income_index, pd->income_idx);
    proto_end(w, msg);
}

/* Every merchant space, with the goods its tile buys (none without a tile). */
static void put_merchants(ProtoWriter *w, const BirminghamGame *g) {
    static const char *const goods[3] = {"cotton", "manufacturer", "pottery"};
    for (int m = 0; m < BHAM_NUM_MERCHANT_SPACES; m++) {
        int entry = PW_BEGIN_MAP_ENTRY(w, VIEW, merchants, SPACE_NAME(m));
        int value = proto_begin(w, 2);
        uint8_t mask = g->merchant_tile[m];
        if (mask != BRASS_NONE)
            for (int i = 0; i < 3; i++)
                if (mask & (1 << i)) PW_REPEATED_STRING(w, MERCHANT, goods, goods[i]);
        PW_INT32(w, MERCHANT, beer, g->merchant_beer[m]);
        proto_end(w, value);
        proto_end(w, entry);
    }
}

static void put_slots(ProtoWriter *w, const BirminghamGame *g) {
    for (int s = 0; s < BHAM_NUM_SLOTS; s++) {
        const BirminghamSlot *t = &g->slots[s];
        if (t->owner < 0) continue;
        int entry = PW_BEGIN_MAP_ENTRY(w, VIEW, slots, SLOT_NAME(s));
        int value = proto_begin(w, 2);
        PW_INT32(w, SLOT, owner, t->owner);
        PW_STRING(w, SLOT, industry, INDUSTRY_NAME(t->industry));
        PW_INT32(w, SLOT, level, t->level);
        PW_BOOL(w, SLOT, flipped, t->flipped);
        PW_INT32(w, SLOT, cubes, t->cubes);
        proto_end(w, value);
        proto_end(w, entry);
    }
}

int bham_view_proto(const BirminghamGame *g, int seat, int undo_steps, int undo_refused,
                    uint8_t *out, int cap) {
    static const char *const eras[2] = {"canal", "rail"};
    ProtoWriter writer = proto_writer(out, cap), *w = &writer;
    /* (bounded by the arrays, so that an unvalidated state is written without overrun) */
    int n = g->num_players < BRASS_MAX_PLAYERS ? g->num_players : BRASS_MAX_PLAYERS;
    PW_STRING(w, VIEW, format, "brass-position/1");
    PW_INT32(w, VIEW, rules_edition, g->rules_edition);
    PW_STRING(w, VIEW, ruleset, "birmingham");
    PW_INT32(w, VIEW, players, n);
    int options = PW_BEGIN_MESSAGE(w, VIEW, options);
    PW_BOOL(w, OPTIONS, beginner, g->beginner);
    PW_INT32(w, OPTIONS, manufacturer_iv_cost, g->manufacturer_iv_cost);
    PW_BOOL(w, OPTIONS, auto_resolve, g->auto_resolve);
    PW_BOOL(w, OPTIONS, undo, !g->undo_off);
    proto_end(w, options);
    PW_STRING(w, VIEW, era, eras[g->era & 1]);
    PW_INT32(w, VIEW, round, g->round);
    PW_PACKED_INT32(w, VIEW, turn_order, g->turn_order, n);
    PW_INT32(w, VIEW, turn_index, g->turn_idx);
    PW_INT32(w, VIEW, actions_left, g->actions_left);
    PW_INT32(w, VIEW, current, g->current);
    PW_STRING(w, VIEW, decision, bham_phase_name(g->phase));
    PW_BOOL(w, VIEW, game_over, g->game_over);
    put_pending(w, &g->pend);
    int markets = PW_BEGIN_MESSAGE(w, VIEW, markets);
    PW_INT32(w, MARKETS, coal, g->coal_market);
    PW_INT32(w, MARKETS, iron, g->iron_market);
    proto_end(w, markets);
    int piles = PW_BEGIN_MESSAGE(w, VIEW, wild_piles);
    PW_INT32(w, WILD_PILES, location, g->wild_pile[0]);
    PW_INT32(w, WILD_PILES, industry, g->wild_pile[1]);
    proto_end(w, piles);
    for (int c = 0; c < BHAM_NUM_CARD_TYPES; c++)
        if (g->discards[c]) PW_MAP_INT32(w, VIEW, discards, CARD_NAME(c), g->discards[c]);
    put_merchants(w, g);
    for (int k = 0; k < BHAM_NUM_LINKS; k++)
        if (g->link_owner[k] >= 0) PW_MAP_INT32(w, VIEW, links, LINK_NAME(k), g->link_owner[k]);
    put_slots(w, g);
    for (int p = 0; p < n; p++) put_player(w, g, p, seat);
    PW_INT32(w, VIEW, deck_size, g->deck_size);
    if (seat >= 0) PW_OPTIONAL_INT32(w, VIEW, seat, seat);
    PW_INT32(w, VIEW, undo_steps, undo_steps);
    if (undo_refused != BRASS_R_LEGAL) PW_OPTIONAL_ENUM(w, VIEW, undo_refused, undo_refused);
    return proto_finish(w);
}
