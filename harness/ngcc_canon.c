#define _GNU_SOURCE
#include "ngcc_canon.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t ngcc_canon_strip(char *line, size_t len)
{
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\n'))
        len--;
    line[len] = 0;
    return len;
}

/* length of a leading "<Name>_Len" token followed by optional blanks and '=' */
static size_t len_prefix(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (isalnum((unsigned char)line[i])))
        i++;
    if (i == 0 || i + 4 > len || memcmp(line + i, "_Len", 4) != 0)
        return 0;
    i += 4;
    while (i < len && line[i] == ' ')
        i++;
    if (i >= len || line[i] != '=')
        return 0;
    return i + 1;
}

int ngcc_canon_is_len_line(const char *line, size_t len)
{
    return len_prefix(line, len) != 0;
}

int ngcc_canon_is_blank_len(const char *line, size_t len)
{
    size_t p = len_prefix(line, len);
    if (!p)
        return 0;
    while (p < len && (line[p] == ' ' || line[p] == '\t'))
        p++;
    return p == len;
}

int ngcc_canon_count_line(const char *line, size_t len, long *count)
{
    if (len < 9 || memcmp(line, "Count = ", 8) != 0)
        return 0;
    char *end;
    long v = strtol(line + 8, &end, 10);
    if (end != line + len)
        return 0;
    *count = v;
    return 1;
}

struct ngcc_katdigest {
    EVP_MD_CTX *ctx[2]; /* [0] strict, [1] nolen */
    long records;       /* complete records so far */
    int started;        /* a Count line has been seen */
    int finished;
    char (*hex)[2][65]; /* hex[n][mode]: digest of the first n records */
};

ngcc_katdigest *ngcc_katdigest_new(void)
{
    ngcc_katdigest *d = calloc(1, sizeof *d);
    d->hex = calloc(NGCC_MAX_RECORDS + 1, sizeof *d->hex);
    for (int m = 0; m < 2; m++) {
        d->ctx[m] = EVP_MD_CTX_new();
        EVP_DigestInit_ex(d->ctx[m], EVP_sha256(), NULL);
    }
    return d;
}

static void snapshot(ngcc_katdigest *d, long n)
{
    if (n > NGCC_MAX_RECORDS)
        return;
    for (int m = 0; m < 2; m++) {
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        unsigned char md[32];
        EVP_MD_CTX_copy_ex(c, d->ctx[m]);
        EVP_DigestFinal_ex(c, md, NULL);
        EVP_MD_CTX_free(c);
        for (int i = 0; i < 32; i++)
            sprintf(d->hex[n][m] + 2 * i, "%02x", md[i]);
    }
}

void ngcc_katdigest_line(ngcc_katdigest *d, const char *line, size_t len)
{
    long c;
    if (ngcc_canon_count_line(line, len, &c)) {
        if (d->started) {
            d->records++;
            snapshot(d, d->records);
        }
        d->started = 1;
    }
    EVP_DigestUpdate(d->ctx[0], line, len);
    EVP_DigestUpdate(d->ctx[0], "\n", 1);
    if (!ngcc_canon_is_len_line(line, len)) {
        EVP_DigestUpdate(d->ctx[1], line, len);
        EVP_DigestUpdate(d->ctx[1], "\n", 1);
    }
}

void ngcc_katdigest_finish(ngcc_katdigest *d)
{
    if (d->finished)
        return;
    d->finished = 1;
    if (d->started)
        d->records++;
    snapshot(d, d->records);
}

long ngcc_katdigest_records(const ngcc_katdigest *d)
{
    return d->records;
}

const char *ngcc_katdigest_get(const ngcc_katdigest *d, int nolen, long n)
{
    if (n < 0 || n > d->records || n > NGCC_MAX_RECORDS || (n == 0 && d->records != 0))
        return NULL;
    return d->hex[n][nolen ? 1 : 0];
}

