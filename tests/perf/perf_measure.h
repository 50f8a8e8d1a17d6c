/* ngcc-perf: the measurement itself, run in a child process (perf_child.h).
 * Method: pin to a CPU (perf_pin.h); prepare the KAT inputs; one first timed
 * call; warm-up; then trials of calibrated iterations. An operation whose
 * first call takes one_shot_s is measured once (1 x 1: the first call is the
 * sample). Otherwise the trials and the iterations per trial come from the
 * per-operation time budget and the warm-up's cost of a call with its
 * untimed preparation (not the first call's: it can carry one-time costs),
 * iterations clamped to [iter_min, iter_max]. Each call is timed on its own,
 * after an untimed preparation that makes it repeat one KAT record's call
 * exactly (perf_op_prepare), unless one call is too short for the counter
 * (< 1000 x its overhead or resolution); then each sample is the mean of one
 * trial. Every call's result is checked, untimed.
 *
 * Same-run A/B (ref_lib set): the reference library is opened in the same
 * child (dlopen RTLD_LOCAL, its own symbols and DRNG context) and measured
 * the same way on the same pinned CPU, in alternating trials ABBA (pair t:
 * reference then instance for even t, the other way round for odd t), with
 * the same plan (trials and iterations from the slower of the two warm-ups;
 * in per-call mode every call is its own trial, so a pair is two calls back
 * to back).
 * One process, not two children: the two libraries never run at the same
 * time by construction (no hand-over over a pipe whose wake-up would land on
 * another core or add scheduler latency to one side), and both see the same
 * process, CPU and cache state. A trial's sample is the median of its calls
 * (per-call mode) or their mean (per-trial-mean mode). */
#ifndef PERF_MEASURE_H
#define PERF_MEASURE_H
#include <stdio.h>

typedef struct {
    const char *lib, *op, *counter;
    const char *pin;   /* CPU policy: none | fastest | <cpu> (perf_pin.h) */
    double budget_s;   /* wall time of all trials together (untimed preparation included) */
    double warmup_s;   /* warm-up time after the first call */
    double one_shot_s; /* first call at least this long: 1 x 1 */
    int trials, iter_min, iter_max;
    int records;         /* KAT records whose inputs are cycled through */
    const char *ref_lib; /* same-run A/B reference library, or NULL */
} perf_measure_opts;

/* perf_child_fn: writes #PHASE lines, then #RESULT {counter, mode, trials,
 * iterations, samples, total_ticks, calls, wall_ns_total, first_call_ticks,
 * warmup_calls, out_min, out_max, claimed, meta} or #ERROR <verdict>; with
 * ref_lib also "ab": {order, trial_samples (the instance's), ref_trial_samples,
 * ref_samples, ref_meta, ref_first_call_ticks, ref_total_ticks, ref_calls} */
int perf_measure_child(void *opts, FILE *out);

#endif
