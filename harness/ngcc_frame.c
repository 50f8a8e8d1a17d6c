#define _GNU_SOURCE
#include "ngcc_frame.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_counter.h"
#include "ngcc_hang.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"

enum {
    O_LIB = NGCC_FRAME_OPT_BASE,
    O_NAME,
    O_OP,
    O_RECORD_OUT,
    O_BUILD_RECORD,
    O_LOG,
    O_EXPECT,
    O_TIMEOUT,
    O_MEM,
};

static const struct option common[] = {
    {"lib", 1, 0, O_LIB},
    {"name", 1, 0, O_NAME},
    {"record-out", 1, 0, O_RECORD_OUT},
    {"build-record", 1, 0, O_BUILD_RECORD},
    {"log", 1, 0, O_LOG},
    {"expect", 1, 0, O_EXPECT},
    {"timeout", 1, 0, O_TIMEOUT},
    {"mem-limit-mb", 1, 0, O_MEM},
    {"op", 1, 0, O_OP},
};
#define NCOMMON (sizeof common / sizeof common[0])

static const char *program(const ngcc_frame *f)
{
    return f->spec && f->spec->program ? f->spec->program : "ngcc";
}

int ngcc_frame_number(const ngcc_frame *f, const char *opt, const char *text, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "%s: --%s %s: expected a number in [%g, %g]\n", program(f), opt, text ? text : "", lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* a path made absolute against the working folder (kept in f->owned) */
static const char *absolute(ngcc_frame *f, int slot, const char *path)
{
    if (!path || !path[0] || path[0] == '/')
        return path;
    char cwd[PATH_MAX];
    char *abs = NULL;
    if (!getcwd(cwd, sizeof cwd) || asprintf(&abs, "%s/%s", cwd, path) < 0)
        return path;
    f->owned[slot] = abs;
    return abs;
}

static int common_option(ngcc_frame *f, int val, const char *arg)
{
    double d;
    switch (val) {
    case O_LIB:
        f->lib = arg;
        return 0;
    case O_NAME:
        f->name = arg;
        return 0;
    case O_OP:
        f->op = arg;
        return 0;
    case O_RECORD_OUT:
        f->record_out = arg;
        return 0;
    case O_BUILD_RECORD:
        f->build_record = arg[0] ? arg : NULL;
        return 0;
    case O_LOG:
        f->log = arg[0] ? arg : NULL;
        return 0;
    case O_TIMEOUT:
        return ngcc_frame_number(f, "timeout", arg, 0, 1e7, &f->timeout);
    case O_MEM:
        if (ngcc_frame_number(f, "mem-limit-mb", arg, 0, 1e9, &d))
            return -1;
        f->mem_mb = (unsigned long)d;
        return 0;
    case O_EXPECT:
        f->expect = ngcc_verdict_parse(arg);
        if (f->expect < 0) {
            fprintf(stderr, "%s: --expect %s: unknown verdict (PASS, RECORDED, REGRESSION, MISMATCH, CRASH, ...)\n",
                    program(f), arg);
            return -1;
        }
        return 0;
    }
    return -1;
}

static int is_op(const char *op)
{
    static const char *const ops[] = {"keygen", "sign",  "verify", "enc",      "dec",      "init_a",   "init_b",
                                      "pass1",  "pass2", "pass3",  "derive_a", "derive_b", "exchange", "hash"};
    /* pass4 .. pass8: the passes of an extended KEX driver */
    if (op && strncmp(op, "pass", 4) == 0 && op[4] >= '4' && op[4] <= '8' && !op[5])
        return 1;
    for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    /* a hash at one message length: hash-<bytes> */
    return op && strncmp(op, "hash-", 5) == 0 && op[5] >= '0' && op[5] <= '9' &&
           strspn(op + 5, "0123456789") == strlen(op + 5);
}

static int usage_error(const ngcc_frame *f)
{
    if (f->spec->usage)
        fputs(f->spec->usage, stderr);
    return NGCC_FRAME_EXIT_USAGE;
}

/* the build record's verdict, first error and flag set into the inputs */
static void read_build(ngcc_frame *f)
{
    const char *v = "", *e = "";
    cJSON *b = NULL;
    if (f->build_record && access(f->build_record, R_OK) == 0)
        b = ngcc_record_load(f->build_record);
    if (b) {
        const cJSON *jv = cJSON_GetObjectItem(b, "verdict"), *je = cJSON_GetObjectItem(b, "first_error");
        const cJSON *fs = cJSON_GetObjectItem(b, "flagset");
        v = cJSON_IsString(jv) ? jv->valuestring : "";
        e = cJSON_IsString(je) ? je->valuestring : "";
        if (cJSON_IsString(fs))
            snprintf(f->build_flagset, sizeof f->build_flagset, "%s", fs->valuestring);
    }
    snprintf(f->build_verdict, sizeof f->build_verdict, "%s", v);
    ngcc_inputs_add_str(f->inputs, "build_verdict", v);
    ngcc_inputs_add_str(f->inputs, "build_first_error", e);
    cJSON_Delete(b);
}

int ngcc_frame_parse(ngcc_frame *f, const ngcc_frame_spec *spec, int argc, char **argv)
{
    memset(f, 0, sizeof *f);
    f->spec = spec;
    f->expect = NGCC_PASS;
    f->verdict = NGCC_PASS;
    size_t nown = 0;
    while (spec->options && spec->options[nown].name)
        nown++;
    size_t nall = NCOMMON - ((spec->flags & NGCC_FRAME_OP) ? 0 : 1) + nown + 1;
    struct option *all = calloc(nall, sizeof *all);
    if (!all)
        return NGCC_FRAME_EXIT_USAGE;
    size_t k = 0;
    for (size_t i = 0; i < NCOMMON; i++)
        if (common[i].val != O_OP || (spec->flags & NGCC_FRAME_OP))
            all[k++] = common[i];
    for (size_t i = 0; i < nown; i++)
        all[k++] = spec->options[i];
    optind = 1;
    opterr = 1;
    int c, bad = 0, li = -1;
    while (!bad && (c = getopt_long(argc, argv, "", all, &li)) != -1) {
        if (c == '?' || c == ':') {
            bad = 1; /* getopt printed the problem */
        } else if (optarg && strncmp(optarg, "--", 2) == 0) {
            /* "--ref '' --manifest m": CMake drops the empty value and the
             * next option becomes the value: refuse rather than mis-read */
            const char *o = li >= 0 ? all[li].name : "?";
            fprintf(stderr,
                    "%s: option --%s got \"%s\" as its value: its value is missing (an empty variable?); "
                    "pass --%s only with a value\n",
                    program(f), o, optarg, o);
            free(all);
            ngcc_frame_free(f);
            return NGCC_FRAME_EXIT_USAGE;
        } else if (c >= O_LIB && c <= O_MEM)
            bad = common_option(f, c, optarg) != 0;
        else
            bad = !spec->on_option || spec->on_option(f, c, optarg) != 0;
        li = -1;
    }
    free(all);
    if (bad)
        return usage_error(f);
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", program(f), argv[optind]);
        return usage_error(f);
    }
    const char *missing = !f->name                                              ? "--name"
                          : !f->record_out                                      ? "--record-out"
                          : !f->lib && !(spec->flags & NGCC_FRAME_LIB_OPTIONAL) ? "--lib"
                          : !f->op && (spec->flags & NGCC_FRAME_OP)             ? "--op"
                                                                                : NULL;
    if (missing) {
        fprintf(stderr, "%s: %s is required\n", program(f), missing);
        return usage_error(f);
    }
    if ((spec->flags & NGCC_FRAME_OP) && !is_op(f->op)) {
        fprintf(stderr,
                "%s: --op %s: not an operation (keygen, sign, verify, enc, dec; KEX init_a ... exchange; hash, "
                "hash-<bytes>)\n",
                program(f), f->op);
        return usage_error(f);
    }
    f->lib = absolute(f, 0, f->lib);
    f->log = absolute(f, 1, f->log);
    f->inputs = ngcc_inputs_new(argc, argv);
    ngcc_inputs_add_file(f->inputs, "library_sha256", f->lib);
    read_build(f);
    return 0;
}

