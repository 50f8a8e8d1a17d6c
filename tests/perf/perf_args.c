#define _GNU_SOURCE
#include "perf_args.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_resume.h"

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
    a->ab_tolerance = 0.03;
    a->ab_confidence = 0.95;
    a->ab_resamples = 2000;
}

/* the perf label's own options (the common ones are the frame's) */
static const struct option long_opts[] = {{"kat-record", 1, 0, 'k'},    {"thresholds", 1, 0, 'T'},
                                          {"baseline-key", 1, 0, 'K'},  {"system", 1, 0, 's'},
                                          {"time-anyway", 0, 0, 'A'},   {"tolerance", 1, 0, 'x'},
                                          {"stack-mb", 1, 0, 'S'},      {"counter", 1, 0, 'c'},
                                          {"budget-s", 1, 0, 'B'},      {"warmup-s", 1, 0, 'W'},
                                          {"one-shot-s", 1, 0, '1'},    {"trials", 1, 0, 'r'},
                                          {"iter-min", 1, 0, 'i'},      {"iter-max", 1, 0, 'I'},
                                          {"records", 1, 0, 'R'},       {"pin", 1, 0, 'P'},
                                          {"rss-tolerance", 1, 0, 'Q'}, {"ref-lib", 1, 0, 'L'},
                                          {"ref-name", 1, 0, 'N'},      {"ref-kat-record", 1, 0, 'j'},
                                          {"ref-error", 1, 0, 'E'},     {"ab-tolerance", 1, 0, 't'},
                                          {"ab-confidence", 1, 0, 'C'}, {"ab-resamples", 1, 0, 'b'},
                                          {"build-dir", 1, 0, 'D'},     {0, 0, 0, 0}};

#define number(opt, text, lo, hi, out) ngcc_frame_number(f, opt, text, lo, hi, out)

static int one(ngcc_frame *f, int c, const char *v)
{
    perf_args *a = f->spec->user;
    double d = 0;
    int rc = 0;
    switch (c) {
    case 'k':
        a->kat_record = v;
        break;
    case 'T':
        a->thresholds = v;
        break;
    case 'K':
        a->baseline_key = v[0] ? v : NULL;
        break;
    case 's':
        a->system = v;
        break;
    case 'A':
        a->time_anyway = 1;
        break;
    case 'c':
        a->m.counter = v;
        break;
    case 'P':
        a->m.pin = v;
        break;
    case 'x':
        rc = number("tolerance", v, 0, 100, &a->tolerance);
        break;
    case 'Q':
        rc = number("rss-tolerance", v, 0, 100, &a->rss_tolerance);
        break;
    case 'S':
        rc = number("stack-mb", v, 1, 65536, &a->stack_mb);
        break;
    case 'B':
        rc = number("budget-s", v, 0.001, 1e6, &a->m.budget_s);
        break;
    case 'W':
        rc = number("warmup-s", v, 0, 1e6, &a->m.warmup_s);
        break;
    case '1':
        rc = number("one-shot-s", v, 0, 1e7, &a->m.one_shot_s);
        break;
    case 'r':
        rc = number("trials", v, 1, 1e6, &d);
        a->m.trials = (int)d;
        break;
    case 'i':
        rc = number("iter-min", v, 1, 1e9, &d);
        a->m.iter_min = (int)d;
        break;
    case 'I':
        rc = number("iter-max", v, 1, 1e9, &d);
        a->m.iter_max = (int)d;
        break;
    case 'R':
        rc = number("records", v, 1, 10, &d);
        a->m.records = (int)d;
        break;
    case 'L':
        a->m.ref_lib = v;
        break;
    case 'N':
        a->ref_name = v;
        break;
    case 'j':
        a->ref_kat_record = v;
        break;
    case 'E':
        a->ref_error = v;
        break;
    case 'D':
        a->build_dir = v;
        break;
    case 't':
        rc = number("ab-tolerance", v, 0, 100, &a->ab_tolerance);
        break;
    case 'C':
        rc = number("ab-confidence", v, 0.5, 0.9999, &a->ab_confidence);
        break;
    case 'b':
        rc = number("ab-resamples", v, 100, 1e6, &d);
        a->ab_resamples = (int)d;
        break;
    default:
        rc = -1;
    }
    return rc;
}

/* a KAT record's verdict ("" when none is read): an input of the verdict */
static void kat_input(const char *path, const char *key, cJSON *inputs)
{
    const char *v = "";
    cJSON *r = path && access(path, R_OK) == 0 ? ngcc_record_load(path) : NULL;
    const cJSON *jv = cJSON_GetObjectItem(r, "verdict");
    if (cJSON_IsString(jv))
        v = jv->valuestring;
    ngcc_inputs_add_str(inputs, key, v);
    cJSON_Delete(r);
}

int perf_args_parse(perf_args *a, ngcc_frame *f, const char *label, const char *program, int with_op, const char *usage,
                    int argc, char **argv)
{
    static ngcc_frame_spec spec;
    defaults(a);
    spec = (ngcc_frame_spec){label, program, usage, long_opts, one, with_op ? NGCC_FRAME_OP : 0, a};
    int rc = ngcc_frame_parse(f, &spec, argc, argv);
    if (rc)
        return rc;
    if (a->m.iter_min > a->m.iter_max) {
        fprintf(stderr, "%s: --iter-min %d is above --iter-max %d\n%s", program, a->m.iter_min, a->m.iter_max, usage);
        ngcc_frame_free(f);
        return 2;
    }
    a->lib = f->lib;
    a->name = f->name;
    a->op = f->op;
    a->record_out = f->record_out;
    a->build_record = f->build_record;
    a->log = f->log;
    a->timeout = f->timeout;
    a->mem_mb = f->mem_mb;
    a->expect = f->expect;
    a->m.lib = a->lib;
    a->m.op = a->op;
    static char ref_abs[4096];
    if (a->m.ref_lib && realpath(a->m.ref_lib, ref_abs)) /* the child works in another folder */
        a->m.ref_lib = ref_abs;
    if (a->m.ref_lib && !a->ref_name)
        a->ref_name = a->m.ref_lib;
    ngcc_inputs_add_file(f->inputs, "thresholds_sha256", a->thresholds);
    if (a->m.ref_lib) /* a rebuilt reference is a changed input */
        ngcc_inputs_add_file(f->inputs, "ref_lib_sha256", a->m.ref_lib);
    ngcc_inputs_add_str(f->inputs, "system", a->system);
    kat_input(a->kat_record, "kat_verdict", f->inputs);
    if (a->ref_kat_record)
        kat_input(a->ref_kat_record, "ref_kat_verdict", f->inputs);
    return 0;
}

const char *perf_args_key(const perf_args *a)
{
    return a->baseline_key ? a->baseline_key : a->name;
}

const char *perf_args_baseline_command(const perf_args *a)
{
    static char cmd[1200];
    const char *b = a->build_dir ? a->build_dir : "<build>";
    snprintf(cmd, sizeof cmd, "ctest --test-dir %s -L perf && cmake --build %s --target perf-baseline", b, b);
    return cmd;
}
