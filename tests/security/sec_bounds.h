/* ngcc-security: input_bounds (sec_bounds.c) and how it explains stale_state */
#ifndef SEC_BOUNDS_H
#define SEC_BOUNDS_H

#include "sec_state.h"

/* SIG and KEM: short and full-length inputs ending at an unreadable page */
void sec_input_bounds(sec_job *j);
/* after the checks: a stale_state failure on a short input that input_bounds
 * saw read past its end is named after that read, ranked as it (OVERFLOW) */
void sec_bounds_explain(sec_state *s);

#endif
