/* ngcc-ctest: private, bit-granular SM3 (GB/T 32905-2016).
 * See sm3.h for the conventions. Written from the standard; C99. */
#include "sm3.h"

#include <string.h>

/* Rotate left; well defined for every n (a rotation by 0 never shifts by 32). */
static inline uint32_t rotl32(uint32_t x, unsigned int n)
{
    n &= 31U;
    return (x << n) | (x >> ((32U - n) & 31U));
}

static inline uint32_t load_be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Round constants already rotated: K[j] = T_j <<< (j mod 32). */
static const uint32_t K[64] = {
    0x79CC4519U, 0xF3988A32U, 0xE7311465U, 0xCE6228CBU, 0x9CC45197U, 0x3988A32FU, 0x7311465EU, 0xE6228CBCU,
    0xCC451979U, 0x988A32F3U, 0x311465E7U, 0x6228CBCEU, 0xC451979CU, 0x88A32F39U, 0x11465E73U, 0x228CBCE6U,
    0x9D8A7A87U, 0x3B14F50FU, 0x7629EA1EU, 0xEC53D43CU, 0xD8A7A879U, 0xB14F50F3U, 0x629EA1E7U, 0xC53D43CEU,
    0x8A7A879DU, 0x14F50F3BU, 0x29EA1E76U, 0x53D43CECU, 0xA7A879D8U, 0x4F50F3B1U, 0x9EA1E762U, 0x3D43CEC5U,
    0x7A879D8AU, 0xF50F3B14U, 0xEA1E7629U, 0xD43CEC53U, 0xA879D8A7U, 0x50F3B14FU, 0xA1E7629EU, 0x43CEC53DU,
    0x879D8A7AU, 0x0F3B14F5U, 0x1E7629EAU, 0x3CEC53D4U, 0x79D8A7A8U, 0xF3B14F50U, 0xE7629EA1U, 0xCEC53D43U,
    0x9D8A7A87U, 0x3B14F50FU, 0x7629EA1EU, 0xEC53D43CU, 0xD8A7A879U, 0xB14F50F3U, 0x629EA1E7U, 0xC53D43CEU,
    0x8A7A879DU, 0x14F50F3BU, 0x29EA1E76U, 0x53D43CECU, 0xA7A879D8U, 0x4F50F3B1U, 0x9EA1E762U, 0x3D43CEC5U,
};

#define SM3_P0(x) ((x) ^ rotl32((x), 9) ^ rotl32((x), 17))
#define SM3_P1(x) ((x) ^ rotl32((x), 15) ^ rotl32((x), 23))
#define SM3_FF0(x, y, z) ((x) ^ (y) ^ (z))
#define SM3_GG0(x, y, z) ((x) ^ (y) ^ (z))
#define SM3_FF1(x, y, z) (((x) & (y)) | (((x) | (y)) & (z))) /* majority */
#define SM3_GG1(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))         /* choose */

/* One round with register renaming instead of moving eight words: the new A
 * lands in D's register and the new E in H's, B and F are rotated in place.
 * The caller rotates the argument order by one position per round. */
#define SM3_ROUND(FF, GG, a, b, c, d, e, f, g, h, j)                                                                   \
    do {                                                                                                               \
        uint32_t a12_ = rotl32((a), 12);                                                                               \
        uint32_t ss1_ = rotl32(a12_ + (e) + K[(j)], 7);                                                                \
        uint32_t ss2_ = ss1_ ^ a12_;                                                                                   \
        uint32_t tt1_ = FF((a), (b), (c)) + (d) + ss2_ + (w[(j)] ^ w[(j) + 4]);                                        \
        uint32_t tt2_ = GG((e), (f), (g)) + (h) + ss1_ + w[(j)];                                                       \
        (b) = rotl32((b), 9);                                                                                          \
        (f) = rotl32((f), 19);                                                                                         \
        (d) = tt1_;                                                                                                    \
        (h) = SM3_P0(tt2_);                                                                                            \
    } while (0)

/* Message expansion W[i], i = 16..67, computed just before round i - 4 needs it. */
#define SM3_EXPAND(i) (w[(i)] = SM3_P1(w[(i)-16] ^ w[(i)-9] ^ rotl32(w[(i)-3], 15)) ^ rotl32(w[(i)-13], 7) ^ w[(i)-6])

