/* ngcc-ct: the program valgrind runs (ngcc-ct --run). One KAT record of the
 * instance (seed, keygen, sign and verify, or keygen, enc and dec) called
 * directly, with the secrets marked undefined for memcheck and the public
 * outputs declassified right after each call:
 *   secret  the DRNG output drawn in keygen/sign/enc (the ct library's
 *           __wrap_get_random_number, cmake/instance/ngcc_glue_ct.c), sk
 *           before sign/dec, the shared secret (derived from both, never
 *           declassified until the calls are over)
 *   public  pk after keygen, the signature after sign, the ciphertext after
 *           enc, every returned length and return code
 * sk bytes that are a verbatim copy of pk are public (found automatically),
 * and so are the sk ranges the override declares public ("ct": {"public_sk":
 * ["32:64"]}, e.g. a hash of pk kept in sk).
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

/* 0 done (whatever the results), 2 not loaded, 3 not a ct library */
int ct_flow(const char *lib, int record, unsigned public_ops, const ct_ranges *public_sk);

#endif
