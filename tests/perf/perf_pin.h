/* ngcc-perf: the CPU a measurement runs on. On shared VMs the vCPUs can
 * differ in speed for minutes at a time (the host runs something else on
 * the same physical core): here one vCPU was measured 1.54 x slower than the
 * other, and a run's median followed whichever one the scheduler picked.
 * "fastest" probes every CPU the process may use with a short fixed
 * workload and pins to the fastest; the record keeps the probe figures. */
#ifndef PERF_PIN_H
#define PERF_PIN_H
#include <stddef.h>

#include <cjson/cJSON.h>

#define PERF_PIN_MAX 64

typedef struct {
    char policy[32]; /* none | fastest | <cpu number> */
    int cpu;         /* pinned CPU, -1 when not pinned */
    int n;           /* CPUs probed */
    int cpus[PERF_PIN_MAX];
    double probe_ns[PERF_PIN_MAX]; /* best of 3 probe runs on each */
} perf_pin_info;

/* pins the calling thread per policy; 0, or -1 with a reason in err */
int perf_pin(const char *policy, perf_pin_info *info, char *err, size_t errlen);
/* {"policy", "cpu", "probe_ns": {"<cpu>": ns, ...}, "probe"} */
cJSON *perf_pin_json(const perf_pin_info *info);

#endif
