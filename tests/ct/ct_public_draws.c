#define _GNU_SOURCE /* memmem */
#include "ct_public_draws.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OUTPUTS 16
#define MAX_OPS 16
#define COPY_MIN 16  /* bytes of a copy (the whole draw when shorter) */
#define COPY_SHORT 8 /* shorter draws are never called copies */

static struct {
    char name[16];
    unsigned char *p;
    unsigned long long len;
} outs[MAX_OUTPUTS];
static int n_outs;
static struct {
    char op[16];
    unsigned long long first, end;
} ops[MAX_OPS];
static int n_ops;

void ct_public_output(const char *name, const unsigned char *p, unsigned long long len)
{
    if (n_outs == MAX_OUTPUTS || !len || !(outs[n_outs].p = malloc((size_t)len)))
        return;
    memcpy(outs[n_outs].p, p, (size_t)len);
    snprintf(outs[n_outs].name, sizeof outs[n_outs].name, "%s", name);
    outs[n_outs++].len = len;
}

void ct_public_draws_op(const char *op, unsigned long long first, unsigned long long end)
{
    if (n_ops == MAX_OPS || first == end)
        return;
    snprintf(ops[n_ops].op, sizeof ops[n_ops].op, "%s", op);
    ops[n_ops].first = first;
    ops[n_ops++].end = end;
}

static int varied(const unsigned char *p, unsigned long long w)
{
    unsigned char seen[256] = {0};
    unsigned long long n = 0;
    for (unsigned long long i = 0; i < w; i++)
        if (!seen[p[i]]++)
            n++;
    return 2 * n >= w;
}

static const char *op_of(unsigned long long draw)
{
    for (int i = 0; i < n_ops; i++)
        if (draw >= ops[i].first && draw < ops[i].end)
            return ops[i].op;
    return "?";
}

/* the copies of draw d (kept bytes p) in the outputs: a window found in an
 * output is extended as far as both go on agreeing */
static void report_draw(unsigned long long d, const unsigned char *p, unsigned long long len, unsigned long long kept)
{
    unsigned long long w = kept < COPY_MIN ? kept : COPY_MIN;
    if (w < COPY_SHORT || (kept < COPY_MIN && kept != len))
        return;
    unsigned long long i = 0;
    while (i + w <= kept) {
        int hit = 0;
        for (int o = 0; o < n_outs && !hit && varied(p + i, w); o++) {
            const unsigned char *at = memmem(outs[o].p, (size_t)outs[o].len, p + i, (size_t)w);
            if (!at)
                continue;
            unsigned long long off = (unsigned long long)(at - outs[o].p), n = w;
            while (i + n < kept && off + n < outs[o].len && p[i + n] == outs[o].p[off + n])
                n++;
            printf("#DRAWPUB %llu %s %llu %llu %llu %s %llu\n", d, op_of(d), i, i + n, len, outs[o].name, off);
            i += n;
            hit = 1;
        }
        if (!hit)
            i++;
    }
}

void ct_public_draws_report(ct_draw_fn get)
{
    for (unsigned long long d = 0;; d++) {
        unsigned long long len, kept;
        int secret;
        const unsigned char *p = get(d, &len, &kept, &secret);
        if (!p)
            break;
        if (secret)
            report_draw(d, p, len, kept);
    }
    fflush(stdout);
}
