/* ngcc-perf: runs measuring code in a child process (ngcc_child.h) and reads
 * what it reports, one line each, over a pipe:
 *   #PHASE <text>              what it is doing now (named in CRASH/TIMEOUT details)
 *   #ERROR <VERDICT> <message> it stopped with that verdict (LOADFAIL, CRYPTOFAIL, ...)
 *   #RESULT <json>             its measurements
 * A crash or hang of the instance is thus a verdict naming the phase, and
 * the parent still writes its record. */
#ifndef PERF_CHILD_H
#define PERF_CHILD_H
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "ngcc_child.h"

typedef struct {
    ngcc_child_result child;
    cJSON *result;     /* the #RESULT object, or NULL */
    char phase[200];   /* the last #PHASE */
    int error_verdict; /* from #ERROR, else -1 */
    char error[600];
} perf_child_run;

typedef int (*perf_child_fn)(void *arg, FILE *out);

/* runs fn(arg, out) in a child with the timeout (s, <= 0: none), address
 * space limit (MiB, 0: none) and log file for its stdout/stderr; 0, or -1 if
 * no child could be started */
int perf_child_exec(perf_child_fn fn, void *arg, double timeout_s, unsigned long mem_mb, const char *log_path,
                    perf_child_run *r);
/* verdict (ngcc_verdict) and one-line detail of a run without a result;
 * MEMLIMIT when an allocation failed under the memory limit (the MEMLIMIT
 * rule of ngcc_child.h), whatever the child did after it */
int perf_child_verdict(const perf_child_run *r, double timeout_s, char *detail, size_t len);
void perf_child_free(perf_child_run *r);

/* child side */
void perf_child_phase(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void perf_child_error(FILE *out, int verdict, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void perf_child_result(FILE *out, const cJSON *result);

#endif
