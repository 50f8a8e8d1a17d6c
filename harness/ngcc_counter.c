#define _GNU_SOURCE
#include "ngcc_counter.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CALIBRATION_WINDOWS 3
#define CALIBRATION_NS 30000000ull /* 30 ms per window */
#define CHARACTERISE_READS 20001

uint64_t ngcc_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t ngcc_counter_read_perf(const ngcc_counter *c)
{
    uint64_t v = 0;
    if (read(c->fd, &v, sizeof v) != (ssize_t)sizeof v)
        return 0;
    return v;
}

const char *ngcc_emulated(char *why, size_t len)
{
    static char name[64];
    const char *e = getenv("NGCC_EMULATOR");
    if (e && *e) {
        snprintf(name, sizeof name, "%s", e);
        snprintf(why, len, "NGCC_EMULATOR=%s (the cross build runs its tests under it)", e);
        return name;
    }
#if defined(__aarch64__) || defined(__x86_64__)
    /* an x86-64 /proc/cpuinfo has "vendor_id", an AArch64 one "CPU implementer" */
#if defined(__aarch64__)
    const char *foreign = "vendor_id", *arch = "aarch64";
#else
    const char *foreign = "CPU implementer", *arch = "x86_64";
#endif
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    int hit = 0;
    while (f && !hit && fgets(line, sizeof line, f))
        hit = strncmp(line, foreign, strlen(foreign)) == 0;
    if (f)
        fclose(f);
    if (hit) {
        snprintf(name, sizeof name, "qemu-%s", arch);
        snprintf(why, len,
                 "built for %s, but /proc/cpuinfo describes another architecture (\"%s\"): user-mode emulation", arch,
                 foreign);
        return name;
    }
#endif
    if (len)
        why[0] = 0;
    return NULL;
}

static void spin_ns(uint64_t ns)
{
    uint64_t end = ngcc_wall_ns() + ns;
    while (ngcc_wall_ns() < end) {
    }
}

static void note_fallback(ngcc_counter *c, const char *what, const char *why)
{
    size_t l = strlen(c->fallback);
    snprintf(c->fallback + l, sizeof c->fallback - l, "%s%s: %s", l ? "; " : "", what, why);
}

/* user-mode count of one event of the calling thread; 0 or -1 (reason noted) */
static int open_perf(ngcc_counter *c, uint32_t type, uint64_t config, const char *name)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.exclude_kernel = 1; /* allowed with perf_event_paranoid <= 2 */
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        char why[96];
        snprintf(why, sizeof why, "perf_event_open failed (%s)", strerror(errno));
        note_fallback(c, name, why);
        return -1;
    }
    c->fd = (int)fd;
    c->kind = NGCC_CTR_PERF;
    /* virtual PMUs sometimes accept the event but never count: check */
    uint64_t a0 = ngcc_counter_read_perf(c);
    spin_ns(2000000);
    if (ngcc_counter_read_perf(c) <= a0) {
        note_fallback(c, name, "the event opened but did not advance");
        close(c->fd);
        c->fd = -1;
        return -1;
    }
    snprintf(c->name, sizeof c->name, "%s", name);
    return 0;
}

static int open_kind(ngcc_counter *c, const char *want)
{
    if (!strcmp(want, "perf")) {
        c->counts_cycles = 1;
        return open_perf(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "perf_event:cycles");
    }
    if (!strcmp(want, "perf-sw"))
        return open_perf(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "perf_event:task-clock");
#if defined(__x86_64__)
    if (!strcmp(want, "tsc")) {
        c->kind = NGCC_CTR_TSC;
        snprintf(c->name, sizeof c->name, "tsc");
        return 0;
    }
#elif defined(__aarch64__)
    if (!strcmp(want, "cntvct")) {
        c->kind = NGCC_CTR_CNTVCT;
        snprintf(c->name, sizeof c->name, "cntvct");
        return 0;
    }
#endif
    if (!strcmp(want, "monotonic")) {
        c->kind = NGCC_CTR_MONOTONIC;
        snprintf(c->name, sizeof c->name, "clock_monotonic_raw");
        return 0;
    }
    note_fallback(c, want, "not available on this architecture or unknown (use auto, perf, tsc, cntvct, monotonic)");
    return -1;
}

