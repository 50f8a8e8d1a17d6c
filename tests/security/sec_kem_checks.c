/* ngcc-security: the KEM checks, on the key pairs, ciphertexts and shared
 * secrets of the KAT records made as the KAT driver makes them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_check.h"

#define CT_SAMPLE 64 /* ciphertext bytes flipped per further record (all of a small one) */
#define CT_TAIL 4
#define CT_FULL_MAX 16384 /* flip every byte of the first ciphertext up to this size */
#define CT_LARGE_SAMPLE 4096

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

/* byte positions to flip: every byte of the first ciphertext (a stratified
 * sample above CT_FULL_MAX or the budget's max_flips), a sample of the
 * others; a re-encryption check that compares only some positions returns
 * the honest secret for a flip at any other */
static int ct_positions(const sec_job *j, int first, ull n, ull **pos)
{
    int max = CT_SAMPLE;
    if (first)
        max = j->opt->max_flips ? j->opt->max_flips : (n <= CT_FULL_MAX ? (int)n : CT_LARGE_SAMPLE);
    *pos = malloc(sizeof **pos * (size_t)(max ? max : 1));
    return sec_sample(n, max, CT_TAIL, *pos);
}

void sec_kem_modified_ciphertext(sec_job *j)
{
    kem_case c;
    int rc, first = 1, first_np = 0;
    ull first_len = 0;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c) || c.ct_len == 0)
            continue;
        ull *pos;
        int np = ct_positions(j, first, c.ct_len, &pos);
        if (first)
            first_np = np, first_len = c.ct_len;
        first = 0;
        unsigned char *ct = malloc(c.ct_len);
        for (int p = 0; p < np; p++) {
            ull bit = 8 * pos[p] + pos[p] % 8;
            char what[160];
            memcpy(ct, c.ct, c.ct_len);
            ct[bit / 8] ^= (unsigned char)(0x80u >> (bit % 8));
            snprintf(what, sizeof what, "%s, ciphertext bit %llu flipped", c.it->label, bit);
            j->res->tried++;
            if (gives_honest_secret(j, &c, c.sk, c.sk_len, ct, what, &rc))
                sec_fail(j,
                         "kem_dec returned the honest shared secret for a modified ciphertext "
                         "(bit %llu flipped) at %s",
                         bit, c.it->label);
            else if (rc == 0)
                j->res->implicit_rejections++;
            else
                j->res->error_returns++;
        }
        free(ct);
        free(pos);
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu modified ciphertexts (%d of the first ciphertext's %llu bytes%s): %lu implicit rejections (rc 0, "
             "another secret), %lu error returns",
             j->res->tried, first_np, first_len,
             (ull)first_np < first_len ? ", stratified over the whole ciphertext" : ", every byte",
             j->res->implicit_rejections, j->res->error_returns);
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

/* ---- rejection_quality ----
 * Implicit rejection must make the output for a modified ciphertext
 * unpredictable: (c) two different modified ciphertexts give two outputs,
 * (d) another secret key gives another output for the same ciphertext,
 * (e) the same key and ciphertext give the same output again,
 * (b) the outputs agree with the honest secret on as many bits as chance
 * (two-sided binomial over every output bit, normal approximation with
 * continuity correction, p < 1e-6: |z| > 4.8916). Outputs equal to the honest
 * secret are modified_ciphertext's (a); an error return (explicit rejection)
 * is reported, not failed. */
#define REJ_SAMPLE 16  /* modified ciphertexts per record */
#define REJ_OTHER_SK 4 /* of them decapsulated under another key too, and again under the same one */
#define REJ_Z 4.8916   /* two-sided p = 1e-6 */

