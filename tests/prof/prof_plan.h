/* ngcc-prof: sizing a prof run from the kat test's measured operation times
 * (ngcc_optimes.h), so a slow instance gets its counts from fewer runs or
 * records, said so, or a SKIP naming the prediction, never a TIMEOUT. */
#ifndef PROF_PLAN_H
#define PROF_PLAN_H

#include <stddef.h>

/* One run of a record replays the flow up to the profiled operation on the
 * plain library and on the instrumented one (taken as twice as slow). */
#define PROF_PLAN_COST_FACTOR 3.0
/* the share of the timeout the predicted run may use */
#define PROF_PLAN_SHARE 0.5

typedef struct {
    int records, min_reps, max_reps; /* in: asked; out: what fits */
    int skip;                        /* 1: not even one run of record 0 fits */
    double predicted_s;              /* the predicted run of what was asked */
    char note[700];                  /* the decision, in words ("" when nothing changed) */
} prof_plan;

/* record_out: the prof record (kat.json is looked for beside it); op: the
 * profiled operation; timeout: the driver's limit (s, <= 0: none) */
void prof_plan_make(prof_plan *p, const char *record_out, const char *op, double timeout);

#endif
