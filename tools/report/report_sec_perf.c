/* Sections 4 (performance) and 5 (resource consumption). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_loader.h"
#include "report_fmt.h"
#include "report_sections.h"
#include "report_svg.h"

#define MAX_OPS 16

/* ---- KEX and hash operations: flow order, message length ---- */

/* passes 4..NGCC_KEX_MAXP only for protocols that have them */
static const char *const kex_ops[] = {"init_a", "init_b", "pass1", "pass2",    "pass3",    "pass4",   "pass5",
                                      "pass6",  "pass7",  "pass8", "derive_a", "derive_b", "exchange"};
#define NKEX 13
#define KEX_PASS1 2      /* index of pass1 in kex_ops */
#define KEX_MIN_PASSES 3 /* the official flow's columns, n/a for a 2-pass protocol */
_Static_assert(KEX_PASS1 + NGCC_KEX_MAXP + 3 == NKEX, "kex_ops: init_a, init_b, every pass, derive_a/b, exchange");

/* 1 when kex_ops[k] has a column in a table of passes 1..passes */
static int kex_shown(int k, int passes)
{
    return k < KEX_PASS1 + passes || k >= KEX_PASS1 + NGCC_KEX_MAXP;
}

static int kex_rank(const char *op)
{
    for (int i = 0; op && i < NKEX; i++)
        if (strcmp(op, kex_ops[i]) == 0)
            return i;
    return -1;
}

/* 1 and the message length for a hash op (hash-<bytes>) */
static int hash_len(const char *op, double *bytes)
{
    if (!op || strncmp(op, "hash-", 5) != 0 || op[5] < '0' || op[5] > '9')
        return 0;
    *bytes = strtod(op + 5, NULL);
    return 1;
}

static int is_hash_rec(const rp_record *r)
{
    double b;
    return hash_len(r->op, &b);
}

/* SIG/KEM ranks as rp_op_rank (0..4), then the KEX flow, then hashes */
static int op_rank(const char *op)
{
    int r = rp_op_rank(op), k = kex_rank(op);
    double b;
    return r < 5 ? r : k >= 0 ? 5 + k : hash_len(op, &b) ? 20 : 30;
}

static int cmp_ops(const void *a, const void *b)
{
    const rp_record *x = *(rp_record *const *)a, *y = *(rp_record *const *)b;
    int rx = op_rank(x->op), ry = op_rank(y->op);
    double bx, by;
    if (rx != ry)
        return rx - ry;
    if (hash_len(x->op, &bx) && hash_len(y->op, &by) && bx != by)
        return bx < by ? -1 : 1;
    return strcmp(x->op ? x->op : "", y->op ? y->op : "");
}

/* rp_find_ops in this order (SIG/KEM records keep rp_find_ops' order) */
static size_t find_ops(const rp_instance *in, const char *kind, rp_record **out, size_t cap)
{
    size_t n = rp_find_ops(in, kind, out, cap);
    if (n > 1)
        qsort(out, n, sizeof *out, cmp_ops);
    return n;
}

/* para listing the instances that have no record of this kind */
static void untimed(rs_ctx *x, const char *kind, const char *what)
{
    char list[2048] = "";
    for (size_t i = 0; i < x->cand->ninst; i++)
        if (!rp_find(&x->cand->inst[i], kind, NULL))
            rs_list_add(list, sizeof list, x->cand->inst[i].key);
    if (list[0])
        rd_para(x->doc, "No %s records (%s): %s.", kind, what, list);
}

static void cell_n(rd_table *t, const rp_record *r, char *missing, size_t cap)
{
    double tr, it, n;
    const cJSON *j = r->json;
    if (j && rj_num(j, "stats.trials", &tr) && rj_num(j, "stats.iterations", &it))
        rd_cell_text(t, "%.0f \xC3\x97 %.0f", tr, it);
    else if (j && rj_num(j, "stats.n", &n))
        rd_cell_text(t, "%.0f", n);
    else
        rs_cell_missing(t, r, "stats.trials/stats.iterations", missing, cap);
}

