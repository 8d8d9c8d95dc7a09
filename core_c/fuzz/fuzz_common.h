/*
 * Shared checks of the fuzz harnesses (libFuzzer, built with ASan + UBSan).
 *
 * exercise() runs every entry point on a state that brass_validate accepted and aborts
 * (a crash for libFuzzer) when an engine promise is broken:
 *   - a valid state stays valid after every accepted call (brass_validate == 0);
 *   - a refused call leaves the state byte for byte unchanged;
 *   - the legal list, brass_reason and brass_apply agree on every id;
 *   - snapshot -> restore is the identity; the hash is a function of the state;
 *   - a state has one byte image: hidden padding is zero;
 *   - determinize keeps the seat's redacted view and gives a valid state;
 *   - compound actions apply atomically (brass_apply_sequence) and are complete;
 *   - a preview changes nothing and is the same for a deal its seat cannot tell apart.
 */
#ifndef BRASS_FUZZ_COMMON_H
#define BRASS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brass.h"
#include "birmingham/birmingham.h"

#include "fuzz_check.h"

/* The harnesses exercise Birmingham: its fields behind a game handle, its state bytes */
#define BH(g) ((const BirminghamGame *)(const void *)(g))
#define STATE_SIZE brass_state_size(BRASS_RULESET_BIRMINGHAM)

/* Bytes of BirminghamPlayer that belong to no field (the compiler's padding). */
static int player_padding_is_zero(const BirminghamPlayer *pl) {
    static const struct { size_t off, len; } fields[] = {
        {offsetof(BirminghamPlayer, money), sizeof(int16_t)},
        {offsetof(BirminghamPlayer, vp), sizeof(int16_t)},
        {offsetof(BirminghamPlayer, spent), sizeof(int16_t)},
        {offsetof(BirminghamPlayer, income_space), 1},
        {offsetof(BirminghamPlayer, links_left), 1},
        {offsetof(BirminghamPlayer, mat_taken), BHAM_NUM_INDUSTRIES},
        {offsetof(BirminghamPlayer, hand), BHAM_NUM_CARD_TYPES},
        {offsetof(BirminghamPlayer, hand_size), 1},
        {offsetof(BirminghamPlayer, facedown_card), 1},
        {offsetof(BirminghamPlayer, last_discard), 1},
        {offsetof(BirminghamPlayer, pad_), sizeof(((BirminghamPlayer *)0)->pad_)},
    };
    uint8_t covered[sizeof(BirminghamPlayer)] = {0};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        memset(covered + fields[f].off, 1, fields[f].len);
    const uint8_t *b = (const uint8_t *)pl;
    for (size_t i = 0; i < sizeof(BirminghamPlayer); i++)
        if (!covered[i] && b[i]) return 0;
    return 1;
}

static void check_valid(const BrassGame *g, const char *after) {
    char field[128] = "";
    int v = brass_validate(g, field, sizeof field);
    FUZZ_CHECK(v == BRASS_OK, "state invalid after %s: error %d at '%s' (phase %d, era %d, round %d)",
               after, v, field, BH(g)->phase, BH(g)->era, BH(g)->round);
    for (int p = 0; p < BRASS_MAX_PLAYERS; p++)
        FUZZ_CHECK(player_padding_is_zero(&BH(g)->players[p]),
                   "after %s: hidden padding of player %d is not zero (one state, two byte images)",
                   after, p);
}

static void check_snapshot(const BrassGame *g) {
    static uint8_t buf[4096];
    size_t n = brass_snapshot_size(BRASS_RULESET_BIRMINGHAM);
    FUZZ_CHECK(n <= sizeof buf, "snapshot size %zu", n);
    FUZZ_CHECK(brass_snapshot(g, buf, n) == BRASS_OK, "snapshot refused");
    BrassGame r;
    FUZZ_CHECK(brass_restore(&r, buf, n, -1) == BRASS_OK, "restore of a fresh snapshot refused");
    FUZZ_CHECK(memcmp(&r, g, STATE_SIZE) == 0, "restore(snapshot(g)) != g");
    FUZZ_CHECK(brass_hash(&r) == brass_hash(g), "hash differs after restore");
    FUZZ_CHECK(brass_snapshot(g, buf, n - 1) == BRASS_E_BUFFER, "short buffer accepted");
}

