/* JSON text of an object as the wire bytes of a google.protobuf.Struct: how gRPC answers
   carry a view. The service gets a view as JSON text from brass_view_json; encoding that
   text here costs a few microseconds where parsing it and encoding the dicts in Python cost
   tens. The bytes are the ones the Python protobuf runtime writes for the same document
   (map entries in the text's order, every number a double, integers converted exactly as
   Python's float(int) does); tests/core/test_json_struct.py checks that. */
#include <stdlib.h>
#include <string.h>

#include "brass.h"

typedef struct {
    const char *s;
    size_t n, i;
    uint8_t *out;
    size_t cap, len;
    int err; /* 0, or the BRASS_E_* that stops the conversion */
} Conv;

static void fail(Conv *c, int err) {
    if (!c->err) c->err = err;
}

static void put(Conv *c, const void *bytes, size_t k) {
    if (c->err) return;
    if (k > c->cap - c->len) {
        fail(c, BRASS_E_BUFFER);
        return;
    }
    memcpy(c->out + c->len, bytes, k);
    c->len += k;
}

static void put_byte(Conv *c, uint8_t b) { put(c, &b, 1); }

static size_t varint(uint64_t v, uint8_t *buf) {
    size_t k = 0;
    while (v >= 0x80) {
        buf[k++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    buf[k++] = (uint8_t)v;
    return k;
}

/* A length-delimited part is written body first (its start remembered), then moved up to
   make room for its length. */
static size_t open_part(Conv *c) { return c->len; }

static void close_part(Conv *c, size_t start) {
    if (c->err) return;
    uint8_t prefix[10];
    size_t body = c->len - start, k = varint(body, prefix);
    if (k > c->cap - c->len) {
        fail(c, BRASS_E_BUFFER);
        return;
    }
    memmove(c->out + start + k, c->out + start, body);
    memcpy(c->out + start, prefix, k);
    c->len += k;
}

static void skip_space(Conv *c) {
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
                           c->s[c->i] == '\r'))
        c->i++;
}

static int peek(Conv *c) { return c->i < c->n ? (unsigned char)c->s[c->i] : -1; }

static int expect(Conv *c, char ch) {
    if (peek(c) != (unsigned char)ch) {
        fail(c, BRASS_E_BAD_ARGUMENT);
        return 0;
    }
    c->i++;
    return 1;
}

static int literal(Conv *c, const char *word) {
    size_t k = strlen(word);
    if (c->n - c->i < k || memcmp(c->s + c->i, word, k) != 0) {
        fail(c, BRASS_E_BAD_ARGUMENT);
        return 0;
    }
    c->i += k;
    return 1;
}

static int hex4(Conv *c, unsigned *value) {
    if (c->n - c->i < 4) return 0;
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        int ch = c->s[c->i + (size_t)k];
        v <<= 4;
        if (ch >= '0' && ch <= '9') v |= (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') v |= (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F') v |= (unsigned)(ch - 'A' + 10);
        else return 0;
    }
    c->i += 4;
    *value = v;
    return 1;
}

static void put_code_point(Conv *c, unsigned cp) {
    uint8_t b[4];
    size_t k;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp;
        k = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xc0 | cp >> 6);
        k = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xe0 | cp >> 12);
        k = 3;
    } else {
        b[0] = (uint8_t)(0xf0 | cp >> 18);
        k = 4;
    }
    for (size_t j = 1; j < k; j++) b[j] = (uint8_t)(0x80 | (cp >> (6 * (k - 1 - j)) & 0x3f));
    put(c, b, k);
}

