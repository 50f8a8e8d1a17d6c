#include "ngcc_resume.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_util.h"

cJSON *ngcc_inputs_new(int argc, char **argv)
{
    cJSON *in = cJSON_CreateObject();
    cJSON *a = cJSON_AddArrayToObject(in, "argv");
    for (int i = 1; i < argc; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(argv[i]));
    return in;
}

void ngcc_inputs_add_file(cJSON *inputs, const char *key, const char *path)
{
    char sha[65];
    if (!path || !*path || ngcc_sha256_file(path, sha) != 0)
        snprintf(sha, sizeof sha, "absent");
    cJSON_AddStringToObject(inputs, key, sha);
}

void ngcc_inputs_add_str(cJSON *inputs, const char *key, const char *value)
{
    cJSON_AddStringToObject(inputs, key, value ? value : "");
}

void ngcc_inputs_add_member(cJSON *inputs, const char *key, const cJSON *record, const char *member)
{
    const cJSON *m = record ? cJSON_GetObjectItem(record, member) : NULL;
    char sha[65];
    if (m)
        ngcc_inputs_fingerprint(m, sha);
    else
        snprintf(sha, sizeof sha, "%s", record ? "none" : "absent");
    ngcc_inputs_add_str(inputs, key, sha);
}

void ngcc_inputs_fingerprint(const cJSON *inputs, char out[65])
{
    char *text = cJSON_PrintUnformatted(inputs);
    unsigned char md[32];
    unsigned int mdlen = 0;
    EVP_Digest(text ? text : "", text ? strlen(text) : 0, md, &mdlen, EVP_sha256(), NULL);
    free(text);
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

int ngcc_resume_requested(void)
{
    const char *e = getenv("NGCC_RESUME");
    return e && (!strcmp(e, "1") || !strcmp(e, "yes") || !strcmp(e, "on") || !strcmp(e, "ON"));
}

static int has_string(const cJSON *r, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(r, key);
    return cJSON_IsString(v) && v->valuestring[0];
}

cJSON *ngcc_resume_load(const char *record_path, const char *fingerprint)
{
    size_t len;
    char *text = ngcc_read_file(record_path, &len);
    cJSON *r = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    if (!r)
        return NULL; /* none yet (or unreadable): run */
    const cJSON *fp = cJSON_GetObjectItem(r, "fingerprint");
    int ok = cJSON_IsNumber(cJSON_GetObjectItem(r, "schema")) && has_string(r, "verdict") && has_string(r, "end_utc") &&
             cJSON_IsString(fp) && strcmp(fp->valuestring, fingerprint) == 0;
    if (!ok) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

void ngcc_resume_stamp(cJSON *record, const cJSON *inputs, const char *fingerprint)
{
    cJSON_AddItemToObject(record, "inputs", cJSON_Duplicate(inputs, 1));
    cJSON_AddStringToObject(record, "fingerprint", fingerprint);
}
