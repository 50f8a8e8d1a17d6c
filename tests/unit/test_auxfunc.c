/* ngcc-ctest unit tests: ICCS auxiliary functions pseudohash and pseudoXOF
 * (iccs/src/auxfunc.c; sm3hash is covered by test_sm3.c).
 * Vectors: outputs of runs of the official ICCS API_PKC auxfunc.c. Byte-aligned pseudohash inputs are
 * also recomputed from the definition with OpenSSL's SM3 and HMAC-SM3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "auxfunc.h"
#include "sm3.h"
#include "unit_hex.h"

#define CANARY 0xA5

static const char KEY_HEX[] = "5307F6D5EB6A3CED3D24C53CC9C82CCE2F8936397023F0695C26C80C1AB182A7"
                              "1DB02BA92F544018115A96E719662CA32B7C7EFC0A6D2482150766BA6F655B8E";

/* ---- inputs ------------------------------------------------------------------ */

enum { IN_EMPTY, IN_ABC, IN_AC20, IN_80, IN_P1000, IN_COUNT };

/* Returns an exactly sized heap buffer holding input `which`; *nbits set. */
static unsigned char *input_alloc(int which, unsigned long long *nbits)
{
    unsigned char *p = malloc(125);
    size_t i;
    assert_non_null(p);
    switch (which) {
    case IN_EMPTY:
        *nbits = 0;
        break;
    case IN_ABC:
        memcpy(p, "abc", 3);
        *nbits = 24;
        break;
    case IN_AC20:
        p[0] = 0xAC;
        p[1] = 0x20;
        *nbits = 11;
        break;
    case IN_80:
        p[0] = 0x80;
        *nbits = 1;
        break;
    default:
        for (i = 0; i < 125; i++)
            p[i] = (unsigned char)i;
        *nbits = 1000;
        break;
    }
    if (*nbits < 1000) { /* shrink to exactly ceil(nbits/8) bytes (>= 1) */
        size_t n = (size_t)((*nbits + 7) / 8);
        unsigned char *q = malloc(n ? n : 1);
        assert_non_null(q);
        memcpy(q, p, n);
        free(p);
        p = q;
    }
    return p;
}

/* ---- pseudohash ------------------------------------------------------------ */

struct ph_vec {
    int bits;
    int input;
    const char *digest;
};

