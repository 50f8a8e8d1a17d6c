/* ngcc-perf: the KEX operations (perf_ops.h). The official KAT_KEX.c flow
 * (iccs-kex-hash.md 2.3) on one DRNG stream per record: init_a, init_b,
 * pass1, pass2, pass3 (up to the claimed pass when the claim is above 3, as
 * the package's extended driver, §1.2a), derive_a, derive_b. A timed call of step X repeats
 * the KAT's call exactly: perf_kex_prepare reseeds the DRNG from the
 * record's seed and runs the steps before X untimed, so X gets the DRNG
 * position and inputs of the official flow. The in/out lengths enter every
 * flow as in the driver's record 0 (state lengths at the getters, message
 * lengths 0, shared-secret lengths at the getter). After the call (untimed):
 * rc < 0 is CRYPTOFAIL, as is a pass that returns 1 (finished) before the
 * claimed pass count (the driver's -5); a length above its getter is
 * OVERFLOW; derive_a's secret must equal derive_b's of the untimed reference
 * exchange of the same record, derive_b's the derive_a's of its own flow,
 * and the exchange's two secrets each other (the driver's -6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_kex_pass.h"
#include "ngcc_verdict.h"
#include "perf_ops.h"

#define SLACK 4096

/* the steps in flow order; pass k is step K_PASS1 + k - 1 */
enum { K_INIT_A, K_INIT_B, K_PASS1, K_DERIVE_A = K_PASS1 + NGCC_KEX_MAXP, K_DERIVE_B, K_STEPS };
#define K_END (-2)
#define K_PASS_ERROR (-1)

static const char *step_name(int s)
{
    if (s >= K_PASS1 && s < K_DERIVE_A)
        return ngcc_kex_pass_symbol(s - K_PASS1 + 1);
    return s == K_INIT_A     ? "kex_init_a"
           : s == K_INIT_B   ? "kex_init_b"
           : s == K_DERIVE_A ? "kex_derive_ss_a"
                             : "kex_derive_ss_b";
}

static int op_step(perf_op op)
{
    return op == PERF_KEX_EXCHANGE ? -1 : (int)op - (int)PERF_KEX_INIT_A;
}

static unsigned char *buf(ull len)
{
    return calloc(1, (size_t)len + SLACK);
}

static int alloc_io(perf_ctx *c, perf_kex_io *k)
{
    ngcc_kex_api *a = &c->inst->kex;
    ull pk = a->pk_len(), sk = a->sk_len(), ss = a->ss_len();
    k->pka = buf(pk);
    k->ska = buf(sk);
    k->pkb = buf(pk);
    k->skb = buf(sk);
    k->sta = buf(c->kex.claimed_sta);
    k->stb = buf(c->kex.claimed_stb);
    int ok = 1;
    for (int i = 0; i < NGCC_KEX_MAXP; i++)
        ok &= (k->m[i] = buf(c->kex.claimed_total)) != NULL; /* KAT_KEX.c: each message buffer is total_msg_len bytes */
    k->ssa = buf(ss);
    k->ssb = buf(ss);
    return ok && k->pka && k->ska && k->pkb && k->skb && k->sta && k->stb && k->ssa && k->ssb ? 0 : -1;
}

static void free_io(perf_kex_io *k)
{
    free(k->pka);
    free(k->ska);
    free(k->pkb);
    free(k->skb);
    free(k->sta);
    free(k->stb);
    for (int i = 0; i < NGCC_KEX_MAXP; i++)
        free(k->m[i]);
    free(k->ssa);
    free(k->ssb);
    memset(k, 0, sizeof *k);
}

