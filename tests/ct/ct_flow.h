/* ngcc-ct: the program valgrind runs (ngcc-ct --run). One KAT record of the
 * instance (seed, keygen, sign and verify; keygen, enc and dec; the KEX
 * passes of both parties; or CryptHash on a message) called directly, with
 * the secrets marked undefined for memcheck and the public outputs
 * declassified right after each call:
 *   secret  the DRNG output drawn in keygen/sign/enc and in the KEX calls
 *           (long-term keys and ephemerals: the ct library's
 *           __wrap_get_random_number, cmake/instance/ngcc_glue_ct.c), sk
 *           before sign/dec, ska/skb and the KEX states sta/stb before every
 *           call that takes them, the shared secrets (never declassified
 *           until the calls are over), the CryptHash message (keyed use:
 *           HMAC, KDFs and hash-based signatures hash secrets)
 *   public  pk after keygen, the signature after sign, the ciphertext after
 *           enc, pka/pkb and the KEX messages, the digest, every returned
 *           length and return code
 * Bytes of sk (or a KEX state) that are a verbatim copy of a public value
 * are public (found automatically), and so are the sk ranges the override
 * declares public ("ct": {"public_sk": ["32:64"]}, e.g. a hash of pk kept in
 * sk) and the DRNG draw ranges the driver found copied into a public output
 * (ct_public_draws.h).
 * Every buffer is zero-filled first so an output a call reads before writing
 * is not mistaken for a secret. Prints "#META key value", "#OP op rc",
 * "#DRAWS op calls bytes" and "#LOADFAIL reason" lines on stdout. */
#ifndef CT_FLOW_H
#define CT_FLOW_H

/* operations whose DRNG draws are public by design (not marked) */
#define CT_PUBLIC_KEYGEN 1u
#define CT_PUBLIC_SIGN 2u
#define CT_PUBLIC_ENC 4u

/* sk ranges [from, to) declared public */
#define CT_MAX_RANGES 16
typedef struct {
    unsigned long long from[CT_MAX_RANGES], to[CT_MAX_RANGES];
    int n;
} ct_ranges;

/* selftest only (selftest/ct/harness-error): when set, the flow itself
 * branches on a secret sk byte, which the driver must judge ERROR (a harness
 * bug), never LEAK */
extern int ct_flow_selftest_harness_leak;

/* DRNG draw ranges declared public: draw (numbered from 0), [from, to) */
#define CT_MAX_DRAW_RANGES 64
typedef struct {
    unsigned long long draw[CT_MAX_DRAW_RANGES], from[CT_MAX_DRAW_RANGES], to[CT_MAX_DRAW_RANGES];
    int n;
} ct_draw_ranges;

typedef struct {
    unsigned public_ops;                /* CT_PUBLIC_* */
    const ct_ranges *public_sk;         /* override */
    const ct_draw_ranges *public_draws; /* found by a find run */
    int find_public_draws;              /* print #DRAWPUB lines at the end */
} ct_flow_opts;

/* 0 done (whatever the results), 2 not loaded, 3 not a ct library */
int ct_flow(const char *lib, int record, const ct_flow_opts *opts);

#endif
