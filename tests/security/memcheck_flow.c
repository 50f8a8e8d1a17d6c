#include "memcheck_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_katgen.h"
#include "sec_buf.h"
#include "sec_call.h"

static void step(const char *call, int rc)
{
    printf("#STEP %s %d\n", call, rc);
    fflush(stdout);
}

/* One case of every negative class after the honest record, each named by
 * a "#CASE" line before its call, so that an error valgrind reports on a
 * reject path is named with its case (sec_memerr context). */
static void negative_case(const char *cls, const char *what)
{
    printf("#CASE %s: %s\n", cls, what);
    fflush(stdout);
}

enum { NEG_MODIFIED, NEG_KEY, NEG_EMPTY, NEG_TRUNCATED, NEG_EXTENDED, NEG_ZERO, NEG_FF, NEG_MESSAGE, NEG_CLASSES };

static const char *const neg_class[NEG_CLASSES] = {"modified_%s",           "wrong_%s_key",    "truncated_%s (empty)",
                                                   "truncated_%s",          "extended_%s",     "zero_ff_%s (all-0x00)",
                                                   "zero_ff_%s (all-0xFF)", "modified_message"};

/* input in (len bytes, room for len + 1) and key made into class k's case;
 * returns the length to pass */
static ull negative_input(int k, unsigned char *in, ull len, unsigned char *key)
{
    switch (k) {
    case NEG_MODIFIED:
        in[0] ^= 0x80;
        return len;
    case NEG_KEY:
        key[0] ^= 0x80;
        return len;
    case NEG_EMPTY:
        return 0;
    case NEG_TRUNCATED:
        return len ? len - 1 : 0;
    case NEG_EXTENDED:
        in[len] = 0;
        return len + 1;
    case NEG_ZERO:
    case NEG_FF:
        memset(in, k == NEG_ZERO ? 0x00 : 0xFF, (size_t)len);
        return len;
    }
    return len;
}

static void sig_negatives(const unsigned char *pk, ull pk_len, const unsigned char *sn, ull sn_len,
                          const unsigned char *m, ull mlen)
{
    unsigned char *in = malloc(sn_len + 1), *key = malloc(pk_len + 1), *msg = malloc(mlen + 1);
    for (int k = 0; k < NEG_CLASSES; k++) {
        char cls[64], what[160];
        memcpy(in, sn, (size_t)sn_len);
        memcpy(key, pk, (size_t)pk_len);
        memcpy(msg, m, (size_t)mlen);
        ull n = negative_input(k, in, sn_len, key), ml = mlen;
        if (k == NEG_MESSAGE && ml)
            msg[0] ^= 0x80;
        else if (k == NEG_MESSAGE)
            msg[0] = 0, ml = 1;
        snprintf(cls, sizeof cls, neg_class[k], k == NEG_KEY ? "public" : "signature");
        snprintf(what, sizeof what, "the memcheck record, %s (sn_len %llu)", cls, n);
        negative_case(cls, what);
        int rc = sec_verify(what, key, pk_len, in, n, msg, ml);
        printf("#STEP sig_verify[%s] %d\n", cls, rc);
        fflush(stdout);
    }
    free(in);
    free(key);
    free(msg);
}

static void kem_negatives(const sec_claims *c, const unsigned char *sk, ull sk_len, const unsigned char *ct, ull ct_len)
{
    unsigned char *in = malloc(ct_len + 1), *key = malloc(sk_len + 1), *ss = malloc(c->ss + 1);
    for (int k = 0; k < NEG_MESSAGE; k++) {
        char cls[64], what[160];
        ull ss_len;
        memcpy(in, ct, (size_t)ct_len);
        memcpy(key, sk, (size_t)sk_len);
        ull n = negative_input(k, in, ct_len, key);
        snprintf(cls, sizeof cls, neg_class[k], k == NEG_KEY ? "secret" : "ciphertext");
        snprintf(what, sizeof what, "the memcheck record, %s (ct_len %llu)", cls, n);
        negative_case(cls, what);
        int rc = sec_dec(what, key, sk_len, in, n, ss, &ss_len);
        printf("#STEP kem_dec[%s] %d\n", cls, rc);
        fflush(stdout);
    }
    free(in);
    free(key);
    free(ss);
}

