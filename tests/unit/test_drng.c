/* ngcc-ctest unit tests: ICCS DRNG (iccs/src/drng.c).
 * Vectors: outputs of runs of the official ICCS API_PKC drng.c, and the
 * Seed/M columns every official KAT file shares. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "drng.h"
#include "unit_hex.h"

#define CANARY 0xA5

static const char *const kat_seed[10] = {
    "927F06B594798A4DDFAA4F03F92AAAF04E1D453F6ED1DE19B86D3AADE048A65483DF4754049B5CD3F586406CF2C64875C51EDB576DF342B5A9"
    "70F40EABC15D3C",
    "58561187CBBF6CDC0ECFB2D25965F936BE05AA961542D0E23E4ADFA8B6D0E3FDC043ED72AC1C28F03CF831FBB6A8BC6DB9EE0475520EE8578B"
    "1970E407EE0352",
    "439838DD1F4B359C4D4BC2E19395DAF5007B3B682831FA554BFE3C8862E2987774EE95AC841FB3880239C0415B1D2AE696D4C419A250B1C215"
    "743DBC4A5E375D",
    "E39CE10AA5640FB7A302A2B9656782F34D8E34BAB14E8A1D7197A9B9ECB433AA6ADB1EC6E4368CB27BCC161336E03495E9D22F78269274A08E"
    "3862F0B3DC1959",
    "DD56E75E688D1BC085752F748B794CE294486610198BC8B10583A13321E3880FB1E737E7E1A0027B37AC336823062E139D46F6138D421C52EA"
    "7D8FD18DC870C4",
    "E06A2ABF26653E4E3738E2C59C6F7C5E16A21B27D9E236949F5BF9D31FF2276710E7F10B3B883892B20F475F4CE80DE040153475BDB3E5F281"
    "B84D5AB7FDBB13",
    "D4E38FBBD4B41B3E833413BF32EBDDA87C7DE37C88B122FAB17085EEECAA3339E949C673A623F0615A67268B346C20497311D70BD68B8063DD"
    "E88016B49A2A30",
    "D3C091E152CF5AA6890CFBB1921C50C7E2A94CA09D418B7EC06CAA3F15D94055B7C4A0FDF5AE77B5C15E5D016B2252B861C7E8EB2D6BEFB5C1"
    "C9EFDCB3E6B4D7",
    "36552B180890EEDF85AD939FBEF04C1B05A84E94E2F6304525E13B31A647E7E5A3BEA8AC6FB939A634686810721F834A7A37C86E608B3803F2"
    "A927242B101C77",
    "FC2B5EF7B166BB12528CDDE2F1E3C8FBA660C4D31F9009F5C2B63D6FAB9C692662D7AB31A0AE945168967EB9ED510156AA7E3549A122C21C8D"
    "0A431FC0BEBFA7",
};

static const char *const kat_msg[10] = {
    "EE402D1730D0117B9F51BE0672592FCEC438A2945A81F5D894B869DC863CCBF57E5C8E7766D74E27E965235CD91E5E30E5583167053E1014",
    "6DF5638F60C9EAF3BCE1FD75D0A5393F6F39081F9144EB9FFE7C1CFF856F0D837AA3875266C7DA4EDAAE698D03BCB00ED8135C427849A0FE07"
    "257A9E32E087E6",
    "BF6377540D393D6807F519E41B3A7BD560E577B553EC93FA344940335746C538A46965C7CD1AA7014C014465D331C5B95907EEF195181E1C16"
    "B1A0942911985B5B4E1B12C8742F15",
    "9DD7E9C4253EB6CE178C3D96BBF9C2BB28E80EE54F40B88843F3C96CD0472448644A64F61B682982C0831E0AD243DA1CACAD608516A5DB80AE"
    "AF6240E7B62086DFED95DCB34F097529C4003FF1A88FFE",
    "F501598D0DE8D3A26B72603CCC17F83E44B0A87B6CB60CCCE8A6D227F1600027C05145FF1749F059AF76564EF10A4F74354B309A85D6F43BA7"
    "0FA8C17D4A7B9AD5763CE71EAE2AF1D816E3F93136BA54D47A634CFE47A4F4",
    "67ED899DE1339AA9EF21EE54A3AB75CBB75280FEC7B40BBA7FF75AD1CC08BDF044CDF1D9E482016F09AE083AA26C0CF518E0C20032BF61B814"
    "D0767B0AB022FA2E67716E99FCC548118B206848795D0C4255A3E8114F3C59157C1CA645708192",
    "223CFF54DCF495068FE647D9397CFD80A2A1C00F7EE2516970141B24B8D7BCDD47712E19DF812CBC2BAC2F4B8725F6774029C4C9D1465C62DA"
    "573F4AF37F7FD997806A08BB52346B4BC5D8704822FDFDF4561A0C7A47BAB72397EEE5ABB82E8807D4DE332489A4E2",
    "0C263A5C67AD5A97BD874DB65AB71D5F9D48916BE326BFD2EA15A7691F3725428A87C592FA32036067CAC4C27FC908A63CD31692C2DF504745"
    "CFA33D56F5ED1B9B4E0D2DD37AADBA86468F8EC76E4F674082CA0B023B790A7100A1A4756F648A4D43EBB2134511DAFB4EA2DCD9AEF7C4",
    "EEBEE9341DA426CC9863072F168E67C81EC5FE9378F46115CB757AFD97531247CBFF305EB02D5521855481AE2A3F24CFA584B088565E24156B"
    "6C25B90B2D088447C30C46DCC57992EF5270AE642C95E997D81219798FAA779A71B9A8E9F17CAB982058EEE86BFC0C07C96CF5D8098833257A"
    "22875D9F0C31",
    "17678F0DE8829E1091BDE3C2FEB296C1A63F760D00F8B7F22F3DE742A0B222D3DDC5320D3BE21A3FD7D2C9214C4FFBC16D44AE2C3EB117C173"
    "2A1CF083851CCF46346862A5601662BB560BA370FABE0C8322BFFAB4A690D8FE2D40F8BB1D829E8A7A5016018F2562E5B8FED251A48059B63F"
    "532F815385D08A295A8375C2AAF4",
};

static void seed_repeat(unsigned char *seed, size_t len, const char *word)
{
    size_t w = strlen(word), i;
    for (i = 0; i < len; i++)
        seed[i] = (unsigned char)word[i % w];
}

/* "seed" x 16: the KAT driver's drng_seed */
static void init_seed_drng(DRNG_ctx *d)
{
    unsigned char seed[64];
    seed_repeat(seed, sizeof seed, "seed");
    assert_int_equal(init_random_number(d, seed, sizeof seed), 0);
}

