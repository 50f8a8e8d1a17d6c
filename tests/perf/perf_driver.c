/* ngcc-perf: the timing test of one instance operation (CTest label "perf").
 * Measures the operation in a child process (perf_measure.h), summarises
 * the samples, gates the median against the system's thresholds file,
 * writes one JSON record, runs a CMocka group asserting on the results,
 * prints CDash measurements and one verdict line, and exits 0 iff the
 * verdict is the expected one (--expect, default PASS).
 * Without a baseline entry the verdict is NOBASELINE (passing), naming the
 * command that records one. With --ref-lib the instance is measured against
 * that reference in the same run (perf_measure.h: alternating trials on one
 * CPU) and the ratio of the trial medians, instance / reference, with its
 * bootstrap interval decides: REGRESSION when the interval's lower bound is
 * above 1 + --ab-tolerance; the absolute gate is still computed and recorded. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ngcc_counter.h"
#include "ngcc_record.h"
#include "perf_args.h"
#include "perf_child.h"
#include "perf_hash_budget.h"
#include "perf_precheck.h"
#include "perf_record.h"
#include "perf_stats.h"
#include "perf_thresholds.h"

static const char usage[] =
    "usage: ngcc-perf --lib <instance.so> --name <cand>/<key> --op <op>\n"
    "       (SIG keygen|sign|verify; KEM keygen|enc|dec; KEX "
    "init_a|init_b|pass1|pass2|pass3|derive_a|derive_b|exchange;\n"
    "        HASH hash-<bytes>)\n"
    "       --record-out <perf-op.json> [--build-record <json>] [--kat-record <kat.json> [--time-anyway]]\n"
    "       [--thresholds <system.json>] [--system <id>] [--baseline-key <cand>/<key>] [--tolerance 0.05]\n"
    "       [--budget-s 2] [--warmup-s 0.2] [--one-shot-s 10] [--trials 21] [--iter-min 1] [--iter-max 1000]\n"
    "       [--records 10] [--counter auto|perf|tsc|cntvct|monotonic|perf-sw] [--pin fastest|none|<cpu>]\n"
    "       [--timeout S] [--mem-limit-mb M] [--log <file>] [--expect VERDICT] [--build-dir <build>]\n"
    "       [--ref-lib <reference.so> --ref-name <cand>/<key> [--ref-kat-record <kat.json>]\n"
    "        [--ab-tolerance 0.03] [--ab-confidence 0.95] [--ab-resamples 2000]] [--ref-error <reason>]\n";

/* fixed seed of the bootstrap: a rerun on the same samples gives the same interval */
#define AB_SEED 0x6e6763632d616232ULL

static struct {
    perf_args a;
    ngcc_frame f; /* options, verdict and detail (ngcc_frame.h) */
    perf_kat_status kat;
    perf_child_run run;
    int have_result;
    perf_summary s;
    perf_gate gate;
    int have_ab;
    perf_ratio_ci ab;
    char ref_kat_verdict[32];
    double mean_ticks, mean_ns, ops_per_s;
    double load_start, load_end;
} P;

static double loadavg(void)
{
    double v = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

static double rnum(const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(P.run.result, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const cJSON *counter(void)
{
    return cJSON_GetObjectItemCaseSensitive(P.run.result, "counter");
}

static double counter_num(const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(counter(), k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *counter_name(void)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(counter(), "name");
    return cJSON_IsString(v) ? v->valuestring : "?";
}

/* a hash record (op hash-<bytes>): the message length and the cost per byte */
static int is_hash(void)
{
    return cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(P.run.result, "msg_bytes"));
}

static double per_byte(double ticks)
{
    double n = rnum("msg_bytes");
    return n > 0 ? ticks / n : 0;
}

static int summarise(void)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(P.run.result, "samples");
    int n = cJSON_GetArraySize(arr);
    double *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) x[i++] = e->valuedouble;
    int rc = perf_summarise(x, (size_t)n, &P.s);
    free(x);
    double calls = rnum("calls");
    P.mean_ticks = calls > 0 ? rnum("total_ticks") / calls : 0;
    P.mean_ns = calls > 0 ? rnum("wall_ns_total") / calls : 0;
    P.ops_per_s = P.mean_ns > 0 ? 1e9 / P.mean_ns : 0;
    return rc;
}

static const cJSON *ab(void)
{
    return cJSON_GetObjectItemCaseSensitive(P.run.result, "ab");
}

static double *num_array(const cJSON *arr, int *n)
{
    *n = cJSON_GetArraySize(arr);
    double *x = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *x);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) x[i++] = e->valuedouble;
    return x;
}

