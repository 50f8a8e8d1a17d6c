/* ngcc-security: alloc_failure. For each case of sec_ops.h, a clean call
 * (in a child of its own) gives the honest return code and
 * output and the number n of allocation calls the candidate's code makes;
 * then, for k sampled from 1..n (all when n <= ALLOCFAIL_KS, else spread
 * with the last one; fewer for slow calls), a child fails the k-th
 * allocation (the allocation watch returns NULL / ENOMEM) and makes the same
 * call. Verdicts, as an expert judges robustness against a security break:
 *   - the call returns 0 but its output is not the honest one (an all-zero
 *     or unwritten digest, a key or secret that is not the DRNG's, a
 *     rejected input now accepted): CRYPTOFAIL, with k, n and the site of
 *     the failed allocation. A signature that differs but verifies is the
 *     signer's freedom, not a failure. When a second clean call (made only
 *     then) differs from the first, a different output is a FINDING.
 *   - it crashes (a NULL dereference: most research code never checks
 *     malloc), hangs, or returns an error but keeps blocks it allocated
 *     before the failure: a FINDING with k and the site (a robustness defect under
 *     memory pressure, not a break: a false CRASH here would flood real
 *     campaigns);
 *   - it returns an error, or 0 with the honest output: passes.
 * Only the candidate's own allocations can be failed (those inside OpenSSL
 * or another shared library are not wrapped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ngcc_child.h"
#include "sec_check.h"
#include "sec_memwatch.h"
#include "sec_ops.h"

#define ALLOCFAIL_KS 8           /* failed allocations tried per case at most */
#define ALLOCFAIL_CASE_BUDGET 2. /* s of failed calls per case (a slow call gets fewer, at least 2) */
#define ALLOCFAIL_STUCK_S 10     /* s a failed call may take beyond 20 x the clean one */

typedef struct {
    int rc, verifies;
    size_t len;
    unsigned long long allocs, live_bytes;
    double seconds;
    ngcc_memwatch_fault fault;
    int nsites;
    ngcc_memwatch_site sites[2];
} fail_run;

typedef struct {
    const sec_job *j;
    const sec_op *op;
    int item;
    sec_memwatch *w;
    unsigned long long k; /* 0: a clean call */
    fail_run *run;
    unsigned char *out; /* shared, sec_op_out_cap bytes */
    int is_sign;
} fail_arg;