/* One decision checked against the legal list: accepted iff listed; refused = unchanged. */
static int apply_checked(BrassGame *g, int seat, int action, const uint8_t *legal) {
    BrassGame before = *g;
    int reason = -1;
    BrassEventLog log;
    log.count = log.dropped = 0;
    int err = brass_apply(g, seat, action, &log, &reason);
    int listed = action >= 0 && action < BHAM_NUM_ACTIONS && legal[action];
    if (err == BRASS_OK) {
        FUZZ_CHECK(listed, "id %d accepted but not listed (phase %d)", action, BH(&before)->phase);
        FUZZ_CHECK(reason == 0, "accepted with reason %d", reason);
        /* a listed id is applied on the list's word (the engine's legal memo): the reason
           check must agree on its own */
        FUZZ_CHECK(brass_reason(&before, action) == BRASS_R_LEGAL, "accepted id %d has reason %d",
                   action, brass_reason(&before, action));
        FUZZ_CHECK(log.count <= BRASS_MAX_EVENTS, "event log overflow %u", log.count);
        FUZZ_CHECK(BH(g)->decisions != BH(&before)->decisions, "decision counter did not move");
        check_valid(g, "an accepted decision");
    } else {
        FUZZ_CHECK(memcmp(g, &before, STATE_SIZE) == 0, "refused id %d (err %d) changed the state",
                   action, err);
        if (err == BRASS_E_ILLEGAL) {
            FUZZ_CHECK(reason > 0 && reason < NUM_REASONS, "illegal without a reason (%d)", reason);
            FUZZ_CHECK(!listed, "listed id %d refused with reason %d", action, reason);
        }
        FUZZ_CHECK(err != BRASS_OK && err <= BRASS_E_BUFFER, "unknown error %d", err);
    }
    return err;
}

static int legal_set(const BrassGame *g, uint16_t *opts, uint8_t *legal) {
    memset(legal, 0, BHAM_NUM_ACTIONS);
    int n = brass_legal(g, opts, BHAM_NUM_ACTIONS);
    FUZZ_CHECK(n >= 0, "brass_legal error %d", n);
    FUZZ_CHECK(BH(g)->game_over ? n == 0 : n > 0, "%d legal options (game_over %d, phase %d)", n,
               BH(g)->game_over, BH(g)->phase);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(opts[i] < BHAM_NUM_ACTIONS && !legal[opts[i]], "bad or repeated id %d", opts[i]);
        legal[opts[i]] = 1;
    }
    return n;
}

/* Views, observations, determinization and compounds of one state (not changed). */
/* The JSON view: written whole within its cap, identical for a determinized twin (the
   text a seat receives holds nothing it may not see); a short buffer is refused. */
