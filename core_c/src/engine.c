#define _POSIX_C_SOURCE 199309L /* clock_gettime for the benchmark */
/* The public API: argument and header checks, then dispatch through the game's ruleset
   (ruleset.h). Nothing here knows a rule of any ruleset. */
#include <string.h>
#include <time.h>

#include "common/json_writer.h"
#include "common/rng.h"
#include "ruleset.h"

static const BrassRuleset *const RULESETS[BRASS_NUM_RULESETS] = {&BRASS_BIRMINGHAM, &BRASS_PITTSBURGH};

static const BrassRuleset *ruleset_by_id(int ruleset) {
    return ruleset >= 0 && ruleset < BRASS_NUM_RULESETS ? RULESETS[ruleset] : NULL;
}

static const BrassRuleset *ruleset_of(const BrassGame *g) {
    if (!g || g->header.magic != BRASS_MAGIC) return NULL;
    return ruleset_by_id(g->header.ruleset);
}

/* ---- rulesets ---- */

int brass_ruleset_info(int ruleset, BrassRulesetInfo *out) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs || !out) return BRASS_E_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->name = rs->name;
    out->title = rs->title;
    out->rules_edition = rs->rules_edition;
    out->format_version = rs->format_version;
    out->state_size = rs->state_size;
    out->num_actions = rs->num_actions;
    out->observation_size = rs->observation_size;
    out->num_decision_kinds = rs->num_decision_kinds;
    out->num_event_types = rs->num_event_types;
    out->min_players = rs->min_players;
    out->max_players = rs->max_players;
    out->num_options = (uint8_t)rs->num_options;
    out->provisional = rs->provisional;
    out->placeholders = rs->placeholders;
    return BRASS_OK;
}

int brass_option_info(int ruleset, int index, BrassOptionInfo *out) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs || !out || index < 0 || index >= rs->num_options) return BRASS_E_BAD_ARGUMENT;
    *out = rs->options[index];
    return BRASS_OK;
}

int brass_default_options(int ruleset, BrassOptions *out) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs || !out) return BRASS_E_BAD_ARGUMENT;
    uint8_t players = out->players, auto_resolve = out->auto_resolve;
    memset(out, 0, sizeof *out);
    out->ruleset = (uint8_t)ruleset;
    out->players = players;
    out->auto_resolve = auto_resolve;
    for (int i = 0; i < rs->num_options; i++) out->values[i] = rs->options[i].default_value;
    return BRASS_OK;
}

size_t brass_state_size(int ruleset) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs ? rs->state_size : 0;
}

int brass_num_actions(int ruleset) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs ? rs->num_actions : 0;
}

const char *brass_action_name(int ruleset, int action) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs && action >= 0 && action < rs->num_actions ? rs->action_name(action) : NULL;
}

const char *brass_decision_name(int ruleset, int kind) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs && kind >= 0 && kind < rs->num_decision_kinds ? rs->decision_name(kind) : NULL;
}

/* Names and messages of the shared reasons (brass.h), one text for every ruleset. */
static const char *const SHARED_REASONS[BRASS_NUM_SHARED_REASONS][2] = {
    [BRASS_R_LEGAL] = {"LEGAL", "legal"},
    [BRASS_R_WRONG_DECISION] = {"WRONG_DECISION", "that option belongs to another kind of decision"},
    [BRASS_R_CARD_NOT_IN_HAND] = {"CARD_NOT_IN_HAND", "that card is not in your hand"},
    [BRASS_R_NOT_ENOUGH_MONEY] = {"NOT_ENOUGH_MONEY", "not enough money"},
    [BRASS_R_NOT_IN_NETWORK] = {"NOT_IN_NETWORK", "that location is not in your network"},
    [BRASS_R_SLOT_OCCUPIED] = {"SLOT_OCCUPIED", "that slot is taken"},
    [BRASS_R_NO_TILES_LEFT] = {"NO_TILES_LEFT", "no tiles of that industry are left on your mat"},
    [BRASS_R_LINK_TAKEN] = {"LINK_TAKEN", "that route already has a link"},
    [BRASS_R_NO_LINK_TILES] = {"NO_LINK_TILES", "no link tiles left"},
    [BRASS_R_LOAN_LIMIT] = {"LOAN_LIMIT", "a loan may not take income below level -10"},
    [BRASS_R_NOT_ENOUGH_CARDS] = {"NOT_ENOUGH_CARDS", "not enough cards"},
    [BRASS_R_NOT_YOUR_TILE] = {"NOT_YOUR_TILE", "that tile is not yours"},
    [BRASS_R_NO_OPTION] = {"NO_OPTION", "nothing of that kind can be completed now"},
    [BRASS_R_CANONICAL_ORDER] = {"CANONICAL_ORDER", "unordered choices are taken in ascending order"},
    [BRASS_R_MUST_CHOOSE] = {"MUST_CHOOSE", "make at least one choice first"},
    [BRASS_R_INCOMPLETE_ACTION] = {"INCOMPLETE_ACTION", "a compound action must end where the action ends"},
    [BRASS_R_TOO_MANY_DECISIONS] = {"TOO_MANY_DECISIONS", "a compound action holds exactly one action"},
    [BRASS_R_NOTHING_TO_UNDO] = {"NOTHING_TO_UNDO", "no decision of this turn is left to take back"},
    [BRASS_R_UNDO_DISABLED] = {"UNDO_DISABLED", "this game's options turn undo off"},
    [BRASS_R_UNDO_BARRIER] = {"UNDO_BARRIER", "hidden information was revealed since: the decisions before it stand"},
};

