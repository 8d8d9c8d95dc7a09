/* Pittsburgh's entry in the engine's ruleset table (core_c/src/ruleset.h): sizes, its
   options (every key of the data file's `options`, only the values the C rules play) and
   the casts from the opaque BrassGame handle to PittsburghGame (header first). */
#include "pgh_internal.h"
#include "ruleset.h"
#include "common/json_writer.h"
#include "pgh_tables_pittsburgh.h"


#define PG(g) ((PittsburghGame *)(void *)(g))
#define CPG(g) ((const PittsburghGame *)(const void *)(g))

#define PGH_OPTION(key, kind, impl, ...) static const char *const VALUES_##key[] = {__VA_ARGS__};
#include "pgh_options.def"
#undef PGH_OPTION
static const char *const VALUES_data[] = {"pittsburgh", "tiny"};

/* implemented values are always the first ones (0, 0-1, 0-2 ...: checked below) */
#define IMPLEMENTED(mask) (uint8_t)(((mask) & 8) ? 4 : ((mask) & 4) ? 3 : ((mask) & 2) ? 2 : 1)
static const BrassOptionInfo PGH_OPTIONS[PGH_NUM_ALL_OPTIONS + 1] = {
#define PGH_OPTION(key, kind, impl, ...)                                                        \
    [OPT_##key] = {#key, "PITTSBURGH_RULINGS.md " PGH_PITTSBURGH_RULING_##key, kind == 0, IMPLEMENTED(impl), \
                   0, IMPLEMENTED(impl) - 1, PGH_PITTSBURGH_DEFAULT_##key, {0}, VALUES_##key},
#include "pgh_options.def"
#undef PGH_OPTION
    [PGH_OPT_DATA] = {"data", "table set: the draft data file or the tiny synthetic test map", 0, 2, 0, 1, 0,
                      {0}, VALUES_data},
    [PGH_OPT_UNDO] = {"undo", "the seat to act may take back its decisions of this turn up to "
                      "a reveal (false for tournaments)", 1, 0, 0, 1, 1, {0}, NULL, 0},
};
#define PGH_OPTION(key, kind, impl, ...) \
    _Static_assert(((impl) & ((impl) + 1)) == 0, "implemented values of " #key " come first");
#include "pgh_options.def"
#undef PGH_OPTION

static int new_game(BrassGame *g, const BrassOptions *opt, uint64_t seed) {
    PghOptions o = {.players = opt->players, .auto_resolve = opt->auto_resolve};
    for (int i = 0; i < PGH_NUM_ALL_OPTIONS; i++) o.values[i] = opt->values[i];
    int err = pgh_new(PG(g), &o, seed, NULL, 0);
    if (!err) PG(g)->h.undo_off = opt->values[PGH_OPT_UNDO] ? 0 : 1;
    return err;
}
static int validate(const BrassGame *g, char *f, size_t n) { return pgh_validate(CPG(g), f, n); }
static int legal(const BrassGame *g, uint16_t *out, int cap) { return pgh_legal(CPG(g), out, cap); }
static int reason(const BrassGame *g, int action) { return pgh_reason(CPG(g), action); }
static void apply_legal(BrassGame *g, int action, BrassEventLog *log, int resolve_forced) {
    pgh_apply_legal(PG(g), action, log, resolve_forced);
}
static int action_ended(const BrassGame *after, const BrassGame *before) {
    return pgh_action_ended(CPG(after), CPG(before));
}
static void redact(const BrassGame *g, int seat, BrassGame *out) { pgh_redact(CPG(g), seat, PG(out)); }
static int determinize(BrassGame *g, int seat, uint64_t seed) { return pgh_determinize(PG(g), seat, seed); }
static void conceal(BrassGame *g, int seat) { pgh_conceal(PG(g), seat); }
static void redact_preview(const BrassGame *before, const BrassGame *after, int viewer, BrassGame *out) {
    pgh_redact_preview(CPG(before), CPG(after), viewer, PG(out));
}
static int observation(const BrassGame *g, int seat, float *out, int cap) {
    return pgh_observation(CPG(g), seat, out, cap);
}
static int summary(const BrassGame *g, int32_t *out, int cap) { return pgh_summary(CPG(g), out, cap); }
/* Pittsburgh's writer writes snake_case keys and nulls; other key styles are that text
   re-keyed (common/json_writer.h). */
static int position_json(const BrassGame *g, int seat, int hidden, int keys, char *out,
                         int cap) {
    int n = pgh_position_json(CPG(g), seat, hidden, out, cap);
    return n < 0 || hidden ? n : json_rekey(out, n, keys, PGH_VIEW_MAPS);
}
static int view_proto(const BrassGame *g, int seat, int undo_steps, int undo_refused,
                      uint8_t *out, int cap) {
    return pgh_view_proto(CPG(g), seat, undo_steps, undo_refused, out, cap);
}
static int position_read(BrassGame *g, const char *json, size_t len, char *field, size_t field_len,
                         char *message, size_t message_len) {
    PittsburghGame tmp;
    int r = pgh_position_read(&tmp, json, len, field, field_len, message, message_len);
    if (r == BRASS_OK) memcpy(g, &tmp, sizeof tmp);
    return r;
}
static int result(const BrassGame *g, BrassResult *out) { return pgh_result(CPG(g), out); }
static int sane_options(const BrassGame *g, const uint16_t *opts, int n, uint16_t *keep) {
    return pgh_sane_options(CPG(g), opts, n, keep);
}
static int decision_kind(const BrassGame *g) { return CPG(g)->h.phase; }
static uint32_t decisions(const BrassGame *g) { return CPG(g)->decisions; }
static void set_seed(BrassGame *g, uint64_t seed) {
    PG(g)->seed = seed;
    rng_seed(&PG(g)->rng_state, seed);
}
static const char *reason_message(int r) { return pgh_reason_message(r); }

/* Undo barriers (docs/UNDO.md): keys[0] a new turn (turn index, round, era, seat, the game's
   end); keys[1] what hidden information the seat to act has seen: the oilfield tiles turned
   face up (a pipeline's reveal, P25) and the cards left in the deck (anything drawn). */
static void undo_keys(const BrassGame *g, uint64_t keys[2]) {
    const PittsburghGame *p = CPG(g);
    keys[0] = (uint64_t)p->h.era | (uint64_t)p->h.round << 8 | (uint64_t)p->h.turn_idx << 16 |
              (uint64_t)p->h.current << 24 | (uint64_t)p->h.game_over << 32;
    uint64_t shown = 0;
    for (int f = 0; f < PGH_MAX_FIELDS; f++)
        if (p->fields[f].tile_state != FT_FACE_DOWN) shown |= 1ull << f;
    keys[1] = shown | (uint64_t)p->deck_size << 8;
}
static int at_action_start(const BrassGame *g) { return CPG(g)->h.phase == PP_ACTION; }

_Static_assert(sizeof(PittsburghGame) <= BRASS_MAX_STATE_SIZE, "state fits the handle");
_Static_assert(PGH_NUM_ALL_OPTIONS + 1 <= BRASS_MAX_OPTIONS, "options fit BrassOptions");
_Static_assert(PGH_RULESET_ID == BRASS_RULESET_PITTSBURGH, "ruleset id");
_Static_assert(PGH_NUM_ACTIONS <= BRASS_MAX_ACTIONS && PGH_OBS_SIZE <= BRASS_MAX_OBS_SIZE, "sizes");
_Static_assert(PGH_SUMMARY_SIZE <= BRASS_SUMMARY_CAP, "the summary fits");
_Static_assert(sizeof(PghHeader) == sizeof(BrassHeader) && offsetof(PghHeader, current) == offsetof(BrassHeader, current) &&
                   offsetof(PghHeader, game_over) == offsetof(BrassHeader, game_over),
               "the common header");

const BrassRuleset BRASS_PITTSBURGH = {
    .name = "pittsburgh",
    .title = "Brass: Pittsburgh (provisional: draft rulebook v2026.01, placeholder data)",
    .rules_edition = PGH_RULES_EDITION,
    .format_version = PGH_FORMAT_VERSION,
    .state_size = sizeof(PittsburghGame),
    .num_actions = PGH_NUM_ACTIONS,
    .observation_size = PGH_OBS_SIZE,
    .num_decision_kinds = PGH_NUM_PHASES,
    .num_event_types = PGH_NUM_EVENTS,
    .min_players = 2,
    .max_players = 4,
    .provisional = 1,
    .placeholders = "PH1,PH2,PH3,PH4,PH5,PH6",
    .options = PGH_OPTIONS,
    .num_options = PGH_NUM_ALL_OPTIONS + 1,
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
    .position_read = position_read,
    .result = result,
    .sane_options = sane_options,
    .decision_kind = decision_kind,
    .decisions = decisions,
    .undo_mark_offset = offsetof(PittsburghGame, undo),
    .undo_off_offset = offsetof(PittsburghGame, h.undo_off),
    .undo_keys = undo_keys,
    .at_action_start = at_action_start,
    .set_seed = set_seed,
    .action_name = pgh_action_name,
    .decision_name = pgh_phase_name,
    .reason_name = pgh_reason_name,
    .reason_message = reason_message,
    .event_name = pgh_event_name,
    .event_fields = pgh_event_fields,
    .conceal = conceal,
    .redact_preview = redact_preview,
};
