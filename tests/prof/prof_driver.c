/* ngcc-prof: the prof test of one instance and one operation (CTest label
 * "prof"). Replays the KAT flow on the prof library (wrapped ICCS symbols)
 * and on the plain library in a child process, counts the ICCS hash and DRNG
 * calls of the operation per KAT record, computes time shares and the
 * wrapper overhead, scans the objects for calls the wrapping cannot see,
 * compares the counts with the candidate's expectation file, writes one JSON
 * record (prof-<op>.json), runs a CMocka group over the records, prints CDash
 * measurements and one verdict line. Exit 0 iff the verdict is the expected
 * one; without an expectation the verdict is RECORDED, which meets an expected
 * PASS (the counts are recorded, not gated). Options, build check, resume,
 * verdict line and exit code are the driver frame's (ngcc_frame.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_util.h"
#include "prof_driver.h"
#include "prof_plan.h"
#include "prof_run.h"

prof_state P;

static void usage(void)
{
    fprintf(stderr,
            "usage: ngcc-prof --lib <libngcc_prof.so> --op <keygen|sign|verify|enc|dec|<KEX step>|hash> --name "
            "<cand>/<key>\n"
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

static int prof_line(char *line, size_t len, void *ctx)
{
    (void)len;
    (void)ctx;
    on_line(line);
    return 0;
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
        P.f.verdict = NGCC_ERROR;
        snprintf(P.f.detail, sizeof P.f.detail, "cannot fork: %s", strerror(errno));
        return;
    }
    int timed_out = ngcc_child_read_lines(rfd, deadline, prof_line, NULL) == NGCC_LINES_TIMEOUT;
    close(rfd);
    ngcc_child_wait(pid, timed_out ? ngcc_now() : 0, &P.child);
    if (timed_out)
        P.child.end = NGCC_CHILD_TIMEDOUT;
}

/* ---- inputs besides the child: build record, objects, expectation ---- */

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

static int set_verdict(ngcc_verdict v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int set_verdict(ngcc_verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P.f.detail, sizeof P.f.detail, fmt, ap);
    va_end(ap);
    P.f.verdict = v;
    return 1;
}

const char *prof_rec_str(const cJSON *r, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(r, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* DRNG calls (any context) of one record's counters */
static double drng_calls(const cJSON *rec, const char *sym)
{
    const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "counters"), sym);
    return cJSON_GetNumberValue(cJSON_GetObjectItem(c, "calls")) +
           cJSON_GetNumberValue(cJSON_GetObjectItem(c, "other_ctx"));
}

/* A CryptHash must not touch a DRNG: the hash package has no drng_algorithm
 * (its driver only seeds its own KAT message DRNGs), and a digest that
 * depends on DRNG output is not a function of the message. Not an
 * expectation to record: a finding whatever the expectation file says. */
