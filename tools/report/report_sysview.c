#include "report_sysview.h"

#include <math.h>
#include <string.h>

#include "report_json.h"

void rs_sysview_read(const cJSON *j, rs_sysview *v)
{
    memset(v, 0, sizeof *v);
    v->model = rj_str(j, "cpu.model");
    v->arch = rj_str(j, "cpu.arch");
    v->os = rj_str(j, "os.name");
    v->kernel = rj_str(j, "os.kernel");
    v->compiler = rj_str(j, "compiler");
    v->cmake = rj_str(j, "cmake_version");
    v->counter = rj_str(j, "counter.name");
    v->how = rj_str(j, "clock.how");
    v->cores = rj_numnan(j, "cpu.cores");
    v->online = rj_numnan(j, "cpu.online");
    v->mhz = rj_numnan(j, "cpu.mhz");
    v->mem_kb = rj_numnan(j, "memory.total_kb");
    v->ctr_freq = rj_numnan(j, "counter.freq_hz");
    v->ctr_overhead = rj_numnan(j, "counter.overhead_ticks");
    v->ctr_resolution = rj_numnan(j, "counter.resolution_ticks");
    int b;
    v->fixed = j && rj_bool(j, "clock.fixed", &b) ? b : -1;
}
