/* ngcc-perf: verdicts of the perf label. The shared verdicts (ngcc_verdict.h)
 * name measurement errors (CRASH, TIMEOUT, CRYPTOFAIL, LOADFAIL, ...);
 * REGRESSION is the perf label's own: a measured figure is above its
 * threshold (baseline x (1 + tolerance)). Precedence: any error outranks
 * REGRESSION, which outranks PASS. */
#ifndef PERF_VERDICT_H
#define PERF_VERDICT_H
#include "ngcc_verdict.h"

#define PERF_REGRESSION NGCC_VERDICT_COUNT

const char *perf_verdict_name(int v);
/* -1 if unknown */
int perf_verdict_parse(const char *name);
/* the one that wins when both apply */
int perf_verdict_worst(int a, int b);

#endif
