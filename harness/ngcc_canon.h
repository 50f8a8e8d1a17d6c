/* ngcc-ctest: the canonical KAT text and its digests.
 * Canonical text (manifest format: README.md, "KAT digests"): strip CR and
 * trailing spaces/tabs from each line, drop empty lines, end every kept line
 * with "\n". "nolen" also drops every "<Name>_Len = ..." line; ":N" covers
 * only the first N records (Count = 0 .. Count = N-1). */
#ifndef NGCC_CANON_H
#define NGCC_CANON_H
#include <stddef.h>

#define NGCC_MAX_RECORDS 1000

/* strips trailing CR, spaces and tabs in place; returns the new length */
size_t ngcc_canon_strip(char *line, size_t len);
/* 1 if the line is "<Name>_Len = ..." */
int ngcc_canon_is_len_line(const char *line, size_t len);
/* 1 and *count if the line is "Count = <n>" */
int ngcc_canon_count_line(const char *line, size_t len, long *count);
/* 1 if line is "<Name>_Len =" with an empty value (blank template style) */
int ngcc_canon_is_blank_len(const char *line, size_t len);

/* Streaming digests of the canonical text, with the value for every record
 * prefix (first N records) kept so any ":N" manifest line can be checked. */
typedef struct ngcc_katdigest ngcc_katdigest;
ngcc_katdigest *ngcc_katdigest_new(void);
/* feed one already-stripped, non-empty line (without "\n") */
void ngcc_katdigest_line(ngcc_katdigest *d, const char *line, size_t len);
/* closes the stream: the digest of all records fed so far is final */
void ngcc_katdigest_finish(ngcc_katdigest *d);
/* number of complete records seen (after finish) */
long ngcc_katdigest_records(const ngcc_katdigest *d);
/* hex digest of the first n records (n <= records), or NULL */
const char *ngcc_katdigest_get(const ngcc_katdigest *d, int nolen, long n);
void ngcc_katdigest_free(ngcc_katdigest *d);

/* One kat.sha256 line: "<sha256-hex> <strict|nolen>[:N] <label>/<file>". */
typedef struct {
    char hex[65]; /* lower case */
    int nolen;
    long records;    /* N of ":N"; 0 = the whole file */
    long line;       /* 1-based line number in the manifest */
    char path[1024]; /* "<label>/<file>" as written */
    char text[1200]; /* the whole line, stripped */
} ngcc_manifest_line;

/* The malformed lines of a manifest: the first one, and the first one whose
 * last word names the file looked up (a line meant for it), with why. */
typedef struct {
    long first;     /* line number of the first malformed line, 0: none */
    long for_file;  /* line number of the first malformed line naming the file, 0: none */
    char text[300]; /* that line, stripped */
    char why[200];  /* what is wrong with it */
} ngcc_manifest_bad;

/* The manifest lines whose file name (the part of the path after the last
 * '/') equals the file name of key ("<label>/KAT_<TYPE>_<AI>.txt" or just the
 * file name): the label before it is not compared, since real manifests key
 * a line by the folder label or by the ALGORITHM_INSTANCE name. Stores at
 * most max lines in out and returns how many lines matched (may be > max),
 * or -1 if the file cannot be read; *bad says which lines were malformed. */
int ngcc_manifest_lines(const char *path, const char *key, ngcc_manifest_line *out, int max, ngcc_manifest_bad *bad);

#endif
