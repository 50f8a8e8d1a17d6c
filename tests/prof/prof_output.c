/* ngcc-prof outputs: the JSON record (prof-<op>.json), the printed figures
 * (CDash measurements, the campaign-format line, differences) and the CMocka
 * group over the records. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ngcc_record.h"
#include "ngcc_util.h"
#include "prof_driver.h"
#include "prof_format.h"

/* ---- the record ---- */

static void add_meta(cJSON *r)
{
    cJSON *m = cJSON_AddObjectToObject(r, "meta");
    static const char *const keys[] = {"type", "algorithm_instance", "impl_variant", "flagset", "compiler", "flags"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cJSON_AddStringToObject(m, keys[i], prof_meta_str(keys[i]));
    /* KEX: passes and claimed lengths; hash: digest bits (only for those types) */
    static const char *const nums[] = {"passes",      "claimed_pk", "claimed_sk",        "claimed_sta",
                                       "claimed_stb", "claimed_ss", "claimed_total_msg", "digest_bits"};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        const cJSON *v = cJSON_GetObjectItem(P.meta, nums[i]);
        if (cJSON_IsNumber(v))
            cJSON_AddNumberToObject(m, nums[i], v->valuedouble);
    }
}

static void add_library(cJSON *r, const char *key, const char *path)
{
    char sha[65] = "";
    cJSON_AddStringToObject(r, key, path ? path : "");
    char k2[64];
    snprintf(k2, sizeof k2, "%s_sha256", key);
    if (path && ngcc_sha256_file(path, sha) == 0)
        cJSON_AddStringToObject(r, k2, sha);
    else
        cJSON_AddStringToObject(r, k2, "");
}

static void add_scan(cJSON *r)
{
    static const char *const names[NGCC_PROF_NSYM] = NGCC_PROF_SYM_NAMES;
    cJSON *w = cJSON_AddArrayToObject(r, "wrapped");
    cJSON *ms = cJSON_AddArrayToObject(r, "may_miss_symbols");
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        if (P.scan.used[s])
            cJSON_AddItemToArray(w, cJSON_CreateString(names[s]));
        if (P.scan.missable[s])
            cJSON_AddItemToArray(ms, cJSON_CreateString(names[s]));
    }
    cJSON_AddBoolToObject(r, "may_miss", P.scan.may_miss);
    char reason[1200] = "";
    cJSON *rs = cJSON_AddArrayToObject(r, "may_miss_reasons");
    for (int i = 0; i < P.scan.nreasons; i++) {
        cJSON_AddItemToArray(rs, cJSON_CreateString(P.scan.reasons[i]));
        size_t l = strlen(reason);
        snprintf(reason + l, sizeof reason - l, "%s%s", i ? "; " : "", P.scan.reasons[i]);
    }
    cJSON_AddStringToObject(r, "may_miss_reason", reason);
    cJSON *sc = cJSON_AddObjectToObject(r, "scan");
    cJSON_AddStringToObject(sc, "dir", P.scan_dir);
    cJSON_AddNumberToObject(sc, "objects", P.scan.objects);
    cJSON_AddStringToObject(sc, "error", P.scan.error);
    cJSON_AddStringToObject(sc, "wrapped_means",
                            "referenced from another object file, so every such call "
                            "goes through the -Wl,--wrap counter");
}

static void add_counter(cJSON *r)
{
    cJSON *c = cJSON_AddObjectToObject(r, "counter");
    cJSON_AddStringToObject(c, "name", prof_meta_str("counter")[0] ? prof_meta_str("counter") : NGCC_PROF_COUNTER);
    cJSON_AddNumberToObject(c, "freq_hz", P.run_ns > 0 ? P.run_ticks / (P.run_ns * 1e-9) : 0);
    cJSON_AddNumberToObject(c, "overhead_ticks", P.cal.total);
    cJSON_AddNumberToObject(c, "overhead_inside_ticks", P.cal.inside);
}

