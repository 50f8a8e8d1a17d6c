/* The comparison page: every system against a reference system, per
 * instance and operation (cycles and time, with their ratio). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_fmt.h"
#include "report_pages.h"
#include "report_sections.h"
#include "report_sysview.h"

#define MAX_OPS 16

static const rp_instance *find_instance(const rp_system *s, const char *cand, const char *key)
{
    for (size_t k = 0; k < s->ncand; k++)
        if (strcmp(s->cand[k].id, cand) == 0)
            for (size_t m = 0; m < s->cand[k].ninst; m++)
                if (strcmp(s->cand[k].inst[m].key, key) == 0)
                    return &s->cand[k].inst[m];
    return NULL;
}

/* one environment item across systems; get returns the value of one view */
static void env_row(rd_doc *d, rd_table *t, const rp_campaign *c, const char *item,
                    const char *(*get)(const rs_sysview *))
{
    rd_cell_text(t, "%s", item);
    for (size_t i = 0; i < c->nsys && i < 16; i++) {
        rs_sysview v;
        rs_sysview_read(c->sys[i].system ? c->sys[i].system->json : NULL, &v);
        const char *s = get(&v);
        if (s)
            rd_cell_text(t, "%s", s);
        else
            rd_cell_gap(t);
    }
    rd_row_gaps(d, t, "A system has no system.json, or it lacks the %s.", item);
}

static const char *get_model(const rs_sysview *v)
{
    return v->model;
}
static const char *get_arch(const rs_sysview *v)
{
    return v->arch;
}
static const char *get_how(const rs_sysview *v)
{
    return v->how;
}
static const char *get_compiler(const rs_sysview *v)
{
    return v->compiler;
}
static const char *get_counter(const rs_sysview *v)
{
    return v->counter;
}

static void env_table(rd_doc *d, const rp_campaign *c)
{
    const char *heads[17] = {"Item"};
    char align[18] = "l";
    size_t n = c->nsys < 16 ? c->nsys : 16;
    for (size_t i = 0; i < n; i++) {
        heads[i + 1] = c->sys[i].id;
        strcat(align, "l");
    }
    rd_table *t = rd_table_newv(d, align, heads);
    env_row(d, t, c, "Processor", get_model);
    env_row(d, t, c, "Architecture", get_arch);
    env_row(d, t, c, "Clock", get_how);
    env_row(d, t, c, "Compiler (harness)", get_compiler);
    env_row(d, t, c, "Counter", get_counter);
}

static void ratio_cells(rd_table *t, const rp_record *a, const rp_record *b, const char *path,
                        char *(*fmt)(char *, double))
{
    char x[NGCC_FMT_MAX], y[NGCC_FMT_MAX], r[NGCC_FMT_MAX];
    double va = a->json ? rj_numnan(a->json, path) : NAN, vb = b->json ? rj_numnan(b->json, path) : NAN;
    rd_cell_text(t, "%s", fmt(x, va));
    rd_cell_text(t, "%s", fmt(y, vb));
    rd_cell_text(t, "%s", ngcc_fmt_ratio(r, va > 0 ? vb / va : NAN));
}

static void compare_instance(rd_table *t, const rp_candidate *cand, const rp_instance *ra, const rp_instance *rb)
{
    rp_record *ops[MAX_OPS];
    size_t k = rp_find_ops(ra, "perf", ops, MAX_OPS);
    for (size_t o = 0; o < k; o++) {
        const rp_record *other = ops[o]->op ? rp_find(rb, "perf", ops[o]->op) : NULL;
        if (!other)
            continue;
        rd_cell_text(t, "%s", cand->id);
        rd_cell_text(t, "%s", ra->key);
        rd_cell_text(t, "%s", ops[o]->op);
        ratio_cells(t, ops[o], other, "stats.mean_cycles", ngcc_fmt_count);
        ratio_cells(t, ops[o], other, "stats.mean_ns", ngcc_fmt_time_ns);
    }
}

static void compare_pair(rd_doc *d, const rp_system *ref, const rp_system *s)
{
    rd_heading(d, 2, "%s against %s", s->id, ref->id);
    rd_para(d,
            "Ratio = %s / %s: above 1 means slower on %s. Cycles come from each system's own counter (see "
            "each candidate page), so the time ratio is the one to compare across counters.",
            s->id, ref->id, s->id);
    char c1[200], c2[200], t1[200], t2[200];
    snprintf(c1, sizeof c1, "Mean cycles %s", ref->id);
    snprintf(c2, sizeof c2, "Mean cycles %s", s->id);
    snprintf(t1, sizeof t1, "Mean time %s", ref->id);
    snprintf(t2, sizeof t2, "Mean time %s", s->id);
    const char *heads[] = {"Candidate", "Instance", "Operation", c1, c2, "Cycles ratio", t1, t2, "Time ratio"};
    rd_table *t = rd_table_newv(d, "lllrrrrrr", heads);
    char only[2048] = "";
    for (size_t k = 0; k < ref->ncand; k++)
        for (size_t m = 0; m < ref->cand[k].ninst; m++) {
            const rp_instance *ra = &ref->cand[k].inst[m];
            const rp_instance *rb = find_instance(s, ref->cand[k].id, ra->key);
            if (rb)
                compare_instance(t, &ref->cand[k], ra, rb);
            else if (rp_find(ra, "perf", NULL)) {
                char one[300];
                snprintf(one, sizeof one, "%s/%s", ref->cand[k].id, ra->key);
                rs_list_add(only, sizeof only, one);
            }
        }
    if (only[0])
        rd_para(d, "Timed on %s only: %s.", ref->id, only);
}

rd_doc *rpg_compare(const rp_campaign *c, const rp_system *ref)
{
    rd_doc *d = rd_new("NGCC evaluation report: comparison of systems", "");
    rd_link(d, "index", "Index of all candidates");
    rd_para(d, "Reference system: %s.", ref->id);
    env_table(d, c);
    for (size_t i = 0; i < c->nsys; i++)
        if (&c->sys[i] != ref)
            compare_pair(d, ref, &c->sys[i]);
    return d;
}
