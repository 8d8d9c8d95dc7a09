/* Birmingham's entry in the ruleset table: its sizes, options and the casts from the
   opaque BrassGame handle to BirminghamGame (the handle holds it, header first). */
#include "bham_internal.h"
#include "ruleset.h"

#define BG(g) ((BirminghamGame *)(void *)(g))
#define CBG(g) ((const BirminghamGame *)(const void *)(g))

static const BrassOptionInfo BHAM_OPTIONS[BHAM_NUM_OPTIONS] = {
    [BHAM_OPT_BEGINNER] = {"beginner", "the beginner variant: the Canal Era only", 1, 0, 0,
                           1, 0, {0}, NULL, 0},
    [BHAM_OPT_MANUFACTURER_IV_COST] = {"manufacturer_iv_cost",
                                       "money cost of the level IV manufacturer tile (8 or 14)", 0,
                                       2, 8, 14, 8, {8, 14}, NULL, 0},
    [BHAM_OPT_UNDO] = {"undo", "the seat to act may take back its decisions of this turn "
                       "(false for tournaments)", 1, 0, 0, 1, 1, {0}, NULL, 0},
};

static int new_game(BrassGame *g, const BrassOptions *opt, uint64_t seed) {
    return bham_new(BG(g), opt, seed);
}
static int validate(const BrassGame *g, char *field, size_t field_len) {
    return bham_validate(CBG(g), field, field_len);
}
static int legal(const BrassGame *g, uint16_t *out, int cap) { return legal_into(CBG(g), out, cap); }
static int reason(const BrassGame *g, int action) { return bham_reason(CBG(g), action); }
static void apply_legal(BrassGame *g, int action, BrassEventLog *log, int resolve_forced) {
    bham_apply_legal(BG(g), action, log, resolve_forced);
}
static int action_ended(const BrassGame *after, const BrassGame *before) {
    return bham_action_ended(CBG(after), CBG(before));
}
static void redact(const BrassGame *g, int seat, BrassGame *out) { bham_redact(CBG(g), seat, BG(out)); }
static int determinize(BrassGame *g, int seat, uint64_t seed) {
    return bham_determinize(BG(g), seat, seed);
}
static void conceal(BrassGame *g, int seat) { bham_conceal(BG(g), seat); }
static void redact_preview(const BrassGame *before, const BrassGame *after, int viewer,
                           BrassGame *out) {
    bham_redact_preview(CBG(before), CBG(after), viewer, BG(out));
}
static int observation(const BrassGame *g, int seat, float *out, int cap) {
    return bham_observation(CBG(g), seat, out, cap);
}
_Static_assert(BHAM_SUMMARY_SIZE <= BRASS_SUMMARY_CAP, "the summary fits");
static int summary(const BrassGame *g, int32_t *out, int cap) { return bham_summary(CBG(g), out, cap); }
static int position_json(const BrassGame *g, int seat, int hidden, int keys, char *out,
                         int cap) {
    return bham_position_json(CBG(g), seat, hidden, keys, out, cap);
}
static int view_proto(const BrassGame *g, int seat, int undo_steps, int undo_refused,
                      uint8_t *out, int cap) {
    return bham_view_proto(CBG(g), seat, undo_steps, undo_refused, out, cap);
}
static int result(const BrassGame *g, BrassResult *out) { return bham_result(CBG(g), out); }
static int sane_options(const BrassGame *g, const uint16_t *opts, int n, uint16_t *keep) {
    return bham_sane_options(CBG(g), opts, n, keep);
}
static int decision_kind(const BrassGame *g) { return CBG(g)->phase; }
/* Undo barriers (docs/UNDO.md): a new turn (another turn index, round, era or seat, an
   income shortfall, the game's end). Nothing hidden becomes visible to the seat to act
   within a Birmingham turn (cards are drawn as it ends), so keys[1] never moves. */
static void undo_keys(const BrassGame *g, uint64_t keys[2]) {
    const BirminghamGame *b = CBG(g);
    keys[0] = (uint64_t)b->era | (uint64_t)b->round << 8 | (uint64_t)b->turn_idx << 16 |
              (uint64_t)b->current << 24 | (uint64_t)b->game_over << 32 |
              (uint64_t)(b->phase == PH_SHORTFALL) << 33;
    keys[1] = 0;
}
static int at_action_start(const BrassGame *g) { return CBG(g)->phase == PH_ACTION; }
static uint32_t decisions(const BrassGame *g) { return CBG(g)->decisions; }
static void set_seed(BrassGame *g, uint64_t seed) {
    BG(g)->seed = seed;
    rng_seed(&BG(g)->rng_state, seed);
}

const BrassRuleset BRASS_BIRMINGHAM = {
    .name = "birmingham",
    .title = "Brass: Birmingham",
    .rules_edition = BHAM_RULES_EDITION,
    .format_version = BHAM_FORMAT_VERSION,
    .state_size = sizeof(BirminghamGame),
    .num_actions = BHAM_NUM_ACTIONS,
    .observation_size = BHAM_OBS_SIZE,
    .num_decision_kinds = NUM_PHASES,
    .num_event_types = NUM_EVENT_TYPES,
    .min_players = 2,
    .max_players = 4,
    .provisional = 0,
    .placeholders = "",
    .options = BHAM_OPTIONS,
    .num_options = BHAM_NUM_OPTIONS,
    .new_game = new_game,
    .validate = validate,
    .legal = legal,
    .reason = reason,
    .apply_legal = apply_legal,
    .action_ended = action_ended,
    .redact = redact,
    .determinize = determinize,
    .observation = observation,
    .summary = summary,
    .position_json = position_json,
    .view_proto = view_proto,
    .result = result,
    .sane_options = sane_options,
    .decision_kind = decision_kind,
    .decisions = decisions,
    .undo_mark_offset = offsetof(BirminghamGame, undo),
    .undo_off_offset = offsetof(BirminghamGame, undo_off),
    .undo_keys = undo_keys,
    .at_action_start = at_action_start,
    .set_seed = set_seed,
    .action_name = bham_action_name,
    .decision_name = bham_phase_name,
    .reason_name = bham_reason_name,
    .reason_message = bham_reason_message,
    .event_name = bham_event_name,
    .event_fields = bham_event_fields,
    .conceal = conceal,
    .redact_preview = redact_preview,
};
