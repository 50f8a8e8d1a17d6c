#include "sec_buf.h"

#include <stdlib.h>
#include <string.h>

static int use_exact;

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
    if (b->exact) {
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
    return b->exact ? 0 : ngcc_gbuf_check(&b->g, where);
}

void sec_buf_free(sec_buf *b)
{
    if (b->exact)
        free(b->g.base);
    else
        ngcc_gbuf_free(&b->g);
    memset(b, 0, sizeof *b);
}