/* The length of the well-formed UTF-8 sequence at s[0..avail), or 0 (protobuf strings must
   be valid UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_sequence(const unsigned char *s, size_t avail) {
    unsigned char b = s[0];
    size_t k;
    unsigned cp;
    if (b >= 0xc2 && b <= 0xdf) k = 2, cp = b & 0x1fu;
    else if (b >= 0xe0 && b <= 0xef) k = 3, cp = b & 0x0fu;
    else if (b >= 0xf0 && b <= 0xf4) k = 4, cp = b & 0x07u;
    else return 0;
    if (avail < k) return 0;
    for (size_t j = 1; j < k; j++) {
        if ((s[j] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[j] & 0x3fu);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return k;
}

/* A JSON string (at its opening quote), written as its UTF-8 bytes. */
static void string_body(Conv *c) {
    if (!expect(c, '"')) return;
    while (!c->err) {
        if (c->i >= c->n) {
            fail(c, BRASS_E_BAD_ARGUMENT);
            return;
        }
        unsigned char ch = (unsigned char)c->s[c->i];
        if (ch == '"') {
            c->i++;
            return;
        }
        if (ch < 0x20) {
            fail(c, BRASS_E_BAD_ARGUMENT);
            return;
        }
        if (ch >= 0x80) {
            size_t k = utf8_sequence((const unsigned char *)c->s + c->i, c->n - c->i);
            if (!k) {
                fail(c, BRASS_E_BAD_ARGUMENT);
                return;
            }
            put(c, c->s + c->i, k);
            c->i += k;
            continue;
        }
        if (ch != '\\') {
            /* a run of plain characters at once */
            size_t start = c->i;
            while (c->i < c->n) {
                unsigned char d = (unsigned char)c->s[c->i];
                if (d == '"' || d == '\\' || d < 0x20 || d >= 0x80) break;
                c->i++;
            }
            put(c, c->s + start, c->i - start);
            continue;
        }
        c->i++;
        if (c->i >= c->n) {
            fail(c, BRASS_E_BAD_ARGUMENT);
            return;
        }
        int e = (unsigned char)c->s[c->i++];
        unsigned cp;
        switch (e) {
        case '"': put_byte(c, '"'); break;
        case '\\': put_byte(c, '\\'); break;
        case '/': put_byte(c, '/'); break;
        case 'b': put_byte(c, '\b'); break;
        case 'f': put_byte(c, '\f'); break;
        case 'n': put_byte(c, '\n'); break;
        case 'r': put_byte(c, '\r'); break;
        case 't': put_byte(c, '\t'); break;
        case 'u':
            if (!hex4(c, &cp)) {
                fail(c, BRASS_E_BAD_ARGUMENT);
                return;
            }
            if (cp >= 0xd800 && cp <= 0xdbff) {
                unsigned low;
                if (!(c->n - c->i >= 2 && c->s[c->i] == '\\' && c->s[c->i + 1] == 'u')) {
                    fail(c, BRASS_E_BAD_ARGUMENT); /* a lone surrogate is no UTF-8 */
                    return;
                }
                c->i += 2;
                if (!hex4(c, &low) || low < 0xdc00 || low > 0xdfff) {
                    fail(c, BRASS_E_BAD_ARGUMENT);
                    return;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                fail(c, BRASS_E_BAD_ARGUMENT);
                return;
            }
            put_code_point(c, cp);
            break;
        default: fail(c, BRASS_E_BAD_ARGUMENT); return;
        }
    }
}

/* A JSON number as a Value's number_value (field 2, a little-endian double). */
static void number_value(Conv *c) {
    size_t start = c->i;
    int integral = 1;
    if (peek(c) == '-') c->i++;
    if (peek(c) == '0') c->i++;
    else if (peek(c) >= '1' && peek(c) <= '9')
        while (peek(c) >= '0' && peek(c) <= '9') c->i++;
    else {
        fail(c, BRASS_E_BAD_ARGUMENT);
        return;
    }
    if (peek(c) == '.') {
        integral = 0;
        c->i++;
        if (!(peek(c) >= '0' && peek(c) <= '9')) {
            fail(c, BRASS_E_BAD_ARGUMENT);
            return;
        }
        while (peek(c) >= '0' && peek(c) <= '9') c->i++;
    }
    if (peek(c) == 'e' || peek(c) == 'E') {
        integral = 0;
        c->i++;
        if (peek(c) == '+' || peek(c) == '-') c->i++;
        if (!(peek(c) >= '0' && peek(c) <= '9')) {
            fail(c, BRASS_E_BAD_ARGUMENT);
            return;
        }
        while (peek(c) >= '0' && peek(c) <= '9') c->i++;
    }
    char text[40];
    size_t k = c->i - start;
    if (k >= sizeof text) {
        fail(c, BRASS_E_BAD_ARGUMENT); /* longer numbers are left to the caller's fallback */
        return;
    }
    memcpy(text, c->s + start, k);
    text[k] = '\0';
    double d;
    if (integral && k <= 18) d = (double)strtoll(text, NULL, 10); /* "-0" is 0.0, as float(0) */
    else d = strtod(text, NULL); /* correctly rounded, as Python's float() */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    uint8_t b[9];
    b[0] = 0x11;
    for (int j = 0; j < 8; j++) b[1 + j] = (uint8_t)(bits >> (8 * j));
    put(c, b, sizeof b);
}

/* Objects and lists nested deeper than this are refused: each level is three messages deep
   in a Struct (Struct, map entry, Value), and protobuf's parsers stop at 100. */
#define STRUCT_MAX_DEPTH 32

static void object_body(Conv *c, int depth);
static void list_body(Conv *c, int depth);

/* A JSON value as the body of a google.protobuf.Value. */
static void value_body(Conv *c, int depth) {
    if (depth > STRUCT_MAX_DEPTH) {
        fail(c, BRASS_E_BAD_ARGUMENT);
        return;
    }
    size_t part;
    switch (peek(c)) {
    case '{':
        put_byte(c, 0x2a); /* struct_value */
        part = open_part(c);
        object_body(c, depth + 1);
        close_part(c, part);
        break;
    case '[':
        put_byte(c, 0x32); /* list_value */
        part = open_part(c);
        list_body(c, depth + 1);
        close_part(c, part);
        break;
    case '"':
        put_byte(c, 0x1a); /* string_value */
        part = open_part(c);
        string_body(c);
        close_part(c, part);
        break;
    case 't':
        if (literal(c, "true")) put(c, "\x20\x01", 2); /* bool_value */
        break;
    case 'f':
        if (literal(c, "false")) put(c, "\x20\x00", 2);
        break;
    case 'n':
        if (literal(c, "null")) put(c, "\x08\x00", 2); /* null_value */
        break;
    default: number_value(c);
    }
}

/* A JSON object (at its brace) as a Struct's body: a map entry (field 1) per member. */
static void object_body(Conv *c, int depth) {
    if (!expect(c, '{')) return;
    skip_space(c);
    if (peek(c) == '}') {
        c->i++;
        return;
    }
    while (!c->err) {
        skip_space(c);
        put_byte(c, 0x0a);
        size_t entry = open_part(c);
        put_byte(c, 0x0a); /* key */
        size_t key = open_part(c);
        string_body(c);
        close_part(c, key);
        skip_space(c);
        if (!expect(c, ':')) return;
        skip_space(c);
        put_byte(c, 0x12); /* value */
        size_t value = open_part(c);
        value_body(c, depth);
        close_part(c, value);
        close_part(c, entry);
        skip_space(c);
        if (peek(c) == ',') {
            c->i++;
            continue;
        }
        expect(c, '}');
        return;
    }
}

/* A JSON array (at its bracket) as a ListValue's body: a Value (field 1) per element. */
static void list_body(Conv *c, int depth) {
    if (!expect(c, '[')) return;
    skip_space(c);
    if (peek(c) == ']') {
        c->i++;
        return;
    }
    while (!c->err) {
        skip_space(c);
        put_byte(c, 0x0a);
        size_t value = open_part(c);
        value_body(c, depth);
        close_part(c, value);
        skip_space(c);
        if (peek(c) == ',') {
            c->i++;
            continue;
        }
        expect(c, ']');
        return;
    }
}

int brass_json_to_struct(const char *json, int len, uint8_t *out, int cap) {
    if (!json || !out || len < 0 || cap < 0) return -BRASS_E_BAD_ARGUMENT;
    Conv c = {json, (size_t)len, 0, out, (size_t)cap, 0, 0};
    skip_space(&c);
    if (peek(&c) != '{') return -BRASS_E_BAD_ARGUMENT;
    object_body(&c, 1);
    skip_space(&c);
    if (!c.err && c.i != c.n) fail(&c, BRASS_E_BAD_ARGUMENT);
    if (c.err) return -c.err;
    return (int)c.len;
}
