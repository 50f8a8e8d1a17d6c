/* unit.perf_stats: order statistics and the threshold gates of ngcc-perf. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "perf_stats.h"
#include "perf_thresholds.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void quartiles_type7(void **state)
{
    (void)state;
    const double x[] = {4, 1, 3, 2}; /* numpy.percentile([1,2,3,4], [25,50,75]) = 1.75 2.5 3.25 */
    perf_summary s;
    assert_int_equal(perf_summarise(x, 4, &s), 0);
    near(s.min, 1);
    near(s.q1, 1.75);
    near(s.median, 2.5);
    near(s.q3, 3.25);
    near(s.max, 4);
    near(s.mean, 2.5);
    near(perf_iqr_rel(&s), 0.6);
    const double odd[] = {10, 30, 20, 50, 40};
    assert_int_equal(perf_summarise(odd, 5, &s), 0);
    near(s.q1, 20);
    near(s.median, 30);
    near(s.q3, 40);
    const double one = 7;
    assert_int_equal(perf_summarise(&one, 1, &s), 0);
    near(s.q1, 7);
    near(s.q3, 7);
    assert_int_equal(perf_summarise(x, 0, &s), -1);
}

static cJSON *entry(const char *json)
{
    return cJSON_Parse(json);
}

static void gate_same_counter_in_ticks(void **state)
{
    (void)state;
    cJSON *e = entry("{\"counter\":\"tsc\",\"freq_hz\":2e9,\"median\":1000,\"median_ns\":500}");
    perf_gate g;
    perf_gate_timing(e, "tsc", 0, 2.001e9, 1050, 0.05, &g); /* freq within 0.5%: ticks */
    assert_true(g.have);
    assert_string_equal(g.unit, "ticks");
    near(g.limit, 1050);
    assert_false(perf_gate_exceeded(&g)); /* equal to the limit passes */
    perf_gate_timing(e, "tsc", 0, 2e9, 1051, 0.05, &g);
    assert_true(perf_gate_exceeded(&g));
    cJSON_Delete(e);
}

static void gate_other_frequency_in_ns(void **state)
{
    (void)state;
    cJSON *e = entry("{\"counter\":\"tsc\",\"freq_hz\":2e9,\"median\":1000,\"median_ns\":500}");
    perf_gate g;
    perf_gate_timing(e, "tsc", 0, 2.6e9, 1300, 0.05, &g); /* 1300 ticks at 2.6 GHz = 500 ns */
    assert_true(g.have);
    assert_string_equal(g.unit, "ns");
    near(g.value, 500);
    assert_false(perf_gate_exceeded(&g));
    cJSON_Delete(e);
}

static void gate_cycles_need_cycles(void **state)
{
    (void)state;
    cJSON *e = entry("{\"counter\":\"tsc\",\"freq_hz\":2e9,\"median\":1000,\"median_ns\":500}");
    perf_gate g;
    perf_gate_timing(e, "perf_event:cycles", 1, 3e9, 900, 0.05, &g);
    assert_false(g.have);
    assert_false(perf_gate_exceeded(&g));
    perf_gate_timing(NULL, "tsc", 0, 2e9, 900, 0.05, &g);
    assert_false(g.have);
    assert_string_equal(g.note, "no baseline");
    cJSON_Delete(e);
}

static void gate_entry_tolerance_wins(void **state)
{
    (void)state;
    cJSON *e = entry("{\"counter\":\"tsc\",\"freq_hz\":2e9,\"median\":1000,\"tolerance\":0.5,\"peak_rss_kb\":100}");
    perf_gate g;
    perf_gate_timing(e, "tsc", 0, 2e9, 1400, 0.05, &g);
    near(g.tolerance, 0.5);
    assert_false(perf_gate_exceeded(&g));
    perf_gate_value(e, "peak_rss_kb", "kB", 151, 0.05, &g);
    assert_true(perf_gate_exceeded(&g));
    perf_gate_value(e, "heap_peak_bytes", "bytes", 10, 0.05, &g);
    assert_false(g.have);
    cJSON_Delete(e);
}

/* A/B: a constant 1.2 x slowdown is exactly 1.2 with a zero-width interval;
 * drift shared by a pair cancels in the paired ratio but widens the ratio of
 * medians; the same seed gives the same interval, another seed another one */
static void ab_bootstrap(void **state)
{
    (void)state;
    double a[40], b[40], c[40];
    for (int i = 0; i < 40; i++) {
        double drift = 1 + 0.3 * (i % 7) / 7.0;
        a[i] = 1000 * drift;
        b[i] = 1200 * drift;
        c[i] = 1000 * drift * (i % 2 ? 1.01 : 0.99);
    }
    perf_ratio_ci r, r2, r3;
    assert_int_equal(perf_ratio_bootstrap(a, b, 40, 2000, 0.95, 42, &r), 0);
    assert_true(fabs(r.ratio - 1.2) < 1e-12 && fabs(r.lo - 1.2) < 1e-12 && fabs(r.hi - 1.2) < 1e-12);
    assert_true(fabs(r.rom - 1.2) < 1e-12);
    assert_int_equal(perf_ratio_bootstrap(a, c, 40, 2000, 0.95, 42, &r), 0);
    assert_true(r.lo <= r.ratio && r.ratio <= r.hi && r.lo >= 0.99 - 1e-12 && r.hi <= 1.01 + 1e-12);
    assert_true(r.rom_hi - r.rom_lo >= r.hi - r.lo);
    assert_int_equal(perf_ratio_bootstrap(a, c, 40, 2000, 0.95, 42, &r2), 0);
    assert_true(r.lo == r2.lo && r.hi == r2.hi && r.rom_lo == r2.rom_lo);
    for (int i = 0; i < 40; i++)
        c[i] = 1000 * (1 + 0.05 * ((i * 17) % 11) / 11.0);
    assert_int_equal(perf_ratio_bootstrap(a, c, 40, 2000, 0.95, 42, &r2), 0);
    assert_int_equal(perf_ratio_bootstrap(a, c, 40, 2000, 0.95, 43, &r3), 0);
    assert_true(r2.lo != r3.lo || r2.hi != r3.hi || r2.rom_lo != r3.rom_lo);
    a[3] = 0;
    assert_int_equal(perf_ratio_bootstrap(a, b, 40, 2000, 0.95, 42, &r), -1);
    assert_int_equal(perf_ratio_bootstrap(a, b, 0, 2000, 0.95, 42, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quartiles_type7),
        cmocka_unit_test(gate_same_counter_in_ticks),
        cmocka_unit_test(gate_other_frequency_in_ns),
        cmocka_unit_test(gate_cycles_need_cycles),
        cmocka_unit_test(gate_entry_tolerance_wins),
        cmocka_unit_test(ab_bootstrap),
    };
    return cmocka_run_group_tests_name("unit.perf_stats", tests, NULL, NULL);
}
