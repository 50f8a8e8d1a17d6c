/* ngcc-zoo-selftest: the suite's own detection, tested (CTest label
 * "selftest"). Reads the records that the kat, security, security-asan and
 * memcheck tests of one fixture instance wrote and asserts, exactly, the
 * verdicts its override declares: the test verdicts, every check's verdict
 * ("check=VERDICT,...,*=VERDICT", VERDICT a check status, or FAIL:<verdict> to
 * assert what it fails as, e.g. FAIL:MALLEABLE; each check of the record must be covered)
 * and regular expressions (POSIX ERE) the details must match. */
#define _GNU_SOURCE
#include <getopt.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ngcc_record.h"

enum { KAT, SECURITY, SANITIZER, MEMCHECK, NLABELS };

typedef struct {
    const char *label, *file;              /* e.g. "security", "security.json" */
    const char *verdict, *checks, *detail; /* expectations; NULL: not asserted */
    cJSON *rec;
    char path[1200];
} expectation;

static expectation E[NLABELS] = {
    {"kat", "kat.json", NULL, NULL, NULL, NULL, ""},
    {"security", "security.json", NULL, NULL, NULL, NULL, ""},
    {"sanitizer", "sanitizer.json", NULL, NULL, NULL, NULL, ""},
    {"memcheck", "memcheck.json", NULL, NULL, NULL, NULL, ""},
};
static const char *name, *records;

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* the record, checked to be this instance's */
static const cJSON *record(const expectation *e)
{
    if (!e->rec)
        fail_msg("%s: cannot read the record (run its test first)", e->path);
    if (strcmp(str(e->rec, "name"), name) != 0)
        fail_msg("%s is the record of %s, not of %s", e->path, str(e->rec, "name"), name);
    return e->rec;
}

static void case_verdict(void **state)
{
    const expectation *e = *state;
    const cJSON *r = record(e);
    if (strcmp(str(r, "verdict"), e->verdict) != 0)
        fail_msg("%s verdict %s, expected %s: %s", e->label, str(r, "verdict"), e->verdict, str(r, "detail"));
}

/* the expected verdict of one check from "a=PASS,b=FAIL,*=PASS"; NULL if none */
static const char *expected_check(const char *spec, const char *check, char *buf, size_t cap)
{
    const char *star = NULL;
    size_t cl = strlen(check);
    for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (!eq)
            continue;
        if ((size_t)(eq - p) == cl && strncmp(p, check, cl) == 0) {
            snprintf(buf, cap, "%.*s", (int)(len - (size_t)(eq - p) - 1), eq + 1);
            return buf;
        }
        if (eq - p == 1 && *p == '*')
            star = eq + 1;
    }
    if (!star)
        return NULL;
    snprintf(buf, cap, "%.*s", (int)strcspn(star, ","), star);
    return buf;
}

/* a check named in the spec that the record does not have */
static const char *unknown_check(const char *spec, const cJSON *checks, char *buf, size_t cap)
{
    for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        snprintf(buf, cap, "%.*s", (int)strcspn(p, ",="), p);
        if (!strcmp(buf, "*"))
            continue;
        int found = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, checks) found |= !strcmp(str(c, "name"), buf);
        if (!found)
            return buf;
    }
    return NULL;
}

static void case_checks(void **state)
{
    const expectation *e = *state;
    const cJSON *checks = cJSON_GetObjectItem(record(e), "checks");
    char problems[2000] = "", buf[64];
    size_t used = 0;
    const cJSON *c;
    if (!cJSON_IsArray(checks) || cJSON_GetArraySize(checks) == 0)
        fail_msg("%s: the record has no checks: %s", e->path, str(e->rec, "detail"));
    cJSON_ArrayForEach(c, checks)
    {
        const char *want = expected_check(e->checks, str(c, "name"), buf, sizeof buf);
        char got[64];
        snprintf(got, sizeof got, "%s", str(c, "verdict"));
        /* "FAIL:MALLEABLE" in the spec also asserts what the check fails as;
         * "A|B" accepts either (a verdict that depends on stale stack bytes) */
        int match = 0;
        for (const char *alt = want; alt && *alt && !match; alt = strchr(alt, '|') ? strchr(alt, '|') + 1 : NULL) {
            size_t al = strcspn(alt, "|");
            int with_cause = memchr(alt, ':', al) != NULL;
            snprintf(got, sizeof got, "%s%s%s", str(c, "verdict"), with_cause ? ":" : "",
                     with_cause ? str(c, "fails_as") : "");
            match = strlen(got) == al && strncmp(alt, got, al) == 0;
        }
        if (!match)
            used += (size_t)snprintf(problems + used, used < sizeof problems ? sizeof problems - used : 0,
                                     "\n  %s: %s, expected %s (%s)", str(c, "name"), got,
                                     want ? want : "nothing declared", str(c, "detail"));
        if (used >= sizeof problems)
            break;
    }
    const char *extra = unknown_check(e->checks, checks, buf, sizeof buf);
    if (extra && used < sizeof problems)
        snprintf(problems + used, sizeof problems - used, "\n  %s: declared, but the record has no such check", extra);
    if (problems[0])
        fail_msg("%s checks differ from \"%s\":%s", e->label, e->checks, problems);
}

