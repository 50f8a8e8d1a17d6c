#define _GNU_SOURCE
#include "sec_options.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_verdict.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: ngcc-security --lib <instance.so> --name <cand>/<inst> --record-out <file.json>\n"
            "       [--build-record <json>] [--log-dir <dir>] [--timeout S] [--call-timeout S]\n"
            "       [--mem-limit-mb M] [--keys N] [--kat-records N] [--max-flips N] [--sanitizer]\n"
            "       [--extended-signature reject|finding] [--expect VERDICT] [--iccs-note TEXT]\n"
            "       [--budget S] [--kat-record <kat.json>]\n");
}

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

static int parse_seconds(const char *opt, const char *arg, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (*arg == 0 || *end != 0 || v < 0) {
        fprintf(stderr, "ngcc-security: %s %s: expected seconds >= 0\n", opt, arg);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_one(int c, const char *arg, sec_options *o)
{
    int v;
    switch (c) {
    case 'l': o->lib = arg; return 0;
    case 'n': o->name = arg; return 0;
    case 'o': o->record_out = arg; return 0;
    case 'b': o->build_record = arg[0] ? arg : NULL; return 0;
    case 'd': o->log_dir = arg; return 0;
    case 't': return parse_seconds("--timeout", arg, &o->timeout);
    case 'c': return parse_seconds("--call-timeout", arg, &o->call_timeout);
    case 'M': if (parse_int("--mem-limit-mb", arg, 0, 1 << 30, &v)) return -1; o->mem_mb = (unsigned long)v; return 0;
    case 'k': return parse_int("--keys", arg, 2, 10, &o->keys);
    case 'r': return parse_int("--kat-records", arg, 1, 10, &o->kat_records);
    case 'f': return parse_int("--max-flips", arg, 0, 1 << 24, &o->max_flips);
    case 's': o->sanitizer = 1; return 0;
    case 'B': return parse_seconds("--budget", arg, &o->budget);
    case 'K': o->kat_record = arg[0] ? arg : NULL; return 0;
    case 'I': o->iccs_note = arg[0] ? arg : NULL; return 0;
    case 'x':
        if (strcmp(arg, "reject") && strcmp(arg, "finding")) {
            fprintf(stderr, "ngcc-security: --extended-signature %s: expected reject or finding\n", arg);
            return -1;
        }
        o->ext_finding = strcmp(arg, "finding") == 0;
        return 0;
    case 'e':
        o->expect = ngcc_verdict_parse(arg);
        if (o->expect < 0) {
            fprintf(stderr, "ngcc-security: --expect %s: unknown verdict\n", arg);
            return -1;
        }
        return 0;
    default: return -1;
    }
}

int sec_options_parse(int argc, char **argv, sec_options *o)
{
    static const struct option lo[] = {
        {"lib", 1, 0, 'l'}, {"name", 1, 0, 'n'}, {"record-out", 1, 0, 'o'}, {"build-record", 1, 0, 'b'},
        {"log-dir", 1, 0, 'd'}, {"timeout", 1, 0, 't'}, {"call-timeout", 1, 0, 'c'},
        {"mem-limit-mb", 1, 0, 'M'}, {"keys", 1, 0, 'k'}, {"kat-records", 1, 0, 'r'},
        {"max-flips", 1, 0, 'f'}, {"sanitizer", 0, 0, 's'}, {"extended-signature", 1, 0, 'x'},
        {"expect", 1, 0, 'e'}, {"iccs-note", 1, 0, 'I'}, {"budget", 1, 0, 'B'}, {"kat-record", 1, 0, 'K'}, {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->keys = 3;
    o->kat_records = 10;
    o->expect = NGCC_PASS;
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1)
        if (parse_one(c, optarg, o)) {
            usage();
            return -1;
        }
    if (optind < argc || !o->lib || !o->name || !o->record_out) {
        if (optind < argc)
            fprintf(stderr, "ngcc-security: unexpected argument '%s'\n", argv[optind]);
        else
            fprintf(stderr, "ngcc-security: --lib, --name and --record-out are required\n");
        usage();
        return -1;
    }
    /* children work in their scratch folder: the library path must not be relative */
    static char lib_abs[PATH_MAX];
    if (realpath(o->lib, lib_abs))
        o->lib = lib_abs;
    /* a reduced KAT run ("kat_records") marks a slow instance: fewer key pairs too */
    if (o->keys > o->kat_records)
        o->keys = o->kat_records < 2 ? 2 : o->kat_records;
    return 0;
}
