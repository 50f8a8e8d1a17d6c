/* ngcc-manifest: writes or updates kat.sha256 digest manifests.
 *
 *   ngcc-manifest [--update kat.sha256] [--mode strict|nolen] [--records N]
 *                 <label>/<KAT file name>=<path to KAT file> ...
 *
 * Prints one line "<sha256> <mode>[:N] <label>/<file>" per KAT file over its
 * canonical text (see harness/ngcc_canon.h). With --update, the manifest file
 * is rewritten atomically: lines for the given keys are replaced, others kept. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ngcc_canon.h"
#include "ngcc_util.h"

static const char usage[] =
    "usage: ngcc-manifest [--update kat.sha256] [--mode strict|nolen] [--records N]\n"
    "                     <label>/<file>=<KAT path> ...\n"
    "  prints one '<sha256> <mode>[:N] <label>/<file>' line per KAT file (its canonical text);\n"
    "  --update rewrites that manifest, replacing the lines of the given keys\n";

static int digest_file(const char *path, int nolen, long records, char out[65])
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "ngcc-manifest: %s: not a regular file; give the path of a KAT file\n", path);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ngcc-manifest: %s: cannot open KAT file\n", path);
        return -1;
    }
    ngcc_katdigest *d = ngcc_katdigest_new();
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, lines = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        char *s = line;
        if (++lineno == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3;
            n -= 3;
        }
        size_t len = ngcc_canon_strip(s, (size_t)n);
        long cnt;
        if (records && ngcc_canon_count_line(s, len, &cnt) && cnt >= records)
            break;
        if (len) {
            ngcc_katdigest_line(d, s, len);
            lines++;
        }
    }
    free(line);
    fclose(f);
    ngcc_katdigest_finish(d);
    if (lines == 0) {
        fprintf(stderr, "ngcc-manifest: %s: no text (empty or blank lines only); give the path of a KAT file\n", path);
        ngcc_katdigest_free(d);
        return -1;
    }
    long have = ngcc_katdigest_records(d);
    const char *h = ngcc_katdigest_get(d, nolen, records ? records : have);
    int rc = 0;
    if (!h || (records && have < records)) {
        fprintf(stderr, "ngcc-manifest: %s: has %ld records, fewer than %ld\n", path, have, records);
        rc = -1;
    } else {
        memcpy(out, h, 65);
    }
    ngcc_katdigest_free(d);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {
        {"update", 1, 0, 'u'}, {"mode", 1, 0, 'm'}, {"records", 1, 0, 'N'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const char *update = NULL;
    int nolen = 0;
    long records = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        char *end = NULL;
        if (c == 'u') {
            update = optarg;
        } else if (c == 'm') {
            if (strcmp(optarg, "strict") && strcmp(optarg, "nolen")) {
                fprintf(stderr, "ngcc-manifest: --mode '%s': expected strict or nolen\n", optarg);
                return 2;
            }
            nolen = !strcmp(optarg, "nolen");
        } else if (c == 'N') {
            records = strtol(optarg, &end, 10);
            if (!*optarg || *end || records < 1) {
                fprintf(stderr, "ngcc-manifest: --records '%s': expected a whole number of records, 1 or more\n",
                        optarg);
                return 2;
            }
        } else if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        } else { /* getopt named the option */
            fputs(usage, stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "ngcc-manifest: no <label>/<file>=<KAT path> argument given\n");
        return 2;
    }
    /* new lines */
    size_t outcap = 4096, outlen = 0;
    char *out = malloc(outcap);
    out[0] = 0;
    int nkeys = argc - optind;
    char **keys = calloc((size_t)nkeys, sizeof *keys);
    for (int i = 0; i < nkeys; i++) {
        char *arg = argv[optind + i], *eq = strchr(arg, '=');
        if (!eq || eq == arg || !eq[1]) {
            fprintf(stderr, "ngcc-manifest: '%s': expected <label>/<file>=<KAT path>\n", arg);
            return 2;
        }
        *eq = 0;
        keys[i] = arg;
        char hex[65];
        if (digest_file(eq + 1, nolen, records, hex))
            return 1;
        char mode[32];
        snprintf(mode, sizeof mode, "%s", nolen ? "nolen" : "strict");
        if (records)
            snprintf(mode + strlen(mode), sizeof mode - strlen(mode), ":%ld", records);
        char line[8192];
        int ln = snprintf(line, sizeof line, "%s %s %s\n", hex, mode, arg);
        if (outlen + (size_t)ln + 1 > outcap) {
            outcap = 2 * (outcap + (size_t)ln);
            out = realloc(out, outcap);
        }
        memcpy(out + outlen, line, (size_t)ln + 1);
        outlen += (size_t)ln;
    }
    if (!update) {
        fputs(out, stdout);
        return 0;
    }
    /* keep the existing lines whose key is not being replaced */
    size_t oldlen = 0;
    char *old = ngcc_read_file(update, &oldlen);
    size_t newcap = oldlen + outlen + 1, newlen = 0;
    char *merged = malloc(newcap);
    if (old) {
        char *save = NULL;
        for (char *l = strtok_r(old, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            char h[80], m[32], p[4096];
            int keep = 1;
            if (sscanf(l, "%79s %31s %4095s", h, m, p) == 3)
                for (int i = 0; i < nkeys; i++)
                    if (!strcmp(p, keys[i]))
                        keep = 0;
            if (keep) {
                size_t ll = strlen(l);
                memcpy(merged + newlen, l, ll);
                newlen += ll;
                merged[newlen++] = '\n';
            }
        }
    }
    memcpy(merged + newlen, out, outlen);
    newlen += outlen;
    if (ngcc_write_atomic(update, merged, newlen)) {
        fprintf(stderr, "ngcc-manifest: cannot write %s\n", update);
        return 1;
    }
    fprintf(stderr, "ngcc-manifest: %s: %d line(s) written\n", update, nkeys);
    return 0;
}
