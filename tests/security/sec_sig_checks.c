/* ngcc-security: the SIG checks. Each works on the keys and signatures of
 * the material that could be made; a signature is judged under its own
 * message and key unless the check changes one of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_check.h"

#define MSG_BITS_SAMPLED 8 /* first, last and 6 evenly spread bits */
#define SIG_FULL_MAX 16384 /* flip every byte of the first signature up to this size */
#define SIG_LARGE_SAMPLE 4096
#define SIG_OTHER_SAMPLE 32 /* bytes of each further signature */
#define SIG_TAIL 8          /* the last bytes (padding, if any) always */

typedef struct {
    const sec_item *it;
    const unsigned char *pk, *sn;
    ull pk_len, sn_len;
} sig_case;

/* the signature of item i with its own key; 0 if it could not be made */
static int get_case(const sec_job *j, int i, sig_case *c)
{
    const sec_material *m = j->mat;
    if (!m->item_ok[i])
        return 0;
    c->it = &j->plan->item[i];
    c->pk = m->pk[c->it->key];
    c->pk_len = m->pk_len[c->it->key];
    c->sn = m->out[i];
    c->sn_len = m->out_len[i];
    return 1;
}

static void flip_bit(unsigned char *b, ull bit)
{
    b[bit / 8] ^= (unsigned char)(0x80u >> (bit % 8)); /* bit 0 = MSB of byte 0, as in the ICCS API */
}

void sec_sig_honest(sec_job *j)
{
    sig_case c;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c))
            continue;
        j->res->tried++;
        int rc = sec_verify(c.it->label, c.pk, c.pk_len, c.sn, c.sn_len, c.it->m, c.it->mlen);
        if (rc != 0)
            sec_fail(j, "sig_verify rejected an honest signature (returned %d) at %s", rc, c.it->label);
    }
    snprintf(j->res->note, sizeof j->res->note, "%lu honest signatures of %d messages under %d keys verified",
             j->res->tried, j->plan->nitems, j->plan->nkeys);
}

/* verifies the item's signature over message m (len bytes); desc says how
 * the message was modified */
static void try_message(sec_job *j, const sig_case *c, const unsigned char *m, ull len, const char *desc)
{
    char what[200];
    snprintf(what, sizeof what, "%s, %s", c->it->label, desc);
    j->res->tried++;
    if (sec_verify(what, c->pk, c->pk_len, c->sn, c->sn_len, m, len) == 0)
        sec_fail(j, "sig_verify accepted %s at %s", desc, c->it->label);
}

void sec_sig_modified_message(sec_job *j)
{
    sig_case c;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c))
            continue;
        ull len = c.it->mlen, bits[MSG_BITS_SAMPLED];
        unsigned char *m = malloc(len + 1);
        char desc[80];
        int nb = sec_sample(8 * len, MSG_BITS_SAMPLED, 0, bits);
        for (int b = 0; b < nb; b++) {
            memcpy(m, c.it->m, len);
            flip_bit(m, bits[b]);
            snprintf(desc, sizeof desc, "a modified message (bit %llu flipped)", bits[b]);
            try_message(j, &c, m, len, desc);
        }
        if (len)
            memcpy(m, c.it->m, len);
        m[len] = 0;
        try_message(j, &c, m, len + 1, "the message with one byte appended");
        if (len)
            try_message(j, &c, m, len - 1, "the message with its last byte removed");
        free(m);
    }
    snprintf(j->res->note, sizeof j->res->note, "%lu modified messages rejected", j->res->tried);
}

/* byte positions to flip: every byte of the first signature (a stratified
 * sample above SIG_FULL_MAX or --max-flips), a sample of the others */
static int sig_positions(const sec_job *j, int first, ull n, ull **pos)
{
    int max = j->opt->other_flips > 0 ? j->opt->other_flips : SIG_OTHER_SAMPLE;
    if (first)
        max = j->opt->max_flips ? j->opt->max_flips : (n <= SIG_FULL_MAX ? (int)n : SIG_LARGE_SAMPLE);
    *pos = malloc(sizeof **pos * (size_t)(max ? max : 1));
    return sec_sample(n, max, SIG_TAIL, *pos);
}

