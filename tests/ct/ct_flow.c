#include "ct_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "ngcc_katgen.h"
#include "ngcc_loader.h"

typedef void (*secret_draws_fn)(int on);
typedef void (*draws_fn)(unsigned long long *calls, unsigned long long *bytes);

int ct_flow_selftest_harness_leak;
static secret_draws_fn set_secret;
static const ct_ranges *declared;
static draws_fn get_draws;
static unsigned long long last_calls, last_bytes;

#define PUBLIC(p, n) (void)VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define SECRET(p, n) (void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

/* before an operation: its draws secret unless declared public (flag 0: an
 * operation with no secret draws of its own: verify, dec) */
static void begin(unsigned public_ops, unsigned flag)
{
    set_secret(flag && !(public_ops & flag));
    get_draws(&last_calls, &last_bytes);
}

/* after it: the return code is public (also when computed from secrets:
 * the caller branches on it); then "#OP op rc" and what it drew */
static void end(const char *op, int *rc, unsigned public_ops, unsigned flag)
{
    PUBLIC(rc, sizeof *rc);
    unsigned long long c, b;
    get_draws(&c, &b);
    printf("#OP %s %d\n#DRAWS %s %llu %llu%s\n", op, *rc, op, c - last_calls, b - last_bytes,
           (public_ops & flag) ? " public" : "");
    fflush(stdout);
}

/* Bytes of sk that are a verbatim copy of pk are public (PK.seed and root in
 * a hash-based sk, pk inside a KEM's sk): marking them secret would make every
 * branch on the public key "secret-dependent". A copy is a run of at least
 * COPY_MIN bytes found in pk whose every COPY_MIN-byte window holds at least
 * COPY_DISTINCT different byte values (so zero padding or other low-entropy
 * runs present in both are not taken for a copy). The comparison runs on a
 * declassified duplicate of sk: the harness may look, the instance's sk stays
 * secret. Prints "#SKPUBLIC from to pk_offset" per range. */
#define COPY_MIN 16
#define COPY_DISTINCT 8
#define TABLE_BITS 16