/* a new flow: lengths as the driver's record 0 has them, DRNG from the seed */
static void start(perf_ctx *c, perf_kex_io *k, int r)
{
    ngcc_kex_api *a = &c->inst->kex;
    k->pka_len = k->pkb_len = a->pk_len();
    k->ska_len = k->skb_len = a->sk_len();
    k->sta_len = c->kex.claimed_sta;
    k->stb_len = c->kex.claimed_stb;
    memset(k->m_len, 0, sizeof k->m_len);
    k->ssa_len = k->ssb_len = a->ss_len();
    k->ma = k->mb = NULL;
    k->ma_len = k->mb_len = 0;
    k->last_step = -1;
    k->end = 0;
    c->inst->seed(c->rec[r].seed, NGCC_KAT_SEED_BYTES);
}

/* one call of the flow, with the driver's bookkeeping of ma / mb */
static int step(perf_ctx *c, perf_kex_io *k, int s)
{
    ngcc_kex_api *a = &c->inst->kex;
    int rc = -100;
    k->last_step = s;
    switch (s) {
    case K_INIT_A:
        return a->init_a(k->pka, &k->pka_len, k->ska, &k->ska_len, k->sta, &k->sta_len);
    case K_INIT_B:
        return a->init_b(k->pkb, &k->pkb_len, k->skb, &k->skb_len, k->stb, &k->stb_len);
    case K_DERIVE_A:
        return a->derive_a(k->ska, k->ska_len, k->pkb, k->pkb_len, k->mb, k->mb_len, k->sta, k->sta_len, k->ssa,
                           &k->ssa_len);
    case K_DERIVE_B:
        return a->derive_b(k->skb, k->skb_len, k->pka, k->pka_len, k->ma, k->ma_len, k->stb, k->stb_len, k->ssb,
                           &k->ssb_len);
    }
    int p = s - K_PASS1 + 1, i = p - 1; /* pass p writes m[i] */
    if (p == 1)
        rc = a->pass1_a(k->ska, k->ska_len, k->pkb, k->pkb_len, k->sta, &k->sta_len, k->m[0], &k->m_len[0]);
    else if (p % 2) /* -100 (named by the check) when the library does not export the pass */
        rc = ngcc_kex_call_pass(a, p, k->ska, k->ska_len, k->pkb, k->pkb_len, k->m[i - 1], k->m_len[i - 1], k->sta,
                                &k->sta_len, k->m[i], &k->m_len[i]);
    else
        rc = ngcc_kex_call_pass(a, p, k->skb, k->skb_len, k->pka, k->pka_len, k->m[i - 1], k->m_len[i - 1], k->stb,
                                &k->stb_len, k->m[i], &k->m_len[i]);
    if (p % 2) {
        k->ma = k->m[i];
        k->ma_len = k->m_len[i];
    } else {
        k->mb = k->m[i];
        k->mb_len = k->m_len[i];
    }
    return rc;
}

/* the driver's next step after s returned rc >= 0: K_END after derive_b,
 * K_PASS_ERROR when a pass finished (1) before the claimed pass count */
static int next(const perf_ctx *c, int s, int rc)
{
    ull p = c->kex.passes;
    if (s >= K_PASS1 && s < K_DERIVE_A) {
        int k = s - K_PASS1 + 1;
        if (rc == 1)
            return p == (ull)k ? K_DERIVE_A : K_PASS_ERROR;
        /* the driver stops after pass 3, the extended one after the claimed pass */
        return k >= ngcc_kex_last_pass(p) ? K_DERIVE_A : s + 1;
    }
    return s == K_DERIVE_B ? K_END : s + 1;
}

/* the length checks of step s: OVERFLOW with a reason, else 0 (and the
 * lengths noted for ngcc-sizes) */
