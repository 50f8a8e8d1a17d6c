#include "sec_result.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

const char *sec_check_status(ngcc_verdict v, int notrun)
{
    if (notrun)
        return "NOTRUN";
    switch (v) {
    case NGCC_FINDING:
        return "FINDING";
    case NGCC_CRASH:
        return "CRASH";
    case NGCC_TIMEOUT:
        return "TIMEOUT";
    default:
        return ngcc_verdict_passing(v) ? "PASS" : "FAIL";
    }
}

void sec_issue_add(sec_issue *i, const char *fmt, ...)
{
    if (i->count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(i->first, sizeof i->first, fmt, ap);
        va_end(ap);
    }
}

void sec_issue_merge(sec_issue *a, const sec_issue *b)
{
    if (b->count == 0)
        return;
    if (a->count == 0)
        memcpy(a->first, b->first, sizeof a->first);
    a->count += b->count;
}

static void rc_add_n(sec_rc_hist *h, int rc, unsigned long n)
{
    for (int i = 0; i < h->n; i++)
        if (h->value[i] == rc) {
            h->count[i] += n;
            return;
        }
    if (h->n == SEC_RC_SLOTS) {
        h->other += n;
        return;
    }
    h->value[h->n] = rc;
    h->count[h->n++] = n;
}

void sec_rc_add(sec_rc_hist *h, int rc)
{
    rc_add_n(h, rc, 1);
}

void sec_rc_merge(sec_rc_hist *a, const sec_rc_hist *b)
{
    for (int i = 0; i < b->n; i++)
        rc_add_n(a, b->value[i], b->count[i]);
    a->other += b->other;
}

void sec_rc_format(const sec_rc_hist *h, char *out, int len)
{
    int used = 0;
    out[0] = 0;
    for (int i = 0; i < h->n && used < len; i++)
        used += snprintf(out + used, (size_t)(len - used), "%s%d x%lu", i ? ", " : "", h->value[i], h->count[i]);
    if (h->other && used < len)
        snprintf(out + used, (size_t)(len - used), ", other codes x%lu", h->other);
}

sec_result *sec_result_map(void)
{
    void *p = mmap(NULL, sizeof(sec_result), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    memset(p, 0, sizeof(sec_result));
    return p;
}

void sec_result_unmap(sec_result *r)
{
    if (r)
        munmap(r, sizeof *r);
}