static unsigned long long window_hash(const unsigned char *p)
{
    unsigned long long h = 1469598103934665603ull;
    for (int i = 0; i < COPY_MIN; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int varied(const unsigned char *p)
{
    unsigned char seen[256] = {0};
    int n = 0;
    for (int i = 0; i < COPY_MIN; i++)
        if (!seen[p[i]]++)
            n++;
    return n >= COPY_DISTINCT;
}

static void declassify_pk_copies(unsigned char *sk, ull skl, const unsigned char *pk, ull pkl)
{
    if (skl < COPY_MIN || pkl < COPY_MIN)
        return;
    unsigned char *dup = malloc((size_t)skl);
    long *table = malloc(sizeof(long) << TABLE_BITS); /* pk offsets of windows, -1 empty */
    if (!dup || !table) {
        free(dup);
        free(table);
        return;
    }
    memcpy(dup, sk, (size_t)skl);
    PUBLIC(dup, skl);
    const unsigned mask = (1u << TABLE_BITS) - 1;
    for (unsigned i = 0; i <= mask; i++)
        table[i] = -1;
    for (ull j = 0; j + COPY_MIN <= pkl; j++) {
        unsigned h = (unsigned)(window_hash(pk + j) & mask);
        for (unsigned probe = 0; probe <= mask; probe++, h = (h + 1) & mask)
            if (table[h] < 0) {
                table[h] = (long)j;
                break;
            } else if (!memcmp(pk + table[h], pk + j, COPY_MIN))
                break;
    }
    ull i = 0;
    while (i + COPY_MIN <= skl) {
        long at = -1;
        if (varied(dup + i)) {
            unsigned h = (unsigned)(window_hash(dup + i) & mask);
            for (unsigned probe = 0; probe <= mask && table[h] >= 0; probe++, h = (h + 1) & mask)
                if (!memcmp(pk + table[h], dup + i, COPY_MIN)) {
                    at = table[h];
                    break;
                }
        }
        if (at < 0) {
            i++;
            continue;
        }
        ull len = COPY_MIN; /* extend the copy as far as both go on agreeing */
        while (i + len < skl && (ull)at + len < pkl && dup[i + len] == pk[at + len])
            len++;
        PUBLIC(sk + i, len);
        printf("#SKPUBLIC %llu %llu %ld\n", i, i + len, at);
        i += len;
    }
    free(dup);
    free(table);
}

/* the override's public sk ranges ("#SKPUBLIC from to -1") */
static void declassify_declared(unsigned char *sk, ull skl)
{
    for (int r = 0; declared && r < declared->n; r++) {
        ull a = declared->from[r], b = declared->to[r] < skl ? declared->to[r] : skl;
        if (a < b) {
            PUBLIC(sk + a, b - a);
            printf("#SKPUBLIC %llu %llu -1\n", a, b);
        }
    }
}

/* sk is secret before sign/dec, except the bytes that are public anyway:
 * copies of pk and the ranges the override declares */
static void mark_sk_secret(unsigned char *sk, ull skl, const unsigned char *pk, ull pkl)
{
    SECRET(sk, skl);
    declassify_pk_copies(sk, skl, pk, pkl);
    declassify_declared(sk, skl);
}

static void sig_record(ngcc_instance *in, unsigned pub, const unsigned char *m0, ull mlen)
{
    ull pkc = in->sig.pk_len(), skc = in->sig.sk_len(), snc = in->sig.sn_len();
    unsigned char *pk = calloc(1, pkc + 1), *sk = calloc(1, skc + 1), *sn = calloc(1, snc + 1);
    unsigned char *m = calloc(1, mlen + 1);
    ull pkl = pkc, skl = skc, snl = snc;
    memcpy(m, m0, (size_t)mlen);
    begin(pub, CT_PUBLIC_KEYGEN);
    int rc = in->sig.keygen(pk, &pkl, sk, &skl);
    end("keygen", &rc, pub, CT_PUBLIC_KEYGEN);
    PUBLIC(pk, pkc);
    PUBLIC(&pkl, sizeof pkl);
    PUBLIC(&skl, sizeof skl);
    if (rc == 0) {
        mark_sk_secret(sk, skl < skc ? skl : skc, pk, pkl < pkc ? pkl : pkc);
        if (ct_flow_selftest_harness_leak && (sk[0] & 1)) /* selftest: a harness bug on purpose */
            printf("#SELFTEST odd\n");
        begin(pub, CT_PUBLIC_SIGN);
        rc = in->sig.sign(sk, skl, m, mlen, sn, &snl);
        end("sign", &rc, pub, CT_PUBLIC_SIGN);
        PUBLIC(sn, snc);
        PUBLIC(&snl, sizeof snl);
    }
    if (rc == 0) {
        begin(pub, 0);
        rc = in->sig.verify(pk, pkl, sn, snl < snc ? snl : snc, m, mlen);
        end("verify", &rc, 0, 0);
    }
    free(pk);
    free(sk);
    free(sn);
    free(m);
}

static void kem_record(ngcc_instance *in, unsigned pub)
{
    ull pkc = in->kem.pk_len(), skc = in->kem.sk_len(), ctc = in->kem.ct_len(), ssc = in->kem.ss_len();
    unsigned char *pk = calloc(1, pkc + 1), *sk = calloc(1, skc + 1), *ct = calloc(1, ctc + 1);
    unsigned char *ss = calloc(1, ssc + 1), *ss1 = calloc(1, ssc + 1);
    ull pkl = pkc, skl = skc, ctl = ctc, ssl = ssc, ss1l = ssc;
    begin(pub, CT_PUBLIC_KEYGEN);
    int rc = in->kem.keygen(pk, &pkl, sk, &skl);
    end("keygen", &rc, pub, CT_PUBLIC_KEYGEN);
    PUBLIC(pk, pkc);
    PUBLIC(&pkl, sizeof pkl);
    PUBLIC(&skl, sizeof skl);
    if (rc == 0) {
        begin(pub, CT_PUBLIC_ENC);
        rc = in->kem.enc(pk, pkl, ss, &ssl, ct, &ctl);
        end("enc", &rc, pub, CT_PUBLIC_ENC);
        PUBLIC(ct, ctc);
        PUBLIC(&ctl, sizeof ctl);
        PUBLIC(&ssl, sizeof ssl);
    }
    if (rc == 0) {
        mark_sk_secret(sk, skl < skc ? skl : skc, pk, pkl < pkc ? pkl : pkc);
        if (ct_flow_selftest_harness_leak && (sk[0] & 1)) /* selftest: a harness bug on purpose */
            printf("#SELFTEST odd\n");
        begin(pub, 0);
        rc = in->kem.dec(sk, skl, ct, ctl < ctc ? ctl : ctc, ss1, &ss1l);
        end("dec", &rc, 0, 0);
        PUBLIC(&ss1l, sizeof ss1l);
        /* the calls are over: the harness may now look at the secrets */
        PUBLIC(ss, ssc);
        PUBLIC(ss1, ssc);
        int same = rc == 0 && ssl == ss1l && ssl <= ssc && memcmp(ss, ss1, (size_t)ssl) == 0;
        printf("#SHARED %s\n", same ? "same" : "differs");
    }
    free(pk);
    free(sk);
    free(ct);
    free(ss);
    free(ss1);
}

int ct_flow(const char *lib, int record, unsigned public_ops, const ct_ranges *public_sk)
{
    declared = public_sk;
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(lib, &in, err, sizeof err)) {
        printf("#LOADFAIL %s\n", err);
        return 2;
    }
    set_secret = (secret_draws_fn)ngcc_instance_sym(&in, "ngcc_ct_secret_draws");
    get_draws = (draws_fn)ngcc_instance_sym(&in, "ngcc_ct_draws");
    if (!set_secret || !get_draws) {
        printf("#LOADFAIL %s is not a ct build (no ngcc_ct_secret_draws): build it with VARIANT=ct\n", lib);
        return 3;
    }
    const ngcc_meta *mt = in.meta;
    printf("#META type %s\n#META algorithm_instance %s\n#META build_variant %s\n#META flagset %s\n"
           "#META compiler %s\n#META flags %s\n",
           mt->type, mt->algorithm_instance, mt->build_variant, mt->flagset, mt->compiler, mt->flags);
    unsigned char seed[NGCC_KAT_SEED_BYTES], m[NGCC_KAT_MSG_MAX];
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, in.is_kem);
    for (int r = 0; r <= record; r++)
        ngcc_katgen_next(&gen, seed, m);
    set_secret(0);
    in.seed(seed, sizeof seed); /* the seed is public: the KAT's */
    if (in.is_kem)
        kem_record(&in, public_ops);
    else
        sig_record(&in, public_ops, m, ngcc_katgen_mlen(record));
    printf("#DONE\n");
    fflush(stdout);
    return 0;
}
