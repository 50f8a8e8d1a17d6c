#define _GNU_SOURCE
#include "mem_heap.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __GLIBC__
/* glibc's own allocator entry points (exported for exactly this use) */
extern void *__libc_malloc(size_t n);
extern void __libc_free(void *p);
extern void *__libc_calloc(size_t a, size_t b);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);

static long long live, peak, mark_live, allocs;

static void grew(void *p)
{
    if (!p)
        return;
    long long v = __atomic_add_fetch(&live, (long long)malloc_usable_size(p), __ATOMIC_RELAXED);
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
    long long pk = __atomic_load_n(&peak, __ATOMIC_RELAXED);
    while (v > pk && !__atomic_compare_exchange_n(&peak, &pk, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

static void shrank(void *p)
{
    if (p)
        __atomic_sub_fetch(&live, (long long)malloc_usable_size(p), __ATOMIC_RELAXED);
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    grew(p);
    return p;
}

void free(void *p)
{
    shrank(p);
    __libc_free(p);
}

void *calloc(size_t a, size_t b)
{
    void *p = __libc_calloc(a, b);
    grew(p);
    return p;
}

void *realloc(void *p, size_t n)
{
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, n);
    if (q || (p && n == 0)) /* moved, resized or freed: the old block is gone */
        __atomic_sub_fetch(&live, (long long)old, __ATOMIC_RELAXED);
    grew(q);
    return q;
}

void *reallocarray(void *p, size_t a, size_t b)
{
    size_t n;
    if (__builtin_mul_overflow(a, b, &n)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, n);
}

void *memalign(size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);
    grew(p);
    return p;
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t n)
{
    void *p = __libc_valloc(n);
    grew(p);
    return p;
}

void *pvalloc(size_t n)
{
    void *p = __libc_pvalloc(n);
    grew(p);
    return p;
}

int mem_heap_active(void)
{
    long long before = __atomic_load_n(&allocs, __ATOMIC_RELAXED);
    void *volatile p = malloc(64);
    int active = __atomic_load_n(&allocs, __ATOMIC_RELAXED) != before;
    free(p);
    return active;
}

void mem_heap_mark(void)
{
    mark_live = __atomic_load_n(&live, __ATOMIC_RELAXED);
    __atomic_store_n(&peak, mark_live, __ATOMIC_RELAXED);
    __atomic_store_n(&allocs, 0, __ATOMIC_RELAXED);
}

long long mem_heap_peak_since_mark(void)
{
    return __atomic_load_n(&peak, __ATOMIC_RELAXED) - mark_live;
}

long long mem_heap_allocs_since_mark(void)
{
    return __atomic_load_n(&allocs, __ATOMIC_RELAXED);
}
#else
int mem_heap_active(void)
{
    return 0;
}
void mem_heap_mark(void)
{
}
long long mem_heap_peak_since_mark(void)
{
    return -1;
}
long long mem_heap_allocs_since_mark(void)
{
    return -1;
}
#endif
