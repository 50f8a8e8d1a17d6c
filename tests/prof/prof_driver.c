/* ngcc-prof: the prof test of one instance and one operation (CTest label
 * "prof"). Replays the KAT flow on the prof library (wrapped ICCS symbols)
 * and on the plain library in a child process, counts the ICCS hash and DRNG
 * calls of the operation per KAT record, computes time shares and the
 * wrapper overhead, scans the objects for calls the wrapping cannot see,
 * compares the counts with the candidate's expectation file, writes one JSON
 * record (prof-<op>.json), runs a CMocka group over the records, prints CDash
 * measurements and one verdict line. Exit 0 iff the verdict is the expected
 * one (a missing expectation counts as PASS: only measurement errors fail). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_util.h"
#include "prof_driver.h"
#include "prof_run.h"

prof_state P;

static void usage(void)
{
    fprintf(stderr,
            "usage: ngcc-prof --lib <libngcc_prof.so> --op <keygen|sign|verify|enc|dec> --name <cand>/<key>\n"
            "       --record-out <prof-op.json> [--plain-lib <libngcc_plain.so>] [--instance <expectation key>]\n"
            "       [--expectations <file>]... [--build-record <build-prof.json>]\n"
            "       [--objects-root <instance root> | --objects-dir <folder of the objects>]\n"
            "       [--objdump <path>] [--records N] [--min-reps R] [--max-reps R] [--time-budget S]\n"
            "       [--timeout S] [--mem-limit-mb M]\n"
            "       [--log <path>] [--expect VERDICT]\n");
}

/* ---- reading the child's lines ---- */

static void on_line(char *line)
{
    char *sp = strchr(line, ' ');
    char *rest = sp ? sp + 1 : line + strlen(line);
    if (sp)
        *sp = 0;
    if (!strcmp(line, "LOADFAIL")) {
        P.loadfail = 1;
        snprintf(P.loadfail_msg, sizeof P.loadfail_msg, "%s", rest);
    } else if (!strcmp(line, "BADOP")) {
        snprintf(P.badop, sizeof P.badop, "%s", rest);
    } else if (!strcmp(line, "META")) {
        cJSON_Delete(P.meta);
        P.meta = cJSON_Parse(rest);
    } else if (!strcmp(line, "CALIB")) {
        cJSON *c = cJSON_Parse(rest);
        P.cal.inside = cJSON_GetNumberValue(cJSON_GetObjectItem(c, "inside"));
        P.cal.total = cJSON_GetNumberValue(cJSON_GetObjectItem(c, "total"));
        cJSON_Delete(c);
    } else if (!strcmp(line, "BEGIN")) {
        P.cur = atoi(rest);
    } else if (!strcmp(line, "REC") && P.nrecs < MAX_RECORDS) {
        cJSON *r = cJSON_Parse(rest);
        if (r)
            P.recs[P.nrecs++] = r;
    } else if (!strcmp(line, "DONE")) {
        cJSON *d = cJSON_Parse(rest);
        P.run_ticks = cJSON_GetNumberValue(cJSON_GetObjectItem(d, "ticks"));
        P.run_ns = cJSON_GetNumberValue(cJSON_GetObjectItem(d, "ns"));
        cJSON_Delete(d);
        P.done = 1;
    }
}

