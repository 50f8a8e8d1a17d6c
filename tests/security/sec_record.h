/* ngcc-security: the JSON record of a security or sanitizer test
 * (<records>/security.json, <records>/sanitizer.json). */
#ifndef SEC_RECORD_H
#define SEC_RECORD_H

#include "sec_state.h"

/* 0 or -1 (message on stderr) */
int sec_record_write(const sec_state *s, const char *start_utc);

#endif
