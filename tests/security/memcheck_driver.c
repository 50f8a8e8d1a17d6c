/* ngcc-memcheck: the memcheck test of one instance (CTest label "memcheck").
 * Runs one KAT record of the instance and one case of every negative class
 * of verify/dec (memcheck_flow.c, in this same
 * executable with --run) under valgrind memcheck with --error-exitcode,
 * --track-origins=yes and the reviewed suppression file, then turns the
 * first error valgrind reports into the verdict (sec_memerr.h), writes
 * <records>/memcheck.json, runs its CMocka cases and prints one verdict line.
 * Exit 0 iff the verdict is the expected one. Options, build check, resume,
 * verdict line and exit code are the driver frame's (ngcc_frame.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "memcheck_flow.h"
#include "ngcc_child.h"
#include "ngcc_counter.h"
#include "ngcc_frame.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_util.h"
#include "ngcc_verdict.h"
#include "sec_memerr.h"

#define VG_ERROR_EXIT 99

static struct {
    /* options: the frame's (lib, name, log, timeout, ...) and memcheck's own */
    ngcc_frame f;
    const char *valgrind, *supp, *lib, *name, *log, *kat_record;
    int record;
    double timeout, slowdown;
    char prediction[512]; /* how the run's cost was predicted (recorded) */
    /* results */
    char self[PATH_MAX];
    ngcc_child_result child;
    sec_memerr err;
    long errors, suppressed;
    char last_step[128], loadfail[512];
    int done;
    cJSON *meta, *steps;
} M;

static const char usage[] =
    "usage: ngcc-memcheck --valgrind <path> --suppressions <file> --lib <instance.so>\n"
    "       --name <cand>/<inst> --record-out <json> --log <file> [--build-record <json>]\n"
    "       [--record R] [--timeout S] [--expect VERDICT] [--kat-record <kat.json> [--slowdown 50]]\n"
    "       ngcc-memcheck --run --lib <instance.so> [--record R]   (what valgrind runs)\n";

static int record_number(const char *prog, const char *v, int *out)
{
    char *end;
    long r = strtol(v, &end, 10);
    if (end == v || *end || r < 0 || r > 9) {
        fprintf(stderr, "%s: --record %s: the KAT records are 0..9\n", prog, v);
        return -1;
    }
    *out = (int)r;
    return 0;
}

static int own_option(ngcc_frame *f, int c, const char *v)
{
    (void)f;
    switch (c) {
    case 'v':
        M.valgrind = v;
        return 0;
    case 's':
        M.supp = v;
        return 0;
    case 'r':
        return record_number("ngcc-memcheck", v, &M.record);
    case 'k':
        M.kat_record = v;
        return 0;
    case 'w':
        return ngcc_frame_number(f, "slowdown", v, 1, 1e4, &M.slowdown);
    }
    return -1;
}

/* "--run --lib <so> [--record R]": the flow valgrind runs (not a driver) */
static int is_flow(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--run") == 0)
            return 1;
    return 0;
}

static int run_flow(int argc, char **argv)
{
    static const struct option lo[] = {{"run", 0, 0, 'R'}, {"lib", 1, 0, 'l'}, {"record", 1, 0, 'r'}, {0, 0, 0, 0}};
    const char *lib = NULL;
    int c, record = 0;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'l')
            lib = optarg;
        else if (c == 'r' && record_number("ngcc-memcheck --run", optarg, &record) == 0)
            continue;
        else if (c != 'R')
            return 2;
    }
    return lib ? memcheck_flow(lib, record) : 2;
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {{"valgrind", 1, 0, 'v'},   {"suppressions", 1, 0, 's'}, {"record", 1, 0, 'r'},
                                       {"kat-record", 1, 0, 'k'}, {"slowdown", 1, 0, 'w'},     {0, 0, 0, 0}};
    static const ngcc_frame_spec spec = {"memcheck", "ngcc-memcheck", usage, lo, own_option, 0, NULL};
    M.slowdown = 50;
    int rc = ngcc_frame_parse(&M.f, &spec, argc, argv);
    if (rc)
        return rc;
    static char lib_abs[PATH_MAX]; /* valgrind starts in the child's scratch folder */
    M.lib = realpath(M.f.lib, lib_abs) ? lib_abs : M.f.lib;
    M.name = M.f.name;
    M.log = M.f.log;
    M.timeout = M.f.timeout;
    if (!M.valgrind || !M.supp || !M.log) {
        fprintf(stderr, "ngcc-memcheck: --valgrind, --suppressions and --log are required\n%s", usage);
        ngcc_frame_free(&M.f);
        return 2;
    }
    /* the verdict also depends on the suppressions and on valgrind itself */
    ngcc_inputs_add_file(M.f.inputs, "suppressions_sha256", M.supp);
    ngcc_inputs_add_file(M.f.inputs, "valgrind_sha256", M.valgrind);
    /* the run-or-SKIP prediction reads the KAT's op_seconds (not its timestamps) */
    if (M.kat_record) {
        cJSON *k = access(M.kat_record, R_OK) == 0 ? ngcc_record_load(M.kat_record) : NULL;
        ngcc_inputs_add_member(M.f.inputs, "kat_op_seconds_sha256", k, "op_seconds");
        cJSON_Delete(k);
    }
    return 0;
}

