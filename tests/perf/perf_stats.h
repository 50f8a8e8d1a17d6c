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

#endif