static void cell_iqr(rd_table *t, const rp_record *r, char *missing, size_t cap)
{
    double q1, q3;
    char b[NGCC_FMT_MAX];
    if (r->json && rj_num(r->json, "stats.q1", &q1) && rj_num(r->json, "stats.q3", &q3))
        rd_cell_text(t, "%s", ngcc_fmt_count(b, q3 - q1));
    else
        rs_cell_missing(t, r, "stats.q1/stats.q3", missing, cap);
}

static void cell_baseline(rd_table *t, const rp_record *r)
{
    double med, base, tol;
    char c[NGCC_FMT_MAX], tl[NGCC_FMT_MAX];
    if (r->json && rj_num(r->json, "stats.median", &med) && rj_num(r->json, "baseline.median", &base) && base > 0) {
        ngcc_fmt_change(c, med / base - 1);
        if (rj_num(r->json, "baseline.tolerance", &tol))
            rd_cell_text(t, "%s (tolerance %s)", c, ngcc_fmt_percent(tl, tol));
        else
            rd_cell_text(t, "%s", c);
    } else
        rd_cell_text(t, "no baseline");
}

/* instructions per operation beside the cycles: the icount record's median and its method */
static void cell_icount(rd_table *t, const rp_instance *in, const rp_record *r)
{
    const rp_record *ic = r->op ? rp_find(in, "icount", r->op) : NULL;
    double med;
    char b[NGCC_FMT_MAX];
    const char *method = ic && ic->json ? rj_str(ic->json, "method.name") : NULL;
    if (ic && ic->json && rj_num(ic->json, "median", &med))
        rd_cell_text(t, "%s (%s)", ngcc_fmt_count(b, med), method ? method : "?");
    else
        rd_cell_text(t, "%s", NGCC_FMT_GAP);
}

static void perf_row(rs_ctx *x, rd_table *t, const rp_instance *in, const rp_record *r, int baseline_col,
                     int icount_col)
{
    char missing[512] = "";
    rd_cell_text(t, "%s", in->key);
    int note = r->json ? rs_note_verdict(x->doc, r) : rs_note_malformed(x->doc, r);
    rd_cell_note(t, note, "%s", r->op ? r->op : "?");
    int ta;
    if (r->json && rj_bool(r->json, "timed_anyway", &ta) && ta)
        rd_last_note(t, rs_note_timed_anyway(x->doc, x, in));
    rs_cell_num(t, r, "stats.mean_cycles", ngcc_fmt_count, missing, sizeof missing);
    rs_cell_num(t, r, "stats.mean_ns", ngcc_fmt_time_ns, missing, sizeof missing);
    rs_cell_num(t, r, "stats.ops_per_s", ngcc_fmt_rate, missing, sizeof missing);
    rs_cell_num(t, r, "stats.median", ngcc_fmt_count, missing, sizeof missing);
    cell_iqr(t, r, missing, sizeof missing);
    cell_n(t, r, missing, sizeof missing);
    if (icount_col)
        cell_icount(t, in, r);
    if (baseline_col)
        cell_baseline(t, r);
    rd_row_gaps(x->doc, t, "%s has no usable value for %s.", r->file, missing);
}

static int any_baseline(rs_ctx *x)
{
    for (size_t i = 0; i < x->cand->ninst; i++)
        for (size_t k = 0; k < x->cand->inst[i].nrecs; k++) {
            const rp_record *r = x->cand->inst[i].recs[k];
            if (!strcmp(r->kind, "perf") && r->json && cJSON_IsObject(rj_get(r->json, "baseline")))
                return 1;
        }
    return 0;
}

