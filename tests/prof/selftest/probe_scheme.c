/* prof selftest probe: a tiny SIG "scheme" whose ICCS calls are known by
 * construction (tests/prof/selftest/probe.prof.json was written by hand from
 * this description, not from a run):
 *   keygen  get_random_number on drng_algorithm 1 (256 bits); on a private
 *           context: init_random_number 1 + get_random_number 1 (other_ctx);
 *           each of these 3 DRNG calls makes 1 nested sm3hash (probe_drng.c);
 *           pseudoXOF 1 (100 bits in, 512 out)
 *   sign    sm3hash m_len / 8 times (64 bits in): 7, 8, ..., 16 over the KAT
 *           records; pseudohash(768) 1 over the message
 *   verify  sm3hash 2 (256 bits in)
 * PROBE_NONDET: sign makes 0-2 extra sm3hash calls depending on how often it
 * ran before (not deterministic for a seed). PROBE_CRASH: sign crashes when
 * m_len is 80 (KAT record 3). */
#include <signal.h>
#include <string.h>

#include "auxfunc.h"
#include "drng.h"

extern DRNG_ctx drng_algorithm;

unsigned long long sig_get_pk_len_bytes(void)
{
    return 64;
}
unsigned long long sig_get_sk_len_bytes(void)
{
    return 64;
}
unsigned long long sig_get_sn_len_bytes(void)
{
    return 96;
}

int sig_keygen(unsigned char *pk, unsigned long long *pk_len, unsigned char *sk, unsigned long long *sk_len)
{
    DRNG_ctx own;
    if (get_random_number(&drng_algorithm, sk, 256) || init_random_number(&own, sk, 32) ||
        get_random_number(&own, sk + 32, 256))
        return -2;
    if (pseudoXOF(512, sk, 100, pk))
        return -2;
    *pk_len = 64;
    *sk_len = 64;
    return 0;
}

int sig_sign(unsigned char *sk, unsigned long long sk_len, unsigned char *m, unsigned long long m_len,
             unsigned char *sn, unsigned long long *sn_len)
{
    unsigned long long extra = 0;
#ifdef PROBE_NONDET
    static unsigned long long runs;
    extra = runs++ % 3;
#endif
#ifdef PROBE_CRASH
    if (m_len == 80)
        raise(SIGSEGV);
#endif
    memcpy(sn, sk, sk_len < 32 ? sk_len : 32);
    for (unsigned long long i = 0; i < m_len / 8 + extra; i++)
        if (sm3hash(256, m + 8 * (i % (m_len / 8)), 64, sn))
            return -2;
    if (pseudohash(768, m, 8 * m_len, sn))
        return -2;
    *sn_len = 96;
    return 0;
}

int sig_verify(unsigned char *pk, unsigned long long pk_len, unsigned char *sn, unsigned long long sn_len,
               unsigned char *m, unsigned long long m_len)
{
    unsigned char h[32];
    (void)pk_len;
    (void)sn_len;
    (void)m;
    (void)m_len;
    return sm3hash(256, sn, 256, h) || sm3hash(256, pk, 256, h) ? -2 : 0;
}
