/* libFuzzer harness: arbitrary bytes as a BrassGame struct (the position entry point at the
   C level: the Python position reader fills the struct and brass_validate judges it). A state
   validate accepts must survive every entry point; the bytes after the struct drive decisions. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    BrassGame g;
    memset(&g, 0, sizeof g);
    if (size < STATE_SIZE) return 0;
    memcpy(&g, data, STATE_SIZE);
    /* The JSON writers stay inside their tables and the buffer whatever the bytes (they
       are meant for valid states, but must not read or write out of bounds on others). */
    static char json[BRASS_JSON_CAP];
    int n = brass_position_json(&g, json, BRASS_JSON_CAP);
    FUZZ_CHECK(n < 0 || (n < BRASS_JSON_CAP && json[n] == 0), "position json %d", n);
    for (int s = -1; s < BRASS_MAX_PLAYERS; s++) {
        n = brass_view_json(&g, s, json, BRASS_JSON_CAP);
        FUZZ_CHECK(n < 0 || (n < BRASS_JSON_CAP && json[n] == 0), "view json %d", n);
    }
    char field[128];
    memset(field, 0, sizeof field);
    int err = brass_validate(&g, field, sizeof field);
    if (err != BRASS_OK) {
        FUZZ_CHECK(err == BRASS_E_BAD_POSITION, "validate error %d", err);
        FUZZ_CHECK(field[0] != 0, "validate named no field");
        FUZZ_CHECK(memchr(field, 0, sizeof field) != NULL, "field not terminated");
        return 0;
    }
    exercise(&g, data + STATE_SIZE, size - STATE_SIZE);
    return 0;
}