static void perf_chart(rs_ctx *x)
{
    rs_bar bars[256];
    char labels[256][160];
    size_t n = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        rp_record *ops[MAX_OPS];
        size_t k = find_ops(&x->cand->inst[i], "perf", ops, MAX_OPS);
        for (size_t o = 0; o < k && n < 256; o++) {
            if (is_hash_rec(ops[o])) /* plotted per byte (hash_section) */
                continue;
            snprintf(labels[n], sizeof labels[n], "%s %s", x->cand->inst[i].key, ops[o]->op ? ops[o]->op : "?");
            bars[n] = (rs_bar){labels[n], ops[o]->op ? ops[o]->op : "?",
                               ops[o]->json ? rj_numnan(ops[o]->json, "stats.mean_cycles") : NAN};
            n++;
        }
    }
    if (n)
        rd_svg(x->doc, rs_log_bars("Mean cycles per operation", "cycles", bars, n));
}

/* a constant-rate counter (TSC, cntvct) counts reference ticks, not core cycles: say so */
static void reference_clock_caveat(rs_ctx *x)
{
    char names[256] = "";
    for (size_t i = 0; i < x->cand->ninst; i++)
        for (size_t k = 0; k < x->cand->inst[i].nrecs; k++) {
            const rp_record *r = x->cand->inst[i].recs[k];
            const char *name = r->json && !strcmp(r->kind, "perf") ? rj_str(r->json, "counter.name") : NULL;
            int cycles;
            if (!name)
                continue;
            int reference = rj_bool(r->json, "counter.counts_cycles", &cycles)
                                ? !cycles
                                : !strcmp(name, "tsc") || !strcmp(name, "cntvct");
            if (reference && !strstr(names, name))
                rs_list_add(names, sizeof names, name);
        }
    if (names[0])
        rd_para(x->doc,
                "Here the cycles are ticks of %s: a constant-rate reference clock, not core cycles (no core "
                "cycle counter was available), so they scale with time, not with the core clock.",
                names);
}

/* ---- KEX: the exchange call by call, and as a whole ---- */

static const rp_record *op_rec(const rp_instance *in, const char *op)
{
    rp_record *ops[MAX_OPS];
    size_t k = rp_find_ops(in, "perf", ops, MAX_OPS);
    for (size_t o = 0; o < k; o++)
        if (ops[o]->op && strcmp(ops[o]->op, op) == 0)
            return ops[o];
    return NULL;
}

static int has_kex(const rp_instance *in)
{
    for (int k = 0; k < NKEX; k++)
        if (op_rec(in, kex_ops[k]))
            return 1;
    return 0;
}

