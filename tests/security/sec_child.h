/* ngcc-security: runs one piece of work (a check, or making the keys and
 * signatures) in a child process. The child reports progress through its
 * shared sec_result; the parent kills it when one API call makes no progress
 * for call_timeout seconds or the test's time budget runs out, and turns a
 * signal, an early exit or a sanitizer report into that work's outcome. */
#ifndef SEC_CHILD_H
#define SEC_CHILD_H

#include "sec_memerr.h"
#include "sec_result.h"

typedef struct {
    double call_timeout;  /* s without progress; <= 0: none */
    double deadline;      /* absolute ngcc_now() end of the budget; <= 0: none */
    unsigned long mem_mb; /* RLIMIT_AS; 0: none */
    const char *log_path; /* the child's stdout and stderr */
    int sanitizer;        /* look for a sanitizer report in the log */
} sec_child_opts;

typedef struct {
    ngcc_verdict verdict; /* PASS: the work finished; else CRASH, TIMEOUT or the sanitizer
                           * report's verdict (OVERFLOW, UNDEFINED, ...) */
    char detail[SEC_DETAIL];
    sec_memerr memerr; /* the sanitizer's report, if any */
    double seconds;
    /* the MEMLIMIT rule of ngcc_child.h: an allocation failed under the memory
     * limit, so any failure of this child's work counts as MEMLIMIT */
    int memlimit;
    char memlimit_detail[300];
    unsigned long long alloc_fail_bytes; /* the largest failed allocation request */
    char sandbox[256];                   /* the isolation the child got (ngcc_child.h) */
    unsigned long mem_limit_mb;          /* the address-space limit it ran under */
} sec_end;

/* a failed allocation at least this large was no instance's real need: the
 * input that caused it failed, not the memory limit (malformed_input) */
#define SEC_ABSURD_ALLOC (1ULL << 40)

/* fn(arg, -1) runs in the child (sandboxed by ngcc_child_start) and must set
 * res->finished when done */
void sec_child_run(int (*fn)(void *arg, int wfd), void *arg, sec_result *res, const sec_child_opts *o, sec_end *end);

/* a per-input child's output, kept in a memory file (fd): copied to this
 * process's stderr (the check's log) and returned (malloc'd; NULL if empty),
 * so a sanitizer report in it can be tied to its input */
char *sec_child_take_output(int fd);

#endif
