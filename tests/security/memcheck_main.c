/* ngcc-memcheck: the memcheck test of one instance (CTest label "memcheck").
 * Runs one KAT record of the instance (memcheck_flow.c, in this same
 * executable with --run) under valgrind memcheck with --error-exitcode,
 * --track-origins=yes and the reviewed suppression file, then turns the
 * first error valgrind reports into the verdict (sec_memerr.h), writes
 * <records>/memcheck.json, runs its CMocka cases and prints one verdict line.
 * Exit 0 iff the verdict is the expected one. */
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
#include "ngcc_record.h"
#include "ngcc_util.h"
#include "ngcc_verdict.h"
#include "sec_memerr.h"

#define VG_ERROR_EXIT 99

static struct {
    /* options */
    const char *valgrind, *supp, *lib, *name, *record_out, *build_record, *log;
    int record, expect, run_flow;
    double timeout;
    /* results */
    char self[PATH_MAX];
    ngcc_child_result child;
    sec_memerr err;
    long errors, suppressed;
    char last_step[128], loadfail[512];
    int done;
    cJSON *meta, *steps;
    ngcc_verdict verdict;
    char detail[700];
} M;

static void usage(void)
{
    fprintf(stderr, "usage: ngcc-memcheck --valgrind <path> --suppressions <file> --lib <instance.so>\n"
                    "       --name <cand>/<inst> --record-out <json> --log <file> [--build-record <json>]\n"
                    "       [--record R] [--timeout S] [--expect VERDICT]\n"
                    "       ngcc-memcheck --run --lib <instance.so> [--record R]   (what valgrind runs)\n");
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {
        {"valgrind", 1, 0, 'v'}, {"suppressions", 1, 0, 's'}, {"lib", 1, 0, 'l'}, {"name", 1, 0, 'n'},
        {"record-out", 1, 0, 'o'}, {"build-record", 1, 0, 'b'}, {"log", 1, 0, 'L'}, {"record", 1, 0, 'r'},
        {"timeout", 1, 0, 't'}, {"expect", 1, 0, 'e'}, {"run", 0, 0, 'R'}, {0, 0, 0, 0}};
    int c;
    M.expect = NGCC_PASS;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'v': M.valgrind = optarg; break;
        case 's': M.supp = optarg; break;
        case 'l': M.lib = optarg; break;
        case 'n': M.name = optarg; break;
        case 'o': M.record_out = optarg; break;
        case 'b': M.build_record = optarg; break;
        case 'L': M.log = optarg; break;
        case 'r': M.record = atoi(optarg); break;
        case 't': M.timeout = atof(optarg); break;
        case 'R': M.run_flow = 1; break;
        case 'e':
            if ((M.expect = ngcc_verdict_parse(optarg)) < 0) {
                fprintf(stderr, "ngcc-memcheck: --expect %s: unknown verdict\n", optarg);
                return -1;
            }
            break;
        default: return -1;
        }
    }
    if (M.record < 0 || M.record > 9) {
        fprintf(stderr, "ngcc-memcheck: --record %d: the KAT records are 0..9\n", M.record);
        return -1;
    }
    static char lib_abs[PATH_MAX]; /* valgrind starts in the child's scratch folder */
    if (M.lib && realpath(M.lib, lib_abs))
        M.lib = lib_abs;
    if (M.run_flow)
        return M.lib ? 0 : -1;
    if (!M.valgrind || !M.supp || !M.lib || !M.name || !M.record_out || !M.log) {
        fprintf(stderr, "ngcc-memcheck: --valgrind, --suppressions, --lib, --name, --record-out and --log are "
                        "required\n");
        return -1;
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
    char *argv[] = {(char *)M.valgrind, "--tool=memcheck", errexit, "--track-origins=yes", "--leak-check=no",
                    "--num-callers=20", "--vgdb=no", "--log-fd=2", supp, M.self, "--run", "--lib",
                    (char *)M.lib, "--record", rec, NULL};
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
        M.verdict = NGCC_TIMEOUT;
        snprintf(M.detail, sizeof M.detail, "no result after %.0f s under valgrind (last step: %s); raise the "
                 "\"timeouts\" {\"memcheck\": S} override", M.timeout, at);
    } else if (M.loadfail[0]) {
        M.verdict = NGCC_LOADFAIL;
        snprintf(M.detail, sizeof M.detail, "cannot load the instance library: %s", M.loadfail);
    } else if (M.err.found) {
        M.verdict = M.err.verdict;
        snprintf(M.detail, sizeof M.detail, "%s [%ld error(s)]", M.err.summary, M.errors);
    } else if (M.child.end == NGCC_CHILD_SIGNALED || (M.child.end == NGCC_CHILD_EXITED && M.child.code >= 128)) {
        M.verdict = NGCC_CRASH;
        snprintf(M.detail, sizeof M.detail, "the run ended by a signal (code %d) after step %s; see %s",
                 M.child.code, at, M.log);
    } else if (M.child.code == 127 || M.errors < 0) {
        M.verdict = NGCC_ERROR;
        snprintf(M.detail, sizeof M.detail, "valgrind did not run (%s, exit code %d); see %s", M.valgrind,
                 M.child.code, M.log);
    } else if (M.child.code == VG_ERROR_EXIT || M.errors > 0) {
        M.verdict = NGCC_OVERFLOW;
        snprintf(M.detail, sizeof M.detail, "valgrind reported %ld error(s) of a kind not recognised; see %s",
                 M.errors, M.log);
    } else if (!M.done) {
        M.verdict = NGCC_CRASH;
        snprintf(M.detail, sizeof M.detail, "the instance ended the process (exit code %d) after step %s",
                 M.child.code, at);
    } else {
        M.verdict = NGCC_PASS;
        snprintf(M.detail, sizeof M.detail, "no memory error in KAT record %d (%ld suppressed)", M.record,
                 M.suppressed);
    }
}

