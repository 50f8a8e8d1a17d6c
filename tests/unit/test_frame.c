/* Unit tests of the driver frame (harness/ngcc_frame.h): option parsing
 * (common and a driver's own, bad values, a value that is the next option), the build-record check (failed,
 * skipped, missing, malformed), resuming (a finished record with the same
 * inputs is kept, changed inputs run again), the verdict line and the exit
 * code rule. Runs in a scratch folder given as argv[1]. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ngcc_frame.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_util.h"

static const char *dir;
static double budget;

static int own(ngcc_frame *f, int val, const char *arg)
{
    if (val == 'b')
        return ngcc_frame_number(f, "budget-s", arg, 0.001, 100, &budget);
    return -1;
}

static const struct option own_opts[] = {{"budget-s", 1, 0, 'b'}, {0, 0, 0, 0}};
static const ngcc_frame_spec spec = {"perf", "ngcc-test", "usage: ngcc-test ...\n", own_opts, own, NGCC_FRAME_OP, NULL};

static char *path(const char *name)
{
    static char buf[8][512];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static void write_text(const char *p, const char *text)
{
    assert_int_equal(ngcc_write_atomic(p, text, strlen(text)), 0);
}

/* argv from a NULL-terminated list; getopt permutes it, so a fresh copy each time */
static int parse(ngcc_frame *f, const char *first, ...)
{
    static char *argv[32];
    int argc = 0;
    argv[argc++] = "ngcc-test";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    return ngcc_frame_parse(f, &spec, argc, argv);
}

static void test_common_and_own_options(void **state)
{
    (void)state;
    ngcc_frame f;
    budget = 0;
    assert_int_equal(parse(&f, "--lib", "lib.so", "--name", "c/i", "--op", "sign", "--record-out", path("r.json"),
                           "--timeout", "12", "--mem-limit-mb", "100", "--expect", "REGRESSION", "--budget-s", "0.5",
                           NULL),
                     0);
    assert_string_equal(f.name, "c/i");
    assert_string_equal(f.op, "sign");
    assert_true(f.lib[0] == '/'); /* made absolute */
    assert_true(strstr(f.lib, "/lib.so") != NULL);
    assert_true(f.timeout == 12);
    assert_int_equal(f.mem_mb, 100);
    assert_int_equal(f.expect, NGCC_REGRESSION);
    assert_true(budget == 0.5);
    assert_non_null(cJSON_GetObjectItem(f.inputs, "argv"));
    assert_non_null(cJSON_GetObjectItem(f.inputs, "library_sha256"));
    ngcc_frame_free(&f);
}

static void test_bad_option_values(void **state)
{
    (void)state;
    ngcc_frame f;
    /* a bad number in a common option and in the driver's own */
    assert_int_equal(
        parse(&f, "--lib", "x", "--name", "c/i", "--op", "sign", "--record-out", "r", "--timeout", "soon", NULL),
        NGCC_FRAME_EXIT_USAGE);
    assert_int_equal(
        parse(&f, "--lib", "x", "--name", "c/i", "--op", "sign", "--record-out", "r", "--budget-s", "abc", NULL),
        NGCC_FRAME_EXIT_USAGE);
    /* an unknown verdict, an unknown operation, an unknown option, a missing required one */
    assert_int_equal(
        parse(&f, "--lib", "x", "--name", "c/i", "--op", "sign", "--record-out", "r", "--expect", "GREAT", NULL),
        NGCC_FRAME_EXIT_USAGE);
    assert_int_equal(parse(&f, "--lib", "x", "--name", "c/i", "--op", "encrypt", "--record-out", "r", NULL),
                     NGCC_FRAME_EXIT_USAGE);
    assert_int_equal(parse(&f, "--lib", "x", "--name", "c/i", "--op", "sign", "--record-out", "r", "--bogus", NULL),
                     NGCC_FRAME_EXIT_USAGE);
    assert_int_equal(parse(&f, "--lib", "x", "--op", "sign", "--record-out", "r", NULL), NGCC_FRAME_EXIT_USAGE);
    /* a value that is the next option (an empty CMake variable was dropped),
     * in a common option and in the driver's own */
    assert_int_equal(parse(&f, "--lib", "x", "--name", "c/i", "--op", "sign", "--log", "--record-out", "r", NULL),
                     NGCC_FRAME_EXIT_USAGE);
    assert_int_equal(parse(&f, "--lib", "x", "--name", "c/i", "--op", "sign", "--record-out", "r", "--budget-s",
                           "--timeout", "5", NULL),
                     NGCC_FRAME_EXIT_USAGE);
}

