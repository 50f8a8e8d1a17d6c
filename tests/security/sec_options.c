#define _GNU_SOURCE
#include "sec_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_resume.h"

static const char usage[] =
    "usage: ngcc-security --lib <instance.so> --name <cand>/<inst> --record-out <file.json>\n"
    "       [--build-record <json>] [--log-dir <dir>] [--timeout S] [--call-timeout S]\n"
    "       [--mem-limit-mb M] [--keys N] [--kat-records N] [--max-flips N] [--sanitizer]\n"
    "       [--extended-signature reject|finding] [--claims suf-cma|euf-cma[,dfr=X]] [--expect VERDICT]\n"
    "       [--iccs-note TEXT] [--budget S] [--kat-record <kat.json>] [--scale S]\n";

/* a whole-number argument in [lo, hi]; -1 (message printed) otherwise */
static int parse_int(const char *opt, const char *arg, long lo, long hi, int *out)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*arg == 0 || *end != 0 || v < lo || v > hi) {
        fprintf(stderr, "ngcc-security: %s %s: expected a whole number in %ld..%ld\n", opt, arg, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* "suf-cma", "euf-cma", "dfr=X" (0 < X < 1), comma-separated */
static int parse_claims(const char *arg, sec_options *o)
{
    char buf[200];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        if (!strcmp(t, "suf-cma") || !strcmp(t, "euf-cma")) {
            o->claims_euf = !strcmp(t, "euf-cma");
        } else if (!strncmp(t, "dfr=", 4) && (o->claims_dfr = strtod(t + 4, &end)) > 0 && o->claims_dfr < 1 &&
                   *end == 0 && end != t + 4) {
            continue;
        } else {
            fprintf(stderr, "ngcc-security: --claims %s: expected suf-cma or euf-cma and/or dfr=X (0 < X < 1)\n", arg);
            return -1;
        }
    }
    return 0;
}

static int own_option(ngcc_frame *f, int c, const char *arg)
{
    sec_options *o = f->spec->user;
    switch (c) {
    case 'd':
        o->log_dir = arg;
        return 0;
    case 'c':
        return ngcc_frame_number(f, "call-timeout", arg, 0, 1e7, &o->call_timeout);
    case 'k':
        return parse_int("--keys", arg, 2, 10, &o->keys);
    case 'r':
        return parse_int("--kat-records", arg, 1, 10, &o->kat_records);
    case 'f':
        return parse_int("--max-flips", arg, 0, 1 << 24, &o->max_flips);
    case 's':
        o->sanitizer = 1;
        return 0;
    case 'B':
        return ngcc_frame_number(f, "budget", arg, 0, 1e7, &o->budget);
    case 'K':
        o->kat_record = arg[0] ? arg : NULL;
        return 0;
    case 'I':
        o->iccs_note = arg[0] ? arg : NULL;
        return 0;
    case 'x':
        if (strcmp(arg, "reject") && strcmp(arg, "finding")) {
            fprintf(stderr, "ngcc-security: --extended-signature %s: expected reject or finding\n", arg);
            return -1;
        }
        o->ext_finding = strcmp(arg, "finding") == 0;
        return 0;
    case 'C':
        return parse_claims(arg, o);
    case 'S':
        return ngcc_frame_number(f, "scale", arg, 0.01, 1e5, &o->scale_s);
    }
    return -1;
}

/* the KAT record's op_seconds (not its timestamps) and where it stopped */
static void add_op_seconds(cJSON *inputs, const char *kat_json)
{
    cJSON *k = access(kat_json, R_OK) == 0 ? ngcc_record_load(kat_json) : NULL;
    ngcc_inputs_add_member(inputs, "kat_op_seconds_sha256", k, "op_seconds");
    /* where the KAT stopped decides which messages the plan keeps (sec_budget.h) */
    const cJSON *v = k ? cJSON_GetObjectItem(k, "verdict") : NULL,
                *done = k ? cJSON_GetObjectItem(k, "records_complete") : NULL;
    char stop[64] = "";
    if (cJSON_IsString(v) && cJSON_IsNumber(done))
        snprintf(stop, sizeof stop, "%s after %d", v->valuestring, (int)done->valuedouble);
    ngcc_inputs_add_str(inputs, "kat_stop", stop);
    cJSON_Delete(k);
}

int sec_options_parse(ngcc_frame *f, int argc, char **argv, sec_options *o)
{
    static const struct option mine[] = {{"log-dir", 1, 0, 'd'},
                                         {"call-timeout", 1, 0, 'c'},
                                         {"keys", 1, 0, 'k'},
                                         {"kat-records", 1, 0, 'r'},
                                         {"max-flips", 1, 0, 'f'},
                                         {"sanitizer", 0, 0, 's'},
                                         {"extended-signature", 1, 0, 'x'},
                                         {"claims", 1, 0, 'C'},
                                         {"iccs-note", 1, 0, 'I'},
                                         {"budget", 1, 0, 'B'},
                                         {"kat-record", 1, 0, 'K'},
                                         {"scale", 1, 0, 'S'},
                                         {0, 0, 0, 0}};
    static ngcc_frame_spec spec = {"security", "ngcc-security", usage, mine, own_option, 0, NULL};
    memset(o, 0, sizeof *o);
    o->keys = 3;
    o->kat_records = 10;
    o->scale_s = 3;
    spec.user = o;
    int rc = ngcc_frame_parse(f, &spec, argc, argv);
    if (rc)
        return rc;
    if (o->sanitizer)
        spec.label = "sanitizer"; /* the verdict line's label and the record's kind */
    o->lib = f->lib;
    o->name = f->name;
    o->timeout = f->timeout;
    o->mem_mb = f->mem_mb;
    /* a reduced KAT run ("kat_records") marks a slow instance: fewer key pairs too */
    if (o->keys > o->kat_records)
        o->keys = o->kat_records < 2 ? 2 : o->kat_records;
    if (o->budget > 0 && o->kat_record)
        add_op_seconds(f->inputs, o->kat_record);
    if (o->sanitizer) {
        const char *rt = getenv("LD_PRELOAD");
        ngcc_inputs_add_file(f->inputs, "asan_runtime_sha256", rt && rt[0] ? rt : NULL);
        ngcc_inputs_add_str(f->inputs, "asan_options", getenv("ASAN_OPTIONS"));
        ngcc_inputs_add_str(f->inputs, "ubsan_options", getenv("UBSAN_OPTIONS"));
    }
    return 0;
}
