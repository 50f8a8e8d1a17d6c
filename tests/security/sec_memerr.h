/* ngcc-security: the first report of a memory checker, from its log.
 * AddressSanitizer/UBSan (security-asan tests) and valgrind memcheck
 * (memcheck tests). A report becomes a verdict:
 *   out-of-bounds or freed-memory access, bad free  -> OVERFLOW (valgrind: an
 *                                                      address in the first page
 *                                                      is a null dereference, CRASH)
 *   use of uninitialised memory (valgrind)          -> CRYPTOFAIL (the result
 *                                                      is not reproducible)
 *   UBSan: undefined behaviour                      -> UNDEFINED (its first line
 *                                                      and location; not a crash),
 *          except a null-pointer load/store         -> CRASH (the plain run's SIGSEGV)
 *          and an out-of-bounds index or a load/store
 *          with insufficient space for the object   -> OVERFLOW (a memory-safety error:
 *                                                      a buffer over-read or -write)
 *   anything else (SEGV, stack overflow, ...)       -> CRASH
 * Locations keep folder names with spaces. No report can come from an
 * official ICCS copy recognised at configure time: the sanitizer build
 * replaces or unsanitizes those (cmake/NgccIccsFiles.cmake). A copy that was
 * not recognised (edited, e.g. blank lines added) is caught here by the
 * template-UB site rule: UBSan's "shift exponent 32" in sm3_bit_compress of a
 * file named drng.c is the template's, flagged template_ub (a note, never a
 * verdict).
 * UBSan recovers (the instance library is built with -fsanitize-recover=
 * undefined): a log may hold many reports; an ASan report ends the process. */
#ifndef SEC_MEMERR_H
#define SEC_MEMERR_H

#include "ngcc_verdict.h"

typedef struct {
    int found;
    ngcc_verdict verdict;
    char summary[480];    /* "AddressSanitizer heap-buffer-overflow: WRITE of size 1 in sig_sign (wots_scheme.c:398)" */
    char *report;         /* the report's lines as printed (malloc'd), or NULL */
    char context[200];    /* valgrind: the last "#CASE " line of the log before the
                           * report (memcheck's negative case); sanitizers: the
                           * last "#CALL " line (sec_call_mark_calls), or "" */
    char kind[160];       /* what went wrong, without values: "UBSan: signed integer overflow",
                           * "AddressSanitizer heap-buffer-overflow: WRITE" */
    char site[400];       /* "fn (file:line[:col])" of the first frame (or the report's location) */
    char first_line[300]; /* the report's headline, without ASan's "==pid==" prefix */
    int fatal;            /* an ASan report: it ended the process */
    int template_ub;      /* the ICCS template's known UB (site rule above) */
} sec_memerr;

/* 1 if the log holds a sanitizer report, 0 if not, -1 if it cannot be read */
int sec_memerr_sanitizer(const char *log_path, sec_memerr *e);
/* the same on a log's text (1 or 0) */
int sec_memerr_sanitizer_text(const char *text, sec_memerr *e);
/* every sanitizer report of a log's text, in order: fn(e, arg) for each (e
 * is freed after fn returns unless fn took e->report); returns how many */
int sec_memerr_sanitizer_each(const char *text, void (*fn)(sec_memerr *e, void *arg), void *arg);
/* the report that ended the process (the last one, if it is ASan's: UBSan
 * recovers): 1 if found, 0 if the process did not end by a report */
int sec_memerr_sanitizer_fatal(const char *text, sec_memerr *e);
/* 1 if the valgrind log holds an error, 0 if not, -1 if it cannot be read */
int sec_memerr_valgrind(const char *log_path, sec_memerr *e);
void sec_memerr_free(sec_memerr *e);

#endif
