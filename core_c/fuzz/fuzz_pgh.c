/*
 * Pittsburgh fuzz harness (libFuzzer + ASan + UBSan). Two kinds of input (first byte):
 *   even: decisions - table set, players and seed, then each byte picks one legal option;
 *   odd:  positions - a game played some decisions, then bytes overwritten at chosen offsets;
 *         a state pgh_validate accepts is then played on at random.
 * Aborts (a finding) when an engine promise breaks: a valid state always has a legal option,
 * stays valid after every decision, legal list and pgh_reason agree, a refused id leaves the
 * state unchanged, money never goes negative, redact / determinize / observation / JSON and
 * protobuf views work (the views refuse, never misread, a mutated state).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/json_writer.h"
#include "pittsburgh/pgh_internal.h"

#define REQUIRE(cond, what)                                          \
    do {                                                             \
        if (!(cond)) {                                               \
            fprintf(stderr, "pgh fuzz: %s (%s)\n", what, #cond);     \
            abort();                                                 \
        }                                                            \
    } while (0)

static void check_step(PittsburghGame *g, uint8_t pick, uint8_t probe) {
    uint16_t opts[PGH_NUM_ACTIONS];
    int n = pgh_legal(g, opts, PGH_NUM_ACTIONS);
    REQUIRE(n > 0, "a valid state has no legal option");
    int a = probe % PGH_NUM_ACTIONS, legal = 0;
    for (int i = 0; i < n; i++) legal |= opts[i] == a;
    REQUIRE((pgh_reason(g, a) == PR_LEGAL) == legal, "reason disagrees with the legal list");
    if (!legal) {
        PittsburghGame copy = *g;
        int why;
        REQUIRE(pgh_apply(&copy, g->h.current, a, NULL, &why) == BRASS_E_ILLEGAL, "illegal id accepted");
        REQUIRE(!memcmp(&copy, g, sizeof *g), "a refused id changed the state");
    }
    int seat = g->h.current;
    REQUIRE(pgh_apply(g, seat, opts[pick % n], NULL, NULL) == BRASS_OK, "a legal id refused");
    char field[64];
    REQUIRE(pgh_validate(g, field, sizeof field) == BRASS_OK, field);
    for (int p = 0; p < g->h.num_players; p++) REQUIRE(g->players[p].money >= 0, "negative money");
}

/* The protobuf view: written whole for a state the JSON writer takes, refused (never read
   out of bounds) for one it refuses. */
static void check_view_proto(const PittsburghGame *g, int seat, int json_written) {
    static uint8_t proto[BRASS_VIEW_PROTO_CAP];
    int p = pgh_view_proto(g, seat, 0, 0, proto, BRASS_VIEW_PROTO_CAP);
    REQUIRE(json_written ? p > 0 && p <= BRASS_VIEW_PROTO_CAP : p == -BRASS_E_BAD_POSITION,
            "proto view");
}

/* The view's text in the service's key styles (json_rekey, in place): no longer than the
   snake_case text, NUL-terminated, no null member left; the proto style's keys unchanged. */
static void check_rekey(const char *json, int n) {
    static char text[32768];
    for (int keys = BRASS_KEYS_CAMEL; keys <= BRASS_KEYS_PROTO; keys++) {
        memcpy(text, json, (size_t)n + 1);
        int m = json_rekey(text, n, keys, PGH_VIEW_MAPS);
        REQUIRE(m > 0 && m <= n && text[m] == 0 && strlen(text) == (size_t)m, "rekeyed length");
        REQUIRE(!strstr(text, ":null"), "a null member left");
        REQUIRE(keys == BRASS_KEYS_CAMEL || strstr(text, "\"income_space\""), "proto keys");
    }
}

static void check_views(const PittsburghGame *g) {
    static float obs[PGH_OBS_SIZE];
    static char json[32768];
    int seat = g->h.current;
    REQUIRE(pgh_observation(g, seat, obs, PGH_OBS_SIZE) > 0, "observation");
    int n = pgh_position_json(g, seat, 0, json, sizeof json);
    REQUIRE(n > 0, "json");
    check_rekey(json, n);
    check_view_proto(g, seat, 1);
    PittsburghGame d = *g;
    REQUIRE(pgh_determinize(&d, seat, 77) == BRASS_OK, "determinize");
    char field[64];
    REQUIRE(pgh_validate(&d, field, sizeof field) == BRASS_OK, "determinized state invalid");
    PittsburghGame a, b;
    pgh_redact(g, seat, &a);
    pgh_redact(&d, seat, &b);
    REQUIRE(!memcmp(&a, &b, sizeof a), "determinize changed what the seat sees");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 12) return 0;
    PghOptions o = {.players = (uint8_t)(2 + data[1] % 3), .auto_resolve = (uint8_t)(data[2] & 1)};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
    o.values[PGH_OPT_DATA] = (int16_t)((data[1] >> 4) & 1);
    uint64_t seed = 0;
    memcpy(&seed, data + 3, 8);
    PittsburghGame g;
    REQUIRE(pgh_new(&g, &o, seed, NULL, 0) == BRASS_OK, "new game");
    size_t i = 11;
    if (!(data[0] & 1)) {
        for (; i + 1 < size && !g.h.game_over; i += 2) check_step(&g, data[i], data[i + 1]);
        if (!g.h.game_over) check_views(&g);
        return 0;
    }
    /* positions: play data[11] decisions, then overwrite (offset, byte) pairs */
    uint64_t rng;
    rng_seed(&rng, seed);
    for (int k = 0; k < data[11] * 4 && !g.h.game_over; k++) {
        uint16_t opts[PGH_NUM_ACTIONS];
        int n = pgh_legal(&g, opts, PGH_NUM_ACTIONS);
        pgh_apply(&g, g.h.current, opts[rng_below(&rng, (uint32_t)n)], NULL, NULL);
    }
    for (i = 12; i + 2 < size && i < 12 + 3 * 8; i += 3) {
        size_t off = (size_t)(data[i] | data[i + 1] << 8) % sizeof g;
        ((uint8_t *)&g)[off] = data[i + 2];
    }
    {   /* the view writers stay in bounds whatever the bytes */
        static char json[32768];
        int seat = g.h.current < PGH_MAX_PLAYERS ? g.h.current : -1;
        check_view_proto(&g, seat, pgh_position_json(&g, seat, 0, json, sizeof json) > 0);
    }
    if (pgh_validate(&g, NULL, 0) != BRASS_OK || g.h.game_over) return 0;
    check_views(&g);
    for (int k = 0; k < 300 && !g.h.game_over; k++) check_step(&g, (uint8_t)rng_next(&rng), (uint8_t)k);
    return 0;
}