/* the A/B gate: 0, or -1 with the ERROR detail set */
static int evaluate_ab(void)
{
    int na, nb;
    double *a = num_array(cJSON_GetObjectItemCaseSensitive(ab(), "ref_trial_samples"), &na);
    double *b = num_array(cJSON_GetObjectItemCaseSensitive(P.run.result, "trial_samples"), &nb);
    int rc = na != nb || perf_ratio_bootstrap(a, b, (size_t)nb, P.a.ab_resamples, P.a.ab_confidence, AB_SEED, &P.ab);
    free(a);
    free(b);
    if (rc) {
        P.f.verdict = NGCC_ERROR;
        snprintf(P.f.detail, sizeof P.f.detail,
                 "the A/B measurement against %s gave no comparable trial samples "
                 "(%d reference, %d instance)",
                 P.a.ref_name, na, nb);
        return -1;
    }
    P.have_ab = 1;
    return 0;
}

static int ab_exceeded(void)
{
    return P.have_ab && P.ab.lo > 1 + P.a.ab_tolerance;
}

static void ab_text(char *out, size_t len)
{
    snprintf(out, len,
             "ratio %.3f [%.3f, %.3f] vs %s %s %.2f (median of %zu paired ratios instance/reference, "
             "%.0f%% bootstrap interval, %d resamples; ratio of medians %.3f [%.3f, %.3f])",
             P.ab.ratio, P.ab.lo, P.ab.hi, P.a.ref_name, ab_exceeded() ? ">" : "<=", 1 + P.a.ab_tolerance, P.ab.n,
             100 * P.a.ab_confidence, P.ab.resamples, P.ab.rom, P.ab.rom_lo, P.ab.rom_hi);
}

