/* ngcc-security: the parent's view of one test run, from probing the
 * library to the verdict. */
#ifndef SEC_STATE_H
#define SEC_STATE_H

#include "sec_budget.h"
#include "sec_check.h"
#include "sec_memerr.h"

#define SEC_MAX_CHECKS 24

/* what the library says about itself (filled by the probe child) */
typedef struct {
    int loaded;
    char error[512];
    int is_kem, blank;
    int ntype; /* ngcc_type: SIG, KEM, KEX, HASH */
    sec_claims claims;
    char type[8], algorithm_instance[80], impl_variant[32], build_variant[16], flagset[32];
    char compiler[128], flags[1024];
} sec_probe;

/* the final outcome of one check */
typedef struct {
    const sec_check *check;
    ngcc_verdict verdict; /* PASS, FINDING or the failing verdict (sec_check_status) */
    int notrun;           /* nothing to work on: never a pass */
    char detail[2 * SEC_DETAIL];
    unsigned long tried, problems;
    unsigned long implicit_rejections, error_returns; /* KEM modified_ciphertext */
    double seconds;
} sec_outcome;

typedef struct {
    sec_options opt;
    const char *kind; /* "security" or "sanitizer" */
    char log_dir[1024];
    double deadline, call_timeout;
    sec_probe probe;
    sec_plan plan;
    sec_material *mat;
    const sec_check *checks;
    int nchecks;
    sec_outcome out[SEC_MAX_CHECKS];
    sec_outcome making; /* problems while making keys and signatures */
    sec_result obs;     /* every call's observations, merged (parent memory) */
    sec_memerr report;  /* the first sanitizer report */
    char sandbox[256];  /* the isolation the children got (the probe's) */
    unsigned long mem_limit_mb;
    ngcc_verdict verdict;
    char detail[2 * SEC_DETAIL];
    /* the time budget (sec_budget.h) */
    sec_costs costs;
    sec_budget budget;
    int material_from;          /* items before it were made already (timing) */
    double first_op_seconds[3]; /* the last material child's timing */
} sec_state;

/* each step may set s->verdict (LOADFAIL, CRASH...) and stop the run */
int sec_run_probe(sec_state *s);
void sec_run_material(sec_state *s);
/* makes item 0 alone, timing keygen, sign|enc and one verify|dec; 1 if made */
int sec_run_time_first(sec_state *s);
void sec_run_checks(sec_state *s);
void sec_judge(sec_state *s);
/* Security's own precedence, used for a check's worst problem and the
 * instance verdict: CRYPTOFAIL > MALLEABLE > OVERFLOW > UNDEFINED > CRASH >
 * TIMEOUT > MEMLIMIT > the rest in ngcc_verdict order. It differs from the
 * global enum (where CRASH/TIMEOUT outrank CRYPTOFAIL, right for kat/perf:
 * a crash there stops the run) because here a crash or hang is one input of
 * many, while an accepted forgery condemns the instance whatever else failed. */
int sec_verdict_rank(ngcc_verdict v);
/* keeps the worse of the outcome's problem and this one; counts problems */
void sec_outcome_add(sec_outcome *o, ngcc_verdict v, const char *detail);

#endif
