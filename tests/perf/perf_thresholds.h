/* ngcc-perf: the thresholds file of one system, tests/perf/thresholds/<system>.json,
 * written by ngcc-baseline from the records of a run:
 *   {"schema": 1, "system": "<system>", "instances": {"<cand>/<key>": {
 *      "<op>":     {"counter": "tsc", "freq_hz": 2.1e9, "median": <ticks>, "median_ns": <ns>,
 *                   "tolerance": <optional, overrides the run's>, ...provenance},
 *      "mem-<op>": {"peak_rss_kb": .., "heap_peak_bytes": .., "stack_hwm_bytes": ..},
 *      "sizes":    {"pk": .., "sk": .., "sn"|"ct","ss": .., "observed_max": .., "loadable_total": ..}}}}
 * A gate compares a measured figure with baseline x (1 + tolerance). */
#ifndef PERF_THRESHOLDS_H
#define PERF_THRESHOLDS_H
#include <stddef.h>

#include <cjson/cJSON.h>

/* *root = the parsed file, or NULL when the file does not exist (no
 * baselines: not an error). -1 with a one-line reason naming the file and
 * the fix when it is unreadable, malformed or for another system. */
int perf_thresholds_load(const char *path, const char *system, cJSON **root, char *err, size_t errlen);
/* the entry for instance key ("<cand>/<key>") and name, or NULL */
const cJSON *perf_thresholds_entry(const cJSON *root, const char *key, const char *name);

typedef struct {
    int have;        /* a comparable baseline exists */
    double baseline; /* in the compared unit */
    double value;    /* the measured figure in that unit */
    double tolerance;
    double limit;   /* baseline x (1 + tolerance) */
    char unit[16];  /* "ticks", "ns", "kB", "bytes" */
    char note[240]; /* why there is no baseline, or how it was compared */
} perf_gate;

/* Timing: a core-cycle median is compared in cycles with a baseline taken
 * with the same counter; a constant-rate clock (TSC, cntvct, ns) is compared
 * in ticks when the baseline's frequency is within 0.5%, else in ns. */
void perf_gate_timing(const cJSON *entry, const char *counter, int counts_cycles, double freq_hz, double median_ticks,
                      double run_tolerance, perf_gate *g);
/* Memory and sizes: field of the entry against value, same unit. */
void perf_gate_value(const cJSON *entry, const char *field, const char *unit, double value, double run_tolerance,
                     perf_gate *g);
/* 1 if the figure is above its limit */
int perf_gate_exceeded(const perf_gate *g);
/* "median 123 ticks > limit 110 (baseline 105 +5%)" or "... <= ..." or the note */
void perf_gate_text(const perf_gate *g, const char *what, char *out, size_t len);
/* {"<name>": baseline, "tolerance", "limit", "unit"} or a JSON null without a baseline */
cJSON *perf_gate_json(const perf_gate *g, const char *name);

#endif
