#define _POSIX_C_SOURCE 199309L
/* Pittsburgh self-play with invariants, on both table sets and every player count.
   Usage: pgh_selfplay [games]      (checks; prints "pgh_selfplay: ... failures")
          pgh_selfplay bench [games] (random 4-player games per second, one core) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pittsburgh/pgh_internal.h"

static int failures;
#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            failures++;                                                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                 \
            fprintf(stderr, __VA_ARGS__);                                        \
            fprintf(stderr, "\n");                                               \
            return 0;                                                            \
        }                                                                        \
    } while (0)

/* Link tiles a player owns in all: supply + board + still locked on the mat. */
static int link_total(const PittsburghGame *g, int p, int lt) {
    const PghTables *T = pgh_T(g);
    int n = g->players[p].supply[lt];
    for (int r = 0; r < T->num_rails; r++) n += g->rails[r].owner == p && g->rails[r].link_type == lt;
    for (int q = 0; q < T->num_pipes; q++) n += g->pipes[q].owner == p && g->pipes[q].link_type == lt;
    for (int s = 0; s < T->num_link_slots; s++)
        n += T->link_slots[s].link_type == lt && !(g->players[p].slots_released & (1u << s));
    return n;
}

static int invariants(const PittsburghGame *g, const PittsburghGame *prev) {
    const PghTables *T = pgh_T(g);
    int n = g->h.num_players;
    int cards = g->deck_size;
    for (int c = 0; c < T->num_card_types; c++) cards += g->discards[c];
    for (int p = 0; p < n; p++) {
        const PghPlayer *pl = &g->players[p];
        CHECK(pl->money >= 0, "money of %d is %d", p, pl->money);
        CHECK(pl->whiskey <= T->whiskey_cap, "whiskey");
        CHECK(pl->income_space <= 99, "income");
        int hs = 0;
        for (int c = 0; c < PGH_MAX_CARD_TYPES; c++) hs += pl->hand[c];
        CHECK(hs == pl->hand_size, "hand size");
        cards += hs + (pl->facedown_card != PGH_NONE);
        for (int pos = 0; pos < T->num_positions; pos++) {
            CHECK(pl->mat_left[pos] <= prev->players[p].mat_left[pos], "mat grew");
            int on_board = 0, tile = T->positions[pos].tile;
            for (int s = 0; s < T->num_spaces; s++) on_board += g->spaces[s].owner == p && g->spaces[s].tile == tile;
            for (int f = 0; f < T->num_fields; f++)
                on_board += g->fields[f].oc_owner == p && T->tiles[tile].industry == PI_OIL_CITY;
            CHECK(on_board <= T->positions[pos].count - pl->mat_left[pos], "tile %d of %d from nowhere", tile, p);
        }
        for (int lt = 0; lt < T->num_link_types; lt++) {
            int start = T->supply_start[lt] + (lt == 0 ? T->light_trains : 0);
            for (int s = 0; s < T->num_link_slots; s++) start += T->link_slots[s].link_type == lt;
            int now = link_total(g, p, lt);
            CHECK(now == start, "link type %d of %d: %d, expected %d", lt, p, now, start);
        }
    }
    CHECK(cards == T->deck_size_for[n - 2], "cards %d, expected %d", cards, T->deck_size_for[n - 2]);
    for (int m = 0; m < T->num_markets; m++)
        for (int c = 0; c < 2; c++) CHECK(g->market_fill[m][c] <= pgh_market_slots(g, m, c), "market");
    CHECK(g->h.round >= 1 && g->h.round <= T->rounds_per_era, "round %d", g->h.round);
    CHECK(g->h.era >= prev->h.era, "era went back");
    if (g->h.era != prev->h.era) CHECK(prev->h.round == T->rounds_per_era, "era 1 ended after round %d", prev->h.round);
    if (g->h.round != prev->h.round && g->h.era == prev->h.era) CHECK(g->h.round == prev->h.round + 1, "round skipped");
    for (int s = 0; s < T->num_spaces; s++) {
        const PghSpace *sp = &g->spaces[s];
        if (sp->owner < 0) continue;
        CHECK(sp->owner < n, "owner");
        CHECK(!(sp->flipped && (sp->cubes[0] || sp->cubes[1])), "flipped tile holds cubes");
    }
    if (!g->h.game_over) CHECK(g->h.current == g->turn_order[g->h.turn_idx], "current seat");
    return 1;
}

