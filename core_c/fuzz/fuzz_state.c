/* libFuzzer harness: arbitrary bytes as a BrassGame struct (the position entry point at the
   C level: the Python position reader fills the struct and brass_validate judges it). A state
   validate accepts must survive every entry point; the bytes after the struct drive decisions. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    BrassGame g;
    if (size < sizeof g) return 0;
    memcpy(&g, data, sizeof g);
    char field[128];
    memset(field, 0, sizeof field);
    int err = brass_validate(&g, field, sizeof field);
    if (err != BRASS_OK) {
        FUZZ_CHECK(err == BRASS_E_BAD_POSITION, "validate error %d", err);
        FUZZ_CHECK(field[0] != 0, "validate named no field");
        FUZZ_CHECK(memchr(field, 0, sizeof field) != NULL, "field not terminated");
        return 0;
    }
    exercise(&g, data + sizeof g, size - sizeof g);
    return 0;
}
