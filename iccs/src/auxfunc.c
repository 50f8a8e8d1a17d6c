/* ngcc-ctest: ICCS auxiliary hash functions, bit-compatible with the official
 * auxfunc.c: sm3hash (SM3-256), pseudohash (SM3 + HMAC-SM3, 512/768/1024
 * bits) and pseudoXOF (KDF-SM3 counter mode).
 *
 * Call-counting property: the three public functions never call one another
 * (nor the DRNG) through public symbols. They share only the hidden
 * ngcc_iccs_sm3_* helpers and file-static functions, so interposing on
 * sm3hash/pseudohash/pseudoXOF counts exactly the scheme's own calls.
 *
 * All lengths are in bits, MSB-first; "||" is bit-level concatenation. No
 * heap memory is used: everything streams through the incremental SM3, so the
 * official -2/-3 (malloc failure) codes cannot occur here. */
#include "auxfunc.h"
#include "sm3.h"

#include <stdio.h>
#include <string.h>

#define AUX_SM3_BYTES NGCC_ICCS_SM3_DIGEST_BYTES

static void aux_bad_length(void)
{
    fprintf(stderr, "ERROR: Digestbitlen not in the limitation. \n");
}

/* ---- HMAC-SM3 with the fixed pseudohash key -------------------------------
 * KEY = SM3("3.14159265358979") || SM3("2.71828182845904") (64 bytes, one SM3
 * block, so it is used as is). tests/unit/test_auxfunc.c re-derives it. */
static const unsigned char aux_hmac_key[64] = {
    0x53, 0x07, 0xF6, 0xD5, 0xEB, 0x6A, 0x3C, 0xED, 0x3D, 0x24, 0xC5, 0x3C, 0xC9, 0xC8, 0x2C, 0xCE,
    0x2F, 0x89, 0x36, 0x39, 0x70, 0x23, 0xF0, 0x69, 0x5C, 0x26, 0xC8, 0x0C, 0x1A, 0xB1, 0x82, 0xA7,
    0x1D, 0xB0, 0x2B, 0xA9, 0x2F, 0x54, 0x40, 0x18, 0x11, 0x5A, 0x96, 0xE7, 0x19, 0x66, 0x2C, 0xA3,
    0x2B, 0x7C, 0x7E, 0xFC, 0x0A, 0x6D, 0x24, 0x82, 0x15, 0x07, 0x66, 0xBA, 0x6F, 0x65, 0x5B, 0x8E,
};

/* SM3 states after absorbing KEY^ipad and KEY^opad (one block each). */
typedef struct {
    ngcc_iccs_sm3_ctx inner;
    ngcc_iccs_sm3_ctx outer;
} aux_hmac_key_state;

static void aux_hmac_prepare(aux_hmac_key_state *ks)
{
    unsigned char ipad[64], opad[64];
    size_t i;
    for (i = 0; i < sizeof ipad; i++) {
        ipad[i] = (unsigned char)(aux_hmac_key[i] ^ 0x36U);
        opad[i] = (unsigned char)(aux_hmac_key[i] ^ 0x5CU);
    }
    ngcc_iccs_sm3_init(&ks->inner);
    ngcc_iccs_sm3_update(&ks->inner, ipad, 8 * sizeof ipad);
    ngcc_iccs_sm3_init(&ks->outer);
    ngcc_iccs_sm3_update(&ks->outer, opad, 8 * sizeof opad);
}

/* HMAC(a || b) over the bit strings a (abits) and b (bbits). */
static void aux_hmac2(const aux_hmac_key_state *ks, const unsigned char *a, unsigned long long abits,
                      const unsigned char *b, unsigned long long bbits, unsigned char mac[AUX_SM3_BYTES])
{
    ngcc_iccs_sm3_ctx ctx = ks->inner;
    unsigned char inner[AUX_SM3_BYTES];
    ngcc_iccs_sm3_update(&ctx, a, abits);
    ngcc_iccs_sm3_update(&ctx, b, bbits);
    ngcc_iccs_sm3_final(&ctx, inner);
    ctx = ks->outer;
    ngcc_iccs_sm3_update(&ctx, inner, 8 * AUX_SM3_BYTES);
    ngcc_iccs_sm3_final(&ctx, mac);
}

/* HMAC of a 256-bit value */
static void aux_hmac256(const aux_hmac_key_state *ks, const unsigned char x[AUX_SM3_BYTES],
                        unsigned char mac[AUX_SM3_BYTES])
{
    aux_hmac2(ks, x, 8 * AUX_SM3_BYTES, NULL, 0, mac);
}

/* SM3(a || b) over bit strings */
static void aux_sm3_2(const unsigned char *a, unsigned long long abits, const unsigned char *b,
                      unsigned long long bbits, unsigned char out[AUX_SM3_BYTES])
{
    ngcc_iccs_sm3_ctx ctx;
    ngcc_iccs_sm3_init(&ctx);
    ngcc_iccs_sm3_update(&ctx, a, abits);
    ngcc_iccs_sm3_update(&ctx, b, bbits);
    ngcc_iccs_sm3_final(&ctx, out);
}

/* ---- sm3hash --------------------------------------------------------------- */
int sm3hash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits, unsigned char *digest)
{
    if (digest_len_bits != 256) {
        aux_bad_length();
        return -4;
    }
    ngcc_iccs_sm3(msg, msg_len_bits, digest);
    return 0;
}