const char *brass_reason_name(int ruleset, int reason) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs) return NULL;
    if (reason >= 0 && reason < BRASS_NUM_SHARED_REASONS) return SHARED_REASONS[reason][0];
    return reason >= BRASS_R_RULESET_FIRST ? rs->reason_name(reason) : NULL;
}

const char *brass_reason_message(int ruleset, int reason) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs || reason < 0) return NULL;
    const char *own = rs->reason_message(reason);
    if (own) return own;
    return reason < BRASS_NUM_SHARED_REASONS ? SHARED_REASONS[reason][1] : NULL;
}

const char *brass_event_name(int ruleset, int type) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs && type >= 0 && type < rs->num_event_types ? rs->event_name(type) : NULL;
}

const char *brass_event_fields(int ruleset, int type) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs || type < 0 || type >= rs->num_event_types) return NULL;
    return rs->event_fields ? rs->event_fields(type) : "a,b,c"; /* fields not named yet */
}

/* ---- lifecycle ---- */

int brass_new(BrassGame *g, const BrassOptions *opt, uint64_t seed) {
    const BrassRuleset *rs = opt ? ruleset_by_id(opt->ruleset) : NULL;
    if (!g || !rs) return BRASS_E_BAD_ARGUMENT;
    if (opt->players < rs->min_players || opt->players > rs->max_players || opt->auto_resolve > 1)
        return BRASS_E_BAD_ARGUMENT;
    for (int i = 0; i < BRASS_MAX_OPTIONS; i++) {
        int v = opt->values[i];
        if (i >= rs->num_options) {
            if (v) return BRASS_E_BAD_ARGUMENT; /* no such option */
            continue;
        }
        const BrassOptionInfo *o = &rs->options[i];
        int ok;
        if (o->value_names)
            ok = v >= 0 && v < o->num_allowed && !(v < 32 && (o->unimplemented >> v) & 1u);
        else if (o->is_bool) ok = v == 0 || v == 1;
        else ok = o->num_allowed == 0 && v >= o->min && v <= o->max;
        for (int k = 0; !o->value_names && k < o->num_allowed && k < 8; k++) ok |= v == o->allowed[k];
        if (!ok) return BRASS_E_BAD_ARGUMENT;
    }
    memset(g, 0, sizeof *g);
    return rs->new_game(g, opt, seed);
}

void brass_clone(BrassGame *dst, const BrassGame *src) {
    const BrassRuleset *rs = ruleset_of(src);
    if (!dst || !src) return;
    size_t n = rs ? rs->state_size : sizeof *src;
    memmove(dst, src, n); /* only the ruleset's bytes: Birmingham copies 648, not 2048 */
}

/* The common header's fields, checked for every ruleset before its own validation. */
static int validate_header(const BrassGame *g, const BrassRuleset **out, char *field,
                           size_t field_len) {
    const BrassHeader *h = &g->header;
    const char *bad = NULL;
    const BrassRuleset *rs = NULL;
    if (h->magic != BRASS_MAGIC) bad = "magic";
    else if (!(rs = ruleset_by_id(h->ruleset))) bad = "ruleset";
    else if (h->format_version != rs->format_version) bad = "format_version";
    else if (h->rules_edition < 1 || h->rules_edition > rs->rules_edition) bad = "rules_edition";
    else if (h->num_players < rs->min_players || h->num_players > rs->max_players) bad = "players";
    else if (h->current >= h->num_players) bad = "current";
    else if (h->game_over > 1) bad = "game_over";
    if (bad) {
        if (field && field_len) {
            strncpy(field, bad, field_len - 1);
            field[field_len - 1] = 0;
        }
        return BRASS_E_BAD_POSITION;
    }
    *out = rs;
    return BRASS_OK;
}