/* "msg" x 21 + "m": the KAT driver's drng_msg */
static void init_msg_drng(DRNG_ctx *d)
{
    unsigned char seed[64];
    seed_repeat(seed, sizeof seed, "msg");
    assert_memory_equal(seed + 60, "msgm", 4);
    assert_int_equal(init_random_number(d, seed, sizeof seed), 0);
}

/* Draw nbits into a buffer with a canary tail and check the canary: exactly
 * ceil(nbits/8) bytes are written. out must hold ceil(nbits/8)+8 bytes. */
static void draw(DRNG_ctx *d, unsigned char *out, size_t cap, unsigned long long nbits)
{
    size_t n = (size_t)((nbits + 7) / 8), i;
    assert_true(n + 8 <= cap);
    memset(out, CANARY, cap);
    assert_int_equal(get_random_number(d, out, nbits), 0);
    for (i = n; i < n + 8; i++)
        assert_int_equal(out[i], CANARY);
}

static void test_layout(void **state)
{
    (void)state;
    assert_int_equal(SEEDLEN, 55);
    assert_int_equal(sizeof(DRNG_ctx), 165);
    assert_int_equal(offsetof(DRNG_ctx, C), 55);
    assert_int_equal(offsetof(DRNG_ctx, reseed_counter), 110);
}

