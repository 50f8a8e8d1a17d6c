/* ngcc-perf: the fields every perf, mem and sizes record shares
 * besides verdict, detail and expected (the frame's, ngcc_frame.h): library
 * and its SHA-256, system, and the library's own metadata. */
#ifndef PERF_RECORD_H
#define PERF_RECORD_H
#include <cjson/cJSON.h>

#include "ngcc_control.h"

/* the "meta" object from the library's self-description (child side) */
cJSON *perf_meta_json(const ngcc_meta *m);
/* adds library, library_sha256, system and a copy of meta ({} when the
 * child never reported it) to rec */
void perf_record_common(cJSON *rec, const char *lib, const char *system, const cJSON *meta);

#endif
