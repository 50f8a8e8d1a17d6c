/* ngcc-security: determinism and unwritten output. Record 0's seed is used
 * twice in this child (keygen, then sign or enc, as the KAT driver does),
 * with every output buffer pre-filled with pattern 1, then pattern 2.
 * determinism: both runs must agree with each other and with the material
 * made in another process, and verify/dec must give the same answer twice;
 * bytes a call never wrote (they keep the caller's pattern) are left to
 * unwritten_output and not counted as a difference.
 * unwritten_output (judged by the parent from these runs' observations, so
 * a slow keygen is not run twice more): bytes inside the returned length
 * that hold pattern 1 in run 1 and pattern 2 in run 2 were never written:
 * their value is whatever the caller's buffer held (the KAT shows the
 * official driver's calloc'd 00). kem_dec's ss is judged from verify_twice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_check.h"

typedef struct {
    unsigned char *pk, *sk, *out, *ss; /* out: signature or ciphertext */
    ull pk_len, sk_len, out_len, ss_len;
} run_out;

/* byte i of the two runs' outputs a (pattern 1) and b (pattern 2) kept the pattern */
static int unwritten_at(const unsigned char *a, const unsigned char *b, ull i)
{
    return a[i] == sec_call_pattern_byte(1, i) && b[i] == sec_call_pattern_byte(2, i);
}

static void run_alloc(const sec_job *j, run_out *o)
{
    memset(o, 0, sizeof *o);
    o->pk = malloc(j->claims.pk + 1);
    o->sk = malloc(j->claims.sk + 1);
    o->out = malloc((j->plan->is_kem ? j->claims.ct : j->claims.sig) + 1);
    o->ss = malloc(j->claims.ss + 1);
}

static void run_free(run_out *o)
{
    free(o->pk);
    free(o->sk);
    free(o->out);
    free(o->ss);
}

/* record 0 from its seed: keygen, then sign (its message) or enc */
static int run_record0(sec_job *j, run_out *o, const char *what)
{
    const sec_item *it = &j->plan->item[0];
    sec_call_seed(j->plan->key_seed[0], what);
    int rc = sec_keygen(what, o->pk, &o->pk_len, o->sk, &o->sk_len);
    if (rc == 0 && j->plan->is_kem)
        rc = sec_enc(what, o->pk, o->pk_len, o->ss, &o->ss_len, o->out, &o->out_len);
    else if (rc == 0)
        rc = sec_sign(what, o->sk, o->sk_len, it->m, it->mlen, o->out, &o->out_len);
    if (rc != 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "%s returned %d: nothing to compare", j->res->where, rc);
    }
    return rc;
}

/* one comparison; a difference fails the check, naming the first byte */
static void same(sec_job *j, const char *api, const char *what, const unsigned char *a, ull alen,
                 const unsigned char *b, ull blen, const char *where, const unsigned char *m1, const unsigned char *m2)
{
    j->res->tried++;
    if (alen != blen) {
        sec_fail(j, "%s gave %s of %llu, then %llu bytes for the same DRNG seed (record 0%s)", api, what, alen, blen,
                 where);
        return;
    }
    for (ull i = 0; i < alen; i++)
        if (a[i] != b[i] && !(m1 && m2 && unwritten_at(m1, m2, i))) {
            sec_fail(j, "%s gave different %s for the same DRNG seed (record 0%s, first difference at byte %llu)", api,
                     what, where, i);
            return;
        }
}

static void unwritten_in(sec_job *j, const char *api, const char *name, const unsigned char *a, ull alen,
                         const unsigned char *b, ull blen);

/* unwritten_output's observations from the two pattern runs a (1) and b (2) */
static void unwritten_runs(sec_job *j, const run_out *a, const run_out *b)
{
    const char *kg = j->plan->is_kem ? "kem_keygen" : "sig_keygen";
    unwritten_in(j, kg, "pk", a->pk, a->pk_len, b->pk, b->pk_len);
    unwritten_in(j, kg, "sk", a->sk, a->sk_len, b->sk, b->sk_len);
    if (j->plan->is_kem) {
        unwritten_in(j, "kem_enc", "ct", a->out, a->out_len, b->out, b->out_len);
        unwritten_in(j, "kem_enc", "ss", a->ss, a->ss_len, b->ss, b->ss_len);
    } else {
        unwritten_in(j, "sig_sign", "sn", a->out, a->out_len, b->out, b->out_len);
    }
}

/* m1, m2: the pattern-1 and pattern-2 runs, whose unwritten bytes are skipped */
static void compare_runs(sec_job *j, const run_out *a, const run_out *b, const char *where, const run_out *m1,
                         const run_out *m2)
{
    const char *kg = j->plan->is_kem ? "kem_keygen" : "sig_keygen";
    same(j, kg, "public keys", a->pk, a->pk_len, b->pk, b->pk_len, where, m1->pk, m2->pk);
    same(j, kg, "secret keys", a->sk, a->sk_len, b->sk, b->sk_len, where, m1->sk, m2->sk);
    if (j->plan->is_kem) {
        same(j, "kem_enc", "ciphertexts", a->out, a->out_len, b->out, b->out_len, where, m1->out, m2->out);
        same(j, "kem_enc", "shared secrets", a->ss, a->ss_len, b->ss, b->ss_len, where, m1->ss, m2->ss);
    } else {
        same(j, "sig_sign", "signatures", a->out, a->out_len, b->out, b->out_len, where, m1->out, m2->out);
    }
}