static void sig_record(const sec_claims *c, const unsigned char *m, unsigned long long mlen)
{
    unsigned char *pk = malloc(c->pk + 1), *sk = malloc(c->sk + 1), *sn = malloc(c->sig + 1);
    ull pk_len, sk_len, sn_len;
    int rc = sec_keygen("the memcheck record", pk, &pk_len, sk, &sk_len);
    step("sig_keygen", rc);
    if (rc == 0) {
        rc = sec_sign("the memcheck record", sk, sk_len, m, mlen, sn, &sn_len);
        step("sig_sign", rc);
    }
    if (rc == 0) {
        step("sig_verify", sec_verify("the memcheck record", pk, pk_len, sn, sn_len, m, mlen));
        sig_negatives(pk, pk_len, sn, sn_len, m, mlen);
    }
    free(pk);
    free(sk);
    free(sn);
}

static void kem_record(const sec_claims *c)
{
    unsigned char *pk = malloc(c->pk + 1), *sk = malloc(c->sk + 1), *ct = malloc(c->ct + 1);
    unsigned char *ss = malloc(c->ss + 1), *ss1 = malloc(c->ss + 1);
    ull pk_len, sk_len, ct_len, ss_len, ss1_len;
    int rc = sec_keygen("the memcheck record", pk, &pk_len, sk, &sk_len);
    step("kem_keygen", rc);
    if (rc == 0) {
        rc = sec_enc("the memcheck record", pk, pk_len, ss, &ss_len, ct, &ct_len);
        step("kem_enc", rc);
    }
    if (rc == 0) {
        rc = sec_dec("the memcheck record", sk, sk_len, ct, ct_len, ss1, &ss1_len);
        step("kem_dec", rc);
        int same = rc == 0 && ss_len == ss1_len && memcmp(ss, ss1, (size_t)ss_len) == 0;
        printf("#STEP shared_secret %s\n", same ? "same" : "differs");
        kem_negatives(c, sk, sk_len, ct, ct_len);
    }
    free(pk);
    free(sk);
    free(ct);
    free(ss);
    free(ss1);
}

int memcheck_flow(const char *lib, int record)
{
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(lib, &in, err, sizeof err)) {
        printf("#LOADFAIL %s\n", err);
        return 2;
    }
    const ngcc_meta *mt = in.meta;
    printf("#META type %s\n#META algorithm_instance %s\n#META impl_variant %s\n#META build_variant %s\n"
           "#META flagset %s\n#META compiler %s\n#META flags %s\n",
           mt->type, mt->algorithm_instance, mt->impl_variant, mt->build_variant, mt->flagset, mt->compiler, mt->flags);
    sec_claims c;
    sec_claims_read(&in, &c);
    static sec_result res; /* where/progress bookkeeping of the call wrappers */
    sec_buf_set_exact(1);
    sec_call_begin(&in, &res, &c);
    unsigned char seed[NGCC_KAT_SEED_BYTES], m[NGCC_KAT_MSG_MAX];
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, in.is_kem || in.type == NGCC_TYPE_KEX);
    for (int r = 0; r <= record; r++)
        ngcc_katgen_next(&gen, seed, m);
    if (in.type == NGCC_TYPE_HASH) {
        memcheck_flow_hash(&c);
        printf("#DONE\n");
        return 0;
    }
    if (in.type == NGCC_TYPE_KEX) { /* seeds the DRNG itself */
        memcheck_flow_kex(&c, seed);
        printf("#DONE\n");
        return 0;
    }
    sec_call_seed(seed, "the memcheck record");
    if (in.is_kem)
        kem_record(&c);
    else
        sig_record(&c, m, ngcc_katgen_mlen(record));
    printf("#DONE\n");
    return 0;
}