static int lengths(perf_ctx *c, const perf_kex_io *k, int s, int r, const char *when, char *err, size_t errlen)
{
    perf_kex *x = &c->kex;
    ngcc_kex_api *a = &c->inst->kex;
    ull pk = a->pk_len(), sk = a->sk_len(), ss = a->ss_len();
    const char *what = NULL;
    ull got = 0, claimed = 0;
#define LEN_CHECK(name, v, lim)                                                                                        \
    do {                                                                                                               \
        if (!what && (v) > (lim)) {                                                                                    \
            what = name;                                                                                               \
            got = (v);                                                                                                 \
            claimed = (lim);                                                                                           \
        }                                                                                                              \
    } while (0)
#define SEEN(f, v) x->f = (v) > x->f ? (v) : x->f
    switch (s) {
    case K_INIT_A:
    case K_INIT_B: {
        ull pl = s == K_INIT_A ? k->pka_len : k->pkb_len, sl = s == K_INIT_A ? k->ska_len : k->skb_len;
        ull tl = s == K_INIT_A ? k->sta_len : k->stb_len, tc = s == K_INIT_A ? x->claimed_sta : x->claimed_stb;
        LEN_CHECK("pk_len", pl, pk);
        LEN_CHECK("sk_len", sl, sk);
        LEN_CHECK(s == K_INIT_A ? "sta_len" : "stb_len", tl, tc);
        SEEN(obs_pk, pl);
        SEEN(obs_sk, sl);
        if (s == K_INIT_A)
            SEEN(obs_sta, tl);
        else
            SEEN(obs_stb, tl);
        break;
    }
    default: { /* pass i + 1: B sends the even passes */
        static const char *const m_len_name[NGCC_KEX_MAXP] = {"m1_len", "m2_len", "m3_len", "m4_len",
                                                              "m5_len", "m6_len", "m7_len", "m8_len"};
        int i = s - K_PASS1, by_b = i % 2;
        ull tl = by_b ? k->stb_len : k->sta_len, tc = by_b ? x->claimed_stb : x->claimed_sta;
        LEN_CHECK(by_b ? "stb_len" : "sta_len", tl, tc);
        LEN_CHECK(m_len_name[i], k->m_len[i], x->claimed_total);
        if (by_b)
            SEEN(obs_stb, tl);
        else
            SEEN(obs_sta, tl);
        SEEN(obs_m[i], k->m_len[i]);
        break;
    }
    case K_DERIVE_A:
        LEN_CHECK("ssa_len", k->ssa_len, ss);
        SEEN(obs_ss, k->ssa_len);
        break;
    case K_DERIVE_B:
        LEN_CHECK("ssb_len", k->ssb_len, ss);
        SEEN(obs_ss, k->ssb_len);
        break;
    }
#undef LEN_CHECK
#undef SEEN
    if (!what)
        return 0;
    snprintf(err, errlen, "%s returned %s %llu > claimed %llu on KAT record %d%s", step_name(s), what, got, claimed, r,
             when);
    return NGCC_OVERFLOW;
}

static int pass_error(const perf_ctx *c, int s, int r, const char *when, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "%s returned 1 (exchange finished) on KAT record %d%s, but kex_get_passes_num() = %llu "
             "(the official driver's pass error -5)",
             step_name(s), r, when, c->kex.passes);
    return NGCC_CRYPTOFAIL;
}

static int rc_error(int s, int rc, int r, const char *when, char *err, size_t errlen)
{
    if (s > K_PASS1 && s < K_DERIVE_A && rc == -100)
        snprintf(err, errlen, "the library has no %s, but the flow of KAT record %d reaches pass %d", step_name(s), r,
                 s - K_PASS1 + 1);
    else
        snprintf(err, errlen, "%s returned %d on KAT record %d%s", step_name(s), rc, r, when);
    return NGCC_CRYPTOFAIL;
}

static int secrets_differ(const unsigned char *a, ull alen, const unsigned char *b, ull blen)
{
    return alen != blen || memcmp(a, b, (size_t)alen) != 0;
}

/* the whole official flow of record r in k, every call checked; 0 or the
 * verdict with a reason; *visited gets a bit per step reached */