static const BrassUndoMark *mark_of(const BrassRuleset *rs, const BrassGame *g) {
    return (const BrassUndoMark *)(const void *)(g->bytes + rs->undo_mark_offset);
}

/* The undo bookkeeping every ruleset keeps the same way. */
static int validate_undo(const BrassRuleset *rs, const BrassGame *g, char *field, size_t field_len) {
    const BrassUndoMark *m = mark_of(rs, g);
    const char *bad = NULL;
    if (g->bytes[rs->undo_off_offset] > 1) bad = "undo_off";
    else if (m->action_start > m->depth || m->prev_start > m->action_start ||
             m->barrier > BRASS_UNDO_LIMIT)
        bad = "undo";
    if (!bad) return BRASS_OK;
    if (field && field_len) {
        strncpy(field, bad, field_len - 1);
        field[field_len - 1] = 0;
    }
    return BRASS_E_BAD_POSITION;
}

int brass_validate(const BrassGame *g, char *field, size_t field_len) {
    if (!g) return BRASS_E_BAD_ARGUMENT;
    const BrassRuleset *rs;
    int err = validate_header(g, &rs, field, field_len);
    if (!err) err = validate_undo(rs, g, field, field_len);
    return err ? err : rs->validate(g, field, field_len);
}

/* ---- decisions ---- */

int brass_legal(const BrassGame *g, uint16_t *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap < 0) return -BRASS_E_BAD_ARGUMENT;
    return rs->legal(g, out, cap);
}

/* 0 = legal; otherwise a shared or the ruleset's reason code. */
int brass_reason(const BrassGame *g, int action) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || action < 0 || action >= rs->num_actions || g->header.game_over)
        return BRASS_R_WRONG_DECISION;
    return rs->reason(g, action);
}

/* A compound action ends where the action ends, or where hidden information is revealed
   within it (an undo barrier, docs/UNDO.md: a Pittsburgh oilfield tile, P25-P26): what the
   seat decides next depends on what it learns there, so a listing, a preview or an atomic
   application of decisions past it would use (or show) the hidden outcome. */
static int reveals(const BrassRuleset *rs, const BrassGame *after, const BrassGame *before) {
    uint64_t was[2], now[2];
    rs->undo_keys(before, was);
    rs->undo_keys(after, now);
    return was[1] != now[1];
}

static int compound_ended(const BrassRuleset *rs, const BrassGame *after, const BrassGame *before) {
    return rs->action_ended(after, before) || reveals(rs, after, before);
}

static int check(const BrassRuleset *rs, const BrassGame *g, int seat, int action, int *reason) {
    if (reason) *reason = BRASS_R_LEGAL;
    if (g->header.game_over) return BRASS_E_GAME_OVER;
    if (action < 0 || action >= rs->num_actions) return BRASS_E_UNKNOWN_ACTION;
    if (seat < -1 || seat >= g->header.num_players) return BRASS_E_BAD_ARGUMENT;
    if (seat >= 0 && seat != g->header.current) return BRASS_E_NOT_YOUR_TURN;
    int r = rs->reason(g, action);
    if (r) {
        if (reason) *reason = r;
        return BRASS_E_ILLEGAL;
    }
    return BRASS_OK;
}

/* A legal decision, applied with its undo bookkeeping (docs/UNDO.md): a new turn or a
   reveal is the barrier (nothing before it can be undone); else one more decision since it,
   and when it began a new action of the same turn, the action starts move on. */
static void apply_counted(const BrassRuleset *rs, BrassGame *g, int action, BrassEventLog *log) {
    uint64_t before[2], after[2];
    rs->undo_keys(g, before);
    rs->apply_legal(g, action, log, 1);
    rs->undo_keys(g, after);
    BrassUndoMark *m = (BrassUndoMark *)(void *)(g->bytes + rs->undo_mark_offset);
    if (after[0] != before[0] || after[1] != before[1] || m->depth == UINT8_MAX) {
        uint8_t why = after[0] != before[0] ? BRASS_UNDO_TURN_START
                      : after[1] != before[1] ? BRASS_UNDO_REVEAL : BRASS_UNDO_LIMIT;
        *m = (BrassUndoMark){0, 0, 0, why};
        return;
    }
    m->depth++;
    if (rs->at_action_start(g)) {
        m->prev_start = m->action_start;
        m->action_start = m->depth;
    }
}

int brass_apply(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs) return BRASS_E_BAD_ARGUMENT;
    int err = check(rs, g, seat, action, reason);
    if (err) return err;
    apply_counted(rs, g, action, log);
    return BRASS_OK;
}

