#include "ngcc_guard.h"

#include <stdlib.h>
#include <string.h>

int ngcc_gbuf_alloc(ngcc_gbuf *g, size_t len, unsigned tag, int fill)
{
    memset(g, 0, sizeof *g);
    g->base = malloc(len + 2 * NGCC_GUARD_LEN);
    if (!g->base)
        return -1;
    g->p = g->base + NGCC_GUARD_LEN;
    g->len = len;
    /* xorshift pattern: varied bytes, so a write of any constant is seen */
    unsigned x = 0x9E3779B9u ^ (tag * 0x85EBCA6Bu);
    for (size_t i = 0; i < sizeof g->pattern; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        g->pattern[i] = (unsigned char)(x >> 24);
    }
    memcpy(g->base, g->pattern, NGCC_GUARD_LEN);
    memcpy(g->p + len, g->pattern + NGCC_GUARD_LEN, NGCC_GUARD_LEN);
    memset(g->p, fill, len);
    return 0;
}

int ngcc_gbuf_check(const ngcc_gbuf *g, long *where)
{
    for (size_t i = 0; i < NGCC_GUARD_LEN; i++)
        if (g->base[i] != g->pattern[i]) {
            if (where)
                *where = (long)i - NGCC_GUARD_LEN;
            return 1;
        }
    for (size_t i = 0; i < NGCC_GUARD_LEN; i++)
        if (g->p[g->len + i] != g->pattern[NGCC_GUARD_LEN + i]) {
            if (where)
                *where = (long)(g->len + i);
            return 1;
        }
    return 0;
}

void ngcc_gbuf_free(ngcc_gbuf *g)
{
    free(g->base);
    memset(g, 0, sizeof *g);
}