static int reference(perf_ctx *c, perf_kex_io *k, int r, unsigned *visited, char *err, size_t errlen)
{
    start(c, k, r);
    const char *when = " (the untimed reference exchange)";
    for (int s = K_INIT_A; s != K_END;) {
        *visited |= 1u << s;
        int rc = step(c, k, s), v;
        if (rc < 0)
            return rc_error(s, rc, r, when, err, errlen);
        if ((v = lengths(c, k, s, r, when, err, errlen)) != 0)
            return v;
        int n = next(c, s, rc);
        if (n == K_PASS_ERROR)
            return pass_error(c, s, r, when, err, errlen);
        s = n;
    }
    ull total = 0;
    for (int i = 0; i < NGCC_KEX_MAXP; i++)
        total += k->m_len[i];
    c->kex.obs_total = total > c->kex.obs_total ? total : c->kex.obs_total;
    if (total > c->kex.claimed_total) {
        snprintf(err, errlen,
                 "the messages of KAT record %d total %llu bytes > claimed %llu (kex_get_total_msg_len_bytes)", r,
                 total, c->kex.claimed_total);
        return NGCC_OVERFLOW;
    }
    return 0;
}

int perf_kex_setup(perf_ctx *c, int *verdict, char *err, size_t errlen)
{
    ngcc_kex_api *a = &c->inst->kex;
    perf_kex *x = &c->kex;
    x->passes = a->passes_num();
    x->claimed_sta = a->sta_len();
    x->claimed_stb = a->stb_len();
    x->claimed_total = a->total_msg_len();
    ull ss = a->ss_len();
    perf_kex_io ref;
    memset(&ref, 0, sizeof ref);
    if (alloc_io(c, &x->io) || alloc_io(c, &ref)) {
        free_io(&ref);
        *verdict = NGCC_ERROR;
        snprintf(err, errlen, "calloc of the claimed sizes failed");
        return -1;
    }
    for (int r = 0; r < c->records; r++) {
        x->ref_ssa[r] = buf(ss);
        x->ref_ssb[r] = buf(ss);
        char e[300];
        unsigned seen = 0;
        int v = reference(c, &ref, r, &seen, e, sizeof e);
        if (r == 0)
            x->visited = seen;
        if (v && !x->ref_verdict) {
            x->ref_verdict = v;
            snprintf(x->ref_err, sizeof x->ref_err, "%s", e);
        }
        x->ref_ok[r] = !v;
        if (!v && x->ref_ssa[r] && x->ref_ssb[r]) {
            memcpy(x->ref_ssa[r], ref.ssa, (size_t)ref.ssa_len);
            memcpy(x->ref_ssb[r], ref.ssb, (size_t)ref.ssb_len);
            x->ref_ssa_len[r] = ref.ssa_len;
            x->ref_ssb_len[r] = ref.ssb_len;
        }
    }
    free_io(&ref);
    int s = op_step(c->op);
    if (s >= 0 && !(x->visited & (1u << s))) {
        /* the reference exchange failed before reaching the step: that failure */
        if (x->ref_verdict) {
            *verdict = x->ref_verdict;
            snprintf(err, errlen, "%s", x->ref_err);
            return -1;
        }
        *verdict = NGCC_SKIP;
        snprintf(err, errlen,
                 "the exchange never calls %s (kex_get_passes_num() = %llu; the flow of KAT record 0 ends "
                 "before it): nothing to time",
                 step_name(s), x->passes);
        return -1;
    }
    return 0;
}

void perf_kex_free(perf_ctx *c)
{
    free_io(&c->kex.io);
    for (int r = 0; r < NGCC_KAT_RECORDS; r++) {
        free(c->kex.ref_ssa[r]);
        free(c->kex.ref_ssb[r]);
    }
}