int brass_apply_sequence(BrassGame *g, int seat, const uint16_t *ids, int n, BrassEventLog *log,
                         int *reason, int *failed_at) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || (!ids && n) || n <= 0) return BRASS_E_BAD_ARGUMENT;
    BrassGame work, before;
    memcpy(&work, g, rs->state_size);
    if (failed_at) *failed_at = 0;
    if (reason) *reason = BRASS_R_LEGAL;
    uint32_t log_start = log ? log->count : 0;
    for (int i = 0; i < n; i++) {
        memcpy(&before, &work, rs->state_size);
        int err = check(rs, &work, seat, ids[i], reason);
        if (!err) apply_counted(rs, &work, ids[i], log);
        int ended = err == BRASS_OK && compound_ended(rs, &work, &before);
        if (err == BRASS_OK && ended != (i == n - 1)) {
            err = BRASS_E_ILLEGAL;
            if (reason) *reason = ended ? BRASS_R_TOO_MANY_DECISIONS : BRASS_R_INCOMPLETE_ACTION;
        }
        if (err) {
            if (failed_at) *failed_at = i;
            if (log) log->count = log_start;
            return err;
        }
        seat = before.header.current;
    }
    memcpy(g, &work, rs->state_size);
    return BRASS_OK;
}

/* A preview is worked out on a copy concealed for the seat to act (what it cannot see dealt
   canonically), so it depends on what that seat knows only; its outcome is then redacted
   for the viewer, the cards drawn from the face-down deck left out. */
int brass_preview(const BrassGame *g, int seat, const uint16_t *ids, int n, BrassGame *after,
                  BrassEventLog *log, int *reason, int *failed_at) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !ids || n <= 0 || !after) return BRASS_E_BAD_ARGUMENT;
    /* a ruleset without the two preview hooks has no preview (rather than a wrong one) */
    if (!rs->conceal || !rs->redact_preview) return BRASS_E_BAD_ARGUMENT;
    if (failed_at) *failed_at = 0;
    BrassGame before, work;
    memcpy(&before, g, rs->state_size);
    const BrassHeader *h = &g->header;
    if (!h->game_over && h->current < h->num_players) rs->conceal(&before, h->current);
    memcpy(&work, &before, rs->state_size);
    int err = n == 1 ? brass_apply(&work, seat, ids[0], log, reason)
                     : brass_apply_sequence(&work, seat, ids, n, log, reason, failed_at);
    if (err) return err;
    rs->redact_preview(&before, &work, seat, after);
    return BRASS_OK;
}

typedef struct {
    const BrassRuleset *rs;
    uint16_t *ids;
    int ids_cap, ids_used;
    uint32_t *offsets;
    int max_actions, count, truncated;
} CompoundOut;

#define MAX_ACTION_DECISIONS 32

static void compound_dfs(const BrassGame *g, const BrassGame *start, uint16_t *path, int depth,
                         CompoundOut *o) {
    uint16_t opts[BRASS_MAX_ACTIONS];
    int n = o->rs->legal(g, opts, BRASS_MAX_ACTIONS);
    for (int i = 0; i < n && !o->truncated; i++) {
        BrassGame next;
        memcpy(&next, g, o->rs->state_size);
        o->rs->apply_legal(&next, opts[i], NULL, 1);
        path[depth] = opts[i];
        if (o->rs->action_ended(&next, start) || reveals(o->rs, &next, g) ||
            depth + 1 >= MAX_ACTION_DECISIONS) {
            if (o->count >= o->max_actions || o->ids_used + depth + 1 > o->ids_cap) {
                o->truncated = 1;
                return;
            }
            memcpy(o->ids + o->ids_used, path, (size_t)(depth + 1) * sizeof(uint16_t));
            o->ids_used += depth + 1;
            o->count++;
            o->offsets[o->count] = (uint32_t)o->ids_used;
        } else {
            compound_dfs(&next, start, path, depth + 1, o);
        }
    }
}

int brass_compound_actions(const BrassGame *g, uint16_t *ids, int ids_cap, uint32_t *offsets,
                           int max_actions, int *truncated) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !ids || !offsets || ids_cap < 0 || max_actions < 0) return -BRASS_E_BAD_ARGUMENT;
    CompoundOut o = {rs, ids, ids_cap, 0, offsets, max_actions, 0, 0};
    uint16_t path[MAX_ACTION_DECISIONS];
    offsets[0] = 0;
    if (!g->header.game_over) compound_dfs(g, g, path, 0, &o);
    if (truncated) *truncated = o.truncated;
    return o.count;
}

/* ---- undo within a turn ---- */

int brass_undo_depth(const BrassGame *g) {
    const BrassRuleset *rs = ruleset_of(g);
    return rs ? mark_of(rs, g)->depth : -BRASS_E_BAD_ARGUMENT;
}