static void evaluate(const cJSON *thresholds)
{
    if (summarise()) {
        P.f.verdict = NGCC_ERROR;
        snprintf(P.f.detail, sizeof P.f.detail, "the measurement returned no samples");
        return;
    }
    const cJSON *entry = perf_thresholds_entry(thresholds, perf_args_key(&P.a), P.a.op);
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(counter(), "counts_cycles");
    perf_gate_timing(entry, counter_name(), cJSON_IsTrue(cc), counter_num("freq_hz"), P.s.median, P.a.tolerance,
                     &P.gate);
    char gate[400], abt[500] = "";
    perf_gate_text(&P.gate, "median", gate, sizeof gate);
    if (P.a.m.ref_lib) {
        if (evaluate_ab())
            return;
        P.f.verdict = ab_exceeded() ? NGCC_REGRESSION : NGCC_PASS;
        ab_text(abt, sizeof abt);
        size_t l = strlen(abt);
        snprintf(abt + l, sizeof abt - l, "; absolute gate (recorded, not deciding): ");
    } else if (P.gate.have) {
        P.f.verdict = perf_gate_exceeded(&P.gate) ? NGCC_REGRESSION : NGCC_PASS;
    } else {
        P.f.verdict = NGCC_NOBASELINE;
        size_t l = strlen(gate);
        snprintf(gate + l, sizeof gate - l, " for %s in %s; record it: %s", perf_args_key(&P.a),
                 P.a.thresholds ? P.a.thresholds : "(no --thresholds file)", perf_args_baseline_command(&P.a));
    }
    double f = counter_num("freq_hz");
    char pb[120] = "";
    if (is_hash())
        snprintf(pb, sizeof pb, ", %.4g %s/byte at %.0f bytes", per_byte(P.s.median),
                 cJSON_IsTrue(cc) ? "cycles" : "ticks", rnum("msg_bytes"));
    snprintf(P.f.detail, sizeof P.f.detail, "%s%s; %s, %.4g ms%s, IQR/median %.2f%%, n=%.0f (%.0f x %.0f, %s)%s", abt,
             gate, counter_name(), f > 0 ? P.s.median / f * 1e3 : 0, pb, 100 * perf_iqr_rel(&P.s), rnum("calls"),
             rnum("trials"), rnum("iterations"),
             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(P.run.result, "mode")),
             P.kat.timed_anyway ? "; TIMED ANYWAY: its KAT verdict is not PASS" : "");
    /* under user-mode emulation the figures time the emulator, not the
     * target: recorded, never gated (RECORDED, not PASS/REGRESSION), and
     * ngcc-baseline only takes PASS/NOBASELINE/REGRESSION records */
    char why[256];
    const char *emu = ngcc_emulated(why, sizeof why);
    if (emu && P.f.verdict != NGCC_ERROR) {
        char rest[sizeof P.f.detail];
        snprintf(rest, sizeof rest, "%s", P.f.detail);
        P.f.verdict = NGCC_RECORDED;
        snprintf(P.f.detail, sizeof P.f.detail, "emulated: %s, not a timing (%.300s); no gate applied: %.1400s", emu,
                 why, rest);
    }
}

/* the reference's KAT must have passed: else its timing is no reference.
 * 0 to go on; 1 with ERROR set */
static int ref_precheck(void)
{
    if (!P.a.m.ref_lib || !P.a.ref_kat_record)
        return 0;
    snprintf(P.ref_kat_verdict, sizeof P.ref_kat_verdict, "NONE");
    cJSON *r = access(P.a.ref_kat_record, R_OK) == 0 ? ngcc_record_load(P.a.ref_kat_record) : NULL;
    const cJSON *v = cJSON_GetObjectItem(r, "verdict");
    if (cJSON_IsString(v))
        snprintf(P.ref_kat_verdict, sizeof P.ref_kat_verdict, "%s", v->valuestring);
    cJSON_Delete(r);
    if (strcmp(P.ref_kat_verdict, "PASS") == 0)
        return 0;
    P.f.verdict = NGCC_ERROR;
    snprintf(P.f.detail, sizeof P.f.detail,
             "not measured: the KAT verdict of the reference %s is %s (%s); fix "
             "the reference or name another one in the override's \"perf\": {\"reference\": ...}",
             P.a.ref_name, P.ref_kat_verdict, P.a.ref_kat_record);
    return 1;
}

static void measure(void)
{
    char err[600];
    cJSON *thresholds = NULL;
    if (perf_thresholds_load(P.a.thresholds, P.a.system, &thresholds, err, sizeof err)) {
        P.f.verdict = NGCC_ERROR;
        snprintf(P.f.detail, sizeof P.f.detail, "%s", err);
        return;
    }
    if (P.a.ref_error) { /* the configuration named no usable reference: nothing to compare */
        P.f.verdict = NGCC_ERROR;
        snprintf(P.f.detail, sizeof P.f.detail, "%s", P.a.ref_error);
    } else if (!perf_precheck(&P.f, &P.a, &P.kat) && !ref_precheck() && !perf_hash_budget(&P.f, &P.a)) {
        if (perf_child_exec(perf_measure_child, &P.a.m, P.a.timeout, P.a.mem_mb, P.a.log, &P.run)) {
            P.f.verdict = NGCC_ERROR;
            snprintf(P.f.detail, sizeof P.f.detail, "cannot start the measuring process");
        } else if (P.run.result) {
            P.have_result = 1;
            evaluate(thresholds);
        } else {
            P.f.verdict = perf_child_verdict(&P.run, P.a.timeout, P.f.detail, sizeof P.f.detail);
        }
    }
    cJSON_Delete(thresholds);
}

