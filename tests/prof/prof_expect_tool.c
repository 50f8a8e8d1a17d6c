/* ngcc-prof-expect: writes or refreshes a candidate's prof expectation file
 * from the prof records of the last run (<records>/<cand>/<key>/prof-<op>.json).
 * Zoo variants (keys with '~') and failed measurements (any verdict other
 * than PASS, RECORDED, MISMATCH or the older NOKAT) are never written; entries of instances and
 * operations not in the run are kept. Prints what changed. */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_util.h"
#include "prof_expect.h"

#define MAX_FILTER 16

static const char *const ops[] = {"keygen", "sign",  "verify", "enc",      "dec",      "init_a",
                                  "init_b", "pass1", "pass2",  "pass3",    "pass4",    "pass5",
                                  "pass6",  "pass7", "pass8",  "derive_a", "derive_b", "hash"};

static struct {
    const char *records_dir, *out, *candidate;
    const char *only[MAX_FILTER];
    int nonly, dry_run, changed;
} T;

static void usage(void)
{
    fprintf(stderr, "usage: ngcc-prof-expect --records-dir <build>/records/<candidate> --out <expectation.json>\n"
                    "       [--candidate <id>] [--instance <key>]... [--dry-run]\n");
}

static int selected(const char *key)
{
    if (strchr(key, '~'))
        return 0; /* zoo variants are gated against their parent's entry */
    if (T.nonly == 0)
        return 1;
    for (int i = 0; i < T.nonly; i++)
        if (strcmp(T.only[i], key) == 0)
            return 1;
    return 0;
}

static int usable_verdict(const char *v)
{
    return !strcmp(v, "PASS") || !strcmp(v, "RECORDED") || !strcmp(v, "MISMATCH") || !strcmp(v, "NOKAT");
}

/* one record into the expectation; 0 ok, 1 skipped */
static int take_record(cJSON *root, const char *key, const char *op, const char *path)
{
    cJSON *rec = ngcc_record_load(path);
    if (!rec)
        return 1;
    const cJSON *v = cJSON_GetObjectItem(rec, "verdict");
    const cJSON *gate = cJSON_GetObjectItem(rec, "gate");
    const char *verdict = cJSON_IsString(v) ? v->valuestring : "?";
    if (!usable_verdict(verdict) || !cJSON_IsObject(gate)) {
        printf("%s %s: skipped, verdict %s (a failed measurement is never an expectation)\n", key, op, verdict);
        cJSON_Delete(rec);
        return 1;
    }
    const cJSON *old = prof_expect_entry(root, key, op);
    prof_diff d;
    char err[300] = "";
    int nd = old ? prof_expect_compare(old, gate, op, &d, err, sizeof err) : -1;
    if (old && nd == 0 && !d.note[0]) {
        printf("%s %s: unchanged\n", key, op);
    } else {
        printf("%s %s: %s\n", key, op, !old ? "new" : nd < 0 ? "replaced (old entry malformed)" : "updated");
        for (int i = 0; old && nd > 0 && i < d.nlines; i++)
            printf("  %s\n", d.lines[i]);
        prof_expect_put(root, key, op, gate);
        T.changed = 1;
    }
    cJSON_Delete(rec);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* instance folders of the records dir, sorted */
static int list_instances(char ***keys)
{
    DIR *d = opendir(T.records_dir);
    if (!d)
        return -1;
    int n = 0, cap = 16;
    *keys = malloc((size_t)cap * sizeof **keys);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !selected(e->d_name))
            continue;
        if (n == cap)
            *keys = realloc(*keys, (size_t)(cap *= 2) * sizeof **keys);
        (*keys)[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(*keys, (size_t)n, sizeof **keys, cmp_str);
    return n;
}

static cJSON *load_or_new(void)
{
    char err[400];
    const char *used;
    char *paths[1] = {(char *)T.out};
    cJSON *root = prof_expect_load(paths, 1, &used, err, sizeof err);
    if (err[0]) {
        fprintf(stderr, "ngcc-prof-expect: %s\n", err);
        return NULL;
    }
    if (!root) {
        root = cJSON_CreateObject();
        cJSON_AddNumberToObject(root, "schema", PROF_EXPECT_SCHEMA);
        cJSON_AddStringToObject(root, "kind", "prof-expectation");
        cJSON_AddStringToObject(root, "candidate", T.candidate ? T.candidate : "");
        cJSON_AddStringToObject(
            root, "comment",
            "ICCS call counts per KAT record (records 0..N-1 of the official KAT flow) for each instance and "
            "operation; the prof tests fail on any difference. Written by ngcc-prof-expect from a prof run.");
        cJSON_AddObjectToObject(root, "instances");
    }
    return root;
}

static int parse_args(int argc, char **argv)
{
    static const struct option lo[] = {{"records-dir", 1, 0, 'r'}, {"out", 1, 0, 'o'},     {"candidate", 1, 0, 'c'},
                                       {"instance", 1, 0, 'i'},    {"dry-run", 0, 0, 'n'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'r':
            T.records_dir = optarg;
            break;
        case 'o':
            T.out = optarg;
            break;
        case 'c':
            T.candidate = optarg;
            break;
        case 'i':
            if (T.nonly < MAX_FILTER)
                T.only[T.nonly++] = optarg;
            break;
        case 'n':
            T.dry_run = 1;
            break;
        default:
            return -1;
        }
    }
    return T.records_dir && T.out ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (parse_args(argc, argv)) {
        usage();
        return 2;
    }
    cJSON *root = load_or_new();
    if (!root)
        return 1;
    char **keys = NULL;
    int n = list_instances(&keys);
    if (n < 0) {
        fprintf(stderr,
                "ngcc-prof-expect: %s: cannot read the records folder; run the prof tests first "
                "(ctest -L prof)\n",
                T.records_dir);
        return 1;
    }
    int taken = 0;
    for (int i = 0; i < n; i++) {
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            char *path;
            if (asprintf(&path, "%s/%s/prof-%s.json", T.records_dir, keys[i], ops[o]) < 0)
                return 1;
            if (access(path, R_OK) == 0 && take_record(root, keys[i], ops[o], path) == 0)
                taken++;
            free(path);
        }
        free(keys[i]);
    }
    free(keys);
    if (taken == 0) {
        fprintf(stderr, "ngcc-prof-expect: no usable prof record under %s; run the prof tests first (ctest -L prof)\n",
                T.records_dir);
        cJSON_Delete(root);
        return 1;
    }
    int rc = 0;
    if (T.changed && !T.dry_run) {
        char *text = cJSON_Print(root);
        size_t len = strlen(text);
        text = realloc(text, len + 2);
        text[len++] = '\n';
        text[len] = 0;
        rc = ngcc_write_atomic(T.out, text, len) ? 1 : 0;
        printf(rc ? "ngcc-prof-expect: cannot write %s\n" : "ngcc-prof-expect: wrote %s\n", T.out);
        free(text);
    } else {
        printf("ngcc-prof-expect: %s %s\n", T.out, T.changed ? "would change (dry run)" : "is up to date");
    }
    cJSON_Delete(root);
    return rc;
}