#define SM3_ROUND4(FF, GG, j)                                                                                          \
    do {                                                                                                               \
        SM3_ROUND(FF, GG, A, B, C, D, E, F, G, H, (j));                                                                \
        SM3_ROUND(FF, GG, D, A, B, C, H, E, F, G, (j) + 1);                                                            \
        SM3_ROUND(FF, GG, C, D, A, B, G, H, E, F, (j) + 2);                                                            \
        SM3_ROUND(FF, GG, B, C, D, A, F, G, H, E, (j) + 3);                                                            \
    } while (0)

/* four rounds j..j+3 that first expand W[j+4..j+7] */
#define SM3_ROUND4X(FF, GG, j)                                                                                         \
    do {                                                                                                               \
        SM3_EXPAND((j) + 4);                                                                                           \
        SM3_EXPAND((j) + 5);                                                                                           \
        SM3_EXPAND((j) + 6);                                                                                           \
        SM3_EXPAND((j) + 7);                                                                                           \
        SM3_ROUND4(FF, GG, (j));                                                                                       \
    } while (0)

/* Compress nblk consecutive 64-byte blocks starting at p into h.
 * Fully unrolled with constant indices; the expansion is interleaved with
 * the rounds rather than done in a separate loop, which some compilers
 * (gcc 12 -O2) auto-vectorise into slower code. */
static void sm3_compress_blocks(uint32_t h[8], const unsigned char *p, size_t nblk)
{
    uint32_t w[68];
    while (nblk-- > 0) {
        uint32_t A = h[0], B = h[1], C = h[2], D = h[3];
        uint32_t E = h[4], F = h[5], G = h[6], H = h[7];
        int j;
        for (j = 0; j < 16; j++)
            w[j] = load_be32(p + 4 * j);

        SM3_ROUND4(SM3_FF0, SM3_GG0, 0);
        SM3_ROUND4(SM3_FF0, SM3_GG0, 4);
        SM3_ROUND4(SM3_FF0, SM3_GG0, 8);
        SM3_ROUND4X(SM3_FF0, SM3_GG0, 12);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 16);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 20);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 24);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 28);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 32);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 36);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 40);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 44);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 48);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 52);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 56);
        SM3_ROUND4X(SM3_FF1, SM3_GG1, 60);

        h[0] ^= A;
        h[1] ^= B;
        h[2] ^= C;
        h[3] ^= D;
        h[4] ^= E;
        h[5] ^= F;
        h[6] ^= G;
        h[7] ^= H;
        p += 64;
    }
}

void ngcc_iccs_sm3_init(ngcc_iccs_sm3_ctx *ctx)
{
    ctx->h[0] = 0x7380166FU;
    ctx->h[1] = 0x4914B2B9U;
    ctx->h[2] = 0x172442D7U;
    ctx->h[3] = 0xDA8A0600U;
    ctx->h[4] = 0xA96F30BCU;
    ctx->h[5] = 0x163138AAU;
    ctx->h[6] = 0xE38DEE4DU;
    ctx->h[7] = 0xB0FB0E4EU;
    ctx->nblocks = 0;
    ctx->used = 0;
}

/* Buffer invariant: buf holds `used` valid bits. If used is not a multiple of
 * 8, the bits of buf[used/8] below the valid ones are zero. Bytes past that
 * are stale and are always written with '=' before they become valid. */

/* Append k (1..7) bits: the top k bits of b, the rest of b already zero. */
static void sm3_append_bits(ngcc_iccs_sm3_ctx *ctx, unsigned int b, unsigned int k)
{
    unsigned int pos = ctx->used >> 3;
    unsigned int s = ctx->used & 7U;

    if (s == 0) {
        ctx->buf[pos] = (unsigned char)b;
    } else {
        ctx->buf[pos] |= (unsigned char)(b >> s);
        if (s + k >= 8) {
            /* the current byte is now full */
            if (++pos == NGCC_ICCS_SM3_BLOCK_BYTES) {
                sm3_compress_blocks(ctx->h, ctx->buf, 1);
                ctx->nblocks++;
                pos = 0;
            }
            if (s + k > 8)
                ctx->buf[pos] = (unsigned char)(b << (8 - s));
        }
    }
    ctx->used = (ctx->used + k) & 511U;
}

