/* ngcc-report: one view of a system.json record (written only by
 * tools/report/ngcc_system_info.c, one layout): the page code reads these
 * fields, and every one may be absent. */
#ifndef REPORT_SYSVIEW_H
#define REPORT_SYSVIEW_H
#include <cjson/cJSON.h>

typedef struct {
    const char *model, *arch, *os, *kernel, *compiler, *cmake, *counter, *how;
    double cores, online, mhz, mem_kb, ctr_freq, ctr_overhead, ctr_resolution; /* NaN: absent */
    int fixed;                                                                 /* 1 fixed, 0 not fixed, -1 unknown */
} rs_sysview;

/* fills v from a system record (NULL: everything absent) */
void rs_sysview_read(const cJSON *sys, rs_sysview *v);

#endif