static cJSON *stats_json(void)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "min", P.s.min);
    cJSON_AddNumberToObject(s, "q1", P.s.q1);
    cJSON_AddNumberToObject(s, "median", P.s.median);
    cJSON_AddNumberToObject(s, "q3", P.s.q3);
    cJSON_AddNumberToObject(s, "max", P.s.max);
    cJSON_AddNumberToObject(s, "iqr_rel", perf_iqr_rel(&P.s));
    cJSON_AddNumberToObject(s, "mean_cycles", P.mean_ticks);
    cJSON_AddNumberToObject(s, "mean_ns", P.mean_ns);
    cJSON_AddNumberToObject(s, "ops_per_s", P.ops_per_s);
    cJSON_AddNumberToObject(s, "trials", rnum("trials"));
    cJSON_AddNumberToObject(s, "iterations", rnum("iterations"));
    cJSON_AddNumberToObject(s, "n", rnum("calls"));
    cJSON_AddNumberToObject(s, "samples", (double)P.s.n);
    return s;
}

static cJSON *method_json(void)
{
    cJSON *m = cJSON_CreateObject();
    const perf_measure_opts *o = &P.a.m;
    cJSON_AddStringToObject(m, "mode", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(P.run.result, "mode")));
    cJSON_AddNumberToObject(m, "budget_s", o->budget_s);
    cJSON_AddNumberToObject(m, "warmup_s", o->warmup_s);
    cJSON_AddNumberToObject(m, "one_shot_s", o->one_shot_s);
    cJSON_AddNumberToObject(m, "trials_requested", o->trials);
    cJSON_AddNumberToObject(m, "iter_min", o->iter_min);
    cJSON_AddNumberToObject(m, "iter_max", o->iter_max);
    static const char *const copied[] = {"records",      "first_call_ticks",   "first_call_ns", "first_prepare_ns",
                                         "warmup_calls", "warmup_ns",          "total_ticks",   "wall_ns_total",
                                         "calls",        "trials_switched_out"};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++)
        cJSON_AddNumberToObject(m, copied[i], rnum(copied[i]));
    return m;
}

static void add_observed(cJSON *r)
{
    int sign = strcmp(P.a.op, "sign") == 0, enc = strcmp(P.a.op, "enc") == 0;
    if (!sign && !enc)
        return;
    cJSON_AddNumberToObject(r, sign ? "observed_sig_min" : "observed_ct_min", rnum("out_min"));
    cJSON_AddNumberToObject(r, sign ? "observed_sig_max" : "observed_ct_max", rnum("out_max"));
}

static void add_hash(cJSON *r)
{
    if (!P.have_result || !is_hash())
        return;
    cJSON *h = cJSON_AddObjectToObject(r, "hash");
    cJSON_AddNumberToObject(h, "msg_bytes", rnum("msg_bytes"));
    cJSON_AddNumberToObject(h, "digest_bits", rnum("digest_bits"));
    cJSON_AddNumberToObject(h, "median_per_byte", per_byte(P.s.median));
    cJSON_AddNumberToObject(h, "mean_per_byte", per_byte(P.mean_ticks));
    double f = counter_num("freq_hz");
    cJSON_AddNumberToObject(h, "median_ns_per_byte", f > 0 ? per_byte(P.s.median) / f * 1e9 : 0);
    cJSON_AddStringToObject(h, "unit",
                            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(counter(), "counts_cycles")) ? "cycles/byte"
                                                                                                       : "ticks/byte");
}

