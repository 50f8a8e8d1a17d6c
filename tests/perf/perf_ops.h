/* ngcc-perf: the operations that are timed and measured, on the official
 * KAT inputs: every timed call repeats one KAT record's call exactly (same
 * seed, DRNG position, key, message, signature or ciphertext), so the timed
 * work is the work the KAT test checked. Shared by the timing, memory, size
 * and bench drivers. */
#ifndef PERF_OPS_H
#define PERF_OPS_H
#include <stddef.h>

#include "ngcc_katgen.h"
#include "ngcc_loader.h"

/* SIG: keygen sign verify; KEM: keygen enc dec; KEX: one op per call of the
 * official KAT_KEX.c flow (iccs-kex-hash.md 2.3) and the whole flow
 * (exchange: init_a .. derive_b as the driver calls them); HASH: CryptHash
 * of one message length (op name "hash-<bytes>") */
typedef enum {
    PERF_KEYGEN,
    PERF_SIGN,
    PERF_VERIFY,
    PERF_ENC,
    PERF_DEC,
    PERF_KEX_INIT_A,
    PERF_KEX_INIT_B,
    PERF_KEX_PASS1,
    PERF_KEX_PASS2,
    PERF_KEX_PASS3,
    PERF_KEX_PASS4, /* .. PASS8: the passes of protocols claiming more than 3 (NGCC_KEX_MAXP) */
    PERF_KEX_PASS5,
    PERF_KEX_PASS6,
    PERF_KEX_PASS7,
    PERF_KEX_PASS8,
    PERF_KEX_DERIVE_A,
    PERF_KEX_DERIVE_B,
    PERF_KEX_EXCHANGE,
    PERF_HASH
} perf_op;

/* the state of one KEX flow: both parties' keys, states, messages and
 * secrets, lengths as KAT_KEX.c keeps them; ma / mb alias the last message
 * A / B sent */
typedef struct {
    unsigned char *pka, *ska, *pkb, *skb, *sta, *stb, *m[NGCC_KEX_MAXP], *ssa, *ssb;
    ull pka_len, ska_len, pkb_len, skb_len, sta_len, stb_len, m_len[NGCC_KEX_MAXP], ssa_len, ssb_len;
    unsigned char *ma, *mb;
    ull ma_len, mb_len;
    int last_step; /* the step the flow ran last (exchange: where it stopped) */
    int end;       /* exchange: -2 when the flow ended normally, -1 on a pass error */
} perf_kex_io;

typedef struct {
    ull passes, claimed_sta, claimed_stb, claimed_total;
    perf_kex_io io; /* the flow of the timed calls */
    /* the untimed reference exchange of each record (setup): its secrets,
     * whether it ran to the end, and the steps it visited (bit per step) */
    unsigned char *ref_ssa[NGCC_KAT_RECORDS], *ref_ssb[NGCC_KAT_RECORDS];
    ull ref_ssa_len[NGCC_KAT_RECORDS], ref_ssb_len[NGCC_KAT_RECORDS];
    int ref_ok[NGCC_KAT_RECORDS];
    unsigned visited;
    char ref_err[300]; /* the first reference exchange's failure */
    int ref_verdict;
    /* largest lengths seen (reference exchanges and checked calls) */
    ull obs_pk, obs_sk, obs_sta, obs_stb, obs_ss, obs_m[NGCC_KEX_MAXP], obs_total;
} perf_kex;

typedef struct {
    ull bytes;             /* message length */
    unsigned char *msg;    /* from the ICCS DRNG seeded "KAT_2_12" x 8, one draw of 8 x bytes bits */
    unsigned char *digest; /* (d + 7) / 8 bytes and a guard filled before each call */
    unsigned char *ref;    /* the digest of the untimed call in setup */
    ull digest_bytes;
} perf_hash;

/* one KAT record: its seed and message, and what keygen and sign/enc made */
typedef struct {
    unsigned char seed[NGCC_KAT_SEED_BYTES];
    unsigned char m[NGCC_KAT_MSG_MAX];
    ull m_len;
    unsigned char *pk, *sk, *sn, *ct, *ss;
    ull pk_len, sk_len, sn_len, ct_len, ss_len;
} perf_record_io;

