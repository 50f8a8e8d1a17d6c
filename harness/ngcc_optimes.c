/* ngcc-ctest: the kat test's measured operation times (ngcc_optimes.h). */
#include "ngcc_optimes.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ngcc_record.h"

int ngcc_optimes_load(const char *record_out, ngcc_optimes *t)
{
    memset(t, 0, sizeof *t);
    ngcc_record_sibling(record_out, "kat.json", t->path, sizeof t->path);
    if (access(t->path, R_OK) != 0)
        return -1; /* the kat test has not run (or not for this instance) */
    cJSON *r = ngcc_record_load(t->path);
    const cJSON *ops = cJSON_GetObjectItem(r, "op_seconds");
    const cJSON *v = cJSON_GetObjectItem(r, "verdict");
    snprintf(t->verdict, sizeof t->verdict, "%s", cJSON_IsString(v) ? v->valuestring : "");
    t->records_run = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "records_run"));
    const cJSON *e;
    cJSON_ArrayForEach(e, ops)
    {
        if (t->nops == NGCC_OPTIMES_MAX || !e->string)
            break;
        snprintf(t->op[t->nops], sizeof t->op[0], "%s", e->string);
        t->median[t->nops] = cJSON_GetNumberValue(cJSON_GetObjectItem(e, "median"));
        t->max[t->nops] = cJSON_GetNumberValue(cJSON_GetObjectItem(e, "max"));
        t->nops++;
    }
    cJSON_Delete(r);
    t->found = t->nops > 0;
    return t->found ? 0 : -1;
}

double ngcc_optimes_get(const ngcc_optimes *t, const char *op, int use_max)
{
    for (int i = 0; i < t->nops; i++)
        if (strcmp(t->op[i], op) == 0)
            return use_max ? t->max[i] : t->median[i];
    return -1;
}
