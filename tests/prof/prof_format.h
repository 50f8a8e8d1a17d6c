/* ngcc-prof: figures in the published campaign's report format. */
#ifndef PROF_FORMAT_H
#define PROF_FORMAT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* 3 significant figures, no trailing zeros: 75.6, 16.5, 16, 16100, 0.5 */
void prof_fmt_sig3(double v, char *out, size_t n);
/* a share (0..1) as a percentage with 2 significant figures: 4.7%, 62% */
void prof_fmt_pct(double share, char *out, size_t n);
/* short name used in reports: drng (get_random_number), drng_init,
 * drng@other_ctx, ..., the hash names unchanged */
const char *prof_display_name(const char *key);
/* "calls per operation" from an aggregate calls map {key: {"mean",...}}:
 * "drng 75.6, pseudoXOF 16.5", ordered by mean count (descending, then
 * alphabetically); zero counts left out; "none" if nothing was called.
 * drng counts every get_random_number call, on drng_algorithm and on other
 * contexts, as the published tables do; when some were on other contexts the
 * split follows: "drng 80 (drng_algorithm 75.6, other contexts 4.4)". */
void prof_fmt_calls(const cJSON *calls, char *out, size_t n);
/* get_random_number calls per operation: all contexts, drng_algorithm, others */
void prof_drng_split(const cJSON *calls, double *all, double *own, double *other);
/* "drng 80 (drng_algorithm 75.6, other contexts 4.4)", the split always shown */
void prof_fmt_drng(const cJSON *calls, char *out, size_t n);

#endif
