#define _GNU_SOURCE
#include "perf_args.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf_verdict.h"

/* a number option; -1 (message printed) if it is not a number in [lo, hi] */
static int number(const char *opt, const char *text, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || v < lo || v > hi) {
        fprintf(stderr, "ngcc: --%s %s: expected a number in [%g, %g]\n", opt, text, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* The measuring child runs in its own scratch folder (ngcc_child.h): a
 * relative path given on the command line is made absolute first. */
static void absolute(const char **path)
{
    if (!*path || (*path)[0] == '/' || !(*path)[0])
        return;
    char cwd[PATH_MAX];
    char *abs = NULL;
    if (getcwd(cwd, sizeof cwd) && asprintf(&abs, "%s/%s", cwd, *path) > 0)
        *path = abs; /* lives as long as the process */
}

static void defaults(perf_args *a)
{
    memset(a, 0, sizeof *a);
    a->tolerance = 0.05;
    a->rss_tolerance = 0.25;
    a->expect = NGCC_PASS;
    a->stack_mb = 32;
    a->m.counter = "auto";
    a->m.pin = "fastest";
    a->m.budget_s = 2;
    a->m.warmup_s = 0.2;
    a->m.one_shot_s = 10;
    a->m.trials = 21;
    a->m.iter_min = 1;
    a->m.iter_max = 1000;
    a->m.records = 10;
}

static const struct option long_opts[] = {
    {"lib", 1, 0, 'l'}, {"name", 1, 0, 'n'}, {"op", 1, 0, 'o'}, {"record-out", 1, 0, 'O'},
    {"build-record", 1, 0, 'b'}, {"kat-record", 1, 0, 'k'}, {"log", 1, 0, 'L'},
    {"thresholds", 1, 0, 'T'}, {"baseline-key", 1, 0, 'K'}, {"system", 1, 0, 's'},
    {"time-anyway", 0, 0, 'A'}, {"tolerance", 1, 0, 'x'}, {"timeout", 1, 0, 't'},
    {"mem-limit-mb", 1, 0, 'M'}, {"expect", 1, 0, 'e'}, {"stack-mb", 1, 0, 'S'},
    {"counter", 1, 0, 'c'}, {"budget-s", 1, 0, 'B'}, {"warmup-s", 1, 0, 'W'},
    {"one-shot-s", 1, 0, '1'}, {"trials", 1, 0, 'r'}, {"iter-min", 1, 0, 'i'},
    {"iter-max", 1, 0, 'I'}, {"records", 1, 0, 'R'}, {"pin", 1, 0, 'P'}, {"rss-tolerance", 1, 0, 'Q'},
    {0, 0, 0, 0}};

static int one(perf_args *a, int c, const char *v)
{
    double d = 0;
    int rc = 0;
    switch (c) {
    case 'l': a->lib = v; break;
    case 'n': a->name = v; break;
    case 'o': a->op = v; break;
    case 'O': a->record_out = v; break;
    case 'b': a->build_record = v; break;
    case 'k': a->kat_record = v; break;
    case 'L': a->log = v; break;
    case 'T': a->thresholds = v; break;
    case 'K': a->baseline_key = v[0] ? v : NULL; break;
    case 's': a->system = v; break;
    case 'A': a->time_anyway = 1; break;
    case 'c': a->m.counter = v; break;
    case 'P': a->m.pin = v; break;
    case 'x': rc = number("tolerance", v, 0, 100, &a->tolerance); break;
    case 'Q': rc = number("rss-tolerance", v, 0, 100, &a->rss_tolerance); break;
    case 't': rc = number("timeout", v, 0, 1e7, &a->timeout); break;
    case 'M': rc = number("mem-limit-mb", v, 0, 1e9, &d); a->mem_mb = (unsigned long)d; break;
    case 'S': rc = number("stack-mb", v, 1, 65536, &a->stack_mb); break;
    case 'B': rc = number("budget-s", v, 0.001, 1e6, &a->m.budget_s); break;
    case 'W': rc = number("warmup-s", v, 0, 1e6, &a->m.warmup_s); break;
    case '1': rc = number("one-shot-s", v, 0, 1e7, &a->m.one_shot_s); break;
    case 'r': rc = number("trials", v, 1, 1e6, &d); a->m.trials = (int)d; break;
    case 'i': rc = number("iter-min", v, 1, 1e9, &d); a->m.iter_min = (int)d; break;
    case 'I': rc = number("iter-max", v, 1, 1e9, &d); a->m.iter_max = (int)d; break;
    case 'R': rc = number("records", v, 1, 10, &d); a->m.records = (int)d; break;
    case 'e':
        a->expect = perf_verdict_parse(v);
        if (a->expect < 0) {
            fprintf(stderr, "ngcc: --expect %s: unknown verdict (PASS, REGRESSION, CRASH, ...)\n", v);
            rc = -1;
        }
        break;
    default: rc = -1;
    }
    return rc;
}

int perf_args_parse(perf_args *a, int argc, char **argv, const char *usage)
{
    defaults(a);
    int c;
    while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
        if (one(a, c, optarg)) {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ngcc: unexpected argument '%s'\n%s", argv[optind], usage);
        return 2;
    }
    if (a->m.iter_min > a->m.iter_max) {
        fprintf(stderr, "ngcc: --iter-min %d is above --iter-max %d\n%s", a->m.iter_min, a->m.iter_max, usage);
        return 2;
    }
    absolute(&a->lib);
    absolute(&a->log);
    a->m.lib = a->lib;
    a->m.op = a->op;
    return 0;
}

const char *perf_args_key(const perf_args *a)
{
    return a->baseline_key ? a->baseline_key : a->name;
}