static void check_view_json(const BrassGame *g, const BrassGame *twin, int s) {
    static char a[BRASS_JSON_CAP], b[BRASS_JSON_CAP], small[256];
    int n = brass_view_json(g, s, a, BRASS_JSON_CAP);
    FUZZ_CHECK(n > 0 && n < BRASS_JSON_CAP && a[n] == 0 && strlen(a) == (size_t)n,
               "view json of %d: %d", s, n);
    int m = brass_view_json(twin, s, b, BRASS_JSON_CAP);
    FUZZ_CHECK(m == n && memcmp(a, b, (size_t)n) == 0, "determinize changed the json of %d", s);
    FUZZ_CHECK(brass_view_json(g, s, small, sizeof small) == -BRASS_E_BUFFER, "short buffer");
    /* the service's key style: written whole, no longer than the snake_case text (its keys
       are shorter and its null members dropped), the same for the twin */
    int c = brass_view_json_keys(g, s, BRASS_KEYS_CAMEL, a, BRASS_JSON_CAP);
    FUZZ_CHECK(c > 0 && c <= n && a[c] == 0 && strlen(a) == (size_t)c, "camel view of %d", s);
    FUZZ_CHECK(brass_view_json_keys(twin, s, BRASS_KEYS_CAMEL, b, BRASS_JSON_CAP) == c &&
                   memcmp(a, b, (size_t)c) == 0, "determinize changed the camel json of %d", s);
    FUZZ_CHECK(brass_view_json_keys(g, s, BRASS_KEYS_CAMEL, small, sizeof small) ==
                   -BRASS_E_BUFFER, "camel short buffer");
    n = brass_position_json(g, a, BRASS_JSON_CAP);
    FUZZ_CHECK(n > 0 && n < BRASS_JSON_CAP && a[n] == 0, "position json: %d", n);
    /* the typed view in protobuf binary: the same for the twin */
    static uint8_t pa[BRASS_VIEW_PROTO_CAP], pb[BRASS_VIEW_PROTO_CAP];
    int p = brass_view_proto(g, s, pa, BRASS_VIEW_PROTO_CAP);
    FUZZ_CHECK(p > 0 && p <= BRASS_VIEW_PROTO_CAP, "proto view of %d: %d", s, p);
    FUZZ_CHECK(brass_view_proto(twin, s, pb, BRASS_VIEW_PROTO_CAP) == p &&
                   memcmp(pa, pb, (size_t)p) == 0, "determinize changed the proto view of %d", s);
    FUZZ_CHECK(brass_view_proto(g, s, pb, p - 1) == -BRASS_E_BUFFER, "proto short buffer");
}

static void check_information(const BrassGame *g, uint64_t seed) {
    BrassGame view, view2, det;
    float obs[BHAM_OBS_SIZE];
    int n = BH(g)->num_players;
    for (int s = -1; s < n; s++) {
        brass_redact(g, s, &view);
        FUZZ_CHECK(BH(&view)->seed == 0 && BH(&view)->rng_state == 0, "seed in the view of %d", s);
        for (int i = 0; i < BHAM_MAX_DECK; i++) FUZZ_CHECK(!BH(&view)->deck[i], "deck in the view of %d", s);
        for (int p = 0; p < n; p++) {
            if (p == s) continue;
            for (int c = 0; c < BHAM_NUM_CARD_TYPES - 2; c++)
                FUZZ_CHECK(!BH(&view)->players[p].hand[c], "hand of %d in the view of %d", p, s);
        }
        if (s < 0) continue;
        int k = brass_observation(g, s, obs, BHAM_OBS_SIZE);
        FUZZ_CHECK(k > 0 && k <= BHAM_OBS_SIZE, "observation size %d", k);
        for (int i = 0; i < BHAM_OBS_SIZE; i++)
            FUZZ_CHECK(obs[i] == obs[i] && obs[i] > -1e6f && obs[i] < 1e6f, "observation[%d]", i);
        det = *g;
        FUZZ_CHECK(brass_determinize(&det, s, seed + (uint64_t)s) == BRASS_OK, "determinize");
        check_valid(&det, "determinize");
        brass_redact(&det, s, &view2);
        FUZZ_CHECK(memcmp(&view, &view2, STATE_SIZE) == 0, "determinize changed the view of %d", s);
        check_view_json(g, &det, s);
        float obs2[BHAM_OBS_SIZE];
        brass_observation(&det, s, obs2, BHAM_OBS_SIZE);
        FUZZ_CHECK(memcmp(obs, obs2, sizeof obs) == 0, "determinize changed the observation of %d", s);
    }
    FUZZ_CHECK(brass_observation(g, n, obs, BHAM_OBS_SIZE) < 0, "observation of seat %d", n);
    FUZZ_CHECK(brass_determinize(&det, -1, 1) != BRASS_OK, "determinize of seat -1");
}

