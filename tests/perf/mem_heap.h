/* ngcc-mem: heap peak of an operation. The ngcc-mem executable defines
 * malloc, free, calloc, realloc and the aligned allocators itself (exported
 * with -rdynamic), forwarding to glibc's own __libc_* functions and counting
 * live bytes (malloc_usable_size). Every object of the process resolves
 * these names to the executable first, so the counter sees the instance
 * library's allocations and those it causes in the libraries it uses
 * (OpenSSL, libstdc++ operator new, libc), all for the same library binary
 * that is timed and KAT-checked. Needs glibc; elsewhere the heap figure is
 * reported as unavailable. */
#ifndef MEM_HEAP_H
#define MEM_HEAP_H

/* 1 if allocations are being counted */
int mem_heap_active(void);
/* from now on: peak = live bytes now, allocation count 0 */
void mem_heap_mark(void);
/* the highest live byte count since the mark, minus the live bytes at the mark */
long long mem_heap_peak_since_mark(void);
/* allocations since the mark */
long long mem_heap_allocs_since_mark(void);

#endif
