/* ngcc-perf: the time budget of a hash-<bytes> operation (perf_hash_budget.h).
 * The speed records sit beside the KAT record the test is gated on
 * (<records>/kat-2_12.json). */
#include "perf_hash_budget.h"

#include <stdio.h>
#include <string.h>

#include "kat_hash_speed.h"
#include "ngcc_verdict.h"

#define CALLS 2      /* the reference digest and the first timed call */
#define MARGIN 2.0   /* as the kat time budget's */
#define MIN_TRIALS 3 /* perf_measure.c's floor */

int perf_hash_budget(ngcc_frame *f, const perf_args *a)
{
    unsigned long long bytes;
    char tail;
    if (!a->op || sscanf(a->op, "hash-%llu%c", &bytes, &tail) != 1 || !a->kat_record || a->timeout <= 0)
        return 0;
    char dir[4096], source[900];
    snprintf(dir, sizeof dir, "%s", a->kat_record);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    double per_call, per_byte;
    if (!kat_hash_call_model(dir, a->lib, &per_call, &per_byte, source, sizeof source))
        return 0;
    /* the reference digest and the first timed call; below the one-shot
     * threshold also the warm-up and at least MIN_TRIALS calls or the budget
     * (perf_measure.c's plan) */
    double call = per_call + (double)bytes * per_byte, rest = 0;
    if (call < a->m.one_shot_s)
        rest = a->m.warmup_s + (a->m.budget_s > MIN_TRIALS * call ? a->m.budget_s : MIN_TRIALS * call);
    double need = (CALLS * call + rest) * MARGIN;
    if (need <= a->timeout)
        return 0;
    unsigned long want = (unsigned long)(need + 59) / 60 * 60 + 5;
    f->verdict = NGCC_SKIP;
    snprintf(f->detail, sizeof f->detail,
             "one CryptHash call on %llu bytes would take ~%.3g s at %.3g MB/s (predicted from %.500s); the "
             "measurement needs at least %d (the reference digest, one timed call) and %.3g s of warm-up and "
             "trials: x %.0f margin: %.0f s > the "
             "%.0f s timeout; run: raise this instance's \"timeouts\": {\"perf\": %lu} override (or "
             "-DNGCC_TIMEOUT_perf=%lu), or leave %llu out of NGCC_PERF_HASH_LENGTHS",
             bytes, call, (double)bytes / call / 1e6, source, CALLS, rest, MARGIN, need, a->timeout, want, want, bytes);
    return 1;
}
