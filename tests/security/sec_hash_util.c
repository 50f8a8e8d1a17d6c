#include "sec_hash_util.h"

#include <stdio.h>
#include <string.h>

unsigned long long sec_hash_dbytes(const sec_job *j)
{
    return j->claims.digest_bits > 0 ? ((ull)j->claims.digest_bits + 7) / 8 : 0;
}

int sec_hash_no_digest(sec_job *j)
{
    if (j->claims.digest_bits > 0)
        return 0;
    j->res->notrun = 1;
    snprintf(j->res->note, sizeof j->res->note,
             "DIGEST_BIT_LENGTH is %d: the API header must define it as the digest length in bits",
             j->claims.digest_bits);
    return 1;
}

void sec_hash_message(unsigned char *m, ull n, unsigned tag)
{
    ull nb = (n + 7) / 8;
    memset(m, 0, SEC_HASH_MAX_MSG);
    sec_plan_bytes(m, nb, 0x4A5Au + tag);
    if (n % 8)
        m[nb - 1] &= (unsigned char)(0xFF00u >> (n % 8));
}

void sec_hash_hex(char *out, size_t cap, const unsigned char *p, ull n, ull max)
{
    size_t o = 0;
    out[0] = 0;
    for (ull i = 0; i < n && i < max && o + 3 < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%02X", p[i]);
    if (n > max && o + 4 < cap)
        snprintf(out + o, cap - o, "...");
    if (n == 0)
        snprintf(out, cap, "(empty)");
}

int sec_hash_digest_of(sec_job *j, const unsigned char *m, ull n, unsigned char *d, const char *what)
{
    int rc = sec_hash(what, j->claims.digest_bits, m, n, d, 0);
    if (rc != 0) {
        sec_fail(j, "CryptHash returned %d for a %llu-bit message (%s)", rc, n, what);
        return -1;
    }
    return 0;
}

int sec_hash_same(const sec_job *j, const unsigned char *a, const unsigned char *b)
{
    return memcmp(a, b, (size_t)sec_hash_dbytes(j)) == 0;
}