void ngcc_iccs_sm3_update(ngcc_iccs_sm3_ctx *ctx, const unsigned char *data, unsigned long long nbits)
{
    unsigned long long nbytes = nbits >> 3;
    unsigned int tail = (unsigned int)(nbits & 7U);
    unsigned int pos = ctx->used >> 3;
    unsigned int s = ctx->used & 7U;

    if (s == 0) {
        /* Byte-aligned buffer: plain block-buffered hashing. */
        if (pos > 0 && nbytes > 0) {
            unsigned int take = NGCC_ICCS_SM3_BLOCK_BYTES - pos;
            if (nbytes < take)
                take = (unsigned int)nbytes;
            memcpy(ctx->buf + pos, data, take);
            pos += take;
            data += take;
            nbytes -= take;
            if (pos == NGCC_ICCS_SM3_BLOCK_BYTES) {
                sm3_compress_blocks(ctx->h, ctx->buf, 1);
                ctx->nblocks++;
                pos = 0;
            }
        }
        if (nbytes >= NGCC_ICCS_SM3_BLOCK_BYTES) {
            /* pos == 0 here: whole blocks straight from the input */
            unsigned long long nblk = nbytes / NGCC_ICCS_SM3_BLOCK_BYTES;
            sm3_compress_blocks(ctx->h, data, (size_t)nblk);
            ctx->nblocks += nblk;
            data += nblk * NGCC_ICCS_SM3_BLOCK_BYTES;
            nbytes -= nblk * NGCC_ICCS_SM3_BLOCK_BYTES;
        }
        if (nbytes > 0) {
            memcpy(ctx->buf + pos, data, (size_t)nbytes);
            pos += (unsigned int)nbytes;
            data += nbytes;
        }
        ctx->used = pos << 3;
    } else {
        /* Unaligned: every input byte straddles two buffer bytes. */
        unsigned char *buf = ctx->buf;
        unsigned int rs = 8U - s;
        while (nbytes-- > 0) {
            unsigned int b = *data++;
            buf[pos] |= (unsigned char)(b >> s);
            if (++pos == NGCC_ICCS_SM3_BLOCK_BYTES) {
                sm3_compress_blocks(ctx->h, buf, 1);
                ctx->nblocks++;
                pos = 0;
            }
            buf[pos] = (unsigned char)(b << rs);
        }
        ctx->used = (pos << 3) | s;
    }

    if (tail != 0)
        sm3_append_bits(ctx, (unsigned int)(*data & (0xFF00U >> tail)), tail);
}

void ngcc_iccs_sm3_final(ngcc_iccs_sm3_ctx *ctx, unsigned char digest[NGCC_ICCS_SM3_DIGEST_BYTES])
{
    unsigned int pos = ctx->used >> 3;
    unsigned int s = ctx->used & 7U;
    uint32_t len_hi, len_lo;
    int i;

    /* Length field, reproducing the official ICCS SM3 bit for bit.
     * With n = 512*nblocks + used the standard field is the 64-bit value n:
     * high word n >> 32, low word n mod 2^32. The official code computes the
     * low word correctly but the high word as (floor(n/512) >> 32) << 9
     * instead of n >> 32 (= floor(n/512) >> 23). The two agree for
     * n < 2^32 bits (512 MiB): both high words are 0. For 2^32 <= n < 2^41
     * the official high word is still 0, so the digest is NOT standard SM3
     * (e.g. 2^32 zero bits: official 6EF22E2E..., OpenSSL 7927CA88...).
     * We deliberately replicate that quirk for bit-exactness; no PKC KAT
     * comes anywhere near that size. */
    len_lo = (uint32_t)((ctx->nblocks << 9) + ctx->used);
    len_hi = (uint32_t)((ctx->nblocks >> 32) << 9);

    /* the single 1 bit right after the message */
    if (s == 0)
        ctx->buf[pos] = 0x80;
    else
        ctx->buf[pos] |= (unsigned char)(0x80U >> s);
    memset(ctx->buf + pos + 1, 0, NGCC_ICCS_SM3_BLOCK_BYTES - 1 - pos);
    if (pos >= 56) {
        /* no room for the length: one more block */
        sm3_compress_blocks(ctx->h, ctx->buf, 1);
        memset(ctx->buf, 0, 56);
    }
    store_be32(ctx->buf + 56, len_hi);
    store_be32(ctx->buf + 60, len_lo);
    sm3_compress_blocks(ctx->h, ctx->buf, 1);

    for (i = 0; i < 8; i++)
        store_be32(digest + 4 * i, ctx->h[i]);
}

void ngcc_iccs_sm3(const unsigned char *msg, unsigned long long nbits, unsigned char digest[NGCC_ICCS_SM3_DIGEST_BYTES])
{
    ngcc_iccs_sm3_ctx ctx;
    ngcc_iccs_sm3_init(&ctx);
    ngcc_iccs_sm3_update(&ctx, msg, nbits);
    ngcc_iccs_sm3_final(&ctx, digest);
}