static void kex_section(rs_ctx *x)
{
    int any = 0;
    for (size_t i = 0; i < x->cand->ninst; i++)
        any |= has_kex(&x->cand->inst[i]);
    if (!any)
        return;
    rd_heading(x->doc, 3, "Key exchange: per call and whole exchange");
    rd_para(x->doc, "Median counter ticks (cycles with a core-cycle counter) of each call of the official "
                    "KAT_KEX.c flow, each timed on the DRNG state and inputs of that flow; exchange = the whole flow "
                    "init_a .. derive_b timed as one call. Sum = the sum of the single calls' medians; n/a = a call "
                    "the exchange does not make (pass 3 of a 2-pass protocol) or no measurement. Passes 4 and up "
                    "have columns when an instance of the candidate runs them (kex_get_passes_num() > 3).");
    /* as many pass columns as the candidate's longest protocol has */
    int passes = KEX_MIN_PASSES;
    for (size_t i = 0; i < x->cand->ninst; i++)
        for (int p = passes + 1; p <= NGCC_KEX_MAXP; p++)
            if (op_rec(&x->cand->inst[i], kex_ops[KEX_PASS1 + p - 1]))
                passes = p;
    const char *heads[NKEX + 4];
    char align[NKEX + 5];
    int nh = 0;
    heads[nh++] = "Instance";
    for (int k = 0; k < NKEX - 1; k++) /* the single calls; the exchange column comes after their sum */
        if (kex_shown(k, passes))
            heads[nh++] = kex_ops[k];
    heads[nh++] = "Sum of calls";
    heads[nh++] = "Exchange";
    heads[nh++] = "Exchange / sum";
    align[0] = 'l';
    memset(align + 1, 'r', (size_t)nh - 1);
    align[nh] = 0;
    rd_table *t = rd_table_newv(x->doc, align, heads);
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        if (!has_kex(in))
            continue;
        rd_cell_text(t, "%s", in->key);
        double sum = 0, ex = NAN, v;
        int parts = 0;
        char b[NGCC_FMT_MAX];
        for (int k = 0; k < NKEX; k++) {
            if (!kex_shown(k, passes))
                continue;
            const rp_record *r = op_rec(in, kex_ops[k]);
            int have = r && r->json && rj_num(r->json, "stats.median", &v);
            if (k == NKEX - 1) {
                ex = have ? v : NAN;
                break;
            }
            if (!have) {
                rd_cell_note(t,
                             r && r->json ? rs_note_verdict(x->doc, r)
                             : r          ? rs_note_malformed(x->doc, r)
                                          : 0,
                             "n/a");
                continue;
            }
            sum += v;
            parts++;
            rd_cell_note(t, rs_note_verdict(x->doc, r), "%s", ngcc_fmt_count(b, v));
        }
        rd_cell_text(t, "%s", parts ? ngcc_fmt_count(b, sum) : NGCC_FMT_GAP);
        const rp_record *er = op_rec(in, "exchange");
        if (isnan(ex))
            rd_cell_note(t, er && er->json ? rs_note_verdict(x->doc, er) : 0, "%s", NGCC_FMT_GAP);
        else
            rd_cell_note(t, rs_note_verdict(x->doc, er), "%s", ngcc_fmt_count(b, ex));
        rd_cell_text(t, "%s", parts && !isnan(ex) && sum > 0 ? ngcc_fmt_ratio(b, ex / sum) : NGCC_FMT_GAP);
    }
}

/* ---- hash: cost per byte over the message length ---- */

static void hash_section(rs_ctx *x)
{
    int any = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        rp_record *ops[MAX_OPS];
        size_t k = find_ops(&x->cand->inst[i], "perf", ops, MAX_OPS);
        for (size_t o = 0; o < k; o++)
            any |= is_hash_rec(ops[o]);
    }
    if (!any)
        return;
    rd_heading(x->doc, 3, "Hash: cost per byte");
    rd_para(x->doc, "CryptHash(DIGEST_BIT_LENGTH, msg, 8 n, digest) on one n-byte message per length, drawn "
                    "from the ICCS DRNG seeded as for KAT_2_12. Median = counter ticks per call (single-call "
                    "samples, or trial means for short calls); per byte = median / n. Ticks of a constant-rate "
                    "clock are not core cycles (see above).");
    int bcol = any_baseline(x);
    rd_table *t = bcol ? rd_table_new(x->doc, "lrrrrrl", "Instance", "Message", "Median", "Per byte", "Mean time", "n",
                                      "Median vs baseline")
                       : rd_table_new(x->doc, "lrrrrr", "Instance", "Message", "Median", "Per byte", "Mean time", "n");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        rp_record *ops[MAX_OPS];
        size_t k = find_ops(in, "perf", ops, MAX_OPS);
        rs_point pts[MAX_OPS];
        size_t np = 0;
        const char *unit = NULL;
        for (size_t o = 0; o < k; o++) {
            const rp_record *r = ops[o];
            double bytes, med;
            if (!hash_len(r->op, &bytes))
                continue;
            char missing[256] = "", b[NGCC_FMT_MAX];
            rd_cell_text(t, "%s", in->key);
            rd_cell_note(t, r->json ? rs_note_verdict(x->doc, r) : rs_note_malformed(x->doc, r), "%s",
                         ngcc_fmt_bytes(b, bytes));
            int ta;
            if (r->json && rj_bool(r->json, "timed_anyway", &ta) && ta)
                rd_last_note(t, rs_note_timed_anyway(x->doc, x, in));
            rs_cell_num(t, r, "stats.median", ngcc_fmt_count, missing, sizeof missing);
            const char *u = r->json ? rj_str(r->json, "hash.unit") : NULL;
            if (r->json && rj_num(r->json, "stats.median", &med) && bytes > 0) {
                snprintf(b, sizeof b, "%.3g", med / bytes);
                rd_cell_text(t, "%s %s", b, u ? u : "ticks/byte");
                pts[np++] = (rs_point){bytes, med / bytes};
                unit = unit ? unit : u;
            } else {
                rd_cell_text(t, "%s", NGCC_FMT_GAP);
            }
            rs_cell_num(t, r, "stats.mean_ns", ngcc_fmt_time_ns, missing, sizeof missing);
            cell_n(t, r, missing, sizeof missing);
            if (bcol)
                cell_baseline(t, r);
            rd_row_gaps(x->doc, t, "%s has no usable value for %s.", r->file, missing);
        }
        if (np) {
            char title[256];
            snprintf(title, sizeof title, "%s: CryptHash cost per byte", in->key);
            rs_series sr = {in->key, pts, np};
            rd_svg(x->doc, rs_log_lines(title, "message length", unit ? unit : "ticks/byte", &sr, 1));
        }
    }
}