static void run_call(void *arg)
{
    fail_arg *a = arg;
    fail_run *r = a->run;
    ngcc_memwatch_totals t;
    sec_op_prepare(a->j, a->op, a->item); /* the seeding is the harness's: never failed */
    a->w->track(1);
    a->w->epoch(1);
    if (a->k)
        a->w->fail(a->k, &r->fault);
    double t0 = ngcc_now();
    r->rc = sec_op_call(a->j, a->op, a->item, a->out, &r->len);
    r->seconds = ngcc_now() - t0;
    a->w->fail(0, NULL);
    a->w->totals(&t);
    r->allocs = t.allocs;
    r->live_bytes = t.live_bytes;
    r->nsites = a->w->sites(1, r->sites, 2);
    a->w->track(0);
    if (a->k && a->is_sign && r->rc == 0)
        r->verifies = sec_op_signature_verifies(a->j, a->item, a->out, r->len);
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* "allocation 3 of 5 (malloc of 126 bytes at CryptHash (CryptHash_AlgorithmInstance.c:52))" */
static void name_fault(const fail_run *r, unsigned long long k, unsigned long long n, char *out, size_t cap)
{
    char site[300];
    sec_memwatch_site_name(r->fault.site, site, sizeof site);
    snprintf(out, cap, "allocation %llu of %llu (%s of %llu bytes at %s)", k, n, r->fault.fn, r->fault.bytes, site);
}

/* judges one failed call against the clean one */
static void judge(sec_job *j, const sec_op *op, const fail_run *ref, const unsigned char *ref_out, int deterministic,
                  const fail_run *r, const unsigned char *out, unsigned long long k, const char *ended)
{
    char fault[400];
    int coped = r->rc == 0 && ((ref->rc == 0 && r->len == ref->len && memcmp(out, ref_out, r->len) == 0) ||
                               r->verifies); /* the honest output, or another signature that verifies */
    if (!ended[0] && (coped || (r->rc != 0 && r->live_bytes <= ref->live_bytes)))
        return;
    name_fault(r, k, ref->allocs, fault, sizeof fault);
    if (ended[0]) {
        sec_finding(j, "%s %s when %s failed", op->what, ended, fault);
        return;
    }
    if (r->rc != 0) {
        if (r->live_bytes > ref->live_bytes && r->nsites > 0) {
            char site[300];
            sec_memwatch_site_name(r->sites[0].site, site, sizeof site);
            sec_finding(j, "%s returned %d when %s failed, but kept %llu bytes allocated before it (at %s)", op->what,
                        r->rc, fault, r->live_bytes - ref->live_bytes, site);
        }
        return;
    }
    if (ref->rc != 0) {
        sec_fail(j, "%s returned 0 when %s failed; without the failure it returns %d (the input is rejected)", op->what,
                 fault, ref->rc);
    } else if (!deterministic) {
        sec_finding(j, "%s returned 0 when %s failed, with another output (not comparable: two clean calls differ)",
                    op->what, fault);
    } else {
        sec_fail(j, "%s returned 0 when %s failed, but its output is %s", op->what, fault,
                 r->len && all_zero(out, r->len) ? "all zero"
                 : r->len != ref->len            ? "of another length than the honest one"
                                                 : "not the honest one");
    }
}

void sec_alloc_failure(sec_job *j)
{
    sec_memwatch w;
    const sec_op *ops;
    int nops = sec_ops_of(j, &ops), item = sec_ops_item(j);
    int type = sec_call_instance()->type;
    int sigkem = type == NGCC_TYPE_SIG || type == NGCC_TYPE_KEM;
    if (sec_memwatch_open(&w) != 0 || (sigkem && item < 0)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "%s",
                 item < 0 && sigkem ? "no signature/ciphertext was made to call verify/dec on"
                                    : "the library has no allocation watch (ngcc_memwatch_*)");
        return;
    }
    size_t cap = sec_op_out_cap(j);
    size_t shared = 3 * sizeof(fail_run) + 3 * cap;
    unsigned char *base = mmap(NULL, shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map shared memory for the case children");
        return;
    }
    fail_run *run = (fail_run *)base; /* [0], [1]: clean calls, [2]: the failed one */
    unsigned char *out[3] = {base + 3 * sizeof(fail_run), base + 3 * sizeof(fail_run) + cap,
                             base + 3 * sizeof(fail_run) + 2 * cap};
    unsigned long failed = 0, errors = 0, coped = 0, allocating = 0, not_reached = 0;
    char unjudged[SEC_DETAIL] = "", skipped[200] = "";
    double start = ngcc_now();
    for (int c = 0; c < nops; c++) {
        char ended[300];
        int clean_ok = 1;
        double left = SEC_OPS_BUDGET_S - (ngcc_now() - start), t = sec_op_seconds(&ops[c]);
        if (3 * t > left) { /* a clean call and two failed ones */
            size_t l = strlen(skipped);
            snprintf(skipped + l, sizeof skipped - l, "%s%s (%.0f s per call)",
                     l ? ", "
                       : "; not tried (over the "
                         "check's budget): ",
                     ops[c].what, t);
            continue;
        }
        memset(&run[0], 0, sizeof run[0]);
        fail_arg clean = {j, &ops[c], item, &w, 0, &run[0], out[0], 0};
        sec_memwatch_fork(j, run_call, &clean, 0, ended, sizeof ended);
        clean_ok = !ended[0];
        if (!clean_ok) {
            if (!unjudged[0])
                snprintf(unjudged, sizeof unjudged, "; %s %s without any failed allocation (left to the other checks)",
                         ops[c].what, ended);
            continue;
        }
        j->res->tried++;
        unsigned long long n = run[0].allocs;
        if (n == 0)
            continue;
        allocating++;
        int deterministic = -1; /* unknown until an rc-0 output differs: then a second clean call tells */
        int max = run[0].seconds > 0 ? (int)(ALLOCFAIL_CASE_BUDGET / run[0].seconds) : ALLOCFAIL_KS;
        int fit = run[0].seconds > 0 ? (int)((SEC_OPS_BUDGET_S - (ngcc_now() - start)) / run[0].seconds) : max;
        max = max < 2 ? 2 : max > ALLOCFAIL_KS ? ALLOCFAIL_KS : max;
        max = fit < max ? (fit < 1 ? 1 : fit) : max;
        /* a failed call still running long after the clean one took is stuck (a retry loop) */
        unsigned stuck_after = (unsigned)(ALLOCFAIL_STUCK_S + 20 * run[0].seconds);
        unsigned long long pos[ALLOCFAIL_KS];
        int nk = sec_sample(n, max, 1, pos);
        for (int i = 0; i < nk; i++) {
            memset(&run[2], 0, sizeof run[2]);
            fail_arg a = {j, &ops[c], item, &w, pos[i] + 1, &run[2], out[2], type == NGCC_TYPE_SIG && c == 1};
            sec_memwatch_fork(j, run_call, &a, stuck_after, ended, sizeof ended);
            if (!run[2].fault.fired && !ended[0]) {
                not_reached++; /* fewer allocations this time */
                continue;
            }
            if (deterministic < 0 && !ended[0] && run[2].rc == 0 && run[0].rc == 0 &&
                (run[2].len != run[0].len || memcmp(out[2], out[0], run[0].len) != 0)) {
                memset(&run[1], 0, sizeof run[1]);
                fail_arg again = {j, &ops[c], item, &w, 0, &run[1], out[1], 0};
                sec_memwatch_fork(j, run_call, &again, 0, ended, sizeof ended);
                deterministic = !ended[0] && run[0].rc == run[1].rc && run[0].len == run[1].len &&
                                memcmp(out[0], out[1], run[0].len) == 0;
                ended[0] = 0;
            }
            failed++;
            errors += !ended[0] && run[2].rc != 0;
            coped += !ended[0] && run[2].rc == 0;
            judge(j, &ops[c], &run[0], out[0], deterministic, &run[2], out[2], pos[i] + 1, ended);
        }
    }
    munmap(base, shared);
    unsigned long cases = j->res->tried;
    if (failed)
        j->res->tried = failed; /* a failure is counted per failed allocation */
    if (cases == 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no case could be judged%s%s", unjudged, skipped);
        return;
    }
    if (allocating == 0)
        snprintf(j->res->note, sizeof j->res->note,
                 "%lu cases: no allocation by the candidate's code in %lu calls: nothing to fail%s", cases, cases,
                 unjudged);
    else
        snprintf(j->res->note, sizeof j->res->note,
                 "%lu cases, %lu of them allocating: %lu allocations failed; the call then returned an error %lu "
                 "times, 0 %lu times%s%s%s",
                 cases, allocating, failed, errors, coped,
                 not_reached ? " (some k not reached: fewer allocations than the clean call)" : "", unjudged, skipped);
}
