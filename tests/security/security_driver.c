/* ngcc-security: the security test of one instance (CTest label "security";
 * with --sanitizer, the security-asan test on the ASan/UBSan library).
 * Makes keys and signatures (or ciphertexts) from the KAT record seeds in
 * child processes, runs every check in a child of its own (a crash or hang
 * is that check's CRASH/TIMEOUT), judges buffer safety, lengths and return
 * codes from every call, writes one JSON record, runs one CMocka case per
 * check, prints one verdict line and exits 0 iff the verdict is --expect.
 * Options, build check, resume, verdict line and exit code are the driver
 * frame's (ngcc_frame.h; sec_options.c adds security's own options and
 * inputs). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ngcc_child.h"
#include "ngcc_frame.h"
#include "ngcc_record.h"
#include "ngcc_util.h"
#include "sec_buf.h"
#include "sec_record.h"
#include "sec_ops.h"
#include "sec_state.h"

#define DEFAULT_CALL_TIMEOUT 60.0

static sec_state S;
static ngcc_frame F;

static void setup(void)
{
    S.kind = F.spec->label; /* "security", or "sanitizer" with --sanitizer */
    if (S.opt.log_dir) {
        snprintf(S.log_dir, sizeof S.log_dir, "%s", S.opt.log_dir);
    } else {
        const char *slash = strrchr(F.record_out, '/');
        int dl = slash ? (int)(slash - F.record_out) : 1;
        snprintf(S.log_dir, sizeof S.log_dir, "%.*s/%s.logs", dl, slash ? F.record_out : ".", S.kind);
    }
    ngcc_mkdirs(S.log_dir, 1);
    /* a stalled call is given a fifth of the budget, so the other checks still run */
    S.call_timeout = S.opt.call_timeout > 0 ? S.opt.call_timeout
                     : S.opt.timeout > 0    ? S.opt.timeout / 5
                                            : DEFAULT_CALL_TIMEOUT;
    S.deadline = S.opt.timeout > 0 ? ngcc_now() + S.opt.timeout : 1e300;
    sec_buf_set_exact(S.opt.sanitizer);
    sec_call_mark_calls(S.opt.sanitizer);
}

/* KAT op times are those of the plain library; ASan+UBSan code runs about
 * this much slower (measured on the fixtures: 2-4x) */
#define SANITIZER_SLOWDOWN 3.0

/* the time budget (sec_budget.h): costs from the KAT record, else from the
 * first item's calls; then the per-call timeout and a plan that fits */
