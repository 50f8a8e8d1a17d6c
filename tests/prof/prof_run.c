#define _GNU_SOURCE
#include "prof_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "ngcc_control.h"
#include "ngcc_katgen.h"
#include "ngcc_loader.h"

const char *const prof_sig_ops[PROF_MAX_OPS] = {"keygen", "sign", "verify"};
const char *const prof_kem_ops[PROF_MAX_OPS] = {"keygen", "enc", "dec"};
static const char *const sym_names[NGCC_PROF_NSYM] = NGCC_PROF_SYM_NAMES;

/* Room past every claimed length: an overflow is the KAT test's verdict;
 * here it should not turn into a crash that hides the counts. */
#define SLACK 4096
#define HIST_CAP 4096

enum { B_PK, B_SK, B_SN_SS, B_CT, B_SS1, B_N };

typedef struct {
    ngcc_instance in;
    ull claim[4]; /* pk sk sn|ss ct */
    unsigned char *buf[B_N];
    ngcc_prof_reset_fn reset;
    ngcc_prof_read_fn read;
    ngcc_prof_hist_fn hist;
    ngcc_prof_calibrate_fn calibrate;
} lib;

typedef struct {
    long preempted;            /* involuntary context switches during the run */
    int failed_step;           /* -1: every step returned 0 */
    int rc;                    /* rc of the failed step, else of the target */
    int ssdiff;                /* KEM dec: shared secrets differ */
    ull ticks;                 /* target operation */
    unsigned long long digest; /* FNV-1a of the target's outputs */
} run_result;

static FILE *out;

static void line(const char *tag, cJSON *j)
{
    char *t = cJSON_PrintUnformatted(j);
    fprintf(out, "%s %s\n", tag, t ? t : "{}");
    fflush(out);
    free(t);
}

