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
    if (rc == 0)
        step("sig_verify", sec_verify("the memcheck record", pk, pk_len, sn, sn_len, m, mlen));
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
    ngcc_katgen_init(&gen, in.is_kem);
    for (int r = 0; r <= record; r++)
        ngcc_katgen_next(&gen, seed, m);
    sec_call_seed(seed, "the memcheck record");
    if (in.is_kem)
        kem_record(&c);
    else
        sig_record(&c, m, ngcc_katgen_mlen(record));
    printf("#DONE\n");
    return 0;
}
