/* ngcc-prof: the child side of a prof test. Loads the prof library (and the
 * plain one, for the overhead comparison) and replays the official KAT flow
 * up to the profiled operation, record by record, streaming one line per
 * item into a pipe so a crash in record k still leaves records 0..k-1. */
#ifndef PROF_RUN_H
#define PROF_RUN_H

/* operations in the order the KAT flow runs them */
#define PROF_SIGKEM_OPS 3
#define PROF_KEX_OPS 12 /* init_a init_b, pass1 .. pass8 (NGCC_KEX_MAXP), derive_a derive_b */
#define PROF_HASH_RECORDS 10
extern const char *const prof_sig_ops[PROF_SIGKEM_OPS]; /* keygen sign verify */
extern const char *const prof_kem_ops[PROF_SIGKEM_OPS]; /* keygen enc dec */
/* init_a init_b pass1 pass2 pass3 (.. pass8) derive_a derive_b: KAT_KEX.c's
 * call order (passes above 3: the package's extended driver), one DRNG
 * stream per record (seeded once, both parties draw from it) */
extern const char *const prof_kex_ops[PROF_KEX_OPS];
extern const char *const prof_hash_ops[1]; /* hash: one CryptHash call */
/* CryptHash records: message length in bits of record i */
extern const unsigned long long prof_hash_lengths[PROF_HASH_RECORDS];

typedef struct {
    const char *prof_lib;
    const char *plain_lib;  /* NULL: no overhead comparison */
    const char *op;         /* keygen|sign|verify, keygen|enc|dec, a KEX step or hash */
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