/* in the sandboxed child: becomes valgrind running this program's flow */
static int exec_valgrind(void *arg, int unused_fd)
{
    (void)arg;
    (void)unused_fd;
    char supp[PATH_MAX + 32], rec[16];
    snprintf(supp, sizeof supp, "--suppressions=%s", M.supp);
    snprintf(rec, sizeof rec, "%d", M.record);
    char errexit[32];
    snprintf(errexit, sizeof errexit, "--error-exitcode=%d", VG_ERROR_EXIT);
    char *argv[] = {(char *)M.valgrind,
                    "--tool=memcheck",
                    errexit,
                    "--track-origins=yes",
                    "--leak-check=no",
                    "--num-callers=20",
                    "--vgdb=no",
                    "--log-fd=2",
                    supp,
                    M.self,
                    "--run",
                    "--lib",
                    (char *)M.lib,
                    "--record",
                    rec,
                    NULL};
    execv(M.valgrind, argv);
    fprintf(stderr, "ngcc-memcheck: cannot run %s: %s\n", M.valgrind, strerror(errno));
    return 127;
}

/* the flow's own lines and valgrind's error summary, from the log */
static void read_log(void)
{
    size_t len;
    char *text = ngcc_read_file(M.log, &len);
    M.errors = M.suppressed = -1;
    for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
        nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        char *sum = strstr(l, "ERROR SUMMARY: ");
        if (sum)
            sscanf(sum, "ERROR SUMMARY: %ld errors from %*d contexts (suppressed: %ld", &M.errors, &M.suppressed);
        if (!strncmp(l, "#STEP ", 6)) {
            snprintf(M.last_step, sizeof M.last_step, "%s", l + 6);
            cJSON_AddItemToArray(M.steps, cJSON_CreateString(l + 6));
        } else if (!strncmp(l, "#META ", 6) && strchr(l + 6, ' ')) {
            char *v = strchr(l + 6, ' ');
            *v = 0;
            cJSON_AddStringToObject(M.meta, l + 6, v + 1);
        } else if (!strncmp(l, "#LOADFAIL ", 10)) {
            snprintf(M.loadfail, sizeof M.loadfail, "%s", l + 10);
        } else if (!strcmp(l, "#DONE")) {
            M.done = 1;
        }
    }
    free(text);
}

