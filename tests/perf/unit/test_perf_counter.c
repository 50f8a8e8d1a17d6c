/* unit.perf_counter: the counter abstraction (harness/ngcc_counter.h). Every
 * counter that opens must advance and report a plausible frequency,
 * overhead and resolution; one that does not open must say why. The
 * perf_event read path is proven with the software task clock, which opens
 * even on hosts without a PMU; it is a test of its own
 * (unit/perf_counter/perf_event: `test_perf_counter perf-event`), which is
 * SKIP (exit 77, with the reason) only under user-mode emulation whose
 * perf_event_open is not implemented (qemu-user: ENOSYS), never natively. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ngcc_counter.h"

static void spin_ms(int ms)
{
    uint64_t end = ngcc_wall_ns() + (uint64_t)ms * 1000000u;
    while (ngcc_wall_ns() < end) {
    }
}

/* the counter advances, and its ticks / freq agree with the wall clock over
 * a 5 ms spin: within 20% for wall-clock counters; a CPU-time counter (the
 * task clock, or core cycles) stops while the thread is descheduled, so it
 * may only show less, never more */
static void check_open(const ngcc_counter *c, double fmin, double fmax, int wall_clock)
{
    uint64_t w0 = ngcc_wall_ns(), a = ngcc_counter_read(c);
    spin_ms(5);
    uint64_t b = ngcc_counter_read(c), w1 = ngcc_wall_ns();
    assert_true(b > a);
    assert_true(c->freq_hz >= fmin && c->freq_hz <= fmax);
    assert_true(c->overhead_ticks >= 0);
    assert_true(c->resolution_ticks > 0);
    assert_true(c->name[0] != 0);
    assert_true(c->freq_source[0] != 0);
    double by_counter = (double)(b - a) / c->freq_hz, by_wall = (double)(w1 - w0) * 1e-9;
    assert_true(by_counter <= 1.2 * by_wall);
    if (wall_clock)
        assert_true(by_counter >= 0.8 * by_wall);
}

static void auto_opens_something(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, "auto"), 0);
    check_open(&c, 1e6, 1e11, !c.counts_cycles);
    print_message("auto: %s at %.6g Hz (%s), overhead %.0f, resolution %.0f ticks; %s\n", c.name, c.freq_hz,
                  c.freq_source, c.overhead_ticks, c.resolution_ticks, c.fallback);
    ngcc_counter_close(&c);
}

static void monotonic_counts_ns(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, "monotonic"), 0);
    assert_true(c.freq_hz == 1e9);
    check_open(&c, 1e9, 1e9, 1);
    ngcc_counter_close(&c);
}

static void perf_event_read_path(void **state)
{
    (void)state;
    ngcc_counter c;
    if (ngcc_counter_open(&c, "perf-sw") != 0)
        fail_msg("perf_event task clock unavailable: %s (perf_event_paranoid > 2?)", c.fallback);
    assert_int_equal(c.kind, NGCC_CTR_PERF);
    assert_true(c.fd >= 0);
    check_open(&c, 1e9, 1e9, 0);
    ngcc_counter_close(&c);
}

static void core_cycles_open_or_say_why(void **state)
{
    (void)state;
    ngcc_counter c;
    if (ngcc_counter_open(&c, "perf") == 0) {
        assert_true(c.counts_cycles);
        check_open(&c, 1e7, 1e11, 0);
        print_message("core cycles available: %.6g Hz while spinning\n", c.freq_hz);
    } else {
        assert_non_null(strstr(c.fallback, "perf_event:cycles"));
        print_message("core cycles unavailable: %s\n", c.fallback);
    }
    ngcc_counter_close(&c);
}

#if defined(__x86_64__)
static void tsc_is_constant_rate(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, "tsc"), 0);
    assert_false(c.counts_cycles);
    check_open(&c, 1e8, 1e10, 1);
    ngcc_counter_close(&c);
}
#endif

static void unknown_counter_refused(void **state)
{
    (void)state;
    ngcc_counter c;
    assert_int_equal(ngcc_counter_open(&c, "sundial"), -1);
    assert_non_null(strstr(c.fallback, "sundial"));
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "perf-event") == 0) {
        ngcc_counter c;
        char why[256];
        const char *emu = NULL;
        if (ngcc_counter_open(&c, "perf-sw") == 0)
            ngcc_counter_close(&c);
        else if (strstr(c.fallback, "Function not implemented") && (emu = ngcc_emulated(why, sizeof why))) {
            printf("ngcc: SKIP unit.perf_counter perf_event_read_path: emulated (%s; %s): %s: qemu-user does not "
                   "implement perf_event_open, the read path runs in native trees\n",
                   emu, why, c.fallback);
            return 77;
        }
        const struct CMUnitTest perf_event[] = {cmocka_unit_test(perf_event_read_path)};
        return cmocka_run_group_tests_name("unit.perf_counter.perf_event", perf_event, NULL, NULL);
    }
    if (argc > 1) {
        fprintf(stderr, "test_perf_counter: unknown argument '%s' (none, or perf-event)\n", argv[1]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(auto_opens_something),
        cmocka_unit_test(monotonic_counts_ns),
        cmocka_unit_test(core_cycles_open_or_say_why),
#if defined(__x86_64__)
        cmocka_unit_test(tsc_is_constant_rate),
#endif
        cmocka_unit_test(unknown_counter_refused),
    };
    return cmocka_run_group_tests_name("unit.perf_counter", tests, NULL, NULL);
}