static unsigned long long fnv(unsigned long long h, const unsigned char *p, ull n)
{
    while (n--) {
        h ^= *p++;
        h *= 1099511628211ull;
    }
    return h;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int lib_open(lib *L, const char *path, int need_prof, char *err, int errlen)
{
    memset(L, 0, sizeof *L);
    if (ngcc_instance_open(path, &L->in, err, errlen))
        return -1;
    if (L->in.is_kem) {
        ngcc_kem_api *a = &L->in.kem;
        ull c[4] = {a->pk_len(), a->sk_len(), a->ss_len(), a->ct_len()};
        memcpy(L->claim, c, sizeof c);
    } else {
        ngcc_sig_api *a = &L->in.sig;
        ull c[4] = {a->pk_len(), a->sk_len(), a->sn_len(), 0};
        memcpy(L->claim, c, sizeof c);
    }
    static const int claim_of[B_N] = {0, 1, 2, 3, 2};
    for (int b = 0; b < B_N; b++) {
        L->buf[b] = calloc(1, (size_t)L->claim[claim_of[b]] + SLACK);
        if (!L->buf[b]) {
            snprintf(err, (size_t)errlen, "%s: cannot allocate the claimed buffer sizes", path);
            return -1;
        }
    }
    if (!need_prof)
        return 0;
    ngcc_prof_abi_fn abi = (ngcc_prof_abi_fn)ngcc_instance_sym(&L->in, "ngcc_prof_abi");
    *(void **)&L->reset = ngcc_instance_sym(&L->in, "ngcc_prof_reset");
    *(void **)&L->read = ngcc_instance_sym(&L->in, "ngcc_prof_read");
    *(void **)&L->hist = ngcc_instance_sym(&L->in, "ngcc_prof_hist");
    *(void **)&L->calibrate = ngcc_instance_sym(&L->in, "ngcc_prof_calibrate");
    if (!abi || !L->reset || !L->read || !L->hist || !L->calibrate) {
        snprintf(err, (size_t)errlen,
                 "%s has no profiling surface (ngcc_prof_*): not a prof build; "
                 "rebuild it with its build/<cand>/<key>/prof test",
                 path);
        return -1;
    }
    if (abi() != NGCC_PROF_ABI) {
        snprintf(err, (size_t)errlen, "%s: profiling surface ABI %d, harness expects %d (rebuild the instance)", path,
                 abi(), NGCC_PROF_ABI);
        return -1;
    }
    return 0;
}

static ull clamp(ull v, ull claim)
{
    return v > claim ? claim : v;
}

/* runs the SIG flow up to step target; returns the rc of the last step run */
static int sig_step(lib *L, int k, const unsigned char *m, ull mlen, ull *len, run_result *r, int target)
{
    ngcc_sig_api *a = &L->in.sig;
    unsigned char **b = L->buf;
    int rc = 0;
    unsigned char *mm = (unsigned char *)m;
    if (k == 0) {
        rc = a->keygen(b[B_PK], &len[0], b[B_SK], &len[1]);
        len[0] = clamp(len[0], L->claim[0]);
        len[1] = clamp(len[1], L->claim[1]);
        if (k == target)
            r->digest = fnv(fnv(1469598103934665603ull, b[B_PK], len[0]), b[B_SK], len[1]);
    } else if (k == 1) {
        rc = a->sign(b[B_SK], len[1], mm, mlen, b[B_SN_SS], &len[2]);
        len[2] = clamp(len[2], L->claim[2]);
        if (k == target)
            r->digest = fnv(1469598103934665603ull, b[B_SN_SS], len[2]);
    } else {
        rc = a->verify(b[B_PK], len[0], b[B_SN_SS], len[2], mm, mlen);
        r->digest = (unsigned long long)(unsigned)rc;
    }
    return rc;
}

static int kem_step(lib *L, int k, ull *len, run_result *r, int target)
{
    ngcc_kem_api *a = &L->in.kem;
    unsigned char **b = L->buf;
    int rc;
    if (k == 0) {
        rc = a->keygen(b[B_PK], &len[0], b[B_SK], &len[1]);
        len[0] = clamp(len[0], L->claim[0]);
        len[1] = clamp(len[1], L->claim[1]);
        if (k == target)
            r->digest = fnv(fnv(1469598103934665603ull, b[B_PK], len[0]), b[B_SK], len[1]);
    } else if (k == 1) {
        rc = a->enc(b[B_PK], len[0], b[B_SN_SS], &len[2], b[B_CT], &len[3]);
        len[2] = clamp(len[2], L->claim[2]);
        len[3] = clamp(len[3], L->claim[3]);
        if (k == target)
            r->digest = fnv(fnv(1469598103934665603ull, b[B_CT], len[3]), b[B_SN_SS], len[2]);
    } else {
        ull ss1_len = L->claim[2];
        rc = a->dec(b[B_SK], len[1], b[B_CT], len[3], b[B_SS1], &ss1_len);
        ss1_len = clamp(ss1_len, L->claim[2]);
        r->ssdiff = rc == 0 && (ss1_len != len[2] || memcmp(b[B_SS1], b[B_SN_SS], (size_t)len[2]) != 0);
        r->digest = fnv(1469598103934665603ull, b[B_SS1], ss1_len);
    }
    return rc;
}

/* One pass of the KAT flow for one record: seed, then the steps up to and
 * including target. Counters are reset right before the target step, so
 * seeding and earlier steps are not in the profile. */
static void run_steps(lib *L, int target, const unsigned char *seed, const unsigned char *m, ull mlen, int profile,
                      run_result *r)
{
    ull len[4] = {L->claim[0], L->claim[1], L->claim[2], L->claim[3]};
    memset(r, 0, sizeof *r);
    r->failed_step = -1;
    L->in.seed(seed, NGCC_KAT_SEED_BYTES);
    for (int k = 0; k <= target; k++) {
        if (k == target && profile)
            L->reset();
        ull t0 = ngcc_prof_ticks();
        int rc = L->in.is_kem ? kem_step(L, k, len, r, target) : sig_step(L, k, m, mlen, len, r, target);
        ull t1 = ngcc_prof_ticks();
        if (k == target) {
            r->ticks = t1 - t0;
            r->rc = rc;
        }
        if (rc != 0) {
            r->failed_step = k;
            r->rc = rc;
            return;
        }
    }
}

static long involuntary_switches(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

/* one run, and whether the scheduler took the CPU away during it */
static void run_once(lib *L, int target, const unsigned char *seed, const unsigned char *m, ull mlen, int profile,
                     run_result *r)
{
    long before = involuntary_switches();
    run_steps(L, target, seed, m, mlen, profile, r);
    r->preempted = involuntary_switches() - before;
}

static cJSON *counters_json(const ngcc_prof_counters *c)
{
    cJSON *o = cJSON_CreateObject();
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        const ngcc_prof_sym *y = &c->sym[s];
        cJSON *j = cJSON_AddObjectToObject(o, sym_names[s]);
        cJSON_AddNumberToObject(j, "calls", (double)y->calls);
        cJSON_AddNumberToObject(j, "other_ctx", (double)y->other_ctx);
        cJSON_AddNumberToObject(j, "nested", (double)y->nested);
        cJSON_AddNumberToObject(j, "outer_ticks", (double)y->outer_ticks);
        cJSON_AddNumberToObject(j, "bits_in", (double)y->bits_in);
        cJSON_AddNumberToObject(j, "bits_out", (double)y->bits_out);
    }
    return o;
}

/* {"<sym>": [[bits, calls], ...]} for one direction */
static cJSON *hist_json(lib *L, int dir)
{
    static ngcc_prof_bin bins[HIST_CAP];
    cJSON *o = cJSON_CreateObject();
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        int n = L->hist(s, dir, bins, HIST_CAP);
        if (n > HIST_CAP)
            n = HIST_CAP;
        if (n == 0)
            continue;
        cJSON *a = cJSON_AddArrayToObject(o, sym_names[s]);
        for (int i = 0; i < n; i++) {
            cJSON *pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)bins[i].bits));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)bins[i].calls));
            cJSON_AddItemToArray(a, pair);
        }
    }
    return o;
}

