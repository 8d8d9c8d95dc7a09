/* The public API: argument and header checks, then dispatch through the game's ruleset
   (ruleset.h), the decisions one at a time with their undo bookkeeping, and the views.
   Nothing here knows a rule of any ruleset. Compound actions and previews are in
   compound.c, hashes and snapshots in snapshot.c, playouts, batches and the benchmark in
   playout.c (engine.h: what they share). */
#include <string.h>

#include "common/json_writer.h"
#include "engine.h"

const BrassRuleset *const RULESETS[BRASS_NUM_RULESETS] = {&BRASS_BIRMINGHAM, &BRASS_PITTSBURGH};

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
    memset(g, 0, rs->state_size); /* the caller may hold only the ruleset's bytes */
    return rs->new_game(g, opt, seed);
}

void brass_clone(BrassGame *dst, const BrassGame *src) {
    const BrassRuleset *rs = ruleset_of(src);
    if (!dst || !src) return;
    size_t n = rs ? rs->state_size : sizeof *src;
    memmove(dst, src, n); /* only the ruleset's bytes: Birmingham copies 648, not 2048; dst
                             may be no bigger than that (brass_state_size) */
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

/* The ids of the last legal list made on this thread, with the state it was made from.
   Legality is a function of the state's bytes alone, so applying one of those ids to a
   state with the same bytes needs no second check: the common loop (list, pick, apply)
   then skips the reason check's board analysis, about 2,400 instructions of a Birmingham
   decision, for a copy and a compare of the state (about 200). Any other apply is checked
   in full. Per thread: a caller's threads each keep their own. */
static _Thread_local struct {
    size_t size; /* bytes of `state` that hold a state; 0: nothing remembered */
    uint8_t state[BRASS_MAX_STATE_SIZE];
    uint64_t ids[BRASS_MAX_ACTIONS / 64]; /* bit a: action a was listed */
} legal_memo;

static void remember_legal(const BrassRuleset *rs, const BrassGame *g, const uint16_t *ids,
                           int n) {
    legal_memo.size = rs->state_size;
    memcpy(legal_memo.state, g->bytes, rs->state_size);
    memset(legal_memo.ids, 0, sizeof legal_memo.ids);
    for (int i = 0; i < n; i++) legal_memo.ids[ids[i] >> 6] |= 1ull << (ids[i] & 63);
}

static int listed_legal(const BrassRuleset *rs, const BrassGame *g, int action) {
    return legal_memo.size == rs->state_size &&
           (legal_memo.ids[action >> 6] >> (action & 63) & 1u) &&
           memcmp(legal_memo.state, g->bytes, rs->state_size) == 0;
}

int brass_legal(const BrassGame *g, uint16_t *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap < 0) return -BRASS_E_BAD_ARGUMENT;
    int n = rs->legal(g, out, cap);
    if (n >= 0) remember_legal(rs, g, out, n < cap ? n : cap);
    return n;
}

/* 0 = legal; otherwise a shared or the ruleset's reason code. */
int brass_reason(const BrassGame *g, int action) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || action < 0 || action >= rs->num_actions || g->header.game_over)
        return BRASS_R_WRONG_DECISION;
    return rs->reason(g, action);
}

int engine_check(const BrassRuleset *rs, const BrassGame *g, int seat, int action, int *reason) {
    if (reason) *reason = BRASS_R_LEGAL;
    if (g->header.game_over) return BRASS_E_GAME_OVER;
    if (action < 0 || action >= rs->num_actions) return BRASS_E_UNKNOWN_ACTION;
    if (seat < -1 || seat >= g->header.num_players) return BRASS_E_BAD_ARGUMENT;
    if (seat >= 0 && seat != g->header.current) return BRASS_E_NOT_YOUR_TURN;
    if (listed_legal(rs, g, action)) return BRASS_OK;
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
void engine_apply_counted(const BrassRuleset *rs, BrassGame *g, int action, BrassEventLog *log) {
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
    int err = engine_check(rs, g, seat, action, reason);
    if (err) return err;
    engine_apply_counted(rs, g, action, log);
    return BRASS_OK;
}

int brass_step(BrassGame *g, int seat, int action, BrassEventLog *log, int *reason) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs) return -BRASS_E_BAD_ARGUMENT;
    if (log) log->count = log->dropped = 0;
    int err = engine_check(rs, g, seat, action, reason);
    if (err) return -err;
    engine_apply_counted(rs, g, action, log);
    uint32_t events = !log ? 0 : log->count < BRASS_MAX_EVENTS ? log->count : BRASS_MAX_EVENTS;
    return (int)(events | (uint32_t)mark_of(rs, g)->depth << BRASS_STEP_DEPTH_SHIFT |
                 (uint32_t)g->header.num_players << BRASS_STEP_PLAYERS_SHIFT);
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
        if (engine_check(rs, &work, -1, ids[i], NULL)) return BRASS_E_BAD_ARGUMENT;
        engine_apply_counted(rs, &work, ids[i], NULL);
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

int brass_summary(const BrassGame *g, int32_t *out, int cap) {
    const BrassRuleset *rs = ruleset_of(g);
    if (!rs || !out || cap < 0) return -BRASS_E_BAD_ARGUMENT;
    return rs->summary(g, out, cap);
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