static int undo_steps(const BrassRuleset *rs, const BrassGame *g, int seat, int *steps,
                      int *reason) {
    const BrassHeader *h = &g->header;
    if (h->game_over) return BRASS_E_GAME_OVER;
    if (seat < -1 || seat >= h->num_players) return BRASS_E_BAD_ARGUMENT;
    if (seat >= 0 && seat != h->current) return BRASS_E_NOT_YOUR_TURN;
    const BrassUndoMark *m = mark_of(rs, g);
    int r = BRASS_R_LEGAL, n = 0;
    if (g->bytes[rs->undo_off_offset]) r = BRASS_R_UNDO_DISABLED;
    else if (m->depth > m->action_start) n = m->depth - m->action_start; /* cancel this action */
    else if (m->prev_start < m->action_start) n = m->depth - m->prev_start; /* the one before */
    else r = m->barrier == BRASS_UNDO_TURN_START ? BRASS_R_NOTHING_TO_UNDO : BRASS_R_UNDO_BARRIER;
    if (reason) *reason = r;
    if (r) return BRASS_E_CANNOT_UNDO;
    *steps = n;
    return BRASS_OK;
}

int brass_undo_steps(const BrassGame *g, int seat, int *steps, int *reason) {
    const BrassRuleset *rs = ruleset_of(g);
    if (reason) *reason = BRASS_R_LEGAL;
    if (!rs || !steps) return BRASS_E_BAD_ARGUMENT;
    return undo_steps(rs, g, seat, steps, reason);
}

/* The state at the barrier, the decisions since, applied again but for the last `steps`:
   those are applied too, on a second copy, which must end exactly at g (so a wrong barrier
   or list is refused rather than producing some other game). */
int brass_undo(BrassGame *g, int seat, const BrassGame *barrier, const uint16_t *ids, int n,
               int *steps, int *reason) {
    const BrassRuleset *rs = ruleset_of(g);
    if (reason) *reason = BRASS_R_LEGAL;
    if (!rs || !steps || !barrier || n < 0 || (n && !ids)) return BRASS_E_BAD_ARGUMENT;
    int k = 0;
    int err = undo_steps(rs, g, seat, &k, reason);
    if (err) return err;
    if (n != mark_of(rs, g)->depth || ruleset_of(barrier) != rs ||
        brass_validate(barrier, NULL, 0) || mark_of(rs, barrier)->depth != 0)
        return BRASS_E_BAD_ARGUMENT;
    BrassGame kept, work;
    memcpy(&work, barrier, rs->state_size);
    for (int i = 0; i < n; i++) {
        if (i == n - k) memcpy(&kept, &work, rs->state_size);
        if (check(rs, &work, -1, ids[i], NULL)) return BRASS_E_BAD_ARGUMENT;
        apply_counted(rs, &work, ids[i], NULL);
    }
    if (memcmp(work.bytes, g->bytes, rs->state_size)) return BRASS_E_BAD_ARGUMENT;
    memcpy(g, &kept, rs->state_size);
    *steps = k;
    return BRASS_OK;
}

/* ---- information ---- */

int brass_decision_kind(const BrassGame *g) {
    const BrassRuleset *rs = ruleset_of(g);
    return rs ? rs->decision_kind(g) : -BRASS_E_BAD_ARGUMENT;
}

uint32_t brass_decisions_applied(const BrassGame *g) {
    const BrassRuleset *rs = ruleset_of(g);
    return rs ? rs->decisions(g) : 0;
}

void brass_redact(const BrassGame *g, int seat, BrassGame *out) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out) return;
    rs->redact(g, seat >= 0 && seat < g->header.num_players ? seat : -1, out);
}

int brass_determinize(BrassGame *g, int seat, uint64_t seed) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || seat < 0 || seat >= g->header.num_players) return BRASS_E_BAD_ARGUMENT;
    return rs->determinize(g, seat, seed);
}

/* Every ruleset's view ends with the seat to act's undo now, as UndoAction would find it:
   undo_steps (0 when refused or the game is over) and undo_refused (the reason's name, null
   when not refused). Public, so the same in every seat's view: it follows from the turn and
   the decisions made in it, which every seat sees. Written over the text's closing brace. */
static int put_view_undo(const BrassRuleset *rs, const BrassGame *g, int keys, char *out,
                         int cap, int n) {
    int steps = 0, refused = BRASS_R_LEGAL;
    undo_steps(rs, g, -1, &steps, &refused);
    JsonWriter j = json_writer(out, cap, keys);
    j.len = n - 1;
    json_raw(&j, ",");
    json_field(&j, "undo_steps"), json_int(&j, steps), json_raw(&j, ",");
    json_field(&j, "undo_refused");
    if (refused == BRASS_R_LEGAL) json_null(&j);
    else json_str(&j, SHARED_REASONS[refused][0]);
    json_raw(&j, "}");
    return json_finish(&j);
}

