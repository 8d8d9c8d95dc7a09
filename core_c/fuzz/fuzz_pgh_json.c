/*
 * Fuzz harness of Pittsburgh's JSON position reader (core_c/src/pittsburgh/pgh_position.c),
 * libFuzzer + ASan + UBSan. Two kinds of input:
 *   text starting with '{': the reader gets the bytes as they are (the seed corpus holds
 *       positions the engine wrote, so mutations stay close to real ones);
 *   else: table set, players, seed and a decision count from the first bytes; that game's
 *       written position then has bytes replaced at chosen offsets before it is read.
 * A refused text must name a field; an accepted one must be a state the engine keeps its
 * promises on: it validates, writes again and reads back to the same bytes, has a legal
 * option (unless over) and stays valid through decisions. A broken promise aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pittsburgh/pgh_internal.h"

#define REQUIRE(cond, what)                                              \
    do {                                                                 \
        if (!(cond)) {                                                   \
            fprintf(stderr, "FUZZ CHECK FAILED: pgh json: %s (%s)\n", what, #cond); \
            abort();                                                     \
        }                                                                \
    } while (0)

static char text[PGH_POSITION_MAX_CHARS + 1];
static char again[32768];

static void check_accepted(const PittsburghGame *g0, uint64_t salt) {
    char field[96];
    REQUIRE(pgh_validate(g0, field, sizeof field) == BRASS_OK, "an accepted position does not validate");
    int len = pgh_position_json(g0, -1, 1, again, sizeof again);
    REQUIRE(len > 0, "an accepted position cannot be written");
    PittsburghGame back;
    char msg[192];
    REQUIRE(pgh_position_read(&back, again, (size_t)len, field, sizeof field, msg, sizeof msg) == BRASS_OK,
            "the engine's own text of an accepted position is refused");
    REQUIRE(!memcmp(&back, g0, sizeof back), "written and read again, the state differs");
    PittsburghGame g = *g0;
    uint64_t rng;
    rng_seed(&rng, salt);
    for (int k = 0; k < 8 && !g.h.game_over; k++) {
        uint16_t opts[PGH_NUM_ACTIONS];
        int n = pgh_legal(&g, opts, PGH_NUM_ACTIONS);
        REQUIRE(n > 0, "an accepted position has no legal option");
        REQUIRE(pgh_apply(&g, g.h.current, opts[rng_below(&rng, (uint32_t)n)], NULL, NULL) == BRASS_OK,
                "a legal id refused");
        REQUIRE(pgh_validate(&g, field, sizeof field) == BRASS_OK, "play from an accepted position made it invalid");
        for (int p = 0; p < g.h.num_players; p++) REQUIRE(g.players[p].money >= 0, "negative money");
    }
}

static void read_text(const char *s, size_t n, uint64_t salt) {
    PittsburghGame g;
    char field[96] = "", msg[192] = "";
    int r = pgh_position_read(&g, s, n, field, sizeof field, msg, sizeof msg);
    if (r != BRASS_OK) {
        REQUIRE(r == BRASS_E_BAD_POSITION, "a refusal that is not BAD_POSITION");
        REQUIRE(field[0] && msg[0], "a refusal names no field or says nothing");
        return;
    }
    check_accepted(&g, salt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size && data[0] == '{') {
        if (size > PGH_POSITION_MAX_CHARS + 16) return 0;
        read_text((const char *)data, size, size);
        return 0;
    }
    if (size < 12) return 0;
    PghOptions o = {.players = (uint8_t)(2 + data[0] % 3), .auto_resolve = (uint8_t)(data[1] & 1)};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
    o.values[PGH_OPT_DATA] = (int16_t)((data[1] >> 1) & 1);
    uint64_t seed;
    memcpy(&seed, data + 2, 8);
    PittsburghGame g;
    REQUIRE(pgh_new(&g, &o, seed, NULL, 0) == BRASS_OK, "new game");
    uint64_t rng;
    rng_seed(&rng, seed);
    for (int k = 0; k < data[10] * 2 && !g.h.game_over; k++) {
        uint16_t opts[PGH_NUM_ACTIONS];
        int n = pgh_legal(&g, opts, PGH_NUM_ACTIONS);
        pgh_apply(&g, g.h.current, opts[rng_below(&rng, (uint32_t)n)], NULL, NULL);
    }
    int len = pgh_position_json(&g, -1, 1, text, sizeof text);
    REQUIRE(len > 0, "a played position cannot be written");
    /* (offset, byte) pairs: data[11..] */
    for (size_t i = 11; i + 2 < size && i < 11 + 3 * 16; i += 3) {
        size_t off = (size_t)(data[i] | data[i + 1] << 8) % (size_t)len;
        text[off] = (char)data[i + 2];
    }
    read_text(text, (size_t)len, seed);
    return 0;
}