int perf_kex_prepare(perf_ctx *c, int r, char *err, size_t errlen)
{
    perf_kex_io *k = &c->kex.io;
    int target = op_step(c->op);
    start(c, k, r);
    if (target < 0) /* exchange: the whole flow is timed */
        return 0;
    char when[160];
    snprintf(when, sizeof when, " (untimed, before the timed %s)", perf_op_name(c->op));
    for (int s = K_INIT_A; s != target;) {
        int rc = step(c, k, s);
        if (rc < 0)
            return rc_error(s, rc, r, when, err, errlen);
        int n = next(c, s, rc);
        if (n == K_PASS_ERROR)
            return pass_error(c, s, r, when, err, errlen);
        if (n == K_END || n > target) {
            snprintf(err, errlen, "the flow of KAT record %d does not reach %s (it did for record 0)", r,
                     step_name(target));
            return NGCC_CRYPTOFAIL;
        }
        s = n;
    }
    return 0;
}

int perf_kex_run(perf_ctx *c, int r)
{
    (void)r;
    perf_kex_io *k = &c->kex.io;
    int target = op_step(c->op);
    if (target >= 0)
        return step(c, k, target);
    /* exchange: the driver's loop, decisions and all */
    int s = K_INIT_A, rc = 0;
    while (s >= 0) {
        rc = step(c, k, s);
        if (rc < 0)
            return rc;
        s = next(c, s, rc);
    }
    k->end = s;
    return 0;
}

int perf_kex_check(perf_ctx *c, int r, int rc, char *err, size_t errlen)
{
    perf_kex_io *k = &c->kex.io;
    perf_kex *x = &c->kex;
    int s = op_step(c->op), v;
    const char *when = " during the measurement";
    if (s < 0) { /* exchange */
        if (rc < 0)
            return rc_error(k->last_step, rc, r, when, err, errlen);
        if (k->end == K_PASS_ERROR)
            return pass_error(c, k->last_step, r, when, err, errlen);
        for (int i = K_INIT_A; i < K_STEPS; i++)
            if ((v = lengths(c, k, i, r, when, err, errlen)) != 0)
                return v;
        if (secrets_differ(k->ssa, k->ssa_len, k->ssb, k->ssb_len)) {
            snprintf(err, errlen,
                     "the shared secrets differ: kex_derive_ss_a's (%llu bytes) != kex_derive_ss_b's (%llu bytes) "
                     "on KAT record %d (the official driver's -6)",
                     k->ssa_len, k->ssb_len, r);
            return NGCC_CRYPTOFAIL;
        }
        return 0;
    }
    if (rc < 0)
        return rc_error(s, rc, r, when, err, errlen);
    if ((v = lengths(c, k, s, r, when, err, errlen)) != 0)
        return v;
    if (next(c, s, rc) == K_PASS_ERROR)
        return pass_error(c, s, r, when, err, errlen);
    if (s == K_DERIVE_A) {
        if (!x->ref_ok[r]) {
            snprintf(err, errlen, "kex_derive_ss_a's secret has nothing to agree with: %s", x->ref_err);
            return x->ref_verdict ? x->ref_verdict : NGCC_CRYPTOFAIL;
        }
        if (secrets_differ(k->ssa, k->ssa_len, x->ref_ssb[r], x->ref_ssb_len[r])) {
            snprintf(err, errlen,
                     "the shared secrets differ: kex_derive_ss_a's (%llu bytes) != kex_derive_ss_b's (%llu bytes) "
                     "of the untimed reference exchange of KAT record %d (the official driver's -6)",
                     k->ssa_len, x->ref_ssb_len[r], r);
            return NGCC_CRYPTOFAIL;
        }
    }
    if (s == K_DERIVE_B && secrets_differ(k->ssb, k->ssb_len, k->ssa, k->ssa_len)) {
        snprintf(err, errlen,
                 "the shared secrets differ: kex_derive_ss_b's (%llu bytes) != kex_derive_ss_a's (%llu bytes) "
                 "on KAT record %d (the official driver's -6)",
                 k->ssb_len, k->ssa_len, r);
        return NGCC_CRYPTOFAIL;
    }
    return 0;
}
