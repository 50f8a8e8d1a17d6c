#include "prof_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v rounded to sig significant figures, printed without trailing zeros */
static void fmt_sig(double v, int sig, char *out, size_t n)
{
    if (v == 0 || !isfinite(v)) {
        snprintf(out, n, "%s", v == 0 ? "0" : "nan");
        return;
    }
    int digits = (int)floor(log10(fabs(v))) + 1;
    int decimals = sig - digits;
    if (decimals <= 0) {
        double unit = pow(10, -decimals);
        snprintf(out, n, "%.0f", round(v / unit) * unit);
        return;
    }
    snprintf(out, n, "%.*f", decimals, v);
    if (strchr(out, '.')) {
        char *e = out + strlen(out) - 1;
        while (*e == '0')
            *e-- = 0;
        if (*e == '.')
            *e = 0;
    }
}

void prof_fmt_sig3(double v, char *out, size_t n)
{
    fmt_sig(v, 3, out, n);
}

void prof_fmt_pct(double share, char *out, size_t n)
{
    char num[32];
    fmt_sig(share * 100, 2, num, sizeof num);
    snprintf(out, n, "%s%%", num);
}

const char *prof_display_name(const char *key)
{
    static const char *const map[][2] = {
        {"get_random_number", "drng"},
        {"init_random_number", "drng_init"},
        {"get_random_number@other_ctx", "drng@other_ctx"},
        {"init_random_number@other_ctx", "drng_init@other_ctx"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(key, map[i][0]) == 0)
            return map[i][1];
    return key;
}

typedef struct {
    const char *name;
    double mean, own, other; /* mean = own + other: every context */
} entry;

static int by_count(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->mean != y->mean)
        return x->mean < y->mean ? 1 : -1;
    return strcmp(x->name, y->name);
}

#define OTHER_SUFFIX "@other_ctx"

static double mean_of(const cJSON *calls, const char *key)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(calls, key), "mean");
    return cJSON_IsNumber(m) ? m->valuedouble : 0;
}

static double other_of(const cJSON *calls, const char *key)
{
    char k[96];
    snprintf(k, sizeof k, "%s" OTHER_SUFFIX, key);
    return mean_of(calls, k);
}

void prof_drng_split(const cJSON *calls, double *all, double *own, double *other)
{
    *own = mean_of(calls, "get_random_number");
    *other = other_of(calls, "get_random_number");
    *all = *own + *other;
}

void prof_fmt_drng(const cJSON *calls, char *out, size_t n)
{
    double all, own, other;
    prof_drng_split(calls, &all, &own, &other);
    char a[32], o[32], x[32];
    prof_fmt_sig3(all, a, sizeof a);
    prof_fmt_sig3(own, o, sizeof o);
    prof_fmt_sig3(other, x, sizeof x);
    snprintf(out, n, "drng %s (drng_algorithm %s, other contexts %s)", a, o, x);
}

void prof_fmt_calls(const cJSON *calls, char *out, size_t n)
{
    entry e[16];
    int k = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, calls)
    {
        size_t l = strlen(c->string), sl = strlen(OTHER_SUFFIX);
        if (l > sl && strcmp(c->string + l - sl, OTHER_SUFFIX) == 0)
            continue; /* counted with its symbol */
        double own = mean_of(calls, c->string), other = other_of(calls, c->string);
        if (k < 16 && own + other > 0)
            e[k++] = (entry){prof_display_name(c->string), own + other, own, other};
    }
    qsort(e, (size_t)k, sizeof e[0], by_count);
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < k && used < n; i++) {
        char num[32], a[32], b[32];
        prof_fmt_sig3(e[i].mean, num, sizeof num);
        used += (size_t)snprintf(out + used, n - used, "%s%s %s", i ? ", " : "", e[i].name, num);
        if (e[i].other > 0 && used < n) {
            prof_fmt_sig3(e[i].own, a, sizeof a);
            prof_fmt_sig3(e[i].other, b, sizeof b);
            used += (size_t)snprintf(out + used, n - used, " (drng_algorithm %s, other contexts %s)", a, b);
        }
    }
    if (k == 0)
        snprintf(out, n, "none");
}