/* ---- pseudohash ------------------------------------------------------------
 * T = t || 0x00 (16 bits), t = 2/3/4 for 512/768/1024.
 *   k1 = HMAC(T || M), h1 = SM3(M || T), h2 = SM3(k1 || h1)
 *   512 : h1 || h2
 *   768 : k2 = HMAC(h1), h3 = SM3(h2 || k2); h1 || h2 || h3
 *   1024: k2 = HMAC(h1), k3 = HMAC(h2), h3 = SM3(h2 || k2), k4 = HMAC(h3),
 *         h4 = SM3(k3 || h3 || k4); h1 || h2 || h3 || h4
 * Results are built in a local buffer and copied out at the end, so the
 * digest may alias msg. */
int pseudohash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits, unsigned char *digest)
{
    aux_hmac_key_state ks;
    unsigned char tag[2];
    unsigned char k1[AUX_SM3_BYTES], k2[AUX_SM3_BYTES], k3[AUX_SM3_BYTES], k4[AUX_SM3_BYTES];
    unsigned char h[4 * AUX_SM3_BYTES]; /* h1 h2 h3 h4 */
    unsigned char *h1 = h, *h2 = h + AUX_SM3_BYTES, *h3 = h + 2 * AUX_SM3_BYTES, *h4 = h + 3 * AUX_SM3_BYTES;
    ngcc_iccs_sm3_ctx ctx;

    switch (digest_len_bits) {
    case 512:
        tag[0] = 0x02;
        break;
    case 768:
        tag[0] = 0x03;
        break;
    case 1024:
        tag[0] = 0x04;
        break;
    default:
        aux_bad_length();
        return -4;
    }
    tag[1] = 0x00;

    aux_hmac_prepare(&ks);
    aux_hmac2(&ks, tag, 16, msg, msg_len_bits, k1);
    aux_sm3_2(msg, msg_len_bits, tag, 16, h1);
    aux_sm3_2(k1, 8 * AUX_SM3_BYTES, h1, 8 * AUX_SM3_BYTES, h2);

    if (digest_len_bits >= 768) {
        aux_hmac256(&ks, h1, k2);
        aux_sm3_2(h2, 8 * AUX_SM3_BYTES, k2, 8 * AUX_SM3_BYTES, h3);
    }
    if (digest_len_bits == 1024) {
        aux_hmac256(&ks, h2, k3);
        aux_hmac256(&ks, h3, k4);
        ngcc_iccs_sm3_init(&ctx);
        ngcc_iccs_sm3_update(&ctx, k3, 8 * AUX_SM3_BYTES);
        ngcc_iccs_sm3_update(&ctx, h3, 8 * AUX_SM3_BYTES);
        ngcc_iccs_sm3_update(&ctx, k4, 8 * AUX_SM3_BYTES);
        ngcc_iccs_sm3_final(&ctx, h4);
    }
    memcpy(digest, h, (size_t)digest_len_bits / 8);
    return 0;
}

/* ---- pseudoXOF -------------------------------------------------------------
 * B_ct = SM3(M || ct), ct a 32-bit big-endian counter from 1, appended at bit
 * level right after the n-th message bit. Output: first ceil(L/8) bytes of
 * B_1 || B_2 || ..., low bits of a partial last byte cleared. No length check
 * (the official header asks for L < 2^40 - 2^8 bits; past 2^32 blocks the
 * 32-bit counter wraps, as in the official code).
 *
 * By default M is re-hashed for every block, as the official code does: the
 * cost model (O(n * L)) is part of what evaluators time and profile, and a
 * submission that ships no auxfunc.c must not look faster than one that
 * ships the official file. Define NGCC_ICCS_XOF_MIDSTATE to absorb M once and
 * clone the SM3 state per counter instead (identical output, O(n + L)). */
int pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *output)
{
    unsigned long long nbytes = (output_len_bits + 7) / 8;
    unsigned int rem = (unsigned int)(output_len_bits & 7U);
    unsigned char *out = output;
    unsigned char block[AUX_SM3_BYTES];
    unsigned char ctr[4];
    uint32_t ct = 1;
    ngcc_iccs_sm3_ctx ctx;
#ifdef NGCC_ICCS_XOF_MIDSTATE
    ngcc_iccs_sm3_ctx base;

    if (nbytes == 0)
        return 0;
    ngcc_iccs_sm3_init(&base);
    ngcc_iccs_sm3_update(&base, msg, msg_len_bits);
#else
    if (nbytes == 0)
        return 0;
#endif

    while (nbytes > 0) {
        size_t take = nbytes < AUX_SM3_BYTES ? (size_t)nbytes : AUX_SM3_BYTES;
        ctr[0] = (unsigned char)(ct >> 24);
        ctr[1] = (unsigned char)(ct >> 16);
        ctr[2] = (unsigned char)(ct >> 8);
        ctr[3] = (unsigned char)ct;
#ifdef NGCC_ICCS_XOF_MIDSTATE
        ctx = base;
#else
        ngcc_iccs_sm3_init(&ctx);
        ngcc_iccs_sm3_update(&ctx, msg, msg_len_bits);
#endif
        ngcc_iccs_sm3_update(&ctx, ctr, 32);
        if (take == AUX_SM3_BYTES) {
            ngcc_iccs_sm3_final(&ctx, out);
        } else {
            ngcc_iccs_sm3_final(&ctx, block);
            memcpy(out, block, take);
        }
        out += take;
        nbytes -= take;
        ct++;
    }
    if (rem != 0)
        out[-1] &= (unsigned char)(0xFF00U >> rem);
    return 0;
}
