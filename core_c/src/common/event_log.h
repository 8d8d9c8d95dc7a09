/* Recording an event into a call's event log: shared by every ruleset. */
#ifndef BRASS_COMMON_EVENT_LOG_H
#define BRASS_COMMON_EVENT_LOG_H

#include "brass.h"

/* Appends one event (no log: nothing); past BRASS_MAX_EVENTS it is counted as dropped. */
static inline void brass_log_event(BrassEventLog *log, int type, int seat, int a, int b, int c) {
    if (!log) return;
    if (log->count >= BRASS_MAX_EVENTS) {
        log->dropped++;
        return;
    }
    BrassEvent *e = &log->events[log->count++];
    e->type = (uint8_t)type;
    e->seat = (int8_t)seat;
    e->a = (int16_t)a;
    e->b = (int16_t)b;
    e->c = (int16_t)c;
}

#endif
