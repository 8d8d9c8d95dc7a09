/* The JSON text writer of the rulesets' views and positions, and the one place that applies
   the key style (brass.h BRASS_KEYS_*):

   - BRASS_KEYS_SNAKE: field names as written (snake_case), nulls written: the Python engine
     API's documents and the position format (docs/POSITION.md).
   - BRASS_KEYS_CAMEL: canonical proto3 JSON for the service's REST answers: field names in
     lowerCamelCase ("income_space" -> "incomeSpace", the json_name protoc gives the same
     field) and members whose value is null left out (proto3 JSON's absent field). The text
     parses strictly into the ruleset's typed view message (proto/brass/v1).
   - BRASS_KEYS_PROTO: the proto field names (snake_case), null members left out: what a
     protobuf runtime's message constructor takes (the service's gRPC answers).

   Field names go through json_field; map keys (slot, link, card names: data, not fields)
   through json_map_key, which never changes them. Output past `cap` is counted, not
   written, so the caller learns the length it needed. */
#ifndef BRASS_JSON_WRITER_H
#define BRASS_JSON_WRITER_H

#include <stddef.h>
#include <string.h>

#include "brass.h"

typedef struct {
    char *out;
    int cap;
    int len;
    int keys;          /* BRASS_KEYS_* */
    int member_start;  /* camel keys: where the member being written began (-1: none) */
    char last;         /* the last byte written (the buffer may be past cap) */
    char before_member;
    int skip_comma;    /* a null member was dropped right after '{': its comma goes too */
} JsonWriter;

static inline JsonWriter json_writer(char *out, int cap, int keys) {
    JsonWriter j = {out, cap, 0, keys, -1, 0, 0, 0};
    return j;
}

static inline void json_bytes(JsonWriter *j, const char *s, size_t n) {
    if (j->skip_comma) {
        j->skip_comma = 0;
        if (n && s[0] == ',') s++, n--;
    }
    j->member_start = -1; /* any output ends the member a null may drop */
    if (!n) return;
    if (j->len >= 0 && (size_t)j->len + n < (size_t)j->cap) memcpy(j->out + j->len, s, n);
    j->len += (int)n;
    j->last = s[n - 1];
}

static inline void json_raw(JsonWriter *j, const char *s) { json_bytes(j, s, strlen(s)); }

/* Names come from the generated tables (identifiers: letters, digits, '_', '-', '.', ':'),
   so they need no escaping; the table generators only emit such names. */
static inline void json_str(JsonWriter *j, const char *s) {
    json_bytes(j, "\"", 1);
    json_raw(j, s);
    json_bytes(j, "\"", 1);
}

static inline void json_int(JsonWriter *j, long long v) {
    char buf[24];
    int i = (int)sizeof buf;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        buf[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) buf[--i] = '-';
    json_bytes(j, buf + i, sizeof buf - (size_t)i);
}

static inline void json_bool(JsonWriter *j, int v) {
    json_raw(j, v ? "true" : "false");
}

/* A map key (an engine name): written as it is in every key style. */
static inline void json_map_key(JsonWriter *j, const char *key) {
    json_str(j, key);
    json_bytes(j, ":", 1);
}

/* A field name, given in snake_case, written in the writer's key style. */
static inline void json_field(JsonWriter *j, const char *name) {
    int start = j->len;
    char before = j->last;
    if (j->keys != BRASS_KEYS_CAMEL) {
        json_map_key(j, name);
        j->member_start = start;
        j->before_member = before;
        return;
    }
    char buf[64];
    size_t n = 0;
    int upper = 0;
    for (const char *c = name; *c && n < sizeof buf; c++) {
        if (*c == '_') {
            upper = 1;
            continue;
        }
        buf[n++] = upper && *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
        upper = 0;
    }
    json_bytes(j, "\"", 1);
    json_bytes(j, buf, n);
    json_bytes(j, "\":", 2);
    j->member_start = start;
    j->before_member = before;
}

