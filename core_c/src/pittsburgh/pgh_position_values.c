/* The checked reads of one JSON value each, for the Pittsburgh position reader
   (pgh_position.c): a value's type, its range, a name of the data's tables, the keys an
   object may hold; each refusal names the value's JSON path and says what is wrong. */
#include "pgh_position_values.h"

int pgh_pv_bad(RC *c, const char *path, const char *fmt, ...) {
    if (c->field && c->field_len) snprintf(c->field, c->field_len, "%s", path);
    if (c->msg && c->msg_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->msg, c->msg_len, fmt, ap);
        va_end(ap);
    }
    return BRASS_E_BAD_POSITION;
}

/* A key as it may appear in a path: plain id characters only, at most 40. */
void pgh_pv_key_text(const RC *c, int k, char *out, size_t n) {
    const JtNode *x = pgh_pv_node(c, k);
    size_t w = 0;
    for (uint32_t i = 0; i < x->len && w + 1 < n && w < 40; i++) {
        char ch = c->p.s[x->start + i];
        int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '-' || ch == '.' || ch == ':';
        out[w++] = plain ? ch : '?';
    }
    out[w] = '\0';
}

/* A path into a buffer (cut short rather than overflow: paths are for messages). */
void pgh_pv_pathf(char *out, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

void pgh_pv_join(char *out, size_t n, const char *path, const char *key) {
    pgh_pv_pathf(out, n, "%s%s%s", path, *path ? "." : "", key);
}

void pgh_pv_join_key(const RC *c, char *out, size_t n, const char *path, int k) {
    char key[48];
    pgh_pv_key_text(c, k, key, sizeof key);
    pgh_pv_join(out, n, path, key);
}

static const char *type_name(int t) {
    static const char *const n[] = {"an object", "a list", "a string", "a number", "true", "false", "null"};
    return n[t];
}

int pgh_pv_want(RC *c, int k, int type, const char *path) {
    if (pgh_pv_node(c, k)->type == type) return 0;
    if (type == JT_TRUE && pgh_pv_node(c, k)->type == JT_FALSE) return 0;
    return pgh_pv_bad(c, path, "must be %s, not %s", type == JT_TRUE ? "true or false" : type_name(type),
                      type_name(pgh_pv_node(c, k)->type));
}

/* An object holding only the given keys, each at most once. */
int pgh_pv_only(RC *c, int obj, const char *path, const char *const *keys) {
    TRY(pgh_pv_want(c, obj, JT_OBJECT, *path ? path : "$"));
    int m = obj + 1;
    for (uint32_t i = 0; i < pgh_pv_node(c, obj)->count; i++, m = jt_next(&c->p, m + 1)) {
        int known = 0;
        for (int j = 0; keys[j] && !known; j++) known = jt_eq(&c->p, m, keys[j]);
        char where[160];
        pgh_pv_join_key(c, where, sizeof where, path, m);
        if (!known) return pgh_pv_bad(c, where, "unknown key");
        for (int e = obj + 1; e < m; e = jt_next(&c->p, e + 1))
            if (pgh_pv_node(c, e)->len == pgh_pv_node(c, m)->len &&
                !memcmp(c->p.s + pgh_pv_node(c, e)->start, c->p.s + pgh_pv_node(c, m)->start, pgh_pv_node(c, m)->len))
                return pgh_pv_bad(c, where, "key given twice");
    }
    return 0;
}

/* The value of `key` in an object, or -1. */
int pgh_pv_member(const RC *c, int obj, const char *key) {
    int m = obj + 1;
    for (uint32_t i = 0; i < pgh_pv_node(c, obj)->count; i++, m = jt_next(&c->p, m + 1))
        if (jt_eq(&c->p, m, key)) return m + 1;
    return -1;
}

int pgh_pv_required(RC *c, int obj, const char *key, const char *path, int *v) {
    *v = pgh_pv_member(c, obj, key);
    if (*v >= 0) return 0;
    char where[160];
    pgh_pv_join(where, sizeof where, path, key);
    return pgh_pv_bad(c, where, "is required");
}

/* An integer value in [lo, hi]. */
int pgh_pv_int_at(RC *c, int k, const char *path, long long lo, long long hi, long long *out) {
    TRY(pgh_pv_want(c, k, JT_NUMBER, path));
    const JtNode *x = pgh_pv_node(c, k);
    const char *s = c->p.s + x->start;
    long long v = 0;
    int neg = s[0] == '-';
    for (uint32_t i = (uint32_t)neg; i < x->len; i++) {
        if (s[i] < '0' || s[i] > '9') return pgh_pv_bad(c, path, "must be a whole number");
        if (v > (hi > -lo ? hi : -lo) / 10 + 1) return pgh_pv_bad(c, path, "must be between %lld and %lld", lo, hi);
        v = v * 10 + (s[i] - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return pgh_pv_bad(c, path, "must be between %lld and %lld", lo, hi);
    *out = v;
    return 0;
}

int pgh_pv_u64_at(RC *c, int k, const char *path, uint64_t *out) {
    TRY(pgh_pv_want(c, k, JT_NUMBER, path));
    const JtNode *x = pgh_pv_node(c, k);
    const char *s = c->p.s + x->start;
    uint64_t v = 0;
    for (uint32_t i = 0; i < x->len; i++) {
        if (s[i] < '0' || s[i] > '9') return pgh_pv_bad(c, path, "must be a whole number from 0 to 2^64-1");
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return pgh_pv_bad(c, path, "must be a whole number from 0 to 2^64-1");
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* `key` of an object as an integer (dflt when absent, or required when dflt is NO_DEFAULT). */
int pgh_pv_get_int(RC *c, int obj, const char *key, const char *path, long long lo, long long hi, long long dflt,
                   long long *out) {
    char where[160];
    pgh_pv_join(where, sizeof where, path, key);
    int v = pgh_pv_member(c, obj, key);
    if (v < 0) {
        if (dflt == NO_DEFAULT) return pgh_pv_bad(c, where, "is required");
        *out = dflt;
        return 0;
    }
    return pgh_pv_int_at(c, v, where, lo, hi, out);
}

int pgh_pv_get_bool(RC *c, int obj, const char *key, const char *path, int dflt, uint8_t *out) {
    char where[160];
    pgh_pv_join(where, sizeof where, path, key);
    int v = pgh_pv_member(c, obj, key);
    if (v < 0) {
        if (dflt < 0) return pgh_pv_bad(c, where, "is required");
        *out = (uint8_t)dflt;
        return 0;
    }
    TRY(pgh_pv_want(c, v, JT_TRUE, where));
    *out = pgh_pv_node(c, v)->type == JT_TRUE;
    return 0;
}

/* The index of string node k among the names of `kind`, or -1. */
int pgh_pv_lookup(const RC *c, int kind, int k) {
    if (pgh_pv_node(c, k)->type != JT_STRING) return -1;
    for (int i = 0; i < pgh_name_count(c->T, kind); i++)
        if (jt_eq(&c->p, k, pgh_name(c->T, kind, i))) return i;
    return -1;
}

static const char *kind_word(int kind) {
    static const char *const w[PN_NUM] = {
        [PN_CARD] = "card", [PN_POSITION] = "mat position", [PN_SPACE] = "industry space", [PN_RAIL] = "rail route",
        [PN_PIPE] = "pipeline route", [PN_LINK_TYPE] = "link tile", [PN_LOC] = "location", [PN_FIELD] = "oilfield",
        [PN_MTILE] = "merchant tile", [PN_FTILE] = "oilfield tile", [PN_QTILE] = "quality tile",
        [PN_TILE] = "industry tile", [PN_MSPACE] = "merchant space", [PN_MARKET] = "market",
        [PN_PHASE] = "decision", [PN_STAGE] = "stage", [PN_ACTION_TYPE] = "action", [PN_CUBE] = "cube",
        [PN_FIELD_STATE] = "oilfield tile state"};
    return kind >= 0 && kind < PN_NUM ? w[kind] : "name";
}

/* Node k as a name of `kind` (null allowed when allow_null: PGH_NONE). */
int pgh_pv_name_at(RC *c, int k, const char *path, int kind, int allow_null, uint8_t *out) {
    if (allow_null && pgh_pv_node(c, k)->type == JT_NULL) {
        *out = PGH_NONE;
        return 0;
    }
    if (pgh_pv_node(c, k)->type != JT_STRING)
        return pgh_pv_bad(c, path, "must be the name of a %s%s", kind_word(kind), allow_null ? " or null" : "");
    int i = pgh_pv_lookup(c, kind, k);
    if (i < 0) {
        char text[48];
        pgh_pv_key_text(c, k, text, sizeof text);
        return pgh_pv_bad(c, path, "unknown %s '%s'", kind_word(kind), text);
    }
    *out = (uint8_t)i;
    return 0;
}

int pgh_pv_get_name(RC *c, int obj, const char *key, const char *path, int kind, int allow_null, int dflt,
                    uint8_t *out) {
    char where[160];
    pgh_pv_join(where, sizeof where, path, key);
    int v = pgh_pv_member(c, obj, key);
    if (v < 0) {
        if (dflt < 0) return pgh_pv_bad(c, where, "is required");
        *out = (uint8_t)dflt;
        return 0;
    }
    return pgh_pv_name_at(c, v, where, kind, allow_null, out);
}

/* A list of names of `kind`, each at most once, as a bit set. */
int pgh_pv_name_set(RC *c, int obj, const char *key, const char *path, int kind, uint64_t *out) {
    char where[160];
    pgh_pv_join(where, sizeof where, path, key);
    *out = 0;
    int v = pgh_pv_member(c, obj, key);
    if (v < 0) return 0;
    TRY(pgh_pv_want(c, v, JT_ARRAY, where));
    int e = v + 1;
    for (uint32_t i = 0; i < pgh_pv_node(c, v)->count; i++, e = jt_next(&c->p, e)) {
        char at[176];
        pgh_pv_pathf(at, sizeof at, "%s[%u]", where, i);
        uint8_t x;
        TRY(pgh_pv_name_at(c, e, at, kind, 0, &x));
        if (*out >> x & 1u) return pgh_pv_bad(c, at, "listed twice");
        *out |= 1ull << x;
    }
    return 0;
}

/* An object of names of `kind` to counts in [0, hi] (absent names keep their value). */
int pgh_pv_name_counts(RC *c, int obj, const char *key, const char *path, int kind, int hi, int need, uint8_t *out) {
    char where[160];
    pgh_pv_join(where, sizeof where, path, key);
    int v = pgh_pv_member(c, obj, key);
    if (v < 0) return need ? pgh_pv_bad(c, where, "is required") : 0;
    TRY(pgh_pv_want(c, v, JT_OBJECT, where));
    uint64_t seen = 0;
    int m = v + 1;
    for (uint32_t i = 0; i < pgh_pv_node(c, v)->count; i++, m = jt_next(&c->p, m + 1)) {
        char at[176];
        pgh_pv_join_key(c, at, sizeof at, where, m);
        int x = pgh_pv_lookup(c, kind, m);
        if (x < 0) return pgh_pv_bad(c, at, "unknown %s", kind_word(kind));
        if (seen >> x & 1u) return pgh_pv_bad(c, at, "key given twice");
        seen |= 1ull << x;
        long long n;
        TRY(pgh_pv_int_at(c, m + 1, at, 0, hi, &n));
        out[x] = (uint8_t)n;
    }
    return 0;
}