static void write_record(void)
{
    cJSON *r = ngcc_frame_record_new(&P.f);
    perf_record_common(r, P.a.lib, P.a.system, cJSON_GetObjectItemCaseSensitive(P.run.result, "meta"));
    cJSON_AddBoolToObject(r, "timed_anyway", P.kat.timed_anyway);
    char why[256];
    const char *emu = ngcc_emulated(why, sizeof why);
    if (emu) {
        cJSON *e = cJSON_AddObjectToObject(r, "emulated");
        cJSON_AddStringToObject(e, "emulator", emu);
        cJSON_AddStringToObject(e, "evidence", why);
        cJSON_AddStringToObject(e, "note", "emulated: not a timing");
    }
    if (P.kat.kat_verdict[0])
        cJSON_AddStringToObject(r, "kat_verdict", P.kat.kat_verdict);
    else
        cJSON_AddNullToObject(r, "kat_verdict");
    if (P.have_result) {
        cJSON_AddItemToObject(r, "counter", cJSON_Duplicate(counter(), 1));
        cJSON_AddItemToObject(r, "cpu", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(P.run.result, "cpu"), 1));
        cJSON_AddItemToObject(r, "stats", stats_json());
        cJSON_AddItemToObject(r, "method", method_json());
        add_observed(r);
        add_hash(r);
        if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(P.run.result, "passes")))
            cJSON_AddNumberToObject(r, "passes", rnum("passes"));
        cJSON_AddItemToObject(r, "baseline", perf_gate_json(&P.gate, "median"));
        cJSON_AddStringToObject(r, "baseline_key", perf_args_key(&P.a));
        cJSON_AddItemToObject(r, "samples",
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(P.run.result, "samples"), 1));
        cJSON_AddItemToObject(r, "trial_samples",
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(P.run.result, "trial_samples"), 1));
    } else {
        cJSON_AddNullToObject(r, "counter");
        cJSON_AddNullToObject(r, "stats");
        cJSON_AddNullToObject(r, "baseline");
        cJSON_AddItemToObject(r, "samples", cJSON_CreateArray());
    }
    if (P.a.m.ref_lib || P.a.ref_error) {
        cJSON *o = P.have_result && ab() ? cJSON_Duplicate(ab(), 1) : cJSON_CreateObject();
        cJSON_DeleteItemFromObjectCaseSensitive(o, "ref_lib");
        cJSON_AddStringToObject(o, "ref_lib", P.a.m.ref_lib ? P.a.m.ref_lib : "");
        cJSON_AddStringToObject(o, "ref_name", P.a.ref_name ? P.a.ref_name : "");
        if (P.ref_kat_verdict[0])
            cJSON_AddStringToObject(o, "ref_kat_verdict", P.ref_kat_verdict);
        if (P.have_result)
            cJSON_AddItemToObject(o, "trial_samples",
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(P.run.result, "trial_samples"), 1));
        cJSON_AddNumberToObject(o, "tolerance", P.a.ab_tolerance);
        cJSON_AddNumberToObject(o, "confidence", P.a.ab_confidence);
        cJSON_AddNumberToObject(o, "resamples", P.a.ab_resamples);
        cJSON_AddNumberToObject(o, "seed", (double)AB_SEED);
        if (P.have_ab) {
            cJSON_AddNumberToObject(o, "pairs", (double)P.ab.n);
            cJSON_AddNumberToObject(o, "ratio", P.ab.ratio);
            cJSON_AddNumberToObject(o, "ci_low", P.ab.lo);
            cJSON_AddNumberToObject(o, "ci_high", P.ab.hi);
            cJSON_AddStringToObject(o, "statistic", "median of the pairs' ratios instance/reference");
            cJSON_AddNumberToObject(o, "ratio_of_medians", P.ab.rom);
            cJSON_AddNumberToObject(o, "ratio_of_medians_ci_low", P.ab.rom_lo);
            cJSON_AddNumberToObject(o, "ratio_of_medians_ci_high", P.ab.rom_hi);
            cJSON_AddBoolToObject(o, "exceeded", ab_exceeded());
        }
        cJSON_AddStringToObject(o, "decides", "ab");
        cJSON_AddItemToObject(r, "ab", o);
    }
    cJSON *host = cJSON_AddObjectToObject(r, "host");
    cJSON_AddNumberToObject(host, "loadavg_1min_start", P.load_start);
    cJSON_AddNumberToObject(host, "loadavg_1min_end", P.load_end);
    ngcc_frame_record_write(&P.f, r, NULL);
    cJSON_Delete(r);
}