int brass_view_json_keys(const BrassGame *g, int seat, int keys, char *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap <= 0 || seat < -1 || seat >= g->header.num_players ||
        (keys != BRASS_KEYS_SNAKE && keys != BRASS_KEYS_CAMEL && keys != BRASS_KEYS_PROTO))
        return -BRASS_E_BAD_ARGUMENT;
    BrassGame red;
    rs->redact(g, seat, &red);
    int n = rs->position_json(&red, seat, 0, keys, out, cap);
    return n < 0 ? n : put_view_undo(rs, g, rs->snake_keys_only ? BRASS_KEYS_SNAKE : keys, out,
                                     cap, n);
}

int brass_view_proto(const BrassGame *g, int seat, uint8_t *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap <= 0 || seat < -1 || seat >= g->header.num_players)
        return -BRASS_E_BAD_ARGUMENT;
    if (!rs->view_proto) return -BRASS_E_UNSUPPORTED;
    BrassGame red;
    rs->redact(g, seat, &red);
    int steps = 0, refused = BRASS_R_LEGAL;
    undo_steps(rs, g, -1, &steps, &refused);
    return rs->view_proto(&red, seat, steps, refused, out, cap);
}

int brass_view_json(const BrassGame *g, int seat, char *out, int cap) {
    return brass_view_json_keys(g, seat, BRASS_KEYS_SNAKE, out, cap);
}

int brass_position_json(const BrassGame *g, char *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap <= 0) return -BRASS_E_BAD_ARGUMENT;
    return rs->position_json(g, -1, 1, BRASS_KEYS_SNAKE, out, cap);
}

int brass_position_read(BrassGame *g, int ruleset, const char *json, int len, char *field,
                        size_t field_len, char *message, size_t message_len) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs || !rs->position_read || !g || !json || len < 0) return BRASS_E_BAD_ARGUMENT;
    return rs->position_read(g, json, (size_t)len, field, field_len, message, message_len);
}

int brass_observation(const BrassGame *g, int seat, float *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || seat < 0 || seat >= g->header.num_players) return -BRASS_E_BAD_ARGUMENT;
    return rs->observation(g, seat, out, cap);
}

int brass_result(const BrassGame *g, BrassResult *out) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out) return -BRASS_E_BAD_ARGUMENT;
    return rs->result(g, out);
}

int brass_score_order(const BrassGame *g, uint8_t *ranking) {
    BrassResult r;
    int n = brass_result(g, &r);
    if (n < 0 || !ranking) return n < 0 ? n : -BRASS_E_BAD_ARGUMENT;
    memcpy(ranking, r.ranking, (size_t)n);
    return n;
}

void brass_set_seed(BrassGame *g, uint64_t seed) {
    const BrassRuleset *rs = ruleset_of(g);
    if (rs) rs->set_seed(g, seed);
}

/* ---- hashing and snapshots ---- */

/* Over the ruleset's state bytes (header included, so ruleset and edition are part of it):
   a Birmingham state hashes as it always did. */
/* The undo bookkeeping is left out (read as zeros): it says how the game got here, not
   where it is, and states stored before it existed keep their hashes. */
uint64_t brass_hash(const BrassGame *g) {
    const BrassRuleset *rs = ruleset_of(g);
    size_t n = rs ? rs->state_size : sizeof(BrassHeader);
    size_t mark = rs ? rs->undo_mark_offset : n;
    uint64_t h = 0x243f6a8885a308d3ull;
    const uint8_t *p = g->bytes;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (mark >= i && mark < i + 8) {
            uint8_t bytes[8];
            memcpy(bytes, &w, 8);
            memset(bytes + (mark - i), 0, sizeof(BrassUndoMark));
            memcpy(&w, bytes, 8);
        }
        h ^= w;
        h *= 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return h;
}

#define SNAPSHOT_HEADER 16

static uint32_t checksum32(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t brass_snapshot_size(int ruleset) {
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    return rs ? SNAPSHOT_HEADER + rs->state_size : 0;
}

int brass_snapshot(const BrassGame *g, uint8_t *buf, size_t cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !buf) return BRASS_E_BAD_ARGUMENT;
    size_t n = rs->state_size;
    if (cap < SNAPSHOT_HEADER + n) return BRASS_E_BUFFER;
    memcpy(buf + SNAPSHOT_HEADER, g->bytes, n);
    put32(buf, BRASS_MAGIC);
    put32(buf + 4, (uint32_t)rs->format_version | (uint32_t)g->header.rules_edition << 16);
    /* Birmingham is ruleset 0: its snapshots read as they did before rulesets were named */
    put32(buf + 8, (uint32_t)n | (uint32_t)g->header.ruleset << 16);
    put32(buf + 12, checksum32(buf + SNAPSHOT_HEADER, n));
    return BRASS_OK;
}