/* The full position written and read back gives the same state bytes (so the same hash). */
static int round_trip(const PittsburghGame *g) {
    static char json[32768];
    int len = pgh_position_json(g, -1, 1, json, sizeof json);
    CHECK(len > 0, "full position not written (%d)", len);
    PittsburghGame back;
    char field[96] = "", msg[160] = "";
    int r = pgh_position_read(&back, json, (size_t)len, field, sizeof field, msg, sizeof msg);
    CHECK(r == BRASS_OK, "position read refused at %s: %s", field, msg);
    CHECK(!memcmp(&back, g, sizeof back) && pgh_hash(&back) == pgh_hash(g), "position read back differs");
    return 1;
}

/* Replayed from its seed and decisions, a game reaches the identical state (bytes, hash). */
static uint16_t played[20000];
static int replay_matches(const PghOptions *o, uint64_t seed, int n, const PittsburghGame *end) {
    PittsburghGame g;
    CHECK(pgh_new(&g, o, seed, NULL, 0) == BRASS_OK, "replay: new");
    for (int i = 0; i < n; i++)
        CHECK(pgh_apply(&g, g.h.current, played[i], NULL, NULL) == BRASS_OK, "replay: decision %d refused", i);
    CHECK(!memcmp(&g, end, sizeof g) && pgh_hash(&g) == pgh_hash(end), "replay reached another state");
    return 1;
}

static int play_one(int set, int players, uint64_t seed, int full_checks, int alternatives) {
    PghOptions o = {.players = (uint8_t)players, .auto_resolve = 1};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
    /* alternatives: every option at its last implemented value (all the non-default rules) */
    for (int i = 0; alternatives && i < PGH_NUM_OPTIONS; i++)
        for (int v = pgh_option_num_values(i) - 1; v > 0; v--)
            if (pgh_option_implemented(i, v)) {
                o.values[i] = (int16_t)v;
                break;
            }
    o.values[PGH_OPT_DATA] = (int16_t)set;
    PittsburghGame g, prev, copy;
    char err[128] = "";
    int r = pgh_new(&g, &o, seed, err, sizeof err);
    CHECK(r == BRASS_OK, "new: %s", err);
    prev = g;
    CHECK(invariants(&g, &prev), "start");
    uint64_t rng;
    rng_seed(&rng, seed * 7919 + 1);
    uint16_t opts[PGH_NUM_ACTIONS];
    int decisions = 0, rounds_seen = 1;
    while (!g.h.game_over) {
        int n = pgh_legal(&g, opts, PGH_NUM_ACTIONS);
        CHECK(n > 0, "no legal option in phase %s (set %d, %dp, seed %llu, decision %d)",
              pgh_phase_name(g.h.phase), set, players, (unsigned long long)seed, decisions);
        if (full_checks && decisions % 5 == 0) {
            int k = 0;
            for (int a = 0; a < PGH_NUM_ACTIONS; a++) {
                int legal = k < n && opts[k] == a;
                if (legal) k++;
                int why = pgh_reason(&g, a);
                CHECK((why == PR_LEGAL) == legal, "reason of %s disagrees with legal", pgh_action_name(a));
                if (!legal) {
                    copy = g;
                    int rr;
                    CHECK(pgh_apply(&copy, g.h.current, a, NULL, &rr) == BRASS_E_ILLEGAL && rr == why,
                          "illegal id accepted");
                    CHECK(!memcmp(&copy, &g, sizeof g), "refused id changed the state");
                }
            }
            char field[64] = "";
            CHECK(pgh_validate(&g, field, sizeof field) == BRASS_OK, "validate refuses a played state: %s", field);
            static float obs[PGH_OBS_SIZE];
            CHECK(pgh_observation(&g, g.h.current, obs, PGH_OBS_SIZE) > 0, "observation");
            static char json[32768];
            CHECK(pgh_position_json(&g, g.h.current, 0, json, sizeof json) > 0, "json");
            CHECK(round_trip(&g), "position round trip");
            PittsburghGame red, det = g;
            pgh_redact(&g, g.h.current, &red);
            CHECK(red.deck[0] == 0 && red.rng_state == 0, "redaction");
            CHECK(pgh_determinize(&det, g.h.current, seed + (uint64_t)decisions) == BRASS_OK, "determinize");
            CHECK(invariants(&det, &g), "determinized state");
            for (int c = 0; c < PGH_MAX_CARD_TYPES; c++)
                CHECK(det.players[g.h.current].hand[c] == g.players[g.h.current].hand[c], "own hand kept");
            PittsburghGame seen_before, seen_after;
            pgh_redact(&g, g.h.current, &seen_before);
            pgh_redact(&det, g.h.current, &seen_after);
            CHECK(!memcmp(&seen_before, &seen_after, sizeof seen_before), "determinize changed what the seat sees");
        }
        int a = opts[rng_below(&rng, (uint32_t)n)];
        played[decisions] = (uint16_t)a;
        prev = g;
        int rr;
        r = pgh_apply(&g, g.h.current, a, NULL, &rr);
        CHECK(r == BRASS_OK, "apply %s refused (%d, %s)", pgh_action_name(a), r, pgh_reason_name(rr));
        char vfield[64] = "";
        CHECK(pgh_validate(&g, vfield, sizeof vfield) == BRASS_OK, "validate refuses a played state: %s (after %s, phase %s)",
              vfield, pgh_action_name_in(set, a), pgh_phase_name(g.h.phase));
        if (!invariants(&g, &prev)) {
            fprintf(stderr, "  after %s (set %d, %dp, seed %llu)\n", pgh_action_name_in(set, a), set, players,
                    (unsigned long long)seed);
            return 0;
        }
        if (g.h.round != prev.h.round) rounds_seen++;
        CHECK(++decisions < 20000, "game does not end");
    }
    CHECK(rounds_seen == 2 * pgh_T(&g)->rounds_per_era, "rounds played %d", rounds_seen);
    char field[64] = "";
    CHECK(pgh_validate(&g, field, sizeof field) == BRASS_OK, "a finished game is refused: %s", field);
    CHECK(round_trip(&g), "finished game's position round trip");
    CHECK(replay_matches(&o, seed, decisions, &g), "replay of a finished game");
    uint8_t rank[4];
    CHECK(pgh_score_order(&g, rank) == players, "ranking");
    return 1;
}