static int popcount8(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

void sec_kem_rejection_quality(sec_job *j)
{
    kem_case c;
    const sec_material *m = j->mat;
    unsigned long outputs = 0, errors = 0, collisions = 0, sk_same = 0, sk_tried = 0, rep_tried = 0, rep_diff = 0;
    double agree = 0, bits = 0;
    const char *coll_at = "", *sk_at = "", *rep_at = "";
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c) || c.ct_len == 0 || c.ss_len == 0)
            continue;
        ull pos[REJ_SAMPLE];
        int np = sec_sample(c.ct_len, REJ_SAMPLE, 2, pos), nout = 0, other = (c.it->key + 1) % j->plan->nkeys;
        unsigned char *ct = malloc(c.ct_len), *out = malloc((size_t)REJ_SAMPLE * (j->claims.ss + 1));
        unsigned char *ss2 = malloc(j->claims.ss + 1);
        for (int p = 0; p < np; p++) {
            ull bit = 8 * pos[p] + (pos[p] + 3) % 8, len = 0; /* other bits than modified_ciphertext's */
            char what[160];
            memcpy(ct, c.ct, c.ct_len);
            ct[bit / 8] ^= (unsigned char)(0x80u >> (bit % 8));
            snprintf(what, sizeof what, "%s, ciphertext bit %llu flipped (rejection_quality)", c.it->label, bit);
            unsigned char *o = out + (size_t)nout * (j->claims.ss + 1);
            j->res->tried++;
            int rc = sec_dec(what, c.sk, c.sk_len, ct, c.ct_len, o, &len);
            if (rc != 0) {
                errors++;
                continue;
            }
            if (len != c.ss_len || memcmp(o, c.ss, (size_t)len) == 0)
                continue; /* the honest secret: modified_ciphertext's (a) */
            outputs++;
            for (ull b = 0; b < len; b++)
                agree += popcount8((unsigned)(unsigned char)~(o[b] ^ c.ss[b]));
            bits += 8.0 * (double)len;
            for (int q = 0; q < nout; q++)
                if (memcmp(out + (size_t)q * (j->claims.ss + 1), o, (size_t)len) == 0) {
                    if (collisions++ == 0)
                        coll_at = c.it->label;
                    break;
                }
            nout++;
            if (nout <= REJ_OTHER_SK) { /* (e): the same (sk, ct) again */
                char w2[200];
                ull len2 = 0;
                snprintf(w2, sizeof w2, "%s, decapsulated again", what);
                j->res->tried++;
                rep_tried++;
                if (sec_dec(w2, c.sk, c.sk_len, ct, c.ct_len, ss2, &len2) == 0 &&
                    (len2 != len || memcmp(ss2, o, (size_t)len) != 0) && rep_diff++ == 0)
                    rep_at = c.it->label;
            }
            if (nout <= REJ_OTHER_SK && other != c.it->key && m->key_ok[other] &&
                !(m->sk_len[other] == c.sk_len && memcmp(m->sk[other], c.sk, (size_t)c.sk_len) == 0)) {
                /* (an identical key is seed_dependence's finding, not another key) */
                char w2[200];
                ull len2 = 0;
                snprintf(w2, sizeof w2, "%s, secret key of record %d", what, other);
                j->res->tried++;
                sk_tried++;
                if (sec_dec(w2, m->sk[other], m->sk_len[other], ct, c.ct_len, ss2, &len2) == 0 && len2 == len &&
                    memcmp(ss2, o, (size_t)len) == 0 && sk_same++ == 0)
                    sk_at = c.it->label;
            }
        }
        free(ct);
        free(out);
        free(ss2);
    }
    double z = bits > 0 ? (fabs(agree - bits / 2) - 0.5) / sqrt(bits / 4) : 0;
    if (collisions)
        sec_fail(j,
                 "rejection value independent of the ciphertext: kem_dec gave an earlier modified ciphertext's "
                 "output again for %lu of %lu modified ciphertexts (first at %s)",
                 collisions, outputs, coll_at);
    if (sk_same)
        sec_fail(j,
                 "rejection independent of the secret key: kem_dec gave the same output under the secret key of "
                 "another record for %lu of %lu modified ciphertexts (first at %s)",
                 sk_same, sk_tried, sk_at);
    if (rep_diff)
        sec_fail(j,
                 "rejection not repeatable: kem_dec gave another output for the same secret key and modified "
                 "ciphertext for %lu of %lu repeats (first at %s)",
                 rep_diff, rep_tried, rep_at);
    if (z > REJ_Z)
        sec_fail(j,
                 "rejection leaks the shared secret: rejection outputs agree with the honest secret on %.0f of "
                 "%.0f bits (%.1f%%, z = %.1f, two-sided p < 1e-6)",
                 agree, bits, 100 * agree / bits, agree > bits / 2 ? z : -z);
    if (outputs == 0)
        snprintf(j->res->note, sizeof j->res->note, "%lu modified ciphertexts: %s", j->res->tried,
                 errors ? "explicit rejection (kem_dec returned an error for every one; reported, not failed)"
                        : "no rejection output to judge (each gave the honest secret: see modified_ciphertext)");
    else
        snprintf(
            j->res->note, sizeof j->res->note,
            "%lu implicit rejections all distinct, each changed under another key (%lu tried) and repeated "
            "under the same one (%lu tried), %.0f of %.0f bits agree with the honest secret (%.1f%%, |z| = %.1f)%s",
            outputs, sk_tried, rep_tried, agree, bits, 100 * agree / bits, fabs(z),
            errors ? "; some explicit rejections (error returns)" : "");
}