void prof_build_record(void)
{
    P.out = ngcc_frame_record_new(&P.f);
    add_library(P.out, "library", P.lib);
    add_library(P.out, "plain_library", P.plain_lib);
    add_meta(P.out);
    add_counter(P.out);
    cJSON_AddNumberToObject(P.out, "records_requested", P.records);
    cJSON_AddNumberToObject(P.out, "records_complete", P.nrecs);
    cJSON_AddNumberToObject(P.out, "min_runs", P.min_reps);
    cJSON_AddNumberToObject(P.out, "max_runs", P.max_reps);
    prof_stats_fill(P.out, P.recs, P.nrecs, &P.cal, &P.figs);
    const cJSON *calls = cJSON_GetObjectItem(P.out, "calls");
    prof_fmt_calls(calls, P.calls_text, sizeof P.calls_text);
    prof_fmt_drng(calls, P.drng_text, sizeof P.drng_text);
    double all, own, other;
    prof_drng_split(calls, &all, &own, &other);
    cJSON *drng = cJSON_AddObjectToObject(P.out, "drng");
    cJSON_AddNumberToObject(drng, "calls", all);
    cJSON_AddNumberToObject(drng, "drng_algorithm", own);
    cJSON_AddNumberToObject(drng, "other_contexts", other);
    cJSON_AddStringToObject(drng, "text", P.drng_text);
    cJSON_AddStringToObject(drng, "means",
                            "get_random_number calls per operation (mean over the records) in "
                            "every DRNG context, as the published tables count them; split into the global "
                            "drng_algorithm and other contexts");
    cJSON_AddStringToObject(P.out, "summary_order",
                            "by mean calls per operation, descending, then by name; "
                            "3 significant figures; drng = every get_random_number call (all contexts)");
    add_scan(P.out);
}

void prof_finish_record(void)
{
    cJSON_AddItemToObject(P.out, "expected", P.expected ? cJSON_Duplicate(P.expected, 1) : cJSON_CreateNull());
    cJSON_AddStringToObject(P.out, "expectation_file", P.expect_used ? P.expect_used : "");
    cJSON_AddStringToObject(P.out, "expectation_key", P.instance);
    cJSON *d = cJSON_AddArrayToObject(P.out, "differences");
    for (int i = 0; i < P.diff.nlines; i++)
        cJSON_AddItemToArray(d, cJSON_CreateString(P.diff.lines[i]));
    cJSON_AddStringToObject(P.out, "summary", P.calls_text);
    cJSON *ch = cJSON_AddObjectToObject(P.out, "child");
    cJSON_AddStringToObject(ch, "end",
                            P.child.end == NGCC_CHILD_EXITED     ? "exited"
                            : P.child.end == NGCC_CHILD_SIGNALED ? "signaled"
                                                                 : "timeout");
    cJSON_AddNumberToObject(ch, "code", P.child.code);
    cJSON_AddNumberToObject(ch, "seconds", P.child.seconds);
    /* verdict, detail, expected_verdict, inputs and fingerprint ("expected"
     * holds the expectation entry) */
    ngcc_frame_record_write(&P.f, P.out, "expected_verdict");
}

/* ---- output ---- */

static void measurement(const char *name, double v)
{
    if (isfinite(v))
        printf("<DartMeasurement name=\"%s\" type=\"numeric/double\">%.6g</DartMeasurement>\n", name, v);
}

/* "ngcc: prof bits per call (...): sm3hash in 640 x16080 896 x15 / out 256
 * x16095; ...": the bit-length histograms as calls per operation (mean over
 * the records; exact when whole, else 3 significant figures) */
static void print_bits(void)
{
    char line[2000] = "";
    size_t used = 0;
    const cJSON *in = cJSON_GetObjectItem(P.out, "bits_in"), *out = cJSON_GetObjectItem(P.out, "bits_out");
    const cJSON *sym;
    cJSON_ArrayForEach(sym, in)
    {
        const cJSON *dirs[2] = {sym, cJSON_GetObjectItem(out, sym->string)};
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", used ? "; " : "", sym->string);
        for (int d = 0; d < 2 && used < sizeof line; d++) {
            used += (size_t)snprintf(line + used, sizeof line - used, " %s", d ? "/ out" : "in");
            const cJSON *bin;
            cJSON_ArrayForEach(bin, dirs[d])
            {
                char n[32];
                double v = bin->valuedouble / (P.nrecs ? P.nrecs : 1);
                if (v == floor(v))
                    snprintf(n, sizeof n, "%.0f", v);
                else
                    prof_fmt_sig3(v, n, sizeof n);
                if (used < sizeof line)
                    used += (size_t)snprintf(line + used, sizeof line - used, " %s x%s", bin->string, n);
            }
        }
        if (used >= sizeof line)
            break;
    }
    if (used)
        printf("ngcc: prof bits per call (length x calls per operation): %s\n", line);
}

