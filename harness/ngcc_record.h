/* ngcc-ctest: JSON records (cJSON), one per test, written atomically so a
 * crash never leaves a half-written record and never loses the others. */
#ifndef NGCC_RECORD_H
#define NGCC_RECORD_H
#include <cjson/cJSON.h>

#define NGCC_RECORD_SCHEMA 1

/* new record with schema, kind ("kat", "security", ...), name and start time */
cJSON *ngcc_record_new(const char *kind, const char *name);
/* adds end time, then writes atomically; 0 or -1 (message on stderr) */
int ngcc_record_write(cJSON *rec, const char *path);
/* parses a JSON file; NULL (message naming the file on stderr) on error */
cJSON *ngcc_record_load(const char *path);
/* out = "<folder of record_out>/<name>" (record_out NULL or without a folder:
 * "./<name>"): another record of the same instance */
void ngcc_record_sibling(const char *record_out, const char *name, char *out, size_t len);

#endif
