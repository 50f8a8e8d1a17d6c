/* ngcc-perf: order statistics of timing samples. */
#ifndef PERF_STATS_H
#define PERF_STATS_H
#include <stddef.h>

typedef struct {
    size_t n;
    double min, q1, median, q3, max, mean;
} perf_summary;

/* Summarises n > 0 samples (the input is not modified). Quartiles use linear
 * interpolation between order statistics (Hyndman-Fan type 7, the default
 * of R and numpy), so the median of an even count is the mean of the two
 * middle values. 0, or -1 if n == 0 or memory is short. */
int perf_summarise(const double *x, size_t n, perf_summary *s);
/* (q3 - q1) / median, 0 when the median is 0 */
double perf_iqr_rel(const perf_summary *s);
/* median of n > 0 values (type 7; the input is not modified); 0 if n == 0 */
double perf_median_of(const double *x, size_t n);

/* Same-run A/B on n trial pairs (a[i]: the reference, b[i]: the instance,
 * measured back to back): the median of the pairs' ratios b[i] / a[i] (the
 * gated figure: what shifted both members of a pair cancels) and the ratio
 * of the medians median(b) / median(a), each with a percentile bootstrap
 * interval from the same `resamples` resamplings of the pairs with
 * replacement (pairs kept together), from a fixed xorshift64* seed: the same
 * samples always give the same intervals. */
typedef struct {
    size_t n; /* trial pairs */
    int resamples;
    double confidence; /* e.g. 0.95 */
    unsigned long long seed;
    double ratio, lo, hi;       /* median of b[i] / a[i] and its interval */
    double rom, rom_lo, rom_hi; /* median(b) / median(a) and its interval */
} perf_ratio_ci;
/* 0, or -1 if n == 0, a sample is not positive or memory is short */
int perf_ratio_bootstrap(const double *a, const double *b, size_t n, int resamples, double confidence,
                         unsigned long long seed, perf_ratio_ci *out);

#endif
