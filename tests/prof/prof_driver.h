/* ngcc-prof: the state of one prof test, shared by the driver (run and
 * judgement, prof_driver.c) and its outputs (record, printed figures and
 * CMocka cases, prof_output.c). */
#ifndef PROF_DRIVER_H
#define PROF_DRIVER_H

#include <cjson/cJSON.h>

#include "ngcc_child.h"
#include "ngcc_frame.h"
#include "ngcc_verdict.h"
#include "prof_expect.h"
#include "prof_scan.h"
#include "prof_stats.h"

#define MAX_RECORDS 64
#define MAX_EXPECT_FILES 4

typedef struct {
    /* options */
    const char *lib, *plain_lib, *name, *instance, *op, *record_out, *build_record, *objects_root, *objects_dir;
    const char *objdump, *log_path;
    char *expect_files[MAX_EXPECT_FILES];
    int nexpect_files, records, min_reps, max_reps, expect;
    double timeout, budget;
    unsigned long mem_mb;
    /* child results */
    cJSON *meta, *recs[MAX_RECORDS];
    int nrecs, cur, done, loadfail;
    char loadfail_msg[600], badop[300];
    prof_calib cal;
    double run_ticks, run_ns;
    ngcc_child_result child;
    /* judgement: verdict and detail are the frame's (P.f.verdict, P.f.detail) */
    ngcc_frame f;
    prof_scan_result scan;
    char scan_dir[300];
    const char *expect_used;
    cJSON *expect_root;
    const cJSON *expected;
    prof_diff diff;
    int compared; /* an expectation was compared */
    char flagset[64];
    cJSON *out; /* the record being built */
    prof_summary_figs figs;
    char calls_text[400];
    char drng_text[160]; /* "drng 80 (drng_algorithm 75.6, other contexts 4.4)" */
} prof_state;

extern prof_state P;

/* a string of the child's META line ("" if absent) */
const char *prof_meta_str(const char *key);
/* a string field of a REC object ("" if absent) */
const char *prof_rec_str(const cJSON *rec, const char *key);

/* prof_output.c */
void prof_build_record(void);  /* figures, scan, library, meta: before judging the counts */
void prof_finish_record(void); /* expectation, differences; writes it with the frame */
void prof_print_figures(void); /* CDash measurements and the campaign-format lines */
int prof_run_cases(void);      /* the CMocka group; returns the failed count */

#endif
