/* unit.perf_elf_sizes: the static sizes of ngcc-sizes against binutils on
 * the same file: text/data/bss as `size -B` prints them, and the sum of the
 * PT_LOAD memory sizes as `readelf -lW` lists them. argv[1]: a shared
 * library; argv[2], argv[3]: the size and readelf programs. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elf_sizes.h"

static const char *lib, *size_prog, *readelf_prog;

static FILE *run(const char *prog, const char *args)
{
    char *cmd;
    if (asprintf(&cmd, "'%s' %s '%s'", prog, args, lib) < 0)
        return NULL;
    FILE *f = popen(cmd, "r");
    free(cmd);
    return f;
}

static void berkeley_sizes(void **state)
{
    (void)state;
    elf_sizes s;
    char err[300];
    assert_int_equal(elf_sizes_read(lib, &s, err, sizeof err), 0);
    FILE *f = run(size_prog, "-B");
    assert_non_null(f);
    char line[512];
    unsigned long long t = 0, d = 0, b = 0;
    int got = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, " %llu %llu %llu", &t, &d, &b) == 3)
            got = 1;
    assert_int_equal(pclose(f), 0);
    assert_true(got);
    assert_int_equal(s.text, t);
    assert_int_equal(s.data, d);
    assert_int_equal(s.bss, b);
}

static void loadable_segments(void **state)
{
    (void)state;
    elf_sizes s;
    char err[300];
    assert_int_equal(elf_sizes_read(lib, &s, err, sizeof err), 0);
    FILE *f = run(readelf_prog, "-lW");
    assert_non_null(f);
    char line[512];
    unsigned long long sum = 0, off, va, pa, fsz, msz;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, " LOAD 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx", &off, &va, &pa, &fsz, &msz) == 5)
            sum += msz;
    assert_int_equal(pclose(f), 0);
    assert_true(sum > 0);
    assert_int_equal(s.loadable_total, sum);
}

static void not_elf_refused(void **state)
{
    (void)state;
    elf_sizes s;
    char err[300];
    assert_int_equal(elf_sizes_read("/proc/self/status", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a readable 64-bit ELF"));
    assert_int_equal(elf_sizes_read("/nonexistent.so", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent.so: cannot read"));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_elf_sizes <lib.so> <size> <readelf>\n");
        return 2;
    }
    lib = argv[1];
    size_prog = argv[2];
    readelf_prog = argv[3];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(berkeley_sizes),
        cmocka_unit_test(loadable_segments),
        cmocka_unit_test(not_elf_refused),
    };
    return cmocka_run_group_tests_name("unit.perf_elf_sizes", tests, NULL, NULL);
}
