/* ngcc-security: every distinct sanitizer report of a run. UBSan recovers,
 * so one child's log may hold many reports, and an ASan report ends only the
 * child it happened in (sec_run reruns the check past that call): each
 * report is kept once per site (function, file:line, kind), with the piece
 * of work (check, or "material") and the call that first reached it and how
 * often it was seen. Template-UB reports (sec_memerr.h) are kept as notes. */
#ifndef SEC_REPORTS_H
#define SEC_REPORTS_H

#include <stddef.h>

#include "sec_memerr.h"

#define SEC_MAX_REPORTS 48

typedef struct {
    sec_memerr e; /* the first occurrence (its report text kept) */
    char who[48]; /* the check, or "material", "probe" */
    unsigned long count;
} sec_report;

typedef struct {
    int n;
    unsigned long dropped; /* distinct reports beyond SEC_MAX_REPORTS */
    sec_report r[SEC_MAX_REPORTS];
} sec_reports;

/* adds one report (taking e->report if it is new); 1 if its site is new */
int sec_reports_add(sec_reports *all, sec_memerr *e, const char *who);
/* "OVERFLOW: AddressSanitizer heap-buffer-overflow: WRITE in f (x.c:3) [check]; UNDEFINED: ..."
 * over the candidate's reports, gravest first; "" if none */
void sec_reports_format(const sec_reports *all, char *out, size_t cap);
/* the template-UB reports: "UBSan: shift exponent 32 ... in sm3_bit_compress (drng.c:80:5)", or "" */
void sec_reports_template_note(const sec_reports *all, char *out, size_t cap);
void sec_reports_free(sec_reports *all);

#endif
