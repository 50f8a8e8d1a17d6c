/* ngcc-icount: instructions per operation (CTest label "icount").
 * Counts one instance operation over records 0..N-1 of the official KAT
 * flow (icount_measure.h: hardware instruction counter, else callgrind),
 * and with a same-run reference (--ref-lib) that library too, same records,
 * same method. Gates the ratio of medians (reference) and the median
 * against the committed baseline of this arch and compiler
 * (icount_baseline.h), both at --tolerance; worst wins. Writes
 * icount-<op>.json, runs a CMocka group, prints CDash measurements and one
 * verdict line; exits 0 iff the verdict is the expected one. Options, build
 * check, resume, verdict line and exit code are the driver frame's. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "icount_baseline.h"
#include "icount_measure.h"
#include "ngcc_child.h"
#include "ngcc_counter.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_sandbox.h"
#include "ngcc_util.h"
#include "perf_args.h"
#include "perf_precheck.h"

static const char usage[] =
    "usage: ngcc-icount --lib <instance.so> --name <cand>/<key> --op <keygen|sign|verify|enc|dec>\n"
    "       --record-out <icount-op.json> --log <file> [--build-record <json>] [--kat-record <kat.json>\n"
    "       [--time-anyway]] [--method auto|perf|valgrind] [--valgrind <path>] [--records N (0: 3 under\n"
    "       valgrind, 10 with the hardware counter)] [--kat-records N] [--baseline <file>] [--tolerance 0.005]\n"
    "       [--refresh <command>] [--ref-lib <so> --ref-name <cand>/<key>] [--ref-error <text>]\n"
    "       [--max-valgrind-s 60] [--slowdown 10] [--timeout S] [--expect VERDICT]\n"
    "       ngcc-icount --count --lib <so> --op <op> --records N --method perf|valgrind   (the counted run)\n";

#define MAXREC 10

/* one counted library */
typedef struct {
    const char *lib, *name, *tag;
    char log[PATH_MAX], dumps[PATH_MAX];
    ngcc_child_result child;
    int n, done, error_verdict;
    long long counts[MAXREC];
    double ns[MAXREC];
    double median, wall_s;
    char phase[200], error[900], flagset[64], compiler[128];
} icount_run;

static struct {
    ngcc_frame f;
    perf_args pa; /* for perf_precheck: kat_record, time_anyway */
    const char *method_opt, *valgrind, *baseline, *refresh, *ref_lib, *ref_name, *ref_error;
    double tolerance, max_valgrind_s, slowdown;
    int records_opt, kat_records;
    /* the run */
    perf_kat_status kat;
    icount_method method;
    char method_name[160], method_kind[64], valgrind_version[100];
    int records;
    char self[PATH_MAX], prediction[400];
    double native_op_s;
    icount_run me, ref;
    int have_ref;
    double ratio, ratio_limit;
    int ratio_exceeded;
    icount_gate gate;
    int measured;
} I;

