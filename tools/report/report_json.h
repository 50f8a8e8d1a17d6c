/* ngcc-report: tolerant accessors for record fields. Every field of every
 * record is optional: a getter returns "absent" (0 / NULL) instead of failing,
 * and the page marks the gap. Paths are dotted ("stats.median"). */
#ifndef REPORT_JSON_H
#define REPORT_JSON_H
#include <cjson/cJSON.h>

/* the item at a dotted path, or NULL */
const cJSON *rj_get(const cJSON *obj, const char *path);
/* 1 and *out if the item is a number or a numeric string ("64"), else 0 */
int rj_num(const cJSON *obj, const char *path, double *out);
/* the string value, or NULL (also for an empty string) */
const char *rj_str(const cJSON *obj, const char *path);
/* 1 and *out (0/1) if the item is a JSON boolean, else 0 */
int rj_bool(const cJSON *obj, const char *path, int *out);
/* the number as a double, or NaN when absent (for the formatters) */
double rj_numnan(const cJSON *obj, const char *path);

#endif