static void test_state_after_init(void **state)
{
    DRNG_ctx d;
    unsigned char one[SEEDLEN] = {0};
    (void)state;
    memset(&d, 0x77, sizeof d); /* earlier contents must be wiped */
    init_seed_drng(&d);
    one[SEEDLEN - 1] = 1;
    assert_hex_equal(d.V, SEEDLEN,
                     "CA876FB92F7E49ED96704C96822E466DBA0ED05AC8893FB3F82DBADFA86B797C859E6B1408A6B677B2F768EF9AC7EC32F"
                     "99EBDF428603E");
    assert_hex_equal(d.C, SEEDLEN,
                     "0766634074BC87EABE8DFF1FE5BB219340AE044DDD3E4C99A7F9729F708AA42D817837DE5F6E2F6C523D52A98B1E573A2"
                     "3DDFB466047FA");
    assert_memory_equal(d.reseed_counter, one, SEEDLEN);
}

static void test_call_sequence(void **state)
{
    DRNG_ctx d;
    unsigned char out[200], v_before[SEEDLEN];
    unsigned char rc[SEEDLEN] = {0};
    (void)state;
    init_seed_drng(&d);

    draw(&d, out, sizeof out, 512); /* call 1 */
    assert_hex_equal(out, 64, kat_seed[0]);
    draw(&d, out, sizeof out, 512); /* call 2 */
    assert_hex_equal(out, 64, kat_seed[1]);
    assert_hex_equal(d.V, SEEDLEN,
                     "D954363A18F759C3138C4AD64DA489943B6AD8F68305D9F1B93C474A2AB60324378F238CF0F92F7C50933A67199191C6A"
                     "FFCC1DE25515E");
    rc[SEEDLEN - 1] = 3;
    assert_memory_equal(d.reseed_counter, rc, SEEDLEN);

    draw(&d, out, sizeof out, 13); /* call 3: masked prefix of record 2's seed */
    assert_hex_equal(out, 2, "4398");

    memcpy(v_before, d.V, SEEDLEN);
    draw(&d, out, sizeof out, 0); /* call 4: nothing written, state advances */
    assert_int_equal(out[0], CANARY);
    assert_memory_not_equal(d.V, v_before, SEEDLEN);
    rc[SEEDLEN - 1] = 5;
    assert_memory_equal(d.reseed_counter, rc, SEEDLEN);

    draw(&d, out, sizeof out, 256); /* call 5: prefix of record 4's seed */
    assert_hex_equal(out, 32, "DD56E75E688D1BC085752F748B794CE294486610198BC8B10583A13321E3880F");

    /* re-init on the used context restarts the stream */
    init_seed_drng(&d);
    draw(&d, out, sizeof out, 512);
    assert_hex_equal(out, 64, kat_seed[0]);
}

static void test_single_1024(void **state)
{
    DRNG_ctx d;
    unsigned char out[140];
    char expect[257];
    (void)state;
    init_seed_drng(&d);
    draw(&d, out, sizeof out, 1024);
    strcpy(expect, kat_seed[0]);
    strcat(expect, "AF9128817AC11F15BF11C11EAB029C8C9A5B01EE76BC05C97ED782915BA6B25DA85FC74EC1FF9605FFBB6411F19C6A40412"
                   "248127AE06065D5291E12ED1AAC6B");
    assert_hex_equal(out, 128, expect);
}

static void test_msg_seed(void **state)
{
    DRNG_ctx d;
    unsigned char out[80];
    (void)state;
    init_msg_drng(&d);
    draw(&d, out, sizeof out, 448);
    assert_hex_equal(out, 56, kat_msg[0]);
    draw(&d, out, sizeof out, 512);
    assert_hex_equal(out, 64, kat_msg[1]);
}