#define FUZZ_MAX_COMPOUNDS 512
static void check_compounds(const BrassGame *g, const uint8_t *choices, size_t nchoices) {
    static uint16_t ids[FUZZ_MAX_COMPOUNDS * 32];
    static uint32_t offs[FUZZ_MAX_COMPOUNDS + 1];
    int trunc = 0;
    int k = brass_compound_actions(g, ids, FUZZ_MAX_COMPOUNDS * 32, offs, FUZZ_MAX_COMPOUNDS, &trunc);
    FUZZ_CHECK(k >= 0, "compound_actions error %d", k);
    FUZZ_CHECK(BH(g)->game_over ? k == 0 : (k > 0 || trunc), "no compound action (phase %d)", BH(g)->phase);
    for (int j = 0; j < k && j < 8; j++) {
        int pick = nchoices ? (int)(choices[j % nchoices] * 131u + (unsigned)j) % k : j;
        int len = (int)(offs[pick + 1] - offs[pick]);
        FUZZ_CHECK(len > 0 && len <= 32, "compound length %d", len);
        BrassGame w = *g;
        int reason = 0, at = -1;
        int err = brass_apply_sequence(&w, BH(g)->current, ids + offs[pick], len, NULL, &reason, &at);
        FUZZ_CHECK(err == BRASS_OK, "listed compound %d refused at %d (err %d reason %d)", pick, at,
                   err, reason);
        check_valid(&w, "a compound action");
        /* a preview changes nothing and is the same for a deal the actor cannot tell apart,
           as the actor's and as a spectator's */
        BrassGame twin = *g, seen, twin_seen, before = *g;
        FUZZ_CHECK(brass_determinize(&twin, BH(g)->current, (uint64_t)pick + 1) == BRASS_OK,
                   "determinize for a preview");
        const int viewers[2] = {BH(g)->current, -1};
        for (int v = 0; v < 2; v++) {
            err = brass_preview(g, viewers[v], ids + offs[pick], len, &seen, NULL, &reason, &at);
            FUZZ_CHECK(err == BRASS_OK, "preview of compound %d: err %d", pick, err);
            FUZZ_CHECK(memcmp(&before, g, sizeof before) == 0, "a preview changed the state");
            err = brass_preview(&twin, viewers[v], ids + offs[pick], len, &twin_seen, NULL,
                                &reason, &at);
            FUZZ_CHECK(err == BRASS_OK && memcmp(&seen, &twin_seen, sizeof seen) == 0,
                       "a preview of compound %d depends on cards seat %d cannot see", pick,
                       viewers[v]);
        }
        if (len > 1) { /* a strict prefix is incomplete and changes nothing */
            BrassGame p = *g;
            err = brass_apply_sequence(&p, BH(g)->current, ids + offs[pick], len - 1, NULL, &reason, &at);
            FUZZ_CHECK(err == BRASS_E_ILLEGAL && reason == R_INCOMPLETE_ACTION,
                       "prefix of a compound: err %d reason %d", err, reason);
            FUZZ_CHECK(memcmp(&p, g, STATE_SIZE) == 0, "refused compound changed the state");
        }
    }
}

/* The turn as a caller of brass_undo keeps it (docs/UNDO.md): the state at the barrier, the
   ids since and the states after each (known = 0 once it cannot follow, until a barrier). */
typedef struct {
    BrassGame barrier;
    BrassGame after[256];
    uint16_t ids[256];
    int n, known;
} FuzzTurn;

static void turn_note(FuzzTurn *t, const BrassGame *g, const uint16_t *ids, int n) {
    int depth = brass_undo_depth(g);
    FUZZ_CHECK(depth >= 0 && depth < 256, "undo depth %d", depth);
    if (depth == 0) {
        t->barrier = *g;
        t->n = 0, t->known = 1;
    } else if (t->known && depth == t->n + n) {
        for (int k = 0; k < n; k++) t->ids[t->n + k] = ids[k];
        t->n = depth;
        t->after[depth - 1] = *g;
    } else {
        t->known = 0;
    }
}

/* An undo: refused with the state unchanged, or it lands exactly on a state of the turn;
   a wrong list or barrier is refused (BRASS_E_BAD_ARGUMENT) and changes nothing. */
