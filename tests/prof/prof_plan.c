/* ngcc-prof: sizing a prof run from the kat test's measured times (prof_plan.h). */
#include "prof_plan.h"

#include <stdio.h>
#include <string.h>

#include "ngcc_optimes.h"
#include "prof_run.h"

/* seconds of one replay of the flow up to op (the kat medians of the calls
 * before it and of op), or -1 when the kat record does not time them */
static double chain_seconds(const ngcc_optimes *t, const char *op, char *calls, size_t len)
{
    const char *const *flow = prof_sig_ops;
    int n = PROF_SIGKEM_OPS;
    if (ngcc_optimes_get(t, "enc", 0) >= 0) {
        flow = prof_kem_ops;
    } else if (ngcc_optimes_get(t, "init_a", 0) >= 0) {
        flow = prof_kex_ops;
        n = PROF_KEX_OPS;
    }
    double sum = 0;
    size_t used = 0;
    calls[0] = 0;
    for (int i = 0; i < n; i++) {
        double s = ngcc_optimes_get(t, flow[i], 0);
        if (s < 0)
            return -1;
        sum += s;
        if (used < len)
            used += (size_t)snprintf(calls + used, len - used, "%s%s %.3g s", i ? " + " : "", flow[i], s);
        if (strcmp(flow[i], op) == 0)
            return sum;
    }
    return -1;
}

/* the override sets CTest's timeout; the driver's --timeout is 5 s less
 * (cmake/NgccProfTests.cmake) */
#define CTEST_MARGIN_S 5

void prof_plan_make(prof_plan *p, const char *record_out, const char *op, double timeout)
{
    p->skip = 0;
    p->note[0] = 0;
    p->predicted_s = 0;
    ngcc_optimes t;
    char calls[300];
    if (ngcc_optimes_load(record_out, &t) != 0) {
        snprintf(p->note, sizeof p->note, "run as asked: no kat record with operation times (%.500s)", t.path);
        return;
    }
    double chain = chain_seconds(&t, op, calls, sizeof calls);
    if (chain < 0 || timeout <= 0)
        return; /* op not timed by kat (hash), or no limit: as asked */
    double run = PROF_PLAN_COST_FACTOR * chain, limit = PROF_PLAN_SHARE * timeout;
    p->predicted_s = run * p->records * p->min_reps;
    if (p->predicted_s <= limit)
        return;
    int asked_records = p->records, asked_reps = p->min_reps;
    int fit = (int)(limit / run);
    if (fit < 1) {
        p->skip = 1;
        snprintf(p->note, sizeof p->note,
                 "not run: one run of record 0 up to %s would take ~%.0f s (the kat test measured %s per call, "
                 "x%.0f for the plain and the instrumented library), above %.0f%% of the %.0f s timeout; raise the "
                 "\"timeouts\" {\"prof\": S} override to %.0f s or more",
                 op, run, calls, PROF_PLAN_COST_FACTOR, 100 * PROF_PLAN_SHARE, timeout,
                 run / PROF_PLAN_SHARE + CTEST_MARGIN_S);
        return;
    }
    /* one run per record first (the counts are then not seen to repeat),
     * then fewer records */
    p->min_reps = p->max_reps = 1;
    if (fit < p->records)
        p->records = fit;
    snprintf(p->note, sizeof p->note,
             "reduced: %d records x %d runs would take ~%.0f s (the kat test measured %s per call, x%.0f for the "
             "plain and the instrumented library), above %.0f%% of the %.0f s timeout: ran %d record%s, one run "
             "each (the counts were not seen to repeat); raise the \"timeouts\" {\"prof\": S} override to %.0f s "
             "for the full run",
             asked_records, asked_reps, p->predicted_s, calls, PROF_PLAN_COST_FACTOR, 100 * PROF_PLAN_SHARE, timeout,
             p->records, p->records == 1 ? "" : "s", p->predicted_s / PROF_PLAN_SHARE + CTEST_MARGIN_S);
}