static int hash_drng_rule(void)
{
    for (int r = 0; r < P.nrecs; r++) {
        double g = drng_calls(P.recs[r], "get_random_number"), i = drng_calls(P.recs[r], "init_random_number");
        if (g > 0 || i > 0)
            return set_verdict(NGCC_CRYPTOFAIL,
                               "record %d (%.0f-bit message): CryptHash made %.0f get_random_number and %.0f "
                               "init_random_number calls: a hash must use no DRNG (its digest would not be a "
                               "function of the message alone); remove the DRNG use from CryptHash",
                               r, cJSON_GetNumberValue(cJSON_GetObjectItem(P.recs[r], "msg_len_bits")), g, i);
    }
    return 0;
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
        return set_verdict(NGCC_MEMLIMIT,
                           "an allocation failed under the %lu MB limit (largest failed request "
                           "%llu bytes) in record %d (%d of %d records complete); raise \"memory_limit_mb\"",
                           P.child.mem_limit_mb, P.child.alloc_fail_bytes, P.cur < 0 ? 0 : P.cur, complete, P.records);
    }
    if (P.child.end == NGCC_CHILD_TIMEDOUT)
        return set_verdict(NGCC_TIMEOUT,
                           "no result after %.0f s, in record %d (%d of %d records complete); raise "
                           "the \"timeouts\" {\"prof\": S} override or reduce \"kat_records\"",
                           P.timeout, P.cur < 0 ? 0 : P.cur, complete, P.records);
    if (P.child.end == NGCC_CHILD_SIGNALED)
        return set_verdict(NGCC_CRASH, "killed by signal %d (%s) in record %d (%d of %d records complete)",
                           P.child.code, strsignal(P.child.code), P.cur < 0 ? 0 : P.cur, complete, P.records);
    if (!P.done)
        return set_verdict(NGCC_CRASH,
                           "the instance ended the process (exit code %d) in record %d (%d of %d "
                           "records complete)",
                           P.child.code, P.cur < 0 ? 0 : P.cur, complete, P.records);
    for (int r = 0; r < P.nrecs; r++)
        if (cJSON_IsTrue(cJSON_GetObjectItem(P.recs[r], "notrun")))
            return set_verdict(NGCC_SKIP,
                               "record %d: the exchange ends before %s (kex_get_passes_num() = %.0f): "
                               "the official flow never calls it, so there is nothing to count",
                               r, P.op, cJSON_GetNumberValue(cJSON_GetObjectItem(P.meta, "passes")));
    for (int r = 0; r < P.nrecs; r++)
        if (prof_rec_str(P.recs[r], "failure")[0])
            return set_verdict(NGCC_CRYPTOFAIL,
                               "record %d: %s (the counts of a failing operation are "
                               "recorded but not a valid profile)",
                               r, prof_rec_str(P.recs[r], "failure"));
    if (!strcmp(prof_meta_str("type"), "HASH") && hash_drng_rule())
        return 1;
    for (int r = 0; r < P.nrecs; r++)
        if (!cJSON_IsTrue(cJSON_GetObjectItem(P.recs[r], "deterministic")))
            return set_verdict(NGCC_ERROR,
                               "record %d: the counts differ between two runs of the same record "
                               "(%s): the operation is not deterministic for a given seed, so its counts "
                               "cannot be gated",
                               r, prof_rec_str(P.recs[r], "nondeterminism"));
    for (int r = 0; r < P.nrecs; r++)
        if (cJSON_IsFalse(cJSON_GetObjectItem(P.recs[r], "same_output_as_plain")))
            return set_verdict(NGCC_ERROR,
                               "record %d: the prof library's output differs from the plain "
                               "library's for the same seed: the wrapped build does different work",
                               r);
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
        char cand[128] = "";
        snprintf(cand, sizeof cand, "-%.*s", (int)strcspn(P.name, "/"), P.name);
        for (const char *c = cand; *c; c++)
            if ((unsigned char)*c >= 0x80) /* no target name of its own (cmake/NgccProfTests.cmake) */
                cand[0] = 0;
        set_verdict(NGCC_RECORDED,
                    "%s; no expectation committed for %s %s (%s): the counts are recorded, not "
                    "gated; record it with the prof-expect target (cmake --build <build> --target prof-expect%s)",
                    P.drng_text, P.instance, P.op,
                    P.expect_used ? P.expect_used : (P.nexpect_files ? P.expect_files[0] : "no --expectations"), cand);
        return;
    }
    const cJSON *gate = cJSON_GetObjectItem(P.out, "gate");
    int d = prof_expect_compare(P.expected, gate, P.op, &P.diff, err, sizeof err);
    P.compared = d >= 0;
    if (d < 0)
        set_verdict(NGCC_ERROR, "%s: %s", P.expect_used, err);
    else if (d > 0)
        set_verdict(NGCC_MISMATCH, "%d (record, symbol) call counts differ from %s; first: %s; measured %s", d,
                    P.expect_used, P.diff.nlines ? P.diff.lines[0] : "", P.drng_text);
    else
        set_verdict(NGCC_PASS, "the call counts of %d records equal %s; %s%s%s", P.diff.compared_records, P.expect_used,
                    P.drng_text, P.diff.note[0] ? "; " : "", P.diff.note);
}

/* ---- main ---- */

/* prof's own options (the common ones are the frame's, ngcc_frame.h) */
static int prof_option(ngcc_frame *f, int c, const char *v)
{
    double d;
    switch (c) {
    case 'p':
        P.plain_lib = v[0] ? v : NULL;
        return 0;
    case 'i':
        P.instance = v;
        return 0;
    case 'B':
        P.objects_root = v;
        return 0;
    case 'd':
        P.objects_dir = v;
        return 0;
    case 'D':
        P.objdump = v;
        return 0;
    case 'x':
        if (P.nexpect_files == MAX_EXPECT_FILES) {
            fprintf(stderr, "ngcc-prof: --expectations %s: at most %d files\n", v, MAX_EXPECT_FILES);
            return -1;
        }
        P.expect_files[P.nexpect_files++] = (char *)v;
        return 0;
    case 'N':
        if (ngcc_frame_number(f, "records", v, 1, MAX_RECORDS, &d))
            return -1;
        P.records = (int)d;
        return 0;
    case 'r':
        if (ngcc_frame_number(f, "min-reps", v, 2, 1000, &d))
            return -1;
        P.min_reps = (int)d;
        return 0;
    case 'R':
        if (ngcc_frame_number(f, "max-reps", v, 2, 1000, &d))
            return -1;
        P.max_reps = (int)d;
        return 0;
    case 'T':
        return ngcc_frame_number(f, "time-budget", v, 0, 1e6, &P.budget);
    }
    return -1;
}

