/* ngcc-ctest: the tick counter behind every timing figure.
 * Preference: user-mode core cycles from perf_event_open (x86-64, AArch64),
 * else the TSC (x86-64) or the virtual counter cntvct_el0 (AArch64), else
 * CLOCK_MONOTONIC_RAW. Unavailability is detected at run time and the reason
 * kept, so every record can state which counter was used, its frequency,
 * and its measured overhead and resolution. Open it in the process that runs
 * the timed code: a perf_event counter counts the opening thread only. */
#ifndef NGCC_COUNTER_H
#define NGCC_COUNTER_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    NGCC_CTR_PERF,     /* perf_event_open counter, read with read(2) */
    NGCC_CTR_TSC,      /* x86-64: lfence; rdtsc; lfence */
    NGCC_CTR_CNTVCT,   /* AArch64: isb; mrs cntvct_el0 */
    NGCC_CTR_MONOTONIC /* clock_gettime(CLOCK_MONOTONIC_RAW), ns */
} ngcc_counter_kind;

typedef struct {
    ngcc_counter_kind kind;
    int fd;                  /* perf_event fd, else -1 */
    char name[48];           /* "perf_event:cycles", "tsc", "cntvct", "clock_monotonic_raw", ... */
    int counts_cycles;       /* 1: core cycles (rate follows the core clock); 0: constant-rate clock */
    double freq_hz;          /* ticks per second (core cycles: measured while spinning) */
    char freq_source[96];    /* how freq_hz was obtained */
    double overhead_ticks;   /* median of (read; read) back to back */
    double resolution_ticks; /* quantum: GCD of back-to-back differences (or smallest step) */
    char fallback[200];      /* why preferred counters were not used ("" if none) */
} ngcc_counter;

/* want: "auto" (best available), "perf" (core cycles only), "tsc", "cntvct",
 * "monotonic", or "perf-sw" (the software task clock through perf_event, to
 * prove the perf_event read path on hosts without a PMU). Then measures the
 * frequency, overhead and resolution. 0, or -1 with the reason in
 * c->fallback when the wanted counter is not available. */
int ngcc_counter_open(ngcc_counter *c, const char *want);
void ngcc_counter_close(ngcc_counter *c);
/* CLOCK_MONOTONIC_RAW in ns */
uint64_t ngcc_wall_ns(void);
/* The emulator this process runs under, or NULL on real hardware: the
 * NGCC_EMULATOR environment variable (a cross build's tests set it to the
 * emulator's name, e.g. "qemu-aarch64"), else a /proc/cpuinfo that
 * describes another architecture than the one this code was built for
 * (qemu-user shows the host's). why gets the evidence. Timings of an
 * emulated run are not timings of the target. */
const char *ngcc_emulated(char *why, size_t len);
/* read(2) of a perf_event counter (out of line: a system call anyway) */
uint64_t ngcc_counter_read_perf(const ngcc_counter *c);

#if defined(__x86_64__)
static inline uint64_t ngcc_tsc(void)
{
    uint32_t lo, hi;
    /* lfence before: earlier work has finished; after: later work has not started */
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
static inline uint64_t ngcc_cntvct(void)
{
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}
#endif

static inline uint64_t ngcc_counter_read(const ngcc_counter *c)
{
    switch (c->kind) {
#if defined(__x86_64__)
    case NGCC_CTR_TSC:
        return ngcc_tsc();
#elif defined(__aarch64__)
    case NGCC_CTR_CNTVCT:
        return ngcc_cntvct();
#endif
    case NGCC_CTR_PERF:
        return ngcc_counter_read_perf(c);
    default:
        return ngcc_wall_ns();
    }
}

#endif /* NGCC_COUNTER_H */