/* the material's record 0, made in another process */
static void material_record0(const sec_job *j, run_out *o)
{
    const sec_material *m = j->mat;
    *o = (run_out){m->pk[0], m->sk[0], m->out[0], m->ss[0], m->pk_len[0], m->sk_len[0], m->out_len[0], m->ss_len[0]};
}

/* the answer to one question, asked twice */
static void verify_twice(sec_job *j, const run_out *o, int modified)
{
    const sec_item *it = &j->plan->item[0];
    const char *what = modified ? "record 0, determinism, modified" : "record 0, determinism";
    unsigned char *out = malloc(o->out_len + 1);
    memcpy(out, o->out, o->out_len);
    if (modified && o->out_len)
        out[0] ^= 0x80;
    int rc[2];
    unsigned char *ss[2] = {malloc(j->claims.ss + 1), malloc(j->claims.ss + 1)};
    ull ss_len[2] = {0, 0};
    for (int t = 0; t < 2; t++) {
        sec_call_pattern(t + 1);
        rc[t] = j->plan->is_kem ? sec_dec(what, o->sk, o->sk_len, out, o->out_len, ss[t], &ss_len[t])
                                : sec_verify(what, o->pk, o->pk_len, out, o->out_len, it->m, it->mlen);
    }
    sec_call_pattern(0);
    if (j->plan->is_kem && !modified && rc[0] == 0 && rc[1] == 0)
        unwritten_in(j, "kem_dec", "ss", ss[0], ss_len[0], ss[1], ss_len[1]);
    j->res->tried++;
    const char *api = j->plan->is_kem ? "kem_dec" : "sig_verify";
    const char *of = modified ? (j->plan->is_kem ? "a modified ciphertext" : "a modified signature")
                              : (j->plan->is_kem ? "record 0's ciphertext" : "record 0's signature");
    if (rc[0] != rc[1])
        sec_fail(j, "%s gave different answers (%d, then %d) for %s", api, rc[0], rc[1], of);
    else if (j->plan->is_kem && rc[0] == 0)
        same(j, api, "shared secrets", ss[0], ss_len[0], ss[1], ss_len[1], modified ? ", modified ciphertext" : "",
             ss[0], ss[1]);
    free(out);
    free(ss[0]);
    free(ss[1]);
}

static void determinism(sec_job *j)
{
    run_out a, b, mat;
    run_alloc(j, &a);
    run_alloc(j, &b);
    sec_call_pattern(1);
    int rc = run_record0(j, &a, "record 0, determinism run 1");
    sec_call_pattern(2);
    rc = rc ? rc : run_record0(j, &b, "record 0, determinism run 2");
    sec_call_pattern(0);
    if (rc == 0) {
        unwritten_runs(j, &a, &b);
        compare_runs(j, &a, &b, "", &a, &b);
        if (j->mat->item_ok[0]) {
            material_record0(j, &mat);
            compare_runs(j, &a, &mat, ", against the run in another process", &a, &b);
        }
        verify_twice(j, &a, 0);
        verify_twice(j, &a, 1);
        snprintf(j->res->note, sizeof j->res->note, "%lu comparisons of two runs from record 0's seed agree",
                 j->res->tried);
    }
    run_free(&a);
    run_free(&b);
}

/* the first range of never-written bytes of one output, and how many more */
static void unwritten_in(sec_job *j, const char *api, const char *name, const unsigned char *a, ull alen,
                         const unsigned char *b, ull blen)
{
    ull n = alen < blen ? alen : blen, first = n, end = n, total = 0;
    unsigned long ranges = 0;
    j->res->unwritten_checked++;
    for (ull i = 0; i < n; i++) {
        if (!unwritten_at(a, b, i))
            continue;
        total++;
        if (i == 0 || !unwritten_at(a, b, i - 1))
            ranges++;
        if (first == n) {
            first = i;
            for (end = i; end < n && unwritten_at(a, b, end); end++)
                ;
        }
    }
    if (!total)
        return;
    char more[96] = "";
    if (ranges > 1)
        snprintf(more, sizeof more, " (and %llu more bytes in %lu other ranges)", total - (end - first), ranges - 1);
    sec_issue_add(&j->res->unwritten, "%s bytes [%llu, %llu) never written by %s; claimed %llu%s", name, first, end,
                  api, alen, more);
}

void sec_unwritten_compare(sec_job *j, const char *api, const char *name, const unsigned char *a, ull alen,
                           const unsigned char *b, ull blen)
{
    unwritten_in(j, api, name, a, alen, b, blen);
}

void sec_sig_determinism(sec_job *j)
{
    determinism(j);
}

void sec_kem_determinism(sec_job *j)
{
    determinism(j);
}
