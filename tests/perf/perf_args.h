/* ngcc-perf, ngcc-mem, ngcc-sizes: the command line they share. The common
 * options (--lib --name --op --record-out --build-record --log --expect
 * --timeout --mem-limit-mb) are the driver frame's (ngcc_frame.h); these are
 * the perf label's own, and the frame's values copied for convenience. */
#ifndef PERF_ARGS_H
#define PERF_ARGS_H
#include "ngcc_frame.h"
#include "perf_measure.h"

typedef struct {
    const char *lib, *name, *op, *record_out, *build_record, *kat_record, *log;
    const char *thresholds, *baseline_key, *system;
    int time_anyway;
    double tolerance;     /* run tolerance of the gates (an entry's own wins) */
    double rss_tolerance; /* ngcc-mem: the same for peak RSS, a figure of the whole process */
    double timeout;       /* s, for the child; <= 0: none */
    unsigned long mem_mb; /* RLIMIT_AS of the child; 0: none */
    int expect;           /* expected perf verdict (exit 0 iff met) */
    double stack_mb;      /* ngcc-mem: size of the painted stack */
    perf_measure_opts m;  /* ngcc-perf: method; m.records also for the others */
    /* ngcc-perf same-run A/B (--ref-lib): the reference, its name and KAT
     * record; the gate's tolerance, bootstrap resamples and confidence */
    const char *ref_name, *ref_kat_record;
    const char *ref_error; /* the reference could not be resolved (CMake's one-line reason): ERROR */
    double ab_tolerance, ab_confidence;
    int ab_resamples;
    const char *build_dir; /* named in the NOBASELINE detail's command ("<build>" if unset) */
} perf_args;

/* Parses through the frame f (label "perf", "mem" or "sizes"; with_op: --op
 * required). 0, or 2 after printing the problem and the usage. On success
 * f->inputs also holds the thresholds file's SHA-256, the system and the KAT
 * record's verdict: a resumed record is reused only while they are unchanged. */
int perf_args_parse(perf_args *a, ngcc_frame *f, const char *label, const char *program, int with_op, const char *usage,
                    int argc, char **argv);
/* the key of thresholds entries: --baseline-key, else --name */
const char *perf_args_key(const perf_args *a);
/* the one command that records missing baselines of this build */
const char *perf_args_baseline_command(const perf_args *a);

#endif