static const struct ph_vec ph_vectors[15] = {
    {512, IN_EMPTY,
     "958F69C7D26F0F69D6D674FC4B8AD58CA6F29A0037ADF88884428E5D04C67BE6833DE1B616FF5C892224E5DE7258D68A787A228EDEC5203D8"
     "CFB274022765541"},
    {512, IN_ABC,
     "9AE35811886CAF801BFC6089FFB7C0A0FBEB8EBD14A5261F28474D7A5814970A865EF8ACE55461C19E953E9D36A560994B126366BBB2942EB"
     "6818523E82F1E95"},
    {512, IN_AC20,
     "2E185CB8CF26DD57B4AC9EA7F2C21E818D4A0E3C1E600C687D7F999312C40E271A7481C45FA3D6A937939DDDBF86918D4F9573C9BB8903FAF"
     "726E1F2E39394D8"},
    {512, IN_80,
     "B62BF967CCEA9012EC7035140495329F20623DC524F8F35D8E6CED835FE7864D40D7B5693DC1F1F5CAD7950DC1380361B49882E6EE3008001"
     "98438CDAE401029"},
    {512, IN_P1000,
     "5DD051451A36770E4077BB81EFC254B5CA6D58C15D6EDEBE7787E54A622422E049C3D4FE9F3AE23DCCE6B8081B71F69A8882B2376B085DA1E"
     "2B6FCCD476C5601"},
    {768, IN_EMPTY,
     "5AC839FA52ADCA78D8D156654416A2A577BA36343C70EA5B414EC1986A1EC8BB5D5909059DC1761EBAFC257F25284929DC1F1B721E9F556A2"
     "C5E818AC75B2B3C4D7B845B308B4A7AF4965A4C65B37C6A8CED2739C4A521D6265FBE2AB7944651"},
    {768, IN_ABC,
     "679C6D5B28BA35B92CE4E944DB29E36B8AD3A008FA75A6ECA2FFD4A400F4E35D2C503806D66CC94D12AF7EB0B21580DB8E5258C18EF38936F"
     "BA3372BDE4E37A357F3D3DD9F6A6456094173CC0EBFD661DBB0A2A7C0F1638F75082CBBFCD34B0F"},
    {768, IN_AC20,
     "535AE8CCC095B19D27930CD8F2E5561BF9104E174DA4D6AB262A3297BB2AE14FA2140C6EDE5A2BBA0E45E0DBDE28C987BE2C48AB54D31A279"
     "80EF04F88A31E68926B3AD9F53002EF32E8BD44C0A83DC5859D14A4071DAD61D09A252BF8CAAA6C"},
    {768, IN_80,
     "280F34124CA68B413AAE4604EB61F3E293C6BC27DF7A22124D83534A50D3B5A034911E61D8EE54D40A5D444C11944BCD450287A3A997783F5"
     "5FF699FAB5F3AAE91156C20C8543A2DA33A03623076B82BC02CF2F327DCAF542FA3CCDF1A018103"},
    {768, IN_P1000,
     "3403AD7FB4389941A2E2468790CCB58AD84CAF8A255E581229D176592B5AA67C48EB234843A2330CE070EDF5889447A3F845060810ED442BB"
     "FDAE8CB67E6B1B90481038A852D111164AE57A80C3F1C8FD125B826C9D31B3EC937A908D27A9679"},
    {1024, IN_EMPTY,
     "22BBF8CC348748E1C19331D7333FAA629E93BE74635BF47C3D12E2D258B6270B22C80E33B4140FAB326CC796708290C46045F5BD7C3E577BE"
     "70A789BC9B8A0145E5915EC533DBC5726AF1F73F5ED9120F248008F3348371FF36F7F8F665DDA19E42EE995689F73B6A2EC0CCFD333F8A094"
     "DBFDD535E22424B4D37EA5EC7786C2"},
    {1024, IN_ABC,
     "7710420AA9C2DBAE8520C0408BD6D65402F3DB9B6737590F086693651AD279756C280980B925E2E7D2BDC76FB9B67FC55A438752FAF813725"
     "0ED127A6945860FD289156C58C72A27D661A8431519562C625D2CF7288FC643549D9C02F8AC5F157805EDC50D92908FBB4CA255BDB1436C21"
     "EA963FA5F278EFEC64361775A5415C"},
    {1024, IN_AC20,
     "444DBED9459ADDE3D30A3F210066C385F7B333A8C5F10B42EB94486800CA65CACD55B00A431A55F916151803AF6083FC2452C18383C4C7593"
     "0345BACC83B5853DBF6E1044E5F1C78CEE48457916632CEDEC584F681D992C6ED0A9EEF67EC13B600E3C8EF6385102EDCAB2519CDDFEBF46A"
     "528CDA21934E7A7A5A74A976835650"},
    {1024, IN_80,
     "E6FC3F2F5C71FE7CEF4188B1484CB3A25707D7568CF23C006179F53F7009C6E2A3A0DB4F717E0C06CE62F69250B2E5BD0A7F5C6270101B937"
     "0F2188C763942863BC2157E84FA305BFFD597074FEF64C6EFCB774CBDC5A5668BBDB64E54F9E207C4643DB0EEC24F287D5A0A1A5E6267D401"
     "DB2DD0588496DF5487624941ACDE84"},
    {1024, IN_P1000,
     "0150AEAC17C033EE713EAF4CE480095A4C3BAA951D4A735CF27DD55BC7186F21EA7E038BED49B96265058C7F746C4F83ED77DF2A76E7F28E5"
     "E73F19B3E8BA341814A35550A1C8F17EC868DB0D25F95B6A166940BFD59BCD1FF35ED268B0A666BE5A61F3B1D932C25919302A84F32BBD33A"
     "9E1C73D78818B2CBE945FAD226014B"},
};