/* ---- options ---- */
static int own_option(ngcc_frame *f, int c, const char *v)
{
    double d;
    int rc = 0;
    switch (c) {
    case 'k':
        I.pa.kat_record = v;
        break;
    case 'A':
        I.pa.time_anyway = 1;
        break;
    case 'm':
        if (strcmp(v, "auto") && strcmp(v, "perf") && strcmp(v, "valgrind")) {
            fprintf(stderr, "ngcc-icount: --method %s: expected auto, perf or valgrind\n", v);
            return -1;
        }
        I.method_opt = v;
        break;
    case 'v':
        I.valgrind = v;
        break;
    case 'b':
        I.baseline = v;
        break;
    case 'F':
        I.refresh = v;
        break;
    case 'L':
        I.ref_lib = v;
        break;
    case 'N':
        I.ref_name = v;
        break;
    case 'E':
        I.ref_error = v;
        break;
    case 'x':
        rc = ngcc_frame_number(f, "tolerance", v, 0, 100, &I.tolerance);
        break;
    case 'M':
        rc = ngcc_frame_number(f, "max-valgrind-s", v, 0, 1e7, &I.max_valgrind_s);
        break;
    case 'w':
        rc = ngcc_frame_number(f, "slowdown", v, 1, 1e5, &I.slowdown);
        break;
    case 'R':
        rc = ngcc_frame_number(f, "records", v, 0, MAXREC, &d);
        I.records_opt = (int)d;
        break;
    case 'K':
        rc = ngcc_frame_number(f, "kat-records", v, 1, MAXREC, &d);
        I.kat_records = (int)d;
        break;
    default:
        rc = -1;
    }
    return rc;
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {
        {"kat-record", 1, 0, 'k'}, {"time-anyway", 0, 0, 'A'},    {"method", 1, 0, 'm'},
        {"valgrind", 1, 0, 'v'},   {"baseline", 1, 0, 'b'},       {"refresh", 1, 0, 'F'},
        {"ref-lib", 1, 0, 'L'},    {"ref-name", 1, 0, 'N'},       {"ref-error", 1, 0, 'E'},
        {"tolerance", 1, 0, 'x'},  {"max-valgrind-s", 1, 0, 'M'}, {"slowdown", 1, 0, 'w'},
        {"records", 1, 0, 'R'},    {"kat-records", 1, 0, 'K'},    {0, 0, 0, 0}};
    static const ngcc_frame_spec spec = {"icount", "ngcc-icount", usage, lo, own_option, NGCC_FRAME_OP, NULL};
    I.method_opt = "auto";
    I.tolerance = 0.005;
    I.max_valgrind_s = 60;
    I.slowdown = 10;
    I.kat_records = MAXREC;
    I.refresh = "cmake --build <build> --target icount-baseline";
    int rc = ngcc_frame_parse(&I.f, &spec, argc, argv);
    if (rc)
        return rc;
    if (!I.f.log || (I.ref_lib && !I.ref_name)) {
        fprintf(stderr, "ngcc-icount: --log is required, and --ref-lib needs --ref-name\n%s", usage);
        ngcc_frame_free(&I.f);
        return 2;
    }
    /* the verdict also depends on these files (the frame has the library's) */
    ngcc_inputs_add_file(I.f.inputs, "baseline_sha256", I.baseline);
    ngcc_inputs_add_file(I.f.inputs, "ref_library_sha256", I.ref_lib);
    ngcc_inputs_add_file(I.f.inputs, "valgrind_sha256", I.valgrind);
    if (I.pa.kat_record) {
        cJSON *k = access(I.pa.kat_record, R_OK) == 0 ? ngcc_record_load(I.pa.kat_record) : NULL;
        const cJSON *v = cJSON_GetObjectItem(k, "verdict");
        ngcc_inputs_add_str(I.f.inputs, "kat_verdict", cJSON_IsString(v) ? v->valuestring : "");
        ngcc_inputs_add_member(I.f.inputs, "kat_op_seconds_sha256", k, "op_seconds");
        cJSON_Delete(k);
    }
    return 0;
}

/* "--count ...": the counted process (what the parent, or valgrind, runs) */
static int count_mode(int argc, char **argv)
{
    static const struct option lo[] = {{"count", 0, 0, 'C'},   {"lib", 1, 0, 'l'},    {"op", 1, 0, 'o'},
                                       {"records", 1, 0, 'r'}, {"method", 1, 0, 'm'}, {0, 0, 0, 0}};
    const char *lib = NULL, *op = NULL, *method = "perf";
    int c, records = 1;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'l')
            lib = optarg;
        else if (c == 'o')
            op = optarg;
        else if (c == 'r')
            records = atoi(optarg);
        else if (c == 'm')
            method = optarg;
        else if (c != 'C')
            return 2;
    }
    if (!lib || !op || records < 1 || records > MAXREC)
        return 2;
    return icount_count_main(lib, op, records, strcmp(method, "valgrind") ? ICOUNT_PERF : ICOUNT_VALGRIND);
}

/* ---- method ---- */
static int valgrind_version(void)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "'%s' --version 2>/dev/null", I.valgrind);
    FILE *p = popen(cmd, "r");
    char line[128] = "";
    if (p) {
        if (!fgets(line, sizeof line, p))
            line[0] = 0;
        pclose(p);
    }
    line[strcspn(line, "\r\n")] = 0;
    if (strncmp(line, "valgrind-", 9))
        return -1;
    snprintf(I.valgrind_version, sizeof I.valgrind_version, "%.60s", line + 9);
    return 0;
}

