#define _GNU_SOURCE
#include "perf_pin.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auxfunc.h"
#include "ngcc_counter.h"

#define PROBE_CALLS 2000 /* about 0.5 ms of SM3 on a 2 GHz core */
#define PROBE_RUNS 3

static const char probe_text[] = "3 x 2000 sm3hash of 512 bits, best run";

static int pin_to(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    return sched_setaffinity(0, sizeof s, &s);
}

/* wall ns of the probe workload on the current CPU, best of PROBE_RUNS */
static double probe(void)
{
    unsigned char buf[64] = {0}, out[32];
    double best = 0;
    for (int r = 0; r < PROBE_RUNS; r++) {
        uint64_t t0 = ngcc_wall_ns();
        for (int i = 0; i < PROBE_CALLS; i++) {
            sm3hash(256, buf, 512, out);
            buf[i & 63] ^= out[0];
        }
        double t = (double)(ngcc_wall_ns() - t0);
        if (r == 0 || t < best)
            best = t;
    }
    return best;
}

static int pin_fastest(perf_pin_info *info, const cpu_set_t *allowed, char *err, size_t errlen)
{
    int best = -1;
    for (int c = 0; c < CPU_SETSIZE && info->n < PERF_PIN_MAX; c++) {
        if (!CPU_ISSET(c, allowed) || pin_to(c))
            continue;
        info->cpus[info->n] = c;
        info->probe_ns[info->n] = probe();
        if (best < 0 || info->probe_ns[info->n] < info->probe_ns[best])
            best = info->n;
        info->n++;
    }
    if (best < 0 || pin_to(info->cpus[best])) {
        snprintf(err, errlen, "cannot pin to any allowed CPU (%s)", strerror(errno));
        return -1;
    }
    info->cpu = info->cpus[best];
    return 0;
}

int perf_pin(const char *policy, perf_pin_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    info->cpu = -1;
    snprintf(info->policy, sizeof info->policy, "%s", policy ? policy : "none");
    if (!policy || !strcmp(policy, "none"))
        return 0;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed)) {
        snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
        return -1;
    }
    if (!strcmp(policy, "fastest"))
        return pin_fastest(info, &allowed, err, errlen);
    char *end;
    long c = strtol(policy, &end, 10);
    if (*end || end == policy || c < 0 || c >= CPU_SETSIZE || !CPU_ISSET((int)c, &allowed) || pin_to((int)c)) {
        snprintf(err, errlen, "--pin %s: not none, fastest or an allowed CPU number", policy);
        return -1;
    }
    info->cpu = (int)c;
    return 0;
}

cJSON *perf_pin_json(const perf_pin_info *info)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "policy", info->policy);
    cJSON_AddNumberToObject(o, "cpu", info->cpu);
    cJSON *p = cJSON_AddObjectToObject(o, "probe_ns");
    for (int i = 0; i < info->n; i++) {
        char k[16];
        snprintf(k, sizeof k, "%d", info->cpus[i]);
        cJSON_AddNumberToObject(p, k, info->probe_ns[i]);
    }
    cJSON_AddStringToObject(o, "probe", probe_text);
    return o;
}
