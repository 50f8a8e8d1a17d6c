#include "mem_rss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    size_t n = strlen(field);
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':') {
            v = strtol(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

long mem_rss_kb(void)
{
    return status_kb("VmRSS");
}

long mem_hwm_kb(void)
{
    return status_kb("VmHWM");
}

int mem_hwm_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    int ok = fputs("5", f) >= 0;
    ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}