/* the deterministic part of the counters (everything but ticks) */
static int same_counts(const ngcc_prof_counters *a, const ngcc_prof_counters *b, char *why, size_t wl)
{
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        const ngcc_prof_sym *x = &a->sym[s], *y = &b->sym[s];
        if (x->calls != y->calls || x->other_ctx != y->other_ctx || x->nested != y->nested ||
            x->bits_in != y->bits_in || x->bits_out != y->bits_out) {
            snprintf(why, wl, "%s: %llu calls in the first run, %llu in a repetition", sym_names[s],
                     x->calls + x->other_ctx, y->calls + y->other_ctx);
            return 0;
        }
    }
    return 1;
}

static const char *step_name(const lib *L, int k)
{
    return (L->in.is_kem ? prof_kem_ops : prof_sig_ops)[k];
}

static void failure_text(const lib *L, const run_result *r, int target, char *buf, size_t bl)
{
    if (r->failed_step >= 0 && r->failed_step < target)
        snprintf(buf, bl, "%s returned %d before %s could run", step_name(L, r->failed_step), r->rc,
                 step_name(L, target));
    else if (r->failed_step == target)
        snprintf(buf, bl, "%s returned %d", step_name(L, target), r->rc);
    else if (r->ssdiff)
        snprintf(buf, bl, "kem_dec shared secret differs from kem_enc's");
    else
        buf[0] = 0;
}

#define MAX_REPS 64

typedef struct {
    ull prof_min, plain_min;
    long prof_pre, plain_pre; /* preemptions of the chosen runs */
    ull prof_t[MAX_REPS], plain_t[MAX_REPS];
    cJSON *prof_all, *plain_all;
    ngcc_prof_counters first, best;
    int deterministic, same_output, have_plain_digest;
    char nondet[200], fail[200];
    unsigned long long plain_digest;
} record_acc;

/* the run whose times are kept: undisturbed before disturbed, then fastest */
static int preferred(ull ticks, long pre, ull best_ticks, long best_pre)
{
    if ((pre == 0) != (best_pre == 0))
        return pre == 0;
    return ticks < best_ticks;
}

