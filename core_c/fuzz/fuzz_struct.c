/* libFuzzer harness: brass_json_to_struct on arbitrary bytes (no NUL at the end).
   Checks: it refuses or converts, never writes past `cap`; BRASS_STRUCT_CAP always
   suffices; the exact length suffices and one byte less is refused with BRASS_E_BUFFER;
   what it writes is a well-formed google.protobuf.Struct (walked below). */
#include <stdint.h>
#include <string.h>

#include "brass.h"
#include "fuzz_check.h"

/* Reads a varint at *at (within end); 0 when malformed. */
static int read_varint(const uint8_t **at, const uint8_t *end, uint64_t *v) {
    *v = 0;
    for (int shift = 0; shift < 64 && *at < end; shift += 7) {
        uint8_t b = *(*at)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return 1;
    }
    return 0;
}

/* A length-delimited part with the given tag at *at: its body in [*body, *body_end). */
static int read_part(const uint8_t **at, const uint8_t *end, uint8_t tag,
                     const uint8_t **body, const uint8_t **body_end) {
    uint64_t len;
    if (*at >= end || *(*at)++ != tag || !read_varint(at, end, &len)) return 0;
    if (len > (uint64_t)(end - *at)) return 0;
    *body = *at;
    *body_end = *at + len;
    *at += len;
    return 1;
}

static int struct_ok(const uint8_t *at, const uint8_t *end, int depth);

static int list_ok(const uint8_t *at, const uint8_t *end, int depth);

static int value_ok(const uint8_t *at, const uint8_t *end, int depth) {
    const uint8_t *body, *body_end;
    if (at >= end || depth > 40) return 0;
    switch (*at) {
    case 0x08: return end - at == 2 && at[1] == 0;              /* null_value */
    case 0x11: return end - at == 9;                             /* number_value */
    case 0x20: return end - at == 2 && at[1] <= 1;              /* bool_value */
    case 0x1a: return read_part(&at, end, 0x1a, &body, &body_end) && at == end;
    case 0x2a:
        return read_part(&at, end, 0x2a, &body, &body_end) && at == end &&
               struct_ok(body, body_end, depth + 1);
    case 0x32:
        return read_part(&at, end, 0x32, &body, &body_end) && at == end &&
               list_ok(body, body_end, depth + 1);
    default: return 0;
    }
}

static int struct_ok(const uint8_t *at, const uint8_t *end, int depth) {
    while (at < end) {
        const uint8_t *entry, *entry_end, *key, *key_end, *value, *value_end;
        if (!read_part(&at, end, 0x0a, &entry, &entry_end)) return 0;
        if (!read_part(&entry, entry_end, 0x0a, &key, &key_end)) return 0;
        if (!read_part(&entry, entry_end, 0x12, &value, &value_end) || entry != entry_end)
            return 0;
        if (!value_ok(value, value_end, depth)) return 0;
    }
    return 1;
}

static int list_ok(const uint8_t *at, const uint8_t *end, int depth) {
    while (at < end) {
        const uint8_t *value, *value_end;
        if (!read_part(&at, end, 0x0a, &value, &value_end)) return 0;
        if (!value_ok(value, value_end, depth)) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 16)) return 0;
    int len = (int)size;
    int cap = BRASS_STRUCT_CAP(len);
    /* exact-size copies, so ASan sees any read or write past either end */
    char *text = malloc(size ? size : 1);
    uint8_t *out = malloc((size_t)cap), *again = malloc((size_t)cap);
    FUZZ_CHECK(text && out && again, "malloc");
    memcpy(text, data, size);
    int n = brass_json_to_struct(text, len, out, cap);
    if (n < 0) {
        FUZZ_CHECK(n == -BRASS_E_BAD_ARGUMENT, "refused with %d", n);
    } else {
        FUZZ_CHECK(n <= cap, "%d > cap %d", n, cap);
        FUZZ_CHECK(struct_ok(out, out + n, 0), "not a well-formed Struct (%d bytes)", n);
        uint8_t *exact = malloc(n ? (size_t)n : 1);
        FUZZ_CHECK(exact != NULL, "malloc");
        FUZZ_CHECK(brass_json_to_struct(text, len, exact, n) == n, "exact length refused");
        FUZZ_CHECK(memcmp(exact, out, (size_t)n) == 0, "exact length wrote other bytes");
        if (n > 0)
            FUZZ_CHECK(brass_json_to_struct(text, len, again, n - 1) == -BRASS_E_BUFFER,
                       "one byte short was not refused");
        free(exact);
    }
    free(text);
    free(out);
    free(again);
    return 0;
}
