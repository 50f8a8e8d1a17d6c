/* ngcc-ctest: the memory of a hang (ngcc_hang.h). */
#include "ngcc_hang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ngcc_record.h"
#include "ngcc_util.h"

static void marker_path(const char *record_out, char *out, size_t len)
{
    ngcc_record_sibling(record_out, "hung.json", out, len);
}

void ngcc_hang_note(const char *record_out, const char *label, const char *test, const char *call, double seconds,
                    const char *detail, const char *lib)
{
    if (!record_out)
        return;
    char path[1100], sha[65] = "";
    marker_path(record_out, path, sizeof path);
    if (lib)
        ngcc_sha256_file(lib, sha);
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "label", label);
    cJSON_AddStringToObject(m, "test", test);
    cJSON_AddStringToObject(m, "call", call ? call : "");
    cJSON_AddNumberToObject(m, "seconds", seconds);
    cJSON_AddStringToObject(m, "detail", detail);
    cJSON_AddStringToObject(m, "library", lib ? lib : "");
    cJSON_AddStringToObject(m, "library_sha256", sha);
    char *text = cJSON_Print(m);
    if (text)
        ngcc_write_atomic(path, text, strlen(text));
    free(text);
    cJSON_Delete(m);
}

static cJSON *marker_load(const char *record_out, char *path, size_t len)
{
    if (!record_out)
        return NULL;
    marker_path(record_out, path, len);
    return access(path, R_OK) == 0 ? ngcc_record_load(path) : NULL;
}

static const char *str(const cJSON *m, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(m, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

void ngcc_hang_clear(const char *record_out, const char *label)
{
    char path[1100];
    cJSON *m = marker_load(record_out, path, sizeof path);
    if (m && strcmp(str(m, "label"), label) == 0)
        unlink(path);
    cJSON_Delete(m);
}

int ngcc_hang_seen(const char *record_out, const char *label, char *why, size_t len)
{
    const char *retry = getenv("NGCC_RETRY_HUNG");
    if (retry && strcmp(retry, "1") == 0)
        return 0;
    char path[1100], sha[65] = "";
    cJSON *m = marker_load(record_out, path, sizeof path);
    if (!m)
        return 0;
    /* the library that hung (the plain one: other labels load their own
     * builds of the same sources) must be unchanged: rebuilt since, run */
    int seen = strcmp(str(m, "label"), label) != 0;
    if (seen && ngcc_sha256_file(str(m, "library"), sha) == 0)
        seen = strcmp(sha, str(m, "library_sha256")) == 0;
    if (seen) {
        const char *call = str(m, "call");
        snprintf(why, len,
                 "not run: %s hung%s%s after %.0f s (TIMEOUT: %.600s); a hang in the honest flow recurs here, so "
                 "not run again (%s; rerun with NGCC_RETRY_HUNG=1 to try anyway)",
                 str(m, "test"), call[0] ? " in " : "", call, cJSON_GetNumberValue(cJSON_GetObjectItem(m, "seconds")),
                 str(m, "detail"), path);
    }
    cJSON_Delete(m);
    return seen;
}