static void test_hmac_key_derivation(void **state)
{
    unsigned char key[64];
    (void)state;
    assert_int_equal(sm3hash(256, (const unsigned char *)"3.14159265358979", 128, key), 0);
    assert_int_equal(sm3hash(256, (const unsigned char *)"2.71828182845904", 128, key + 32), 0);
    assert_hex_equal(key, 64, KEY_HEX);
}

static void test_pseudohash_vectors(void **state)
{
    size_t i, j;
    (void)state;
    for (i = 0; i < 15; i++) {
        unsigned long long nbits;
        unsigned char *m = input_alloc(ph_vectors[i].input, &nbits);
        unsigned char out[128 + 16];
        size_t n = (size_t)ph_vectors[i].bits / 8;
        memset(out, CANARY, sizeof out);
        assert_int_equal(pseudohash(ph_vectors[i].bits, m, nbits, out), 0);
        assert_hex_equal(out, n, ph_vectors[i].digest);
        for (j = n; j < sizeof out; j++)
            assert_int_equal(out[j], CANARY);
        /* junk in unused input bits changes nothing */
        if (nbits & 7) {
            m[nbits / 8] |= (unsigned char)(0xFFU >> (nbits & 7));
            memset(out, 0, sizeof out);
            assert_int_equal(pseudohash(ph_vectors[i].bits, m, nbits, out), 0);
            assert_hex_equal(out, n, ph_vectors[i].digest);
        }
        free(m);
    }
}

/* Run f with stderr redirected to a temporary file; return what it printed. */
static int call_capturing_stderr(int (*f)(int), int arg, char *text, size_t cap)
{
    FILE *tmp = tmpfile();
    int saved, rc;
    size_t n;
    assert_non_null(tmp);
    fflush(stderr);
    saved = dup(2);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(tmp), 2) >= 0);
    rc = f(arg);
    fflush(stderr);
    assert_true(dup2(saved, 2) >= 0);
    close(saved);
    rewind(tmp);
    n = fread(text, 1, cap - 1, tmp);
    text[n] = '\0';
    fclose(tmp);
    return rc;
}

static unsigned char bad_out[256];
static int pseudohash_bad(int bits)
{
    return pseudohash(bits, (const unsigned char *)"abc", 24, bad_out);
}
static int sm3hash_bad(int bits)
{
    return sm3hash(bits, (const unsigned char *)"abc", 24, bad_out);
}

static void test_bad_lengths(void **state)
{
    static const int bad_ph[] = {256, 0, -512, 511, 513, 640, 2048, 1023};
    char text[256];
    size_t i, j;
    (void)state;
    for (i = 0; i < sizeof bad_ph / sizeof bad_ph[0]; i++) {
        memset(bad_out, CANARY, sizeof bad_out);
        assert_int_equal(call_capturing_stderr(pseudohash_bad, bad_ph[i], text, sizeof text), -4);
        assert_non_null(strstr(text, "ERROR: Digestbitlen not in the limitation. "));
        for (j = 0; j < sizeof bad_out; j++)
            assert_int_equal(bad_out[j], CANARY); /* nothing written */
    }
    memset(bad_out, CANARY, sizeof bad_out);
    assert_int_equal(call_capturing_stderr(sm3hash_bad, 512, text, sizeof text), -4);
    assert_non_null(strstr(text, "ERROR: Digestbitlen not in the limitation. "));
    for (j = 0; j < sizeof bad_out; j++)
        assert_int_equal(bad_out[j], CANARY);
}