/* ticks per second against CLOCK_MONOTONIC_RAW: median of short busy windows */
static double calibrate_hz(const ngcc_counter *c)
{
    double r[CALIBRATION_WINDOWS];
    for (int i = 0; i < CALIBRATION_WINDOWS; i++) {
        uint64_t w0 = ngcc_wall_ns(), t0 = ngcc_counter_read(c);
        spin_ns(CALIBRATION_NS);
        uint64_t t1 = ngcc_counter_read(c), w1 = ngcc_wall_ns();
        r[i] = (double)(t1 - t0) * 1e9 / (double)(w1 - w0);
    }
    for (int i = 1; i < CALIBRATION_WINDOWS; i++) /* 3 values: insertion sort */
        for (int j = i; j > 0 && r[j] < r[j - 1]; j--) {
            double t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    return r[CALIBRATION_WINDOWS / 2];
}

static void measure_frequency(ngcc_counter *c)
{
#if defined(__aarch64__)
    if (c->kind == NGCC_CTR_CNTVCT) {
        uint64_t f;
        __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
        c->freq_hz = (double)f;
        snprintf(c->freq_source, sizeof c->freq_source, "cntfrq_el0");
        return;
    }
#endif
    if (c->kind == NGCC_CTR_MONOTONIC || (c->kind == NGCC_CTR_PERF && !c->counts_cycles)) {
        c->freq_hz = 1e9;
        snprintf(c->freq_source, sizeof c->freq_source, "counts nanoseconds");
        return;
    }
    c->freq_hz = calibrate_hz(c);
    snprintf(c->freq_source, sizeof c->freq_source, "%s against CLOCK_MONOTONIC_RAW, median of %d x %llu ms",
             c->counts_cycles ? "measured while spinning" : "calibrated", CALIBRATION_WINDOWS,
             CALIBRATION_NS / 1000000ull);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* smallest non-zero step seen when reading until the value changes */
static uint64_t smallest_step(const ngcc_counter *c)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000; i++) {
        uint64_t a = ngcc_counter_read(c), b;
        int guard = 0;
        while ((b = ngcc_counter_read(c)) == a && ++guard < 1000000) {
        }
        if (b > a && b - a < best)
            best = b - a;
    }
    return best == UINT64_MAX ? 0 : best;
}

/* overhead: median of back-to-back read differences. Resolution: the
 * quantum of the counter, the GCD of those differences (a TSC that advances
 * in steps of 21 shows 21 even when one read costs 42); if reads are faster
 * than the counter advances, the smallest step seen instead. */
static void measure_overhead(ngcc_counter *c)
{
    uint64_t *d = malloc(CHARACTERISE_READS * sizeof *d);
    if (!d)
        return;
    uint64_t g = 0;
    int zero = 0;
    for (int i = 0; i < CHARACTERISE_READS; i++) {
        uint64_t a = ngcc_counter_read(c);
        uint64_t b = ngcc_counter_read(c);
        d[i] = b - a;
        g = gcd(g, d[i]);
        zero += d[i] == 0;
    }
    qsort(d, CHARACTERISE_READS, sizeof *d, cmp_u64);
    c->overhead_ticks = (double)d[CHARACTERISE_READS / 2];
    c->resolution_ticks = (double)(zero ? smallest_step(c) : g);
    free(d);
}

int ngcc_counter_open(ngcc_counter *c, const char *want)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    int rc = -1;
    if (!want || !strcmp(want, "auto")) {
        static const char *const order[] = {"perf", "tsc", "cntvct", "monotonic"};
        for (size_t i = 0; i < sizeof order / sizeof order[0] && rc; i++) {
#if !defined(__x86_64__)
            if (!strcmp(order[i], "tsc"))
                continue;
#endif
#if !defined(__aarch64__)
            if (!strcmp(order[i], "cntvct"))
                continue;
#endif
            c->counts_cycles = 0;
            rc = open_kind(c, order[i]);
        }
    } else {
        rc = open_kind(c, want);
    }
    if (rc)
        return -1;
    measure_frequency(c);
    measure_overhead(c);
    return 0;
}

void ngcc_counter_close(ngcc_counter *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}
