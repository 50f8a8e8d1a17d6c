#include "perf_record.h"

#include "ngcc_util.h"

cJSON *perf_meta_json(const ngcc_meta *m)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", m->type);
    cJSON_AddStringToObject(o, "algorithm_instance", m->algorithm_instance);
    cJSON_AddStringToObject(o, "impl_variant", m->impl_variant);
    cJSON_AddStringToObject(o, "build_variant", m->build_variant);
    cJSON_AddStringToObject(o, "flagset", m->flagset);
    cJSON_AddStringToObject(o, "compiler", m->compiler);
    cJSON_AddStringToObject(o, "flags", m->flags);
    return o;
}

void perf_record_common(cJSON *rec, const char *lib, const char *system, const cJSON *meta)
{
    cJSON_AddStringToObject(rec, "library", lib ? lib : "");
    char sha[65] = "";
    if (lib && ngcc_sha256_file(lib, sha) == 0)
        cJSON_AddStringToObject(rec, "library_sha256", sha);
    else
        cJSON_AddNullToObject(rec, "library_sha256");
    cJSON_AddStringToObject(rec, "system", system ? system : "");
    cJSON_AddItemToObject(rec, "meta", meta ? cJSON_Duplicate(meta, 1) : cJSON_CreateObject());
}
