/* ngcc-ctest: profiling glue, compiled only into the prof variant.
 *
 * The prof library is linked with -Wl,--wrap=<sym> for sm3hash, pseudohash,
 * pseudoXOF, get_random_number and init_random_number, so every reference to
 * one of them from another object file lands in the __wrap_ function below,
 * which counts the call, its input/output bit lengths and the ticks spent in
 * the real function, then returns its result unchanged.
 *
 * Ticks are taken only around the outermost wrapped call: a wrapped function
 * that itself calls a wrapped function (say a submission's drng.c calling
 * sm3hash) has the inner call counted (and marked nested) but its time is not
 * added twice. DRNG calls count only on drng_algorithm; calls on any other
 * context are kept apart (other_ctx). Counters are plain globals: operations
 * are profiled single-threaded.
 *
 * Like ngcc_glue.c this file includes no scheme header. */
#include <stdlib.h>
#include <string.h>

#include "drng.h"
#include "ngcc_control.h"

extern DRNG_ctx drng_algorithm;

int __real_sm3hash(int, const unsigned char *, unsigned long long, unsigned char *);
int __real_pseudohash(int, const unsigned char *, unsigned long long, unsigned char *);
int __real_pseudoXOF(unsigned long long, const unsigned char *, unsigned long long, unsigned char *);
int __real_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);
int __real_init_random_number(DRNG_ctx *, const unsigned char *, unsigned long long);

int __wrap_sm3hash(int, const unsigned char *, unsigned long long, unsigned char *);
int __wrap_pseudohash(int, const unsigned char *, unsigned long long, unsigned char *);
int __wrap_pseudoXOF(unsigned long long, const unsigned char *, unsigned long long, unsigned char *);
int __wrap_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);
int __wrap_init_random_number(DRNG_ctx *, const unsigned char *, unsigned long long);

/* one extra slot (index NGCC_PROF_NSYM) for the calibration dummy */
#define SLOTS (NGCC_PROF_NSYM + 1)
#define CALIB NGCC_PROF_NSYM
#define HIST_BITS 9
#define HIST_SIZE (1 << HIST_BITS)

static ngcc_prof_sym counters[SLOTS];
static ngcc_prof_bin hist[SLOTS][2][HIST_SIZE]; /* calls == 0: empty bin */
static unsigned long long hist_dropped;
static unsigned depth; /* wrapped calls currently active */

static void hist_add(int slot, int dir, unsigned long long bits)
{
    ngcc_prof_bin *h = hist[slot][dir];
    unsigned i = (unsigned)((bits * 0x9E3779B97F4A7C15ull) >> (64 - HIST_BITS));
    for (int probe = 0; probe < HIST_SIZE; probe++, i = (i + 1) & (HIST_SIZE - 1)) {
        if (h[i].calls == 0 || h[i].bits == bits) {
            h[i].bits = bits;
            h[i].calls++;
            return;
        }
    }
    hist_dropped++;
}

/* the tick read is the last thing before the real call ... */
static inline unsigned long long prof_enter(void)
{
    return ++depth == 1 ? ngcc_prof_ticks() : 0;
}

/* ... and the first thing after it */
static inline void prof_leave(int slot, unsigned long long t0, int counted, unsigned long long bits_in,
                              unsigned long long bits_out)
{
    unsigned long long t1 = depth == 1 ? ngcc_prof_ticks() : 0;
    ngcc_prof_sym *c = &counters[slot];
    if (depth == 1)
        c->outer_ticks += t1 - t0;
    else
        c->nested++;
    depth--;
    if (!counted) {
        c->other_ctx++;
        return;
    }
    c->calls++;
    c->bits_in += bits_in;
    c->bits_out += bits_out;
    hist_add(slot, 0, bits_in);
    hist_add(slot, 1, bits_out);
}

int __wrap_sm3hash(int dlen, const unsigned char *m, unsigned long long mbits, unsigned char *d)
{
    unsigned long long t0 = prof_enter();
    int rc = __real_sm3hash(dlen, m, mbits, d);
    prof_leave(NGCC_PROF_SM3HASH, t0, 1, mbits, (unsigned long long)dlen);
    return rc;
}

int __wrap_pseudohash(int dlen, const unsigned char *m, unsigned long long mbits, unsigned char *d)
{
    unsigned long long t0 = prof_enter();
    int rc = __real_pseudohash(dlen, m, mbits, d);
    prof_leave(NGCC_PROF_PSEUDOHASH, t0, 1, mbits, (unsigned long long)dlen);
    return rc;
}

int __wrap_pseudoXOF(unsigned long long obits, const unsigned char *m, unsigned long long mbits, unsigned char *o)
{
    unsigned long long t0 = prof_enter();
    int rc = __real_pseudoXOF(obits, m, mbits, o);
    prof_leave(NGCC_PROF_PSEUDOXOF, t0, 1, mbits, obits);
    return rc;
}