int brass_snapshot_ruleset(const uint8_t *buf, size_t len, int *rules_edition) {
    if (!buf || len < SNAPSHOT_HEADER || get32(buf) != BRASS_MAGIC) return -BRASS_E_BAD_SNAPSHOT;
    if (rules_edition) *rules_edition = (int)(get32(buf + 4) >> 16);
    return (int)(get32(buf + 8) >> 16);
}

int brass_restore(BrassGame *g, const uint8_t *buf, size_t len, int expected_ruleset) {
    /* the checksum catches damage; brass_validate rejects well-formed but impossible states */
    if (!g || (!buf && len)) return BRASS_E_BAD_ARGUMENT;
    if (len < SNAPSHOT_HEADER || get32(buf) != BRASS_MAGIC) return BRASS_E_BAD_SNAPSHOT;
    int ruleset = (int)(get32(buf + 8) >> 16), edition = (int)(get32(buf + 4) >> 16);
    const BrassRuleset *rs = ruleset_by_id(ruleset);
    if (!rs) return BRASS_E_BAD_SNAPSHOT;
    if (expected_ruleset >= 0 && ruleset != expected_ruleset) return BRASS_E_WRONG_RULESET;
    size_t n = rs->state_size;
    if ((get32(buf + 4) & 0xffffu) != rs->format_version) return BRASS_E_BAD_SNAPSHOT;
    if ((get32(buf + 8) & 0xffffu) != n || len != SNAPSHOT_HEADER + n) return BRASS_E_BAD_SNAPSHOT;
    if (get32(buf + 12) != checksum32(buf + SNAPSHOT_HEADER, n)) return BRASS_E_BAD_SNAPSHOT;
    if (edition > rs->rules_edition) return BRASS_E_WRONG_EDITION;
    BrassGame tmp;
    memset(&tmp, 0, sizeof tmp);
    memcpy(tmp.bytes, buf + SNAPSHOT_HEADER, n);
    /* bug fix (found by fuzz_restore): the header's rules edition was never compared with
       the state's, so a header claiming another edition was accepted */
    if (tmp.header.ruleset != ruleset || tmp.header.rules_edition != edition)
        return BRASS_E_BAD_SNAPSHOT;
    if (brass_validate(&tmp, NULL, 0)) return BRASS_E_BAD_SNAPSHOT;
    memcpy(g, &tmp, n);
    return BRASS_OK;
}

/* ---- playouts and benchmark ---- */

static int pick(const BrassRuleset *rs, const BrassGame *g, const uint16_t *opts, int n,
                int policy, uint64_t *rng) {
    if (policy == POLICY_SANE && n > 1) {
        uint16_t keep[BRASS_MAX_ACTIONS];
        int m = rs->sane_options(g, opts, n, keep);
        if (m) return keep[rng_below(rng, (uint32_t)m)];
    }
    return opts[rng_below(rng, (uint32_t)n)];
}

/* Play to the end with a random policy; forced steps are resolved by the game's option. */
int brass_playout(BrassGame *g, int policy, uint64_t seed, int max_decisions) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs) return -BRASS_E_BAD_ARGUMENT;
    uint64_t rng;
    rng_seed(&rng, seed);
    uint16_t opts[BRASS_MAX_ACTIONS];
    int made = 0;
    while (!g->header.game_over && made < max_decisions) {
        int n = rs->legal(g, opts, BRASS_MAX_ACTIONS);
        if (n <= 0) return -BRASS_E_ILLEGAL; /* cannot happen in a valid state */
        /* every decision counts, forced ones included; forced steps are taken here from the
           list already computed rather than by apply_legal's auto-resolution */
        made++;
        rs->apply_legal(g, pick(rs, g, opts, n, policy, &rng), NULL, 0);
    }
    /* decisions nobody recorded cannot be replayed: nothing before here can be undone */
    if (made) *(BrassUndoMark *)(void *)(g->bytes + rs->undo_mark_offset) =
        (BrassUndoMark){0, 0, 0, BRASS_UNDO_TURN_START};
    return made;
}

