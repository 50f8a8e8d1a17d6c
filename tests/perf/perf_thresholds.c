#include "perf_thresholds.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_util.h"

/* a baseline frequency this close counts as the same clock */
#define SAME_FREQ_REL 0.005

int perf_thresholds_load(const char *path, const char *system, cJSON **root, char *err, size_t errlen)
{
    *root = NULL;
    if (!path || !path[0])
        return 0;
    size_t len;
    char *text = ngcc_read_file(path, &len);
    if (!text) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen,
                 "%s: cannot read the thresholds file (%s); fix its permissions or point "
                 "NGCC_PERF_THRESHOLDS elsewhere",
                 path, strerror(errno));
        return -1;
    }
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *inst = cJSON_GetObjectItemCaseSensitive(j, "instances");
    if (!j || !cJSON_IsObject(inst)) {
        snprintf(err, errlen,
                 "%s: not a thresholds file (malformed JSON or no \"instances\" object); "
                 "regenerate it with ngcc-baseline",
                 path);
        cJSON_Delete(j);
        return -1;
    }
    const cJSON *sys = cJSON_GetObjectItemCaseSensitive(j, "system");
    if (system && system[0] && (!cJSON_IsString(sys) || strcmp(sys->valuestring, system) != 0)) {
        snprintf(err, errlen,
                 "%s: thresholds of system \"%s\", but this run is system \"%s\"; set NGCC_SYSTEM "
                 "or NGCC_PERF_THRESHOLDS to match",
                 path, cJSON_IsString(sys) ? sys->valuestring : "?", system);
        cJSON_Delete(j);
        return -1;
    }
    *root = j;
    return 0;
}

const cJSON *perf_thresholds_entry(const cJSON *root, const char *key, const char *name)
{
    const cJSON *inst = cJSON_GetObjectItemCaseSensitive(root, "instances");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(inst, key), name);
    return cJSON_IsObject(e) ? e : NULL;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void finish(perf_gate *g, const cJSON *entry, double run_tolerance)
{
    double t = num(entry, "tolerance");
    g->tolerance = isnan(t) ? run_tolerance : t;
    g->limit = g->baseline * (1 + g->tolerance);
    g->have = 1;
}

void perf_gate_timing(const cJSON *entry, const char *counter, int counts_cycles, double freq_hz, double median_ticks,
                      double run_tolerance, perf_gate *g)
{
    memset(g, 0, sizeof *g);
    g->value = median_ticks;
    snprintf(g->unit, sizeof g->unit, "ticks");
    if (!entry) {
        snprintf(g->note, sizeof g->note, "no baseline");
        return;
    }
    const cJSON *bc = cJSON_GetObjectItemCaseSensitive(entry, "counter");
    const char *bname = cJSON_IsString(bc) ? bc->valuestring : "?";
    double bmed = num(entry, "median"), bns = num(entry, "median_ns"), bf = num(entry, "freq_hz");
    int same = strcmp(bname, counter) == 0;
    if (same && !isnan(bmed) && (counts_cycles || (!isnan(bf) && fabs(bf - freq_hz) <= SAME_FREQ_REL * bf))) {
        g->baseline = bmed;
        g->value = median_ticks;
        snprintf(g->unit, sizeof g->unit, "ticks");
    } else if (!counts_cycles && !isnan(bns) && freq_hz > 0 && strncmp(bname, "perf_event:cycles", 17) != 0) {
        g->baseline = bns;
        g->value = median_ticks * 1e9 / freq_hz;
        snprintf(g->unit, sizeof g->unit, "ns");
        snprintf(g->note, sizeof g->note, "compared in ns: baseline %s at %.6g Hz, this run %s at %.6g Hz", bname, bf,
                 counter, freq_hz);
    } else {
        snprintf(g->note, sizeof g->note, "no baseline comparable with %s at %.6g Hz (baseline: %s at %.6g Hz)",
                 counter, freq_hz, bname, bf);
        return;
    }
    finish(g, entry, run_tolerance);
}

void perf_gate_value(const cJSON *entry, const char *field, const char *unit, double value, double run_tolerance,
                     perf_gate *g)
{
    memset(g, 0, sizeof *g);
    g->value = value;
    snprintf(g->unit, sizeof g->unit, "%s", unit);
    double b = num(entry, field);
    if (!entry || isnan(b)) {
        snprintf(g->note, sizeof g->note, "no baseline");
        return;
    }
    g->baseline = b;
    finish(g, entry, run_tolerance);
}

int perf_gate_exceeded(const perf_gate *g)
{
    return g->have && g->value > g->limit;
}

void perf_gate_text(const perf_gate *g, const char *what, char *out, size_t len)
{
    if (!g->have) {
        snprintf(out, len, "%s %.0f %s, %s", what, g->value, g->unit, g->note);
        return;
    }
    double rel = g->baseline > 0 ? 100.0 * (g->value / g->baseline - 1) : 0;
    snprintf(out, len, "%s %.0f %s %s limit %.0f = baseline %.0f x %.3f (%+.1f%% vs baseline)%s%s", what, g->value,
             g->unit, perf_gate_exceeded(g) ? ">" : "<=", g->limit, g->baseline, 1 + g->tolerance, rel,
             g->note[0] ? "; " : "", g->note);
}

cJSON *perf_gate_json(const perf_gate *g, const char *name)
{
    if (!g->have)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, name, g->baseline);
    cJSON_AddNumberToObject(o, "tolerance", g->tolerance);
    cJSON_AddNumberToObject(o, "limit", g->limit);
    cJSON_AddStringToObject(o, "unit", g->unit);
    cJSON_AddBoolToObject(o, "exceeded", perf_gate_exceeded(g));
    if (g->note[0])
        cJSON_AddStringToObject(o, "note", g->note);
    return o;
}
