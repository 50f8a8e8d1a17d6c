/* ngcc-mem: the memory test of one instance operation (labels perf;mem).
 * In a process of its own: the KAT inputs are prepared, one unmeasured call
 * warms up (one-time library initialisation), VmHWM is reset
 * (where the kernel allows) and the baseline RSS read, the operation runs
 * once per KAT record, then peak RSS (VmHWM) and the heap peak (mem_heap.h)
 * are read; then the same calls run on a painted stack (mem_stack.h) for the
 * stack high-water mark. Gates each figure against the thresholds file,
 * writes mem-<op>.json, runs a CMocka group, prints CDash measurements and
 * one verdict line; exits 0 iff the verdict is the expected one. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem_heap.h"
#include "mem_rss.h"
#include "mem_stack.h"
#include "ngcc_counter.h"
#include "ngcc_record.h"
#include "perf_args.h"
#include "perf_child.h"
#include "perf_ops.h"
#include "perf_precheck.h"
#include "perf_record.h"
#include "perf_thresholds.h"

static const char usage[] =
    "usage: ngcc-mem --lib <instance.so> --name <cand>/<key> --op <keygen|sign|verify|enc|dec>\n"
    "       --record-out <mem-op.json> [--build-record <json>] [--kat-record <kat.json> [--time-anyway]]\n"
    "       [--thresholds <system.json>] [--system <id>] [--baseline-key <cand>/<key>] [--tolerance 0.05]\n"
    "       [--rss-tolerance 0.25] [--records 10] [--stack-mb 32] [--timeout S] [--mem-limit-mb M]\n"
    "       [--log <file>] [--expect VERDICT]\n";

/* the gated figures of a mem record */
static const struct {
    const char *field, *unit;
} figures[] = {{"peak_rss_kb", "kB"}, {"heap_peak_bytes", "bytes"}, {"stack_hwm_bytes", "bytes"}};
#define NFIG 3

static struct {
    perf_args a;
    ngcc_frame f; /* options, verdict and detail (ngcc_frame.h) */
    perf_kat_status kat;
    perf_child_run run;
    perf_gate gate[NFIG];
} M;

/* ---- child ---- */
typedef struct {
    perf_ctx ctx;
    int r;
    int bad; /* verdict of a failed check */
    char err[400];
} op_call;

/* the operation on record o->r, its result checked (preparation done before) */
static void one_call(void *v)
{
    op_call *o = v;
    int rc = perf_op_run(&o->ctx, o->r);
    o->bad = perf_op_check(&o->ctx, o->r, rc, o->err, sizeof o->err);
}

static void nothing(void *v)
{
    (void)v;
}

/* Each record's call once on this thread. The heap peak is taken per call,
 * from a mark set after the untimed preparation (re-seeding the DRNG
 * allocates too), and the maximum kept. */
static void measure_rss_heap(op_call *o, cJSON *res)
{
    int reset = mem_hwm_reset() == 0;
    long base = mem_rss_kb();
    long long peak = 0, allocs = 0;
    for (o->r = 0; o->r < o->ctx.records && !o->bad; o->r++) {
        if ((o->bad = perf_op_prepare(&o->ctx, o->r, o->err, sizeof o->err)) != 0)
            break;
        mem_heap_mark();
        one_call(o);
        long long p = mem_heap_peak_since_mark();
        peak = p > peak ? p : peak;
        allocs += mem_heap_allocs_since_mark();
    }
    cJSON_AddNumberToObject(res, "baseline_rss_kb", (double)base);
    cJSON_AddNumberToObject(res, "peak_rss_kb", (double)mem_hwm_kb());
    cJSON_AddBoolToObject(res, "hwm_reset", reset);
    int heap = mem_heap_active();
    cJSON_AddBoolToObject(res, "heap_counted", heap);
    if (heap) {
        cJSON_AddNumberToObject(res, "heap_peak_bytes", (double)peak);
        cJSON_AddNumberToObject(res, "heap_allocs", (double)allocs);
    }
}

/* Each record's call on the painted stack (the preparation runs on this
 * thread, so only the call is measured); the deepest one, minus what an
 * empty function on that stack shows (glibc's thread descriptor and TLS sit
 * at its top). -1 if the stack or a thread could not be set up. */
static long measure_stack(op_call *o, size_t size, long *harness)
{
    mem_stack st;
    if (mem_stack_init(&st, size))
        return -1;
    *harness = mem_stack_run(&st, nothing, NULL);
    long deepest = 0;
    for (o->r = 0; o->r < o->ctx.records && !o->bad && deepest >= 0; o->r++) {
        if ((o->bad = perf_op_prepare(&o->ctx, o->r, o->err, sizeof o->err)) != 0)
            break;
        long d = mem_stack_run(&st, one_call, o);
        deepest = d < 0 || *harness < 0 ? -1 : d > deepest ? d : deepest;
    }
    mem_stack_free(&st);
    return deepest < 0 ? -1 : deepest - *harness;
}

