/* Filling nanopb's generated structs (the view encoders, <ruleset>_view_proto.c): their
   strings and repeated fields are fixed arrays, sized by core_c/nanopb/<ruleset>.options. */
#ifndef BRASS_COMMON_PROTO_FIELDS_H
#define BRASS_COMMON_PROTO_FIELDS_H

#include <string.h>

/* How many entries a fixed array field holds (for _Static_assert against the tables). */
#define PROTO_COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))

/* Copies a name into a fixed nanopb string field; 0 when it does not fit (a name longer
   than the options file allows: the view is refused rather than cut). */
static inline int proto_put_name(char *field, size_t size, const char *name) {
    size_t n = strlen(name);
    if (n >= size) return 0;
    memcpy(field, name, n + 1);
    return 1;
}
/* proto_put_name into a field, clearing the caller's `fits` when it does not fit */
#define NAME(field, name) (fits &= proto_put_name((field), sizeof(field), (name)))

#endif