static int parse_args(int argc, char **argv)
{
    static const struct option lo[] = {{"plain-lib", 1, 0, 'p'},
                                       {"instance", 1, 0, 'i'},
                                       {"objects-root", 1, 0, 'B'},
                                       {"objects-dir", 1, 0, 'd'},
                                       {"objdump", 1, 0, 'D'},
                                       {"expectations", 1, 0, 'x'},
                                       {"records", 1, 0, 'N'},
                                       {"min-reps", 1, 0, 'r'},
                                       {"max-reps", 1, 0, 'R'},
                                       {"time-budget", 1, 0, 'T'},
                                       {0, 0, 0, 0}};
    static const ngcc_frame_spec spec = {"prof", "ngcc-prof", NULL, lo, prof_option, NGCC_FRAME_OP, NULL};
    int rc = ngcc_frame_parse(&P.f, &spec, argc, argv);
    if (rc)
        return rc;
    if (P.max_reps < P.min_reps) {
        fprintf(stderr, "ngcc-prof: --max-reps %d is below --min-reps %d\n", P.max_reps, P.min_reps);
        ngcc_frame_free(&P.f);
        return 2;
    }
    P.lib = P.f.lib;
    P.name = P.f.name;
    P.op = P.f.op;
    P.record_out = P.f.record_out;
    P.build_record = P.f.build_record;
    P.log_path = P.f.log;
    P.timeout = P.f.timeout;
    P.mem_mb = P.f.mem_mb;
    P.expect = P.f.expect;
    snprintf(P.flagset, sizeof P.flagset, "%s", P.f.build_flagset);
    if (!P.instance) {
        const char *slash = strchr(P.name, '/');
        P.instance = slash ? slash + 1 : P.name;
    }
    /* what the verdict depends on besides the arguments and the library */
    ngcc_inputs_add_file(P.f.inputs, "plain_library_sha256", P.plain_lib);
    for (int i = 0; i < P.nexpect_files; i++) {
        char key[48];
        snprintf(key, sizeof key, "expectations_%d_sha256", i);
        ngcc_inputs_add_file(P.f.inputs, key, P.expect_files[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    P.records = 10;
    P.min_reps = 2;
    P.max_reps = 9;
    P.budget = 3;
    P.objdump = "objdump";
    int rc = parse_args(argc, argv);
    if (rc) {
        usage();
        return rc;
    }
    if ((rc = ngcc_frame_resume(&P.f)) >= 0) {
        ngcc_frame_free(&P.f);
        return rc;
    }
    /* sized from the kat test's measured times: fewer runs or records, or SKIP */
    prof_plan plan = {P.records, P.min_reps, P.max_reps, 0, 0, ""};
    if (!ngcc_frame_check_build(&P.f)) {
        prof_plan_make(&plan, P.record_out, P.op, P.timeout);
        P.records = plan.records;
        P.min_reps = plan.min_reps;
        P.max_reps = plan.max_reps;
        if (plan.skip) {
            set_verdict(NGCC_SKIP, "%s", plan.note);
        } else {
            run_child();
            if (P.f.verdict != NGCC_ERROR)
                judge_run();
        }
    }
    ngcc_child_show_log(P.log_path, 4096);
    if (P.f.verdict != NGCC_BUILDFAIL && P.f.verdict != NGCC_SKIP)
        scan_objects();
    prof_build_record();
    cJSON *pl = cJSON_AddObjectToObject(P.out, "plan");
    cJSON_AddNumberToObject(pl, "predicted_s", plan.predicted_s);
    cJSON_AddBoolToObject(pl, "reduced", plan.note[0] && !plan.skip && plan.min_reps == 1);
    cJSON_AddStringToObject(pl, "decision", plan.note[0] ? plan.note : "run as asked: it fits the timeout");
    if (P.f.verdict == NGCC_PASS) {
        judge_counts();
    } else if (P.nrecs > 0) { /* differences still shown, for information */
        char err[600] = "";
        load_expectation(err, sizeof err);
        if (P.expected)
            P.compared = prof_expect_compare(P.expected, cJSON_GetObjectItem(P.out, "gate"), P.op, &P.diff, err,
                                             sizeof err) >= 0;
    }
    if (!plan.skip && plan.min_reps == 1 && plan.note[0]) {
        size_t l = strlen(P.f.detail);
        snprintf(P.f.detail + l, sizeof P.f.detail - l, "; %s", plan.note);
    }
    prof_finish_record();
    prof_print_figures();
    prof_run_cases();
    cJSON_Delete(P.out);
    return ngcc_frame_finish(&P.f);
}