/* A flipped bit of a valid signature that still verifies for the same
 * message and key is malleability (SUF-CMA broken), not a forgery of a new
 * message: MALLEABLE, counted over every flip with the byte range accepted. */
void sec_sig_modified_signature(sec_job *j)
{
    sig_case c;
    int first = 1, first_np = 0;
    ull first_len = 0, lo = 0, hi = 0, first_bit = 0;
    const char *first_at = "";
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c) || c.sn_len == 0)
            continue;
        ull *pos;
        int np = sig_positions(j, first, c.sn_len, &pos);
        if (first)
            first_np = np, first_len = c.sn_len;
        unsigned char *sn = malloc(c.sn_len);
        for (int p = 0; p < np; p++) {
            ull bit = 8 * pos[p] + pos[p] % 8;
            char what[160];
            memcpy(sn, c.sn, c.sn_len);
            flip_bit(sn, bit);
            snprintf(what, sizeof what, "%s, signature bit %llu flipped", c.it->label, bit);
            j->res->tried++;
            if (sec_verify(what, c.pk, c.pk_len, sn, c.sn_len, c.it->m, c.it->mlen) == 0) {
                if (j->res->malleable.count == 0)
                    lo = hi = pos[p], first_bit = bit, first_at = c.it->label;
                lo = pos[p] < lo ? pos[p] : lo;
                hi = pos[p] > hi ? pos[p] : hi;
                sec_malleable(j, "sig_verify accepted a modified signature (bit %llu flipped, byte %llu of %llu) at %s",
                              bit, pos[p], c.sn_len, c.it->label);
            }
        }
        free(sn);
        free(pos);
        first = 0;
    }
    sec_malleable_summary(j,
                          "sig_verify accepted %lu of %lu single-bit flips of valid signatures for their own message "
                          "and key (bytes %llu..%llu of %llu; first: bit %llu at %s)",
                          j->res->malleable.count, j->res->tried, lo, hi, first_len, first_bit, first_at);
    snprintf(j->res->note, sizeof j->res->note,
             "%lu signatures with one bit flipped rejected (%d of the first signature's %llu bytes%s)", j->res->tried,
             first_np, first_len, (ull)first_np < first_len ? ", stratified over the whole signature" : "");
}

void sec_sig_wrong_public_key(sec_job *j)
{
    sig_case c;
    const sec_material *m = j->mat;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c))
            continue;
        int other = (c.it->key + 1) % j->plan->nkeys;
        if (!m->key_ok[other])
            continue;
        char what[160];
        snprintf(what, sizeof what, "%s, public key of record %d", c.it->label, other);
        j->res->tried++;
        if (sec_verify(what, m->pk[other], m->pk_len[other], c.sn, c.sn_len, c.it->m, c.it->mlen) == 0)
            sec_fail(j, "sig_verify accepted %s's signature under the public key of record %d", c.it->label, other);
    }
    snprintf(j->res->note, sizeof j->res->note, "%lu signatures rejected under another key", j->res->tried);
}

/* An empty or one-byte signature is not derived from a valid one: accepting
 * it is a forgery (CRYPTOFAIL). A valid signature with its last byte cut or
 * with trailing bytes is a changed valid signature: malleability. */