static void run_valgrind(void)
{
    ssize_t n = readlink("/proc/self/exe", M.self, sizeof M.self - 1);
    if (n <= 0) {
        M.verdict = NGCC_ERROR;
        snprintf(M.detail, sizeof M.detail, "cannot find this program's own path: %s", strerror(errno));
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

static int build_failed(void)
{
    cJSON *b = M.build_record && access(M.build_record, R_OK) == 0 ? ngcc_record_load(M.build_record) : NULL;
    const cJSON *v = b ? cJSON_GetObjectItem(b, "verdict") : NULL;
    int failed = cJSON_IsString(v) && strcmp(v->valuestring, "BUILDFAIL") == 0;
    if (failed) {
        const cJSON *e = cJSON_GetObjectItem(b, "first_error");
        snprintf(M.detail, sizeof M.detail, "the instance did not compile: %s",
                 cJSON_IsString(e) ? e->valuestring : "(see the build test)");
    }
    cJSON_Delete(b);
    return failed;
}

static void write_record(const char *start)
{
    cJSON *r = ngcc_record_new("memcheck", M.name);
    cJSON_ReplaceItemInObject(r, "start_utc", cJSON_CreateString(start));
    cJSON_AddStringToObject(r, "verdict", ngcc_verdict_name(M.verdict));
    cJSON_AddStringToObject(r, "detail", M.detail);
    cJSON_AddStringToObject(r, "expected", ngcc_verdict_name((ngcc_verdict)M.expect));
    cJSON_AddStringToObject(r, "library", M.lib);
    char sha[65] = "";
    ngcc_sha256_file(M.lib, sha);
    cJSON_AddStringToObject(r, "library_sha256", sha);
    cJSON_AddItemToObject(r, "meta", cJSON_Duplicate(M.meta, 1));
    cJSON_AddNumberToObject(r, "kat_record", M.record);
    cJSON_AddItemToObject(r, "steps", cJSON_Duplicate(M.steps, 1));
    cJSON *v = cJSON_AddObjectToObject(r, "valgrind");
    cJSON_AddStringToObject(v, "path", M.valgrind);
    cJSON_AddStringToObject(v, "suppressions", M.supp);
    cJSON_AddStringToObject(v, "options", "--tool=memcheck --error-exitcode=99 --track-origins=yes "
                                          "--leak-check=no --num-callers=20");
    cJSON_AddNumberToObject(v, "exit_code", M.child.code);
    cJSON_AddNumberToObject(v, "errors", (double)M.errors);
    cJSON_AddNumberToObject(v, "suppressed", (double)M.suppressed);
    cJSON_AddStringToObject(v, "first_error", M.err.found ? M.err.summary : "");
    cJSON_AddStringToObject(v, "report", M.err.report ? M.err.report : "");
    cJSON_AddStringToObject(v, "log", M.log);
    ngcc_record_write(r, M.record_out);
    cJSON_Delete(r);
}

static void case_no_memory_errors(void **state)
{
    (void)state;
    if (M.err.found || M.verdict == NGCC_OVERFLOW)
        fail_msg("%s", M.detail);
}

static void case_run_completed(void **state)
{
    (void)state;
    if (M.verdict != NGCC_PASS && !M.err.found)
        fail_msg("%s: %s", ngcc_verdict_name(M.verdict), M.detail);
}

int main(int argc, char **argv)
{
    if (parse(argc, argv)) {
        usage();
        return 2;
    }
    if (M.run_flow)
        return memcheck_flow(M.lib, M.record);
    char start[32];
    ngcc_utc_now(start);
    M.meta = cJSON_CreateObject();
    M.steps = cJSON_CreateArray();
    if (build_failed()) {
        M.verdict = NGCC_BUILDFAIL;
    } else if (access(M.lib, R_OK) != 0) {
        M.verdict = NGCC_LOADFAIL;
        snprintf(M.detail, sizeof M.detail, "%s: %s; run its build test first (ctest -L build)", M.lib,
                 strerror(errno));
    } else {
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
    printf("ngcc: verdict memcheck %s: %s: %s\n", M.name, ngcc_verdict_name(M.verdict), M.detail);
    if (M.expect != NGCC_PASS)
        printf("ngcc: expected %s, got %s: %s\n", ngcc_verdict_name((ngcc_verdict)M.expect),
               ngcc_verdict_name(M.verdict), (int)M.verdict == M.expect ? "as expected" : "UNEXPECTED");
    sec_memerr_free(&M.err);
    cJSON_Delete(M.meta);
    cJSON_Delete(M.steps);
    return (int)M.verdict == M.expect ? 0 : 1;
}
