#include "perf_verdict.h"

#include <string.h>

const char *perf_verdict_name(int v)
{
    return v == PERF_REGRESSION ? "REGRESSION" : ngcc_verdict_name((ngcc_verdict)v);
}

int perf_verdict_parse(const char *name)
{
    if (name && strcmp(name, "REGRESSION") == 0)
        return PERF_REGRESSION;
    return ngcc_verdict_parse(name);
}

static int rank(int v)
{
    if (v == NGCC_PASS)
        return 0;
    if (v == PERF_REGRESSION)
        return 1;
    return 2 + v;
}

int perf_verdict_worst(int a, int b)
{
    return rank(a) >= rank(b) ? a : b;
}