static void undo_checked(BrassGame *g, FuzzTurn *t, int seat) {
    BrassGame before = *g;
    int steps = 0, reason = 0;
    int allowed = brass_undo_steps(g, seat, &steps, &reason);
    if (!t->known) {
        FUZZ_CHECK(brass_undo(g, seat, &t->barrier, t->ids, 0, &steps, &reason) != BRASS_OK,
                   "undo with no decisions accepted");
        FUZZ_CHECK(memcmp(&before, g, STATE_SIZE) == 0, "a refused undo changed the state");
        return;
    }
    if (allowed == BRASS_OK && t->n > 0) {
        uint16_t wrong[256];
        memcpy(wrong, t->ids, sizeof wrong);
        wrong[t->n - 1] = (uint16_t)((wrong[t->n - 1] + 1) % BHAM_NUM_ACTIONS);
        FUZZ_CHECK(brass_undo(g, seat, &t->barrier, wrong, t->n, &steps, &reason) ==
                       BRASS_E_BAD_ARGUMENT, "undo with a wrong decision list");
        FUZZ_CHECK(brass_undo(g, seat, &t->barrier, t->ids, t->n - 1, &steps, &reason) ==
                       BRASS_E_BAD_ARGUMENT, "undo with a short decision list");
        FUZZ_CHECK(brass_undo(g, seat, g, t->ids, t->n, &steps, &reason) == BRASS_E_BAD_ARGUMENT,
                   "undo from a state that is not at the barrier");
        FUZZ_CHECK(memcmp(&before, g, STATE_SIZE) == 0, "a refused undo changed the state");
    }
    int err = brass_undo(g, seat, &t->barrier, t->ids, t->n, &steps, &reason);
    FUZZ_CHECK(err == allowed, "undo: %d, undo_steps: %d", err, allowed);
    if (err) {
        FUZZ_CHECK(memcmp(&before, g, STATE_SIZE) == 0, "a refused undo changed the state");
        FUZZ_CHECK(err != BRASS_E_CANNOT_UNDO || reason == BRASS_R_NOTHING_TO_UNDO ||
                       reason == BRASS_R_UNDO_BARRIER || reason == BRASS_R_UNDO_DISABLED,
                   "undo reason %d", reason);
        return;
    }
    FUZZ_CHECK(steps >= 1 && steps <= t->n, "undo steps %d of %d", steps, t->n);
    t->n -= steps;
    const BrassGame *expected = t->n ? &t->after[t->n - 1] : &t->barrier;
    FUZZ_CHECK(memcmp(expected, g, STATE_SIZE) == 0, "an undo landed on a state not of the turn");
    check_valid(g, "an undo");
}

