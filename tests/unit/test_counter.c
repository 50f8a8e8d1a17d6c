/* unit/counter: the tick counter of harness/ngcc_counter.c on the
 * architecture it was built for (AArch64: cntvct_el0 with its frequency from
 * cntfrq_el0, run under qemu-aarch64 in the aarch64 preset; x86-64: TSC),
 * its overhead/resolution probe, and the emulation check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ngcc_counter.h"

#if defined(__aarch64__)
#define NATIVE "cntvct"
#elif defined(__x86_64__)
#define NATIVE "tsc"
#else
#define NATIVE "monotonic"
#endif

/* the counter's rate against CLOCK_MONOTONIC_RAW over one 50 ms window */
static double measured_hz(const ngcc_counter *c)
{
    uint64_t w0 = ngcc_wall_ns(), t0 = ngcc_counter_read(c);
    while (ngcc_wall_ns() - w0 < 50000000ull) {
    }
    uint64_t t1 = ngcc_counter_read(c), w1 = ngcc_wall_ns();
    return (double)(t1 - t0) * 1e9 / (double)(w1 - w0);
}

static void native_counter(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, NATIVE), 0);
    assert_string_equal(c.name, strcmp(NATIVE, "monotonic") ? NATIVE : "clock_monotonic_raw");
    assert_true(c.freq_hz > 0);
#if defined(__aarch64__)
    /* the frequency is the architectural register, not a calibration */
    assert_string_equal(c.freq_source, "cntfrq_el0");
#endif
    /* the stated frequency is the counter's rate: within 10% of a wall-clock window */
    double hz = measured_hz(&c);
    printf("counter %s: freq %.0f Hz (%s), measured %.0f Hz, overhead %.1f ticks, resolution %.1f ticks\n", c.name,
           c.freq_hz, c.freq_source, hz, c.overhead_ticks, c.resolution_ticks);
    assert_true(hz > 0.9 * c.freq_hz && hz < 1.1 * c.freq_hz);
    ngcc_counter_close(&c);
}

static void overhead_and_resolution(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, NATIVE), 0);
    /* the quantum is at least one tick; the overhead of one read is below
     * 1 ms (a probe that measured nothing gives 0 quantum) */
    assert_true(c.resolution_ticks >= 1);
    assert_true(c.overhead_ticks >= 0);
    assert_true(c.overhead_ticks / c.freq_hz < 1e-3);
    /* reads never go backwards */
    uint64_t prev = ngcc_counter_read(&c);
    for (int i = 0; i < 100000; i++) {
        uint64_t v = ngcc_counter_read(&c);
        assert_true(v >= prev);
        prev = v;
    }
    ngcc_counter_close(&c);
}

static void auto_counter_states_why(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, "auto"), 0);
    assert_true(c.name[0] != 0);
    /* no perf_event here (or under qemu-user): the fallback names the reason */
    if (strncmp(c.name, "perf_event", 10) != 0)
        assert_true(c.fallback[0] != 0);
    ngcc_counter_close(&c);
    /* a counter of another architecture is refused with the reason */
    assert_int_equal(ngcc_counter_open(&c, strcmp(NATIVE, "tsc") ? "tsc" : "cntvct"), -1);
    assert_true(c.fallback[0] != 0);
}

static void emulation_check(void **state)
{
    (void)state;
    char why[256];
    const char *env = getenv("NGCC_EXPECT_EMULATOR");
    const char *e = ngcc_emulated(why, sizeof why);
    printf("emulated: %s (%s)\n", e ? e : "no", why);
    if (env && *env) {
        assert_non_null(e);
        assert_string_equal(e, env);
        /* without the variable the cpuinfo evidence must find it too */
        unsetenv("NGCC_EMULATOR");
        e = ngcc_emulated(why, sizeof why);
        printf("emulated without NGCC_EMULATOR: %s (%s)\n", e ? e : "no", why);
        assert_non_null(e);
        assert_string_equal(e, env);
    } else {
        assert_null(e);
    }
    setenv("NGCC_EMULATOR", "qemu-test", 1);
    e = ngcc_emulated(why, sizeof why);
    assert_non_null(e);
    assert_string_equal(e, "qemu-test");
    assert_non_null(strstr(why, "NGCC_EMULATOR"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(native_counter),
        cmocka_unit_test(overhead_and_resolution),
        cmocka_unit_test(auto_counter_states_why),
        cmocka_unit_test(emulation_check),
    };
    return cmocka_run_group_tests_name("counter", tests, NULL, NULL);
}