void rs_section_performance(rs_ctx *x)
{
    rd_heading(x->doc, 2, "4. Performance");
    if (!rp_has_kind(x->sys, x->cand, "perf")) {
        rd_para(x->doc, "No perf records for %s: the perf label was not run.", x->cand->id);
        return;
    }
    rd_para(x->doc, "Mean cycles = total counter ticks / total calls; median and IQR (Q3 - Q1) are of single-"
                    "operation samples; n = trials \xC3\x97 iterations. The counter is named in section 2.");
    reference_clock_caveat(x);
    int bcol = any_baseline(x), icol = rp_has_kind(x->sys, x->cand, "icount");
    if (icol)
        rd_para(x->doc, "Instructions: median instructions per call over the first KAT records (icount label), "
                        "with the counter that counted them.");
    int rows = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        rp_record *ops[MAX_OPS];
        size_t k = find_ops(&x->cand->inst[i], "perf", ops, MAX_OPS);
        for (size_t o = 0; o < k; o++)
            rows += !is_hash_rec(ops[o]);
    }
    rd_table *t = NULL;
    if (!rows)
        ; /* hash instances only: their own table (hash_section) */
    else if (icol)
        t = bcol ? rd_table_new(x->doc, "llrrrrrrrl", "Instance", "Operation", "Mean cycles", "Mean time", "ops/s",
                                "Median", "IQR", "n", "Instructions", "Median vs baseline")
                 : rd_table_new(x->doc, "llrrrrrrr", "Instance", "Operation", "Mean cycles", "Mean time", "ops/s",
                                "Median", "IQR", "n", "Instructions");
    else
        t = bcol ? rd_table_new(x->doc, "llrrrrrrl", "Instance", "Operation", "Mean cycles", "Mean time", "ops/s",
                                "Median", "IQR", "n", "Median vs baseline")
                 : rd_table_new(x->doc, "llrrrrrr", "Instance", "Operation", "Mean cycles", "Mean time", "ops/s",
                                "Median", "IQR", "n");
    for (size_t i = 0; t && i < x->cand->ninst; i++) {
        rp_record *ops[MAX_OPS];
        size_t k = find_ops(&x->cand->inst[i], "perf", ops, MAX_OPS);
        for (size_t o = 0; o < k; o++)
            if (!is_hash_rec(ops[o]))
                perf_row(x, t, &x->cand->inst[i], ops[o], bcol, icol);
    }
    untimed(x, "perf", "not timed");
    if (rows)
        perf_chart(x);
    kex_section(x);
    hash_section(x);
}

/* ---- 5. resources ---- */