/* Independent recomputation from the definition (iccs-api.md 3.4) with
 * OpenSSL SM3 / HMAC-SM3, for byte-aligned messages (then M || T is
 * byte-aligned as well). */
static void ossl_sm3(const unsigned char *p, size_t n, unsigned char *out)
{
    unsigned int olen = 0;
    assert_int_equal(EVP_Digest(p, n, out, &olen, EVP_sm3(), NULL), 1);
}
static void ossl_hmac(const unsigned char *key, const unsigned char *p, size_t n, unsigned char *out)
{
    unsigned int olen = 0;
    assert_non_null(HMAC(EVP_sm3(), key, 64, p, n, out, &olen));
    assert_int_equal(olen, 32);
}
static void ossl_sm3_2(const unsigned char *a, size_t an, const unsigned char *b, size_t bn, unsigned char *out)
{
    unsigned char *buf = malloc(an + bn + 1);
    assert_non_null(buf);
    memcpy(buf, a, an);
    memcpy(buf + an, b, bn);
    ossl_sm3(buf, an + bn, out);
    free(buf);
}

static void test_pseudohash_vs_openssl_definition(void **state)
{
    unsigned char key[64], msg[700], buf[702], k1[32], k2[32], k3[32], k4[32], h[128], out[128];
    uint64_t x = 0x4E4743435048ULL;
    int iter;
    (void)state;
    unit_hex_decode(KEY_HEX, key, sizeof key);
    for (iter = 0; iter < 60; iter++) {
        size_t n = (size_t)(iter * 11) % 700, i;
        int bits = iter % 3 == 0 ? 512 : iter % 3 == 1 ? 768 : 1024;
        unsigned char tag[2] = {(unsigned char)(bits == 512 ? 2 : bits == 768 ? 3 : 4), 0};
        for (i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            msg[i] = (unsigned char)(x >> 56);
        }
        memcpy(buf, tag, 2);
        memcpy(buf + 2, msg, n);
        ossl_hmac(key, buf, n + 2, k1);    /* k1 = HMAC(T || M) */
        ossl_sm3_2(msg, n, tag, 2, h);     /* h1 = SM3(M || T) */
        ossl_sm3_2(k1, 32, h, 32, h + 32); /* h2 = SM3(k1 || h1) */
        if (bits >= 768) {
            ossl_hmac(key, h, 32, k2);
            ossl_sm3_2(h + 32, 32, k2, 32, h + 64);
        }
        if (bits == 1024) {
            unsigned char t[96];
            ossl_hmac(key, h + 32, 32, k3);
            ossl_hmac(key, h + 64, 32, k4);
            memcpy(t, k3, 32);
            memcpy(t + 32, h + 64, 32);
            memcpy(t + 64, k4, 32);
            ossl_sm3(t, 96, h + 96);
        }
        assert_int_equal(pseudohash(bits, msg, 8ULL * n, out), 0);
        assert_memory_equal(out, h, (size_t)bits / 8);
    }
}

/* ---- pseudoXOF ----------------------------------------------------------------- */

#define XOF_512                                                                                                        \
    "FE1EA80DAC6F100C33537BD24619EC7C72A1E8B1FFEAEFB1EB52A37791FDAF619DB16C0AC7BEBB47238C6CC925FF66AF7936E278E12D2664" \
    "502BB38B03FD41CB"
#define XOF_1000                                                                                                       \
    XOF_512 "2975A660D33ECC32FE62F27C738964E266EC71694F39A68810AF5A05D3B45D67975866A52FC303BBDD2F6FD43A2015E3D6D78910" \
            "DC82DEB8B47FD50A11"
/* The doc's 2048-bit row reads "...(as 1000)...A1176875...": its tail starts
 * with the last 3 hex digits "A11" of the 1000-bit value again (265 digits
 * for 131 bytes). Dropping that overlap gives the consistent 512 digits. */
