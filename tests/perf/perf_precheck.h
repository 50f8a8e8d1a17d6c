/* ngcc-perf, ngcc-mem, ngcc-sizes: what must hold before measuring. The
 * instance built (its build record), its library exists, and its KAT passed
 * (its KAT record) -- or the run asked to time it anyway, which every record
 * then flags. */
#ifndef PERF_PRECHECK_H
#define PERF_PRECHECK_H
#include <stddef.h>

#include "perf_args.h"

typedef struct {
    char kat_verdict[32]; /* the KAT record's verdict, "NONE" if unreadable, "" if not asked */
    int timed_anyway;     /* measured although the KAT did not pass */
} perf_kat_status;

/* -1 to go on measuring; else the verdict (ngcc_verdict) and its detail */
int perf_precheck(const perf_args *a, perf_kat_status *k, char *detail, size_t len);

#endif
