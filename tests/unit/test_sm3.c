/* ngcc-ctest unit tests: the private bit-granular SM3 (iccs/src/sm3.c) and the
 * public sm3hash wrapper. Vectors: outputs of the official ICCS auxfunc.c; byte-aligned
 * inputs are also cross-checked against OpenSSL's EVP_sm3.
 *
 *   test_sm3        default group (fast)
 *   test_sm3 big    the two 512 MiB vectors around the 2^32-bit length quirk
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "auxfunc.h"
#include "sm3.h"
#include "unit_hex.h"

/* ---- helpers --------------------------------------------------------------- */

/* splitmix64: small fixed-seed PRNG so every run uses the same inputs */
static uint64_t prng_state;
static void prng_seed(uint64_t s)
{
    prng_state = s;
}
static uint64_t prng_next(void)
{
    uint64_t z = (prng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static uint64_t prng_below(uint64_t n)
{
    return n ? prng_next() % n : 0;
}
static void prng_fill(unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)prng_next();
}

/* P(n): the first n bits of 00 01 02 ..., in an exactly sized heap buffer */
static unsigned char *pattern_alloc(unsigned long long nbits)
{
    size_t n = (size_t)((nbits + 7) / 8), i;
    unsigned char *p = malloc(n ? n : 1);
    assert_non_null(p);
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)i;
    return p;
}

static void openssl_sm3(const unsigned char *p, size_t n, unsigned char out[32])
{
    unsigned int olen = 0;
    assert_int_equal(EVP_Digest(p, n, out, &olen, EVP_sm3(), NULL), 1);
    assert_int_equal(olen, 32);
}

/* Copy bits [start, start+nbits) of src to dst MSB-aligned; the unused low
 * bits of a partial last byte get junk (they must be ignored). */
static void extract_bits(const unsigned char *src, unsigned long long start, unsigned long long nbits,
                         unsigned char *dst)
{
    size_t nbytes = (size_t)((nbits + 7) / 8), i;
    memset(dst, 0, nbytes);
    for (i = 0; i < nbits; i++) {
        unsigned long long b = start + i;
        if (src[b >> 3] & (0x80U >> (b & 7)))
            dst[i >> 3] |= (unsigned char)(0x80U >> (i & 7));
    }
    if (nbits & 7)
        dst[nbytes - 1] |= (unsigned char)(0xFFU >> (nbits & 7)) & (unsigned char)prng_next();
}

/* ---- official vectors (iccs-api.md 3.6) -------------------------------------- */

struct hex_vec {
    const char *msg_hex;
    unsigned long long nbits;
    const char *digest;
};

static const struct hex_vec hex_vectors[] = {
    {"", 0, "1AB21D8355CFA17F8E61194831E81A8F22BEC8C728FEFB747ED035EB5082AA2B"},
    {"616263", 24, "66C7F0F462EEEDD9D1F2D46BDC10E4E24167C4875CF2F7A2297DA02B8F4BA8E0"},
    {"AC20", 11, "728A0EA7578DA0AA5DBC6AAB02B9018CE0CE13CAEACDDAACA3DBAB5BBF0DCD36"},
    {"AC3F", 11, "728A0EA7578DA0AA5DBC6AAB02B9018CE0CE13CAEACDDAACA3DBAB5BBF0DCD36"},
    {"80", 1, "985FFE9568BE96328729B1C16631E9328D356432413D7556A646B9EEFE479B9E"},
    {"FF", 7, "C06130AF98B8B0416963E5425F6DBDFFBB076CF216B7246100972760E41B4178"},
};

struct pattern_vec {
    unsigned long long nbits;
    const char *digest;
};

static const struct pattern_vec pattern_vectors[] = {
    {440, "A79CF9DCEE3404ABF7F769698201647FD9D3FF61D629D0F58BB4B5579A427DB8"},
    {447, "1CB34F202CC66FC04509125C3E66B0E13C39B22ACB3A93F9894FB04D53F70350"},
    {448, "62F7363B15F4DE76DD925C493B9D6D00D4BA0EF2A1F334C1D0F13B293AEB40D1"},
    {511, "F15BB146ED5199E2382A01EDA3F2F1C61351ABDB9BFA84E1BA41FF3C44078C61"},
    {1000, "60434971512E75B7325472797C7B11BC4932EC6561050EBF8A38698BDDC84B76"},
};

static void test_sm3hash_hex_vectors(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof hex_vectors / sizeof hex_vectors[0]; i++) {
        size_t len;
        unsigned char *msg = unit_hex_alloc(hex_vectors[i].msg_hex, &len);
        unsigned char d[33];
        assert_int_equal(len, (hex_vectors[i].nbits + 7) / 8);
        d[32] = 0xA5;
        assert_int_equal(sm3hash(256, msg, hex_vectors[i].nbits, d), 0);
        assert_hex_equal(d, 32, hex_vectors[i].digest);
        assert_int_equal(d[32], 0xA5); /* exactly 32 bytes written */
        /* private one-shot API gives the same */
        memset(d, 0, 32);
        ngcc_iccs_sm3(msg, hex_vectors[i].nbits, d);
        assert_hex_equal(d, 32, hex_vectors[i].digest);
        free(msg);
    }
}

