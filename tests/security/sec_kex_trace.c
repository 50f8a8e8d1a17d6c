#include "sec_kex_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *zalloc(ull n)
{
    unsigned char *p = calloc(1, (size_t)n + 1);
    if (!p) {
        fprintf(stderr, "ngcc-security: out of memory (%llu bytes)\n", n);
        exit(3);
    }
    return p;
}

static int failed(sec_kex_trace *t, const char *api, int rc, const char *what)
{
    if (!t->error[0])
        snprintf(t->error, sizeof t->error, "%s returned %d at %s", api, rc, what);
    return -1;
}

int sec_kex_trace_run(const sec_claims *c, sec_kex_trace *t, const unsigned char *seed, const char *what)
{
    const int last = ngcc_kex_last_pass(c->passes);
    ull st_max = c->sta > c->stb ? c->sta : c->stb;
    unsigned char *st[2];
    ull st_len[2];
    memset(t, 0, sizeof *t);
    for (int i = 0; i <= SEC_KEX_DERIVE_B; i++)
        t->rc[i] = SEC_KEX_NOT_CALLED;
    for (int p = 0; p < 2; p++) {
        t->pk[p] = zalloc(c->pk);
        t->sk[p] = zalloc(c->sk);
        t->st_end[p] = zalloc(st_max);
        t->ss[p] = zalloc(c->ss);
        st[p] = t->st_end[p];
    }
    for (int k = 1; k <= SEC_KEX_MAXP; k++) {
        t->m[k] = zalloc(c->msg);
        t->st_before[k] = zalloc(st_max);
    }
    sec_call_seed(seed, what);
    for (int p = 0; p < 2; p++) {
        int rc = sec_kex_init(what, p, t->pk[p], &t->pk_len[p], t->sk[p], &t->sk_len[p], st[p], &st_len[p]);
        if (rc < 0)
            return failed(t, p ? "kex_init_b" : "kex_init_a", rc, what);
    }
    for (int k = 1; k <= last; k++) {
        int b = k % 2 == 0;
        memcpy(t->st_before[k], st[b], (size_t)st_len[b]);
        t->st_before_len[k] = st_len[b];
        int rc = sec_kex_pass(what, k, t->sk[b], t->sk_len[b], t->pk[!b], t->pk_len[!b], k > 1 ? t->m[k - 1] : NULL,
                              k > 1 ? t->m_len[k - 1] : 0, st[b], &st_len[b], t->m[k], &t->m_len[k]);
        t->rc[k] = rc;
        if (rc == -100) {
            char missing[64];
            snprintf(missing, sizeof missing, "the missing %s", ngcc_kex_pass_symbol(k));
            return failed(t, missing, rc, what);
        }
        if (rc < 0)
            return failed(t, ngcc_kex_pass_symbol(k), rc, what);
        t->passes = k;
        if (rc == 1)
            break;
    }
    t->last_a = t->passes % 2 ? t->passes : t->passes - 1;
    t->last_b = t->passes % 2 ? t->passes - 1 : t->passes;
    for (int p = 0; p < 2; p++)
        t->st_end_len[p] = st_len[p];
    int lb = t->last_b, la = t->last_a;
    int rc = sec_kex_derive(what, 0, t->sk[0], t->sk_len[0], t->pk[1], t->pk_len[1], lb ? t->m[lb] : NULL,
                            lb ? t->m_len[lb] : 0, st[0], st_len[0], t->ss[0], &t->ss_len[0]);
    t->rc[SEC_KEX_DERIVE_A] = rc;
    if (rc < 0)
        failed(t, "kex_derive_ss_a", rc, what);
    rc = sec_kex_derive(what, 1, t->sk[1], t->sk_len[1], t->pk[0], t->pk_len[0], t->m[la], t->m_len[la], st[1],
                        st_len[1], t->ss[1], &t->ss_len[1]);
    t->rc[SEC_KEX_DERIVE_B] = rc;
    if (rc < 0)
        return t->error[0] ? -1 : failed(t, "kex_derive_ss_b", rc, what);
    if (t->error[0])
        return -1;
    t->derived = 1;
    return 0;
}

void sec_kex_trace_free(sec_kex_trace *t)
{
    for (int p = 0; p < 2; p++) {
        free(t->pk[p]);
        free(t->sk[p]);
        free(t->st_end[p]);
        free(t->ss[p]);
    }
    for (int k = 1; k <= SEC_KEX_MAXP; k++) {
        free(t->m[k]);
        free(t->st_before[k]);
    }
    memset(t, 0, sizeof *t);
}

int sec_kex_trace_repeat(const sec_kex_trace *t, int c, const char *what, const unsigned char *pk, ull pk_len,
                         const unsigned char *in, ull in_len, unsigned char *st, unsigned char *out, ull *out_len)
{
    int side = c <= SEC_KEX_MAXP ? c % 2 == 0 : c == SEC_KEX_DERIVE_B; /* 0: A, 1: B */
    ull st_len;
    *out_len = 0;
    if (c <= SEC_KEX_MAXP) {
        st_len = t->st_before_len[c];
        memcpy(st, t->st_before[c], (size_t)st_len);
        return sec_kex_pass(what, c, t->sk[side], t->sk_len[side], pk, pk_len, in, in_len, st, &st_len, out, out_len);
    }
    st_len = t->st_end_len[side];
    memcpy(st, t->st_end[side], (size_t)st_len);
    return sec_kex_derive(what, side, t->sk[side], t->sk_len[side], pk, pk_len, in, in_len, st, st_len, out, out_len);
}