/* 0 with the method chosen; 1 with SKIP set when nothing counts here */
static int choose_method(void)
{
    char why[300] = "";
    /* qemu-user: no PMU for the guest, and the valgrind found here is a
     * host program that would instrument the emulator, not the guest */
    char ewhy[256];
    const char *emu = ngcc_emulated(ewhy, sizeof ewhy);
    if (emu) {
        ngcc_frame_set(&I.f, NGCC_SKIP,
                       "not counted: emulated (%s: %s): no hardware instruction counter for the guest, and "
                       "valgrind cannot instrument code run by user-mode emulation",
                       emu, ewhy);
        return 1;
    }
    int want_perf = strcmp(I.method_opt, "valgrind") != 0, want_vg = strcmp(I.method_opt, "perf") != 0;
    if (want_perf && icount_hw_probe(why, sizeof why) == 0) {
        I.method = ICOUNT_PERF;
        snprintf(I.method_kind, sizeof I.method_kind, "perf_event instructions:u");
        snprintf(I.method_name, sizeof I.method_name, "perf_event instructions:u");
        return 0;
    }
    if (want_vg && I.valgrind && *I.valgrind && access(I.valgrind, X_OK) == 0 && valgrind_version() == 0) {
        I.method = ICOUNT_VALGRIND;
        snprintf(I.method_kind, sizeof I.method_kind, "valgrind-callgrind Ir");
        snprintf(I.method_name, sizeof I.method_name, "valgrind-callgrind %s Ir", I.valgrind_version);
        return 0;
    }
    char vg[PATH_MAX + 80];
    if (!want_vg)
        snprintf(vg, sizeof vg, "--method perf");
    else if (I.valgrind && *I.valgrind)
        snprintf(vg, sizeof vg, "valgrind %s does not run", I.valgrind);
    else
        snprintf(vg, sizeof vg, "no valgrind (install it and reconfigure, or pass --valgrind <path>)");
    ngcc_frame_set(&I.f, NGCC_SKIP, "not counted: no hardware instruction counter (%s) and %s",
                   want_perf ? why : "--method valgrind", vg);
    return 1;
}

/* the KAT record's op_seconds: this op's median (native cost of a call) and
 * the sum over the ops (one record of the flow); 0 when unknown */
static double kat_seconds(const char *op, double *sum)
{
    *sum = 0;
    if (!I.pa.kat_record)
        return 0;
    cJSON *k = ngcc_record_load(I.pa.kat_record);
    const cJSON *ops = k ? cJSON_GetObjectItem(k, "op_seconds") : NULL;
    double mine = 0;
    for (const cJSON *o = ops ? ops->child : NULL; o; o = o->next) {
        const cJSON *m = cJSON_GetObjectItem(o, "median");
        if (cJSON_IsNumber(m)) {
            *sum += m->valuedouble;
            if (o->string && !strcmp(o->string, op))
                mine = m->valuedouble;
        }
    }
    cJSON_Delete(k);
    return mine;
}

/* Under callgrind: whether the counted runs fit the budget, predicted from
 * the KAT test's op_seconds (each counted record runs about one record of
 * the flow: keygen, and sign/enc for verify/dec) x the slowdown. 1 with
 * SKIP set when they do not. */
static int predicted_too_slow(void)
{
    double sum;
    I.native_op_s = kat_seconds(I.f.op, &sum);
    if (I.method != ICOUNT_VALGRIND)
        return 0;
    if (sum <= 0) {
        snprintf(I.prediction, sizeof I.prediction, "no op_seconds in the KAT record: not predicted");
        return 0;
    }
    double p = sum * (I.records + 1) * I.slowdown * (I.ref_lib ? 2 : 1);
    snprintf(I.prediction, sizeof I.prediction,
             "%d+1 records x %.3g s (KAT op_seconds, one record of the flow) x %g (callgrind)%s = ~%.3g s", I.records,
             sum, I.slowdown, I.ref_lib ? " x 2 (reference)" : "", p);
    if (p <= I.max_valgrind_s)
        return 0;
    ngcc_frame_set(&I.f, NGCC_SKIP,
                   "not counted: %s predicted under callgrind, above the %.0f s budget "
                   "(NGCC_ICOUNT_MAX_VALGRIND_S); raise it, or count on a host with a hardware instruction counter",
                   I.prediction, I.max_valgrind_s);
    return 1;
}

