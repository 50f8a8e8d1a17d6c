/* ngcc-ctest unit test: link-time call counting on the ICCS public symbols.
 *
 * Linked with -Wl,--wrap=<sym> for sm3hash, pseudohash, pseudoXOF,
 * get_random_number and init_random_number against libngcc_iccs.a. Every
 * reference that crosses object files goes through the __wrap_ counters below.
 * One call of each public function must count exactly one call of itself and
 * zero of the others: drng.o and auxfunc.o do not reach each other's public
 * symbols. (--wrap cannot see a reference inside one object file; the
 * companion test unit.iccs_objects scans the relocations of every object of
 * the archive for that case.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "auxfunc.h"
#include "drng.h"

enum { C_SM3HASH, C_PSEUDOHASH, C_PSEUDOXOF, C_GET_RANDOM, C_INIT_RANDOM, C_N };
static const char *const names[C_N] = {"sm3hash", "pseudohash", "pseudoXOF", "get_random_number", "init_random_number"};
static unsigned long counts[C_N];

int __real_sm3hash(int, const unsigned char *, unsigned long long, unsigned char *);
int __real_pseudohash(int, const unsigned char *, unsigned long long, unsigned char *);
int __real_pseudoXOF(unsigned long long, const unsigned char *, unsigned long long, unsigned char *);
int __real_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);
int __real_init_random_number(DRNG_ctx *, const unsigned char *, unsigned long long);

int __wrap_sm3hash(int a, const unsigned char *m, unsigned long long n, unsigned char *d);
int __wrap_pseudohash(int a, const unsigned char *m, unsigned long long n, unsigned char *d);
int __wrap_pseudoXOF(unsigned long long a, const unsigned char *m, unsigned long long n, unsigned char *d);
int __wrap_get_random_number(DRNG_ctx *c, unsigned char *o, unsigned long long n);
int __wrap_init_random_number(DRNG_ctx *c, const unsigned char *s, unsigned long long n);

int __wrap_sm3hash(int a, const unsigned char *m, unsigned long long n, unsigned char *d)
{
    counts[C_SM3HASH]++;
    return __real_sm3hash(a, m, n, d);
}
int __wrap_pseudohash(int a, const unsigned char *m, unsigned long long n, unsigned char *d)
{
    counts[C_PSEUDOHASH]++;
    return __real_pseudohash(a, m, n, d);
}
int __wrap_pseudoXOF(unsigned long long a, const unsigned char *m, unsigned long long n, unsigned char *d)
{
    counts[C_PSEUDOXOF]++;
    return __real_pseudoXOF(a, m, n, d);
}
int __wrap_get_random_number(DRNG_ctx *c, unsigned char *o, unsigned long long n)
{
    counts[C_GET_RANDOM]++;
    return __real_get_random_number(c, o, n);
}
int __wrap_init_random_number(DRNG_ctx *c, const unsigned char *s, unsigned long long n)
{
    counts[C_INIT_RANDOM]++;
    return __real_init_random_number(c, s, n);
}

static void expect_only(int which, const char *step)
{
    int i;
    for (i = 0; i < C_N; i++) {
        unsigned long want = (i == which) ? 1UL : 0UL;
        if (counts[i] != want)
            fail_msg("after %s: %s called %lu times, expected %lu", step, names[i], counts[i], want);
    }
    memset(counts, 0, sizeof counts);
}

static void test_counts(void **state)
{
    unsigned char msg[200], out[4096];
    DRNG_ctx d;
    (void)state;
    memset(msg, 0x3C, sizeof msg);
    memset(counts, 0, sizeof counts);

    assert_int_equal(pseudohash(1024, msg, 1597, out), 0);
    expect_only(C_PSEUDOHASH, "pseudohash(1024, msg, 1597, out)");
    assert_int_equal(pseudohash(512, msg, 8 * sizeof msg, out), 0);
    expect_only(C_PSEUDOHASH, "pseudohash(512, msg, 8 * sizeof msg, out)");
    assert_int_equal(pseudoXOF(8 * sizeof out, msg, 1597, out), 0);
    expect_only(C_PSEUDOXOF, "pseudoXOF(8 * sizeof out, msg, 1597, out)");
    assert_int_equal(pseudoXOF(0, msg, 1597, out), 0);
    expect_only(C_PSEUDOXOF, "pseudoXOF(0, msg, 1597, out)");
    assert_int_equal(sm3hash(256, msg, 1597, out), 0);
    expect_only(C_SM3HASH, "sm3hash(256, msg, 1597, out)");
    assert_int_equal(init_random_number(&d, msg, 64), 0);
    expect_only(C_INIT_RANDOM, "init_random_number(&d, msg, 64)");
    assert_int_equal(get_random_number(&d, out, 8 * sizeof out), 0);
    expect_only(C_GET_RANDOM, "get_random_number(&d, out, 8 * sizeof out)");
    assert_int_equal(get_random_number(&d, out, 0), 0);
    expect_only(C_GET_RANDOM, "get_random_number(&d, out, 0)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests_name("iccs_wrap", tests, NULL, NULL);
}
