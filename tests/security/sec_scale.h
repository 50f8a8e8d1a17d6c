/* ngcc-security: honest_scale (sec_scale.c): many honest operations, their
 * failure rate with exact binomial bounds */
#ifndef SEC_SCALE_H
#define SEC_SCALE_H

#include "sec_job.h"

void sec_honest_scale(sec_job *j);     /* SIG and KEM */
void sec_kex_honest_scale(sec_job *j); /* KEX */
/* one-sided 95% Clopper-Pearson bounds of a rate of k in n (upper: about 3/n for k = 0) */
double sec_scale_upper(unsigned long k, unsigned long n);
double sec_scale_lower(unsigned long k, unsigned long n);

#endif
