/* Unit tests of the report number formatting (tools/report/report_fmt.c):
 * the published page style and the rounding boundaries between units. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report_fmt.h"

typedef char *(*fmt_fn)(char *, double);

static void expect(fmt_fn f, double v, const char *want)
{
    char out[NGCC_FMT_MAX];
    const char *got = f(out, v);
    if (strcmp(got, want) != 0)
        fail_msg("%.17g formatted as \"%s\", expected \"%s\"", v, got, want);
}

static void published_examples(void **state)
{
    (void)state;
    expect(ngcc_fmt_count, 95612345, "95.61 M");
    expect(ngcc_fmt_count, 11234, "11.2 k");
    expect(ngcc_fmt_time_ns, 4170, "4.17 \xC2\xB5s");
    expect(ngcc_fmt_rate, 240000, "2.4e+05");
}

static void counts(void **state)
{
    (void)state;
    expect(ngcc_fmt_count, 0, "0");
    expect(ngcc_fmt_count, 523, "523");
    expect(ngcc_fmt_count, 2.5, "2.50");
    expect(ngcc_fmt_count, 999.4, "999");
    expect(ngcc_fmt_count, 999.5, "1.0 k");
    expect(ngcc_fmt_count, 487300, "487.3 k");
    expect(ngcc_fmt_count, 999949, "999.9 k");
    expect(ngcc_fmt_count, 999950, "1.00 M");
    expect(ngcc_fmt_count, 3720000, "3.72 M");
    expect(ngcc_fmt_count, 10.4e9, "10.40 G");
    expect(ngcc_fmt_count, 6.2e12, "6.20 T");
    expect(ngcc_fmt_count, -1500, "-1.5 k");
}

static void calls(void **state)
{
    (void)state;
    expect(ngcc_fmt_calls, 2, "2");
    expect(ngcc_fmt_calls, 75.6, "75.6");
    expect(ngcc_fmt_calls, 16.5, "16.5");
    expect(ngcc_fmt_calls, 507.5, "508");
    expect(ngcc_fmt_calls, 1072, "1.07 k");
    expect(ngcc_fmt_calls, 16111, "16.1 k");
    expect(ngcc_fmt_calls, 32223, "32.2 k");
    expect(ngcc_fmt_calls, 999.6, "1.00 k");
    expect(ngcc_fmt_calls, 0.25, "0.25");
}

static void times(void **state)
{
    (void)state;
    expect(ngcc_fmt_time_ns, 523, "523 ns");
    expect(ngcc_fmt_time_ns, 5.2, "5.20 ns");
    expect(ngcc_fmt_time_ns, 999.6, "1.00 \xC2\xB5s");
    expect(ngcc_fmt_time_ns, 412300, "412 \xC2\xB5s");
    expect(ngcc_fmt_time_ns, 14.2e6, "14.2 ms");
    expect(ngcc_fmt_time_ns, 1.5e9, "1.50 s");
    expect(ngcc_fmt_time_ns, 2400e9, "2400 s");
}

static void rates_and_shares(void **state)
{
    (void)state;
    expect(ngcc_fmt_rate, 70.4, "70");
    expect(ngcc_fmt_rate, 2427, "2.4e+03");
    expect(ngcc_fmt_rate, 0.5, "0.5");
    expect(ngcc_fmt_percent, 0.6204, "62.0%");
    expect(ngcc_fmt_percent, 0.047, "4.7%");
    expect(ngcc_fmt_change, 0.031, "+3.1%");
    expect(ngcc_fmt_change, -0.2, "-20.0%");
    expect(ngcc_fmt_ratio, 1.7312, "1.73\xC3\x97");
}

static void bytes_and_sizes(void **state)
{
    (void)state;
    expect(ngcc_fmt_bytes, 512, "512 B");
    expect(ngcc_fmt_bytes, 1023.4, "1023 B");
    expect(ngcc_fmt_bytes, 1024, "1.00 KiB");
    expect(ngcc_fmt_bytes, 12.3 * 1024, "12.3 KiB");
    expect(ngcc_fmt_bytes, 1.23 * 1048576, "1.23 MiB");
    expect(ngcc_fmt_bytes, 95e6, "90.6 MiB");
    expect(ngcc_fmt_int, 2308, "2308");
    expect(ngcc_fmt_freq, 2.71e9, "2.71 GHz");
    expect(ngcc_fmt_freq, 2449.998e6, "2.45 GHz");
}

static void gaps(void **state)
{
    (void)state;
    fmt_fn all[] = {ngcc_fmt_count,  ngcc_fmt_calls, ngcc_fmt_time_ns, ngcc_fmt_rate, ngcc_fmt_percent,
                    ngcc_fmt_change, ngcc_fmt_bytes, ngcc_fmt_int,     ngcc_fmt_freq, ngcc_fmt_ratio};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        expect(all[i], NAN, NGCC_FMT_GAP);
        expect(all[i], INFINITY, NGCC_FMT_GAP);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(published_examples),
        cmocka_unit_test(counts),
        cmocka_unit_test(calls),
        cmocka_unit_test(times),
        cmocka_unit_test(rates_and_shares),
        cmocka_unit_test(bytes_and_sizes),
        cmocka_unit_test(gaps),
    };
    return cmocka_run_group_tests_name("report_fmt", tests, NULL, NULL);
}
