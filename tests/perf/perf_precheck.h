/* ngcc-perf, ngcc-mem, ngcc-sizes: what must hold before measuring. The
 * instance built and its library exists (the frame's build check,
 * ngcc_frame.h), and its KAT passed (its KAT record) -- or the run asked to
 * time it anyway, which every record then flags. */
#ifndef PERF_PRECHECK_H
#define PERF_PRECHECK_H
#include <stddef.h>

#include "ngcc_frame.h"
#include "perf_args.h"

typedef struct {
    char kat_verdict[32]; /* the KAT record's verdict, "NONE" if unreadable, "" if not asked */
    int timed_anyway;     /* measured although the KAT did not pass */
} perf_kat_status;

/* 0 to go on measuring; 1 with the frame's verdict and detail set */
int perf_precheck(ngcc_frame *f, const perf_args *a, perf_kat_status *k);

#endif
