#include "ct_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "ct_public_draws.h"
#include "ngcc_katgen.h"
#include "ngcc_kex_pass.h"
#include "ngcc_loader.h"

typedef void (*secret_draws_fn)(int on);
typedef void (*draws_fn)(unsigned long long *calls, unsigned long long *bytes);
typedef int (*public_draw_fn)(unsigned long long index, unsigned long long from, unsigned long long to);

int ct_flow_selftest_harness_leak;
static secret_draws_fn set_secret;
static const ct_ranges *declared;
static draws_fn get_draws;
static unsigned long long last_calls, last_bytes;

/* an operation whose draws are secret whatever the override (the KEX calls,
 * CryptHash: the override names SIG/KEM operations only) */
#define CT_SECRET_ALWAYS 0x100u

#define PUBLIC(p, n) (void)VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define SECRET(p, n) (void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

/* before an operation: its draws secret unless declared public (flag 0: an
 * operation with no secret draws of its own: verify, dec) */
static void begin(unsigned public_ops, unsigned flag)
{
    set_secret(flag && !(public_ops & flag & ~CT_SECRET_ALWAYS));
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
           (public_ops & flag & ~CT_SECRET_ALWAYS) ? " public" : "");
    ct_public_draws_op(op, last_calls, c);
    fflush(stdout);
}

/* Bytes of sk that are a verbatim copy of pk are public (PK.seed and root in
 * a hash-based sk, pk inside a KEM's sk): marking them secret would make every
 * branch on the public key "secret-dependent". A copy is a run of at least
 * COPY_MIN bytes found in pk whose every COPY_MIN-byte window holds at least
 * COPY_DISTINCT different byte values (so zero padding or other low-entropy
 * runs present in both are not taken for a copy). The comparison runs on a
 * declassified duplicate of sk: the harness may look, the instance's sk stays
 * secret. Prints "#SKPUBLIC from to pk_offset buffer" per range. */
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

static void declassify_pk_copies(const char *name, unsigned char *sk, ull skl, const unsigned char *pk, ull pkl)
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
        printf("#SKPUBLIC %llu %llu %ld %s\n", i, i + len, at, name);
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
            printf("#SKPUBLIC %llu %llu -1 sk\n", a, b);
        }
    }
}

/* sk is secret before sign/dec, except the bytes that are public anyway:
 * copies of pk and the ranges the override declares */