static void test_sm3hash_abcd16(void **state)
{
    unsigned char msg[64], d[32];
    int i;
    (void)state;
    for (i = 0; i < 16; i++)
        memcpy(msg + 4 * i, "abcd", 4);
    assert_int_equal(sm3hash(256, msg, 512, d), 0);
    assert_hex_equal(d, 32, "DEBE9FF92275B8A138604889C18E5A4D6FDB70E5387E5765293DCBA39C0C5732");
}

static void test_sm3hash_pattern_vectors(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof pattern_vectors / sizeof pattern_vectors[0]; i++) {
        unsigned long long n = pattern_vectors[i].nbits;
        unsigned char *msg = pattern_alloc(n);
        unsigned char d[32];
        assert_int_equal(sm3hash(256, msg, n, d), 0);
        assert_hex_equal(d, 32, pattern_vectors[i].digest);
        /* junk in the unused low bits of the last byte is ignored */
        if (n & 7) {
            msg[n / 8] |= (unsigned char)(0xFFU >> (n & 7));
            memset(d, 0, sizeof d);
            assert_int_equal(sm3hash(256, msg, n, d), 0);
            assert_hex_equal(d, 32, pattern_vectors[i].digest);
        }
        free(msg);
    }
}

/* every junk value in the unused bits, for every partial length of one byte */
static void test_sm3_unused_bits_ignored(void **state)
{
    unsigned int k, junk;
    (void)state;
    for (k = 1; k < 8; k++) {
        unsigned char ref[32], d[32], m[2] = {0x5A, 0xC3};
        unsigned char base = (unsigned char)(m[1] & (0xFF00U >> k));
        m[1] = base;
        ngcc_iccs_sm3(m, 8 + k, ref);
        for (junk = 0; junk < (1U << (8 - k)); junk++) {
            m[1] = (unsigned char)(base | junk);
            ngcc_iccs_sm3(m, 8 + k, d);
            assert_memory_equal(d, ref, 32);
        }
    }
}

static void test_sm3hash_bad_length(void **state)
{
    static const int bad[] = {512, 0, -256, 255, 257, 160, 1024};
    unsigned char d[64];
    size_t i, j;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(d, 0xA5, sizeof d);
        assert_int_equal(sm3hash(bad[i], (const unsigned char *)"abc", 24, d), -4);
        for (j = 0; j < sizeof d; j++)
            assert_int_equal(d[j], 0xA5); /* nothing written */
    }
}

/* ---- cross-checks ------------------------------------------------------------ */

/* byte-aligned SM3 against OpenSSL: all lengths 0..200 and 200 random ones */
static void test_sm3_vs_openssl(void **state)
{
    unsigned char *buf = malloc(3001);
    unsigned char a[32], b[32];
    size_t len;
    int i;
    (void)state;
    assert_non_null(buf);
    prng_seed(0x4E474343534D3301ULL);
    for (len = 0; len <= 200; len++) {
        unsigned char *m = malloc(len ? len : 1); /* exact size: catches over-reads */
        assert_non_null(m);
        prng_fill(m, len);
        assert_int_equal(sm3hash(256, m, 8ULL * len, a), 0);
        openssl_sm3(m, len, b);
        assert_memory_equal(a, b, 32);
        free(m);
    }
    for (i = 0; i < 200; i++) {
        len = (size_t)prng_below(3001);
        prng_fill(buf, len);
        assert_int_equal(sm3hash(256, buf, 8ULL * len, a), 0);
        openssl_sm3(buf, len, b);
        if (memcmp(a, b, 32) != 0)
            fail_msg("mismatch vs OpenSSL at random input %d, %zu bytes", i, len);
    }
    free(buf);
}