static int mem_child(void *varg, FILE *out)
{
    const perf_args *a = varg;
    ngcc_instance in;
    op_call o;
    memset(&o, 0, sizeof o);
    char err[600];
    perf_child_phase(out, "loading the instance library");
    if (ngcc_instance_open(a->lib, &in, err, sizeof err)) {
        perf_child_error(out, NGCC_LOADFAIL, "%s", err);
        return 1;
    }
    perf_child_phase(out, "preparing the inputs of %d KAT records", a->m.records);
    int verdict;
    if (perf_ctx_setup_op(&o.ctx, &in, a->op, a->m.records, &verdict, o.err, sizeof o.err)) {
        perf_child_error(out, verdict, "%s", o.err);
        return 1;
    }
    cJSON *res = cJSON_CreateObject();
    cJSON_AddItemToObject(res, "meta", perf_meta_json(in.meta));
    cJSON_AddNumberToObject(res, "records", o.ctx.records);
    /* one unmeasured call first: one-time initialisation (a library's
     * lazy setup on its first use, e.g. OpenSSL's) is not the operation's */
    perf_child_phase(out, "warming up");
    if ((o.bad = perf_op_prepare(&o.ctx, 0, o.err, sizeof o.err)) == 0)
        one_call(&o);
    if (o.bad) {
        perf_child_error(out, o.bad, "%s", o.err);
        return 1;
    }
    perf_child_phase(out, "measuring RSS and heap");
    measure_rss_heap(&o, res);
    size_t size = (size_t)(a->stack_mb * 1048576.0);
    perf_child_phase(out,
                     "running on a painted stack of %.0f MiB (an overflow of it crashes: raise "
                     "NGCC_MEM_STACK_MB)",
                     a->stack_mb);
    long harness, depth = o.bad ? 0 : measure_stack(&o, size, &harness);
    if (o.bad) {
        perf_child_error(out, o.bad, "%s", o.err);
        return 1;
    }
    if (depth < 0) {
        perf_child_error(out, NGCC_ERROR, "cannot start a thread on a %zu-byte painted stack", size);
        return 1;
    }
    cJSON_AddNumberToObject(res, "stack_hwm_bytes", (double)depth);
    cJSON_AddNumberToObject(res, "stack_harness_bytes", (double)harness);
    cJSON_AddNumberToObject(res, "stack_painted_bytes", (double)size);
    perf_child_result(out, res);
    cJSON_Delete(res);
    perf_ctx_free(&o.ctx);
    return 0;
}

/* ---- parent ---- */
static double rnum(const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(M.run.result, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static void evaluate(const cJSON *thresholds)
{
    char entry_name[64];
    snprintf(entry_name, sizeof entry_name, "mem-%s", M.a.op);
    const cJSON *entry = perf_thresholds_entry(thresholds, perf_args_key(&M.a), entry_name);
    M.f.verdict = NGCC_PASS;
    size_t used = 0;
    char why[256];
    const char *emu = ngcc_emulated(why, sizeof why);
    if (emu)
        used = (size_t)snprintf(M.f.detail, sizeof M.f.detail,
                                "emulated: %s (%s): peak_rss_kb is the emulator process's, recorded, not gated; ", emu,
                                why);
    for (int i = 0; i < NFIG; i++) {
        double v = rnum(figures[i].field);
        double tol = i == 0 ? M.a.rss_tolerance : M.a.tolerance; /* figures[0]: peak RSS */
        perf_gate_value(entry, figures[i].field, figures[i].unit, v, tol, &M.gate[i]);
        if (v < 0) /* not measured (no heap counter): nothing to gate */
            M.gate[i].have = 0;
        if (i == 0 && emu) /* VmHWM is the emulator's (code cache included), not the target's */
            M.gate[i].have = 0;
        if (perf_gate_exceeded(&M.gate[i]))
            M.f.verdict = NGCC_REGRESSION;
        char t[300];
        perf_gate_text(&M.gate[i], figures[i].field, t, sizeof t);
        used += (size_t)snprintf(M.f.detail + used, sizeof M.f.detail - used, "%s%s", i ? "; " : "", t);
        if (used >= sizeof M.f.detail)
            used = sizeof M.f.detail - 1;
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(M.run.result, "hwm_reset")))
        snprintf(M.f.detail + used, sizeof M.f.detail - used, "; VmHWM could not be reset: peak includes the setup");
    if (M.kat.timed_anyway)
        snprintf(M.f.detail + strlen(M.f.detail), sizeof M.f.detail - strlen(M.f.detail),
                 "; MEASURED ANYWAY: its KAT verdict is not PASS");
    if (!entry && M.f.verdict == NGCC_PASS) { /* measured, nothing of this machine class to gate against */
        M.f.verdict = NGCC_NOBASELINE;
        size_t l = strlen(M.f.detail);
        snprintf(M.f.detail + l, sizeof M.f.detail - l, "; no baseline entry %s %s in %s; record it: %s",
                 perf_args_key(&M.a), entry_name, M.a.thresholds ? M.a.thresholds : "(no --thresholds file)",
                 perf_args_baseline_command(&M.a));
    }
}

static void measure(void)
{
    char err[600];
    cJSON *thresholds = NULL;
    if (perf_thresholds_load(M.a.thresholds, M.a.system, &thresholds, err, sizeof err)) {
        M.f.verdict = NGCC_ERROR;
        snprintf(M.f.detail, sizeof M.f.detail, "%s", err);
        return;
    }
    if (!perf_precheck(&M.f, &M.a, &M.kat)) {
        if (perf_child_exec(mem_child, &M.a, M.a.timeout, M.a.mem_mb, M.a.log, &M.run)) {
            M.f.verdict = NGCC_ERROR;
            snprintf(M.f.detail, sizeof M.f.detail, "cannot start the measuring process");
        } else if (M.run.result) {
            evaluate(thresholds);
        } else {
            M.f.verdict = perf_child_verdict(&M.run, M.a.timeout, M.f.detail, sizeof M.f.detail);
        }
    }
    cJSON_Delete(thresholds);
}

static void write_record(void)
{
    cJSON *r = ngcc_frame_record_new(&M.f);
    perf_record_common(r, M.a.lib, M.a.system, cJSON_GetObjectItemCaseSensitive(M.run.result, "meta"));
    cJSON_AddBoolToObject(r, "timed_anyway", M.kat.timed_anyway);
    cJSON_AddStringToObject(r, "kat_verdict", M.kat.kat_verdict);
    static const char *const copied[] = {"baseline_rss_kb",     "peak_rss_kb", "heap_peak_bytes",
                                         "stack_hwm_bytes",     "heap_allocs", "stack_harness_bytes",
                                         "stack_painted_bytes", "records"};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++) {
        double v = rnum(copied[i]);
        if (v >= 0)
            cJSON_AddNumberToObject(r, copied[i], v);
        else
            cJSON_AddNullToObject(r, copied[i]);
    }
    cJSON_AddBoolToObject(r, "hwm_reset", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(M.run.result, "hwm_reset")));
    cJSON_AddStringToObject(r, "heap_scope",
                            "every allocation in the process during the operation (malloc & co. "
                            "interposed by ngcc-mem, glibc): the instance and the libraries it calls");
    cJSON *b = cJSON_AddObjectToObject(r, "baseline");
    for (int i = 0; i < NFIG; i++)
        cJSON_AddItemToObject(b, figures[i].field, perf_gate_json(&M.gate[i], "value"));
    ngcc_frame_record_write(&M.f, r, NULL);
    cJSON_Delete(r);
}