static void judge(void)
{
    const char *at = M.last_step[0] ? M.last_step : "the start";
    if (M.child.end == NGCC_CHILD_TIMEDOUT) {
        M.f.verdict = NGCC_TIMEOUT;
        snprintf(M.f.detail, sizeof M.f.detail,
                 "no result after %.0f s under valgrind (last step: %s); raise the "
                 "\"timeouts\" {\"memcheck\": S} override",
                 M.timeout, at);
    } else if (M.loadfail[0]) {
        M.f.verdict = NGCC_LOADFAIL;
        snprintf(M.f.detail, sizeof M.f.detail, "cannot load the instance library: %s", M.loadfail);
    } else if (M.err.found) {
        M.f.verdict = M.err.verdict;
        if (M.err.context[0]) /* on a reject path: named with its negative case */
            snprintf(M.f.detail, sizeof M.f.detail, "%s [%ld error(s)]; in the negative case %s", M.err.summary,
                     M.errors, M.err.context);
        else
            snprintf(M.f.detail, sizeof M.f.detail, "%s [%ld error(s)]", M.err.summary, M.errors);
    } else if (M.child.end == NGCC_CHILD_SIGNALED || (M.child.end == NGCC_CHILD_EXITED && M.child.code >= 128)) {
        int sig = M.child.end == NGCC_CHILD_SIGNALED ? M.child.code : M.child.code - 128;
        M.f.verdict = NGCC_CRASH;
        snprintf(M.f.detail, sizeof M.f.detail, "the instance died of signal %d (%s) %s%s (under valgrind); see %s",
                 sig, strsignal(sig), M.last_step[0] ? "after the step " : "in the first API call",
                 M.last_step[0] ? M.last_step : "", M.log);
    } else if (M.child.code == 127 || M.errors < 0) {
        M.f.verdict = NGCC_ERROR;
        snprintf(M.f.detail, sizeof M.f.detail, "valgrind did not run (%s, exit code %d); see %s", M.valgrind,
                 M.child.code, M.log);
    } else if (M.child.code == VG_ERROR_EXIT || M.errors > 0) {
        M.f.verdict = NGCC_OVERFLOW;
        snprintf(M.f.detail, sizeof M.f.detail, "valgrind reported %ld error(s) of a kind not recognised; see %s",
                 M.errors, M.log);
    } else if (!M.done) {
        M.f.verdict = NGCC_CRASH;
        snprintf(M.f.detail, sizeof M.f.detail, "the instance ended the process (exit code %d) %s%s", M.child.code,
                 M.last_step[0] ? "after the step " : "in the first API call", M.last_step[0] ? M.last_step : "");
    } else {
        M.f.verdict = NGCC_PASS;
        snprintf(M.f.detail, sizeof M.f.detail,
                 "no memory error in KAT record %d and its negative cases (one per class; %ld suppressed)", M.record,
                 M.suppressed);
    }
}

/* Whether one KAT record can finish under memcheck within the timeout,
 * predicted from the KAT test's measured operation times (kat.json
 * "op_seconds": one record is one call of each operation) times memcheck's
 * slowdown. A run that cannot finish is not started: SKIP naming the
 * prediction and the override that allows it (a 20-s keygen would otherwise
 * hold a core for the whole timeout and end as TIMEOUT). Without the KAT
 * figures the run goes ahead, and the record says so. Returns 1 to skip. */
static int predicted_too_slow(void)
{
    if (!M.kat_record) {
        snprintf(M.prediction, sizeof M.prediction, "no KAT record given: not predicted");
        return 0;
    }
    cJSON *k = ngcc_record_load(M.kat_record);
    const cJSON *ops = k ? cJSON_GetObjectItem(k, "op_seconds") : NULL;
    double native = 0;
    int n = 0;
    for (const cJSON *o = ops ? ops->child : NULL; o; o = o->next) {
        const cJSON *med = cJSON_GetObjectItem(o, "median");
        if (cJSON_IsNumber(med)) {
            /* verify/dec also runs once per negative class (memcheck_flow.h) */
            int calls = o->string && (!strcmp(o->string, "verify") || !strcmp(o->string, "dec"))
                            ? 1 + MEMCHECK_NEGATIVE_CASES
                            : 1;
            if (o->string && (!strncmp(o->string, "pass", 4) || !strncmp(o->string, "derive", 6)))
                calls = 1 + MEMCHECK_KEX_NEGATIVE_CASES; /* memcheck_flow_kex_hash.c */
            native += calls * med->valuedouble;
            n++;
        }
    }
    cJSON_Delete(k);
    if (n == 0) {
        snprintf(M.prediction, sizeof M.prediction, "%s has no op_seconds: not predicted", M.kat_record);
        return 0;
    }
    double predicted = native * M.slowdown;
    snprintf(M.prediction, sizeof M.prediction,
             "one KAT record and its %d negative cases take ~%.3g s natively (%s op_seconds medians), ~%.3g s "
             "predicted under memcheck (x%g)",
             MEMCHECK_NEGATIVE_CASES, native, M.kat_record, predicted, M.slowdown);
    if (M.timeout <= 0 || predicted <= 0.8 * M.timeout)
        return 0;
    ngcc_frame_set(&M.f, NGCC_SKIP,
                   "not run: %s > 80%% of the timeout %.0f s; give it a \"timeouts\" {\"memcheck\": S} "
                   "override of at least %.0f s to run it",
                   M.prediction, M.timeout, predicted * 1.5);
    return 1;
}

