/* ngcc-ctest: the operation times the kat test measured (its record's
 * "op_seconds"), read by the labels that run after it (prof, ...) to size
 * their runs from the instance's real speed instead of a fixed guess. The
 * kat record sits beside theirs: <records>/<cand>/<inst>/kat.json. */
#ifndef NGCC_OPTIMES_H
#define NGCC_OPTIMES_H

#include <stddef.h>

#define NGCC_OPTIMES_MAX 12

typedef struct {
    int found;        /* a kat record with op_seconds was read */
    char path[1024];  /* the kat record looked for */
    char verdict[32]; /* its verdict */
    int records_run;  /* records the kat test ran */
    int nops;         /* entries below */
    char op[NGCC_OPTIMES_MAX][16];
    double median[NGCC_OPTIMES_MAX], max[NGCC_OPTIMES_MAX];
} ngcc_optimes;

/* Reads kat.json in the folder of record_out (any record of the instance);
 * 0 with t->found set, or -1 with t->found 0 (no kat record, or no times). */
int ngcc_optimes_load(const char *record_out, ngcc_optimes *t);
/* seconds of one call of op (the median; the max when use_max), -1 if unmeasured */
double ngcc_optimes_get(const ngcc_optimes *t, const char *op, int use_max);

#endif