static void static_cells(rs_ctx *x, rd_table *t, const rp_instance *in, char *missing, size_t cap)
{
    const rp_record *sz = rp_find(in, "sizes", NULL);
    if (!sz || !sz->json) {
        int note = sz ? rs_note_malformed(x->doc, sz)
                      : rd_note(x->doc, "%s/sizes.json: no such record (run ctest -L perf).", rs_inst_dir(x, in));
        rd_cell_note(t, note, "%s", NGCC_FMT_GAP);
        rd_cell_note(t, note, "%s", NGCC_FMT_GAP);
        return;
    }
    rs_cell_num(t, sz, "static.loadable_total", ngcc_fmt_bytes, missing, cap);
    double tx, da, bs;
    char a[NGCC_FMT_MAX], b[NGCC_FMT_MAX], c[NGCC_FMT_MAX];
    if (rj_num(sz->json, "static.text", &tx) && rj_num(sz->json, "static.data", &da) &&
        rj_num(sz->json, "static.bss", &bs))
        rd_cell_text(t, "%s / %s / %s", ngcc_fmt_bytes(a, tx), ngcc_fmt_bytes(b, da), ngcc_fmt_bytes(c, bs));
    else
        rs_cell_missing(t, sz, "static.text/data/bss", missing, cap);
}

static void mem_cell_kb(rd_table *t, const rp_record *r, const char *path, char *missing, size_t cap)
{
    double v;
    char b[NGCC_FMT_MAX];
    if (r && r->json && rj_num(r->json, path, &v))
        rd_cell_text(t, "%s", ngcc_fmt_bytes(b, v * 1024));
    else
        rs_cell_missing(t, r, path, missing, cap);
}

static void resource_row(rs_ctx *x, rd_table *t, const rp_instance *in, const rp_record *m)
{
    char missing[512] = "";
    rd_cell_text(t, "%s", in->key);
    if (m)
        rd_cell_note(t, m->json ? rs_note_verdict(x->doc, m) : rs_note_malformed(x->doc, m), "%s", m->op ? m->op : "?");
    else
        rd_cell_text(t, "(static only)");
    static_cells(x, t, in, missing, sizeof missing);
    mem_cell_kb(t, m, "baseline_rss_kb", missing, sizeof missing);
    mem_cell_kb(t, m, "peak_rss_kb", missing, sizeof missing);
    rs_cell_num(t, m, "heap_peak_bytes", ngcc_fmt_bytes, missing, sizeof missing);
    rs_cell_num(t, m, "stack_hwm_bytes", ngcc_fmt_bytes, missing, sizeof missing);
    rd_row_gaps(x->doc, t, "%s has no usable value for %s.", m ? m->file : "sizes.json", missing);
}

void rs_section_resources(rs_ctx *x)
{
    rd_heading(x->doc, 2, "5. Resource consumption");
    if (!rp_has_kind(x->sys, x->cand, "mem") && !rp_has_kind(x->sys, x->cand, "sizes")) {
        rd_para(x->doc, "No mem or sizes records for %s: the perf label was not run.", x->cand->id);
        return;
    }
    rd_para(x->doc, "Static image: sum of the instance library's loadable ELF segments. RSS: VmRSS before and "
                    "VmHWM during the operation, in a process of its own. Heap peak: bytes allocated at once. "
                    "Stack: high-water mark of a painted stack.");
    rd_table *t = rd_table_new(x->doc, "llrrrrrr", "Instance", "Operation", "Static image", "text / data / bss",
                               "Baseline RSS", "Peak RSS", "Heap peak", "Stack high-water");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        rp_record *ops[MAX_OPS];
        size_t k = find_ops(in, "mem", ops, MAX_OPS);
        for (size_t o = 0; o < k; o++)
            resource_row(x, t, in, ops[o]);
        if (!k && rp_find(in, "sizes", NULL))
            resource_row(x, t, in, NULL);
    }
    untimed(x, "mem", "not measured");
}
