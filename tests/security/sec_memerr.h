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
 *   anything else (SEGV, stack overflow, ...)       -> CRASH
 * Locations keep folder names with spaces. No report can come from an
 * official ICCS copy: the sanitizer build replaces or unsanitizes those
 * (cmake/NgccIccsFiles.cmake). */
#ifndef SEC_MEMERR_H
#define SEC_MEMERR_H

#include "ngcc_verdict.h"

typedef struct {
    int found;
    ngcc_verdict verdict;
    char summary[480]; /* "AddressSanitizer heap-buffer-overflow: WRITE of size 1 in sig_sign (wots_scheme.c:398)" */
    char *report;      /* the report's lines as printed (malloc'd), or NULL */
    char context[200]; /* valgrind: the last "#CASE " line of the log before the
                        * report (memcheck's negative case), or "" */
} sec_memerr;

/* 1 if the log holds a sanitizer report, 0 if not, -1 if it cannot be read */
int sec_memerr_sanitizer(const char *log_path, sec_memerr *e);
/* the same on a log's text (1 or 0) */
int sec_memerr_sanitizer_text(const char *text, sec_memerr *e);
/* 1 if the valgrind log holds an error, 0 if not, -1 if it cannot be read */
int sec_memerr_valgrind(const char *log_path, sec_memerr *e);
void sec_memerr_free(sec_memerr *e);

#endif