/* reads lines until EOF or the deadline; returns 1 on timeout */
static int read_lines(int rfd, double deadline)
{
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    int timed_out = 0;
    for (;;) {
        int wait_ms = -1;
        if (deadline > 0) {
            double left = deadline - ngcc_now();
            if (left <= 0) {
                timed_out = 1;
                break;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd pfd = {rfd, POLLIN, 0};
        int pr = poll(&pfd, 1, wait_ms);
        if (pr <= 0)
            continue; /* EINTR or deadline: re-checked above */
        if (used + 1 >= cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(rfd, buf + used, cap - used - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
        size_t start = 0;
        char *nl;
        while ((nl = memchr(buf + start, '\n', used - start)) != NULL) {
            *nl = 0;
            on_line(buf + start);
            start = (size_t)(nl - buf) + 1;
        }
        memmove(buf, buf + start, used - start);
        used -= start;
    }
    free(buf);
    return timed_out;
}

static void run_child(void)
{
    double budget = P.timeout > 0 && P.budget > P.timeout / 2 ? P.timeout / 2 : P.budget;
    prof_run_args args = {P.lib, P.plain_lib, P.op, P.records, P.min_reps, P.max_reps, budget, 5000};
    ngcc_child_opts opts = {.timeout_s = P.timeout, .mem_limit_mb = P.mem_mb, .log_path = P.log_path};
    int rfd = -1;
    P.cur = -1;
    double deadline = P.timeout > 0 ? ngcc_now() + P.timeout : 0;
    pid_t pid = ngcc_child_start(prof_run_child, &args, &opts, &rfd);
    if (pid < 0) {
        P.verdict = NGCC_ERROR;
        snprintf(P.detail, sizeof P.detail, "cannot fork: %s", strerror(errno));
        return;
    }
    int timed_out = read_lines(rfd, deadline);
    close(rfd);
    ngcc_child_wait(pid, timed_out ? ngcc_now() : 0, &P.child);
    if (timed_out)
        P.child.end = NGCC_CHILD_TIMEDOUT;
}

/* ---- inputs besides the child: build record, objects, expectation ---- */

static int build_failed(void)
{
    if (!P.build_record || access(P.build_record, R_OK) != 0)
        return 0;
    cJSON *b = ngcc_record_load(P.build_record);
    if (!b)
        return 0;
    const cJSON *v = cJSON_GetObjectItem(b, "verdict");
    const cJSON *fs = cJSON_GetObjectItem(b, "flagset");
    if (cJSON_IsString(fs))
        snprintf(P.flagset, sizeof P.flagset, "%s", fs->valuestring);
    int failed = cJSON_IsString(v) && strcmp(v->valuestring, "BUILDFAIL") == 0;
    if (failed) {
        const cJSON *e = cJSON_GetObjectItem(b, "first_error");
        snprintf(P.detail, sizeof P.detail, "the prof variant did not compile: %s",
                 cJSON_IsString(e) ? e->valuestring : "(see the build test)");
    }
    cJSON_Delete(b);
    return failed;
}

const char *prof_meta_str(const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(P.meta, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static void scan_objects(void)
{
    if (P.objects_dir)
        snprintf(P.scan_dir, sizeof P.scan_dir, "%s", P.objects_dir);
    else if (P.objects_root && P.flagset[0])
        snprintf(P.scan_dir, sizeof P.scan_dir, "%s/prof-%s/CMakeFiles", P.objects_root, P.flagset);
    if (!P.scan_dir[0]) {
        snprintf(P.scan.error, sizeof P.scan.error, "no --objects-root or no flag set in the build record");
        P.scan.may_miss = 1;
        snprintf(P.scan.reasons[P.scan.nreasons++], sizeof P.scan.reasons[0], "object scan not run: %.250s",
                 P.scan.error);
        return;
    }
    char **objs = NULL;
    int n = prof_scan_collect(P.scan_dir, &objs);
    if (n < 0) {
        memset(&P.scan, 0, sizeof P.scan);
        snprintf(P.scan.error, sizeof P.scan.error, "%.200s: cannot read the build tree", P.scan_dir);
        P.scan.may_miss = 1;
        snprintf(P.scan.reasons[P.scan.nreasons++], sizeof P.scan.reasons[0], "object scan failed: %.250s",
                 P.scan.error);
        return;
    }
    prof_scan_objects(P.objdump, objs, n, prof_meta_str("flags"), &P.scan);
    prof_scan_free(objs, n);
}

static void load_expectation(char *err, size_t el)
{
    P.expect_root = prof_expect_load(P.expect_files, P.nexpect_files, &P.expect_used, err, el);
    if (P.expect_root)
        P.expected = prof_expect_entry(P.expect_root, P.instance, P.op);
}

/* ---- judging ---- */

static int set_verdict(ngcc_verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P.detail, sizeof P.detail, fmt, ap);
    va_end(ap);
    P.verdict = v;
    return 1;
}

const char *prof_rec_str(const cJSON *r, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(r, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* verdicts from the run itself; 1 if one was set */
static int judge_run(void)
{
    if (P.loadfail)
        return set_verdict(NGCC_LOADFAIL, "cannot load the instance library: %s", P.loadfail_msg);
    if (P.badop[0])
        return set_verdict(NGCC_ERROR, "%s", P.badop);
    int complete = P.nrecs;
    if (P.child.memlimit && (P.child.end != NGCC_CHILD_EXITED || !P.done)) {
        return set_verdict(NGCC_MEMLIMIT, "an allocation failed under the %lu MB limit (largest failed request "
                           "%llu bytes) in record %d (%d of %d records complete); raise \"memory_limit_mb\"",
                           P.child.mem_limit_mb, P.child.alloc_fail_bytes, P.cur < 0 ? 0 : P.cur, complete,
                           P.records);
    }
    if (P.child.end == NGCC_CHILD_TIMEDOUT)
        return set_verdict(NGCC_TIMEOUT, "no result after %.0f s, in record %d (%d of %d records complete); raise "
                           "the \"timeouts\" {\"prof\": S} override or reduce \"kat_records\"",
                           P.timeout, P.cur < 0 ? 0 : P.cur, complete, P.records);
    if (P.child.end == NGCC_CHILD_SIGNALED)
        return set_verdict(NGCC_CRASH, "killed by signal %d (%s) in record %d (%d of %d records complete)",
                           P.child.code, strsignal(P.child.code), P.cur < 0 ? 0 : P.cur, complete, P.records);
    if (!P.done)
        return set_verdict(NGCC_CRASH, "the instance ended the process (exit code %d) in record %d (%d of %d "
                           "records complete)", P.child.code, P.cur < 0 ? 0 : P.cur, complete, P.records);
    for (int r = 0; r < P.nrecs; r++)
        if (prof_rec_str(P.recs[r], "failure")[0])
            return set_verdict(NGCC_CRYPTOFAIL, "record %d: %s (the counts of a failing operation are "
                               "recorded but not a valid profile)", r, prof_rec_str(P.recs[r], "failure"));
    for (int r = 0; r < P.nrecs; r++)
        if (!cJSON_IsTrue(cJSON_GetObjectItem(P.recs[r], "deterministic")))
            return set_verdict(NGCC_ERROR, "record %d: the counts differ between two runs of the same record "
                               "(%s): the operation is not deterministic for a given seed, so its counts "
                               "cannot be gated", r, prof_rec_str(P.recs[r], "nondeterminism"));
    for (int r = 0; r < P.nrecs; r++)
        if (cJSON_IsFalse(cJSON_GetObjectItem(P.recs[r], "same_output_as_plain")))
            return set_verdict(NGCC_ERROR, "record %d: the prof library's output differs from the plain "
                               "library's for the same seed: the wrapped build does different work", r);
    return 0;
}

static void judge_counts(void)
{
    char err[600];
    load_expectation(err, sizeof err);
    if (err[0]) {
        set_verdict(NGCC_ERROR, "%s", err);
        return;
    }
    if (!P.expected) {
        set_verdict(NGCC_NOKAT, "no expectation for %s %s in %s: the counts are not gated (write one with "
                    "ngcc-prof-expect)", P.instance, P.op,
                    P.expect_used ? P.expect_used : (P.nexpect_files ? P.expect_files[0] : "(no --expectations)"));
        return;
    }
    const cJSON *gate = cJSON_GetObjectItem(P.out, "gate");
    int d = prof_expect_compare(P.expected, gate, P.op, &P.diff, err, sizeof err);
    P.compared = d >= 0;
    if (d < 0)
        set_verdict(NGCC_ERROR, "%s: %s", P.expect_used, err);
    else if (d > 0)
        set_verdict(NGCC_MISMATCH, "%d (record, symbol) call counts differ from %s; first: %s", d, P.expect_used,
                    P.diff.nlines ? P.diff.lines[0] : "");
    else
        set_verdict(NGCC_PASS, "the call counts of %d records equal %s%s%s", P.diff.compared_records,
                    P.expect_used, P.diff.note[0] ? "; " : "", P.diff.note);
}

/* ---- main ---- */

static int parse_args(int argc, char **argv)
{
    static const struct option lo[] = {
        {"lib", 1, 0, 'l'}, {"plain-lib", 1, 0, 'p'}, {"name", 1, 0, 'n'}, {"instance", 1, 0, 'i'},
        {"op", 1, 0, 'O'}, {"record-out", 1, 0, 'o'}, {"build-record", 1, 0, 'b'},
        {"objects-root", 1, 0, 'B'}, {"objects-dir", 1, 0, 'd'}, {"objdump", 1, 0, 'D'},
        {"expectations", 1, 0, 'x'},
        {"records", 1, 0, 'N'}, {"min-reps", 1, 0, 'r'}, {"max-reps", 1, 0, 'R'}, {"time-budget", 1, 0, 'T'},
        {"timeout", 1, 0, 't'}, {"mem-limit-mb", 1, 0, 'M'},
        {"log", 1, 0, 'L'}, {"expect", 1, 0, 'e'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'l': P.lib = optarg; break;
        case 'p': P.plain_lib = optarg[0] ? optarg : NULL; break;
        case 'n': P.name = optarg; break;
        case 'i': P.instance = optarg; break;
        case 'O': P.op = optarg; break;
        case 'o': P.record_out = optarg; break;
        case 'b': P.build_record = optarg; break;
        case 'B': P.objects_root = optarg; break;
        case 'd': P.objects_dir = optarg; break;
        case 'D': P.objdump = optarg; break;
        case 'x':
            if (P.nexpect_files < MAX_EXPECT_FILES)
                P.expect_files[P.nexpect_files++] = optarg;
            break;
        case 'N': P.records = atoi(optarg); break;
        case 'r': P.min_reps = atoi(optarg); break;
        case 'R': P.max_reps = atoi(optarg); break;
        case 'T': P.budget = atof(optarg); break;
        case 't': P.timeout = atof(optarg); break;
        case 'M': P.mem_mb = strtoul(optarg, NULL, 10); break;
        case 'L': P.log_path = optarg; break;
        case 'e':
            P.expect = ngcc_verdict_parse(optarg);
            if (P.expect < 0) {
                fprintf(stderr, "ngcc-prof: --expect %s: unknown verdict\n", optarg);
                return -1;
            }
            break;
        default: return -1;
        }
    }
    static const char *const ops[] = {"keygen", "sign", "verify", "enc", "dec"};
    int op_ok = 0;
    for (int i = 0; P.op && i < 5; i++)
        op_ok |= strcmp(P.op, ops[i]) == 0;
    if (!P.lib || !P.name || !P.record_out || !op_ok || P.records < 1 || P.records > MAX_RECORDS || P.min_reps < 2 ||
        P.max_reps < P.min_reps) {
        if (P.op && !op_ok)
            fprintf(stderr, "ngcc-prof: --op %s: not an operation (keygen, sign, verify, enc, dec)\n", P.op);
        return -1;
    }
    if (!P.instance) {
        const char *slash = strchr(P.name, '/');
        P.instance = slash ? slash + 1 : P.name;
    }
    return 0;
}

int main(int argc, char **argv)
{
    P.records = 10;
    P.min_reps = 2;
    P.max_reps = 9;
    P.budget = 3;
    P.expect = NGCC_PASS;
    P.objdump = "objdump";
    if (parse_args(argc, argv)) {
        usage();
        return 2;
    }
    if (build_failed()) {
        P.verdict = NGCC_BUILDFAIL;
    } else if (access(P.lib, R_OK) != 0) {
        set_verdict(NGCC_LOADFAIL, "%s: %s; run its build test first (ctest -L build)", P.lib, strerror(errno));
    } else {
        run_child();
        if (P.verdict != NGCC_ERROR)
            judge_run();
    }
    ngcc_child_show_log(P.log_path, 4096);
    if (P.verdict != NGCC_BUILDFAIL)
        scan_objects();
    prof_build_record();
    if (P.verdict == NGCC_PASS) {
        judge_counts();
    } else if (P.nrecs > 0) { /* differences still shown, for information */
        char err[600] = "";
        load_expectation(err, sizeof err);
        if (P.expected)
            P.compared = prof_expect_compare(P.expected, cJSON_GetObjectItem(P.out, "gate"), P.op, &P.diff, err,
                                             sizeof err) >= 0;
    }
    prof_finish_record();
    prof_print_figures();
    prof_run_cases();
    printf("ngcc: verdict prof %s/%s: %s: %s\n", P.name, P.op, ngcc_verdict_name(P.verdict), P.detail);
    int ok = (int)P.verdict == P.expect || (P.verdict == NGCC_NOKAT && P.expect == NGCC_PASS);
    if (P.expect != NGCC_PASS)
        printf("ngcc: expected %s, got %s: %s\n", ngcc_verdict_name(P.expect), ngcc_verdict_name(P.verdict),
               ok ? "as expected" : "UNEXPECTED");
    return ok ? 0 : 1;
}