static void case_detail(void **state)
{
    const expectation *e = *state;
    const char *d = str(record(e), "detail");
    regex_t re;
    if (regcomp(&re, e->detail, REG_EXTENDED | REG_NOSUB) != 0)
        fail_msg("bad regular expression \"%s\"", e->detail);
    int no = regexec(&re, d, 0, NULL, 0);
    regfree(&re);
    if (no)
        fail_msg("%s detail \"%s\" does not match \"%s\"", e->label, d, e->detail);
}

/* --security-check-detail "check=RE": one check's own detail (a passing
 * check's note, e.g. memory_leaks naming a one-time allocation) must match */
static const char *security_check_detail;

static void case_check_detail(void **state)
{
    const expectation *e = *state;
    const char *spec = security_check_detail, *eq = strchr(spec, '=');
    if (!eq)
        fail_msg("--security-check-detail wants check=REGEX, got \"%s\"", spec);
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(record(e), "checks"))
    {
        const char *check = str(c, "name"), *d = str(c, "detail");
        if (strlen(check) != (size_t)(eq - spec) || strncmp(check, spec, (size_t)(eq - spec)) != 0)
            continue;
        regex_t re;
        if (regcomp(&re, eq + 1, REG_EXTENDED | REG_NOSUB) != 0)
            fail_msg("bad regular expression \"%s\"", eq + 1);
        int no = regexec(&re, d, 0, NULL, 0);
        regfree(&re);
        if (no)
            fail_msg("%s check %s: detail \"%s\" does not match \"%s\"", e->label, check, d, eq + 1);
        return;
    }
    fail_msg("%s: the record has no check %.*s", e->path, (int)(eq - spec), spec);
}

/* one CMocka case "<label>_<what>" */
static void add_case(struct CMUnitTest *tests, int *n, expectation *e, const char *what, void (*fn)(void **))
{
    static char names[3 * NLABELS + 1][48];
    snprintf(names[*n], sizeof names[*n], "%s_%s", e->label, what);
    tests[*n] = (struct CMUnitTest){names[*n], fn, NULL, NULL, e};
    (*n)++;
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {{"name", 1, 0, 'n'},
                                       {"records", 1, 0, 'r'},
                                       {"kat", 1, 0, 'k'},
                                       {"kat-detail", 1, 0, 'K'},
                                       {"security", 1, 0, 's'},
                                       {"security-checks", 1, 0, 'c'},
                                       {"security-detail", 1, 0, 'S'},
                                       {"sanitizer", 1, 0, 'a'},
                                       {"sanitizer-checks", 1, 0, 'C'},
                                       {"sanitizer-detail", 1, 0, 'A'},
                                       {"memcheck", 1, 0, 'm'},
                                       {"memcheck-detail", 1, 0, 'M'},
                                       {"security-check-detail", 1, 0, 'D'},
                                       {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'n':
            name = optarg;
            break;
        case 'r':
            records = optarg;
            break;
        case 'k':
            E[KAT].verdict = optarg;
            break;
        case 'K':
            E[KAT].detail = optarg;
            break;
        case 's':
            E[SECURITY].verdict = optarg;
            break;
        case 'c':
            E[SECURITY].checks = optarg;
            break;
        case 'S':
            E[SECURITY].detail = optarg;
            break;
        case 'a':
            E[SANITIZER].verdict = optarg;
            break;
        case 'C':
            E[SANITIZER].checks = optarg;
            break;
        case 'A':
            E[SANITIZER].detail = optarg;
            break;
        case 'm':
            E[MEMCHECK].verdict = optarg;
            break;
        case 'M':
            E[MEMCHECK].detail = optarg;
            break;
        case 'D':
            security_check_detail = optarg;
            break;
        default:
            return -1;
        }
    }
    return name && records ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (parse(argc, argv)) {
        fprintf(stderr, "usage: ngcc-zoo-selftest --name <cand>/<inst> --records <dir>\n"
                        "       [--kat V [--kat-detail RE]] [--security V [--security-checks SPEC] "
                        "[--security-detail RE] [--security-check-detail CHECK=RE]]\n"
                        "       [--sanitizer V [--sanitizer-checks SPEC] [--sanitizer-detail RE]]\n"
                        "       [--memcheck V [--memcheck-detail RE]]\n");
        return 2;
    }
    struct CMUnitTest tests[3 * NLABELS + 1];
    int n = 0;
    for (int l = 0; l < NLABELS; l++) {
        expectation *e = &E[l];
        if (!e->verdict)
            continue;
        snprintf(e->path, sizeof e->path, "%s/%s", records, e->file);
        e->rec = ngcc_record_load(e->path);
        add_case(tests, &n, e, "verdict", case_verdict);
        if (e->checks)
            add_case(tests, &n, e, "checks", case_checks);
        if (e->detail)
            add_case(tests, &n, e, "detail", case_detail);
        if (l == SECURITY && security_check_detail)
            add_case(tests, &n, e, "check_detail", case_check_detail);
    }
    char group[300];
    snprintf(group, sizeof group, "selftest %s", name);
    int failed = _cmocka_run_group_tests(group, tests, (size_t)n, NULL, NULL);
    for (int l = 0; l < NLABELS; l++)
        cJSON_Delete(E[l].rec);
    printf("ngcc: selftest %s: %s\n", name, failed ? "FAILED" : "all declared verdicts hold");
    return failed ? 1 : 0;
}
