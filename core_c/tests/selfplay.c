/* Self-play driver for the sanitizer build: random games with invariants checked after
   every decision. Usage: selfplay [games per player count [shard shards]]: with a shard,
   only the games whose index is that shard modulo shards (so several processes share the
   run, one per core). Exit 0 = all good. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brass.h"
#include "birmingham/birmingham.h"

/* Birmingham's fields behind a game handle; only its state bytes are compared */
#define BH(g) ((const BirminghamGame *)(const void *)(g))
#define STATE_SIZE brass_state_size(BRASS_RULESET_BIRMINGHAM)

static int failures;
#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond)) {                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                  \
            fprintf(stderr, "\n");                         \
            failures++;                                    \
            return;                                        \
        }                                                  \
    } while (0)

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void check_state(const BrassGame *g) {
    char field[64];
    const BirminghamPending *pd = &BH(g)->pend;
    CHECK(brass_validate(g, field, sizeof field) == BRASS_OK,
          "validate: %s (phase %d action %d card %d industry %d slot %d link %d merchant %d "
          "coal %d iron %d beer %d count %d scout %d income %d after %d last %d)",
          field, BH(g)->phase, pd->action, pd->card, pd->industry, pd->slot, pd->link, pd->merchant,
          pd->coal_left, pd->iron_left, pd->beer_left, pd->count, pd->scout_picked, pd->income_idx,
          pd->after_beer, pd->last_choice);
    uint8_t snap[2048];
    CHECK(brass_snapshot(g, snap, sizeof snap) == BRASS_OK, "snapshot");
    BrassGame r;
    CHECK(brass_restore(&r, snap, brass_snapshot_size(BRASS_RULESET_BIRMINGHAM), BRASS_RULESET_BIRMINGHAM) == BRASS_OK, "restore");
    CHECK(memcmp(&r, g, STATE_SIZE) == 0, "restore differs");
    snap[20] ^= 0x5a;
    CHECK(brass_restore(&r, snap, brass_snapshot_size(BRASS_RULESET_BIRMINGHAM), BRASS_RULESET_BIRMINGHAM) == BRASS_E_BAD_SNAPSHOT, "corrupt accepted");
    BrassGame view;
    static char json[BRASS_JSON_CAP];
    for (int s = -1; s < BH(g)->num_players; s++) {
        brass_redact(g, s, &view);
        int n = brass_view_json(g, s, json, BRASS_JSON_CAP);
        CHECK(n > 0 && json[n] == 0 && strlen(json) == (size_t)n, "view json");
        static char camel[BRASS_JSON_CAP];
        int m = brass_view_json_keys(g, s, BRASS_KEYS_CAMEL, camel, BRASS_JSON_CAP);
        CHECK(m > n / 2 && m <= n && strlen(camel) == (size_t)m, "camel view json");
        CHECK(brass_view_json_keys(g, s, BRASS_KEYS_CAMEL, camel, m) == -BRASS_E_BUFFER,
              "camel view json short buffer");
        CHECK(brass_view_json(g, s, json, 100) == -BRASS_E_BUFFER, "view json short buffer");
        /* the typed view in protobuf binary; a short buffer is refused, and nothing is
           written past its end (the bytes after it keep their mark) */
        static uint8_t proto[BRASS_VIEW_PROTO_CAP];
        int p = brass_view_proto(g, s, proto, BRASS_VIEW_PROTO_CAP);
        CHECK(p > 0 && p <= BRASS_VIEW_PROTO_CAP, "proto view");
        CHECK(brass_view_proto(g, s, proto, p - 1) == -BRASS_E_BUFFER, "proto view short buffer");
        int short_cap = 1 + (p / 2 + (s + 1) * 131) % (p - 1); /* (a cap of 0 is a bad argument) */
        memset(proto, 0xA5, (size_t)p);
        CHECK(brass_view_proto(g, s, proto, short_cap) == -BRASS_E_BUFFER,
              "proto view short buffer");
        for (int i = short_cap; i < p; i++) CHECK(proto[i] == 0xA5, "proto view past its cap");
    }
    int n = brass_position_json(g, json, BRASS_JSON_CAP);
    CHECK(n > 0 && json[n] == 0 && strlen(json) == (size_t)n, "position json");
    float obs[BHAM_OBS_SIZE];
    CHECK(brass_observation(g, 0, obs, BHAM_OBS_SIZE) > 0, "observation");
    for (int p = 0; p < BH(g)->num_players; p++) CHECK(BH(g)->players[p].money >= 0, "money < 0");
}