static void test_counting_seeds(void **state)
{
    static const char *const first512[2] = {
        "FCADF1DBF3E2E9349584522373C9D1E331D11E06FB72404B17453E1961601ED4609789564B81DF8FDB4B8578CBED6D9BD383F6F5CA0021"
        "62FCD138E4F8D1B7AC",
        "FB1BA1A3FAB75D796E0AC8166CE03CCF0C5C64C49FB973D462A1D82662E78EE8A175A71AD3790C9C2D86B8BE611A0FD3A5C3121EE9C23F"
        "795C3C8B6F9891F738",
    };
    DRNG_ctx d;
    unsigned char out[80], seed[1] = {0x00};
    (void)state;
    /* n = 0: empty seed, with a NULL and with a valid pointer */
    assert_int_equal(init_random_number(&d, NULL, 0), 0);
    draw(&d, out, sizeof out, 512);
    assert_hex_equal(out, 64, first512[0]);
    assert_int_equal(init_random_number(&d, seed, 0), 0);
    draw(&d, out, sizeof out, 512);
    assert_hex_equal(out, 64, first512[0]);
    /* n = 1: seed 00 */
    assert_int_equal(init_random_number(&d, seed, 1), 0);
    draw(&d, out, sizeof out, 512);
    assert_hex_equal(out, 64, first512[1]);
    /* seed 00, first request of 11 bits */
    assert_int_equal(init_random_number(&d, seed, 1), 0);
    draw(&d, out, sizeof out, 11);
    assert_hex_equal(out, 2, "FB00");
}

static void test_kat_2_12_small_requests(void **state)
{
    DRNG_ctx d;
    unsigned char seed[64], out[16];
    (void)state;
    seed_repeat(seed, sizeof seed, "KAT_2_12");
    assert_int_equal(init_random_number(&d, seed, sizeof seed), 0);
    draw(&d, out, sizeof out, 0);
    assert_int_equal(out[0], CANARY);
    draw(&d, out, sizeof out, 1);
    assert_hex_equal(out, 1, "80");
    draw(&d, out, sizeof out, 2);
    assert_hex_equal(out, 1, "40");
}

/* partial requests are masked prefixes of the full request from the same state */
static void test_partial_masking(void **state)
{
    DRNG_ctx base, after_full, d;
    unsigned char full[80], part[80];
    unsigned long long nbits;
    (void)state;
    init_seed_drng(&base);
    after_full = base;
    draw(&after_full, full, sizeof full, 520);
    for (nbits = 1; nbits <= 520; nbits++) {
        size_t n = (size_t)((nbits + 7) / 8);
        d = base;
        draw(&d, part, sizeof part, nbits);
        assert_memory_equal(part, full, n - 1);
        unsigned int mask = (nbits % 8 == 0) ? 0xFFU : (0xFF00U >> (nbits % 8)) & 0xFFU;
        assert_int_equal(part[n - 1], full[n - 1] & mask);
        /* the state after the call does not depend on the request size */
        assert_memory_equal(&d, &after_full, sizeof d);
    }
}

/* the KAT drivers' Seed and M columns come out of the two private DRNGs */
static void test_kat_seed_and_msg_streams(void **state)
{
    DRNG_ctx ds, dm;
    unsigned char out[140];
    int i;
    (void)state;
    init_seed_drng(&ds);
    init_msg_drng(&dm);
    for (i = 0; i < 10; i++) {
        unsigned long long mbits = 8ULL * (56 + 8 * (unsigned)i);
        draw(&ds, out, sizeof out, 512);
        assert_hex_equal(out, 64, kat_seed[i]);
        draw(&dm, out, sizeof out, mbits);
        assert_hex_equal(out, (size_t)(mbits / 8), kat_msg[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_state_after_init),
        cmocka_unit_test(test_call_sequence),
        cmocka_unit_test(test_single_1024),
        cmocka_unit_test(test_msg_seed),
        cmocka_unit_test(test_counting_seeds),
        cmocka_unit_test(test_kat_2_12_small_requests),
        cmocka_unit_test(test_partial_masking),
        cmocka_unit_test(test_kat_seed_and_msg_streams),
    };
    return cmocka_run_group_tests_name("drng", tests, NULL, NULL);
}
