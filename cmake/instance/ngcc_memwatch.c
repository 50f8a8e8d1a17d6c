/* ngcc-ctest glue, compiled into every instance library: allocation watch.
 * The library is linked with -Wl,--wrap for the allocation functions below,
 * so the submission's calls land here first. A request that fails is
 * reported to the harness (one line on the descriptor named by
 * $NGCC_ALLOC_WATCH_FD, and one on stderr): a crash, error code or wrong
 * output after it is then judged MEMLIMIT, not CRASH (harness/ngcc_child.h).
 * Nothing here allocates; results are returned unchanged. Like ngcc_glue.c,
 * this file includes no scheme header. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

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

void *__wrap_malloc(size_t n)
{
    void *p = __real_malloc(n);
    if (!p && n)
        report("malloc", n);
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *p = __real_calloc(count, size);
    if (!p && count && size)
        report("calloc", (unsigned long long)count * size);
    return p;
}

void *__wrap_realloc(void *q, size_t n)
{
    void *p = __real_realloc(q, n);
    if (!p && n)
        report("realloc", n);
    return p;
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    void *p = __real_aligned_alloc(align, n);
    if (!p && n && errno == ENOMEM)
        report("aligned_alloc", n);
    return p;
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    int rc = __real_posix_memalign(p, align, n);
    if (rc == ENOMEM)
        report("posix_memalign", n);
    return rc;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    void *p = __real_mmap(addr, len, prot, flags, fd, off);
    if (p == MAP_FAILED && errno == ENOMEM)
        report("mmap", len);
    return p;
}
