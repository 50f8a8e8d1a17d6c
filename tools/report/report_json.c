#include "report_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const cJSON *rj_get(const cJSON *obj, const char *path)
{
    char key[128];
    const cJSON *cur = obj;
    while (cur && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof key || !cJSON_IsObject(cur))
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        cur = cJSON_GetObjectItemCaseSensitive(cur, key);
        path += n + (dot ? 1 : 0);
    }
    return cur;
}

int rj_num(const cJSON *obj, const char *path, double *out)
{
    const cJSON *it = rj_get(obj, path);
    if (cJSON_IsNumber(it)) {
        *out = it->valuedouble;
        return !isnan(*out) && !isinf(*out);
    }
    if (cJSON_IsString(it) && it->valuestring[0]) {
        char *end;
        double v = strtod(it->valuestring, &end);
        if (*end == 0 && !isnan(v) && !isinf(v)) {
            *out = v;
            return 1;
        }
    }
    return 0;
}

const char *rj_str(const cJSON *obj, const char *path)
{
    const cJSON *it = rj_get(obj, path);
    return cJSON_IsString(it) && it->valuestring[0] ? it->valuestring : NULL;
}

int rj_bool(const cJSON *obj, const char *path, int *out)
{
    const cJSON *it = rj_get(obj, path);
    if (!cJSON_IsBool(it))
        return 0;
    *out = cJSON_IsTrue(it);
    return 1;
}

double rj_numnan(const cJSON *obj, const char *path)
{
    double v;
    return rj_num(obj, path, &v) ? v : NAN;
}