/* process CPU time: the machine is shared, wall time measures the neighbours */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "bench")) {
        int games = argc > 2 ? atoi(argv[2]) : 2000;
        PghOptions o = {.players = 4, .auto_resolve = 1};
        for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
        long decisions = 0;
        double t0 = now();
        for (int i = 0; i < games; i++) {
            PittsburghGame g;
            pgh_new(&g, &o, (uint64_t)i + 1, NULL, 0);
            int d = pgh_playout(&g, 0, (uint64_t)i * 31 + 7, 100000);
            if (d < 0 || !g.h.game_over) {
                fprintf(stderr, "FAIL playout %d\n", i);
                return 1;
            }
            decisions += d;
        }
        double dt = now() - t0;
        printf("pgh_bench: %d random 4-player games in %.2f s CPU: %.0f games/s, %.0f decisions/s, %.0f decisions/game\n",
               games, dt, games / dt, decisions / dt, (double)decisions / games);
        return 0;
    }
    if (argc > 2 && !strcmp(argv[1], "json")) { /* a finished game's position, for the tests */
        PghOptions o = {.players = 4, .auto_resolve = 1};
        for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = -1;
        o.values[PGH_OPT_DATA] = (int16_t)(argc > 3 ? atoi(argv[3]) : 0);
        PittsburghGame g;
        if (pgh_new(&g, &o, (uint64_t)atoll(argv[2]), NULL, 0) != BRASS_OK) return 1;
        pgh_playout(&g, 1, 99, 200);
        static char json[32768];
        if (pgh_position_json(&g, -1, 1, json, sizeof json) < 0) return 1;
        puts(json);
        return 0;
    }
    if (argc > 2 && !strcmp(argv[1], "props")) { /* the property run: N games per player count */
        int games = atoi(argv[2]);
        for (int players = 2; players <= 4; players++)
            for (int i = 0; i < games; i++)
                play_one(i % 5 == 4 ? PGH_SET_TINY : PGH_SET_PITTSBURGH, players, (uint64_t)i * 7717 + players,
                         i % 25 == 0, i % 10 == 3);
        printf("pgh_props: %d games per player count, %d failures\n", games, failures);
        return failures != 0;
    }
    int games = argc > 1 ? atoi(argv[1]) : 100;
    for (int set = 0; set < PGH_NUM_SETS; set++)
        for (int players = 2; players <= 4; players++)
            for (int i = 0; i < games; i++) {
                play_one(set, players, (uint64_t)(i + 1) * 1000 + players, i % 10 == 0, 0);
                if (i % 4 == 0) play_one(set, players, (uint64_t)(i + 7) * 1000 + players, i % 8 == 0, 1);
            }
    printf("pgh_selfplay: %d games per player count and table set (and %d with every alternative option "
           "value), %d failures\n", games, (games + 3) / 4, failures);
    return failures != 0;
}
