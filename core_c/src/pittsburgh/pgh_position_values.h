/* What the Pittsburgh position reader (pgh_position.c) and its checked reads of one JSON
   value each (pgh_position_values.c) share: the reader's context and the reads. Every read
   returns 0, or BRASS_E_BAD_POSITION with the failing value's JSON path and a message
   written to the context (pgh_pv_bad). */
#ifndef PGH_POSITION_VALUES_H
#define PGH_POSITION_VALUES_H

#include <stdarg.h>
#include <stdio.h>

#include "common/json_tree.h"
#include "pgh_internal.h"

/* The reader's context: the parsed text, the table set (once "data" is read), and where the
   failing value's path and the message go. */
typedef struct {
    JtParser p;
    const PghTables *T;
    char *field, *msg;
    size_t field_len, msg_len;
} RC;

#define TRY(x)                                 \
    do {                                       \
        int err_ = (x);                        \
        if (err_) return err_;                 \
    } while (0)

static inline const JtNode *pgh_pv_node(const RC *c, int k) { return &c->p.nodes[k]; }

/* Refuse the value at `path`: writes the path and the message, returns BRASS_E_BAD_POSITION. */
int pgh_pv_bad(RC *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* paths: a key as it may appear in one, a formatted one, a key joined onto one */
void pgh_pv_key_text(const RC *c, int k, char *out, size_t n);
void pgh_pv_pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pgh_pv_join(char *out, size_t n, const char *path, const char *key);
void pgh_pv_join_key(const RC *c, char *out, size_t n, const char *path, int k);

/* objects: a node's type, the keys an object may hold, a member's value (or -1) */
int pgh_pv_want(RC *c, int k, int type, const char *path);
int pgh_pv_only(RC *c, int obj, const char *path, const char *const *keys);
int pgh_pv_member(const RC *c, int obj, const char *key);
int pgh_pv_required(RC *c, int obj, const char *key, const char *path, int *v);

/* numbers and booleans: a node, or a key of an object with a default (NO_DEFAULT: required) */
#define NO_DEFAULT (-(1LL << 62))
int pgh_pv_int_at(RC *c, int k, const char *path, long long lo, long long hi, long long *out);
int pgh_pv_u64_at(RC *c, int k, const char *path, uint64_t *out);
int pgh_pv_get_int(RC *c, int obj, const char *key, const char *path, long long lo, long long hi, long long dflt,
                   long long *out);
int pgh_pv_get_bool(RC *c, int obj, const char *key, const char *path, int dflt, uint8_t *out);
#define GET_U8(obj, key, path, lo, hi, dflt, dst)                       \
    do {                                                                \
        long long v_;                                                   \
        TRY(pgh_pv_get_int(c, obj, key, path, lo, hi, dflt, &v_));      \
        (dst) = (uint8_t)v_;                                            \
    } while (0)

/* names of the data's tables (PN_* kinds): one, a set of them, counts keyed by them */
int pgh_pv_lookup(const RC *c, int kind, int k);
int pgh_pv_name_at(RC *c, int k, const char *path, int kind, int allow_null, uint8_t *out);
int pgh_pv_get_name(RC *c, int obj, const char *key, const char *path, int kind, int allow_null, int dflt,
                    uint8_t *out);
int pgh_pv_name_set(RC *c, int obj, const char *key, const char *path, int kind, uint64_t *out);
int pgh_pv_name_counts(RC *c, int obj, const char *key, const char *path, int kind, int hi, int need,
                       uint8_t *out);

#endif