/* null: with camel or proto keys, the member it is the value of is left out instead. */
static inline void json_null(JsonWriter *j) {
    if (j->keys == BRASS_KEYS_SNAKE || j->member_start < 0) {
        json_raw(j, "null");
        return;
    }
    j->len = j->member_start;
    j->member_start = -1;
    if (j->before_member == ',') {
        j->len--; /* drop the comma before the member; the previous value ends the text */
        j->last = '"';
    } else {
        j->last = j->before_member; /* first member: drop the comma after it instead */
        j->skip_comma = 1;
    }
}

/* The text's end: the NUL, or -BRASS_E_BUFFER when it did not fit. */
static inline int json_finish(JsonWriter *j) {
    if (j->len >= j->cap) return -BRASS_E_BUFFER; /* (room for the terminating NUL too) */
    j->out[j->len] = 0;
    return j->len;
}

/* Text written with snake_case keys and nulls (BRASS_KEYS_SNAKE) in another key style, in
   place (the result is never longer): field names camelCased for BRASS_KEYS_CAMEL, members
   whose value is null left out for CAMEL and PROTO, exactly as json_field and json_null
   would have written them. For a writer that builds its text without a JsonWriter
   (Pittsburgh's). `maps` (NULL-terminated) names the fields whose value is a map: their
   keys are data (names), kept as they are. The text is the writers' own (compact, no
   escapes in strings); returns its new length. */
typedef struct {
    char *s;
    int r, w, keys;
    const char *const *maps;
} JsonRekey;

static inline int json_rekey_is_map(const JsonRekey *k, const char *key, int n) {
    for (const char *const *m = k->maps; *m; m++)
        if ((int)strlen(*m) == n && !memcmp(*m, key, (size_t)n)) return 1;
    return 0;
}

static inline void json_rekey_value(JsonRekey *k, int is_map);

static inline void json_rekey_object(JsonRekey *k, int is_map) {
    char *s = k->s;
    s[k->w++] = s[k->r++]; /* '{' */
    int written = 0;
    while (s[k->r] != '}') {
        if (s[k->r] == ',') k->r++;
        int key = k->r + 1, end = key;
        while (s[end] != '"') end++;
        int value = end + 2; /* past '":' */
        if (!is_map && s[value] == 'n') { /* null: the only value starting so */
            k->r = value + 4; /* the member is left out, its comma too */
            continue;
        }
        int child_map = !is_map && json_rekey_is_map(k, s + key, end - key);
        if (written++) s[k->w++] = ',';
        s[k->w++] = '"';
        for (int i = key; i < end; i++) {
            char c = s[i];
            if (!is_map && k->keys == BRASS_KEYS_CAMEL && c == '_' && i + 1 < end) {
                c = s[++i];
                if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
            }
            s[k->w++] = c;
        }
        s[k->w++] = '"';
        s[k->w++] = ':';
        k->r = value;
        json_rekey_value(k, child_map);
    }
    s[k->w++] = s[k->r++]; /* '}' */
}

static inline void json_rekey_value(JsonRekey *k, int is_map) {
    char *s = k->s;
    if (s[k->r] == '{') {
        json_rekey_object(k, is_map);
    } else if (s[k->r] == '[') {
        s[k->w++] = s[k->r++];
        while (s[k->r] != ']') {
            if (s[k->r] == ',') s[k->w++] = s[k->r++];
            json_rekey_value(k, 0);
        }
        s[k->w++] = s[k->r++];
    } else if (s[k->r] == '"') {
        do s[k->w++] = s[k->r++]; while (s[k->r] != '"');
        s[k->w++] = s[k->r++];
    } else {
        while (s[k->r] != ',' && s[k->r] != '}' && s[k->r] != ']') s[k->w++] = s[k->r++];
    }
}

static inline int json_rekey(char *text, int len, int keys, const char *const *maps) {
    if (keys == BRASS_KEYS_SNAKE || len <= 0) return len;
    JsonRekey k = {text, 0, 0, keys, maps};
    json_rekey_value(&k, 0);
    text[k.w] = 0;
    return k.w;
}

#endif
