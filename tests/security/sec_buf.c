#include "sec_buf.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int use_exact, use_page_end;

/* the live page-end inputs, in allocation order (copies: after a fault's
 * jump the callers' sec_buf structs are gone) */
#define PAGE_END_MAX 16
static struct {
    unsigned char *base, *p;
    size_t map_len, len;
    int order;
} live[PAGE_END_MAX];
static int nlive, next_order;

void sec_buf_set_page_end(int on)
{
    use_page_end = on;
}

/* len bytes ending at the last readable byte before an unreadable page */
static int page_end_alloc(sec_buf *b, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), readable = (len + page - 1) / page * page;
    if (nlive == PAGE_END_MAX)
        return -1;
    if (readable == 0)
        readable = page; /* an empty input still has a readable page before it */
    unsigned char *base = mmap(NULL, readable + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return -1;
    if (mprotect(base + readable, page, PROT_NONE)) {
        munmap(base, readable + page);
        return -1;
    }
    b->g.base = base;
    b->g.p = base + readable - len;
    b->g.len = len;
    b->map_len = readable + page;
    if (nlive == 0)
        next_order = 0;
    live[nlive].base = base;
    live[nlive].p = b->g.p;
    live[nlive].map_len = b->map_len;
    live[nlive].len = len;
    live[nlive++].order = next_order++;
    return 0;
}

static void page_end_free(unsigned char *base)
{
    for (int i = 0; i < nlive; i++)
        if (live[i].base == base) {
            munmap(base, live[i].map_len);
            live[i] = live[--nlive];
            return;
        }
}

int sec_buf_page_end_hit(const void *addr, int *order, size_t *len, size_t *past)
{
    const unsigned char *a = addr;
    for (int i = 0; i < nlive; i++) {
        const unsigned char *end = live[i].p + live[i].len;
        if (a >= end && a < live[i].base + live[i].map_len) {
            *order = live[i].order;
            *len = live[i].len;
            *past = (size_t)(a - end);
            return 1;
        }
    }
    return 0;
}

void sec_buf_page_end_reset(void)
{
    while (nlive)
        page_end_free(live[0].base);
}

void sec_buf_set_exact(int exact)
{
    use_exact = exact;
}

unsigned char sec_buf_fill_byte(unsigned tag, size_t i)
{
    /* varied bytes, so a write of any constant value is seen */
    unsigned x = (unsigned)(i * 0x9E3779B1u) ^ (tag * 0x85EBCA6Bu);
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return (unsigned char)(x >> 8);
}

int sec_buf_alloc(sec_buf *b, size_t len, unsigned tag, const unsigned char *init)
{
    memset(b, 0, sizeof *b);
    b->exact = use_exact;
    if (use_page_end && init) {
        if (page_end_alloc(b, len))
            return -1;
    } else if (b->exact) {
        /* any access to a 0-byte buffer must be reported: ASan makes
         * malloc(0) one addressable byte, so an empty buffer starts just
         * past a 1-byte block, in its redzone */
        b->g.base = malloc(len ? len : 1);
        if (!b->g.base)
            return -1;
        b->g.p = len ? b->g.base : b->g.base + 1;
        b->g.len = len;
    } else if (ngcc_gbuf_alloc(&b->g, len, tag, 0)) {
        return -1;
    }
    if (init && len)
        memcpy(b->g.p, init, len);
    else
        for (size_t i = 0; i < len; i++)
            b->g.p[i] = sec_buf_fill_byte(tag, i);
    return 0;
}

int sec_buf_guard_broken(const sec_buf *b, long *where)
{
    return b->exact || b->map_len ? 0 : ngcc_gbuf_check(&b->g, where);
}

void sec_buf_free(sec_buf *b)
{
    if (b->map_len)
        page_end_free(b->g.base);
    else if (b->exact)
        free(b->g.base);
    else
        ngcc_gbuf_free(&b->g);
    memset(b, 0, sizeof *b);
}
