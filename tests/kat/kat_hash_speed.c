/* ngcc-kat-hash: the run time of KAT_2_33 and KAT_Loop, predicted
 * (kat_hash_speed.h). The model: a CryptHash call on b bytes takes
 * per_call + b * per_byte seconds.
 *   KAT_2_33: KAT_2_23 scaled by 1024 (the same three messages, 1024 times
 *     longer, and a 1024 times longer DRNG draw): 1024 x the 2_23 replay's
 *     whole work time; by the probe, 3 GiB at the bulk speed + 1 GiB of DRNG.
 *   KAT_Loop: 10^6 calls on 1 KiB (model(): with KAT_2_12 alone, per_call 0
 *     and per_byte = its seconds / its bytes, a larger estimate: its
 *     messages average 256 bytes); by the probe, the 1 KiB calls' own time. */
#include "kat_hash_speed.h"

#include <stdio.h>
#include <string.h>

#include "kat_hash_probe.h"
#include "ngcc_record.h"
#include "ngcc_util.h"

#define GIB 1073741824.0
#define LOOP_CALLS 1000001.0 /* h0 and 10^6 iterations */
#define LOOP_BYTES 1024.0
#define PROBE_WARN_S 30.0 /* the probe's child gets at most this (it needs ~0.5 s) */

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

int kat_hash_timing_load(const char *record, const char *lib_sha, kat_hash_timing *t, char *why, size_t why_cap)
{
    memset(t, 0, sizeof *t);
    cJSON *r = ngcc_record_load(record);
    const cJSON *h = r ? cJSON_GetObjectItem(r, "hashing") : NULL, *sha = cJSON_GetObjectItem(r, "library_sha256");
    int ok = 0;
    if (!r)
        snprintf(why, why_cap, "no %s", record);
    else if (!cJSON_IsObject(h))
        snprintf(why, why_cap, "%s has no \"hashing\" times (its run did not finish)", record);
    else if (!cJSON_IsString(sha) || strcmp(sha->valuestring, lib_sha) != 0)
        snprintf(why, why_cap, "%s was made from another build of the library", record);
    else {
        t->calls = num(h, "calls");
        t->bytes = num(h, "bits") / 8;
        t->hash_seconds = num(h, "hash_seconds");
        t->work_seconds = num(h, "work_seconds");
        ok = t->calls > 0 && t->bytes > 0 && t->hash_seconds > 0 && t->work_seconds > 0;
        if (!ok)
            snprintf(why, why_cap, "%s: its \"hashing\" times are incomplete", record);
    }
    cJSON_Delete(r);
    return ok;
}

/* per_byte from KAT_2_23 (1 MiB messages), per_call from what KAT_2_12's
 * 4097 short calls took beyond that; KAT_2_12 alone: per_call 0 */
static void model(const kat_hash_timing *t12, const kat_hash_timing *t23, int have23, double *per_call,
                  double *per_byte)
{
    *per_byte = t12->hash_seconds / t12->bytes;
    *per_call = 0;
    if (have23) {
        *per_byte = t23->hash_seconds / t23->bytes;
        *per_call = (t12->hash_seconds - *per_byte * t12->bytes) / t12->calls;
        if (*per_call < 0)
            *per_call = 0;
    }
}

static void from_records(kat_hash_file f, const kat_hash_timing *t12, int have12, const kat_hash_timing *t23,
                         int have23, const char *dir, kat_hash_prediction *p)
{
    if (f == KAT_HASH_2_33 && have23) {
        p->seconds = 1024 * t23->work_seconds;
        p->mb_per_s = t23->bytes / t23->hash_seconds / 1e6;
        snprintf(p->source, sizeof p->source,
                 "%s/kat-2_23.json: its 3 x 1 MiB messages hashed at %.3g MB/s, the whole file in %.3g s, x 1024", dir,
                 p->mb_per_s, t23->work_seconds);
    } else if (f == KAT_HASH_LOOP && have12) {
        double per_call, per_byte;
        model(t12, t23, have23, &per_call, &per_byte);
        double call = per_call + LOOP_BYTES * per_byte;
        p->seconds = LOOP_CALLS * call;
        p->mb_per_s = LOOP_BYTES / call / 1e6;
        snprintf(p->source, sizeof p->source,
                 "%s/kat-2_12.json%s: %.3g us a call + %.3g ns a byte, %.3g us a 1 KiB call, x 10^6", dir,
                 have23 ? " and kat-2_23.json" : "", per_call * 1e6, per_byte * 1e9, call * 1e6);
    }
}

