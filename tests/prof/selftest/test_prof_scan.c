/* Selftest of the prof object scan (tests/prof/prof_scan.c): each case scans
 * an object built to show one way calls can escape -Wl,--wrap (or none) and
 * asserts exactly what the scan reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "prof_scan.h"

enum { O_CLEAN, O_SAME, O_STATIC, O_NEXT, O_LTO, O_GLUE, O_N };
static const char *objdump;
static char *obj[O_N];

static int has_reason(const prof_scan_result *r, const char *text)
{
    for (int i = 0; i < r->nreasons; i++)
        if (strstr(r->reasons[i], text))
            return 1;
    return 0;
}

static void scan(int *which, int n, const char *flags, prof_scan_result *r)
{
    char *list[O_N];
    for (int i = 0; i < n; i++)
        list[i] = obj[which[i]];
    assert_int_equal(prof_scan_objects(objdump, list, n, flags, r), 0);
}

static void clean_object(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_CLEAN}, 1, "-O2", &r);
    assert_int_equal(r.objects, 1);
    assert_false(r.may_miss);
    assert_true(r.used[NGCC_PROF_SM3HASH] && r.used[NGCC_PROF_PSEUDOXOF] && r.used[NGCC_PROF_GET_RANDOM]);
    assert_false(r.used[NGCC_PROF_PSEUDOHASH] || r.used[NGCC_PROF_INIT_RANDOM]);
}

static void glue_is_ignored(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_GLUE, O_CLEAN}, 2, "-O2", &r);
    assert_int_equal(r.objects, 1);
    assert_false(r.may_miss);
    assert_false(r.used[NGCC_PROF_INIT_RANDOM] || r.used[NGCC_PROF_PSEUDOHASH]);
}

static void same_object_call(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_CLEAN, O_SAME}, 2, "-O2", &r);
    assert_true(r.may_miss);
    assert_true(r.missable[NGCC_PROF_PSEUDOXOF]);
    assert_false(r.missable[NGCC_PROF_SM3HASH]);
    assert_true(has_reason(&r, "defines pseudoXOF and calls it inside the same object"));
}

static void static_copy(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_STATIC}, 1, "-O2", &r);
    assert_true(r.may_miss && r.missable[NGCC_PROF_SM3HASH]);
    assert_true(has_reason(&r, "has a static sm3hash of its own"));
}

static void defined_next_to_code(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_NEXT}, 1, "-O2", &r);
    assert_true(r.may_miss && r.missable[NGCC_PROF_PSEUDOHASH]);
    assert_true(has_reason(&r, "defines pseudohash next to other code (sig_keygen)"));
}

static void lto_object(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_LTO}, 1, "-O2", &r);
    assert_true(r.lto && r.may_miss);
    assert_true(has_reason(&r, "LTO build"));
}

static void lto_flags(void **state)
{
    (void)state;
    prof_scan_result r;
    scan((int[]){O_CLEAN}, 1, "-O2 -flto=auto", &r);
    assert_true(r.lto && r.may_miss);
}

static void scan_failure_is_reported(void **state)
{
    (void)state;
    prof_scan_result r;
    char *list[] = {obj[O_CLEAN]};
    assert_int_equal(prof_scan_objects("/nonexistent/objdump", list, 1, "", &r), -1);
    assert_true(r.may_miss);
    assert_non_null(strstr(r.error, "/nonexistent/objdump"));
    assert_int_equal(prof_scan_objects(objdump, list, 0, "", &r), -1);
    assert_non_null(strstr(r.error, "no object files"));
}

int main(int argc, char **argv)
{
    if (argc != 2 + O_N) {
        fprintf(stderr, "usage: test_prof_scan <objdump> <clean.o> <same.o> <static.o> <next.o> <lto.o> <glue.o>\n");
        return 2;
    }
    objdump = argv[1];
    for (int i = 0; i < O_N; i++)
        obj[i] = argv[2 + i];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_object), cmocka_unit_test(glue_is_ignored),          cmocka_unit_test(same_object_call),
        cmocka_unit_test(static_copy),  cmocka_unit_test(defined_next_to_code),     cmocka_unit_test(lto_object),
        cmocka_unit_test(lto_flags),    cmocka_unit_test(scan_failure_is_reported),
    };
    return cmocka_run_group_tests_name("prof_scan", tests, NULL, NULL);
}
