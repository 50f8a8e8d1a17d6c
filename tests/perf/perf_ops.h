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

typedef enum { PERF_KEYGEN, PERF_SIGN, PERF_VERIFY, PERF_ENC, PERF_DEC } perf_op;

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
} perf_ctx;

/* keygen sign verify (SIG) or keygen enc dec (KEM); -1 if not an op of that type */
int perf_op_parse(const char *name, int is_kem);
const char *perf_op_name(perf_op op);
/* prepares records 0..records-1 (1..10): their seeds and messages, and for
 * verify / dec the official flow up to the input (keygen, then sign / enc,
 * checked: verify accepts the signature, dec returns enc's secret;
 * out_min / out_max then hold their lengths). 0; or -1 with *verdict (an
 * ngcc_verdict) and a one-line reason in err */
int perf_ctx_setup(perf_ctx *c, ngcc_instance *inst, perf_op op, int records, int *verdict, char *err, size_t errlen);
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

#endif
