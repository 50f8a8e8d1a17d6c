/* bench-synth: a synthetic SIG instance for the perf benchmarks only. Its
 * operations do fixed amounts of ICCS hashing, sized to take about 0.1 ms
 * (keygen), 1 ms (verify) and 100 ms (sign) on a ~2 GHz x86-64 core, so
 * repeatability can be read per operation size. Deterministic: the same
 * inputs always cost the same work.
 *   sk = seed || pk, pk = H^K(seed), sn = H^V(pk || m) (+ S - V more hashes)
 *   verify: sn == H^V(pk || m)                          (H = sm3hash 256)
 * SYNTH_SLOWDOWN_PERMILLE (default 0) scales every chain by 1 + p/1000: the
 * slowed copies the A/B detection benchmark compares with the plain one. */
#include <string.h>

#include "auxfunc.h"
#include "drng.h"

#ifndef SYNTH_SLOWDOWN_PERMILLE
#define SYNTH_SLOWDOWN_PERMILLE 0
#endif
#define SYNTH_SCALE(n) ((n) * (1000L + SYNTH_SLOWDOWN_PERMILLE) / 1000L)
#define SYNTH_KEYGEN_CALLS SYNTH_SCALE(620L)
#define SYNTH_VERIFY_CALLS SYNTH_SCALE(5700L)
#define SYNTH_SIGN_CALLS SYNTH_SCALE(600000L)
#define SYNTH_MAX_MSG 256

extern DRNG_ctx drng_algorithm;

unsigned long long sig_get_pk_len_bytes(void)
{
    return 32;
}
unsigned long long sig_get_sk_len_bytes(void)
{
    return 64;
}
unsigned long long sig_get_sn_len_bytes(void)
{
    return 32;
}

/* out = H^calls(in), the first call over len bytes */
static void chain(unsigned char out[32], const unsigned char *in, unsigned long long len, long calls)
{
    sm3hash(256, in, 8 * len, out);
    for (long i = 1; i < calls; i++)
        sm3hash(256, out, 256, out);
}

static int tag(unsigned char out[32], const unsigned char *pk, const unsigned char *m, unsigned long long m_len)
{
    unsigned char buf[32 + SYNTH_MAX_MSG];
    if (m_len > SYNTH_MAX_MSG)
        return -1;
    memcpy(buf, pk, 32);
    memcpy(buf + 32, m, m_len);
    chain(out, buf, 32 + m_len, SYNTH_VERIFY_CALLS);
    return 0;
}

int sig_keygen(unsigned char *pk, unsigned long long *pk_len, unsigned char *sk, unsigned long long *sk_len)
{
    if (get_random_number(&drng_algorithm, sk, 256))
        return -2;
    chain(pk, sk, 32, SYNTH_KEYGEN_CALLS);
    memcpy(sk + 32, pk, 32);
    *pk_len = 32;
    *sk_len = 64;
    return 0;
}

int sig_sign(unsigned char *sk, unsigned long long sk_len, unsigned char *m, unsigned long long m_len,
             unsigned char *sn, unsigned long long *sn_len)
{
    unsigned char burn[32];
    if (sk_len != 64 || tag(sn, sk + 32, m, m_len))
        return -1;
    chain(burn, sn, 32, SYNTH_SIGN_CALLS - SYNTH_VERIFY_CALLS); /* opaque calls: never elided */
    *sn_len = 32;
    return 0;
}

int sig_verify(unsigned char *pk, unsigned long long pk_len, unsigned char *sn, unsigned long long sn_len,
               unsigned char *m, unsigned long long m_len)
{
    unsigned char t[32];
    if (pk_len != 32 || sn_len != 32 || tag(t, pk, m, m_len))
        return -1;
    return memcmp(t, sn, 32) == 0 ? 0 : -1;
}
