#define _GNU_SOURCE
#include "icount_baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"

int icount_baseline_load(const char *path, cJSON **out, char *err, size_t len)
{
    *out = NULL;
    if (!path || !*path || access(path, F_OK) != 0) {
        *out = cJSON_CreateObject();
        return 0;
    }
    cJSON *j = ngcc_record_load(path);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    if (!j || !cJSON_IsString(kind) || strcmp(kind->valuestring, ICOUNT_BASELINE_KIND) ||
        !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "entries"))) {
        snprintf(err, len,
                 "%s is not an icount baseline file (JSON with \"kind\": \"%s\" and \"entries\"): "
                 "fix it or delete it and run the icount-baseline target",
                 path, ICOUNT_BASELINE_KIND);
        cJSON_Delete(j);
        return -1;
    }
    *out = j;
    return 0;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

void icount_baseline_gate(const cJSON *file, const char *path, const char *key, const char *op, const char *flagset,
                          const char *method, int records, double median, double tol, const char *refresh,
                          icount_gate *g)
{
    memset(g, 0, sizeof *g);
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(file, "entries");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(entries, key), op);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "median");
    const cJSON *nr = cJSON_GetObjectItemCaseSensitive(e, "records");
    if (!cJSON_IsNumber(m) || m->valuedouble <= 0) {
        snprintf(g->reason, sizeof g->reason, "no baseline of %s %s in %s; record it with: %s", key, op, path, refresh);
        return;
    }
    if (strcmp(str(e, "flagset"), flagset)) {
        snprintf(g->reason, sizeof g->reason,
                 "the baseline in %s was taken with flag set %s, this build used %s: "
                 "not comparable; refresh it with: %s",
                 path, str(e, "flagset"), flagset, refresh);
        return;
    }
    if (strcmp(str(e, "method"), method)) {
        snprintf(g->reason, sizeof g->reason,
                 "the baseline in %s was taken with %s, this run counts with %s: "
                 "not comparable; refresh it with: %s",
                 path, str(e, "method"), method, refresh);
        return;
    }
    if (!cJSON_IsNumber(nr) || (int)nr->valuedouble != records) {
        snprintf(g->reason, sizeof g->reason,
                 "the baseline in %s is a median over %d records, this run counts %d: "
                 "not comparable; refresh it with: %s",
                 path, cJSON_IsNumber(nr) ? (int)nr->valuedouble : 0, records, refresh);
        return;
    }
    g->have = 1;
    g->baseline = m->valuedouble;
    g->limit = g->baseline * (1 + tol);
    g->change = median / g->baseline - 1;
    g->exceeded = median > g->limit;
}

static int cmp(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

double icount_median(const long long *x, int n)
{
    long long *s = malloc((size_t)n * sizeof *s);
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp);
    double m = n % 2 ? (double)s[n / 2] : ((double)s[n / 2 - 1] + (double)s[n / 2]) / 2;
    free(s);
    return m;
}
