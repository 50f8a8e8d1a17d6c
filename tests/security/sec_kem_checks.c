/* ngcc-security: the KEM checks, on the key pairs, ciphertexts and shared
 * secrets of the KAT records made as the KAT driver makes them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_check.h"

#define CT_SAMPLE 64 /* ciphertext bytes flipped per record (all of a small one) */
#define CT_TAIL 4

typedef struct {
    const sec_item *it;
    const unsigned char *sk, *ct, *ss;
    ull sk_len, ct_len, ss_len;
} kem_case;

static int get_case(const sec_job *j, int i, kem_case *c)
{
    const sec_material *m = j->mat;
    if (!m->item_ok[i])
        return 0;
    c->it = &j->plan->item[i];
    c->sk = m->sk[c->it->key];
    c->sk_len = m->sk_len[c->it->key];
    c->ct = m->out[i];
    c->ct_len = m->out_len[i];
    c->ss = m->ss[i];
    c->ss_len = m->ss_len[i];
    return 1;
}

/* kem_dec of ct under sk; 1 if it returned 0 and exactly the case's secret */
static int gives_honest_secret(sec_job *j, const kem_case *c, const unsigned char *sk, ull sk_len,
                               const unsigned char *ct, const char *what, int *rc)
{
    unsigned char *ss = malloc(j->claims.ss + 1);
    ull ss_len = 0;
    *rc = sec_dec(what, sk, sk_len, ct, c->ct_len, ss, &ss_len);
    int same = *rc == 0 && ss_len == c->ss_len && memcmp(ss, c->ss, (size_t)ss_len) == 0;
    free(ss);
    return same;
}

void sec_kem_honest(sec_job *j)
{
    kem_case c;
    int rc;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c))
            continue;
        j->res->tried++;
        if (gives_honest_secret(j, &c, c.sk, c.sk_len, c.ct, c.it->label, &rc))
            continue;
        if (rc != 0)
            sec_fail(j, "kem_dec returned %d for an honest ciphertext at %s", rc, c.it->label);
        else
            sec_fail(j, "kem_dec shared secret differs from kem_enc's at %s", c.it->label);
    }
    snprintf(j->res->note, sizeof j->res->note, "%lu round trips gave kem_enc's shared secret", j->res->tried);
}

void sec_kem_modified_ciphertext(sec_job *j)
{
    kem_case c;
    int rc;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c) || c.ct_len == 0)
            continue;
        ull pos[CT_SAMPLE];
        int np = sec_sample(c.ct_len, CT_SAMPLE, CT_TAIL, pos);
        unsigned char *ct = malloc(c.ct_len);
        for (int p = 0; p < np; p++) {
            ull bit = 8 * pos[p] + pos[p] % 8;
            char what[160];
            memcpy(ct, c.ct, c.ct_len);
            ct[bit / 8] ^= (unsigned char)(0x80u >> (bit % 8));
            snprintf(what, sizeof what, "%s, ciphertext bit %llu flipped", c.it->label, bit);
            j->res->tried++;
            if (gives_honest_secret(j, &c, c.sk, c.sk_len, ct, what, &rc))
                sec_fail(j, "kem_dec returned the honest shared secret for a modified ciphertext "
                            "(bit %llu flipped) at %s", bit, c.it->label);
            else if (rc == 0)
                j->res->implicit_rejections++;
            else
                j->res->error_returns++;
        }
        free(ct);
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu modified ciphertexts: %lu implicit rejections (rc 0, another secret), %lu error returns",
             j->res->tried, j->res->implicit_rejections, j->res->error_returns);
}

void sec_kem_wrong_secret_key(sec_job *j)
{
    kem_case c;
    const sec_material *m = j->mat;
    int rc;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c))
            continue;
        int other = (c.it->key + 1) % j->plan->nkeys;
        if (!m->key_ok[other])
            continue;
        char what[160];
        snprintf(what, sizeof what, "%s, secret key of record %d", c.it->label, other);
        j->res->tried++;
        if (gives_honest_secret(j, &c, m->sk[other], m->sk_len[other], c.ct, what, &rc))
            sec_fail(j, "kem_dec with the secret key of record %d returned %s's shared secret", other, c.it->label);
    }
    snprintf(j->res->note, sizeof j->res->note, "%lu decapsulations under another key gave another secret",
             j->res->tried);
}