static void plan_budget(void)
{
    if (S.opt.budget <= 0)
        return;
    char why[300];
    if (sec_costs_from_kat(S.opt.kat_record, S.probe.is_kem, &S.costs)) {
        if (S.opt.sanitizer) {
            for (int i = 0; i < 3; i++)
                S.costs.op[i] *= SANITIZER_SLOWDOWN;
            size_t l = strlen(S.costs.source);
            snprintf(S.costs.source + l, sizeof S.costs.source - l, " x %.0f for ASan+UBSan", SANITIZER_SLOWDOWN);
        }
    } else {
        snprintf(why, sizeof why, "%s", S.costs.source);
        if (S.opt.call_timeout <= 0 && S.opt.timeout > 0)
            S.call_timeout = S.opt.timeout / 2; /* the first keygen of a slow instance must get through */
        if (!sec_run_time_first(&S)) {
            snprintf(S.costs.source, sizeof S.costs.source, "%.200s, and the first item could not be made: no planning",
                     why);
            printf("ngcc: %s budget: %s\n", S.kind, S.costs.source);
            return;
        }
        memcpy(S.costs.op, S.first_op_seconds, sizeof S.costs.op);
        S.costs.known = 1;
        snprintf(S.costs.source, sizeof S.costs.source, "timed from record 0's first calls (%.200s)", why);
    }
    double budget = S.opt.budget;
    if (S.opt.timeout > 0 && budget > 0.8 * S.opt.timeout)
        budget = 0.8 * S.opt.timeout; /* the CTest timeout is the hard stop */
    sec_budget_plan(&S.budget, &S.costs, S.probe.is_kem, budget, S.plan.nkeys, S.opt.kat_records, S.opt.max_flips,
                    S.probe.is_kem ? S.probe.claims.ct : S.probe.claims.sig);
    sec_ops_costs(S.costs.op); /* memory_leaks and alloc_failure fit their cases to them */
    /* 5 x the slowest operation, between a fifth (as without a budget: a
     * hang leaves time for the other checks) and half of the test's timeout */
    if (S.opt.call_timeout <= 0 && S.opt.timeout > 0) {
        double c = S.budget.call_timeout < S.opt.timeout / 2 ? S.budget.call_timeout : S.opt.timeout / 2;
        S.call_timeout = c > S.opt.timeout / 5 ? c : S.opt.timeout / 5;
    } else if (S.opt.call_timeout <= 0) {
        S.call_timeout = S.budget.call_timeout;
    }
    if (S.budget.keys != S.plan.nkeys || S.budget.kat_records != S.opt.kat_records) {
        /* item 0 (record 0's key and signature) is the same in every plan, so
         * what was made of it stays valid */
        sec_plan_free(&S.plan);
        sec_plan_make(&S.plan, S.probe.is_kem, S.budget.keys, S.budget.kat_records);
    }
    S.opt.max_flips = S.budget.max_flips;
    S.opt.other_flips = S.budget.other_flips;
    S.opt.kat_records = S.budget.kat_records;
    printf("ngcc: %s budget %.0f s: op times %.3g / %.3g / %.3g s, %s; per-call timeout %.0f s; estimate %.0f s; %s\n",
           S.kind, budget, S.costs.op[0], S.costs.op[1], S.costs.op[2], S.costs.source, S.call_timeout,
           S.budget.estimate, S.budget.decisions[0] ? S.budget.decisions : "full plan");
}

static void run(void)
{
    if (ngcc_frame_check_build(&F)) { /* BUILDFAIL, SKIP, LOADFAIL: the frame's detail */
        S.verdict = (ngcc_verdict)F.verdict;
        snprintf(S.detail, sizeof S.detail, "%.*s", (int)sizeof S.detail - 1, F.detail);
        return;
    }
    if (sec_run_probe(&S))
        return;
    S.checks = sec_checks_for(S.probe.ntype, &S.nchecks);
    for (int c = 0; c < S.nchecks; c++)
        S.out[c].check = &S.checks[c];
    if (S.probe.ntype == NGCC_TYPE_KEX || S.probe.ntype == NGCC_TYPE_HASH) {
        /* no material and no budget: each check runs its own few sessions
         * (KEX: on the KAT record seeds of the plan) or hashes */
        sec_plan_make(&S.plan, 1, S.opt.keys, 0);
        S.plan.nitems = 0;
        sec_run_checks(&S);
        sec_judge(&S);
        return;
    }
    sec_plan_make(&S.plan, S.probe.is_kem, S.opt.keys, S.opt.kat_records);
    S.mat = sec_material_map(&S.plan, &S.probe.claims);
    if (!S.mat) {
        S.verdict = NGCC_ERROR;
        snprintf(S.detail, sizeof S.detail, "cannot map shared memory for the claimed sizes (pk %llu, sk %llu)",
                 S.probe.claims.pk, S.probe.claims.sk);
        return;
    }
    plan_budget();
    sec_run_material(&S);
    sec_run_checks(&S);
    sec_judge(&S);
}

/* official ICCS copies are the template's: a note on the instance (the
 * sanitizer build replaced or unsanitized them), never its verdict */