/* ---- the counted runs ---- */
static int exec_counted(void *arg, int unused)
{
    (void)unused;
    icount_run *r = arg;
    char recs[16];
    snprintf(recs, sizeof recs, "%d", I.records);
    setenv("LD_BIND_NOW", "1", 1);
    setenv("GLIBC_TUNABLES", ICOUNT_TUNABLES, 1);
    if (I.method == ICOUNT_PERF) {
        char *argv[] = {I.self,      "--count", "--lib",    (char *)r->lib, "--op", (char *)I.f.op,
                        "--records", recs,      "--method", "perf",         NULL};
        execv(I.self, argv);
    } else {
        char out[PATH_MAX + 32];
        snprintf(out, sizeof out, "--callgrind-out-file=%s", r->dumps);
        char *argv[] = {(char *)I.valgrind,
                        "--tool=callgrind",
                        "--collect-atstart=no",
                        "--dump-instr=no",
                        "--vgdb=no",
                        "--log-fd=2",
                        out,
                        I.self,
                        "--count",
                        "--lib",
                        (char *)r->lib,
                        "--op",
                        (char *)I.f.op,
                        "--records",
                        recs,
                        "--method",
                        "valgrind",
                        NULL};
        execv(I.valgrind, argv);
    }
    fprintf(stderr, "ngcc-icount: cannot run %s: %s\n", I.method == ICOUNT_PERF ? I.self : I.valgrind, strerror(errno));
    return 127;
}

static void read_log(icount_run *r)
{
    size_t len;
    char *text = ngcc_read_file(r->log, &len);
    for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
        nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        int k;
        long long n;
        double ns;
        if (sscanf(l, "#COUNT %d %lld %lf", &k, &n, &ns) == 3 && k == r->n && k < MAXREC) {
            r->counts[k] = n;
            r->ns[k] = ns;
            r->n++;
        } else if (!strncmp(l, "#PHASE ", 7)) {
            snprintf(r->phase, sizeof r->phase, "%s", l + 7);
        } else if (!strncmp(l, "#ERROR ", 7)) {
            char v[32] = "";
            sscanf(l + 7, "%31s", v);
            r->error_verdict = ngcc_verdict_parse(v);
            snprintf(r->error, sizeof r->error, "%s", l + 7 + strlen(v) + (l[7 + strlen(v)] ? 1 : 0));
        } else if (!strncmp(l, "#META flagset ", 14)) {
            snprintf(r->flagset, sizeof r->flagset, "%s", l + 14);
        } else if (!strncmp(l, "#META compiler ", 15)) {
            snprintf(r->compiler, sizeof r->compiler, "%s", l + 15);
        } else if (!strcmp(l, "#DONE")) {
            r->done = 1;
        }
    }
    free(text);
}

/* counts r->lib; 0, or -1 with r->error_verdict / r->error set */
static int count_library(icount_run *r)
{
    char scratch[PATH_MAX];
    if (ngcc_sandbox_scratch(scratch, sizeof scratch)) {
        r->error_verdict = NGCC_ERROR;
        snprintf(r->error, sizeof r->error, "no scratch folder for the counted process");
        return -1;
    }
    snprintf(r->log, sizeof r->log, "%s%s", I.f.log, r->tag);
    snprintf(r->dumps, sizeof r->dumps, "%.4000s/icount%s.callgrind", scratch, r->tag);
    for (int k = 0; k <= MAXREC + 1; k++) { /* a former run's dumps must not be read */
        char p[PATH_MAX + 16];
        snprintf(p, sizeof p, "%s.%d", r->dumps, k);
        unlink(p);
    }
    unlink(r->dumps);
    r->error_verdict = -1;
    double t0 = ngcc_now();
    ngcc_child_opts o = {I.f.timeout, I.method == ICOUNT_VALGRIND ? 0 : I.f.mem_mb, r->log};
    ngcc_child_run(exec_counted, r, &o, &r->child);
    r->wall_s = ngcc_now() - t0;
    read_log(r);
    if (I.method == ICOUNT_VALGRIND)
        for (int k = 0; k < r->n; k++)
            r->counts[k] = icount_callgrind_dump(r->dumps, k + 1);
    const char *at = r->phase[0] ? r->phase : "the start";
    if (r->child.end == NGCC_CHILD_TIMEDOUT) {
        r->error_verdict = NGCC_TIMEOUT;
        snprintf(r->error, sizeof r->error,
                 "no result after %.0f s (%s); raise the \"timeouts\" {\"icount\": S} "
                 "override",
                 I.f.timeout, at);
    } else if (r->error_verdict >= 0) {
        /* the counted process said what went wrong */
    } else if (r->child.end == NGCC_CHILD_SIGNALED || r->child.code >= 128) {
        r->error_verdict = NGCC_CRASH;
        snprintf(r->error, sizeof r->error, "signal %d while %s; see %.300s",
                 r->child.end == NGCC_CHILD_SIGNALED ? r->child.code : r->child.code - 128, at, r->log);
    } else if (!r->done || r->n != I.records) {
        r->error_verdict = NGCC_ERROR;
        snprintf(r->error, sizeof r->error,
                 "the counted process ended (exit code %d) after %d of %d records "
                 "while %s; see %.300s",
                 r->child.code, r->n, I.records, at, r->log);
    }
    for (int k = 0; r->error_verdict < 0 && k < r->n; k++)
        if (r->counts[k] <= 0) {
            r->error_verdict = NGCC_ERROR;
            snprintf(r->error, sizeof r->error, "no count for record %d (%s%.200s); see %.300s", k,
                     I.method == ICOUNT_VALGRIND ? "callgrind dump " : "perf_event read",
                     I.method == ICOUNT_VALGRIND ? r->dumps : "", r->log);
        }
    if (r->error_verdict >= 0)
        return -1;
    r->median = icount_median(r->counts, r->n);
    return 0;
}

