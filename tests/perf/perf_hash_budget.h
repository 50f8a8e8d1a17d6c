/* ngcc-perf: the time budget of a hash-<bytes> operation. A hash at a few
 * KB/s needs minutes for one call on a 1 MiB message, and the measurement
 * makes at least two (the reference digest, then the first timed call, alone
 * when it takes NGCC_PERF_ONE_SHOT_S). The call is predicted from the
 * instance's KAT_2_12/2_23 speed (kat_hash_speed.h); when two calls x 2 do
 * not fit the timeout, SKIP with the prediction instead of a TIMEOUT. */
#ifndef PERF_HASH_BUDGET_H
#define PERF_HASH_BUDGET_H

#include "ngcc_frame.h"
#include "perf_args.h"

/* 0 to go on (not a hash op, no speed known, or it fits); 1 with SKIP set */
int perf_hash_budget(ngcc_frame *f, const perf_args *a);

#endif