static void measurement(const char *name, double v)
{
    printf("<DartMeasurement name=\"%s\" type=\"numeric/double\">%.17g</DartMeasurement>\n", name, v);
}

static void print_measurements(void)
{
    if (!P.have_result)
        return;
    printf("<DartMeasurement name=\"counter\" type=\"text/string\">%s</DartMeasurement>\n", counter_name());
    measurement("freq_hz", counter_num("freq_hz"));
    measurement("median", P.s.median);
    measurement("q1", P.s.q1);
    measurement("q3", P.s.q3);
    measurement("min", P.s.min);
    measurement("max", P.s.max);
    measurement("mean_cycles", P.mean_ticks);
    measurement("mean_ns", P.mean_ns);
    measurement("ops_per_s", P.ops_per_s);
    measurement("n", rnum("calls"));
    measurement("iqr_rel", perf_iqr_rel(&P.s));
    if (is_hash()) {
        measurement("msg_bytes", rnum("msg_bytes"));
        measurement("median_per_byte", per_byte(P.s.median));
    }
    if (P.gate.have) {
        measurement("baseline_median", P.gate.baseline);
        measurement("limit", P.gate.limit);
    }
    measurement("timed_anyway", P.kat.timed_anyway);
    if (P.have_ab) {
        measurement("ab_ratio", P.ab.ratio);
        measurement("ab_ci_low", P.ab.lo);
        measurement("ab_ci_high", P.ab.hi);
    }
}

/* ---- CMocka cases: the measurement completed; the median is within its limit ---- */
static void case_measured(void **state)
{
    (void)state;
    if (P.f.verdict == NGCC_SKIP) /* not measured (perf_hash_budget.h): not a failure */
        skip();
    /* RECORDED: measured under emulation, not gated (still a measurement) */
    int err = !ngcc_verdict_passing(P.f.verdict) && P.f.verdict != NGCC_REGRESSION;
    if (err)
        fail_msg("%s: %s", ngcc_verdict_name(P.f.verdict), P.f.detail);
    if (P.s.n < 1 || P.s.min <= 0)
        fail_msg("no positive sample (n=%zu, min=%g)", P.s.n, P.s.min);
}

static void case_threshold(void **state)
{
    (void)state;
    char text[600];
    if (P.f.verdict == NGCC_SKIP)
        skip();
    if (P.have_ab) {
        ab_text(text, sizeof text);
        if (ab_exceeded())
            fail_msg("%s", text);
        print_message("%s\n", text);
        return;
    }
    perf_gate_text(&P.gate, "median", text, sizeof text);
    if (perf_gate_exceeded(&P.gate))
        fail_msg("%s", text);
    print_message("%s\n", text);
}

static int run_cases(void)
{
    char group[300];
    snprintf(group, sizeof group, "perf/%s/%s", P.a.name, P.a.op);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(case_measured),
        cmocka_unit_test(case_threshold),
    };
    return _cmocka_run_group_tests(group, tests, 2, NULL, NULL);
}

int main(int argc, char **argv)
{
    int rc = perf_args_parse(&P.a, &P.f, "perf", "ngcc-perf", 1, usage, argc, argv);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&P.f)) >= 0) {
        ngcc_frame_free(&P.f);
        return rc;
    }
    P.load_start = loadavg();
    measure();
    P.load_end = loadavg();
    ngcc_child_show_log(P.a.log, 4096);
    write_record();
    print_measurements();
    run_cases();
    perf_child_free(&P.run);
    return ngcc_frame_finish(&P.f);
}