static void play(int players, uint64_t seed, int policy_mix) {
    BrassOptions opt = {BRASS_RULESET_BIRMINGHAM, (uint8_t)players, (uint8_t)(seed % 2), 0,
                        {[BHAM_OPT_BEGINNER] = seed % 7 == 0,
                         [BHAM_OPT_MANUFACTURER_IV_COST] = seed % 3 ? 8 : 14}};
    BrassGame g;
    CHECK(brass_new(&g, &opt, seed) == BRASS_OK, "new");
    uint64_t rng = seed * 977 + 1;
    uint16_t opts[BHAM_NUM_ACTIONS];
    int decisions = 0, rounds_seen[2] = {0, 0};
    while (!BH(&g)->game_over) {
        check_state(&g);
        if (failures) return;
        int n = brass_legal(&g, opts, BHAM_NUM_ACTIONS);
        CHECK(n > 0, "no legal options at decision %d phase %d", decisions, BH(&g)->phase);
        /* every listed option applies; a sample of the others is refused, state unchanged */
        uint8_t legal[BHAM_NUM_ACTIONS] = {0};
        for (int i = 0; i < n; i++) legal[opts[i]] = 1;
        for (int a = 0; a < BHAM_NUM_ACTIONS; a++) {
            BrassGame c = g;
            int reason = 0;
            int err = brass_apply(&c, BH(&g)->current, a, NULL, &reason);
            if (legal[a]) {
                CHECK(err == BRASS_OK, "legal id %d refused (%d/%d)", a, err, reason);
                /* brass_apply takes a listed id on the list's word (the engine's legal memo):
                   the reason check must agree with the list on its own */
                CHECK(brass_reason(&g, a) == BRASS_R_LEGAL, "reason of legal id %d is %d", a,
                      brass_reason(&g, a));
            } else {
                CHECK(err == BRASS_E_ILLEGAL && reason != 0, "illegal id %d accepted", a);
                CHECK(memcmp(&c, &g, STATE_SIZE) == 0, "refused id %d changed state", a);
            }
            if (failures) return;
        }
        BrassGame c = g;
        CHECK(brass_apply(&c, (BH(&g)->current + 1) % players, opts[0], NULL, NULL) == BRASS_E_NOT_YOUR_TURN,
              "wrong seat accepted");
        if (decisions % 50 == 0) {
            static uint16_t ids[1 << 16];
            static uint32_t offs[4097];
            int trunc = 0;
            int k = brass_compound_actions(&g, ids, 1 << 16, offs, 4096, &trunc);
            CHECK(k > 0, "no compound actions");
            BrassGame d = g;
            int at = 0, reason = 0;
            int j = (int)(lcg(&rng) % (uint64_t)k);
            CHECK(brass_apply_sequence(&d, BH(&g)->current, ids + offs[j], (int)(offs[j + 1] - offs[j]), NULL,
                                       &reason, &at) == BRASS_OK,
                  "compound %d refused at %d (%d)", j, at, reason);
            BrassGame det = g;
            CHECK(brass_determinize(&det, BH(&g)->current, seed + 5) == BRASS_OK, "determinize");
            CHECK(brass_validate(&det, NULL, 0) == BRASS_OK, "determinized state invalid");
            BrassGame v1, v2;
            brass_redact(&g, BH(&g)->current, &v1);
            brass_redact(&det, BH(&g)->current, &v2);
            CHECK(memcmp(&v1, &v2, STATE_SIZE) == 0, "determinize changed the seat's view");
            /* a deal no seat can tell from the true one (its own hand and view kept, the deck
               order and the others' hands re-dealt) determinizes the same for a seed: the
               result depends on what the seat knows only */
            for (int s = 0; s < players; s++) {
                BrassGame twin = g, a = g, b;
                CHECK(brass_determinize(&twin, s, seed + 11 + (uint64_t)s) == BRASS_OK, "twin");
                b = twin;
                CHECK(brass_determinize(&a, s, seed + 3) == BRASS_OK, "determinize");
                CHECK(brass_determinize(&b, s, seed + 3) == BRASS_OK, "determinize the twin");
                CHECK(memcmp(&a, &b, STATE_SIZE) == 0,
                      "determinize(%d) depends on hidden cards at decision %d", s, decisions);
            }
        }
        int pick = opts[lcg(&rng) % (uint64_t)n];
        if (policy_mix && BH(&g)->phase == 0 && n > 2) {
            for (int i = 0; i < n; i++)
                if (opts[i] != 4 && opts[i] != 6) { pick = opts[(i + (int)(lcg(&rng) % 3)) % n]; break; }
        }
        /* a preview depends on what the seat to act knows only: a twin deal gives the same */
        BrassGame twin = g, seen, twin_seen;
        CHECK(brass_determinize(&twin, BH(&g)->current, seed + (uint64_t)decisions) == BRASS_OK,
              "determinize twin");
        uint16_t picked = (uint16_t)pick;
        CHECK(brass_preview(&g, BH(&g)->current, &picked, 1, &seen, NULL, NULL, NULL) == BRASS_OK,
              "preview");
        CHECK(brass_preview(&twin, BH(&g)->current, &picked, 1, &twin_seen, NULL, NULL, NULL) ==
                  BRASS_OK, "preview of the twin");
        CHECK(memcmp(&seen, &twin_seen, STATE_SIZE) == 0, "a preview shows hidden cards");
        static char preview_json[BRASS_JSON_CAP];
        CHECK(brass_view_json(&seen, BH(&g)->current, preview_json, BRASS_JSON_CAP) > 0, "preview json");
        int era = BH(&g)->era;
        /* every other decision through brass_step: the same move, its packed counts */
        if (decisions & 1) {
            static BrassEventLog step_log;
            int step = brass_step(&g, BH(&g)->current, pick, &step_log, NULL);
            CHECK(step > 0 && (uint32_t)(step & BRASS_STEP_EVENTS_MASK) == step_log.count &&
                      (step >> BRASS_STEP_DEPTH_SHIFT & 255) == brass_undo_depth(&g) &&
                      step >> BRASS_STEP_PLAYERS_SHIFT == BH(&g)->num_players,
                  "step");
        } else {
            CHECK(brass_apply(&g, BH(&g)->current, pick, NULL, NULL) == BRASS_OK, "apply");
        }
        if (!BH(&g)->game_over || BH(&g)->era != era) rounds_seen[era] = BH(&g)->round > rounds_seen[era] ? BH(&g)->round : rounds_seen[era];
        decisions++;
        CHECK(decisions < 20000, "game does not end");
    }
    check_state(&g);
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 20;
    int shard = argc > 3 ? atoi(argv[2]) : 0, shards = argc > 3 ? atoi(argv[3]) : 1;
    if (games < 0 || shards < 1 || shard < 0 || shard >= shards) {
        fprintf(stderr, "usage: selfplay [games [shard shards]]\n");
        return 2;
    }
    int played = 0;
    for (int players = 2; players <= 4; players++)
        for (int i = shard; i < games && !failures; i += shards) {
            play(players, (uint64_t)(players * 100000 + i), i & 1);
            played++;
        }
    printf("selfplay: %d games per player count, shard %d of %d, %d games played, %d failures\n",
           games, shard, shards, played, failures);
    return failures ? 1 : 0;
}