void sec_sig_truncated(sec_job *j)
{
    sig_case c;
    const char *first_at = "";
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c) || c.sn_len == 0)
            continue;
        ull lens[3] = {0, 1, c.sn_len - 1};
        for (int l = 0; l < 3; l++) {
            if (lens[l] >= c.sn_len || (l == 2 && lens[2] <= 1))
                continue; /* longer than the signature, or tried already */
            char what[160];
            snprintf(what, sizeof what, "%s, signature truncated to %llu bytes", c.it->label, lens[l]);
            j->res->tried++;
            if (sec_verify(what, c.pk, c.pk_len, c.sn, lens[l], c.it->m, c.it->mlen) != 0)
                continue;
            if (l < 2) {
                sec_fail(j,
                         "sig_verify accepted %s signature for %s's message (a forgery: nothing of the valid "
                         "signature is left)",
                         lens[l] ? "a one-byte" : "an empty", c.it->label);
            } else {
                if (j->res->malleable.count == 0)
                    first_at = c.it->label;
                sec_malleable(j, "sig_verify accepted %s's signature truncated to %llu of %llu bytes", c.it->label,
                              lens[l], c.sn_len);
            }
        }
    }
    sec_malleable_summary(j,
                          "sig_verify accepted %lu valid signatures with their last byte cut off, for their own "
                          "message and key (first at %s; %lu truncations tried)",
                          j->res->malleable.count, first_at, j->res->tried);
    snprintf(j->res->note, sizeof j->res->note, "%lu truncated signatures rejected", j->res->tried);
}

void sec_sig_extended(sec_job *j)
{
    static const ull extra[] = {1, 16};
    sig_case c;
    const char *first_at = "";
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!get_case(j, i, &c))
            continue;
        for (int e = 0; e < 2; e++) {
            unsigned char *sn = malloc(c.sn_len + extra[e]);
            memcpy(sn, c.sn, c.sn_len);
            sec_plan_bytes(sn + c.sn_len, extra[e], (unsigned)(i * 2 + e));
            if (extra[e] == 1)
                sn[c.sn_len] = 0; /* the byte most likely to be ignored */
            char what[160];
            snprintf(what, sizeof what, "%s, signature extended by %llu bytes", c.it->label, extra[e]);
            j->res->tried++;
            if (sec_verify(what, c.pk, c.pk_len, sn, c.sn_len + extra[e], c.it->m, c.it->mlen) == 0) {
                if (j->opt->ext_finding) {
                    sec_finding(j,
                                "sig_verify accepted %s's signature with %llu extra trailing byte(s) "
                                "(tolerated: \"extended_signature\": \"finding\")",
                                c.it->label, extra[e]);
                } else {
                    if (j->res->malleable.count == 0)
                        first_at = c.it->label;
                    sec_malleable(j, "sig_verify accepted %s's signature with %llu extra trailing byte(s)", c.it->label,
                                  extra[e]);
                }
            }
            free(sn);
        }
    }
    sec_malleable_summary(j,
                          "sig_verify accepted %lu of %lu valid signatures with 1 or 16 trailing bytes appended, "
                          "for their own message and key (first at %s)",
                          j->res->malleable.count, j->res->tried, first_at);
    snprintf(j->res->note, sizeof j->res->note, "%lu extended signatures rejected", j->res->tried);
}

void sec_sig_zero_ff(sec_job *j)
{
    sig_case c;
    for (int k = 0; k < j->plan->nkeys; k++) { /* items 0..nkeys-1: the KAT records */
        if (!get_case(j, k, &c))
            continue;
        ull lens[2] = {c.sn_len, j->claims.sig};
        unsigned char *sn = malloc(lens[1] ? lens[1] : 1);
        for (int f = 0; f < 2; f++) {
            for (int l = 0; l < 2; l++) {
                if (l == 1 && lens[1] == lens[0])
                    continue;
                memset(sn, f ? 0xFF : 0x00, lens[l]);
                char what[160];
                snprintf(what, sizeof what, "%s's message, all-0x%s signature", c.it->label, f ? "FF" : "00");
                j->res->tried++;
                if (sec_verify(what, c.pk, c.pk_len, sn, lens[l], c.it->m, c.it->mlen) == 0)
                    sec_fail(j, "sig_verify accepted an all-0x%s signature of %llu bytes for %s's message",
                             f ? "FF" : "00", lens[l], c.it->label);
            }
        }
        free(sn);
    }
    snprintf(j->res->note, sizeof j->res->note, "%lu all-0x00 and all-0xFF signatures rejected", j->res->tried);
}
