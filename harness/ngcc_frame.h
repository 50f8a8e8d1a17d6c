/* ngcc-ctest: the frame every label driver shares: the common options, the
 * build-record check, resuming (ngcc_resume.h), the one verdict line and the
 * exit code. A driver adds only what is its own: extra options, the run, the
 * figures of its record and its CMocka cases.
 *
 * Common options (all "--name value"):
 *   --lib <instance.so>  --name <cand>/<instance>  --record-out <json>
 *   --build-record <json>  --log <file>  --expect VERDICT  --timeout S
 *   --mem-limit-mb M      and, with NGCC_FRAME_OP, --op <keygen|sign|verify|enc|dec>
 *
 * How a driver uses the frame:
 *
 *   static int my_opt(ngcc_frame *f, int val, const char *arg)   // 0, or -1 after a message
 *   { switch (val) { case 'x': return ngcc_frame_number(f, "budget-s", arg, 0, 1e6, &budget); } return -1; }
 *   static const struct option mine[] = {{"budget-s", 1, 0, 'x'}, {0, 0, 0, 0}};
 *   static const ngcc_frame_spec spec = {"perf", "ngcc-perf", usage, mine, my_opt, NGCC_FRAME_OP, NULL};
 *
 *   int main(int argc, char **argv) {
 *       ngcc_frame F;
 *       int rc = ngcc_frame_parse(&F, &spec, argc, argv);     // 2 on a bad option (usage printed)
 *       if (rc) return rc;
 *       ngcc_inputs_add_file(F.inputs, "thresholds_sha256", thresholds);  // what else the verdict depends on
 *       if ((rc = ngcc_frame_resume(&F)) >= 0) return rc;     // NGCC_RESUME=1 and the record is current
 *       if (!ngcc_frame_check_build(&F))                      // BUILDFAIL / SKIP / LOADFAIL set, or go on
 *           run_and_judge(&F);                                // ngcc_frame_set(&F, NGCC_..., "detail", ...)
 *       cJSON *r = ngcc_frame_record_new(&F);                 // schema, kind = label, name, op
 *       add_my_figures(r);
 *       ngcc_frame_record_write(&F, r, NULL); cJSON_Delete(r); // + verdict, detail, expected, inputs
 *       run_my_cmocka_cases();
 *       return ngcc_frame_finish(&F);                         // verdict line, exit code
 *   }
 *
 * The verdict line is `ngcc: verdict <label> <candidate>/<instance>[/<op>]: <VERDICT>: <detail>`.
 * Exit code: 0 when the verdict is the expected one (RECORDED and NOBASELINE
 * also meet an expected PASS: they pass with nothing to gate), NGCC_FRAME_EXIT_SKIP for
 * SKIP (the build skipped the instance, or the driver could not run it),
 * expected or not, 2 for bad options, else 1. */
#ifndef NGCC_FRAME_H
#define NGCC_FRAME_H

#include <getopt.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "ngcc_verdict.h"

#define NGCC_FRAME_EXIT_USAGE 2
#define NGCC_FRAME_EXIT_SKIP 77 /* register the test with SKIP_RETURN_CODE 77 */

/* spec flags */
#define NGCC_FRAME_OP 1u           /* --op is required and must be an operation name */
#define NGCC_FRAME_LIB_OPTIONAL 2u /* --lib may be left out */

/* option values the frame uses for its common options: a driver's own
 * options use any other val (plain letters are fine) */
#define NGCC_FRAME_OPT_BASE 0x4e00

typedef struct ngcc_frame ngcc_frame;

/* one of the driver's own options: 0, or -1 after printing the problem */
typedef int (*ngcc_frame_opt_fn)(ngcc_frame *f, int val, const char *arg);

typedef struct {
    const char *label;            /* "perf": the verdict line's label and the record's kind */
    const char *program;          /* "ngcc-perf": the prefix of its messages */
    const char *usage;            /* the driver's whole usage text */
    const struct option *options; /* its own options, {0}-terminated; may be NULL */
    ngcc_frame_opt_fn on_option;  /* called for each of them */
    unsigned flags;               /* NGCC_FRAME_OP, NGCC_FRAME_LIB_OPTIONAL */
    void *user;                   /* for the driver's handler */
} ngcc_frame_spec;

struct ngcc_frame {
    const ngcc_frame_spec *spec;
    /* common options; lib and log are absolute (the child runs in its scratch folder) */
    const char *lib, *name, *op, *record_out, *build_record, *log;
    double timeout;       /* s; <= 0: none */
    unsigned long mem_mb; /* 0: none */
    int expect;           /* the expected verdict (default PASS) */
    /* the judgement */
    int verdict;
    char detail[2048];
    /* from the build record */
    char build_verdict[32], build_flagset[64];
    /* resuming */
    cJSON *inputs; /* argv, library_sha256, build_verdict, build_first_error, + the driver's */
    char fingerprint[65];
    int resumed;
    char *owned[4]; /* absolute paths made by the frame */
};

/* Parses the common options and the driver's; 0, or NGCC_FRAME_EXIT_USAGE
 * after a one-line message naming the option and the usage. An option value
 * starting with "--" is refused (an empty CMake variable was dropped and the
 * next option became the value). On success
 * f->inputs holds the arguments, the library's SHA-256 and the build
 * record's verdict and first error. */
int ngcc_frame_parse(ngcc_frame *f, const ngcc_frame_spec *spec, int argc, char **argv);
/* a number option in [lo, hi]; 0, or -1 after "<program>: --<opt> <text>: expected a number in [lo, hi]" */
int ngcc_frame_number(const ngcc_frame *f, const char *opt, const char *text, double lo, double hi, double *out);
/* With NGCC_RESUME=1 and a complete record at --record-out carrying the
 * fingerprint of f->inputs: prints the recorded verdict and returns the exit
 * code; else -1 (run). Computes f->fingerprint either way. */
int ngcc_frame_resume(ngcc_frame *f);
/* What must hold before running: the build record (BUILDFAIL: "the instance
 * did not build: <first error>"; SKIP: the build's reason; missing or
 * malformed: LOADFAIL / ERROR naming it) and the library. 1 with the
 * verdict set, 0 to go on. */
int ngcc_frame_check_build(ngcc_frame *f);
/* sets verdict and detail (printf format) */
void ngcc_frame_set(ngcc_frame *f, int verdict, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a new record: schema, kind (the label), name, op (when given) */
cJSON *ngcc_frame_record_new(const ngcc_frame *f);
/* adds verdict, detail, the expected verdict (key expected_key, "expected"
 * when NULL), inputs and fingerprint and writes it atomically (the caller
 * still owns rec) */
int ngcc_frame_record_write(ngcc_frame *f, cJSON *rec, const char *expected_key);
/* the verdict line (and "ngcc: expected X, got Y" when --expect is not PASS) */
void ngcc_frame_print_verdict(const ngcc_frame *f, const char *verdict, const char *detail);
/* the exit code of a verdict under f->expect */
int ngcc_frame_exit_code(const ngcc_frame *f, int verdict);
/* prints the verdict line, frees the frame, returns the exit code */
int ngcc_frame_finish(ngcc_frame *f);
void ngcc_frame_free(ngcc_frame *f);

#endif