#define XOF_2048                                                                                                       \
    XOF_1000 "76875757DDB14E1CEEF28861BD2157C225EA77B2EE58779531707BF75117C968436E0D7A5AD4EF793169DCF3091268CE351F9D8" \
             "925F0027B46E2760BD8A87E4615D584B248FD80D8DC0E154667224DB4C471F001DFC6CD7CC4C10526B8C9391C759E217F209241" \
             "B298140FF4E928966FE905B8DC0E88E62E8650E180E4CE8F312098A1"

struct xof_vec {
    unsigned long long bits;
    const char *out;
};

static const struct xof_vec xof_abc[] = {
    {1, "80"},
    {7, "FE"},
    {8, "FE"},
    {11, "FE00"},
    {255, "FE1EA80DAC6F100C33537BD24619EC7C72A1E8B1FFEAEFB1EB52A37791FDAF60"},
    {256, "FE1EA80DAC6F100C33537BD24619EC7C72A1E8B1FFEAEFB1EB52A37791FDAF61"},
    {257, "FE1EA80DAC6F100C33537BD24619EC7C72A1E8B1FFEAEFB1EB52A37791FDAF6180"},
    {512, XOF_512},
    {1000, XOF_1000},
    {2048, XOF_2048},
};

/* pseudoXOF into a canary-guarded buffer; checks exactly ceil(bits/8) bytes written */
static unsigned char *xof_checked(unsigned long long bits, const unsigned char *m, unsigned long long mbits)
{
    size_t n = (size_t)((bits + 7) / 8), i;
    unsigned char *out = malloc(n + 16);
    assert_non_null(out);
    memset(out, CANARY, n + 16);
    assert_int_equal(pseudoXOF(bits, m, mbits, out), 0);
    for (i = n; i < n + 16; i++)
        assert_int_equal(out[i], CANARY);
    return out;
}

static void test_pseudoxof_abc(void **state)
{
    size_t i;
    unsigned char *out;
    (void)state;
    assert_int_equal(strlen(XOF_1000), 250);
    assert_int_equal(strlen(XOF_2048), 512);
    /* 0 bits: rc 0, nothing written */
    out = xof_checked(0, (const unsigned char *)"abc", 24);
    free(out);
    for (i = 0; i < sizeof xof_abc / sizeof xof_abc[0]; i++) {
        out = xof_checked(xof_abc[i].bits, (const unsigned char *)"abc", 24);
        assert_hex_equal(out, (size_t)((xof_abc[i].bits + 7) / 8), xof_abc[i].out);
        free(out);
    }
}

static void test_pseudoxof_2pow20(void **state)
{
    const unsigned long long bits = 1ULL << 20;
    unsigned char *out, d[32];
    (void)state;
    out = xof_checked(bits, (const unsigned char *)"abc", 24);
    assert_hex_equal(out, 32, "FE1EA80DAC6F100C33537BD24619EC7C72A1E8B1FFEAEFB1EB52A37791FDAF61");
    assert_hex_equal(out + bits / 8 - 32, 32, "883CECCF5066B45AF5F790E9DAD9C98A6907E003DE71CB771D2C4D766C55C4C7");
    assert_int_equal(sm3hash(256, out, bits, d), 0);
    assert_hex_equal(d, 32, "CA7381A75B32642EDB2A00274A1834669D6583568D738D97426C69B9D10ADAAE");
    free(out);
}