int brass_playout_batch(BrassGame *games, int n, int policy, uint64_t seed, int max_decisions) {
    if (!games || n < 0) return -BRASS_E_BAD_ARGUMENT;
    int total = 0;
    for (int i = 0; i < n; i++) {
        int r = brass_playout(&games[i], policy, seed + (uint64_t)i * 0x9e3779b97f4a7c15ull, max_decisions);
        if (r < 0) return r;
        total += r;
    }
    return total;
}

int brass_step_batch(BrassGame *games, int n, const int32_t *actions, int32_t *errors,
                     float *obs, int obs_stride, uint8_t *masks, int mask_stride,
                     uint8_t *done) {
    if (!games || n < 0 || !actions || !errors || !obs || !masks || !done) return -BRASS_E_BAD_ARGUMENT;
    const BrassRuleset *rs = n ? ruleset_of(&games[0]) : NULL;
    if (n && !rs) return -BRASS_E_BAD_ARGUMENT;
    for (int i = 1; i < n; i++)
        if (ruleset_of(&games[i]) != rs) return -BRASS_E_BAD_ARGUMENT; /* one ruleset a batch */
    if (rs && (obs_stride < rs->observation_size || mask_stride < rs->num_actions))
        return -BRASS_E_BAD_ARGUMENT;
    int refused = 0;
    uint16_t opts[BRASS_MAX_ACTIONS];
    for (int i = 0; i < n; i++) {
        BrassGame *g = &games[i];
        float *row = obs + (size_t)i * (size_t)obs_stride;
        uint8_t *mask = masks + (size_t)i * (size_t)mask_stride;
        errors[i] = actions[i] < 0 ? BRASS_OK : brass_apply(g, -1, actions[i], NULL, NULL);
        refused += errors[i] != BRASS_OK;
        memset(row, 0, sizeof(float) * (size_t)obs_stride);
        memset(mask, 0, (size_t)mask_stride);
        done[i] = g->header.game_over;
        if (done[i]) continue;
        rs->observation(g, g->header.current, row, obs_stride);
        int k = rs->legal(g, opts, BRASS_MAX_ACTIONS);
        for (int j = 0; j < k; j++) mask[opts[j]] = 1;
    }
    return refused;
}

static double clock_seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

#define BENCH_SAMPLES 4096

int brass_bench(const BrassOptions *opt, int games, uint64_t seed, int policy,
                BrassBenchResult *out) {
    const BrassRuleset *rs = opt ? ruleset_by_id(opt->ruleset) : NULL;
    if (!out || !rs || games < 0) return BRASS_E_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    static BrassGame samples[BENCH_SAMPLES];
    const size_t size = rs->state_size;
    int nsamples = 0;
    BrassGame g;
    int err = brass_new(&g, opt, seed); /* checks the options once */
    if (err) return err;
    double t0 = now_seconds(), cpu0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < games; i++) {
        brass_new(&g, opt, seed + (uint64_t)i);
        int r = brass_playout(&g, policy, seed * 31 + (uint64_t)i, 1 << 20);
        if (r < 0) return -r;
        out->decisions += (uint64_t)r;
        out->games++;
    }
    out->seconds = now_seconds() - t0;
    /* the machine may be shared: CPU time counts only this thread's work */
    out->cpu_seconds = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    /* legality and clone timing on states met in play (replayed from seed) */
    for (int i = 0; nsamples < BENCH_SAMPLES && i < 64; i++) {
        uint64_t rng;
        brass_new(&g, opt, seed + (uint64_t)i);
        rng_seed(&rng, seed * 31 + (uint64_t)i);
        uint16_t opts[BRASS_MAX_ACTIONS];
        while (!g.header.game_over && nsamples < BENCH_SAMPLES) {
            memcpy(&samples[nsamples++], &g, size);
            int n = rs->legal(&g, opts, BRASS_MAX_ACTIONS);
            rs->apply_legal(&g, pick(rs, &g, opts, n, policy, &rng), NULL, 0);
        }
    }
    uint16_t opts[BRASS_MAX_ACTIONS];
    volatile int sink = 0;
    int reps = 20;
    t0 = now_seconds();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < nsamples; i++) sink += rs->legal(&samples[i], opts, BRASS_MAX_ACTIONS);
    out->legal_seconds = now_seconds() - t0;
    out->legal_calls = (uint64_t)reps * (uint64_t)nsamples;
    static BrassGame copy;
    t0 = now_seconds();
    for (int r = 0; r < reps * 10; r++)
        for (int i = 0; i < nsamples; i++) {
            brass_clone(&copy, &samples[i]);
            sink += copy.header.current;
        }
    out->clone_seconds = now_seconds() - t0;
    out->clones = (uint64_t)reps * 10 * (uint64_t)nsamples;
    (void)sink;
    return BRASS_OK;
}
