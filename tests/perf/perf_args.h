/* ngcc-perf, ngcc-mem, ngcc-sizes: the command line they share. */
#ifndef PERF_ARGS_H
#define PERF_ARGS_H
#include "perf_measure.h"

typedef struct {
    const char *lib, *name, *op, *record_out, *build_record, *kat_record, *log;
    const char *thresholds, *baseline_key, *system;
    int time_anyway;
    double tolerance;       /* run tolerance of the gates (an entry's own wins) */
    double rss_tolerance;   /* ngcc-mem: the same for peak RSS, a figure of the whole process */
    double timeout;         /* s, for the child; <= 0: none */
    unsigned long mem_mb;   /* RLIMIT_AS of the child; 0: none */
    int expect;             /* expected perf verdict (exit 0 iff met) */
    double stack_mb;        /* ngcc-mem: size of the painted stack */
    perf_measure_opts m;    /* ngcc-perf: method; m.records also for the others */
} perf_args;

/* 0, or 2 after printing the problem and the usage (text: the tool's own) */
int perf_args_parse(perf_args *a, int argc, char **argv, const char *usage);
/* the key of thresholds entries: --baseline-key, else --name */
const char *perf_args_key(const perf_args *a);

#endif
