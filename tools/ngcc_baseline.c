/* ngcc-baseline: records or refreshes the baselines of one system's
 * thresholds file (tests/perf/thresholds/<system>.json) from the perf, mem
 * and sizes records of the last run (or of several runs: each figure is
 * then the median over the runs). Only valid measurements are taken:
 * verdict PASS, NOBASELINE (a first recording) or REGRESSION (a refresh after a deliberate change), the
 * same system, not timed anyway, not a coverage build. Entries of other
 * instances and a hand-set "tolerance" of an entry are kept. */
#define _GNU_SOURCE
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ngcc_record.h"
#include "ngcc_util.h"
#include "perf_stats.h"

static const char usage[] =
    "usage: ngcc-baseline --records <build>/records [--records <other run's records>]... --out <thresholds.json>\n"
    "       --system <id> [--only <cand>/<key>]... [--allow-timed-anyway] [--dry-run]\n"
    "Takes the perf-<op>.json, mem-<op>.json and sizes.json records under --records into --out; with\n"
    "several runs, every figure is the median over the runs.\n";

static struct {
    const char **records;
    int nrecords;
    const char *out, *system;
    const char **only;
    int nonly, allow_anyway, dry_run;
    cJSON *instances; /* the output's "instances" object */
    cJSON *collected; /* {"<cand>/<key>": {"<entry>": [entry of each run]}} */
    int taken, skipped;
} B;

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static void copy_num(cJSON *to, const cJSON *from, const char *k)
{
    const cJSON *v = get(from, k);
    if (cJSON_IsNumber(v))
        cJSON_AddNumberToObject(to, k, v->valuedouble);
}

/* why a record cannot give a baseline, or NULL */
static const char *unusable(const cJSON *r)
{
    const char *v = str(r, "verdict");
    if (strcmp(v, "PASS") != 0 && strcmp(v, "NOBASELINE") != 0 && strcmp(v, "REGRESSION") != 0)
        return "its verdict is not PASS, NOBASELINE or REGRESSION (no valid measurement)";
    if (strcmp(str(r, "system"), B.system) != 0)
        return "it was recorded on another system";
    if (cJSON_IsTrue(get(r, "timed_anyway")) && !B.allow_anyway)
        return "it was timed anyway (its KAT did not pass); pass --allow-timed-anyway to take it";
    const char *flags = str(get(r, "meta"), "flags");
    if (strstr(flags, "--coverage") || strstr(flags, "-fprofile-arcs"))
        return "it comes from a coverage build";
    return NULL;
}

static cJSON *perf_entry(const cJSON *r)
{
    const cJSON *ctr = get(r, "counter"), *st = get(r, "stats");
    cJSON *e = cJSON_CreateObject();
    double f = num(ctr, "freq_hz"), med = num(st, "median");
    cJSON_AddStringToObject(e, "counter", str(ctr, "name"));
    cJSON_AddNumberToObject(e, "freq_hz", f);
    cJSON_AddNumberToObject(e, "median", med);
    cJSON_AddNumberToObject(e, "median_ns", f > 0 ? med / f * 1e9 : 0);
    copy_num(e, st, "iqr_rel");
    copy_num(e, st, "n");
    return e;
}

static cJSON *mem_entry(const cJSON *r)
{
    cJSON *e = cJSON_CreateObject();
    static const char *const k[] = {"peak_rss_kb", "baseline_rss_kb", "heap_peak_bytes", "stack_hwm_bytes"};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        copy_num(e, r, k[i]);
    return e;
}

static cJSON *sizes_entry(const cJSON *r)
{
    cJSON *e = cJSON_CreateObject();
    const cJSON *c = get(r, "claimed"), *s = get(r, "static"), *v;
    cJSON_ArrayForEach(v, c) if (cJSON_IsNumber(v)) cJSON_AddNumberToObject(e, v->string, v->valuedouble);
    copy_num(e, r, "observed_max");
    cJSON_ArrayForEach(v, s) if (cJSON_IsNumber(v)) cJSON_AddNumberToObject(e, v->string, v->valuedouble);
    return e;
}

/* entry name and content of a record file, or NULL when it is no baseline source */
static cJSON *entry_of(const cJSON *r, const char *base, char *name, size_t len)
{
    const char *kind = str(r, "kind");
    if (!strcmp(kind, "perf") && !strncmp(base, "perf-", 5)) {
        snprintf(name, len, "%s", str(r, "op"));
        return perf_entry(r);
    }
    if (!strcmp(kind, "mem") && !strncmp(base, "mem-", 4)) {
        snprintf(name, len, "mem-%s", str(r, "op"));
        return mem_entry(r);
    }
    if (!strcmp(kind, "sizes") && !strcmp(base, "sizes.json")) {
        snprintf(name, len, "sizes");
        return sizes_entry(r);
    }
    return NULL;
}