/* incremental updates split at random BIT positions == one-shot */
static void test_sm3_incremental_bit_splits(void **state)
{
    enum { MAXBITS = 9000 };
    unsigned char *msg = malloc(MAXBITS / 8 + 1), *chunk = malloc(MAXBITS / 8 + 1);
    int iter;
    (void)state;
    assert_non_null(msg);
    assert_non_null(chunk);
    prng_seed(0x4E47434353504C54ULL);
    for (iter = 0; iter < 400; iter++) {
        unsigned long long n = prng_below(MAXBITS + 1), pos = 0;
        unsigned char ref[32], d[32];
        ngcc_iccs_sm3_ctx ctx;
        prng_fill(msg, MAXBITS / 8 + 1);
        ngcc_iccs_sm3(msg, n, ref);
        ngcc_iccs_sm3_init(&ctx);
        while (pos < n) {
            unsigned long long len;
            switch (prng_below(4)) {
            case 0:
                len = prng_below(9);
                break; /* 0..8 bits, incl. empty updates */
            case 1:
                len = prng_below(80);
                break; /* short */
            case 2:
                len = prng_below(1200);
                break; /* crosses blocks */
            default:
                len = 8 * prng_below(200);
                break;
            }
            if (len > n - pos)
                len = n - pos;
            extract_bits(msg, pos, len, chunk);
            ngcc_iccs_sm3_update(&ctx, chunk, len);
            pos += len;
        }
        ngcc_iccs_sm3_final(&ctx, d);
        if (memcmp(d, ref, 32) != 0)
            fail_msg("incremental != one-shot at iteration %d (n = %llu)", iter, n);
    }
    /* the same message fed one bit at a time */
    {
        unsigned long long n = 1523, i;
        unsigned char ref[32], d[32], bit;
        ngcc_iccs_sm3_ctx ctx;
        ngcc_iccs_sm3(msg, n, ref);
        ngcc_iccs_sm3_init(&ctx);
        for (i = 0; i < n; i++) {
            bit = (unsigned char)((msg[i >> 3] << (i & 7)) & 0x80U);
            bit |= 0x7F & (unsigned char)prng_next(); /* junk below the bit */
            ngcc_iccs_sm3_update(&ctx, &bit, 1);
        }
        ngcc_iccs_sm3_final(&ctx, d);
        assert_memory_equal(d, ref, 32);
    }
    free(msg);
    free(chunk);
}

/* a bit-shifted (unaligned) long input equals the aligned one: SM3(x || M)
 * for a 3-bit x computed by streaming M after x vs. a pre-shifted copy */
static void test_sm3_unaligned_long(void **state)
{
    enum { NB = 5000 };
    unsigned char *m = malloc(NB), *shifted = malloc(NB + 1);
    unsigned char a[32], b[32], x = 0xA0; /* bits 101 */
    ngcc_iccs_sm3_ctx ctx;
    size_t i;
    (void)state;
    assert_non_null(m);
    assert_non_null(shifted);
    prng_seed(7);
    prng_fill(m, NB);
    ngcc_iccs_sm3_init(&ctx);
    ngcc_iccs_sm3_update(&ctx, &x, 3);
    ngcc_iccs_sm3_update(&ctx, m, 8ULL * NB);
    ngcc_iccs_sm3_final(&ctx, a);
    shifted[0] = (unsigned char)(0xA0 | (m[0] >> 3));
    for (i = 1; i < NB; i++)
        shifted[i] = (unsigned char)((m[i - 1] << 5) | (m[i] >> 3));
    shifted[NB] = (unsigned char)(m[NB - 1] << 5);
    ngcc_iccs_sm3(shifted, 8ULL * NB + 3, b);
    assert_memory_equal(a, b, 32);
    free(m);
    free(shifted);
}

/* ---- the 2^32-bit length quirk (512 MiB inputs) --------------------------- */

static void test_sm3_4gbit_quirk(void **state)
{
    const size_t nbytes = (size_t)1 << 29; /* 2^32 bits */
    unsigned char *zeros = calloc(nbytes, 1);
    unsigned char d[32], o[32];
    (void)state;
    assert_non_null(zeros);

    /* 2^32 zero bits: official quirk value, which is NOT standard SM3 */
    assert_int_equal(sm3hash(256, zeros, 1ULL << 32, d), 0);
    assert_hex_equal(d, 32, "6EF22E2E10FF4CBD4A1590B79F37B504DA1A08C0026D7382AC477177040D99F6");
    openssl_sm3(zeros, nbytes, o);
    assert_hex_equal(o, 32, "7927CA8884A535D9A4D80986F7C478A790013EE370836DFB86A36B4443C86533");

    /* 2^32 - 8 bits: below the quirk, official == standard */
    assert_int_equal(sm3hash(256, zeros, (1ULL << 32) - 8, d), 0);
    assert_hex_equal(d, 32, "1C4679F9E1F0DCBE86F8CD17B4DF4FA26C84CDE56F68B1B0B71CEB50C404B442");
    openssl_sm3(zeros, nbytes - 1, o);
    assert_memory_equal(d, o, 32);
    free(zeros);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest fast[] = {
        cmocka_unit_test(test_sm3hash_hex_vectors),        cmocka_unit_test(test_sm3hash_abcd16),
        cmocka_unit_test(test_sm3hash_pattern_vectors),    cmocka_unit_test(test_sm3_unused_bits_ignored),
        cmocka_unit_test(test_sm3hash_bad_length),         cmocka_unit_test(test_sm3_vs_openssl),
        cmocka_unit_test(test_sm3_incremental_bit_splits), cmocka_unit_test(test_sm3_unaligned_long),
    };
    const struct CMUnitTest big[] = {
        cmocka_unit_test(test_sm3_4gbit_quirk),
    };
    if (argc > 1 && strcmp(argv[1], "big") == 0)
        return cmocka_run_group_tests_name("sm3_4gbit", big, NULL, NULL);
    return cmocka_run_group_tests_name("sm3", fast, NULL, NULL);
}