static void base_args(ngcc_frame *f, const char *build_record, const char *lib)
{
    assert_int_equal(parse(f, "--lib", lib, "--name", "c/i", "--op", "sign", "--record-out", path("rec.json"),
                           "--build-record", build_record, NULL),
                     0);
}

static void test_build_record_check(void **state)
{
    (void)state;
    ngcc_frame f;
    write_text(path("lib.so"), "not really a library");
    /* missing build record: LOADFAIL naming it */
    base_args(&f, path("no-build.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_check_build(&f), 1);
    assert_int_equal(f.verdict, NGCC_LOADFAIL);
    assert_non_null(strstr(f.detail, "no-build.json"));
    assert_non_null(strstr(f.detail, "ctest -L build"));
    ngcc_frame_free(&f);
    /* failed build: BUILDFAIL with its first error */
    write_text(path("build-fail.json"), "{\"verdict\": \"BUILDFAIL\", \"first_error\": \"a.c:3: error: x\"}");
    base_args(&f, path("build-fail.json"), path("lib.so"));
    assert_string_equal(f.build_verdict, "BUILDFAIL");
    assert_int_equal(ngcc_frame_check_build(&f), 1);
    assert_int_equal(f.verdict, NGCC_BUILDFAIL);
    assert_string_equal(f.detail, "the instance did not build: a.c:3: error: x");
    assert_int_equal(ngcc_frame_exit_code(&f, f.verdict), 1);
    ngcc_frame_free(&f);
    /* skipped build: SKIP, its own exit code */
    write_text(path("build-skip.json"), "{\"verdict\": \"SKIP\", \"detail\": \"not built: no AVX2\"}");
    base_args(&f, path("build-skip.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_check_build(&f), 1);
    assert_int_equal(f.verdict, NGCC_SKIP);
    assert_string_equal(f.detail, "not built: no AVX2");
    assert_int_equal(ngcc_frame_exit_code(&f, f.verdict), NGCC_FRAME_EXIT_SKIP);
    ngcc_frame_free(&f);
    /* malformed build record: ERROR naming it */
    write_text(path("build-bad.json"), "{\"verdict\": ");
    base_args(&f, path("build-bad.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_check_build(&f), 1);
    assert_int_equal(f.verdict, NGCC_ERROR);
    assert_non_null(strstr(f.detail, "build-bad.json: not a build record"));
    ngcc_frame_free(&f);
    /* good build, missing library: LOADFAIL */
    write_text(path("build-ok.json"), "{\"verdict\": \"BUILDOK\", \"flagset\": \"guide\"}");
    base_args(&f, path("build-ok.json"), path("gone.so"));
    assert_string_equal(f.build_flagset, "guide");
    assert_int_equal(ngcc_frame_check_build(&f), 1);
    assert_int_equal(f.verdict, NGCC_LOADFAIL);
    ngcc_frame_free(&f);
    /* good build and library: go on */
    base_args(&f, path("build-ok.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_check_build(&f), 0);
    assert_int_equal(f.verdict, NGCC_PASS);
    ngcc_frame_free(&f);
}

static void test_resume(void **state)
{
    (void)state;
    ngcc_frame f;
    unlink(path("rec.json"));
    write_text(path("lib.so"), "version 1");
    setenv("NGCC_RESUME", "1", 1);
    /* first run: nothing to resume; it writes its record */
    base_args(&f, path("build-ok.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_resume(&f), -1);
    ngcc_frame_set(&f, NGCC_REGRESSION, "median %d > limit", 7);
    cJSON *r = ngcc_frame_record_new(&f);
    assert_string_equal(cJSON_GetObjectItem(r, "kind")->valuestring, "perf");
    assert_string_equal(cJSON_GetObjectItem(r, "op")->valuestring, "sign");
    assert_int_equal(ngcc_frame_record_write(&f, r, NULL), 0);
    cJSON_Delete(r);
    assert_int_equal(ngcc_frame_finish(&f), 1); /* REGRESSION, PASS expected */
    size_t len1;
    char *before = ngcc_read_file(path("rec.json"), &len1);
    assert_non_null(before);
    struct stat st1, st2;
    assert_int_equal(stat(path("rec.json"), &st1), 0);
    /* same inputs: the recorded verdict is the answer, the record untouched */
    base_args(&f, path("build-ok.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_resume(&f), 1);
    assert_true(f.resumed);
    ngcc_frame_free(&f);
    size_t len2;
    char *after = ngcc_read_file(path("rec.json"), &len2);
    assert_int_equal(len1, len2);
    assert_memory_equal(before, after, len1);
    assert_int_equal(stat(path("rec.json"), &st2), 0);
    assert_true(st1.st_mtim.tv_sec == st2.st_mtim.tv_sec && st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec);
    free(before);
    free(after);
    /* an input the driver adds changes: run again */
    base_args(&f, path("build-ok.json"), path("lib.so"));
    ngcc_inputs_add_str(f.inputs, "kat_verdict", "PASS");
    assert_int_equal(ngcc_frame_resume(&f), -1);
    ngcc_frame_free(&f);
    /* the library changes: run again */
    write_text(path("lib.so"), "version 2");
    base_args(&f, path("build-ok.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_resume(&f), -1);
    ngcc_frame_free(&f);
    /* without NGCC_RESUME nothing is reused */
    write_text(path("lib.so"), "version 1");
    unsetenv("NGCC_RESUME");
    base_args(&f, path("build-ok.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_resume(&f), -1);
    ngcc_frame_free(&f);
}

static void test_exit_rule(void **state)
{
    (void)state;
    ngcc_frame f;
    base_args(&f, path("build-ok.json"), path("lib.so"));
    assert_int_equal(ngcc_frame_exit_code(&f, NGCC_PASS), 0);
    assert_int_equal(ngcc_frame_exit_code(&f, NGCC_RECORDED), 0); /* passes with nothing to gate */
    assert_int_equal(ngcc_frame_exit_code(&f, NGCC_NOKAT), 1);
    assert_int_equal(ngcc_frame_exit_code(&f, NGCC_CRASH), 1);
    f.expect = NGCC_CRASH;
    assert_int_equal(ngcc_frame_exit_code(&f, NGCC_CRASH), 0);
    assert_int_equal(ngcc_frame_exit_code(&f, NGCC_PASS), 1);
    assert_true(ngcc_verdict_passing(NGCC_RECORDED) && ngcc_verdict_passing(NGCC_PASS));
    assert_false(ngcc_verdict_passing(NGCC_SKIP) || ngcc_verdict_passing(NGCC_REGRESSION));
    assert_int_equal(ngcc_verdict_parse("RECORDED"), NGCC_RECORDED);
    assert_string_equal(ngcc_verdict_name(NGCC_REGRESSION), "REGRESSION");
    ngcc_frame_free(&f);
}

/* the verdict line and the exit code, from a child whose stdout is a file */
static void test_verdict_line(void **state)
{
    (void)state;
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        ngcc_frame f;
        if (!freopen(path("out.txt"), "w", stdout))
            _exit(100);
        base_args(&f, path("build-ok.json"), path("lib.so"));
        ngcc_frame_set(&f, NGCC_RECORDED, "no expectation committed");
        _exit(ngcc_frame_finish(&f));
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    size_t len;
    char *out = ngcc_read_file(path("out.txt"), &len);
    assert_non_null(out);
    assert_string_equal(out, "ngcc: verdict perf c/i/sign: RECORDED: no expectation committed\n");
    free(out);
}

int main(int argc, char **argv)
{
    dir = argc > 1 ? argv[1] : "frame-scratch";
    ngcc_mkdirs(dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_common_and_own_options),
        cmocka_unit_test(test_bad_option_values),
        cmocka_unit_test(test_build_record_check),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_exit_rule),
        cmocka_unit_test(test_verdict_line),
    };
    return cmocka_run_group_tests_name("unit/frame", tests, NULL, NULL);
}
