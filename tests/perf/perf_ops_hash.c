/* ngcc-perf: the hash operation (perf_ops.h): CryptHash(d, msg, 8 n, digest)
 * on one n-byte message, d = DIGEST_BIT_LENGTH as the official driver
 * passes it. The message comes from the ICCS DRNG seeded as KAT_2_12 is
 * ("KAT_2_12" x 8) by one draw of 8 n bits, so every length has its own
 * fixed message. After each call (untimed): a non-zero return is
 * CRYPTOFAIL; a digest other than the untimed first call's is CRYPTOFAIL
 * (CryptHash is not a function of its input); a write into the guard past
 * the digest's (d + 7) / 8 bytes is OVERFLOW. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drng.h"
#include "ngcc_verdict.h"
#include "perf_ops.h"

#define GUARD 64
#define GUARD_BYTE 0xA5

int perf_hash_setup(perf_ctx *c, int *verdict, char *err, size_t errlen)
{
    perf_hash *h = &c->hash;
    int d = c->inst->hash.digest_bits;
    if (d <= 0) {
        *verdict = NGCC_ERROR;
        snprintf(err, errlen, "DIGEST_BIT_LENGTH is %d: not a digest length", d);
        return -1;
    }
    h->digest_bytes = ((ull)d + 7) / 8;
    h->msg = malloc((size_t)h->bytes + 1); /* never NULL, n = 0 included (as the driver's buffers) */
    h->digest = malloc((size_t)h->digest_bytes + GUARD);
    h->ref = malloc((size_t)h->digest_bytes);
    if (!h->msg || !h->digest || !h->ref) {
        *verdict = NGCC_ERROR;
        snprintf(err, errlen, "cannot allocate a %llu-byte message", h->bytes);
        return -1;
    }
    memset(h->msg, 0, (size_t)h->bytes + 1);
    DRNG_ctx g;
    unsigned char seed[64];
    for (int i = 0; i < 8; i++)
        memcpy(seed + 8 * i, "KAT_2_12", 8);
    init_random_number(&g, seed, sizeof seed);
    if (h->bytes)
        get_random_number(&g, h->msg, 8 * h->bytes);
    memset(h->digest, GUARD_BYTE, (size_t)h->digest_bytes + GUARD);
    int rc = perf_hash_run(c);
    if (rc) {
        *verdict = NGCC_CRYPTOFAIL;
        snprintf(err, errlen, "CryptHash returned %d on the %llu-byte message while preparing the inputs", rc,
                 h->bytes);
        return -1;
    }
    memcpy(h->ref, h->digest, (size_t)h->digest_bytes);
    return 0;
}

void perf_hash_free(perf_ctx *c)
{
    free(c->hash.msg);
    free(c->hash.digest);
    free(c->hash.ref);
}

int perf_hash_prepare(perf_ctx *c, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    memset(c->hash.digest + c->hash.digest_bytes, GUARD_BYTE, GUARD);
    return 0;
}

int perf_hash_run(perf_ctx *c)
{
    return c->inst->hash.hash(c->inst->hash.digest_bits, c->hash.msg, 8 * c->hash.bytes, c->hash.digest);
}

int perf_hash_check(perf_ctx *c, int rc, char *err, size_t errlen)
{
    perf_hash *h = &c->hash;
    if (rc) {
        snprintf(err, errlen, "CryptHash returned %d on the %llu-byte message during the measurement", rc, h->bytes);
        return NGCC_CRYPTOFAIL;
    }
    for (int i = 0; i < GUARD; i++)
        if (h->digest[h->digest_bytes + (size_t)i] != GUARD_BYTE) {
            snprintf(err, errlen,
                     "CryptHash wrote past the digest: byte %llu of its buffer changed, the digest is %llu bytes "
                     "(DIGEST_BIT_LENGTH %d), on the %llu-byte message",
                     h->digest_bytes + (ull)i, h->digest_bytes, c->inst->hash.digest_bits, h->bytes);
            return NGCC_OVERFLOW;
        }
    if (memcmp(h->digest, h->ref, (size_t)h->digest_bytes) != 0) {
        snprintf(err, errlen, "CryptHash gave another digest of the same %llu-byte message than its first call",
                 h->bytes);
        return NGCC_CRYPTOFAIL;
    }
    return 0;
}
