/* The bots' static evaluators in C (brass_summary_worths): one file a ruleset. */
#ifndef BRASS_WORTH_H
#define BRASS_WORTH_H

#include "brass.h"

/* Each seat's absolute worth (VP equivalents) of a summary into worth[], the player count
   into *players: BRASS_OK or an error as brass_summary_worths'. */
int birmingham_worths(const int32_t *s, int len, const BrassWorthParams *p, double *worth,
                      int *players);
int pittsburgh_worths(const int32_t *s, int len, const BrassWorthParams *p, double *worth,
                      int *players);

/* brass_summary_worths of a game's own summary (a valid state of the params' ruleset) */
int state_worths(const BrassGame *g, const BrassWorthParams *p, double *out);

/* Python's min(1.0, x) and max(0.0, x) (the first argument on a tie: the same double) */
static inline double at_most_one(double x) { return x < 1.0 ? x : 1.0; }
static inline double at_least_zero(double x) { return x > 0.0 ? x : 0.0; }
static inline double smaller(double a, double b) { return b < a ? b : a; }
static inline int at_least_zero_int(int x) { return x > 0 ? x : 0; }

/* Bounds on a summary's counts that no game reaches, so that a hostile summary's sums and
   products stay far inside an int (no overflow: the API takes any ints) */
#define WORTH_MAX_COUNT 100000
static inline int count_ok(int32_t v) { return v >= 0 && v <= WORTH_MAX_COUNT; }

#endif