static void run_valgrind(void)
{
    ssize_t n = readlink("/proc/self/exe", M.self, sizeof M.self - 1);
    if (n <= 0) {
        M.f.verdict = NGCC_ERROR;
        snprintf(M.f.detail, sizeof M.f.detail, "cannot find this program's own path: %s", strerror(errno));
        return;
    }
    M.self[n] = 0;
    /* no address-space limit: valgrind needs a large one of its own */
    ngcc_child_opts o = {M.timeout, 0, M.log};
    ngcc_child_run(exec_valgrind, NULL, &o, &M.child);
    read_log();
    sec_memerr_valgrind(M.log, &M.err);
    judge();
}

static void write_record(const char *start)
{
    cJSON *r = ngcc_frame_record_new(&M.f);
    cJSON_ReplaceItemInObject(r, "start_utc", cJSON_CreateString(start));
    cJSON_AddStringToObject(r, "library", M.lib);
    char sha[65] = "";
    ngcc_sha256_file(M.lib, sha);
    cJSON_AddStringToObject(r, "library_sha256", sha);
    cJSON_AddItemToObject(r, "meta", cJSON_Duplicate(M.meta, 1));
    cJSON_AddNumberToObject(r, "kat_record", M.record);
    cJSON_AddStringToObject(r, "prediction", M.prediction);
    cJSON_AddItemToObject(r, "steps", cJSON_Duplicate(M.steps, 1));
    cJSON *v = cJSON_AddObjectToObject(r, "valgrind");
    cJSON_AddStringToObject(v, "path", M.valgrind);
    cJSON_AddStringToObject(v, "suppressions", M.supp);
    cJSON_AddStringToObject(v, "options",
                            "--tool=memcheck --error-exitcode=99 --track-origins=yes "
                            "--leak-check=no --num-callers=20");
    cJSON_AddNumberToObject(v, "exit_code", M.child.code);
    cJSON_AddNumberToObject(v, "errors", (double)M.errors);
    cJSON_AddNumberToObject(v, "suppressed", (double)M.suppressed);
    cJSON_AddStringToObject(v, "first_error", M.err.found ? M.err.summary : "");
    cJSON_AddStringToObject(v, "report", M.err.report ? M.err.report : "");
    cJSON_AddStringToObject(v, "log", M.log);
    ngcc_frame_record_write(&M.f, r, NULL);
    cJSON_Delete(r);
}

static void case_no_memory_errors(void **state)
{
    (void)state;
    if (M.f.verdict == NGCC_SKIP)
        skip();
    if (M.err.found || M.f.verdict == NGCC_OVERFLOW)
        fail_msg("%s", M.f.detail);
}

static void case_run_completed(void **state)
{
    (void)state;
    if (M.f.verdict == NGCC_SKIP)
        skip();
    if (M.f.verdict != NGCC_PASS && !M.err.found)
        fail_msg("%s: %s", ngcc_verdict_name(M.f.verdict), M.f.detail);
}

int main(int argc, char **argv)
{
    if (is_flow(argc, argv))
        return run_flow(argc, argv);
    int rc = parse(argc, argv);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&M.f)) >= 0) {
        ngcc_frame_free(&M.f);
        return rc;
    }
    char start[32];
    ngcc_utc_now(start);
    M.meta = cJSON_CreateObject();
    M.steps = cJSON_CreateArray();
    char ewhy[256];
    const char *emu = ngcc_emulated(ewhy, sizeof ewhy);
    if (!ngcc_frame_check_build(&M.f)) {
        if (emu) /* the valgrind found here is a host program: under qemu-user
                  * it would check the emulator, not the guest's accesses */
            ngcc_frame_set(&M.f, NGCC_SKIP,
                           "not run: emulated (%s: %s): valgrind cannot check code run by user-mode emulation", emu,
                           ewhy);
        else if (!predicted_too_slow())
            run_valgrind();
    }
    if (M.err.report)
        printf("---- first valgrind error ----\n%s---- end of valgrind error (whole log: %s) ----\n", M.err.report,
               M.log);
    write_record(start);
    const struct CMUnitTest tests[] = {cmocka_unit_test(case_no_memory_errors), cmocka_unit_test(case_run_completed)};
    char group[300];
    snprintf(group, sizeof group, "memcheck %s", M.name);
    _cmocka_run_group_tests(group, tests, 2, NULL, NULL);
    sec_memerr_free(&M.err);
    cJSON_Delete(M.meta);
    cJSON_Delete(M.steps);
    return ngcc_frame_finish(&M.f);
}