static int recorded_exit(const ngcc_frame *f, const char *verdict)
{
    int v = ngcc_verdict_parse(verdict);
    return ngcc_frame_exit_code(f, v < 0 ? NGCC_ERROR : v);
}

int ngcc_frame_resume(ngcc_frame *f)
{
    ngcc_inputs_fingerprint(f->inputs, f->fingerprint);
    if (!ngcc_resume_requested())
        return -1;
    cJSON *r = ngcc_resume_load(f->record_out, f->fingerprint);
    if (!r)
        return -1;
    const char *verdict = cJSON_GetObjectItem(r, "verdict")->valuestring;
    const cJSON *detail = cJSON_GetObjectItem(r, "detail");
    printf("ngcc: resumed %s %s%s%s: inputs unchanged since %s, recorded result kept (%s)\n", f->spec->label, f->name,
           f->op ? "/" : "", f->op ? f->op : "", cJSON_GetObjectItem(r, "end_utc")->valuestring, f->record_out);
    ngcc_frame_print_verdict(f, verdict, cJSON_IsString(detail) ? detail->valuestring : "");
    int rc = recorded_exit(f, verdict);
    f->resumed = 1;
    cJSON_Delete(r);
    return rc;
}

void ngcc_frame_set(ngcc_frame *f, int verdict, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
    f->verdict = verdict;
}

