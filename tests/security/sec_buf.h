/* ngcc-security: the buffers handed to submission code. Plain runs use the
 * harness's guarded buffers (random guard bytes on both sides); sanitizer and
 * memcheck runs use exact-size allocations, because a write into a guard
 * inside a larger allocation is invisible to ASan and valgrind. */
#ifndef SEC_BUF_H
#define SEC_BUF_H
#include <stddef.h>

#include "ngcc_guard.h"

typedef struct {
    ngcc_gbuf g; /* g.p is the data the submission sees, g.len its length */
    int exact;
    size_t map_len; /* page_end: the mapping at base (readable pages + the unreadable one) */
} sec_buf;

/* exact-size allocations from now on (this process) */
void sec_buf_set_exact(int exact);
/* len bytes holding a copy of init (len bytes), or filled from a pattern
 * derived from tag when init is NULL; guards derived from tag. 0 or -1 */
int sec_buf_alloc(sec_buf *b, size_t len, unsigned tag, const unsigned char *init);
/* 0 if both guards are intact (always, for exact buffers); else 1 and *where
 * = offset of the first changed guard byte relative to the data */
int sec_buf_guard_broken(const sec_buf *b, long *where);
/* the fill pattern sec_buf_alloc used for byte i (to find writes past a returned length) */
unsigned char sec_buf_fill_byte(unsigned tag, size_t i);
void sec_buf_free(sec_buf *b);

/* input_bounds: from now on (this process, plain runs) every input buffer
 * (sec_buf_alloc with init) ends at the last byte of a readable page
 * followed by an unreadable one, so any read past its length faults.
 * sec_buf_page_end_hit names the live input whose unreadable page holds
 * addr (its allocation order since the last reset, its length, how far
 * past its end); sec_buf_page_end_reset unmaps the inputs of a call that
 * never returned (the fault's handler jumped out of it). */
void sec_buf_set_page_end(int on);
int sec_buf_page_end_hit(const void *addr, int *order, size_t *len, size_t *past);
void sec_buf_page_end_reset(void);

#endif