static int selected(const char *key)
{
    if (B.nonly == 0)
        return 1;
    for (int i = 0; i < B.nonly; i++)
        if (!strcmp(B.only[i], key))
            return 1;
    return 0;
}

static void report_change(const char *key, const char *name, const cJSON *old, const cJSON *e)
{
    const char *field = get(e, "median") ? "median" : get(e, "peak_rss_kb") ? "peak_rss_kb" : "loadable_total";
    double nv = num(e, field), ov = num(old, field);
    if (old && ov > 0)
        printf("ngcc-baseline: %s %s: %s %.0f (was %.0f, %+.1f%%)\n", key, name, field, nv, ov, 100 * (nv / ov - 1));
    else
        printf("ngcc-baseline: %s %s: %s %.0f (new)\n", key, name, field, nv);
}

/* collects the entry of one record under B.collected[key][name] */
static void take(const char *path, const cJSON *r, const char *base)
{
    char name[64];
    const char *key = str(r, "name");
    if (!key[0] || !selected(key))
        return;
    cJSON *e = entry_of(r, base, name, sizeof name);
    if (!e)
        return;
    const char *why = unusable(r);
    if (why) {
        printf("ngcc-baseline: skipped %s: %s\n", path, why);
        B.skipped++;
        cJSON_Delete(e);
        return;
    }
    cJSON_AddStringToObject(e, "recorded_utc", str(r, "end_utc"));
    cJSON_AddStringToObject(e, "library_sha256", str(r, "library_sha256"));
    cJSON *inst = cJSON_GetObjectItemCaseSensitive(B.collected, key);
    if (!inst)
        inst = cJSON_AddObjectToObject(B.collected, key);
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(inst, name);
    if (!runs)
        runs = cJSON_AddArrayToObject(inst, name);
    cJSON_AddItemToArray(runs, e);
}

/* one entry from the runs' entries: every number is the median over the
 * runs (robust to one disturbed run), strings come from the last run */
static cJSON *merged(const cJSON *runs)
{
    int n = cJSON_GetArraySize(runs);
    cJSON *out = cJSON_Duplicate(cJSON_GetArrayItem(runs, n - 1), 1);
    double *v = calloc((size_t)n, sizeof *v);
    cJSON *f;
    cJSON_ArrayForEach(f, out)
    {
        if (!cJSON_IsNumber(f))
            continue;
        size_t k = 0;
        const cJSON *run;
        cJSON_ArrayForEach(run, runs) if (cJSON_IsNumber(get(run, f->string))) v[k++] = num(run, f->string);
        perf_summary s;
        if (perf_summarise(v, k, &s) == 0)
            cJSON_SetNumberValue(f, s.median);
    }
    free(v);
    cJSON_AddNumberToObject(out, "runs", n);
    return out;
}

/* installs the merged entries into the output, keeping hand-set tolerances */
static void install_all(void)
{
    const cJSON *inst, *runs;
    cJSON_ArrayForEach(inst, B.collected)
    {
        cJSON *dst = cJSON_GetObjectItemCaseSensitive(B.instances, inst->string);
        if (!dst)
            dst = cJSON_AddObjectToObject(B.instances, inst->string);
        cJSON_ArrayForEach(runs, inst)
        {
            cJSON *e = merged(runs);
            cJSON *old = cJSON_GetObjectItemCaseSensitive(dst, runs->string);
            report_change(inst->string, runs->string, old, e);
            const cJSON *tol = get(old, "tolerance");
            if (cJSON_IsNumber(tol))
                cJSON_AddNumberToObject(e, "tolerance", tol->valuedouble);
            if (old)
                cJSON_ReplaceItemInObjectCaseSensitive(dst, runs->string, e);
            else
                cJSON_AddItemToObject(dst, runs->string, e);
            B.taken++;
        }
    }
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    const char *base = path + ftw->base;
    size_t n = strlen(base);
    if (type != FTW_F || n < 5 || strcmp(base + n - 5, ".json") != 0)
        return 0;
    if (strncmp(base, "perf-", 5) && strncmp(base, "mem-", 4) && strcmp(base, "sizes.json"))
        return 0;
    cJSON *r = ngcc_record_load(path);
    if (r)
        take(path, r, base);
    cJSON_Delete(r);
    return 0;
}