static void mark_sk_secret(unsigned char *sk, ull skl, const unsigned char *pk, ull pkl)
{
    SECRET(sk, skl);
    declassify_pk_copies("sk", sk, skl, pk, pkl);
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
    ct_public_output("pk", pk, pkc);
    if (rc == 0) {
        mark_sk_secret(sk, skl < skc ? skl : skc, pk, pkl < pkc ? pkl : pkc);
        if (ct_flow_selftest_harness_leak && (sk[0] & 1)) /* selftest: a harness bug on purpose */
            printf("#SELFTEST odd\n");
        begin(pub, CT_PUBLIC_SIGN);
        rc = in->sig.sign(sk, skl, m, mlen, sn, &snl);
        end("sign", &rc, pub, CT_PUBLIC_SIGN);
        PUBLIC(sn, snc);
        PUBLIC(&snl, sizeof snl);
        ct_public_output("signature", sn, snc);
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
    ct_public_output("pk", pk, pkc);
    if (rc == 0) {
        begin(pub, CT_PUBLIC_ENC);
        rc = in->kem.enc(pk, pkl, ss, &ssl, ct, &ctl);
        end("enc", &rc, pub, CT_PUBLIC_ENC);
        PUBLIC(ct, ctc);
        PUBLIC(&ctl, sizeof ctl);
        PUBLIC(&ssl, sizeof ssl);
        ct_public_output("ct", ct, ctc);
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

/* the KEX buffers: long-term keys, states, messages, shared secrets */
/* m1 .. m8: the messages of up to NGCC_KEX_MAXP passes */
enum { K_PKA, K_PKB, K_SKA, K_SKB, K_STA, K_STB, K_M1, K_M2, K_M3, K_M8 = K_M1 + 7, K_SSA, K_SSB, K_N };
static const char *const kex_name[K_N] = {"pka", "pkb", "ska", "skb", "sta", "stb", "m1",  "m2",
                                          "m3",  "m4",  "m5",  "m6",  "m7",  "m8",  "ssa", "ssb"};

typedef struct {
    unsigned char *b[K_N];
    ull cap[K_N], len[K_N];
} kex_bufs;

/* a secret input (ska, skb, sta, stb) before a call: secret, except the
 * bytes that are copies of a public value already published (pka, pkb and
 * the messages: a state keeps the messages it sent and received) */
static void kex_secret(kex_bufs *k, int i)
{
    ull n = k->len[i] < k->cap[i] ? k->len[i] : k->cap[i];
    SECRET(k->b[i], n);
    static const int pub[] = {K_PKA, K_PKB, K_M1, K_M1 + 1, K_M1 + 2, K_M1 + 3, K_M1 + 4, K_M1 + 5, K_M1 + 6, K_M8};
    for (size_t j = 0; j < sizeof pub / sizeof pub[0]; j++)
        if (k->len[pub[j]])
            declassify_pk_copies(kex_name[i], k->b[i], n, k->b[pub[j]],
                                 k->len[pub[j]] < k->cap[pub[j]] ? k->len[pub[j]] : k->cap[pub[j]]);
}

/* a public output after a call (a public key or a message): declassified and
 * registered for the search of public draws */
static void kex_public(kex_bufs *k, int i)
{
    PUBLIC(&k->len[i], sizeof k->len[i]);
    PUBLIC(k->b[i], k->cap[i]);
    ct_public_output(kex_name[i], k->b[i], k->len[i] < k->cap[i] ? k->len[i] : k->cap[i]);
}

/* the official sequence (KAT_KEX.c): init_a, init_b, pass 1 (A), pass 2 (B),
 * pass 3 (A) if pass 2 did not finish (and passes 4.. up to a claim above
 * 3 while none finishes: the package's extended driver), derive_a on B's
 * last message, derive_b on A's last message */
static void kex_record(ngcc_instance *in)
{
    const ngcc_kex_api *a = &in->kex;
    kex_bufs k;
    ull total = a->total_msg_len();
    ull caps[K_N] = {a->pk_len(), a->pk_len(), a->sk_len(), a->sk_len(), a->sta_len(), a->stb_len()};
    caps[K_SSA] = caps[K_SSB] = a->ss_len();
    for (int i = K_M1; i <= K_M8; i++)
        caps[i] = total;
    for (int i = 0; i < K_N; i++) {
        k.cap[i] = caps[i];
        k.len[i] = caps[i];
        k.b[i] = calloc(1, (size_t)caps[i] + 1);
    }
    const unsigned f = CT_SECRET_ALWAYS;
    unsigned char **b = k.b;
    ull *l = k.len;
    begin(0, f);
    int rc = a->init_a(b[K_PKA], &l[K_PKA], b[K_SKA], &l[K_SKA], b[K_STA], &l[K_STA]);
    end("init_a", &rc, 0, f);
    kex_public(&k, K_PKA);
    PUBLIC(&l[K_SKA], sizeof l[K_SKA]);
    PUBLIC(&l[K_STA], sizeof l[K_STA]);
    if (rc >= 0) {
        begin(0, f);
        rc = a->init_b(b[K_PKB], &l[K_PKB], b[K_SKB], &l[K_SKB], b[K_STB], &l[K_STB]);
        end("init_b", &rc, 0, f);
        kex_public(&k, K_PKB);
        PUBLIC(&l[K_SKB], sizeof l[K_SKB]);
        PUBLIC(&l[K_STB], sizeof l[K_STB]);
    }
    unsigned char *ma = NULL, *mb = NULL;
    ull ma_len = 0, mb_len = 0;
    for (int i = K_M1; i <= K_M8; i++)
        l[i] = 0;
    int finished = 0;
    if (rc >= 0) {
        kex_secret(&k, K_SKA);
        kex_secret(&k, K_STA);
        if (ct_flow_selftest_harness_leak && (b[K_SKA][0] & 1)) /* selftest: a harness bug on purpose */
            printf("#SELFTEST odd\n");
        begin(0, f);
        rc = a->pass1_a(b[K_SKA], l[K_SKA], b[K_PKB], l[K_PKB], b[K_STA], &l[K_STA], b[K_M1], &l[K_M1]);
        end("pass1", &rc, 0, f);
        PUBLIC(&l[K_STA], sizeof l[K_STA]);
        kex_public(&k, K_M1);
        ma = b[K_M1];
        ma_len = l[K_M1];
        finished = rc == 1;
    }
    if (rc >= 0 && !finished) {
        kex_secret(&k, K_SKB);
        kex_secret(&k, K_STB);
        begin(0, f);
        rc = a->pass2_b(b[K_SKB], l[K_SKB], b[K_PKA], l[K_PKA], b[K_M1], l[K_M1], b[K_STB], &l[K_STB], b[K_M2],
                        &l[K_M2]);
        end("pass2", &rc, 0, f);
        PUBLIC(&l[K_STB], sizeof l[K_STB]);
        kex_public(&k, K_M2);
        mb = b[K_M2];
        mb_len = l[K_M2];
        finished = rc == 1;
    }
    const int last = ngcc_kex_last_pass(a->passes_num());
    for (int p = 3; p <= last && rc >= 0 && !finished && a->pass[p]; p++) {
        int by_b = p % 2 == 0, in_m = K_M1 + p - 2, out_m = in_m + 1;
        int sk = by_b ? K_SKB : K_SKA, pk = by_b ? K_PKA : K_PKB, st = by_b ? K_STB : K_STA;
        kex_secret(&k, sk);
        kex_secret(&k, st);
        begin(0, f);
        rc = a->pass[p](b[sk], l[sk], b[pk], l[pk], b[in_m], l[in_m], b[st], &l[st], b[out_m], &l[out_m]);
        end(ngcc_kex_pass_op(p), &rc, 0, f);
        PUBLIC(&l[st], sizeof l[st]);
        kex_public(&k, out_m);
        if (by_b)
            mb = b[out_m], mb_len = l[out_m];
        else
            ma = b[out_m], ma_len = l[out_m];
        finished = rc == 1;
    }
    if (rc >= 0) {
        kex_secret(&k, K_SKA);
        kex_secret(&k, K_STA);
        begin(0, f);
        rc = a->derive_a(b[K_SKA], l[K_SKA], b[K_PKB], l[K_PKB], mb, mb_len, b[K_STA], l[K_STA], b[K_SSA], &l[K_SSA]);
        end("derive_a", &rc, 0, f);
        PUBLIC(&l[K_SSA], sizeof l[K_SSA]);
    }
    if (rc >= 0) {
        kex_secret(&k, K_SKB);
        kex_secret(&k, K_STB);
        begin(0, f);
        rc = a->derive_b(b[K_SKB], l[K_SKB], b[K_PKA], l[K_PKA], ma, ma_len, b[K_STB], l[K_STB], b[K_SSB], &l[K_SSB]);
        end("derive_b", &rc, 0, f);
        PUBLIC(&l[K_SSB], sizeof l[K_SSB]);
        /* the calls are over: the harness may now look at the secrets */
        PUBLIC(b[K_SSA], k.cap[K_SSA]);
        PUBLIC(b[K_SSB], k.cap[K_SSB]);
        int same = rc >= 0 && l[K_SSA] == l[K_SSB] && l[K_SSA] <= k.cap[K_SSA] &&
                   memcmp(b[K_SSA], b[K_SSB], (size_t)l[K_SSA]) == 0;
        printf("#SHARED %s\n", same ? "same" : "differs");
    }
    for (int i = 0; i < K_N; i++)
        free(k.b[i]);
}

/* CryptHash in keyed use: the message is the secret (HMAC, KDFs and
 * hash-based signatures hash secrets), its length public. Hashed twice: a
 * multi-block whole-byte message (KAT messages 0..3 of the SIG stream, 272
 * bytes) and the same less 3 bits (a partial last byte). */
static void hash_record(ngcc_instance *in, ngcc_katgen *gen, const unsigned char *m0, ull m0len)
{
    unsigned char msg[4 * NGCC_KAT_MSG_MAX], m[NGCC_KAT_MSG_MAX], seed[NGCC_KAT_SEED_BYTES];
    ull n = m0len;
    memcpy(msg, m0, (size_t)m0len);
    for (int r = 1; r < 4; r++) {
        ngcc_katgen_next(gen, seed, m);
        memcpy(msg + n, m, (size_t)ngcc_katgen_mlen(r));
        n += ngcc_katgen_mlen(r);
    }
    int dbits = in->hash.digest_bits;
    ull dlen = dbits > 0 ? ((ull)dbits + 7) / 8 : 0;
    unsigned char *digest = calloc(1, (size_t)dlen + 1);
    const ull bits[2] = {8 * n, 8 * n - 3};
    const char *names[2] = {"hash", "hash_partial"};
    for (int i = 0; i < 2; i++) {
        SECRET(msg, n);
        begin(0, CT_SECRET_ALWAYS);
        int rc = in->hash.hash(dbits, msg, bits[i], digest);
        end(names[i], &rc, 0, CT_SECRET_ALWAYS);
        PUBLIC(digest, dlen + 1);
    }
    PUBLIC(msg, n);
    free(digest);
}

int ct_flow(const char *lib, int record, const ct_flow_opts *opts)
{
    declared = opts->public_sk;
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(lib, &in, err, sizeof err)) {
        printf("#LOADFAIL %s\n", err);
        return 2;
    }
    set_secret = (secret_draws_fn)ngcc_instance_sym(&in, "ngcc_ct_secret_draws");
    get_draws = (draws_fn)ngcc_instance_sym(&in, "ngcc_ct_draws");
    ct_draw_fn get_draw = (ct_draw_fn)ngcc_instance_sym(&in, "ngcc_ct_draw");
    public_draw_fn public_draw = (public_draw_fn)ngcc_instance_sym(&in, "ngcc_ct_public_draw");
    if (!set_secret || !get_draws || !get_draw || !public_draw) {
        printf("#LOADFAIL %s is not a ct build (no ngcc_ct_secret_draws, ngcc_ct_draw): build it with VARIANT=ct\n",
               lib);
        return 3;
    }
    for (int i = 0; opts->public_draws && i < opts->public_draws->n; i++)
        public_draw(opts->public_draws->draw[i], opts->public_draws->from[i], opts->public_draws->to[i]);
    const ngcc_meta *mt = in.meta;
    printf("#META type %s\n#META algorithm_instance %s\n#META build_variant %s\n#META flagset %s\n"
           "#META compiler %s\n#META flags %s\n",
           mt->type, mt->algorithm_instance, mt->build_variant, mt->flagset, mt->compiler, mt->flags);
    unsigned char seed[NGCC_KAT_SEED_BYTES], m[NGCC_KAT_MSG_MAX];
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, in.type != NGCC_TYPE_SIG && in.type != NGCC_TYPE_HASH);
    for (int r = 0; r <= record; r++)
        ngcc_katgen_next(&gen, seed, m);
    set_secret(0);
    if (in.type == NGCC_TYPE_HASH) {
        hash_record(&in, &gen, m, ngcc_katgen_mlen(record));
    } else {
        in.seed(seed, sizeof seed); /* the seed is public: the KAT's */
        if (in.type == NGCC_TYPE_KEM)
            kem_record(&in, opts->public_ops);
        else if (in.type == NGCC_TYPE_KEX)
            kex_record(&in);
        else
            sig_record(&in, opts->public_ops, m, ngcc_katgen_mlen(record));
    }
    if (opts->find_public_draws)
        ct_public_draws_report(get_draw);
    printf("#DONE\n");
    fflush(stdout);
    return 0;
}
