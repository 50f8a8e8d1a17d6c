/* ngcc-security: the harness side of the instance's allocation watch
 * (cmake/instance/ngcc_memwatch.c, control surface in ngcc_control.h), and
 * the child of its own each case of memory_leaks and alloc_failure runs in
 * (a crash or a fresh heap per case, as malformed_input does per input). */
#ifndef SEC_MEMWATCH_H
#define SEC_MEMWATCH_H

#include <stddef.h>

#include "ngcc_control.h"
#include "sec_job.h"

typedef struct {
    ngcc_memwatch_track_fn track;
    ngcc_memwatch_epoch_fn epoch;
    ngcc_memwatch_totals_fn totals;
    ngcc_memwatch_sites_fn sites;
    ngcc_memwatch_fail_fn fail;
} sec_memwatch;

/* 0, or -1 when the library lacks the control functions */
int sec_memwatch_open(sec_memwatch *w);
/* "kem_dec (KEM_AlgorithmInstance.c:270)" for a call site in the library:
 * the function and line of the call (addr2line on the library's debug
 * info), else the exported symbol or "libngcc_plain.so+0x1a2b" */
void sec_memwatch_site_name(const void *site, char *out, size_t cap);

/* fn(arg) in a forked child whose output is kept apart (copied to the
 * check's log). Returns "" in ended if fn returned, else how the child
 * ended ("crashed (SEGV, signal 11)", "did not return within 12 s", or the
 * sanitizer report's summary). timeout_s > 0: the child is stopped after it
 * (a call stuck after a failed allocation), else the test's call timeout
 * applies to the whole check. */
void sec_memwatch_fork(const sec_job *j, void (*fn)(void *arg), void *arg, unsigned timeout_s, char *ended, size_t cap);

#endif
