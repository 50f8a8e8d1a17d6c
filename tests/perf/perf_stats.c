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

double perf_median_of(const double *x, size_t n)
{
    perf_summary s;
    return perf_summarise(x, n, &s) ? 0 : s.median;
}

static unsigned long long xorshift64s(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static double median_inplace(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return quantile(v, n, 0.5);
}

int perf_ratio_bootstrap(const double *a, const double *b, size_t n, int resamples, double confidence,
                         unsigned long long seed, perf_ratio_ci *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->resamples = resamples;
    out->confidence = confidence;
    out->seed = seed;
    if (n == 0 || resamples < 1)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(a[i] > 0) || !(b[i] > 0))
            return -1;
    double *pr = malloc(n * sizeof *pr), *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
    double *rp = malloc(n * sizeof *rp);
    double *q = malloc((size_t)resamples * sizeof *q), *qm = malloc((size_t)resamples * sizeof *qm);
    if (!pr || !ra || !rb || !rp || !q || !qm) {
        free(pr), free(ra), free(rb), free(rp), free(q), free(qm);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        pr[i] = b[i] / a[i];
    out->ratio = perf_median_of(pr, n);
    out->rom = perf_median_of(b, n) / perf_median_of(a, n);
    unsigned long long st = seed ? seed : 1;
    for (int k = 0; k < resamples; k++) {
        for (size_t i = 0; i < n; i++) {
            size_t j = (size_t)(xorshift64s(&st) % n);
            ra[i] = a[j];
            rb[i] = b[j];
            rp[i] = pr[j];
        }
        q[k] = median_inplace(rp, n);
        qm[k] = median_inplace(rb, n) / median_inplace(ra, n);
    }
    qsort(q, (size_t)resamples, sizeof *q, cmp_double);
    qsort(qm, (size_t)resamples, sizeof *qm, cmp_double);
    double tail = (1 - confidence) / 2;
    out->lo = quantile(q, (size_t)resamples, tail);
    out->hi = quantile(q, (size_t)resamples, 1 - tail);
    out->rom_lo = quantile(qm, (size_t)resamples, tail);
    out->rom_hi = quantile(qm, (size_t)resamples, 1 - tail);
    free(pr), free(ra), free(rb), free(rp), free(q), free(qm);
    return 0;
}
