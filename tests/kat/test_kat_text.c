/* unit/kat_text: the KAT text helpers of the KEX and hash replays against
 * the official formats and the values of iccs-kex-hash.md §2.5 and §3.7:
 * the length printer (blank mode keeps "X_Len = "), the uppercase data
 * printer, the hash driver's file seeds, partial-byte Msg values, Msg_Exp and
 * the KAT_Loop initial message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "drng.h"
#include "kat_replay_hash.h"
#include "kat_writer.h"

static char *capture(void (*fn)(kat_writer *), int blank)
{
    char *buf = NULL;
    size_t len = 0;
    kat_writer w = {0};
    w.out = open_memstream(&buf, &len);
    w.meta = w.out;
    w.blank = blank;
    fn(&w);
    fclose(w.out);
    free(w.hexbuf);
    return buf;
}

static void write_fields(kat_writer *w)
{
    ngcc_gbuf g, e;
    assert_int_equal(ngcc_gbuf_alloc(&g, 3, 1, 0), 0);
    assert_int_equal(ngcc_gbuf_alloc(&e, 0, 2, 0), 0);
    memcpy(g.p, "\xab\x01\xff", 3);
    kw_len(w, "M1", 3);
    kw_hex(w, "M1", &g, 3);
    kw_hex(w, "Init_Sta", &e, 0);
    kw_hex(w, "SS", &g, 9); /* a length past the buffer prints the buffer only */
    ngcc_gbuf_free(&g);
    ngcc_gbuf_free(&e);
}

static void test_printers(void **state)
{
    (void)state;
    char *real = capture(write_fields, 0), *blank = capture(write_fields, 1);
    assert_string_equal(real, "M1_Len = 3\nM1 = AB01FF\nInit_Sta = \nSS = AB01FF\n");
    /* blank mode: the length is empty (trailing space kept), data still shown */
    assert_string_equal(blank, "M1_Len = \nM1 = AB01FF\nInit_Sta = \nSS = AB01FF\n");
    free(real);
    free(blank);
}

static void test_msg_partial_byte(void **state)
{
    (void)state;
    char out[8];
    const unsigned char ff[2] = {0xFF, 0xFF};
    assert_int_equal(kat_hash_msg_hex(out, ff, 0), 0);
    assert_string_equal(out, "");
    kat_hash_msg_hex(out, ff, 3);
    assert_string_equal(out, "E0");
    kat_hash_msg_hex(out, ff, 9);
    assert_string_equal(out, "FF80");
    kat_hash_msg_hex(out, ff, 16);
    assert_string_equal(out, "FFFF");
}

/* KAT_2_12: one DRNG call per n into a zeroed buffer (§3.7 table) */
static void test_2_12_messages(void **state)
{
    (void)state;
    static const struct {
        unsigned n;
        const char *msg;
    } want[] = {{1, "80"},
                {2, "40"},
                {3, "A0"},
                {7, "50"},
                {8, "3D"},
                {9, "0E00"},
                {11, "AC20"},
                {13, "1250"},
                {16, "408D"},
                {64, "8E14D934989F1326"},
                {256, "337FD41BACAC3478A22117A1E217646248AEE11C80F2B497F180F97B3F3FFA4B"}};
    unsigned char seed[64], msg[512];
    char hex[1100];
    kat_hash_file_seed(KAT_HASH_2_12, seed);
    assert_memory_equal(seed, "KAT_2_12KAT_2_12", 16);
    DRNG_ctx ctx;
    init_random_number(&ctx, seed, 64);
    size_t k = 0;
    for (unsigned n = 0; n <= 256; n++) {
        memset(msg, 0, sizeof msg);
        get_random_number(&ctx, msg, n);
        kat_hash_msg_hex(hex, msg, n);
        if (k < sizeof want / sizeof want[0] && want[k].n == n) {
            assert_string_equal(hex, want[k].msg);
            k++;
        }
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
}

static void test_exp_and_loop(void **state)
{
    (void)state;
    unsigned char seed[64];
    DRNG_ctx ctx;
    /* 2^23 random record: the DRNG's first 2^23-bit output */
    size_t bytes = 1u << 20;
    unsigned char *msg = calloc(bytes, 1);
    kat_hash_file_seed(KAT_HASH_2_23, seed);
    init_random_number(&ctx, seed, 64);
    get_random_number(&ctx, msg, 8ull * bytes);
    char exp[39];
    kat_hash_exp_hex(exp, msg, bytes);
    assert_string_equal(exp, "B6E2C825BE0E7D79 .... 70B7D148BC6FCCEC");
    /* KAT_Loop initial message: SHA-256 of its 1024 bytes */
    kat_hash_file_seed(KAT_HASH_LOOP, seed);
    assert_memory_equal(seed + 56, "KAT_Loop", 8);
    init_random_number(&ctx, seed, 64);
    get_random_number(&ctx, msg, 8192);
    unsigned char md[32];
    unsigned int mdlen = 0;
    EVP_Digest(msg, 1024, md, &mdlen, EVP_sha256(), NULL);
    char mdhex[65];
    for (int i = 0; i < 32; i++)
        snprintf(mdhex + 2 * i, 3, "%02x", md[i]);
    assert_string_equal(mdhex, "cc95b9ceef7feff63703951ae63ba4b15c36e18d750c53cf1f81db5b25329684");
    free(msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printers),
        cmocka_unit_test(test_msg_partial_byte),
        cmocka_unit_test(test_2_12_messages),
        cmocka_unit_test(test_exp_and_loop),
    };
    return cmocka_run_group_tests_name("kat_text", tests, NULL, NULL);
}
