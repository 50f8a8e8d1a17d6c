/* ngcc-ctest: private, bit-granular SM3 (GB/T 32905-2016) for the ICCS
 * compatibility layer (drng.c, auxfunc.c).
 *
 * This file is compiled INTO third-party submission libraries, which may ship
 * their own sm3_* functions. Therefore every symbol carries the
 * ngcc_iccs_sm3_ prefix and hidden visibility: nothing here is exported from
 * a shared object and nothing can collide with a submission's symbols.
 *
 * Bit strings are MSB-first: an n-bit string is the first n bits of the byte
 * array, each byte read from bit 7 down to bit 0. Bits of a last partial byte
 * past the requested count are ignored.
 *
 * Compatibility note: the 64-bit length field reproduces the official ICCS
 * SM3 exactly, including its behaviour for messages of 2^32 bits or more
 * (see ngcc_iccs_sm3_final in sm3.c). Below 2^32 bits it is standard SM3.
 */
#ifndef NGCC_ICCS_SM3_H
#define NGCC_ICCS_SM3_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define NGCC_ICCS_HIDDEN __attribute__((visibility("hidden")))
#else
#define NGCC_ICCS_HIDDEN
#endif

#define NGCC_ICCS_SM3_DIGEST_BYTES 32
#define NGCC_ICCS_SM3_BLOCK_BYTES 64

typedef struct {
    uint32_t h[8];              /* chaining value */
    unsigned long long nblocks; /* 512-bit blocks compressed so far */
    unsigned int used;          /* bits pending in buf, 0..511 */
    unsigned char buf[NGCC_ICCS_SM3_BLOCK_BYTES];
} ngcc_iccs_sm3_ctx;

NGCC_ICCS_HIDDEN void ngcc_iccs_sm3_init(ngcc_iccs_sm3_ctx *ctx);

/* Absorb the first nbits bits of data (MSB-first). The context may currently
 * hold any number of bits: concatenation is at bit level. Reads exactly
 * ceil(nbits/8) bytes; data may be NULL when nbits is 0. */
NGCC_ICCS_HIDDEN void ngcc_iccs_sm3_update(ngcc_iccs_sm3_ctx *ctx, const unsigned char *data, unsigned long long nbits);

/* Pad, write the 32-byte digest. The context must be re-initialised before reuse. */
NGCC_ICCS_HIDDEN void ngcc_iccs_sm3_final(ngcc_iccs_sm3_ctx *ctx, unsigned char digest[NGCC_ICCS_SM3_DIGEST_BYTES]);

/* One-shot: digest of the first nbits bits of msg. */
NGCC_ICCS_HIDDEN void ngcc_iccs_sm3(const unsigned char *msg, unsigned long long nbits,
                                    unsigned char digest[NGCC_ICCS_SM3_DIGEST_BYTES]);

#ifdef __cplusplus
}
#endif

#endif /* NGCC_ICCS_SM3_H */
