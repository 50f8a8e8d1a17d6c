/* ngcc-mem: stack high-water mark by painting. A function runs on a new
 * thread whose stack we allocate (a known size, a PROT_NONE guard page below
 * it) and fill with a pattern first; afterwards the lowest byte that no
 * longer holds the pattern gives the depth reached, and that part is
 * painted again for the next run. glibc keeps the thread's descriptor and
 * TLS at the top of a caller-supplied stack, so the depth of an empty
 * function (the harness part) is measured the same way and subtracted by
 * the caller. A byte written with the pattern value itself at the deepest
 * point would hide at most that byte's run. */
#ifndef MEM_STACK_H
#define MEM_STACK_H
#include <stddef.h>

typedef struct {
    unsigned char *map;   /* guard page + stack */
    unsigned char *stack; /* lowest stack byte */
    size_t size, page;
} mem_stack;

/* maps and paints size bytes (rounded up to pages); 0 or -1 */
int mem_stack_init(mem_stack *s, size_t size);
/* runs fn(arg) on a thread on the painted stack; returns the depth touched
 * (bytes from the top), or -1 if the thread could not be started */
long mem_stack_run(mem_stack *s, void (*fn)(void *), void *arg);
void mem_stack_free(mem_stack *s);

#endif