static void test_pseudoxof_600(void **state)
{
    unsigned long long nbits;
    unsigned char *m, *out;
    (void)state;
    m = input_alloc(IN_EMPTY, &nbits);
    out = xof_checked(600, m, nbits);
    assert_hex_equal(out, 75,
                     "88C0CFFA4C713446A03F1FFF1630AA6353BDB53E2A9272146BE7A82FDE06AFA3DA620B56ED243FE2BED69EF1EA1DA000A"
                     "A1635A79BEA96A702C446527A2C39E5D60B60090551F7CFD7C1DE");
    free(out);
    out = xof_checked(600, NULL, 0); /* empty message may be NULL */
    assert_hex_equal(out, 75,
                     "88C0CFFA4C713446A03F1FFF1630AA6353BDB53E2A9272146BE7A82FDE06AFA3DA620B56ED243FE2BED69EF1EA1DA000A"
                     "A1635A79BEA96A702C446527A2C39E5D60B60090551F7CFD7C1DE");
    free(out);
    free(m);
    m = input_alloc(IN_AC20, &nbits);
    out = xof_checked(600, m, nbits);
    assert_hex_equal(out, 75,
                     "F5C2EF5B8DA5466658828F8E8EC23F0A478F850AD412565F5468FB4BF5B42E2F74E7DDF5609FBFF5E091E5215F3CC110E"
                     "2BB6607D274373CC47E2515771DEF52EE510E5EC5B8AC73DD6C47");
    free(out);
    m[1] |= 0x1F; /* junk in the unused bits */
    out = xof_checked(600, m, nbits);
    assert_hex_equal(out, 75,
                     "F5C2EF5B8DA5466658828F8E8EC23F0A478F850AD412565F5468FB4BF5B42E2F74E7DDF5609FBFF5E091E5215F3CC110E"
                     "2BB6607D274373CC47E2515771DEF52EE510E5EC5B8AC73DD6C47");
    free(out);
    free(m);
}

/* prefix property and the definition B_ct = SM3(M || ct) at bit level */
static void test_pseudoxof_structure(void **state)
{
    static const unsigned long long mlens[] = {0, 1, 7, 11, 440, 447, 448, 479, 480, 505, 1000};
    unsigned char m[125], *full, b[32], ctr[4];
    size_t k, i;
    (void)state;
    for (i = 0; i < sizeof m; i++)
        m[i] = (unsigned char)(i * 37 + 11);
    for (k = 0; k < sizeof mlens / sizeof mlens[0]; k++) {
        unsigned long long mb = mlens[k], L;
        full = xof_checked(1280, m, mb);
        for (i = 0; i < 5; i++) { /* B_(i+1) */
            ngcc_iccs_sm3_ctx ctx;
            uint32_t ct = (uint32_t)i + 1;
            ctr[0] = (unsigned char)(ct >> 24);
            ctr[1] = (unsigned char)(ct >> 16);
            ctr[2] = (unsigned char)(ct >> 8);
            ctr[3] = (unsigned char)ct;
            ngcc_iccs_sm3_init(&ctx);
            ngcc_iccs_sm3_update(&ctx, m, mb);
            ngcc_iccs_sm3_update(&ctx, ctr, 32);
            ngcc_iccs_sm3_final(&ctx, b);
            assert_memory_equal(full + 32 * i, b, 32);
        }
        for (L = 1; L <= 1280; L += (L < 300 ? 1 : 37)) {
            size_t n = (size_t)((L + 7) / 8);
            unsigned int mask = (L % 8 == 0) ? 0xFFU : (0xFF00U >> (L % 8)) & 0xFFU;
            unsigned char *part = xof_checked(L, m, mb);
            assert_memory_equal(part, full, n - 1);
            assert_int_equal(part[n - 1], full[n - 1] & mask);
            free(part);
        }
        free(full);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hmac_key_derivation), cmocka_unit_test(test_pseudohash_vectors),
        cmocka_unit_test(test_bad_lengths),         cmocka_unit_test(test_pseudohash_vs_openssl_definition),
        cmocka_unit_test(test_pseudoxof_abc),       cmocka_unit_test(test_pseudoxof_2pow20),
        cmocka_unit_test(test_pseudoxof_600),       cmocka_unit_test(test_pseudoxof_structure),
    };
    return cmocka_run_group_tests_name("auxfunc", tests, NULL, NULL);
}
