/* ngcc-ctest glue, compiled into every instance library: allocation watch.
 * The library is linked with -Wl,--wrap for the allocation functions below,
 * so the submission's calls land here first. A request that fails is
 * reported to the harness (one line on the descriptor named by
 * $NGCC_ALLOC_WATCH_FD, and one on stderr): a crash, error code or wrong
 * output after it is then judged MEMLIMIT, not CRASH (harness/ngcc_child.h).
 * Nothing here allocates; results are returned unchanged. Like ngcc_glue.c,
 * this file includes no scheme header.
 *
 * On the harness's request (ngcc_control.h) it also tracks the live blocks
 * (bytes asked for, the call site, the harness's epoch) in a fixed table,
 * free included, for the memory_leaks check, and fails the k-th allocation
 * call from a point on, for alloc_failure. Both are off by default: then a
 * call costs one counter increment more. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ngcc_control.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void __real_free(void *p);

#define NGCC_MEMWATCH_MAX_REPORTS 16

/* decimal digits of v at the end of buf; returns the first digit */
static char *put_ull(char *end, unsigned long long v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

static void put(int fd, const char *a, const char *b, const char *c)
{
    size_t la = 0, lb = 0, lc = 0;
    while (a[la])
        la++;
    while (b[lb])
        lb++;
    while (c[lc])
        lc++;
    ssize_t r = write(fd, a, la);
    r = write(fd, b, lb);
    r = write(fd, c, lc);
    (void)r;
}

static void report(const char *fn, unsigned long long bytes)
{
    static int reported;
    if (__atomic_fetch_add(&reported, 1, __ATOMIC_RELAXED) >= NGCC_MEMWATCH_MAX_REPORTS)
        return;
    int saved = errno;
    char num[24];
    num[sizeof num - 1] = 0;
    char *digits = put_ull(num + sizeof num - 1, bytes);
    const char *env = getenv("NGCC_ALLOC_WATCH_FD");
    if (env && *env) {
        int fd = 0;
        for (const char *p = env; *p >= '0' && *p <= '9'; p++)
            fd = fd * 10 + (*p - '0');
        put(fd, "alloc ", fn, " ");
        put(fd, digits, "\n", "");
    }
    put(2, "ngcc: ", fn, "(");
    put(2, digits, " bytes) failed: out of memory\n", "");
    errno = saved;
}

/* ---- tracking and armed failures ---- */

/* open addressing with linear probing; filled to 3/4 at most, further
 * blocks are counted as untracked */
#define NGCC_MEMWATCH_SLOTS (1u << 15)

typedef struct {
    void *p; /* NULL: empty */
    size_t n;
    const void *site;
    unsigned epoch;
} ngcc_memwatch_slot;

static ngcc_memwatch_slot slots[NGCC_MEMWATCH_SLOTS];
static struct {
    int on;
    unsigned epoch;
    unsigned used;
    ngcc_memwatch_totals t;
    unsigned long long calls;   /* allocation calls, always counted */
    unsigned long long fail_at; /* calls value that fails; 0: none */
    ngcc_memwatch_fault *fault;
} W;
static int lock_flag;

static void lock(void)
{
    while (__atomic_test_and_set(&lock_flag, __ATOMIC_ACQUIRE))
        ;
}

static void unlock(void)
{
    __atomic_clear(&lock_flag, __ATOMIC_RELEASE);
}

static unsigned slot_of(const void *p)
{
    unsigned long long h = (unsigned long long)(size_t)p * 0x9E3779B97F4A7C15ull;
    return (unsigned)(h >> 40) & (NGCC_MEMWATCH_SLOTS - 1);
}

static void track(void *p, size_t n, const void *site)
{
    if (!p || !__atomic_load_n(&W.on, __ATOMIC_RELAXED) || !W.epoch)
        return;
    lock();
    W.t.allocs++;
    if (W.used >= NGCC_MEMWATCH_SLOTS / 4 * 3) {
        W.t.untracked++;
    } else {
        unsigned i = slot_of(p);
        while (slots[i].p)
            i = (i + 1) & (NGCC_MEMWATCH_SLOTS - 1);
        slots[i] = (ngcc_memwatch_slot){p, n, site, W.epoch};
        W.used++;
        W.t.live_bytes += n;
        W.t.live_blocks++;
    }
    unlock();
}

/* a block freed (or moved by realloc); blocks from before tracking are not found */
static void untrack(void *p)
{
    if (!p || !__atomic_load_n(&W.on, __ATOMIC_RELAXED))
        return;
    lock();
    unsigned i = slot_of(p);
    while (slots[i].p && slots[i].p != p)
        i = (i + 1) & (NGCC_MEMWATCH_SLOTS - 1);
    if (slots[i].p) {
        W.t.live_bytes -= slots[i].n;
        W.t.live_blocks--;
        W.used--;
        slots[i].p = NULL;
        /* backward-shift deletion keeps every probe chain unbroken */
        for (unsigned j = (i + 1) & (NGCC_MEMWATCH_SLOTS - 1); slots[j].p; j = (j + 1) & (NGCC_MEMWATCH_SLOTS - 1)) {
            unsigned home = slot_of(slots[j].p);
            int movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
            if (movable) {
                slots[i] = slots[j];
                slots[j].p = NULL;
                i = j;
            }
        }
    }
    unlock();
}

/* counts the allocation call; 1 if it is the armed one (then it fails) */
static int fails(const char *fn, size_t n, const void *site)
{
    unsigned long long c = __atomic_add_fetch(&W.calls, 1, __ATOMIC_RELAXED);
    if (!W.fail_at || c != W.fail_at)
        return 0;
    ngcc_memwatch_fault *f = W.fault;
    W.fail_at = 0;
    if (f) {
        f->bytes = n;
        f->site = site;
        size_t i = 0;
        for (; fn[i] && i + 1 < sizeof f->fn; i++)
            f->fn[i] = fn[i];
        f->fn[i] = 0;
        f->fired = 1;
    }
    return 1;
}

void ngcc_memwatch_track(int on)
{
    lock();
    for (unsigned i = 0; i < NGCC_MEMWATCH_SLOTS && W.used; i++)
        if (slots[i].p) {
            slots[i].p = NULL;
            W.used--;
        }
    W.used = 0;
    W.t = (ngcc_memwatch_totals){0};
    W.epoch = 0;
    __atomic_store_n(&W.on, on, __ATOMIC_RELAXED);
    unlock();
}

void ngcc_memwatch_epoch(unsigned epoch)
{
    W.epoch = epoch;
}

void ngcc_memwatch_totals_read(ngcc_memwatch_totals *out)
{
    lock();
    *out = W.t;
    unlock();
}

int ngcc_memwatch_sites(unsigned min_epoch, ngcc_memwatch_site *out, int cap)
{
    int n = 0;
    lock();
    for (unsigned i = 0; i < NGCC_MEMWATCH_SLOTS; i++) {
        const ngcc_memwatch_slot *s = &slots[i];
        if (!s->p || s->epoch < min_epoch)
            continue;
        int k = 0;
        while (k < n && out[k].site != s->site)
            k++;
        if (k == n) {
            if (n == cap)
                continue;
            out[n++] = (ngcc_memwatch_site){s->site, 0, 0, s->epoch};
        }
        out[k].bytes += s->n;
        out[k].blocks++;
        if (s->epoch < out[k].first_epoch)
            out[k].first_epoch = s->epoch;
    }
    unlock();
    return n;
}

void ngcc_memwatch_fail(unsigned long long k, ngcc_memwatch_fault *out)
{
    W.fault = out;
    W.fail_at = k ? __atomic_load_n(&W.calls, __ATOMIC_RELAXED) + k : 0;
}

/* ---- the wrappers: the return address is the candidate's call site ---- */

#define SITE __builtin_return_address(0)

void *__wrap_malloc(size_t n)
{
    if (fails("malloc", n, SITE)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_malloc(n);
    if (!p && n)
        report("malloc", n);
    track(p, n, SITE);
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    if (fails("calloc", count * size, SITE)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_calloc(count, size);
    if (!p && count && size)
        report("calloc", (unsigned long long)count * size);
    track(p, count * size, SITE);
    return p;
}

void *__wrap_realloc(void *q, size_t n)
{
    if (n && fails("realloc", n, SITE)) {
        errno = ENOMEM;
        return NULL; /* q stays valid, as after a real failure */
    }
    void *p = __real_realloc(q, n);
    if (!p && n)
        report("realloc", n);
    if (p || !n)
        untrack(q);
    track(p, n, SITE);
    return p;
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    if (fails("aligned_alloc", n, SITE)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_aligned_alloc(align, n);
    if (!p && n && errno == ENOMEM)
        report("aligned_alloc", n);
    track(p, n, SITE);
    return p;
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    if (fails("posix_memalign", n, SITE))
        return ENOMEM;
    int rc = __real_posix_memalign(p, align, n);
    if (rc == ENOMEM)
        report("posix_memalign", n);
    if (rc == 0)
        track(*p, n, SITE);
    return rc;
}

void __wrap_free(void *p)
{
    untrack(p);
    __real_free(p);
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    void *p = __real_mmap(addr, len, prot, flags, fd, off);
    if (p == MAP_FAILED && errno == ENOMEM)
        report("mmap", len);
    return p;
}
