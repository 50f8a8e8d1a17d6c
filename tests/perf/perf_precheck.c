#include "perf_precheck.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_verdict.h"

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

int perf_precheck(ngcc_frame *f, const perf_args *a, perf_kat_status *k)
{
    memset(k, 0, sizeof *k);
    if (ngcc_frame_check_build(f))
        return 1;
    if (!a->kat_record)
        return 0;
    read_kat(a->kat_record, k);
    if (strcmp(k->kat_verdict, "PASS") == 0)
        return 0;
    if (a->time_anyway) {
        k->timed_anyway = 1;
        return 0;
    }
    int v = ngcc_verdict_parse(k->kat_verdict);
    ngcc_frame_set(f, v > 0 && !ngcc_verdict_passing(v) ? v : NGCC_ERROR,
                   "not measured: the KAT verdict is %s (%s); fix the instance, or configure with "
                   "-DNGCC_TIME_ANYWAY=ON to measure it anyway",
                   k->kat_verdict, strcmp(k->kat_verdict, "NONE") ? a->kat_record : "no readable KAT record");
    return 1;
}
