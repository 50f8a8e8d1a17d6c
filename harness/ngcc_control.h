/* ngcc-ctest: the control surface every instance library exports besides the
 * official API. Shared by the glue compiled into the library and by the
 * harness that loads it, so both sides agree on the layout (checked by abi). */
#ifndef NGCC_CONTROL_H
#define NGCC_CONTROL_H

#define NGCC_CONTROL_ABI 2

typedef struct ngcc_meta {
    int abi;                        /* NGCC_CONTROL_ABI of the glue */
    const char *candidate;          /* candidate id, e.g. "sign-07" */
    const char *instance;           /* instance label (folder), e.g. "CS-128" */
    const char *algorithm_instance; /* ALGORITHM_INSTANCE string */
    const char *type;               /* "SIG", "KEM", "KEX" or "HASH" */
    const char *impl_variant;       /* Reference / Optimized / Additional / "" */
    const char *build_variant;      /* plain / prof / asan */
    const char *flagset;            /* guide / harness-default / compat */
    const char *compiler;           /* compiler id and version */
    const char *flags;              /* full compile flags used */
    int blank;                      /* OUTPUT_BLANK_TEST_VECTORS */
    int drng_defined_by_submission; /* 1: the glue did not define drng_algorithm */
    int digest_bits;                /* HASH: DIGEST_BIT_LENGTH of the header; 0 for the other types */
} ngcc_meta;

typedef const ngcc_meta *(*ngcc_meta_fn)(void);
/* init_random_number(&drng_algorithm, seed, len) inside the library */
typedef int (*ngcc_seed_fn)(const unsigned char *seed, unsigned long long len_bytes);
/* get_random_number(&drng_algorithm, out, 8 * len_bytes) inside the library
 * ("ngcc_drng_draw", optional: resolve with ngcc_instance_sym). The security
 * test's seed_dependence tells by it whether sig_sign drew from the DRNG. */
typedef int (*ngcc_drng_draw_fn)(unsigned char *out, unsigned long long len_bytes);

/* ---- profiling surface: only in the prof variant (ngcc_glue_prof.c) ----
 * The prof library is linked with -Wl,--wrap for the five ICCS symbols; its
 * __wrap_ functions count calls, input/output bits and the ticks spent
 * inside, readable through the functions below (resolve them with
 * ngcc_instance_sym; absent from plain/asan builds). Single-threaded ops. */
#define NGCC_PROF_ABI 1

typedef enum {
    NGCC_PROF_SM3HASH,
    NGCC_PROF_PSEUDOHASH,
    NGCC_PROF_PSEUDOXOF,
    NGCC_PROF_GET_RANDOM,  /* get_random_number */
    NGCC_PROF_INIT_RANDOM, /* init_random_number */
    NGCC_PROF_NSYM
} ngcc_prof_sym_id;

/* in ngcc_prof_sym_id order */
#define NGCC_PROF_SYM_NAMES                                                                                            \
    {                                                                                                                  \
        "sm3hash", "pseudohash", "pseudoXOF", "get_random_number", "init_random_number"                                \
    }

typedef struct {
    unsigned long long calls;       /* hashes: every call; DRNG: calls on drng_algorithm */
    unsigned long long other_ctx;   /* DRNG calls on another DRNG_ctx (not in calls) */
    unsigned long long nested;      /* calls (calls + other_ctx) made inside another wrapped call */
    unsigned long long outer_ticks; /* ticks inside the outermost wrapped calls only */
    unsigned long long bits_in;     /* sum of message bits (seed bits for init) */
    unsigned long long bits_out;    /* sum of requested output bits */
} ngcc_prof_sym;

typedef struct {
    int abi; /* NGCC_PROF_ABI of the glue */
    ngcc_prof_sym sym[NGCC_PROF_NSYM];
    unsigned long long hist_dropped; /* calls missing from a full histogram */
} ngcc_prof_counters;

/* one histogram bin: calls whose input (or output) was exactly bits long */
typedef struct {
    unsigned long long bits;
    unsigned long long calls;
} ngcc_prof_bin;

/* per-call cost of the wrapper itself, in ticks (see ngcc_prof_calibrate) */
typedef struct {
    double inside;                 /* part of a wrapped call's measured inside time that is wrapper */
    double total;                  /* what a wrapped call costs more than a direct call */
    unsigned long long iterations; /* dummy calls made in all */
} ngcc_prof_calib;

