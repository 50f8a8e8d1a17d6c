/* ngcc-icount: the committed instruction-count baselines. One file per
 * (architecture, compiler id and version) -- never per CPU model --
 * tests/perf/icount/<arch>-<compilerid>-<version>.json:
 *   {"schema": 1, "kind": "icount-baseline", "arch": "x86_64", "compiler": "GNU 12.2.0",
 *    "entries": {"<cand>/<key>": {"<op>": {"flagset": "guide", "method": "valgrind-callgrind Ir",
 *                "records": 3, "median": 123, "counts": [...], provenance...}}}}
 * An entry taken with another flag set, method or number of records is not
 * comparable (its median is another quantity): no gate, with the reason.
 * Written by ngcc-icount-baseline (target icount-baseline). */
#ifndef ICOUNT_BASELINE_H
#define ICOUNT_BASELINE_H
#include <stddef.h>

#include <cjson/cJSON.h>

#define ICOUNT_BASELINE_KIND "icount-baseline"

typedef struct {
    int have;        /* a comparable entry: gated */
    double baseline; /* its median */
    double limit;    /* baseline x (1 + tol) */
    double change;   /* median / baseline - 1 */
    int exceeded;
    char reason[400]; /* why there is no gate (have == 0) */
} icount_gate;

/* Loads the baseline file: 0 with *out (an empty object when the file does
 * not exist: no baseline yet); -1 with a one-line error naming the file and
 * the fix when it is unreadable or not a baseline file. */
int icount_baseline_load(const char *path, cJSON **out, char *err, size_t len);
/* Gates median (flag set, method kind, records) against the entry key/op;
 * refresh: the one command that records baselines (named when none). */
void icount_baseline_gate(const cJSON *file, const char *path, const char *key, const char *op, const char *flagset,
                          const char *method, int records, double median, double tol, const char *refresh,
                          icount_gate *g);
/* the median of n counts (n >= 1; the mean of the middle two when n is even) */
double icount_median(const long long *x, int n);

#endif
