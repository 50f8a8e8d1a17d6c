/* ngcc-prof: the child side of a prof test. Loads the prof library (and the
 * plain one, for the overhead comparison) and replays the official KAT flow
 * up to the profiled operation, record by record, streaming one line per
 * item into a pipe so a crash in record k still leaves records 0..k-1. */
#ifndef PROF_RUN_H
#define PROF_RUN_H

/* operations in the order the KAT flow runs them */
#define PROF_MAX_OPS 3
extern const char *const prof_sig_ops[PROF_MAX_OPS]; /* keygen sign verify */
extern const char *const prof_kem_ops[PROF_MAX_OPS]; /* keygen enc dec */

typedef struct {
    const char *prof_lib;
    const char *plain_lib;  /* NULL: no overhead comparison */
    const char *op;         /* keygen|sign|verify or keygen|enc|dec */
    int records;            /* first N KAT records */
    int min_reps, max_reps; /* runs per record and library: at least min_reps (>= 2: the counts
                               must repeat), more until the two fastest runs of each library agree
                               within 1% or max_reps or the time budget is reached */
    double budget_s;        /* time after which records stop at min_reps */
    unsigned long long calib_iterations;
} prof_run_args;

/* Protocol, one item per line:
 *   LOADFAIL <reason>       a library did not load or lacks the prof surface
 *   BADOP <reason>          --op does not exist for this instance type
 *   META <json>             ngcc_meta_get() fields, claimed sizes, counter
 *   CALIB <json>            wrapper cost per call: inside, total (ticks)
 *   BEGIN <record>          about to run record <record>
 *   REC <json>              one record's figures (see prof_run.c)
 *   DONE <json>             finished: ticks and ns of the whole run
 * Lines are flushed before every call into the instance. */
int prof_run_child(void *args, int wfd);

#endif
