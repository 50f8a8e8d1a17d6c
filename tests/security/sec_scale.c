/* ngcc-security: honest_scale. Many honest operations, each from a DRNG seed
 * of its own: SIG sign then verify (one of the plan's keys, messages of 1 to
 * 64 bytes), KEM enc then dec (one of the plan's keys), KEX a full session
 * (init_a, init_b, the passes, both derives). How many: as many as fit in
 * --scale seconds (at least SCALE_MIN), so a slow instance runs fewer and
 * the ASan build fewer still; the count is in the detail.
 *
 * A failure is a rejected honest signature, a decapsulation that did not
 * give kem_enc's secret, a session whose derives disagree or in which a call
 * returned an error. Any failure is a FINDING with its rate and 95% bounds
 * (exact binomial, Clopper-Pearson, one-sided); a rate whose lower bound is
 * above the declared failure rate ("claims": {"dfr": x}, KEM and KEX) or
 * above 1e-3 is CRYPTOFAIL. sig_sign or kem_enc errors are reported (a
 * stateful scheme's exhausted key, an encapsulation retry), not failed. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_child.h"
#include "ngcc_kex_pass.h"
#include "sec_check.h"
#include "sec_scale.h"

#define SCALE_MIN 3        /* iterations, whatever the times */
#define SCALE_MAX 200000   /* iterations of a very fast instance */
#define SCALE_BOUND 1e-3   /* a failure rate above it is a broken scheme, whatever it claims */
#define SCALE_SEED 0x5CA1E /* sec_plan_bytes tags: the iterations' seeds and messages */
#define KEX_MAXP NGCC_KEX_MAXP

/* P(X <= k) for X ~ Binomial(n, p) */
static double binom_cdf(unsigned long k, unsigned long n, double p)
{
    if (p <= 0)
        return 1;
    if (p >= 1)
        return k >= n ? 1 : 0;
    double sum = 0, lp = log(p), lq = log1p(-p);
    for (unsigned long i = 0; i <= k && i <= n; i++)
        sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) + (double)i * lp +
                   (double)(n - i) * lq);
    return sum > 1 ? 1 : sum;
}

