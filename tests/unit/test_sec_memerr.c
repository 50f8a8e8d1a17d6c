/* Sanitizer log parsing of ngcc-security (tests/security/sec_memerr.c): the
 * verdict class of each report, every report of a log (UBSan recovers), the
 * report that ended the process, and the ICCS template's UB by its site.
 * The log lines are as ASan/UBSan print them (paths shortened). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sec_memerr.h"

#define UB_INDEX                                                                                                       \
    "/p/a b/x.c:12:9: runtime error: index 8 out of bounds for type 'uint8_t [8]'\n"                                   \
    "    #0 0x7f00 in parse_hdr /p/a b/x.c:12\n"                                                                       \
    "    #1 0x7f01 in sig_verify /p/a b/x.c:40\n"
#define UB_SPACE                                                                                                       \
    "/p/k.c:284:58: runtime error: load of address 0x6020 with insufficient space for an object of type 'uint64_t'\n"  \
    "0x6020: note: pointer points here\n"                                                                              \
    " 00 00 00 00  00 00 00 00\n"                                                                                      \
    "              ^ \n"                                                                                               \
    "    #0 0x7f10 in ecc_fix /p/k.c:284\n"                                                                            \
    "    #1 0x7f11 in kem_dec /p/k.c:360\n"
#define UB_OVERFLOW                                                                                                    \
    "/p/k.c:196:21: runtime error: signed integer overflow: 177 + 2147483647 cannot be represented in type 'int'\n"    \
    "    #0 0x7f20 in kem_keygen /p/k.c:196\n"
#define UB_TEMPLATE                                                                                                    \
    "/p/drng.c:39:24: runtime error: shift exponent 32 is too large for 32-bit type 'unsigned int'\n"                  \
    "    #0 0x7f30 in sm3_bit_compress /p/drng.c:39\n"                                                                 \
    "    #1 0x7f31 in sm3_hash /p/drng.c:120\n"                                                                        \
    "    #2 0x7f32 in init_random_number /p/drng.c:200\n"
#define ASAN_WRITE                                                                                                     \
    "=================================================================\n"                                              \
    "==77==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020 at pc 0x7f bp 0x7f sp 0x7f\n"               \
    "WRITE of size 1 at 0x6020 thread T0\n"                                                                            \
    "    #0 0x7f40 in ecc_fix /p/k.c:284\n"                                                                            \
    "    #1 0x7f41 in kem_dec /p/k.c:360\n"                                                                            \
    "SUMMARY: AddressSanitizer: heap-buffer-overflow /p/k.c:284 in ecc_fix\n"

static void first(const char *text, sec_memerr *e)
{
    assert_int_equal(sec_memerr_sanitizer_text(text, e), 1);
}

static void ubsan_bounds_are_overflow(void **state)
{
    (void)state;
    sec_memerr e;
    first(UB_INDEX, &e);
    assert_int_equal(e.verdict, NGCC_OVERFLOW);
    assert_string_equal(e.site, "parse_hdr (x.c:12:9)");
    assert_string_equal(e.kind, "UBSan: index");
    assert_false(e.fatal);
    sec_memerr_free(&e);
    first(UB_SPACE, &e);
    assert_int_equal(e.verdict, NGCC_OVERFLOW);
    assert_string_equal(e.site, "ecc_fix (k.c:284:58)"); /* past the note and the memory dump */
    sec_memerr_free(&e);
}

static void other_ub_is_undefined(void **state)
{
    (void)state;
    sec_memerr e;
    first(UB_OVERFLOW, &e);
    assert_int_equal(e.verdict, NGCC_UNDEFINED);
    assert_string_equal(e.kind, "UBSan: signed integer overflow");
    assert_false(e.template_ub);
    sec_memerr_free(&e);
}

static void template_ub_by_site(void **state)
{
    (void)state;
    sec_memerr e;
    first(UB_TEMPLATE, &e);
    assert_int_equal(e.verdict, NGCC_UNDEFINED);
    assert_true(e.template_ub);
    sec_memerr_free(&e);
    /* the same shift elsewhere is the candidate's */
    first("/p/sm3.c:39:24: runtime error: shift exponent 32 is too large for 32-bit type 'unsigned int'\n"
          "    #0 0x7f30 in sm3_bit_compress /p/sm3.c:39\n"
          "    #1 0x7f32 in init_random_number /p/drng.c:200\n",
          &e);
    assert_false(e.template_ub);
    sec_memerr_free(&e);
    /* not reached from init_random_number */
    first("/p/drng.c:39:24: runtime error: shift exponent 32 is too large for 32-bit type 'unsigned int'\n"
          "    #0 0x7f30 in sm3_bit_compress /p/drng.c:39\n"
          "    #1 0x7f31 in my_hash /p/mine.c:12\n",
          &e);
    assert_false(e.template_ub);
    sec_memerr_free(&e);
}

static int seen;
static char sites[4][400];

static void count(sec_memerr *e, void *arg)
{
    (void)arg;
    if (seen < 4)
        strcpy(sites[seen], e->site);
    seen++;
}

static void every_report_and_the_fatal_one(void **state)
{
    (void)state;
    const char *log =
        "#CALL kem_keygen at record 0\n" UB_OVERFLOW "#CALL kem_dec at record 0, bit 7 flipped\n" UB_SPACE ASAN_WRITE;
    seen = 0;
    assert_int_equal(sec_memerr_sanitizer_each(log, count, NULL), 3);
    assert_string_equal(sites[0], "kem_keygen (k.c:196:21)");
    assert_string_equal(sites[2], "ecc_fix (k.c:284)");
    sec_memerr e;
    assert_int_equal(sec_memerr_sanitizer_fatal(log, &e), 1);
    assert_true(e.fatal);
    assert_int_equal(e.verdict, NGCC_OVERFLOW);
    assert_string_equal(e.kind, "AddressSanitizer heap-buffer-overflow: WRITE");
    assert_string_equal(e.context, "kem_dec at record 0, bit 7 flipped");
    sec_memerr_free(&e);
    /* recovered UB only: nothing ended the process */
    assert_int_equal(sec_memerr_sanitizer_fatal(UB_OVERFLOW, &e), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ubsan_bounds_are_overflow),
        cmocka_unit_test(other_ub_is_undefined),
        cmocka_unit_test(template_ub_by_site),
        cmocka_unit_test(every_report_and_the_fatal_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
