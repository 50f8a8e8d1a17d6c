/* ngcc-ctest: verdict names shared by every driver, record and page. */
#ifndef NGCC_VERDICT_H
#define NGCC_VERDICT_H

/* Ordered by precedence: when several apply, the highest wins.
 * PASS, RECORDED, NOBASELINE and FINDING are the passing verdicts (ngcc_verdict_passing). */
typedef enum {
    NGCC_PASS = 0,
    NGCC_RECORDED,   /* measured and recorded, nothing to gate against (prof without an expectation) */
    NGCC_NOBASELINE, /* measured; no committed baseline for this machine class to gate against
                      * (perf, mem, sizes, icount): passing, listed by the campaign summary */
    NGCC_FINDING,    /* a deviation reported but not failed (a declared claim allows it, e.g.
                      * malleability under "claims": "euf-cma") */
    NGCC_SKIP,       /* not run: the build test skipped the instance (missing ISA extension) */
    NGCC_REGRESSION, /* a measured figure is above its threshold (perf, mem, sizes) */
    NGCC_NOKAT,
    NGCC_MISMATCH,
    NGCC_LEAK,      /* ct: a branch or memory index depends on a secret (valgrind sees an
                     * undefined value used in candidate code); security's memory_leaks:
                     * heap memory lost with every call (without bound) */
    NGCC_MALLEABLE, /* a valid signature changed by a few bits or bytes still verifies for the
                     * same message and key: not a forgery of a new message */
    NGCC_CRYPTOFAIL,
    NGCC_OVERFLOW,
    NGCC_UNDEFINED, /* a UBSan report in candidate code (security-asan): undefined
                     * behaviour, not a crash; named with its first line and location */
    NGCC_TIMEOUT,
    NGCC_CRASH,
    NGCC_MEMLIMIT,
    NGCC_LOADFAIL,
    NGCC_BUILDFAIL,
    NGCC_ERROR, /* the harness itself failed (bad arguments, I/O) */
    NGCC_VERDICT_COUNT
} ngcc_verdict;

const char *ngcc_verdict_name(ngcc_verdict v);
/* -1 if the name is unknown */
int ngcc_verdict_parse(const char *name);
/* 1 for PASS, RECORDED, NOBASELINE and FINDING */
int ngcc_verdict_passing(int v);
/* the worse (higher-precedence) of two verdicts */
ngcc_verdict ngcc_verdict_worst(ngcc_verdict a, ngcc_verdict b);

#endif