void prof_print_figures(void)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(P.out, "calls"))
    {
        char name[96];
        snprintf(name, sizeof name, "calls_%s", prof_display_name(c->string));
        for (char *p = name; *p; p++)
            if (*p == '@')
                *p = '_';
        measurement(name, cJSON_GetNumberValue(cJSON_GetObjectItem(c, "mean")));
    }
    measurement("hash_share_pct", 100 * P.figs.hash);
    measurement("calls_drng_all_contexts",
                cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(P.out, "drng"), "calls")));
    measurement("drng_share_pct", 100 * P.figs.drng);
    measurement("overhead_raw_pct", 100 * P.figs.overhead_raw);
    measurement("overhead_corrected_pct", 100 * P.figs.overhead_corrected);
    measurement("wrapper_ticks_per_call", P.cal.total);
    char h[32], d[32], o1[32] = "n/a", o2[32] = "n/a";
    prof_fmt_pct(P.figs.hash, h, sizeof h);
    prof_fmt_pct(P.figs.drng, d, sizeof d);
    if (isfinite(P.figs.overhead_raw)) {
        snprintf(o1, sizeof o1, "%+.1f%%", 100 * P.figs.overhead_raw);
        snprintf(o2, sizeof o2, "%+.1f%%", 100 * P.figs.overhead_corrected);
    }
    printf("ngcc: prof %s/%s: calls per operation (by count, mean of %d records): %s; %s; pseudohash/XOF/sm3 "
           "share %s, DRNG share %s; wrapper overhead %s raw, %s after correction (%.0f ticks per call)\n",
           P.name, P.op, P.nrecs, P.calls_text, P.drng_text, h, d, o1, o2, P.cal.total);
    print_bits();
    if (P.figs.disturbed)
        printf("ngcc: prof note: the timed runs of %d of %d records were preempted (busy host): shares and "
               "overhead are approximate; the counts are not affected\n",
               P.figs.disturbed, P.nrecs);
    for (int i = 0; i < P.scan.nreasons; i++)
        printf("ngcc: WARNING: calls may be missed: %s\n", P.scan.reasons[i]);
    if (P.diff.note[0])
        printf("ngcc: prof note: %s\n", P.diff.note);
    for (int i = 0; i < P.diff.nlines; i++)
        printf("ngcc: prof difference: %s\n", P.diff.lines[i]);
}

/* ---- CMocka cases: per record, the measurement and the gate ---- */

static void case_measured(void **state)
{
    int r = (int)(intptr_t)*state;
    if (r >= P.nrecs)
        fail_msg("record %d was not measured (%s: %s)", r, ngcc_verdict_name(P.f.verdict), P.f.detail);
    const cJSON *rec = P.recs[r];
    if (prof_rec_str(rec, "failure")[0])
        fail_msg("record %d: %s", r, prof_rec_str(rec, "failure"));
    if (!cJSON_IsTrue(cJSON_GetObjectItem(rec, "deterministic")))
        fail_msg("record %d: counts not deterministic: %s", r, prof_rec_str(rec, "nondeterminism"));
    if (cJSON_IsFalse(cJSON_GetObjectItem(rec, "same_output_as_plain")))
        fail_msg("record %d: prof and plain outputs differ", r);
}

static void case_counts(void **state)
{
    int r = (int)(intptr_t)*state;
    if (!P.compared)
        skip(); /* no expectation: reported as skipped, never as passed */
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s record %d:", P.op, r);
    for (int i = 0; i < P.diff.nlines; i++)
        if (strncmp(P.diff.lines[i], prefix, strlen(prefix)) == 0)
            fail_msg("%s", P.diff.lines[i]);
    if (r >= P.diff.compared_records)
        fail_msg("record %d was not compared (%d records gated)", r, P.diff.compared_records);
}

int prof_run_cases(void)
{
    int n = P.records;
    struct CMUnitTest *tests = calloc((size_t)(2 * n), sizeof *tests);
    char(*names)[48] = calloc((size_t)(2 * n), sizeof *names);
    for (int r = 0; r < n; r++) {
        snprintf(names[2 * r], 48, "record_%02d_measured", r);
        snprintf(names[2 * r + 1], 48, "record_%02d_counts", r);
        tests[2 * r] = (struct CMUnitTest){names[2 * r], case_measured, NULL, NULL, (void *)(intptr_t)r};
        tests[2 * r + 1] = (struct CMUnitTest){names[2 * r + 1], case_counts, NULL, NULL, (void *)(intptr_t)r};
    }
    char group[300];
    snprintf(group, sizeof group, "%s/%s", P.name, P.op);
    int failed = _cmocka_run_group_tests(group, tests, (size_t)(2 * n), NULL, NULL);
    free(tests);
    free(names);
    return failed;
}