/* a copy of o with its members sorted by name (stable diffs) */
static cJSON *sorted(const cJSON *o)
{
    int n = cJSON_GetArraySize(o);
    const cJSON **v = calloc((size_t)(n ? n : 1), sizeof *v);
    int i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, o) v[i++] = c;
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && strcmp(v[b]->string, v[b - 1]->string) < 0; b--) {
            const cJSON *t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
    cJSON *out = cJSON_CreateObject();
    for (i = 0; i < n; i++)
        cJSON_AddItemToObject(out, v[i]->string, cJSON_IsObject(v[i]) ? sorted(v[i]) : cJSON_Duplicate(v[i], 1));
    free(v);
    return out;
}

static cJSON *load_existing(void)
{
    size_t len;
    char *text = ngcc_read_file(B.out, &len);
    if (!text)
        return cJSON_CreateObject();
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    if (!j || !cJSON_IsObject(get(j, "instances"))) {
        fprintf(stderr, "ngcc-baseline: %s is not a thresholds file; move it away or fix it\n", B.out);
        cJSON_Delete(j);
        return NULL;
    }
    if (strcmp(str(j, "system"), B.system) != 0) {
        fprintf(stderr, "ngcc-baseline: %s holds system \"%s\", not \"%s\"; pass the matching --system or --out\n",
                B.out, str(j, "system"), B.system);
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

static int write_out(cJSON *doc)
{
    cJSON *out = cJSON_CreateObject();
    cJSON_AddNumberToObject(out, "schema", 1);
    cJSON_AddStringToObject(out, "system", B.system);
    cJSON_AddStringToObject(out, "note",
                            "baselines recorded by ngcc-baseline from the records of a run; "
                            "an entry's optional \"tolerance\" overrides the run's");
    cJSON_AddItemToObject(out, "instances", sorted(get(doc, "instances")));
    char *text = cJSON_Print(out);
    cJSON_Delete(out);
    size_t n = strlen(text);
    text = realloc(text, n + 2);
    text[n++] = '\n';
    text[n] = 0;
    int rc = B.dry_run ? 0 : ngcc_write_atomic(B.out, text, n);
    if (rc)
        fprintf(stderr, "ngcc-baseline: cannot write %s\n", B.out);
    free(text);
    return rc;
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {{"records", 1, 0, 'r'},
                                       {"out", 1, 0, 'o'},
                                       {"system", 1, 0, 's'},
                                       {"only", 1, 0, 'O'},
                                       {"allow-timed-anyway", 0, 0, 'a'},
                                       {"dry-run", 0, 0, 'n'},
                                       {0, 0, 0, 0}};
    B.only = calloc((size_t)argc, sizeof *B.only);
    B.records = calloc((size_t)argc, sizeof *B.records);
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'r':
            B.records[B.nrecords++] = optarg;
            break;
        case 'o':
            B.out = optarg;
            break;
        case 's':
            B.system = optarg;
            break;
        case 'O':
            B.only[B.nonly++] = optarg;
            break;
        case 'a':
            B.allow_anyway = 1;
            break;
        case 'n':
            B.dry_run = 1;
            break;
        default:
            fputs(usage, stderr);
            return 2;
        }
    }
    if (!B.nrecords || !B.out || !B.system || optind < argc) {
        fputs(usage, stderr);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (parse(argc, argv))
        return 2;
    cJSON *doc = load_existing();
    if (!doc)
        return 1;
    B.instances = cJSON_GetObjectItemCaseSensitive(doc, "instances");
    if (!B.instances)
        B.instances = cJSON_AddObjectToObject(doc, "instances");
    B.collected = cJSON_CreateObject();
    for (int i = 0; i < B.nrecords; i++)
        if (nftw(B.records[i], visit, 16, FTW_PHYS) != 0) {
            fprintf(stderr, "ngcc-baseline: cannot walk %s; run the perf tests first (ctest -L perf)\n", B.records[i]);
            return 1;
        }
    install_all();
    cJSON_Delete(B.collected);
    if (B.taken == 0) {
        fprintf(stderr, "ngcc-baseline: no usable perf/mem/sizes record under %s%s (%d skipped); run ctest -L perf\n",
                B.records[0], B.nrecords > 1 ? " and the other --records folders" : "", B.skipped);
        return 1;
    }
    int rc = write_out(doc);
    printf("ngcc-baseline: %d entries %s %s (%d records skipped)\n", B.taken, B.dry_run ? "would go to" : "written to",
           B.out, B.skipped);
    cJSON_Delete(doc);
    return rc ? 1 : 0;
}