/* Drive decisions from `choices` (one byte each) on g, checking everything on the way. */
static void drive(BrassGame *g, const uint8_t *choices, size_t nchoices, int max_steps) {
    uint16_t opts[BHAM_NUM_ACTIONS];
    uint8_t legal[BHAM_NUM_ACTIONS];
    static FuzzTurn turn;
    turn.known = 0;
    turn_note(&turn, g, NULL, 0);
    for (size_t i = 0; i < nchoices && (int)i < max_steps; i++) {
        int n = legal_set(g, opts, legal);
        if (BH(g)->game_over) {
            BrassGame before = *g;
            FUZZ_CHECK(brass_apply(g, -1, choices[i] % BHAM_NUM_ACTIONS, NULL, NULL) ==
                           BRASS_E_GAME_OVER, "apply after the end");
            FUZZ_CHECK(memcmp(&before, g, STATE_SIZE) == 0, "apply after the end changed the state");
            return;
        }
        uint8_t c = choices[i];
        if (c < 184) {                               /* a legal option */
            uint16_t a = opts[c % n];
            FUZZ_CHECK(brass_reason(g, a) == 0, "listed id %d has a reason", a);
            FUZZ_CHECK(apply_checked(g, (c & 1) ? -1 : BH(g)->current, a, legal) == BRASS_OK, "legal %d", a);
            turn_note(&turn, g, &a, 1);
        } else if (c < 200) {                        /* an undo, by the seat to act or another */
            undo_checked(g, &turn, c < 196 ? BH(g)->current : c < 198 ? -1
                                   : (BH(g)->current + 1) % BH(g)->num_players);
        } else if (c < 240) {                        /* any id of the action space */
            uint16_t a = (uint16_t)((int)((c - 200u) * 37u + i * 11u) % BHAM_NUM_ACTIONS);
            int r = brass_reason(g, a);
            FUZZ_CHECK((r == 0) == legal[a], "reason %d for id %d listed %d", r, a, legal[a]);
            if (apply_checked(g, BH(g)->current, a, legal) == BRASS_OK) turn_note(&turn, g, &a, 1);
        } else if (c < 248) {                        /* out of the action space */
            static const int bad[] = {-1, BHAM_NUM_ACTIONS, 65535, -32768, 1 << 20, BHAM_NUM_ACTIONS + 1,
                                      -2, 100000};
            FUZZ_CHECK(apply_checked(g, BH(g)->current, bad[c - 240], legal) == BRASS_E_UNKNOWN_ACTION,
                       "unknown id");
        } else if (c < 252) {                        /* another seat, or a bad one */
            int seat = c == 248 ? (BH(g)->current + 1) % BH(g)->num_players : c == 249 ? BH(g)->num_players
                     : c == 250 ? -2 : 99;
            int err = apply_checked(g, seat, opts[0], legal);
            FUZZ_CHECK(err == (c == 248 ? BRASS_E_NOT_YOUR_TURN : BRASS_E_BAD_ARGUMENT),
                       "seat %d: err %d", seat, err);
        } else {                                     /* a whole compound action */
            static uint16_t ids[64 * 32];
            static uint32_t offs[65];
            int trunc = 0;
            int k = brass_compound_actions(g, ids, 64 * 32, offs, 64, &trunc);
            FUZZ_CHECK(k > 0 || trunc, "no compound action");
            if (k > 0) {
                int pick = (int)(i % (size_t)k);
                BrassGame before = *g;
                int reason = 0, at = 0;
                int err = brass_apply_sequence(g, BH(g)->current, ids + offs[pick],
                                               (int)(offs[pick + 1] - offs[pick]), NULL, &reason, &at);
                FUZZ_CHECK(err == BRASS_OK, "compound refused at %d: %d/%d", at, err, reason);
                FUZZ_CHECK(memcmp(&before, g, STATE_SIZE) != 0, "compound changed nothing");
                check_valid(g, "a compound action");
                turn_note(&turn, g, ids + offs[pick], (int)(offs[pick + 1] - offs[pick]));
            }
        }
    }
}

/* Everything on one valid state; then decisions driven by `choices`. */
static void exercise(BrassGame *g, const uint8_t *choices, size_t nchoices) {
    check_valid(g, "acceptance");
    check_snapshot(g);
    uint64_t h = brass_hash(g);
    BrassGame copy = *g;
    FUZZ_CHECK(brass_hash(&copy) == h, "hash of a copy");
    uint16_t opts[BHAM_NUM_ACTIONS];
    uint8_t legal[BHAM_NUM_ACTIONS];
    int n = legal_set(g, opts, legal);
    /* every id: reason and apply agree with the legal list */
    for (int a = 0; a < BHAM_NUM_ACTIONS; a++) {
        int r = brass_reason(g, a);
        FUZZ_CHECK((r == 0) == (legal[a] != 0), "id %d: reason %d, listed %d", a, r, legal[a]);
        BrassGame c = *g;
        apply_checked(&c, -1, a, legal);
    }
    (void)n;
    check_information(g, h);
    check_compounds(g, choices, nchoices);
    FUZZ_CHECK(memcmp(&copy, g, STATE_SIZE) == 0, "a read-only call changed the state");
    drive(g, choices, nchoices, 64);
    check_snapshot(g);
}

#endif
