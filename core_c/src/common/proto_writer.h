/* A one-pass protobuf binary writer for the rulesets' typed views (<ruleset>_view_proto.c),
   as json_writer.h is for their JSON text: fields are written in order straight into the
   caller's buffer, with proto3's rules:

   - singular scalars (int32, enum, bool, string) are left out at their default (0, false,
     ""); `optional` ones (explicit presence) are written whenever they are set;
   - a nested message is length-delimited: one byte is kept for its length, and the body is
     moved on when the length needs more (rare: most nested messages are under 128 bytes);
   - repeated int32 are packed (proto3's default); repeated strings and messages are one
     field each; a map entry is a nested message of key (1) and value (2), its value left
     out at its default like any field.

   Field numbers and kinds come from the generated <prefix>_view_fields.h (gen_proto, from
   the .proto files): PROTO_TAG checks at compile time that the field is of the kind the
   writer function writes. Writes never pass `cap`: the first that would sets `failed`,
   nothing more is written, and proto_finish answers -BRASS_E_BUFFER. */
#ifndef BRASS_COMMON_PROTO_WRITER_H
#define BRASS_COMMON_PROTO_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "brass.h"

/* A field's kind as the generated headers name it (<message>_<field>_kind). */
enum {
    PROTO_INT32 = 1,
    PROTO_BOOL,
    PROTO_STRING,
    PROTO_ENUM,
    PROTO_MESSAGE,
    PROTO_OPTIONAL_INT32,
    PROTO_OPTIONAL_STRING,
    PROTO_OPTIONAL_ENUM,
    PROTO_REPEATED_INT32,
    PROTO_REPEATED_STRING,
    PROTO_REPEATED_MESSAGE,
    PROTO_MAP_STRING_INT32,
    PROTO_MAP_STRING_STRING,
    PROTO_MAP_STRING_MESSAGE,
};

/* The number of field `field` of brass.v1 message `msg` (nested names joined by '_', as
   BirminghamView_Player), checked to be of `kind`: a field of another kind does not
   compile (a negative array size). `msg` may be a macro naming the message. */