/* ---- judgement ---- */
static void judge(void)
{
    char err[600];
    cJSON *base = NULL;
    if (icount_baseline_load(I.baseline, &base, err, sizeof err)) {
        ngcc_frame_set(&I.f, NGCC_ERROR, "%s", err);
        return;
    }
    icount_baseline_gate(base, I.baseline ? I.baseline : "(no baseline file given)", I.f.name, I.f.op,
                         I.f.build_flagset[0] ? I.f.build_flagset : I.me.flagset, I.method_kind, I.records, I.me.median,
                         I.tolerance, I.refresh, &I.gate);
    cJSON_Delete(base);
    char text[1500];
    int n = snprintf(text, sizeof text, "median %.0f (%s, %d records)", I.me.median, I.method_name, I.records);
    int regression = 0;
    if (I.have_ref) {
        I.ratio = I.me.median / I.ref.median;
        I.ratio_limit = 1 + I.tolerance;
        I.ratio_exceeded = I.ratio > I.ratio_limit;
        regression |= I.ratio_exceeded;
        n += snprintf(text + n, sizeof text - (size_t)n, "; ratio %.4f vs %s (%.0f) %s %.4f", I.ratio, I.ref_name,
                      I.ref.median, I.ratio_exceeded ? ">" : "<=", I.ratio_limit);
    }
    if (I.gate.have) {
        regression |= I.gate.exceeded;
        n += snprintf(text + n, sizeof text - (size_t)n, "; baseline %.0f (%+.2f%%, limit %.0f%s)", I.gate.baseline,
                      100 * I.gate.change, I.gate.limit, I.gate.exceeded ? ", exceeded" : "");
    } else if (I.have_ref) {
        snprintf(text + n, sizeof text - (size_t)n, "; baseline: %s", I.gate.reason);
    }
    if (regression)
        ngcc_frame_set(&I.f, NGCC_REGRESSION, "%s", text);
    else if (I.have_ref || I.gate.have)
        ngcc_frame_set(&I.f, NGCC_PASS, "%s", text);
    else
        ngcc_frame_set(&I.f, NGCC_NOBASELINE, "%s; %s", text, I.gate.reason);
    if (I.kat.timed_anyway)
        snprintf(I.f.detail + strlen(I.f.detail), sizeof I.f.detail - strlen(I.f.detail),
                 "; COUNTED ANYWAY: its KAT verdict is not PASS");
}