void ngcc_katdigest_free(ngcc_katdigest *d)
{
    if (!d)
        return;
    EVP_MD_CTX_free(d->ctx[0]);
    EVP_MD_CTX_free(d->ctx[1]);
    free(d->hex);
    free(d);
}

/* "<mode>[:N]" -> nolen, records; 0 or -1 */
static int parse_mode(const char *m, int *nolen, long *records)
{
    char mode[32];
    snprintf(mode, sizeof mode, "%s", m);
    *records = 0;
    char *colon = strchr(mode, ':');
    if (colon) {
        char *end;
        *records = strtol(colon + 1, &end, 10);
        if (*end || *records < 1)
            return -1;
        *colon = 0;
    }
    if (strcmp(mode, "strict") == 0)
        *nolen = 0;
    else if (strcmp(mode, "nolen") == 0)
        *nolen = 1;
    else
        return -1;
    return 0;
}

/* why a manifest line that did not parse is malformed */
static void malformed_why(const char *line, char *why, size_t cap)
{
    char w[3][1024];
    int n = sscanf(line, "%1023s %1023s %1023s", w[0], w[1], w[2]);
    int hex_ok = strlen(w[0]) == 64 && strspn(w[0], "0123456789abcdefABCDEF") == 64;
    if (!hex_ok)
        snprintf(why, cap, "the digest is not 64 hexadecimal digits");
    else if (n == 2)
        snprintf(why, cap,
                 "no mode: '<sha256>  <file>' is sha256sum's format, a digest of the raw bytes; a manifest line "
                 "digests the canonical text (write it with ngcc-manifest)");
    else if (n < 2)
        snprintf(why, cap, "no mode and no file");
    else
        snprintf(why, cap, "unknown mode '%.60s' (strict, nolen, strict:N or nolen:N)", w[1]);
}

int ngcc_manifest_lines(const char *path, const char *key, ngcc_manifest_line *out, int max, ngcc_manifest_bad *bad)
{
    FILE *f = fopen(path, "r");
    memset(bad, 0, sizeof *bad);
    if (!f)
        return -1;
    const char *file = strrchr(key, '/');
    file = file ? file + 1 : key;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long no = 0;
    int found = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        no++;
        size_t len = ngcc_canon_strip(line, (size_t)n);
        if (no == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
            memmove(line, line + 3, len - 2); /* the BOM out, the NUL kept */
        if (line[0] == 0 || line[0] == '#')
            continue;
        char h[80], m[32], p[1024];
        int nolen;
        long records;
        if (sscanf(line, "%79s %31s %1023[^\n]", h, m, p) != 3 || strlen(h) != 64 ||
            strspn(h, "0123456789abcdefABCDEF") != 64 || parse_mode(m, &nolen, &records) != 0) {
            if (bad->first == 0)
                bad->first = no;
            const char *last = strrchr(line, ' '), *lbase;
            last = last ? last + 1 : line;
            lbase = strrchr(last, '/');
            lbase = lbase ? lbase + 1 : last;
            if (bad->for_file == 0 && strcmp(lbase, file) == 0) {
                bad->for_file = no;
                snprintf(bad->text, sizeof bad->text, "%s", line);
                malformed_why(line, bad->why, sizeof bad->why);
            }
            continue;
        }
        const char *base = strrchr(p, '/');
        base = base ? base + 1 : p;
        if (strcmp(base, file) != 0)
            continue;
        if (found < max) {
            ngcc_manifest_line *o = &out[found];
            for (int i = 0; i < 64; i++)
                o->hex[i] = (char)tolower((unsigned char)h[i]);
            o->hex[64] = 0;
            o->nolen = nolen;
            o->records = records;
            o->line = no;
            snprintf(o->path, sizeof o->path, "%s", p);
            snprintf(o->text, sizeof o->text, "%s", line);
        }
        found++;
    }
    free(line);
    fclose(f);
    return found;
}
