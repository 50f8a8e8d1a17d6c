/* ngcc-security: seed_dependence. Keys, encapsulations and randomized
 * signatures must depend on the DRNG seed; otherwise anyone can recompute
 * them ("publicly reproducible keys", a confirmed vulnerability class).
 *
 *   keys  the key pairs of the material come from the seeds of KAT records
 *         0..nkeys-1: no two may share a public or a secret key (no call)
 *   KEM   kem_enc with key 0's public key under two seeds of our own: the
 *         ciphertexts must differ (2 enc calls)
 *   SIG   sig_sign of record 0's message with key 0's secret key under two
 *         seeds of our own; sign drew from the DRNG if the draw that follows
 *         it differs from a draw right after seeding (ngcc_drng_draw). A sign
 *         that draws must give two different signatures; one that does not
 *         is deterministic by design and passes (2 sign calls). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_check.h"

#define PROBE 32 /* bytes drawn to tell whether a call used the DRNG */

static void seed_of(unsigned char seed[SEC_SEED_BYTES], unsigned tag)
{
    sec_plan_bytes(seed, SEC_SEED_BYTES, 0x5EED0000u + tag);
}

static int same(const unsigned char *a, ull alen, const unsigned char *b, ull blen)
{
    return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}

static void keys(sec_job *j, const char *api)
{
    const sec_material *m = j->mat;
    for (int a = 0; a < j->plan->nkeys; a++)
        for (int b = a + 1; b < j->plan->nkeys; b++) {
            if (!m->key_ok[a] || !m->key_ok[b])
                continue;
            j->res->tried++;
            int pk = same(m->pk[a], m->pk_len[a], m->pk[b], m->pk_len[b]);
            int sk = same(m->sk[a], m->sk_len[a], m->sk[b], m->sk_len[b]);
            if (pk || sk)
                sec_fail(j,
                         "publicly reproducible keys: %s gave the same %s under the DRNG seeds of KAT records %d "
                         "and %d (the keys do not depend on the seed; seed_dependence)",
                         api,
                         pk && sk ? "public and secret key"
                         : pk     ? "public key"
                                  : "secret key",
                         a, b);
        }
}

static void kem_enc_twice(sec_job *j, char *note, size_t cap)
{
    const sec_material *m = j->mat;
    if (!m->key_ok[0]) {
        snprintf(note, cap, "; kem_enc not tried (no key of record 0)");
        return;
    }
    unsigned char seed[SEC_SEED_BYTES];
    unsigned char *ct[2], *ss[2];
    ull ct_len[2] = {0, 0}, ss_len[2] = {0, 0};
    int rc[2];
    for (int t = 0; t < 2; t++) {
        ct[t] = malloc(j->claims.ct + 1);
        ss[t] = malloc(j->claims.ss + 1);
        seed_of(seed, (unsigned)t);
        char what[96];
        snprintf(what, sizeof what, "record 0's public key, seed %d of seed_dependence", t + 1);
        sec_call_seed(seed, what);
        rc[t] = sec_enc(what, m->pk[0], m->pk_len[0], ss[t], &ss_len[t], ct[t], &ct_len[t]);
    }
    if (rc[0] == 0 && rc[1] == 0) {
        j->res->tried++;
        if (same(ct[0], ct_len[0], ct[1], ct_len[1]))
            sec_fail(j,
                     "publicly reproducible encapsulation: kem_enc gave the same ciphertext%s under two DRNG seeds "
                     "for record 0's public key (the encapsulation does not depend on the seed; seed_dependence)",
                     same(ss[0], ss_len[0], ss[1], ss_len[1]) ? " and shared secret" : "");
        snprintf(note, cap, "; kem_enc under two seeds gave two ciphertexts");
    } else {
        snprintf(note, cap, "; kem_enc under two seeds returned %d and %d (not compared)", rc[0], rc[1]);
    }
    for (int t = 0; t < 2; t++)
        free(ct[t]), free(ss[t]);
}

static void sig_sign_twice(sec_job *j, char *note, size_t cap)
{
    const sec_material *m = j->mat;
    const sec_item *it = &j->plan->item[0];
    if (!m->key_ok[0]) {
        snprintf(note, cap, "; sig_sign not tried (no key of record 0)");
        return;
    }
    unsigned char seed[SEC_SEED_BYTES], after[PROBE], fresh[PROBE];
    unsigned char *sn[2];
    ull sn_len[2] = {0, 0};
    int rc[2], drew = -1;
    for (int t = 0; t < 2; t++) {
        sn[t] = malloc(j->claims.sig + 1);
        seed_of(seed, 16u + (unsigned)t);
        char what[96];
        snprintf(what, sizeof what, "record 0, seed %d of seed_dependence", t + 1);
        sec_call_seed(seed, what);
        rc[t] = sec_sign(what, m->sk[0], m->sk_len[0], it->m, it->mlen, sn[t], &sn_len[t]);
        if (t == 0 && rc[0] == 0 && sec_call_drng_draw(after, PROBE, what) == 0) {
            sec_call_seed(seed, what); /* the same seed, no sign: what the DRNG gives untouched */
            if (sec_call_drng_draw(fresh, PROBE, what) == 0)
                drew = memcmp(after, fresh, PROBE) != 0;
        }
    }
    if (rc[0] != 0 || rc[1] != 0) {
        snprintf(note, cap, "; sig_sign under two seeds returned %d and %d (not compared)", rc[0], rc[1]);
    } else if (drew < 0) {
        snprintf(note, cap,
                 "; signatures not compared: the library cannot tell whether sig_sign draws from the "
                 "DRNG (no ngcc_drng_draw)");
    } else if (!drew) {
        j->res->tried++;
        if (same(sn[0], sn_len[0], sn[1], sn_len[1]))
            snprintf(note, cap,
                     "; sig_sign draws nothing from the DRNG (deterministic by design: the same signature "
                     "under two seeds)");
        else
            snprintf(note, cap,
                     "; sig_sign draws nothing from the DRNG, yet its signatures differ under two seeds "
                     "(randomness from elsewhere: see determinism)");
    } else {
        j->res->tried++;
        if (same(sn[0], sn_len[0], sn[1], sn_len[1]))
            sec_fail(j, "publicly reproducible signatures: sig_sign draws from the DRNG but gave the same signature of "
                        "record 0's message under two DRNG seeds (its randomness does not depend on the seed; "
                        "seed_dependence)");
        snprintf(note, cap, "; sig_sign draws from the DRNG and gave two signatures under two seeds");
    }
    for (int t = 0; t < 2; t++)
        free(sn[t]);
}

void sec_seed_dependence(sec_job *j)
{
    char more[200] = "";
    int is_kem = j->plan->is_kem;
    keys(j, is_kem ? "kem_keygen" : "sig_keygen");
    unsigned long pairs = j->res->tried;
    if (is_kem)
        kem_enc_twice(j, more, sizeof more);
    else
        sig_sign_twice(j, more, sizeof more);
    snprintf(j->res->note, sizeof j->res->note, "%lu key pairs from different seeds all differ%s", pairs, more);
}