static void measure(void)
{
    if (perf_precheck(&I.f, &I.pa, &I.kat))
        return;
    if (I.ref_error) {
        ngcc_frame_set(&I.f, NGCC_ERROR, "%s", I.ref_error);
        return;
    }
    if (choose_method())
        return;
    I.records = I.records_opt ? I.records_opt : I.method == ICOUNT_VALGRIND ? 3 : MAXREC;
    if (I.records > I.kat_records)
        I.records = I.kat_records;
    if (predicted_too_slow())
        return;
    ssize_t n = readlink("/proc/self/exe", I.self, sizeof I.self - 1);
    if (n <= 0) {
        ngcc_frame_set(&I.f, NGCC_ERROR, "cannot find this program's own path: %s", strerror(errno));
        return;
    }
    I.self[n] = 0;
    I.me = (icount_run){.lib = I.f.lib, .name = I.f.name, .tag = ""};
    if (count_library(&I.me)) {
        ngcc_frame_set(&I.f, I.me.error_verdict, "%s", I.me.error);
        return;
    }
    if (I.ref_lib) {
        static char ref_abs[PATH_MAX];
        I.ref =
            (icount_run){.lib = realpath(I.ref_lib, ref_abs) ? ref_abs : I.ref_lib, .name = I.ref_name, .tag = ".ref"};
        if (count_library(&I.ref)) {
            ngcc_frame_set(&I.f, NGCC_ERROR, "the reference %s could not be counted: %s: %s", I.ref_name,
                           ngcc_verdict_name(I.ref.error_verdict), I.ref.error);
            return;
        }
        I.have_ref = 1;
    }
    I.measured = 1;
    judge();
}

/* ---- record ---- */
static cJSON *run_json(const icount_run *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", r->name);
    cJSON_AddStringToObject(o, "library", r->lib);
    char sha[65] = "";
    ngcc_sha256_file(r->lib, sha);
    cJSON_AddStringToObject(o, "library_sha256", sha);
    cJSON *c = cJSON_AddArrayToObject(o, "counts");
    cJSON *t = cJSON_AddArrayToObject(o, "call_seconds");
    for (int k = 0; k < r->n; k++) {
        cJSON_AddItemToArray(c, cJSON_CreateNumber((double)r->counts[k]));
        cJSON_AddItemToArray(t, cJSON_CreateNumber(r->ns[k] / 1e9));
    }
    cJSON_AddNumberToObject(o, "median", r->median);
    cJSON_AddNumberToObject(o, "wall_seconds", r->wall_s);
    cJSON_AddStringToObject(o, "log", r->log);
    return o;
}