#define PROTO_TAG(msg, field, kind) PROTO_TAG_(msg, field, kind)
#define PROTO_TAG_(msg, field, kind)                                                  \
    ((void)sizeof(char[brass_v1_##msg##_##field##_kind == (kind) ? 1 : -1]),          \
     (uint32_t)brass_v1_##msg##_##field##_tag)

enum { PROTO_WIRE_VARINT = 0, PROTO_WIRE_LEN = 2 };

/* A field of message `msg` written by the writer function of its kind (w: a ProtoWriter *;
   BEGIN_*: returns where the nested message starts, for proto_end). */
#define PW_INT32(w, msg, field, v) proto_int32((w), PROTO_TAG(msg, field, PROTO_INT32), (v))
#define PW_ENUM(w, msg, field, v) proto_int32((w), PROTO_TAG(msg, field, PROTO_ENUM), (v))
#define PW_BOOL(w, msg, field, v) proto_bool((w), PROTO_TAG(msg, field, PROTO_BOOL), (v))
#define PW_STRING(w, msg, field, s) proto_string((w), PROTO_TAG(msg, field, PROTO_STRING), (s))
#define PW_OPTIONAL_INT32(w, msg, field, v) \
    proto_optional_int32((w), PROTO_TAG(msg, field, PROTO_OPTIONAL_INT32), (v))
#define PW_OPTIONAL_ENUM(w, msg, field, v) \
    proto_optional_int32((w), PROTO_TAG(msg, field, PROTO_OPTIONAL_ENUM), (v))
#define PW_OPTIONAL_STRING(w, msg, field, s) \
    proto_string_always((w), PROTO_TAG(msg, field, PROTO_OPTIONAL_STRING), (s))
#define PW_REPEATED_STRING(w, msg, field, s) \
    proto_string_always((w), PROTO_TAG(msg, field, PROTO_REPEATED_STRING), (s))
#define PW_PACKED_INT32(w, msg, field, values, count) \
    proto_packed_int32((w), PROTO_TAG(msg, field, PROTO_REPEATED_INT32), (values), (count))
#define PW_MAP_INT32(w, msg, field, key, v) \
    proto_map_int32((w), PROTO_TAG(msg, field, PROTO_MAP_STRING_INT32), (key), (v))
#define PW_MAP_STRING(w, msg, field, key, v) \
    proto_map_string((w), PROTO_TAG(msg, field, PROTO_MAP_STRING_STRING), (key), (v))
#define PW_BEGIN_MESSAGE(w, msg, field) proto_begin((w), PROTO_TAG(msg, field, PROTO_MESSAGE))
#define PW_BEGIN_REPEATED_MESSAGE(w, msg, field) \
    proto_begin((w), PROTO_TAG(msg, field, PROTO_REPEATED_MESSAGE))
/* a map<string, Message> entry: its key written; then proto_begin(w, 2) for the value */
#define PW_BEGIN_MAP_ENTRY(w, msg, field, key) \
    proto_map_entry((w), PROTO_TAG(msg, field, PROTO_MAP_STRING_MESSAGE), (key))

typedef struct {
    uint8_t *out;
    int cap;
    int len;
    int failed; /* a write would have passed cap: the message is refused */
} ProtoWriter;

static inline ProtoWriter proto_writer(uint8_t *out, int cap) {
    ProtoWriter w = {out, cap < 0 ? 0 : cap, 0, 0};
    return w;
}

static inline void proto_bytes(ProtoWriter *w, const void *s, size_t n) {
    if (w->failed || n > (size_t)(w->cap - w->len)) {
        w->failed = 1;
        return;
    }
    if (n) memcpy(w->out + w->len, s, n);
    w->len += (int)n;
}

static inline void proto_varint(ProtoWriter *w, uint64_t v) {
    uint8_t buf[10];
    size_t n = 0;
    while (v >= 0x80) {
        buf[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    buf[n++] = (uint8_t)v;
    proto_bytes(w, buf, n);
}

static inline void proto_tag(ProtoWriter *w, uint32_t field, int wire) {
    proto_varint(w, ((uint64_t)field << 3) | (uint64_t)wire);
}

/* int32 and enum values: negative ones as ten bytes, sign-extended (the wire format) */
static inline void proto_int32_value(ProtoWriter *w, int32_t v) {
    proto_varint(w, (uint64_t)(int64_t)v);
}

static inline void proto_int32(ProtoWriter *w, uint32_t field, int32_t v) {
    if (!v) return;
    proto_tag(w, field, PROTO_WIRE_VARINT);
    proto_int32_value(w, v);
}

static inline void proto_optional_int32(ProtoWriter *w, uint32_t field, int32_t v) {
    proto_tag(w, field, PROTO_WIRE_VARINT);
    proto_int32_value(w, v);
}

static inline void proto_bool(ProtoWriter *w, uint32_t field, int v) {
    if (!v) return;
    proto_tag(w, field, PROTO_WIRE_VARINT);
    proto_varint(w, 1);
}

/* A string written whatever its value (an optional or repeated one, a map key). */
static inline void proto_string_always(ProtoWriter *w, uint32_t field, const char *s) {
    size_t n = strlen(s);
    proto_tag(w, field, PROTO_WIRE_LEN);
    proto_varint(w, n);
    proto_bytes(w, s, n);
}

static inline void proto_string(ProtoWriter *w, uint32_t field, const char *s) {
    if (*s) proto_string_always(w, field, s);
}

/* A nested message (or packed run) begins: its tag and one byte kept for its length.
   Returns where its body starts, for proto_end. */
static inline int proto_begin(ProtoWriter *w, uint32_t field) {
    proto_tag(w, field, PROTO_WIRE_LEN);
    proto_bytes(w, "", 1);
    return w->len;
}

/* The nested message begun at `start` ends: its length written in front of it, the body
   moved on by the bytes a length of 128 or more needs beyond the one kept. */
static inline void proto_end(ProtoWriter *w, int start) {
    if (w->failed) return;
    size_t n = (size_t)(w->len - start);
    if (n < 0x80) {
        w->out[start - 1] = (uint8_t)n;
        return;
    }
    uint8_t len[5];
    size_t k = 0;
    for (size_t v = n; v; v >>= 7) len[k++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
    if (k - 1 > (size_t)(w->cap - w->len)) {
        w->failed = 1;
        return;
    }
    memmove(w->out + start + k - 1, w->out + start, n);
    memcpy(w->out + start - 1, len, k);
    w->len += (int)(k - 1);
}

/* A map entry begins: its key written. The value follows (proto_int32(w, 2, v),
   proto_string(w, 2, v), or a message: proto_begin(w, 2) ... proto_end), then
   proto_end(w, entry). */
static inline int proto_map_entry(ProtoWriter *w, uint32_t field, const char *key) {
    int entry = proto_begin(w, field);
    proto_string_always(w, 1, key);
    return entry;
}

/* A map<string, int32> entry. */
static inline void proto_map_int32(ProtoWriter *w, uint32_t field, const char *key, int32_t v) {
    int entry = proto_map_entry(w, field, key);
    proto_int32(w, 2, v);
    proto_end(w, entry);
}

/* A map<string, string> entry. */
static inline void proto_map_string(ProtoWriter *w, uint32_t field, const char *key,
                                    const char *v) {
    int entry = proto_map_entry(w, field, key);
    proto_string(w, 2, v);
    proto_end(w, entry);
}

/* A packed repeated int32 (nothing for none). */
static inline void proto_packed_int32(ProtoWriter *w, uint32_t field, const uint8_t *values,
                                      int count) {
    if (count <= 0) return;
    int run = proto_begin(w, field);
    for (int i = 0; i < count; i++) proto_int32_value(w, values[i]);
    proto_end(w, run);
}

/* The message's length, or -BRASS_E_BUFFER when it did not fit in cap. */
static inline int proto_finish(const ProtoWriter *w) {
    return w->failed ? -BRASS_E_BUFFER : w->len;
}

#endif