static void from_probe(kat_hash_file f, const char *lib, double timeout, const char *missing, kat_hash_prediction *p)
{
    kat_hash_probe_result r;
    char why[400];
    if (kat_hash_probe(lib, timeout, &r, why, sizeof why)) {
        snprintf(p->source, sizeof p->source, "no prediction: %.300s, and %.300s", missing, why);
        return;
    }
    p->from_probe = 1;
    double per_small = r.small_seconds / r.small_calls, per_byte = r.bulk_seconds / (r.bulk_calls * r.bulk_bytes);
    if (f == KAT_HASH_2_33) {
        double drng = GIB * r.drng_seconds / r.drng_bytes;
        p->seconds = 3 * GIB * per_byte + drng;
        p->mb_per_s = 1 / per_byte / 1e6;
        snprintf(
            p->source, sizeof p->source,
            "a speed probe (%.300s): %.0f-byte messages at %.3g MB/s, 3 GiB of them + %.3g s for the 1 GiB DRNG draw",
            missing, r.bulk_bytes, p->mb_per_s, drng);
    } else {
        p->seconds = LOOP_CALLS * per_small;
        p->mb_per_s = LOOP_BYTES / per_small / 1e6;
        snprintf(p->source, sizeof p->source, "a speed probe (%.300s): %.3g us a 1 KiB call, x 10^6", missing,
                 per_small * 1e6);
    }
}

int kat_hash_call_model(const char *records_dir, const char *lib, double *per_call, double *per_byte, char *source,
                        size_t source_cap)
{
    char sha[65] = "", path[4096], why[600] = "";
    kat_hash_timing t12, t23;
    if (ngcc_sha256_file(lib, sha) != 0) {
        snprintf(source, source_cap, "cannot read %s", lib);
        return 0;
    }
    snprintf(path, sizeof path, "%s/kat-2_12.json", records_dir);
    if (!kat_hash_timing_load(path, sha, &t12, why, sizeof why)) {
        snprintf(source, source_cap, "%s", why);
        return 0;
    }
    snprintf(path, sizeof path, "%s/kat-2_23.json", records_dir);
    int have23 = kat_hash_timing_load(path, sha, &t23, why, sizeof why);
    model(&t12, &t23, have23, per_call, per_byte);
    snprintf(source, source_cap, "%.400s/kat-2_12.json%s: %.3g us a call + %.3g ns a byte", records_dir,
             have23 ? " and kat-2_23.json" : "", *per_call * 1e6, *per_byte * 1e9);
    return 1;
}

void kat_hash_predict(kat_hash_file f, const char *lib, const char *records_dir, double probe_timeout,
                      kat_hash_prediction *p)
{
    memset(p, 0, sizeof *p);
    p->seconds = -1;
    char sha[65] = "", path[4096], why12[600] = "", why23[600] = "";
    kat_hash_timing t12, t23;
    int have12 = 0, have23 = 0;
    if (records_dir && ngcc_sha256_file(lib, sha) == 0) {
        snprintf(path, sizeof path, "%s/kat-2_12.json", records_dir);
        have12 = kat_hash_timing_load(path, sha, &t12, why12, sizeof why12);
        snprintf(path, sizeof path, "%s/kat-2_23.json", records_dir);
        have23 = kat_hash_timing_load(path, sha, &t23, why23, sizeof why23);
    }
    from_records(f, &t12, have12, &t23, have23, records_dir, p);
    if (p->seconds >= 0)
        return;
    char missing[700];
    snprintf(missing, sizeof missing, "%s", f == KAT_HASH_2_33 ? why23 : why12);
    if (!missing[0])
        snprintf(missing, sizeof missing, "no KAT records given");
    from_probe(f, lib, probe_timeout > PROBE_WARN_S ? PROBE_WARN_S : probe_timeout, missing, p);
}
