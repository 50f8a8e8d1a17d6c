#include "report_sysview.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_json.h"

/* the first present string among the paths */
static const char *first_str(const cJSON *j, const char *const *paths)
{
    for (; *paths; paths++) {
        const char *s = rj_str(j, *paths);
        if (s)
            return s;
    }
    return NULL;
}

static double first_num(const cJSON *j, const char *const *paths)
{
    double v;
    for (; *paths; paths++)
        if (rj_num(j, *paths, &v))
            return v;
    return NAN;
}

/* the perf label's record has the cpufreq files, not a verdict on them */
static void compose_how(const cJSON *j, rs_sysview *v)
{
    const char *gov = rj_str(j, "clock.cpufreq_governor"), *boost = rj_str(j, "clock.boost");
    const char *src = rj_str(j, "clock.clocksource");
    double maxk = rj_numnan(j, "clock.cpufreq_max_khz");
    if (!gov && !src)
        return;
    if (gov)
        snprintf(v->how_buf, sizeof v->how_buf, "cpufreq governor %s, max %.2f GHz, boost %s%s%s", gov, maxk / 1e6,
                 boost ? (strcmp(boost, "0") ? "on" : "off") : "unknown", src ? "; clocksource " : "", src ? src : "");
    else
        snprintf(v->how_buf, sizeof v->how_buf,
                 "no cpufreq interface (virtual machine or firmware-controlled clock)"
                 "; clocksource %s",
                 src);
    v->how = v->how_buf;
}

void rs_sysview_read(const cJSON *j, rs_sysview *v)
{
    static const char *const model[] = {"cpu.model", NULL}, *const arch[] = {"cpu.arch", "os.machine", NULL},
                             *const os[] = {"os.name", NULL}, *const kernel[] = {"os.kernel", NULL},
                             *const comp[] = {"compiler", NULL}, *const cmake[] = {"cmake_version", NULL},
                             *const ctr[] = {"counter.name", "clock.counter.name", "counter", NULL},
                             *const how[] = {"clock.how", NULL};
    static const char *const cores[] = {"cpu.cores", "cpu.logical_cores", NULL}, *const online[] = {"cpu.online", NULL},
                             *const mhz[] = {"cpu.mhz", "cpu.mhz_reported", NULL},
                             *const mem[] = {"memory.total_kb", "memory_kb", NULL},
                             *const freq[] = {"counter.freq_hz", "clock.counter.freq_hz", NULL},
                             *const over[] = {"counter.overhead_ticks", "clock.counter.overhead_ticks", NULL},
                             *const res[] = {"counter.resolution_ticks", "clock.counter.resolution_ticks", NULL};
    memset(v, 0, sizeof *v);
    v->model = first_str(j, model);
    v->arch = first_str(j, arch);
    v->os = first_str(j, os);
    v->kernel = first_str(j, kernel);
    v->compiler = first_str(j, comp);
    v->cmake = first_str(j, cmake);
    v->counter = first_str(j, ctr);
    v->how = first_str(j, how);
    v->cores = first_num(j, cores);
    v->online = first_num(j, online);
    v->mhz = first_num(j, mhz);
    v->mem_kb = first_num(j, mem);
    v->ctr_freq = first_num(j, freq);
    v->ctr_overhead = first_num(j, over);
    v->ctr_resolution = first_num(j, res);
    const char *impl = rj_str(j, "cpu.implementer"), *part = rj_str(j, "cpu.part");
    if (!v->model && impl) { /* AArch64 /proc/cpuinfo has no model name */
        snprintf(v->model_buf, sizeof v->model_buf, "CPU implementer %s, part %s", impl, part ? part : "?");
        v->model = v->model_buf;
    }
    int b;
    v->fixed = j && rj_bool(j, "clock.fixed", &b) ? b : -1;
    if (j && !v->how)
        compose_how(j, v);
}