int __wrap_get_random_number(DRNG_ctx *ctx, unsigned char *out, unsigned long long obits)
{
    unsigned long long t0 = prof_enter();
    int rc = __real_get_random_number(ctx, out, obits);
    prof_leave(NGCC_PROF_GET_RANDOM, t0, ctx == &drng_algorithm, 0, obits);
    return rc;
}

int __wrap_init_random_number(DRNG_ctx *ctx, const unsigned char *seed, unsigned long long seed_bytes)
{
    unsigned long long t0 = prof_enter();
    int rc = __real_init_random_number(ctx, seed, seed_bytes);
    prof_leave(NGCC_PROF_INIT_RANDOM, t0, ctx == &drng_algorithm, 8 * seed_bytes, 0);
    return rc;
}

/* ---- control surface ---- */

int ngcc_prof_abi(void)
{
    return NGCC_PROF_ABI;
}

void ngcc_prof_reset(void)
{
    memset(counters, 0, sizeof counters);
    memset(hist, 0, sizeof hist);
    hist_dropped = 0;
    depth = 0;
}

void ngcc_prof_read(ngcc_prof_counters *out)
{
    memset(out, 0, sizeof *out);
    out->abi = NGCC_PROF_ABI;
    memcpy(out->sym, counters, sizeof out->sym);
    out->hist_dropped = hist_dropped;
}

int ngcc_prof_hist(int sym, int dir, ngcc_prof_bin *bins, int cap)
{
    if (sym < 0 || sym >= NGCC_PROF_NSYM || dir < 0 || dir > 1)
        return 0;
    int n = 0;
    for (int i = 0; i < HIST_SIZE; i++) {
        if (hist[sym][dir][i].calls == 0)
            continue;
        if (n < cap)
            bins[n] = hist[sym][dir][i];
        n++;
    }
    return n;
}

/* ---- wrapper cost calibration ----
 * A dummy function with a short body (a chain of multiply-adds, like the
 * arithmetic of a hash) is called N times directly and N times through a
 * wrapper built from the same prof_enter/prof_leave code, in 31 rounds. The difference per
 * call is the wrapper's total cost; the dummy's measured inside time minus
 * its direct cost is the part of the wrapper inside a measured interval. The
 * driver subtracts both from its time shares. With serialised tick reads both
 * are constants, independent of the wrapped function's body. */
#if defined(__GNUC__) && !defined(__clang__)
#define NGCC_OPAQUE __attribute__((noipa))
#else
#define NGCC_OPAQUE __attribute__((noinline))
#endif

NGCC_OPAQUE static unsigned long long calib_target(unsigned long long x)
{
    for (int i = 0; i < 64; i++)
        x = x * 2862933555777941757ull + 3037000493ull;
    return x;
}

NGCC_OPAQUE static unsigned long long calib_wrapped(unsigned long long x)
{
    unsigned long long t0 = prof_enter();
    unsigned long long r = calib_target(x);
    prof_leave(CALIB, t0, 1, 256, 256);
    return r;
}

typedef unsigned long long (*calib_fn)(unsigned long long);

static unsigned long long calib_loop(calib_fn volatile fn, unsigned long long n, unsigned long long *sink)
{
    unsigned long long x = *sink;
    unsigned long long t0 = ngcc_prof_ticks();
    for (unsigned long long i = 0; i < n; i++)
        x = fn(x);
    unsigned long long t = ngcc_prof_ticks() - t0;
    *sink = x;
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define CALIB_ROUNDS 31

void ngcc_prof_calibrate(unsigned long long iterations, ngcc_prof_calib *out)
{
    double total[CALIB_ROUNDS], inside[CALIB_ROUNDS];
    unsigned long long sink = 1;
    /* Each round times both loops back to back and keeps the differences;
     * the median over the rounds is robust to preemption and to the host
     * slowing down between rounds (a shared VM). */
    for (int round = 0; round < CALIB_ROUNDS; round++) {
        memset(&counters[CALIB], 0, sizeof counters[CALIB]);
        double direct = (double)calib_loop(calib_target, iterations, &sink) / (double)iterations;
        double wrapped = (double)calib_loop(calib_wrapped, iterations, &sink) / (double)iterations;
        total[round] = wrapped - direct;
        inside[round] = (double)counters[CALIB].outer_ticks / (double)iterations - direct;
    }
    qsort(total, CALIB_ROUNDS, sizeof total[0], cmp_double);
    qsort(inside, CALIB_ROUNDS, sizeof inside[0], cmp_double);
    memset(&counters[CALIB], 0, sizeof counters[CALIB]);
    memset(hist[CALIB], 0, sizeof hist[CALIB]);
    out->total = total[CALIB_ROUNDS / 2] > 0 ? total[CALIB_ROUNDS / 2] : 0;
    out->inside = inside[CALIB_ROUNDS / 2] > 0 ? inside[CALIB_ROUNDS / 2] : 0;
    out->iterations = iterations * CALIB_ROUNDS;
}
