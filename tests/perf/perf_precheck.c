#include "perf_precheck.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_verdict.h"

static int build_failed(const char *path, char *detail, size_t len)
{
    if (!path || access(path, R_OK) != 0)
        return 0;
    cJSON *b = ngcc_record_load(path);
    const cJSON *v = cJSON_GetObjectItem(b, "verdict");
    int failed = cJSON_IsString(v) && strcmp(v->valuestring, "BUILDFAIL") == 0;
    if (failed) {
        const cJSON *e = cJSON_GetObjectItem(b, "first_error");
        snprintf(detail, len, "the instance did not compile: %s", cJSON_IsString(e) ? e->valuestring : path);
    }
    cJSON_Delete(b);
    return failed;
}

static void read_kat(const char *path, perf_kat_status *k)
{
    snprintf(k->kat_verdict, sizeof k->kat_verdict, "NONE");
    if (access(path, R_OK) != 0)
        return;
    cJSON *r = ngcc_record_load(path);
    const cJSON *v = cJSON_GetObjectItem(r, "verdict");
    if (cJSON_IsString(v))
        snprintf(k->kat_verdict, sizeof k->kat_verdict, "%s", v->valuestring);
    cJSON_Delete(r);
}

int perf_precheck(const perf_args *a, perf_kat_status *k, char *detail, size_t len)
{
    memset(k, 0, sizeof *k);
    if (build_failed(a->build_record, detail, len))
        return NGCC_BUILDFAIL;
    if (access(a->lib, R_OK) != 0) {
        snprintf(detail, len, "%s: %s; run its build test first (ctest -L build)", a->lib, strerror(errno));
        return NGCC_LOADFAIL;
    }
    if (!a->kat_record)
        return -1;
    read_kat(a->kat_record, k);
    if (strcmp(k->kat_verdict, "PASS") == 0)
        return -1;
    if (a->time_anyway) {
        k->timed_anyway = 1;
        return -1;
    }
    int v = ngcc_verdict_parse(k->kat_verdict);
    snprintf(detail, len, "not measured: the KAT verdict is %s (%s); fix the instance, or configure with "
             "-DNGCC_TIME_ANYWAY=ON to measure it anyway", k->kat_verdict,
             strcmp(k->kat_verdict, "NONE") ? a->kat_record : "no readable KAT record");
    return v > 0 ? v : NGCC_ERROR;
}