static void one_rep(lib *P, lib *Q, int target, const unsigned char *seed, const unsigned char *m, ull mlen, int rep,
                    record_acc *a, cJSON *rec)
{
    run_result rp, rq;
    if (Q) {
        run_once(Q, target, seed, m, mlen, 0, &rq);
        if (rep == 0 || preferred(rq.ticks, rq.preempted, a->plain_min, a->plain_pre)) {
            a->plain_min = rq.ticks;
            a->plain_pre = rq.preempted;
        }
        cJSON_AddItemToArray(a->plain_all, cJSON_CreateNumber((double)rq.ticks));
        a->plain_t[rep] = rq.ticks;
        a->plain_digest = rq.digest;
        a->have_plain_digest = rq.failed_step < 0 || rq.failed_step == target;
    }
    run_once(P, target, seed, m, mlen, 1, &rp);
    ngcc_prof_counters c;
    P->read(&c);
    cJSON_AddItemToArray(a->prof_all, cJSON_CreateNumber((double)rp.ticks));
    a->prof_t[rep] = rp.ticks;
    if (rep == 0) {
        a->first = c;
        a->best = c;
        a->prof_min = rp.ticks;
        a->prof_pre = rp.preempted;
        failure_text(P, &rp, target, a->fail, sizeof a->fail);
        cJSON_AddItemToObject(rec, "bits_in", hist_json(P, 0));
        cJSON_AddItemToObject(rec, "bits_out", hist_json(P, 1));
        cJSON_AddNumberToObject(rec, "hist_dropped", (double)c.hist_dropped);
        cJSON_AddNumberToObject(rec, "rc", rp.rc);
    } else {
        if (a->deterministic && !same_counts(&a->first, &c, a->nondet, sizeof a->nondet))
            a->deterministic = 0;
        if (preferred(rp.ticks, rp.preempted, a->prof_min, a->prof_pre)) {
            a->prof_min = rp.ticks;
            a->prof_pre = rp.preempted;
            a->best = c;
        }
    }
    if (Q && a->have_plain_digest && rq.digest != rp.digest)
        a->same_output = 0;
}

static int cmp_ull(const void *x, const void *y)
{
    ull a = *(const ull *)x, b = *(const ull *)y;
    return a < b ? -1 : a > b;
}

/* the two fastest of n runs agree within 1%: interference only adds time,
 * so two equal minima are the undisturbed duration */
static int settled(const ull *t, int n)
{
    ull s[MAX_REPS];
    memcpy(s, t, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_ull);
    return n >= 2 && (double)(s[1] - s[0]) <= 0.01 * (double)s[0];
}

static void run_record(lib *P, lib *Q, int target, int i, const unsigned char *seed, const unsigned char *m,
                       const prof_run_args *args, double deadline)
{
    ull mlen = P->in.is_kem ? 0 : ngcc_katgen_mlen(i);
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddNumberToObject(rec, "record", i);
    if (!P->in.is_kem)
        cJSON_AddNumberToObject(rec, "m_len", (double)mlen);
    record_acc a;
    memset(&a, 0, sizeof a);
    a.deterministic = a.same_output = 1;
    a.prof_all = cJSON_CreateArray();
    a.plain_all = cJSON_CreateArray();
    int reps = 0, max = args->max_reps < MAX_REPS ? args->max_reps : MAX_REPS;
    while (reps < max) {
        one_rep(P, Q, target, seed, m, mlen, reps, &a, rec);
        reps++;
        if (reps < args->min_reps)
            continue;
        if (settled(a.prof_t, reps) && (!Q || settled(a.plain_t, reps)) && a.prof_pre == 0 && a.plain_pre == 0)
            break;
        if (now_ns() * 1e-9 > deadline)
            break;
    }
    cJSON_AddNumberToObject(rec, "runs", reps);
    cJSON_AddBoolToObject(rec, "settled", settled(a.prof_t, reps) && (!Q || settled(a.plain_t, reps)));
    cJSON_AddStringToObject(rec, "failure", a.fail);
    cJSON_AddBoolToObject(rec, "deterministic", a.deterministic);
    cJSON_AddStringToObject(rec, "nondeterminism", a.deterministic ? "" : a.nondet);
    if (Q)
        cJSON_AddBoolToObject(rec, "same_output_as_plain", a.same_output);
    cJSON_AddNumberToObject(rec, "prof_ticks", (double)a.prof_min);
    cJSON_AddNumberToObject(rec, "prof_preempted", (double)a.prof_pre);
    cJSON_AddItemToObject(rec, "prof_ticks_all", a.prof_all);
    if (Q) {
        cJSON_AddNumberToObject(rec, "plain_ticks", (double)a.plain_min);
        cJSON_AddNumberToObject(rec, "plain_preempted", (double)a.plain_pre);
        cJSON_AddItemToObject(rec, "plain_ticks_all", a.plain_all);
    } else {
        cJSON_Delete(a.plain_all);
    }
    /* counts from the first run, ticks from the fastest (equal counts) */
    ngcc_prof_counters c = a.first;
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        c.sym[s].outer_ticks = a.best.sym[s].outer_ticks;
    cJSON_AddItemToObject(rec, "counters", counters_json(&c));
    line("REC", rec);
    cJSON_Delete(rec);
}

