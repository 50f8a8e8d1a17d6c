/* ngcc-security: the JSON record of a security or sanitizer test
 * (<records>/security.json, <records>/sanitizer.json). */
#ifndef SEC_RECORD_H
#define SEC_RECORD_H

#include "ngcc_frame.h"
#include "sec_state.h"

/* the record of s, with the frame's verdict and detail; 0 or -1 (message on stderr) */
int sec_record_write(const sec_state *s, ngcc_frame *f, const char *start_utc);

#endif
