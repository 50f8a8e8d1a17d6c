#define _GNU_SOURCE
#include "prof_expect.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_util.h"

cJSON *prof_expect_load(char *const *paths, int n, const char **used, char *err, size_t errlen)
{
    *used = NULL;
    err[0] = 0;
    for (int i = 0; i < n; i++) {
        if (!paths[i] || !paths[i][0] || access(paths[i], F_OK) != 0)
            continue;
        *used = paths[i];
        size_t len;
        char *text = ngcc_read_file(paths[i], &len);
        cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
        free(text);
        const cJSON *inst = j ? cJSON_GetObjectItemCaseSensitive(j, "instances") : NULL;
        if (!j || !cJSON_IsObject(inst)) {
            snprintf(err, errlen, "%s: %s; fix it or delete it and rerun the prof tests, then ngcc-prof-expect",
                     paths[i],
                     !text ? "cannot read the expectation file"
                     : !j  ? "not valid JSON"
                           : "no \"instances\" object");
            cJSON_Delete(j);
            return NULL;
        }
        return j;
    }
    return NULL;
}

const cJSON *prof_expect_entry(const cJSON *root, const char *instance, const char *op)
{
    const cJSON *inst = cJSON_GetObjectItemCaseSensitive(root, "instances");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(inst, instance);
    return cJSON_GetObjectItemCaseSensitive(e, op);
}

static void add_line(prof_diff *d, const char *fmt, ...)
{
    if (d->nlines >= PROF_DIFF_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->lines[d->nlines++], sizeof d->lines[0], fmt, ap);
    va_end(ap);
}

/* value of record r of symbol sym in a calls map (absent symbol: 0); -1 if malformed */
static double value_at(const cJSON *calls, const char *sym, int r)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(calls, sym);
    if (!a)
        return 0;
    const cJSON *v = cJSON_GetArrayItem(a, r);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static int well_formed(const cJSON *entry, int *records)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(entry, "records");
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(entry, "calls");
    if (!cJSON_IsNumber(n) || n->valueint < 0 || !cJSON_IsObject(calls))
        return 0;
    *records = n->valueint;
    const cJSON *a;
    cJSON_ArrayForEach(a, calls)
    {
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != *records)
            return 0;
    }
    return 1;
}

/* compares one symbol over the first n records */
static int compare_symbol(const char *sym, const cJSON *ec, const cJSON *mc, int n, const char *op, prof_diff *d,
                          char (*rec_lines)[200], int *nrec_lines)
{
    int differ = 0;
    double se = 0, sm = 0;
    for (int r = 0; r < n; r++) {
        double e = value_at(ec, sym, r), m = value_at(mc, sym, r);
        se += e;
        sm += m;
        if (e == m)
            continue;
        differ++;
        if (*nrec_lines < PROF_DIFF_LINES)
            snprintf(rec_lines[(*nrec_lines)++], 200, "%s record %d: %s expected %.0f, measured %.0f", op, r, sym, e,
                     m);
    }
    if (differ)
        add_line(d, "%s %s: expected mean %g, measured mean %g (%d of %d records differ)", op, sym, se / n, sm / n,
                 differ, n);
    return differ;
}

int prof_expect_compare(const cJSON *expected, const cJSON *gate, const char *op, prof_diff *d, char *err,
                        size_t errlen)
{
    memset(d, 0, sizeof *d);
    int ne, nm;
    if (!well_formed(expected, &ne)) {
        snprintf(err, errlen,
                 "the expectation of %s is malformed (needs \"records\" N and \"calls\" "
                 "{symbol: [N numbers]}); refresh it with ngcc-prof-expect",
                 op);
        return -1;
    }
    if (!well_formed(gate, &nm)) {
        snprintf(err, errlen, "internal: malformed measured gate");
        return -1;
    }
    int n = ne < nm ? ne : nm;
    d->compared_records = n;
    if (ne != nm)
        snprintf(d->note, sizeof d->note,
                 "the expectation holds %d records, this run measured %d: the first %d "
                 "are gated",
                 ne, nm, n);
    const cJSON *ec = cJSON_GetObjectItemCaseSensitive(expected, "calls");
    const cJSON *mc = cJSON_GetObjectItemCaseSensitive(gate, "calls");
    char rec_lines[PROF_DIFF_LINES][200];
    int nrec = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, ec)
    {
        d->differing += compare_symbol(a->string, ec, mc, n, op, d, rec_lines, &nrec);
    }
    cJSON_ArrayForEach(a, mc)
    { /* measured symbols the expectation does not list */
        if (!cJSON_GetObjectItemCaseSensitive(ec, a->string))
            d->differing += compare_symbol(a->string, ec, mc, n, op, d, rec_lines, &nrec);
    }
    for (int i = 0; i < nrec; i++)
        add_line(d, "%s", rec_lines[i]);
    return d->differing;
}

static cJSON *object_at(cJSON *parent, const char *key)
{
    cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, key);
    if (!cJSON_IsObject(o)) {
        cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
        o = cJSON_AddObjectToObject(parent, key);
    }
    return o;
}

void prof_expect_put(cJSON *root, const char *instance, const char *op, const cJSON *gate)
{
    cJSON *inst = object_at(object_at(root, "instances"), instance);
    cJSON_DeleteItemFromObjectCaseSensitive(inst, op);
    cJSON_AddItemToObject(inst, op, cJSON_Duplicate(gate, 1));
}