/* the p at which f(p) = target, f decreasing in p on [0, 1] */
static double solve(double (*f)(unsigned long, unsigned long, double), unsigned long k, unsigned long n, double target)
{
    double lo = 0, hi = 1;
    for (int it = 0; it < 100; it++) {
        double mid = (lo + hi) / 2;
        if (f(k, n, mid) > target)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double sec_scale_upper(unsigned long k, unsigned long n)
{
    if (n == 0)
        return 1;
    if (k >= n)
        return 1;
    return solve(binom_cdf, k, n, 0.05); /* P(X <= k; p) = 0.05 */
}

double sec_scale_lower(unsigned long k, unsigned long n)
{
    if (k == 0 || n == 0)
        return 0;
    return solve(binom_cdf, k - 1, n, 0.95); /* P(X >= k; p) = 0.05 */
}

typedef struct {
    unsigned long n, failed, errors; /* iterations, failures, reported-only error returns */
    char first[300], first_error[200];
} scale_tally;

/* 1 while another iteration fits in --scale seconds since start */
static int more(const sec_job *j, const scale_tally *t, double start)
{
    return t->n < SCALE_MAX && (t->n < SCALE_MIN || ngcc_now() - start < j->opt->scale_s);
}

static void seed_of(unsigned long i, unsigned char *seed)
{
    sec_plan_bytes(seed, SEC_SEED_BYTES, SCALE_SEED + (unsigned)i);
}

/* the verdict of a tally: what failed, what was run (plural), how they
 * failed ("" or " (...)") */
static void judge(sec_job *j, const scale_tally *t, const char *runs, const char *failed_what, const char *how,
                  int dfr_applies)
{
    double rate = t->n ? (double)t->failed / (double)t->n : 0, up = sec_scale_upper(t->failed, t->n),
           lo = sec_scale_lower(t->failed, t->n);
    double claim = dfr_applies ? j->opt->claims_dfr : 0, bound = claim > 0 && claim < SCALE_BOUND ? claim : SCALE_BOUND;
    char count[160];
    snprintf(count, sizeof count, "%lu %s%s", t->n, runs, how);
    j->res->tried = t->n;
    if (t->failed && lo > bound)
        sec_fail(j, "%s %lu of %s: rate %.3g (95%% bounds %.3g..%.3g), above %s %.3g; first: %s", failed_what,
                 t->failed, count, rate, lo, up,
                 claim > 0 && claim < SCALE_BOUND ? "the declared \"dfr\"" : "the tolerable", bound, t->first);
    else if (t->failed)
        sec_finding(j, "%s %lu of %s: rate %.3g (95%% upper bound %.3g; not shown above %s %.3g); first: %s",
                    failed_what, t->failed, count, rate, up,
                    claim > 0 && claim < SCALE_BOUND ? "the declared \"dfr\"" : "the tolerable", bound, t->first);
    if (t->errors)
        sec_finding(j, "%lu of %s returned an error (reported, not failed); first: %s", t->errors, count,
                    t->first_error);
    j->res->failure.count = j->res->failure.count ? t->failed : 0; /* "(k of n cases)" */
    j->res->finding.count = j->res->finding.count ? t->failed + t->errors : 0;
    snprintf(j->res->note, sizeof j->res->note, "0 of %s failed: rate < %.3g (about 3/N, 95%%)", count, up);
}

static void first_text(char *dst, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void first_text(char *dst, size_t cap, const char *fmt, ...)
{
    if (dst[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

/* ---- SIG and KEM ---- */

void sec_honest_scale(sec_job *j)
{
    const sec_material *m = j->mat;
    int kem = j->plan->is_kem, keys[SEC_MAX_KEYS], nk = 0;
    for (int k = 0; k < j->plan->nkeys; k++)
        if (m->key_ok[k])
            keys[nk++] = k;
    if (nk == 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no key pair was made");
        return;
    }
    scale_tally t = {0};
    ull out_cap = kem ? j->claims.ct : j->claims.sig;
    unsigned char *out = malloc((size_t)out_cap + 1), *ss = malloc((size_t)j->claims.ss + 1),
                  *ss2 = malloc((size_t)j->claims.ss + 1), seed[SEC_SEED_BYTES], msg[64];
    double start = ngcc_now();
    for (unsigned long i = 0; more(j, &t, start); i++) {
        int k = keys[i % (unsigned long)nk];
        char what[120];
        seed_of(i, seed);
        snprintf(what, sizeof what, "honest_scale iteration %lu (key of record %d)", i, k);
        sec_call_seed(seed, what);
        ull len = 0, ss_len = 0, ss2_len = 0;
        if (kem) {
            int rc = sec_enc(what, m->pk[k], m->pk_len[k], ss, &ss_len, out, &len);
            if (rc != 0) {
                t.errors++;
                first_text(t.first_error, sizeof t.first_error, "kem_enc returned %d at %s", rc, what);
            } else {
                rc = sec_dec(what, m->sk[k], m->sk_len[k], out, len, ss2, &ss2_len);
                if (rc != 0 || ss2_len != ss_len || memcmp(ss, ss2, (size_t)ss_len) != 0) {
                    t.failed++;
                    if (rc != 0)
                        first_text(t.first, sizeof t.first, "kem_dec returned %d at %s", rc, what);
                    else
                        first_text(t.first, sizeof t.first, "kem_dec gave another secret than kem_enc's at %s", what);
                }
            }
        } else {
            ull mlen = 1 + i % sizeof msg;
            sec_plan_bytes(msg, mlen, SCALE_SEED + 0x80000000u + (unsigned)i);
            int rc = sec_sign(what, m->sk[k], m->sk_len[k], msg, mlen, out, &len);
            if (rc != 0) {
                t.errors++;
                first_text(t.first_error, sizeof t.first_error, "sig_sign returned %d at %s", rc, what);
            } else if ((rc = sec_verify(what, m->pk[k], m->pk_len[k], out, len, msg, mlen)) != 0) {
                t.failed++;
                first_text(t.first, sizeof t.first, "sig_verify returned %d for the honest signature at %s", rc, what);
            }
        }
        t.n++;
    }
    free(out);
    free(ss);
    free(ss2);
    judge(j, &t, kem ? "honest encapsulations" : "honest signatures",
          kem ? "honest decapsulation failed" : "sig_verify rejected", "", kem);
}

/* ---- KEX ---- */

typedef struct {
    unsigned char *pk[2], *sk[2], *st[2], *m[KEX_MAXP + 1], *ss[2];
    ull pk_len[2], sk_len[2], st_len[2], m_len[KEX_MAXP + 1], ss_len[2];
} kex_bufs;

/* one honest session on seed's stream (KAT_KEX.c's order): 0 if both derives
 * agree, 1 if they disagree, -1 on an error return (text in err) */
static int session(const sec_job *j, kex_bufs *b, const unsigned char *seed, const char *what, char *err, size_t cap)
{
    int rc, passes = 0;
    for (int p = 0; p < 2; p++)
        b->pk_len[p] = b->sk_len[p] = b->st_len[p] = b->ss_len[p] = 0;
    sec_call_seed(seed, what);
    for (int p = 0; p < 2; p++)
        if ((rc = sec_kex_init(what, p, b->pk[p], &b->pk_len[p], b->sk[p], &b->sk_len[p], b->st[p], &b->st_len[p])) <
            0) {
            snprintf(err, cap, "kex_init_%c returned %d at %s", p ? 'b' : 'a', rc, what);
            return -1;
        }
    int want = j->claims.passes ? (int)j->claims.passes : 3;
    for (int k = 1; k <= KEX_MAXP && k <= want; k++) {
        int s = k % 2 == 0;
        b->m_len[k] = 0;
        rc = sec_kex_pass(what, k, b->sk[s], b->sk_len[s], b->pk[!s], b->pk_len[!s], k > 1 ? b->m[k - 1] : NULL,
                          k > 1 ? b->m_len[k - 1] : 0, b->st[s], &b->st_len[s], b->m[k], &b->m_len[k]);
        if (rc < 0 || rc == -100) {
            snprintf(err, cap, "%s returned %d at %s", ngcc_kex_pass_symbol(k), rc, what);
            return -1;
        }
        passes = k;
        if (rc == 1 && k < want) { /* KAT_KEX.c stops with -5: an aborted session */
            snprintf(err, cap, "%s returned 1 (finished) before Pass_Num %d at %s", ngcc_kex_pass_symbol(k), want,
                     what);
            return -1;
        }
        if (rc == 1)
            break;
    }
    int la = passes % 2 ? passes : passes - 1, lb = passes % 2 ? passes - 1 : passes;
    rc = sec_kex_derive(what, 0, b->sk[0], b->sk_len[0], b->pk[1], b->pk_len[1], lb > 0 ? b->m[lb] : NULL,
                        lb > 0 ? b->m_len[lb] : 0, b->st[0], b->st_len[0], b->ss[0], &b->ss_len[0]);
    if (rc < 0) {
        snprintf(err, cap, "kex_derive_ss_a returned %d at %s", rc, what);
        return -1;
    }
    rc = sec_kex_derive(what, 1, b->sk[1], b->sk_len[1], b->pk[0], b->pk_len[0], b->m[la], b->m_len[la], b->st[1],
                        b->st_len[1], b->ss[1], &b->ss_len[1]);
    if (rc < 0) {
        snprintf(err, cap, "kex_derive_ss_b returned %d at %s", rc, what);
        return -1;
    }
    return b->ss_len[0] != b->ss_len[1] || memcmp(b->ss[0], b->ss[1], (size_t)b->ss_len[0]) != 0;
}

void sec_kex_honest_scale(sec_job *j)
{
    const sec_claims *c = &j->claims;
    kex_bufs b;
    for (int p = 0; p < 2; p++) {
        b.pk[p] = calloc(1, (size_t)c->pk + 1);
        b.sk[p] = calloc(1, (size_t)c->sk + 1);
        b.st[p] = calloc(1, (size_t)(p ? c->stb : c->sta) + 1);
        b.ss[p] = calloc(1, (size_t)c->ss + 1);
    }
    for (int k = 1; k <= KEX_MAXP; k++)
        b.m[k] = calloc(1, (size_t)c->msg + 1);
    scale_tally t = {0};
    unsigned long aborted = 0, disagreed = 0;
    unsigned char seed[SEC_SEED_BYTES];
    double start = ngcc_now();
    for (unsigned long i = 0; more(j, &t, start); i++) {
        char what[120], err[300];
        seed_of(i, seed);
        snprintf(what, sizeof what, "honest_scale session %lu", i);
        int r = session(j, &b, seed, what, err, sizeof err);
        if (r) {
            t.failed++;
            aborted += r < 0;
            disagreed += r > 0;
            if (r > 0)
                first_text(t.first, sizeof t.first, "the derives disagree at %s", what);
            else
                first_text(t.first, sizeof t.first, "%s", err);
        }
        t.n++;
    }
    for (int p = 0; p < 2; p++) {
        free(b.pk[p]);
        free(b.sk[p]);
        free(b.st[p]);
        free(b.ss[p]);
    }
    for (int k = 1; k <= KEX_MAXP; k++)
        free(b.m[k]);
    char how[120] = "";
    if (t.failed)
        snprintf(how, sizeof how, " (%lu derived different keys, %lu aborted with an error)", disagreed, aborted);
    judge(j, &t, "honest sessions", "honest sessions failed", how, 1);
}
