/* ngcc-prof-summary: the per-instance profile in the published campaign's
 * format, from the prof records (<records>/<cand>/<key>/prof-<op>.json):
 *   WOTS-128: keygen `sm3hash 16100, pseudoXOF 1070, drng 2`, sign `...`;
 *   pseudohash/XOF/sm3 share 97% / 97% / 95%, DRNG share 0.01% / ...
 * plus a Markdown table with one row per instance and operation. Calls are
 * means over the KAT records, 3 significant figures, ordered by count.
 * Fails if no record is found or one cannot be read. */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_record.h"
#include "ngcc_util.h"
#include "prof_format.h"

static const char *const ops[] = {"keygen", "sign",  "verify", "enc",      "dec",      "init_a",
                                  "init_b", "pass1", "pass2",  "pass3",    "pass4",    "pass5",
                                  "pass6",  "pass7", "pass8",  "derive_a", "derive_b", "hash"};
#define NOPS (int)(sizeof ops / sizeof ops[0])

typedef struct {
    char *table, *lines;
    size_t tl, ll;
    int found, bad;
} out_text;

static void append(char **buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    *buf = realloc(*buf, *len + (size_t)n + 1);
    memcpy(*buf + *len, s, (size_t)n + 1);
    *len += (size_t)n;
    free(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorted sub-folder names of dir (NULL-terminated); NULL if dir is unreadable */
static char **subdirs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    int n = 0, cap = 16;
    char **v = malloc((size_t)cap * sizeof *v);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || e->d_type == DT_REG)
            continue;
        if (n + 1 >= cap)
            v = realloc(v, (size_t)(cap *= 2) * sizeof *v);
        v[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(v, (size_t)n, sizeof *v, cmp_str);
    v[n] = NULL;
    return v;
}

static void free_list(char **v)
{
    for (int i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static double share(const cJSON *rec, const char *k)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "share"), k));
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* one instance: a table row per operation and one campaign-style line */
static void instance(out_text *o, const char *cand, const char *key, const char *dir)
{
    char calls[NOPS][400], hs[NOPS][32], ds[NOPS][32], drng[NOPS][160];
    const char *names[NOPS];
    int k = 0;
    for (int i = 0; i < NOPS; i++) {
        char *path;
        if (asprintf(&path, "%s/prof-%s.json", dir, ops[i]) < 0)
            continue;
        if (access(path, F_OK) != 0) {
            free(path);
            continue;
        }
        cJSON *rec = ngcc_record_load(path);
        free(path);
        o->found++;
        if (!rec || !cJSON_IsObject(cJSON_GetObjectItem(rec, "calls"))) {
            o->bad++;
            cJSON_Delete(rec);
            continue;
        }
        prof_fmt_calls(cJSON_GetObjectItem(rec, "calls"), calls[k], sizeof calls[k]);
        prof_fmt_drng(cJSON_GetObjectItem(rec, "calls"), drng[k], sizeof drng[k]);
        prof_fmt_pct(share(rec, "hash"), hs[k], sizeof hs[k]);
        prof_fmt_pct(share(rec, "drng"), ds[k], sizeof ds[k]);
        const cJSON *ov = cJSON_GetObjectItem(rec, "overhead");
        const cJSON *raw = cJSON_GetObjectItem(ov, "raw"), *cor = cJSON_GetObjectItem(ov, "corrected");
        char ovt[64] = "n/a";
        if (cJSON_IsNumber(raw) && cJSON_IsNumber(cor))
            snprintf(ovt, sizeof ovt, "%+.1f%% / %+.1f%%", 100 * raw->valuedouble, 100 * cor->valuedouble);
        append(&o->table, &o->tl, "| %s/%s | %s | %s | %s | %s | %s | %s | %s%s |\n", cand, key, ops[i], calls[k],
               drng[k] + 5 /* past "drng " */, hs[k], ds[k], ovt, str(rec, "verdict"),
               cJSON_IsTrue(cJSON_GetObjectItem(rec, "may_miss")) ? " (may miss)" : "");
        /* a step the exchange never reaches (SKIP) has no counts for the campaign line */
        if (strcmp(str(rec, "verdict"), "SKIP") != 0)
            names[k++] = ops[i];
        cJSON_Delete(rec);
    }
    if (k == 0)
        return;
    append(&o->lines, &o->ll, "- %s/%s:", cand, key);
    for (int i = 0; i < k; i++)
        append(&o->lines, &o->ll, "%s %s `%s`", i ? "," : "", names[i], calls[i]);
    append(&o->lines, &o->ll, "; pseudohash/XOF/sm3 share");
    for (int i = 0; i < k; i++)
        append(&o->lines, &o->ll, "%s%s", i ? " / " : " ", hs[i]);
    append(&o->lines, &o->ll, ", DRNG share");
    for (int i = 0; i < k; i++)
        append(&o->lines, &o->ll, "%s%s", i ? " / " : " ", ds[i]);
    append(&o->lines, &o->ll, "\n");
}

int main(int argc, char **argv)
{
    const char *records = NULL, *outp = NULL;
    static const struct option lo[] = {{"records-dir", 1, 0, 'r'}, {"out", 1, 0, 'o'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'r')
            records = optarg;
        else if (c == 'o')
            outp = optarg;
        else
            break;
    }
    if (!records) {
        fprintf(stderr, "usage: ngcc-prof-summary --records-dir <build>/records [--out <file.md>]\n");
        return 2;
    }
    out_text o = {0};
    char **cands = subdirs(records);
    for (int i = 0; cands && cands[i]; i++) {
        char *cdir;
        if (asprintf(&cdir, "%s/%s", records, cands[i]) < 0)
            continue;
        char **keys = subdirs(cdir);
        for (int j = 0; keys && keys[j]; j++) {
            char *kdir;
            if (asprintf(&kdir, "%s/%s", cdir, keys[j]) >= 0)
                instance(&o, cands[i], keys[j], kdir);
            free(kdir);
        }
        free_list(keys);
        free(cdir);
    }
    free_list(cands);
    char *doc = NULL;
    size_t dl = 0;
    append(
        &doc, &dl,
        "# ICCS hash and DRNG profile\n\nCalls per operation: mean over the KAT records, 3 significant "
        "figures, ordered by count (drng = every get_random_number call, in all DRNG contexts, as the published "
        "tables count them; the DRNG column splits it into drng_algorithm and other contexts). Shares: time inside the "
        "placeholder hashes (pseudohash, pseudoXOF, sm3hash) and inside the DRNG, corrected for the wrapper's "
        "own cost. Overhead: profiled vs plain library, raw / after that correction.\n\n%s\n"
        "| instance | op | calls per operation | DRNG calls | pseudohash/XOF/sm3 share | DRNG share | overhead | "
        "verdict |\n|---|---|---|---|---|---|---|---|\n%s",
        o.lines ? o.lines : "", o.table ? o.table : "");
    fputs(doc, stdout);
    int rc = 0;
    if (o.found == 0) {
        fprintf(stderr, "ngcc-prof-summary: no prof record under %s; run ctest -L prof first\n", records);
        rc = 1;
    } else if (o.bad) {
        fprintf(stderr, "ngcc-prof-summary: %d of %d prof records could not be read (see above)\n", o.bad, o.found);
        rc = 1;
    }
    if (outp && ngcc_write_atomic(outp, doc, dl) != 0) {
        fprintf(stderr, "ngcc-prof-summary: cannot write %s\n", outp);
        rc = 1;
    }
    free(doc);
    free(o.table);
    free(o.lines);
    return rc;
}
