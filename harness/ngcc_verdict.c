#include "ngcc_verdict.h"
#include <string.h>

static const char *const names[NGCC_VERDICT_COUNT] = {
    "PASS",     "RECORDED", "NOBASELINE", "FINDING",    "SKIP",     "REGRESSION", "NOKAT",
    "MISMATCH", "LEAK",     "MALLEABLE",  "CRYPTOFAIL", "OVERFLOW", "UNDEFINED",  "TIMEOUT",
    "CRASH",    "MEMLIMIT", "LOADFAIL",   "BUILDFAIL",  "ERROR",
};

const char *ngcc_verdict_name(ngcc_verdict v)
{
    return (v >= 0 && v < NGCC_VERDICT_COUNT) ? names[v] : "ERROR";
}

int ngcc_verdict_parse(const char *name)
{
    for (int i = 0; i < NGCC_VERDICT_COUNT; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

int ngcc_verdict_passing(int v)
{
    return v == NGCC_PASS || v == NGCC_RECORDED || v == NGCC_NOBASELINE || v == NGCC_FINDING;
}

ngcc_verdict ngcc_verdict_worst(ngcc_verdict a, ngcc_verdict b)
{
    return a > b ? a : b;
}
