/* ngcc-kat-hash: how long KAT_2_33 and KAT_Loop will take, predicted before
 * they start (iccs-kex-hash.md §3.5-3.6: 3 GiB hashed and a 1 GiB DRNG draw;
 * 10^6 CryptHash calls on 1 KiB messages). A hash at a few MB/s needs tens
 * of minutes for them: the driver then says SKIP with the prediction and the
 * way to run it, instead of a TIMEOUT after the whole test time.
 * The speed comes from the same instance's KAT_2_12 and KAT_2_23 records
 * (their "hashing" object: the CryptHash calls timed by the replay, when the
 * record was made from this very library), else from a short probe in a
 * child (about half a second). Hash-specific: the SIG/KEM budgets read
 * op_seconds elsewhere. */
#ifndef KAT_HASH_SPEED_H
#define KAT_HASH_SPEED_H
#include <stddef.h>

#include "kat_replay_hash.h"

/* one replay's "#T" line (kat_replay_hash.h), as kept in its record */
typedef struct {
    double calls, bytes, hash_seconds, work_seconds;
} kat_hash_timing;

typedef struct {
    double seconds;   /* predicted run time of the file; < 0: no prediction */
    double mb_per_s;  /* the CryptHash speed it assumes (10^6 bytes a second) */
    int from_probe;   /* 1: the probe measured it; 0: the 2_12/2_23 records */
    char source[700]; /* where the speed came from and how the time follows */
} kat_hash_prediction;

/* the record's "hashing" object when the record's run finished and was made
 * from the library whose SHA-256 is lib_sha; else 0 and why says why not */
int kat_hash_timing_load(const char *record, const char *lib_sha, kat_hash_timing *t, char *why, size_t why_cap);

/* the call model of library lib from <records_dir>/kat-2_12.json (and
 * kat-2_23.json when it is there): a CryptHash call on b bytes takes
 * *per_call + b * *per_byte seconds; 1 and source filled ("<dir>/kat-2_12.json
 * and kat-2_23.json: ..."), else 0 and source says why not (ngcc-perf's
 * long messages use it too) */
int kat_hash_call_model(const char *records_dir, const char *lib, double *per_call, double *per_byte, char *source,
                        size_t source_cap);

/* predicts file f (KAT_HASH_2_33 or KAT_HASH_LOOP) of the library lib from
 * <records_dir>/kat-2_12.json and kat-2_23.json, else by a probe child given
 * probe_timeout seconds; p->seconds < 0 when neither gave a speed */
void kat_hash_predict(kat_hash_file f, const char *lib, const char *records_dir, double probe_timeout,
                      kat_hash_prediction *p);

#endif