typedef int (*ngcc_prof_abi_fn)(void);
typedef void (*ngcc_prof_reset_fn)(void);
typedef void (*ngcc_prof_read_fn)(ngcc_prof_counters *out);
/* histogram of symbol sym, dir 0 = bits in, 1 = bits out (calls counted in
 * "calls" only); writes at most cap bins, returns the number of bins */
typedef int (*ngcc_prof_hist_fn)(int sym, int dir, ngcc_prof_bin *bins, int cap);
/* medians over 31 rounds of `iterations` direct and wrapped dummy calls */
typedef void (*ngcc_prof_calibrate_fn)(unsigned long long iterations, ngcc_prof_calib *out);

/* The tick source shared by the wrappers and the driver: TSC on x86-64,
 * the virtual counter on AArch64, CLOCK_MONOTONIC (ns) elsewhere. The reads
 * are serialised (lfence / isb) and are compiler barriers: an unserialised
 * rdtsc overlaps with the wrapped function and makes both the time inside and
 * the wrapper's own cost depend on the function's body; serialised, the
 * wrapper costs a constant that ngcc_prof_calibrate measures and the driver
 * subtracts. */
#if defined(__x86_64__) || defined(__i386__)
#define NGCC_PROF_COUNTER "tsc"
static inline unsigned long long ngcc_prof_ticks(void)
{
    unsigned int lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((unsigned long long)hi << 32) | lo;
}
#elif defined(__aarch64__)
#define NGCC_PROF_COUNTER "cntvct"
static inline unsigned long long ngcc_prof_ticks(void)
{
    unsigned long long v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}
#else
#include <time.h>
#define NGCC_PROF_COUNTER "clock_monotonic"
static inline unsigned long long ngcc_prof_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
#endif

/* ---- allocation watch (ngcc_memwatch.c, every variant) ----
 * The library's malloc, calloc, realloc, aligned_alloc, posix_memalign and
 * free are linked with -Wl,--wrap: the watch sees the allocations of the
 * candidate's own code (and our glue), not those made inside shared
 * libraries it calls (OpenSSL). Resolve the functions with
 * ngcc_instance_sym; the security checks memory_leaks and alloc_failure use
 * them. Nothing is tracked or failed until the harness asks. */
typedef struct {
    unsigned long long live_bytes;  /* tracked blocks not freed: bytes asked for */
    unsigned long long live_blocks; /* and their number */
    unsigned long long allocs;      /* allocation calls while tracking */
    unsigned long long untracked;   /* blocks left out: the table was full */
} ngcc_memwatch_totals;

/* live blocks of one allocation site (the return address of the call) */
typedef struct {
    const void *site;
    unsigned long long bytes, blocks;
    unsigned first_epoch; /* the lowest epoch among them */
} ngcc_memwatch_site;

/* what an armed failure did; lives in the harness's shared memory so the
 * parent still reads it after the child crashed */
typedef struct {
    volatile int fired;
    unsigned long long bytes; /* the request that was failed */
    const void *site;
    char fn[16]; /* "malloc", "calloc", ... */
} ngcc_memwatch_fault;

/* on: forget every tracked block and count from now; off: stop tracking */
typedef void (*ngcc_memwatch_track_fn)(int on);
/* blocks allocated from now on carry this epoch (the harness's call number,
 * from 1); epoch 0 (after track(1)): allocations are not tracked */
typedef void (*ngcc_memwatch_epoch_fn)(unsigned epoch);
typedef void (*ngcc_memwatch_totals_fn)(ngcc_memwatch_totals *out);
/* live blocks of epoch >= min_epoch grouped by site, at most cap; returns
 * how many sites were written */
typedef int (*ngcc_memwatch_sites_fn)(unsigned min_epoch, ngcc_memwatch_site *out, int cap);
/* the k-th allocation call from now (k >= 1) returns NULL (ENOMEM), its
 * details written to *out; k = 0 disarms */
typedef void (*ngcc_memwatch_fail_fn)(unsigned long long k, ngcc_memwatch_fault *out);

#endif /* NGCC_CONTROL_H */
