/* ngcc-ctest: resuming an interrupted campaign.
 * A driver lists what its result depends on in an "inputs" object (its
 * arguments, the SHA-256 of every file it reads, the build verdict); the
 * SHA-256 of that object is the fingerprint stored in its record. With
 * NGCC_RESUME=1 in the environment, a driver whose record exists, is complete
 * (schema, verdict, end time) and has the same fingerprint prints the recorded
 * verdict and exits with the recorded result instead of running again; the
 * record is left untouched (same bytes, same mtime). Records are written
 * atomically, so a killed run leaves either the old record or none. */
#ifndef NGCC_RESUME_H
#define NGCC_RESUME_H
#include <cjson/cJSON.h>

/* {"argv": [...]} with every argument after the program name */
cJSON *ngcc_inputs_new(int argc, char **argv);
/* key: "<sha256 of the file>", or "absent" when it cannot be read */
void ngcc_inputs_add_file(cJSON *inputs, const char *key, const char *path);
void ngcc_inputs_add_str(cJSON *inputs, const char *key, const char *value);
/* the SHA-256 of one member of a loaded record (its compact JSON) as input
 * key: "absent" when the record is NULL (unreadable), "none" when it has no
 * such member. For inputs that are part of a record whose other fields
 * (timestamps) change on every run, e.g. a KAT record's op_seconds. */
void ngcc_inputs_add_member(cJSON *inputs, const char *key, const cJSON *record, const char *member);
/* lowercase hex SHA-256 of the compact JSON text of inputs */
void ngcc_inputs_fingerprint(const cJSON *inputs, char out[65]);
/* NGCC_RESUME=1 (or "yes"/"on") in the environment */
int ngcc_resume_requested(void);
/* The record at path when it is complete and carries this fingerprint
 * (caller deletes it), else NULL. */
cJSON *ngcc_resume_load(const char *record_path, const char *fingerprint);
/* Adds "inputs" (a copy) and "fingerprint" to a record before it is written. */
void ngcc_resume_stamp(cJSON *record, const cJSON *inputs, const char *fingerprint);

#endif
