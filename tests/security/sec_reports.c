#include "sec_reports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_util.h"
#include "sec_state.h"

int sec_reports_add(sec_reports *all, sec_memerr *e, const char *who)
{
    for (int i = 0; i < all->n; i++) {
        sec_report *r = &all->r[i];
        if (!strcmp(r->e.site, e->site) && !strcmp(r->e.kind, e->kind)) {
            r->count++;
            return 0;
        }
    }
    if (all->n == SEC_MAX_REPORTS) {
        all->dropped++;
        return 1;
    }
    sec_report *r = &all->r[all->n++];
    r->e = *e;
    e->report = NULL; /* taken */
    snprintf(r->who, sizeof r->who, "%s", who);
    r->count = 1;
    return 1;
}

void sec_reports_format(const sec_reports *all, char *out, size_t cap)
{
    int listed[SEC_MAX_REPORTS] = {0};
    size_t l = 0;
    out[0] = 0;
    for (;;) { /* gravest first, in order of appearance within one verdict */
        int next = -1;
        for (int i = 0; i < all->n; i++)
            if (!listed[i] && !all->r[i].e.template_ub &&
                (next < 0 || sec_verdict_rank(all->r[i].e.verdict) > sec_verdict_rank(all->r[next].e.verdict)))
                next = i;
        if (next < 0 || l + 1 >= cap)
            break;
        listed[next] = 1;
        const sec_report *r = &all->r[next];
        l += (size_t)snprintf(out + l, cap - l, "%s%s: %s in %s [%s]", l ? "; " : "", ngcc_verdict_name(r->e.verdict),
                              r->e.kind, r->e.site, r->who);
    }
    if (all->dropped && l + 1 < cap)
        snprintf(out + l, cap - l, "; and %lu more distinct reports (sanitizer.logs)", all->dropped);
}

void sec_reports_template_note(const sec_reports *all, char *out, size_t cap)
{
    size_t l = 0;
    out[0] = 0;
    for (int i = 0; i < all->n && l + 1 < cap; i++)
        if (all->r[i].e.template_ub)
            l += (size_t)snprintf(out + l, cap - l, "%s%s", l ? "; " : "", all->r[i].e.summary);
}

void sec_reports_free(sec_reports *all)
{
    for (int i = 0; i < all->n; i++)
        sec_memerr_free(&all->r[i].e);
    all->n = 0;
}

typedef struct {
    sec_state *s;
    const char *who;
    sec_outcome *o;
} collect_ctx;

static void collect_one(sec_memerr *e, void *arg)
{
    collect_ctx *c = arg;
    char detail[SEC_DETAIL];
    if (e->context[0])
        snprintf(detail, sizeof detail, "%.280s, during %.190s", e->summary, e->context);
    else
        snprintf(detail, sizeof detail, "%.280s, in %.40s", e->summary, c->who);
    /* an ASan report ended its process: already that child's (or a malformed
     * input's) outcome; a template-UB report is a note, never a verdict; in
     * alloc_failure the allocations fail on purpose: what the instance does
     * then is that check's own FINDING (listed here, judged there) */
    int injected = !strcmp(c->who, "alloc_failure");
    if (c->o && !e->fatal && !e->template_ub && !injected)
        sec_outcome_add(c->o, e->verdict, detail);
    if (!c->s->report.found && !e->template_ub) { /* the record's "first_report" */
        c->s->report = *e;
        c->s->report.report = e->report ? strdup(e->report) : NULL;
    }
    sec_reports_add(&c->s->reports, e, c->who);
}

void sec_collect_reports(sec_state *s, const char *log_path, const char *who, sec_outcome *o)
{
    if (!s->opt.sanitizer)
        return;
    size_t len;
    char *text = ngcc_read_file(log_path, &len);
    if (!text)
        return;
    collect_ctx c = {s, who, o};
    sec_memerr_sanitizer_each(text, collect_one, &c);
    free(text);
}
