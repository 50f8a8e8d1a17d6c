#define _GNU_SOURCE
#include "kat_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_canon.h"

int kat_compare_open(kat_compare *c, const char *ref_path, long records)
{
    memset(c, 0, sizeof *c);
    c->ref = fopen(ref_path, "rb");
    if (!c->ref)
        return -1;
    c->records = records;
    c->record_bad = calloc((size_t)records + 1, 1);
    c->cur_record = -1;
    return 0;
}

/* next canonical reference line into c->rbuf; length, or -1 at the end */
static long next_ref(kat_compare *c)
{
    ssize_t n;
    while ((n = getline(&c->rbuf, &c->rcap, c->ref)) >= 0) {
        c->ref_line++;
        char *s = c->rbuf;
        if (c->ref_line == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            memmove(s, s + 3, (size_t)n - 2);
            n -= 3;
        }
        size_t len = ngcc_canon_strip(s, (size_t)n);
        if (len > 0)
            return (long)len;
    }
    c->ref_done = 1;
    return -1;
}

/* a window of at most 120 chars of a line around column col */
static void clip(char *dst, const char *src, size_t len, size_t col)
{
    size_t from = col > 40 ? col - 40 : 0;
    if (from > len)
        from = len;
    size_t n = len - from < 120 ? len - from : 120;
    int k = 0;
    if (from > 0)
        k = sprintf(dst, "[...]");
    memcpy(dst + k, src + from, n);
    k += (int)n;
    if (from + n < len)
        k += sprintf(dst + k, "[...]");
    dst[k] = 0;
}

static void mismatch(kat_compare *c, const char *exp, size_t elen, const char *got, size_t glen)
{
    long r = c->cur_record < 0 ? 0 : c->cur_record;
    if (r < c->records)
        c->record_bad[r] = 1;
    if (c->mismatch)
        return;
    c->mismatch = 1;
    c->mm_record = r;
    c->mm_line = c->ref_line;
    size_t col = 0;
    while (col < elen && col < glen && exp[col] == got[col])
        col++;
    c->mm_col = (long)col + 1;
    clip(c->mm_expected, exp, elen, col);
    clip(c->mm_got, got, glen, col);
}

/* "<Name>_Len = <digits>" produced against "<Name>_Len =" blank reference */
static int blank_len_ok(const char *ref, size_t rlen, const char *got, size_t glen)
{
    if (!ngcc_canon_is_blank_len(ref, rlen) || !ngcc_canon_is_len_line(got, glen))
        return 0;
    size_t name = (size_t)(strchr(ref, '_') - ref);
    return glen > name && memcmp(ref, got, name) == 0 && got[name] == '_';
}

void kat_compare_line(kat_compare *c, const char *line, size_t len)
{
    long cnt;
    if (ngcc_canon_count_line(line, len, &cnt)) {
        c->cur_record = cnt;
        if (cnt >= c->records)
            c->stopped = 1;
    }
    if (c->stopped)
        return;
    long rl = next_ref(c);
    if (rl < 0) {
        static const char end[] = "(end of reference file)";
        if (!c->mismatch && !ngcc_canon_count_line(line, len, &cnt)) {
            c->ref_damaged = 1;
            snprintf(c->damage, sizeof c->damage,
                     "it ends in the middle of record %ld, after line %ld (a truncated file: the record's next "
                     "line would be \"%.60s\")",
                     c->cur_record < 0 ? 0 : c->cur_record, c->ref_line, line);
        }
        mismatch(c, end, sizeof end - 1, line, len);
        return;
    }
    if ((size_t)rl == len && memcmp(c->rbuf, line, len) == 0)
        return;
    if (blank_len_ok(c->rbuf, (size_t)rl, line, len)) {
        c->tolerated_blank_len++;
        return;
    }
    int first = !c->mismatch;
    mismatch(c, c->rbuf, (size_t)rl, line, len);
    /* the reference's last line a strict prefix of the produced one: cut short */
    if (first && (size_t)rl < len && memcmp(c->rbuf, line, (size_t)rl) == 0) {
        long at = c->ref_line;
        if (next_ref(c) < 0) {
            c->ref_damaged = 1;
            snprintf(c->damage, sizeof c->damage,
                     "its last line (line %ld, in record %ld) is cut short: %ld of the %zu characters the record's "
                     "line has (a truncated file)",
                     at, c->cur_record < 0 ? 0 : c->cur_record, rl, len);
        }
    }
}

void kat_compare_finish(kat_compare *c, int run_complete)
{
    if (!run_complete || c->ref_done)
        return;
    long rl = next_ref(c);
    long cnt;
    if (rl < 0)
        return;
    int is_count = ngcc_canon_count_line(c->rbuf, (size_t)rl, &cnt);
    if (is_count && cnt >= c->records)
        return;
    static const char end[] = "(end of produced text)";
    /* the record the missing reference line belongs to: a Count line's own,
     * else the record the produced text ended in (a KEX run the official
     * driver stops mid-record) */
    if (is_count)
        c->cur_record = cnt;
    else if (c->cur_record < 0 || c->cur_record >= c->records)
        c->cur_record = c->records - 1;
    mismatch(c, c->rbuf, (size_t)rl, end, sizeof end - 1);
}

void kat_compare_close(kat_compare *c)
{
    if (c->ref)
        fclose(c->ref);
    free(c->rbuf);
    free(c->record_bad);
    memset(c, 0, sizeof *c);
}