typedef struct {
    ngcc_instance *inst;
    perf_op op;
    int records;
    ull claimed_pk, claimed_sk, claimed_sn, claimed_ct, claimed_ss;
    perf_record_io rec[NGCC_KAT_RECORDS];
    /* outputs of the timed calls (lengths reset by perf_op_prepare) */
    unsigned char *out_a, *out_b;
    ull out_a_len, out_b_len;
    /* signature / ciphertext lengths seen: KAT records and timed calls */
    ull out_min, out_max;
    perf_kex kex;   /* KEX instances */
    perf_hash hash; /* HASH instances */
} perf_ctx;

/* keygen sign verify (SIG) or keygen enc dec (KEM); -1 if not an op of that type */
int perf_op_parse(const char *name, int is_kem);
/* the operation named for this instance's type (all four types; "hash-<bytes>"
 * sets *hash_bytes), or -1 */
int perf_op_parse_inst(const char *name, const ngcc_instance *inst, ull *hash_bytes);
/* the operations of a type, space-separated ("keygen sign verify", ...) */
const char *perf_op_list(const ngcc_instance *inst);
const char *perf_op_name(perf_op op);
/* prepares records 0..records-1 (1..10): their seeds and messages, and for
 * verify / dec the official flow up to the input (keygen, then sign / enc,
 * checked: verify accepts the signature, dec returns enc's secret;
 * out_min / out_max then hold their lengths). 0; or -1 with *verdict (an
 * ngcc_verdict) and a one-line reason in err */
int perf_ctx_setup(perf_ctx *c, ngcc_instance *inst, perf_op op, int records, int *verdict, char *err, size_t errlen);
/* the same by operation name, for every type (an unknown name: ERROR with
 * the type's operations named). KEX: setup runs each record's whole
 * exchange once, untimed, as the reference (its secrets check derive_a;
 * a step the exchange never reaches, e.g. pass3 of a 2-pass protocol, is
 * SKIP); HASH: the message and the reference digest */
int perf_ctx_setup_op(perf_ctx *c, ngcc_instance *inst, const char *op_name, int records, int *verdict, char *err,
                      size_t errlen);
void perf_ctx_free(perf_ctx *c);
/* untimed, before each timed call on record r, so that the call does
 * exactly the KAT's work: keygen gets the DRNG fresh from the record's seed;
 * sign / enc get the record's key pair from a fresh keygen and the DRNG just
 * where the official flow leaves it after keygen; verify / dec need nothing.
 * 0, or CRYPTOFAIL with a reason when that keygen fails */
int perf_op_prepare(perf_ctx *c, int r, char *err, size_t errlen);
/* the timed call on record r; returns the API's return code */
int perf_op_run(perf_ctx *c, int r);
/* untimed, after: 0 if the call did what it must (rc 0, verify accepted the
 * KAT signature, dec returned enc's shared secret, no length above the
 * claimed one); else the verdict (CRYPTOFAIL, OVERFLOW) and a reason */
int perf_op_check(perf_ctx *c, int r, int rc, char *err, size_t errlen);

/* KEX and HASH (perf_ops_kex.c, perf_ops_hash.c), called by the above */
int perf_kex_setup(perf_ctx *c, int *verdict, char *err, size_t errlen);
void perf_kex_free(perf_ctx *c);
int perf_kex_prepare(perf_ctx *c, int r, char *err, size_t errlen);
int perf_kex_run(perf_ctx *c, int r);
int perf_kex_check(perf_ctx *c, int r, int rc, char *err, size_t errlen);
int perf_hash_setup(perf_ctx *c, int *verdict, char *err, size_t errlen);
void perf_hash_free(perf_ctx *c);
int perf_hash_prepare(perf_ctx *c, char *err, size_t errlen);
int perf_hash_run(perf_ctx *c);
int perf_hash_check(perf_ctx *c, int rc, char *err, size_t errlen);

#endif