int ngcc_frame_check_build(ngcc_frame *f)
{
    if (f->build_record) {
        if (access(f->build_record, R_OK) != 0) {
            ngcc_frame_set(f, NGCC_LOADFAIL, "%s: %s: the build test has not run; run it first (ctest -L build)",
                           f->build_record, strerror(errno));
            return 1;
        }
        cJSON *b = ngcc_record_load(f->build_record);
        const cJSON *v = cJSON_GetObjectItem(b, "verdict"), *e = cJSON_GetObjectItem(b, "first_error");
        const cJSON *d = cJSON_GetObjectItem(b, "detail");
        int rc = 0;
        if (!cJSON_IsString(v)) {
            ngcc_frame_set(f, NGCC_ERROR,
                           "%s: not a build record (malformed JSON or no \"verdict\"); rerun its "
                           "build test",
                           f->build_record);
            rc = 1;
        } else if (strcmp(v->valuestring, "BUILDFAIL") == 0) {
            ngcc_frame_set(f, NGCC_BUILDFAIL, "the instance did not build: %s",
                           cJSON_IsString(e) ? e->valuestring : "(see the build test)");
            rc = 1;
        } else if (strcmp(v->valuestring, "SKIP") == 0) {
            ngcc_frame_set(f, NGCC_SKIP, "%s", cJSON_IsString(d) ? d->valuestring : "the build test skipped it");
            rc = 1;
        }
        cJSON_Delete(b);
        if (rc)
            return 1;
    }
    if (f->lib && access(f->lib, R_OK) != 0) {
        ngcc_frame_set(f, NGCC_LOADFAIL, "%s: %s; run its build test first (ctest -L build)", f->lib, strerror(errno));
        return 1;
    }
    /* the kat test saw the honest flow hang: do not wait out another timeout */
    char why[1024];
    if (ngcc_hang_seen(f->record_out, f->spec->label, why, sizeof why)) {
        ngcc_frame_set(f, NGCC_SKIP, "%s", why);
        return 1;
    }
    return 0;
}

cJSON *ngcc_frame_record_new(const ngcc_frame *f)
{
    cJSON *r = ngcc_record_new(f->spec->label, f->name);
    if (f->op)
        cJSON_AddStringToObject(r, "op", f->op);
    return r;
}

int ngcc_frame_record_write(ngcc_frame *f, cJSON *rec, const char *expected_key)
{
    if (!f->fingerprint[0])
        ngcc_inputs_fingerprint(f->inputs, f->fingerprint);
    cJSON_DeleteItemFromObject(rec, "verdict");
    cJSON_DeleteItemFromObject(rec, "detail");
    cJSON_AddStringToObject(rec, "verdict", ngcc_verdict_name(f->verdict));
    cJSON_AddStringToObject(rec, "detail", f->detail);
    /* under user-mode emulation every record says so (what the child's
     * sandbox got under it is in child.sandbox) */
    char why[256];
    const char *emu = ngcc_emulated(why, sizeof why);
    if (emu && !cJSON_GetObjectItem(rec, "emulated")) {
        cJSON *e = cJSON_AddObjectToObject(rec, "emulated");
        cJSON_AddStringToObject(e, "emulator", emu);
        cJSON_AddStringToObject(e, "evidence", why);
    }
    const char *ek = expected_key ? expected_key : "expected";
    cJSON_DeleteItemFromObject(rec, ek);
    cJSON_AddStringToObject(rec, ek, ngcc_verdict_name(f->expect));
    ngcc_resume_stamp(rec, f->inputs, f->fingerprint);
    return ngcc_record_write(rec, f->record_out);
}

int ngcc_frame_exit_code(const ngcc_frame *f, int verdict)
{
    if (verdict == NGCC_SKIP) /* never a pass, even when expected: CTest shows it as not run */
        return NGCC_FRAME_EXIT_SKIP;
    if (verdict == f->expect || ((verdict == NGCC_RECORDED || verdict == NGCC_NOBASELINE) && f->expect == NGCC_PASS))
        return 0;
    return 1;
}

void ngcc_frame_print_verdict(const ngcc_frame *f, const char *verdict, const char *detail)
{
    printf("ngcc: verdict %s %s%s%s: %s: %s\n", f->spec->label, f->name, f->op ? "/" : "", f->op ? f->op : "", verdict,
           detail);
    if (f->expect != NGCC_PASS) {
        int v = ngcc_verdict_parse(verdict);
        printf("ngcc: expected %s, got %s: %s\n", ngcc_verdict_name(f->expect), verdict,
               v == f->expect || ngcc_frame_exit_code(f, v < 0 ? NGCC_ERROR : v) == 0 ? "as expected" : "UNEXPECTED");
    }
}

void ngcc_frame_free(ngcc_frame *f)
{
    cJSON_Delete(f->inputs);
    f->inputs = NULL;
    for (size_t i = 0; i < sizeof f->owned / sizeof f->owned[0]; i++) {
        free(f->owned[i]);
        f->owned[i] = NULL;
    }
}

int ngcc_frame_finish(ngcc_frame *f)
{
    fflush(stderr);
    ngcc_frame_print_verdict(f, ngcc_verdict_name(f->verdict), f->detail);
    int rc = ngcc_frame_exit_code(f, f->verdict);
    fflush(stdout);
    ngcc_frame_free(f);
    return rc;
}
