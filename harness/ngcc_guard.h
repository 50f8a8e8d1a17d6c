/* ngcc-ctest: guarded buffers. Random guard bytes on both sides of every
 * buffer handed to submission code; any change means a write outside the
 * claimed length (OVERFLOW). */
#ifndef NGCC_GUARD_H
#define NGCC_GUARD_H
#include <stddef.h>

#define NGCC_GUARD_LEN 64

typedef struct {
    unsigned char *base; /* allocation: guard | data | guard */
    unsigned char *p;    /* data the submission sees */
    size_t len;          /* claimed length */
    unsigned char pattern[2 * NGCC_GUARD_LEN];
} ngcc_gbuf;

/* allocates len bytes (len may be 0) between guards filled from a pattern
 * derived from tag; the data area is filled with fill; 0 or -1 */
int ngcc_gbuf_alloc(ngcc_gbuf *g, size_t len, unsigned tag, int fill);
/* 0 if both guards are intact; else 1 and *where = byte offset relative to
 * p of the first changed guard byte (negative: before the buffer) */
int ngcc_gbuf_check(const ngcc_gbuf *g, long *where);
void ngcc_gbuf_free(ngcc_gbuf *g);

#endif
