/* ngcc-security: what one child process found. The struct lives in shared
 * memory (mmap MAP_SHARED before fork), so the parent still reads the call in
 * progress and everything found so far after the child crashed or hung. */
#ifndef SEC_RESULT_H
#define SEC_RESULT_H

#include "ngcc_verdict.h"

#define SEC_DETAIL 480
#define SEC_RC_SLOTS 16
#define SEC_SKIP_MAX 8

/* the first problem of one kind and how many there were */
typedef struct {
    unsigned long count;
    char first[SEC_DETAIL];
} sec_issue;

/* return codes of verify (SIG) or dec (KEM) */
typedef struct {
    int n;
    int value[SEC_RC_SLOTS];
    unsigned long count[SEC_RC_SLOTS];
    unsigned long other; /* codes beyond SEC_RC_SLOTS distinct values */
} sec_rc_hist;

typedef struct {
    /* progress, written before/after every API call */
    volatile unsigned long progress; /* API calls completed */
    char where[200];                 /* the API call in progress */
    int step;                        /* material: the item being made */
    /* outcome of the check */
    volatile int finished;
    unsigned long tried; /* negative cases tried */
    sec_issue failure;   /* the check's own failures */
    ngcc_verdict fail_verdict;
    sec_issue finding;     /* tolerated deviations */
    sec_issue malleable;   /* a valid signature, changed, still verified (MALLEABLE; with
                            * "claims": "euf-cma" a FINDING); the check's summary replaces
                            * the first text at its end */
    char note[SEC_DETAIL]; /* summary of a passing check, or why it could not run */
    int notrun;
    /* observed on every call, whatever the check */
    sec_issue buffer; /* writes outside buffers, changed inputs */
    sec_issue length; /* returned lengths above the claimed ones */
    sec_issue odd_rc; /* verify/dec codes outside 0 and -1..-99 */
    sec_rc_hist rc;
    unsigned long calls_checked;
    sec_issue unwritten;             /* bytes never written (determinism's pattern runs) */
    unsigned long unwritten_checked; /* outputs compared for it */
    /* KEM: what dec did with modified ciphertexts */
    unsigned long implicit_rejections, error_returns;
    /* material with time_first: keygen, sign|enc, verify|dec of the first item (s) */
    double op_seconds[3];
    /* a check rerun after an ASan report ended its child (sec_run): the
     * verify/dec calls (by index: progress before them) that ended earlier
     * children are not made again; they return -1 */
    unsigned long skip_call[SEC_SKIP_MAX];
    int nskip;
} sec_result;

/* A check's outcome is an ngcc_verdict (NGCC_PASS, NGCC_FINDING: reported,
 * passing; any failing verdict) plus a flag for a check that had nothing to
 * work on (never counted as a pass). Its name in records and expectations:
 * "PASS", "FINDING", "CRASH", "TIMEOUT", "NOTRUN", or "FAIL" for the other
 * failing verdicts (the record's "fails_as" names which). */
const char *sec_check_status(ngcc_verdict v, int notrun);
/* counts one problem, keeping the text of the first */
void sec_issue_add(sec_issue *i, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* adds b's counts to a, keeping a's first text if it has one */
void sec_issue_merge(sec_issue *a, const sec_issue *b);
void sec_rc_add(sec_rc_hist *h, int rc);
void sec_rc_merge(sec_rc_hist *a, const sec_rc_hist *b);
/* "0 x17, -1 x2940" */
void sec_rc_format(const sec_rc_hist *h, char *out, int len);
/* a fresh result in shared memory (NULL on failure); free with sec_result_unmap */
sec_result *sec_result_map(void);
void sec_result_unmap(sec_result *r);

#endif