static void print_measurements(void)
{
    if (!M.run.result)
        return;
    static const char *const names[] = {"baseline_rss_kb", "peak_rss_kb", "heap_peak_bytes", "stack_hwm_bytes"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (rnum(names[i]) >= 0)
            printf("<DartMeasurement name=\"%s\" type=\"numeric/double\">%.0f</DartMeasurement>\n", names[i],
                   rnum(names[i]));
}

/* ---- CMocka: measured; each figure within its limit ---- */
static void case_measured(void **state)
{
    (void)state;
    if (!ngcc_verdict_passing(M.f.verdict) && M.f.verdict != NGCC_REGRESSION)
        fail_msg("%s: %s", ngcc_verdict_name(M.f.verdict), M.f.detail);
}

static void case_figure(void **state)
{
    int i = *(int *)*state;
    char t[300];
    perf_gate_text(&M.gate[i], figures[i].field, t, sizeof t);
    if (perf_gate_exceeded(&M.gate[i]))
        fail_msg("%s", t);
}

static int run_cases(void)
{
    static int idx[NFIG] = {0, 1, 2};
    char group[300];
    snprintf(group, sizeof group, "mem/%s/%s", M.a.name, M.a.op);
    struct CMUnitTest tests[1 + NFIG] = {cmocka_unit_test(case_measured)};
    for (int i = 0; i < NFIG; i++)
        tests[1 + i] = (struct CMUnitTest){figures[i].field, case_figure, NULL, NULL, &idx[i]};
    return _cmocka_run_group_tests(group, tests, 1 + NFIG, NULL, NULL);
}

/* The child resets VmHWM by writing /proc/self/clear_refs; the sandbox of
 * ngcc_child.h lets it write only where NGCC_SANDBOX_WRITABLE says, so its
 * own /proc entries are added (the host's files stay out of reach). */
static void allow_clear_refs(void)
{
    const char *old = getenv("NGCC_SANDBOX_WRITABLE");
    char *v = NULL;
    if (asprintf(&v, "%s%s/proc/self", old ? old : "", old && *old ? ":" : "") > 0)
        setenv("NGCC_SANDBOX_WRITABLE", v, 1);
    free(v);
}

int main(int argc, char **argv)
{
    int rc = perf_args_parse(&M.a, &M.f, "mem", "ngcc-mem", 1, usage, argc, argv);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&M.f)) >= 0) {
        ngcc_frame_free(&M.f);
        return rc;
    }
    allow_clear_refs();
    measure();
    ngcc_child_show_log(M.a.log, 4096);
    write_record();
    print_measurements();
    run_cases();
    perf_child_free(&M.run);
    return ngcc_frame_finish(&M.f);
}
