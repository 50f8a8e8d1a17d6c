#include "perf_stats.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* type-7 quantile of sorted v[0..n-1] */
static double quantile(const double *v, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)h;
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

int perf_summarise(const double *x, size_t n, perf_summary *s)
{
    memset(s, 0, sizeof *s);
    if (n == 0)
        return -1;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return -1;
    memcpy(v, x, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    s->n = n;
    s->min = v[0];
    s->max = v[n - 1];
    s->q1 = quantile(v, n, 0.25);
    s->median = quantile(v, n, 0.5);
    s->q3 = quantile(v, n, 0.75);
    s->mean = sum / (double)n;
    free(v);
    return 0;
}

double perf_iqr_rel(const perf_summary *s)
{
    return s->median > 0 ? (s->q3 - s->q1) / s->median : 0;
}
