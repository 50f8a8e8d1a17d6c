/* ngcc-prof: from the per-record lines of the child to the figures of a prof
 * record: calls per operation (mean/min/max over the records), bit-length
 * histograms, time shares corrected for the wrapper's own cost, overhead
 * against the plain library, and the gate compared with the expectation. */
#ifndef PROF_STATS_H
#define PROF_STATS_H

#include <cjson/cJSON.h>

typedef struct {
    double inside; /* wrapper ticks inside a measured call interval */
    double total;  /* wrapper ticks per call in all */
} prof_calib;

typedef struct {
    double hash, drng;         /* corrected shares, median over the records */
    double hash_raw, drng_raw; /* uncorrected */
    double overhead_raw;       /* prof/plain - 1, or NAN without the plain library */
    double overhead_corrected; /* (prof - wrapper cost)/plain - 1, or NAN */
    double calls_per_op;       /* wrapped calls per operation (mean) */
    int disturbed;             /* records whose chosen runs were preempted */
} prof_summary_figs;

/* Adds "calls", "bits_in", "bits_out", "share", "per_record", "overhead" and
 * "gate" to rec from the n REC objects; figs gets the headline figures. */
void prof_stats_fill(cJSON *rec, cJSON *const *recs, int n, const prof_calib *cal, prof_summary_figs *figs);

#endif