static void meta_line(lib *P, lib *Q, const char *plain_err)
{
    const ngcc_meta *mt = P->in.meta;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", mt->type);
    cJSON_AddStringToObject(j, "algorithm_instance", mt->algorithm_instance);
    cJSON_AddStringToObject(j, "impl_variant", mt->impl_variant);
    cJSON_AddStringToObject(j, "build_variant", mt->build_variant);
    cJSON_AddStringToObject(j, "flagset", mt->flagset);
    cJSON_AddStringToObject(j, "compiler", mt->compiler);
    cJSON_AddStringToObject(j, "flags", mt->flags);
    cJSON_AddStringToObject(j, "counter", NGCC_PROF_COUNTER);
    cJSON_AddBoolToObject(j, "plain_loaded", Q != NULL);
    cJSON_AddStringToObject(j, "plain_error", plain_err);
    line("META", j);
    cJSON_Delete(j);
}

static int find_op(const lib *P, const char *op)
{
    for (int k = 0; k < PROF_MAX_OPS; k++)
        if (strcmp(step_name(P, k), op) == 0)
            return k;
    return -1;
}

int prof_run_child(void *vargs, int wfd)
{
    prof_run_args *args = vargs;
    out = fdopen(wfd, "w");
    if (!out)
        return 2;
    static lib P, Q;
    char err[512] = "", plain_err[512] = "";
    if (lib_open(&P, args->prof_lib, 1, err, sizeof err)) {
        fprintf(out, "LOADFAIL %s\n", err);
        fclose(out);
        return 1;
    }
    lib *q = NULL;
    if (args->plain_lib && lib_open(&Q, args->plain_lib, 0, plain_err, sizeof plain_err) == 0)
        q = &Q;
    int target = find_op(&P, args->op);
    if (target < 0) {
        fprintf(out, "BADOP %s is not an operation of a %s instance (use %s)\n", args->op, P.in.meta->type,
                P.in.is_kem ? "keygen, enc or dec" : "keygen, sign or verify");
        fclose(out);
        return 1;
    }
    meta_line(&P, q, plain_err);
    ngcc_prof_calib cal;
    P.calibrate(args->calib_iterations, &cal);
    cJSON *cj = cJSON_CreateObject();
    cJSON_AddNumberToObject(cj, "inside", cal.inside);
    cJSON_AddNumberToObject(cj, "total", cal.total);
    cJSON_AddNumberToObject(cj, "iterations", (double)cal.iterations);
    line("CALIB", cj);
    cJSON_Delete(cj);

    ngcc_katgen gen;
    ngcc_katgen_init(&gen, P.in.is_kem);
    unsigned char seed[NGCC_KAT_SEED_BYTES], m[NGCC_KAT_MSG_MAX];
    double ns0 = now_ns();
    ull t0 = ngcc_prof_ticks();
    double deadline = ns0 * 1e-9 + args->budget_s;
    for (int i = 0; i < args->records; i++) {
        ngcc_katgen_next(&gen, seed, m);
        fprintf(out, "BEGIN %d\n", i);
        fflush(out);
        run_record(&P, q, target, i, seed, m, args, deadline);
    }
    cJSON *dj = cJSON_CreateObject();
    cJSON_AddNumberToObject(dj, "ticks", (double)(ngcc_prof_ticks() - t0));
    cJSON_AddNumberToObject(dj, "ns", now_ns() - ns0);
    line("DONE", dj);
    cJSON_Delete(dj);
    fclose(out);
    return 0;
}
