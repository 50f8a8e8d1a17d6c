/* ngcc-icount-baseline: records or refreshes the icount baseline file of
 * this architecture and compiler (tests/perf/icount/<arch>-<compilerid>-
 * <version>.json, format in tests/perf/icount_baseline.h) from a run's
 * icount-<op>.json records (the icount-baseline target runs it). Entries of
 * instances not in the records are kept; counted ones are replaced. A record
 * without a count (SKIP, ERROR, ...) changes nothing. */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icount_baseline.h"
#include "ngcc_record.h"
#include "ngcc_util.h"

static cJSON *entries;
static int taken;

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    const char *base = path + ftw->base;
    if (type != FTW_F || strncmp(base, "icount-", 7) || strcmp(base + strlen(base) - 5, ".json"))
        return 0;
    cJSON *r = ngcc_record_load(path);
    const cJSON *med = cJSON_GetObjectItemCaseSensitive(r, "median");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(r, "method");
    if (!r || strcmp(str(r, "kind"), "icount") || !cJSON_IsNumber(med) || med->valuedouble <= 0 || !*str(r, "name") ||
        !*str(r, "op")) {
        cJSON_Delete(r);
        return 0;
    }
    cJSON *inst = cJSON_GetObjectItemCaseSensitive(entries, str(r, "name"));
    if (!inst)
        inst = cJSON_AddObjectToObject(entries, str(r, "name"));
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "flagset", str(r, "flagset"));
    cJSON_AddStringToObject(e, "method", str(method, "kind"));
    cJSON_AddNumberToObject(e, "records", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "records")));
    cJSON_AddNumberToObject(e, "median", med->valuedouble);
    cJSON_AddItemToObject(e, "counts", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(r, "counts"), 1));
    cJSON_AddStringToObject(e, "method_name", str(method, "name"));
    cJSON_AddStringToObject(e, "compiler", str(r, "compiler"));
    cJSON_AddStringToObject(e, "library_sha256", str(r, "library_sha256"));
    cJSON_AddStringToObject(e, "recorded_utc", str(r, "end_utc"));
    cJSON_AddStringToObject(e, "verdict_then", str(r, "verdict"));
    cJSON_DeleteItemFromObjectCaseSensitive(inst, str(r, "op"));
    cJSON_AddItemToObject(inst, str(r, "op"), e);
    taken++;
    cJSON_Delete(r);
    return 0;
}

/* entries sorted by name (and ops by name): stable diffs of the committed file */
static int by_name(const void *a, const void *b)
{
    return strcmp((*(cJSON *const *)a)->string, (*(cJSON *const *)b)->string);
}

static void sort_object(cJSON *o)
{
    int n = cJSON_GetArraySize(o);
    if (n < 2)
        return;
    cJSON **v = malloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = cJSON_DetachItemViaPointer(o, o->child);
    qsort(v, (size_t)n, sizeof *v, by_name);
    for (int i = 0; i < n; i++)
        cJSON_AddItemToObject(o, v[i]->string, v[i]);
    free(v);
}

int main(int argc, char **argv)
{
    const char *records = NULL, *out = NULL, *arch = "", *compiler = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--records") && i + 1 < argc)
            records = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
            arch = argv[++i];
        else if (!strncmp(argv[i], "--compiler=", 11))
            compiler = argv[i] + 11;
        else {
            fprintf(stderr,
                    "usage: ngcc-icount-baseline --records <dir> --out <file> [--arch A] [--compiler=ID VER]\n");
            return 2;
        }
    }
    if (!records || !out) {
        fprintf(stderr, "ngcc-icount-baseline: --records and --out are required\n");
        return 2;
    }
    char err[600];
    cJSON *file;
    if (icount_baseline_load(out, &file, err, sizeof err)) {
        fprintf(stderr, "ngcc-icount-baseline: %s\n", err);
        return 1;
    }
    if (!cJSON_GetObjectItemCaseSensitive(file, "entries")) {
        cJSON_AddNumberToObject(file, "schema", 1);
        cJSON_AddStringToObject(file, "kind", ICOUNT_BASELINE_KIND);
        cJSON_AddObjectToObject(file, "entries");
    }
    cJSON_DeleteItemFromObjectCaseSensitive(file, "arch");
    cJSON_DeleteItemFromObjectCaseSensitive(file, "compiler");
    cJSON_AddStringToObject(file, "arch", arch);
    cJSON_AddStringToObject(file, "compiler", compiler);
    entries = cJSON_GetObjectItemCaseSensitive(file, "entries");
    if (nftw(records, visit, 16, FTW_PHYS)) {
        fprintf(stderr, "ngcc-icount-baseline: cannot read the records folder %s: run ctest -L icount first\n",
                records);
        return 1;
    }
    sort_object(entries);
    for (cJSON *c = entries->child; c; c = c->next)
        sort_object(c);
    if (ngcc_mkdirs(out, 0)) {
        fprintf(stderr, "ngcc-icount-baseline: cannot create the folder of %s\n", out);
        return 1;
    }
    char *text = cJSON_Print(file);
    size_t len = strlen(text);
    text = realloc(text, len + 2);
    text[len] = '\n';
    text[len + 1] = 0;
    int rc = ngcc_write_atomic(out, text, len + 1);
    free(text);
    cJSON_Delete(file);
    if (rc) {
        fprintf(stderr, "ngcc-icount-baseline: cannot write %s\n", out);
        return 1;
    }
    printf("ngcc-icount-baseline: %d operation(s) recorded into %s\n", taken, out);
    return 0;
}