static void add_budget_note(void)
{
    if (!S.budget.reduced && !S.budget.decisions[0])
        return;
    size_t l = strlen(S.detail);
    snprintf(S.detail + l, sizeof S.detail - l, "; budget %.0f s: %s", S.budget.budget, S.budget.decisions);
}

static void add_iccs_note(void)
{
    if (!S.opt.iccs_note)
        return;
    size_t l = strlen(S.detail);
    snprintf(S.detail + l, sizeof S.detail - l, "; note: %s", S.opt.iccs_note);
}

/* every distinct sanitizer report (sec_reports.h), when there is more than
 * the one the detail names; the template's UB as a note naming the rule */
static void add_reports_note(void)
{
    int own = 0;
    for (int i = 0; i < S.reports.n; i++)
        own += !S.reports.r[i].e.template_ub;
    char text[2 * SEC_DETAIL];
    size_t l = strlen(S.detail);
    if (own > 1) {
        sec_reports_format(&S.reports, text, sizeof text);
        snprintf(S.detail + l, sizeof S.detail - l, "; %d distinct sanitizer reports: %s", own, text);
        l = strlen(S.detail);
    }
    sec_reports_template_note(&S.reports, text, sizeof text);
    if (text[0])
        snprintf(S.detail + l, sizeof S.detail - l,
                 "; note: template UB, not the candidate's (rule: template-UB site, drng.c sm3_bit_compress shift "
                 "exponent 32 from init_random_number): %s",
                 text);
}

/* ---- output ---- */

static void print_checks(void)
{
    if (S.report.found && S.report.report)
        printf("---- first sanitizer report ----\n%s---- end of sanitizer report ----\n", S.report.report);
    for (int c = 0; c < S.nchecks; c++)
        printf("ngcc: %s check %s: %s: %s\n", S.kind, S.out[c].check->name,
               sec_check_status(S.out[c].verdict, S.out[c].notrun), S.out[c].detail);
}

static void case_check(void **state)
{
    const sec_outcome *o = *state;
    if (o->notrun) {
        print_message("not run: %s\n", o->detail);
        skip();
    } else if (o->verdict == NGCC_FINDING) {
        print_message("finding: %s\n", o->detail);
    } else if (!ngcc_verdict_passing(o->verdict)) {
        fail_msg("%s: %s", ngcc_verdict_name(o->verdict), o->detail);
    }
}

static void case_load(void **state)
{
    (void)state;
    fail_msg("%s: %s", ngcc_verdict_name(S.verdict), S.detail);
}

static void run_cases(void)
{
    char group[300];
    snprintf(group, sizeof group, "%s %s", S.kind, S.opt.name);
    struct CMUnitTest tests[SEC_MAX_CHECKS];
    int n = 0;
    for (int c = 0; c < S.nchecks; c++)
        tests[n++] = (struct CMUnitTest){S.out[c].check->name, case_check, NULL, NULL, &S.out[c]};
    if (n == 0) /* nothing could be checked: the reason is one failing case */
        tests[n++] = (struct CMUnitTest){"instance_loads", case_load, NULL, NULL, NULL};
    _cmocka_run_group_tests(group, tests, (size_t)n, NULL, NULL);
}

int main(int argc, char **argv)
{
    int rc = sec_options_parse(&F, argc, argv, &S.opt);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&F)) >= 0) { /* NGCC_RESUME=1 and the record is current */
        ngcc_frame_free(&F);
        return rc;
    }
    char start[32];
    ngcc_utc_now(start);
    setup();
    run();
    add_reports_note();
    add_budget_note();
    add_iccs_note();
    ngcc_frame_set(&F, S.verdict, "%s", S.detail);
    print_checks();
    sec_record_write(&S, &F, start);
    run_cases();
    sec_memerr_free(&S.report);
    sec_reports_free(&S.reports);
    sec_material_unmap(S.mat);
    sec_plan_free(&S.plan);
    return ngcc_frame_finish(&F); /* the verdict line, the exit code */
}
