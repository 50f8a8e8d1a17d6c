#include "ngcc_record.h"
#include "ngcc_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *ngcc_record_new(const char *kind, const char *name)
{
    cJSON *r = cJSON_CreateObject();
    char now[32];
    ngcc_utc_now(now);
    cJSON_AddNumberToObject(r, "schema", NGCC_RECORD_SCHEMA);
    cJSON_AddStringToObject(r, "kind", kind);
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "start_utc", now);
    return r;
}

int ngcc_record_write(cJSON *rec, const char *path)
{
    char now[32];
    ngcc_utc_now(now);
    cJSON_DeleteItemFromObject(rec, "end_utc");
    cJSON_AddStringToObject(rec, "end_utc", now);
    char *text = cJSON_Print(rec);
    if (!text) {
        fprintf(stderr, "ngcc: cannot serialise record %s\n", path);
        return -1;
    }
    size_t n = strlen(text);
    char *withnl = realloc(text, n + 2);
    if (withnl) {
        text = withnl;
        text[n++] = '\n';
        text[n] = 0;
    }
    int rc = ngcc_write_atomic(path, text, n);
    if (rc)
        fprintf(stderr, "ngcc: cannot write record %s\n", path);
    free(text);
    return rc;
}

cJSON *ngcc_record_load(const char *path)
{
    size_t len;
    char *text = ngcc_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "ngcc: %s: cannot read record\n", path);
        return NULL;
    }
    cJSON *j = cJSON_ParseWithLength(text, len);
    if (!j)
        fprintf(stderr, "ngcc: %s: malformed JSON record\n", path);
    free(text);
    return j;
}

void ngcc_record_sibling(const char *record_out, const char *name, char *out, size_t len)
{
    const char *slash = record_out ? strrchr(record_out, '/') : NULL;
    if (slash)
        snprintf(out, len, "%.*s/%s", (int)(slash - record_out), record_out, name);
    else
        snprintf(out, len, "./%s", name);
}
