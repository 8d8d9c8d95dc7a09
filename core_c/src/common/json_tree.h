/* A bounded JSON parser for the position readers: the text becomes a flat array of nodes in
   document order (no allocation, no recursion deeper than JT_MAX_DEPTH), which the reader then
   walks by key. Strings are kept as their raw bytes between the quotes (escapes are checked,
   not decoded): every name of the position formats is plain ASCII, so an escaped spelling
   simply matches no name and is refused as unknown. */
#ifndef BRASS_JSON_TREE_H
#define BRASS_JSON_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { JT_OBJECT, JT_ARRAY, JT_STRING, JT_NUMBER, JT_TRUE, JT_FALSE, JT_NULL };

#define JT_MAX_DEPTH 16

typedef struct {
    uint8_t type;
    uint32_t start, len; /* the value's bytes (a string's without its quotes) */
    uint32_t end;        /* index of the first node after this one's subtree */
    uint32_t count;      /* members (object: key and value pairs) or elements */
} JtNode;

typedef struct {
    const char *s;
    size_t n, i;
    JtNode *nodes;
    uint32_t cap, used;
    const char *error; /* NULL, or what is wrong at byte `i` */
} JtParser;

static inline void jt_space(JtParser *p) {
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static inline int jt_fail(JtParser *p, const char *what) {
    if (!p->error) p->error = what;
    return -1;
}

static inline int jt_new(JtParser *p, int type) {
    if (p->used >= p->cap) return jt_fail(p, "too many values");
    JtNode *x = &p->nodes[p->used];
    memset(x, 0, sizeof *x);
    x->type = (uint8_t)type;
    x->start = (uint32_t)p->i;
    return (int)p->used++;
}

static inline int jt_is_digit(int c) { return c >= '0' && c <= '9'; }

static inline int jt_string(JtParser *p) {
    int k = jt_new(p, JT_STRING);
    if (k < 0) return k;
    p->i++; /* the opening quote */
    p->nodes[k].start = (uint32_t)p->i;
    while (p->i < p->n) {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->nodes[k].len = (uint32_t)(p->i - p->nodes[k].start);
            p->i++;
            p->nodes[k].end = p->used;
            return k;
        }
        if (c < 0x20) return jt_fail(p, "control character in a string");
        if (c == '\\') {
            p->i++;
            if (p->i >= p->n) break;
            char e = p->s[p->i];
            if (e == 'u') {
                for (int j = 1; j <= 4; j++) {
                    char h = p->i + (size_t)j < p->n ? p->s[p->i + (size_t)j] : 0;
                    if (!(jt_is_digit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                        return jt_fail(p, "bad \\u escape");
                }
                p->i += 4;
            } else if (!strchr("\"\\/bfnrt", e) || !e) {
                return jt_fail(p, "bad escape");
            }
        }
        p->i++;
    }
    return jt_fail(p, "unterminated string");
}

static inline int jt_number(JtParser *p) {
    int k = jt_new(p, JT_NUMBER);
    if (k < 0) return k;
    if (p->i < p->n && p->s[p->i] == '-') p->i++;
    if (p->i >= p->n || !jt_is_digit(p->s[p->i])) return jt_fail(p, "bad number");
    if (p->s[p->i] == '0') p->i++;
    else
        while (p->i < p->n && jt_is_digit(p->s[p->i])) p->i++;
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (p->i >= p->n || !jt_is_digit(p->s[p->i])) return jt_fail(p, "bad number");
        while (p->i < p->n && jt_is_digit(p->s[p->i])) p->i++;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-')) p->i++;
        if (p->i >= p->n || !jt_is_digit(p->s[p->i])) return jt_fail(p, "bad number");
        while (p->i < p->n && jt_is_digit(p->s[p->i])) p->i++;
    }
    p->nodes[k].len = (uint32_t)(p->i - p->nodes[k].start);
    p->nodes[k].end = p->used;
    return k;
}

static inline int jt_literal(JtParser *p, const char *word, int type) {
    size_t w = strlen(word);
    if (p->n - p->i < w || memcmp(p->s + p->i, word, w)) return jt_fail(p, "unexpected character");
    int k = jt_new(p, type);
    if (k < 0) return k;
    p->i += w;
    p->nodes[k].len = (uint32_t)w;
    p->nodes[k].end = p->used;
    return k;
}

static inline int jt_value(JtParser *p, int depth) {
    jt_space(p);
    if (p->i >= p->n) return jt_fail(p, "unexpected end");
    char c = p->s[p->i];
    if (c == '"') return jt_string(p);
    if (c == 't') return jt_literal(p, "true", JT_TRUE);
    if (c == 'f') return jt_literal(p, "false", JT_FALSE);
    if (c == 'n') return jt_literal(p, "null", JT_NULL);
    if (c != '{' && c != '[') return jt_number(p);
    if (depth >= JT_MAX_DEPTH) return jt_fail(p, "nested too deeply");
    int object = c == '{';
    int k = jt_new(p, object ? JT_OBJECT : JT_ARRAY);
    if (k < 0) return k;
    p->i++;
    jt_space(p);
    if (p->i < p->n && p->s[p->i] == (object ? '}' : ']')) {
        p->i++;
    } else {
        for (;;) {
            if (object) {
                jt_space(p);
                if (p->i >= p->n || p->s[p->i] != '"') return jt_fail(p, "expected a key");
                if (jt_string(p) < 0) return -1;
                jt_space(p);
                if (p->i >= p->n || p->s[p->i] != ':') return jt_fail(p, "expected ':'");
                p->i++;
            }
            if (jt_value(p, depth + 1) < 0) return -1;
            p->nodes[k].count++;
            jt_space(p);
            if (p->i < p->n && p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->i < p->n && p->s[p->i] == (object ? '}' : ']')) {
                p->i++;
                break;
            }
            return jt_fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    p->nodes[k].len = (uint32_t)(p->i - p->nodes[k].start);
    p->nodes[k].end = p->used;
    return k;
}

/* Parses the whole text (one value, then only white space) into nodes[0..]; returns the
   number of nodes, or -1 with p->error set. */
static inline int jt_parse(JtParser *p, const char *s, size_t n, JtNode *nodes, uint32_t cap) {
    memset(p, 0, sizeof *p);
    p->s = s;
    p->n = n;
    p->nodes = nodes;
    p->cap = cap;
    if (jt_value(p, 0) < 0) return -1;
    jt_space(p);
    if (p->i != p->n) return jt_fail(p, "text after the value");
    return (int)p->used;
}

/* Whether string node k is exactly `name`. */
static inline int jt_eq(const JtParser *p, int k, const char *name) {
    const JtNode *x = &p->nodes[k];
    size_t w = strlen(name);
    return x->type == JT_STRING && x->len == w && !memcmp(p->s + x->start, name, w);
}

/* The first child of a container node (the first key of an object), then the next sibling. */
static inline int jt_first(const JtParser *p, int k) { (void)p; return k + 1; }
static inline int jt_next(const JtParser *p, int k) { return (int)p->nodes[k].end; }

#endif