static void write_record(void)
{
    cJSON *r = ngcc_frame_record_new(&I.f);
    cJSON_AddStringToObject(r, "library", I.f.lib);
    char sha[65] = "";
    ngcc_sha256_file(I.f.lib, sha);
    cJSON_AddStringToObject(r, "library_sha256", sha);
    cJSON_AddStringToObject(r, "flagset", I.f.build_flagset[0] ? I.f.build_flagset : I.me.flagset);
    cJSON_AddStringToObject(r, "compiler", I.me.compiler);
    cJSON_AddBoolToObject(r, "timed_anyway", I.kat.timed_anyway);
    cJSON_AddStringToObject(r, "kat_verdict", I.kat.kat_verdict);
    cJSON *m = cJSON_AddObjectToObject(r, "method");
    cJSON_AddStringToObject(m, "name", I.method_name);
    cJSON_AddStringToObject(m, "kind", I.method_kind);
    if (I.method == ICOUNT_VALGRIND && I.method_name[0]) {
        cJSON_AddStringToObject(m, "valgrind", I.valgrind);
        cJSON_AddStringToObject(m, "options",
                                "--tool=callgrind --collect-atstart=no --dump-instr=no "
                                "(collection toggled around each API call)");
    }
    cJSON_AddStringToObject(m, "env", "LD_BIND_NOW=1 GLIBC_TUNABLES=" ICOUNT_TUNABLES);
    cJSON_AddStringToObject(m, "prediction", I.prediction);
    cJSON_AddNumberToObject(r, "records", I.records);
    if (I.measured) {
        cJSON *counts = cJSON_AddArrayToObject(r, "counts");
        for (int k = 0; k < I.me.n; k++)
            cJSON_AddItemToArray(counts, cJSON_CreateNumber((double)I.me.counts[k]));
        cJSON_AddNumberToObject(r, "median", I.me.median);
        cJSON_AddNumberToObject(r, "wall_seconds", I.me.wall_s);
        /* the cost of the method: a counted call's wall time over the KAT's native one */
        double call_s = 0;
        for (int k = 0; k < I.me.n; k++)
            call_s += I.me.ns[k] / 1e9 / I.me.n;
        cJSON_AddNumberToObject(r, "call_seconds_mean", call_s);
        cJSON_AddNumberToObject(r, "native_op_seconds", I.native_op_s);
        if (I.native_op_s > 0)
            cJSON_AddNumberToObject(r, "slowdown", call_s / I.native_op_s);
        else
            cJSON_AddNullToObject(r, "slowdown");
        cJSON_AddItemToObject(r, "run", run_json(&I.me));
    } else {
        cJSON_AddArrayToObject(r, "counts");
        cJSON_AddNullToObject(r, "median");
    }
    cJSON *b = cJSON_AddObjectToObject(r, "baseline");
    cJSON_AddStringToObject(b, "file", I.baseline ? I.baseline : "");
    cJSON_AddBoolToObject(b, "have", I.gate.have);
    if (I.gate.have) {
        cJSON_AddNumberToObject(b, "median", I.gate.baseline);
        cJSON_AddNumberToObject(b, "limit", I.gate.limit);
        cJSON_AddNumberToObject(b, "change", I.gate.change);
        cJSON_AddBoolToObject(b, "exceeded", I.gate.exceeded);
    } else {
        cJSON_AddStringToObject(b, "reason", I.gate.reason);
    }
    cJSON_AddNumberToObject(r, "tolerance", I.tolerance);
    if (I.ref_lib || I.ref_error) {
        cJSON *ref = I.have_ref ? run_json(&I.ref) : cJSON_CreateObject();
        if (!I.have_ref)
            cJSON_AddStringToObject(ref, "name", I.ref_name ? I.ref_name : "");
        if (I.have_ref) {
            cJSON_AddNumberToObject(ref, "ratio", I.ratio);
            cJSON_AddNumberToObject(ref, "limit", I.ratio_limit);
            cJSON_AddBoolToObject(ref, "exceeded", I.ratio_exceeded);
        }
        if (I.ref_error)
            cJSON_AddStringToObject(ref, "error", I.ref_error);
        cJSON_AddItemToObject(r, "reference", ref);
    } else {
        cJSON_AddNullToObject(r, "reference");
    }
    ngcc_frame_record_write(&I.f, r, NULL);
    cJSON_Delete(r);
}

static void measurement(const char *name, double v)
{
    printf("<DartMeasurement name=\"%s\" type=\"numeric/double\">%.17g</DartMeasurement>\n", name, v);
}

static void print_measurements(void)
{
    if (!I.measured)
        return;
    printf("<DartMeasurement name=\"icount_method\" type=\"text/string\">%s</DartMeasurement>\n", I.method_name);
    measurement("icount_median", I.me.median);
    if (I.have_ref)
        measurement("icount_ratio", I.ratio);
    if (I.gate.have)
        measurement("icount_baseline", I.gate.baseline);
}

/* ---- CMocka cases: counted; within the reference; within the baseline ---- */
static void case_counted(void **state)
{
    (void)state;
    if (I.f.verdict == NGCC_SKIP)
        skip();
    if (!I.measured)
        fail_msg("%s: %s", ngcc_verdict_name(I.f.verdict), I.f.detail);
}

static void case_reference(void **state)
{
    (void)state;
    if (!I.have_ref)
        skip();
    if (I.ratio_exceeded)
        fail_msg("ratio %.4f vs %s above %.4f", I.ratio, I.ref_name, I.ratio_limit);
}

static void case_baseline(void **state)
{
    (void)state;
    if (!I.gate.have)
        skip();
    if (I.gate.exceeded)
        fail_msg("median %.0f above the baseline %.0f x %.4f", I.me.median, I.gate.baseline, 1 + I.tolerance);
}

static int run_cases(void)
{
    char group[300];
    snprintf(group, sizeof group, "icount/%s/%s", I.f.name, I.f.op);
    const struct CMUnitTest tests[] = {cmocka_unit_test(case_counted), cmocka_unit_test(case_reference),
                                       cmocka_unit_test(case_baseline)};
    return _cmocka_run_group_tests(group, tests, 3, NULL, NULL);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--count"))
            return count_mode(argc, argv);
    int rc = parse(argc, argv);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&I.f)) >= 0) {
        ngcc_frame_free(&I.f);
        return rc;
    }
    measure();
    write_record();
    print_measurements();
    run_cases();
    return ngcc_frame_finish(&I.f);
}
