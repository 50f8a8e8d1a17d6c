/* Section 6: sizes, and the symmetric primitives (ICCS hash and DRNG). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_fmt.h"
#include "report_sections.h"
#include "report_svg.h"

#define MAX_OPS 16

static int cand_has_type(rs_ctx *x, const char *type)
{
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const cJSON *m = rp_meta(&x->cand->inst[i]);
        const char *t = m ? rj_str(m, "type") : NULL;
        if (t && strcmp(t, type) == 0)
            return 1;
    }
    return 0;
}

/* a claimed size: sizes.json claimed.<f>, else the kat record's meta.claimed_<f> */
static void size_cell(rd_table *t, const rp_instance *in, const char *f, int applies, char *missing, size_t cap,
                      int *from_kat)
{
    if (!applies) {
        rd_cell_text(t, "n/a");
        return;
    }
    const rp_record *sz = rp_find(in, "sizes", NULL);
    char path[64], b[NGCC_FMT_MAX];
    double v;
    snprintf(path, sizeof path, "claimed.%s", f);
    if (sz && sz->json && rj_num(sz->json, path, &v)) {
        rd_cell_text(t, "%s", ngcc_fmt_int(b, v));
        return;
    }
    const cJSON *m = rp_meta(in);
    snprintf(path, sizeof path, "claimed_%s", f);
    if (m && rj_num(m, path, &v)) {
        rd_cell_text(t, "%s", ngcc_fmt_int(b, v));
        *from_kat = 1;
        return;
    }
    rd_cell_gap(t);
    rs_list_add(missing, cap, f);
}

static void observed_cell(rd_table *t, const rp_instance *in, int applies)
{
    const rp_record *sz = rp_find(in, "sizes", NULL);
    double lo, hi;
    char a[NGCC_FMT_MAX], b[NGCC_FMT_MAX];
    if (!applies)
        rd_cell_text(t, "n/a");
    else if (sz && sz->json && rj_num(sz->json, "observed_sig_min", &lo) && rj_num(sz->json, "observed_sig_max", &hi))
        rd_cell_text(t, lo == hi ? "%s" : "%s \xE2\x80\x93 %s", ngcc_fmt_int(a, lo), ngcc_fmt_int(b, hi));
    else
        rd_cell_text(t, "%s", NGCC_FMT_GAP);
}

static void sizes_table(rs_ctx *x)
{
    int sig = cand_has_type(x, "SIG"), kem = cand_has_type(x, "KEM");
    const char *heads[8];
    char align[9] = "lrr";
    int h = 0;
    heads[h++] = "Instance";
    heads[h++] = "Public key";
    heads[h++] = "Secret key";
    if (sig || !kem) {
        heads[h++] = "Signature (max)";
        heads[h++] = "Signature observed";
        strcat(align, "rr");
    }
    if (kem) {
        heads[h++] = "Ciphertext";
        heads[h++] = "Shared secret";
        strcat(align, "rr");
    }
    rd_table *t = rd_table_newv(x->doc, align, heads);
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        const cJSON *m = rp_meta(in);
        const char *type = m ? rj_str(m, "type") : NULL;
        int is_sig = !type || strcmp(type, "SIG") == 0, is_kem = !type || strcmp(type, "KEM") == 0;
        char missing[128] = "";
        int from_kat = 0;
        rd_cell_text(t, "%s", in->key);
        size_cell(t, in, "pk", 1, missing, sizeof missing, &from_kat);
        size_cell(t, in, "sk", 1, missing, sizeof missing, &from_kat);
        if (sig || !kem) {
            size_cell(t, in, "sn", is_sig, missing, sizeof missing, &from_kat);
            observed_cell(t, in, is_sig);
        }
        if (kem) {
            size_cell(t, in, "ct", is_kem, missing, sizeof missing, &from_kat);
            size_cell(t, in, "ss", is_kem, missing, sizeof missing, &from_kat);
        }
        rd_row_gaps(x->doc, t, "%s: no claimed size for %s in sizes.json or in the KAT record's meta.",
                    rs_inst_dir(x, in), missing);
        if (from_kat)
            rd_add_note(
                rd_at(t, t->nrows - 1, 0),
                rd_note(x->doc,
                        "No sizes.json: sizes from the API getters as reported by the KAT test (kat.json meta)."));
    }
}

/* ---- symmetric primitives ---- */

static const char *sym_label(const char *sym)
{
    if (strcmp(sym, "get_random_number") == 0)
        return "drng";
    if (strcmp(sym, "init_random_number") == 0)
        return "drng-init";
    return sym;
}

typedef struct {
    const char *name;
    double mean;
} call_mean;

static int cmp_calls(const void *a, const void *b)
{
    const call_mean *x = a, *y = b;
    if (x->mean != y->mean)
        return x->mean < y->mean ? 1 : -1;
    return strcmp(x->name, y->name);
}

#define OTHER_CTX "@other_ctx"

/* mean calls of key + key@other_ctx: every context, as the published tables count */
static double calls_mean(const cJSON *calls, const char *key, double *other)
{
    char k[96];
    double own = 0, oth = 0;
    snprintf(k, sizeof k, "%s" OTHER_CTX, key);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(calls, key), *o = cJSON_GetObjectItemCaseSensitive(calls, k);
    if (c)
        rj_num(c, "mean", &own);
    if (o)
        rj_num(o, "mean", &oth);
    if (other)
        *other = oth;
    return own + oth;
}

/* "sm3hash 16.1 k, pseudoXOF 1.07 k, drng 2": by mean count, zero counts left
 * out; drng and drng-init count every context (the split is its own column) */
static void calls_text(const cJSON *calls, char *out, size_t cap)
{
    call_mean cm[32];
    size_t n = 0, sl = strlen(OTHER_CTX);
    const cJSON *c;
    cJSON_ArrayForEach(c, calls)
    {
        size_t l = c->string ? strlen(c->string) : 0;
        if (!l || (l > sl && strcmp(c->string + l - sl, OTHER_CTX) == 0))
            continue;
        double mean = calls_mean(calls, c->string, NULL);
        if (n < 32 && mean > 0)
            cm[n++] = (call_mean){sym_label(c->string), mean};
    }
    qsort(cm, n, sizeof *cm, cmp_calls);
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char v[NGCC_FMT_MAX], one[96];
        snprintf(one, sizeof one, "%s %s", cm[i].name, ngcc_fmt_calls(v, cm[i].mean));
        rs_list_add(out, cap, one);
    }
    if (!n && cJSON_IsObject(calls))
        snprintf(out, cap, "no ICCS calls");
}

/* "75.6 (drng_algorithm 75.6, other contexts 0)": get_random_number calls in
 * every context with the split beside */
static void drng_text(const cJSON *calls, char *out, size_t cap)
{
    double other, all = calls_mean(calls, "get_random_number", &other);
    char a[NGCC_FMT_MAX], o[NGCC_FMT_MAX], x[NGCC_FMT_MAX];
    snprintf(out, cap, "%s (drng_algorithm %s, other contexts %s)", ngcc_fmt_calls(a, all),
             ngcc_fmt_calls(o, all - other), ngcc_fmt_calls(x, other));
}

static void prof_row(rs_ctx *x, rd_table *t, const rp_instance *in, const rp_record *r)
{
    char missing[256] = "";
    rd_cell_text(t, "%s", in->key);
    rd_cell_note(t, r->json ? rs_note_verdict(x->doc, r) : rs_note_malformed(x->doc, r), "%s", r->op ? r->op : "?");
    int miss;
    if (r->json && rj_bool(r->json, "may_miss", &miss) && miss) {
        const char *why = rj_str(r->json, "may_miss_reason");
        if (!why)
            why = rj_str(r->json, "reason");
        rd_last_note(t, rd_note(x->doc, "%s: link-time wrapping may have missed calls: %s", r->file,
                                why ? why : "no reason recorded"));
    }
    rs_cell_num(t, r, "share.hash", ngcc_fmt_percent, missing, sizeof missing);
    rs_cell_num(t, r, "share.drng", ngcc_fmt_percent, missing, sizeof missing);
    const char *v = r->json ? rj_str(r->json, "verdict") : NULL;
    if (v && strcmp(v, "RECORDED") == 0)
        rd_last_note(t, rd_note(x->doc,
                                "%s: RECORDED: no expectation committed, the counts are recorded but not "
                                "gated; record it with the prof-expect target",
                                r->file));
    const cJSON *calls = r->json ? rj_get(r->json, "calls") : NULL;
    char text[1024];
    if (cJSON_IsObject(calls)) {
        drng_text(calls, text, sizeof text);
        rd_cell_text(t, "%s", text);
        calls_text(calls, text, sizeof text);
        rd_cell_text(t, "%s", text);
    } else {
        rs_cell_missing(t, r, "calls", missing, sizeof missing);
        rd_cell_text(t, "%s", NGCC_FMT_GAP);
    }
    rd_row_gaps(x->doc, t, "%s has no usable value for %s.", r->file, missing);
}

static void prof_chart(rs_ctx *x)
{
    rs_share rows[256];
    char labels[256][160];
    size_t n = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        rp_record *ops[MAX_OPS];
        size_t k = rp_find_ops(&x->cand->inst[i], "prof", ops, MAX_OPS);
        for (size_t o = 0; o < k && n < 256; o++, n++) {
            snprintf(labels[n], sizeof labels[n], "%s %s", x->cand->inst[i].key, ops[o]->op ? ops[o]->op : "?");
            const cJSON *j = ops[o]->json;
            rows[n] = (rs_share){labels[n], j ? rj_numnan(j, "share.hash") : NAN, j ? rj_numnan(j, "share.drng") : NAN};
        }
    }
    if (n)
        rd_svg(x->doc, rs_share_bars("Share of operation time in the ICCS hash functions and the DRNG", rows, n));
}

static void symmetric_table(rs_ctx *x)
{
    rd_heading(x->doc, 3, "Symmetric primitives");
    if (!rp_has_kind(x->sys, x->cand, "prof")) {
        rd_para(x->doc, "No prof records for %s: the prof label was not run.", x->cand->id);
        return;
    }
    rd_para(x->doc, "Hash = sm3hash, pseudohash and pseudoXOF; drng = every get_random_number call, in all DRNG "
                    "contexts, as the published tables count them (DRNG calls: split into drng_algorithm and "
                    "other contexts). Calls per operation are means over the KAT records, 3 significant figures, "
                    "largest first.");
    rd_table *t = rd_table_new(x->doc, "llrrll", "Instance", "Operation", "Hash share", "DRNG share", "DRNG calls",
                               "Calls per operation");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        rp_record *ops[MAX_OPS];
        size_t k = rp_find_ops(&x->cand->inst[i], "prof", ops, MAX_OPS);
        for (size_t o = 0; o < k; o++)
            prof_row(x, t, &x->cand->inst[i], ops[o]);
    }
    char list[2048] = "";
    for (size_t i = 0; i < x->cand->ninst; i++)
        if (!rp_find(&x->cand->inst[i], "prof", NULL))
            rs_list_add(list, sizeof list, x->cand->inst[i].key);
    if (list[0])
        rd_para(x->doc, "No prof records (not profiled): %s.", list);
    prof_chart(x);
}

/* ---- KEX and hash sizes (sizes.json of ngcc-sizes) ---- */

static int is_type(const rp_instance *in, const char *type)
{
    const cJSON *m = rp_meta(in);
    const char *t = m ? rj_str(m, "type") : NULL;
    return t && strcmp(t, type) == 0;
}

static void num_cell(rd_table *t, const rp_record *sz, const char *path, char *missing, size_t cap)
{
    double v;
    char b[NGCC_FMT_MAX];
    if (sz && sz->json && rj_num(sz->json, path, &v))
        rd_cell_text(t, "%s", ngcc_fmt_int(b, v));
    else
        rs_cell_missing(t, sz, path, missing, cap);
}

/* "claimed (observed)" of one item, observed being the longest the flow returned */
static void pair_cell(rd_table *t, const rp_record *sz, const char *item, char *missing, size_t cap)
{
    char pc[64], po[64], a[NGCC_FMT_MAX], b[NGCC_FMT_MAX];
    double c, o;
    snprintf(pc, sizeof pc, "claimed.%s", item);
    snprintf(po, sizeof po, "observed.%s", item);
    int hc = sz && sz->json && rj_num(sz->json, pc, &c), ho = sz && sz->json && rj_num(sz->json, po, &o);
    if (hc && ho)
        rd_cell_text(t, "%s (%s)", ngcc_fmt_int(a, c), ngcc_fmt_int(b, o));
    else if (hc)
        rd_cell_text(t, "%s", ngcc_fmt_int(a, c));
    else
        rs_cell_missing(t, sz, pc, missing, cap);
}

static void no_sizes(rs_ctx *x, rd_table *t, const rp_instance *in, const rp_record *sz, int cols)
{
    int note = sz ? rs_note_malformed(x->doc, sz)
                  : rd_note(x->doc, "%s/sizes.json: no such record (run ctest -L perf).", rs_inst_dir(x, in));
    for (int c = 0; c < cols; c++)
        rd_cell_note(t, note, "%s", NGCC_FMT_GAP);
}

static void kex_sizes_table(rs_ctx *x)
{
    rd_para(x->doc, "Key exchange: bytes as claimed by the kex_get_* getters, in brackets the longest the official "
                    "flow of the KAT records returned (states: maximum sizes; messages: claimed is the total of "
                    "all messages, kex_get_total_msg_len_bytes).");
    rd_table *t = rd_table_new(x->doc, "lrrrrrrrrrr", "Instance", "Passes", "Public key", "Secret key", "State A",
                               "State B", "Shared secret", "m1", "m2", "m3", "Messages total");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        if (!is_type(in, "KEX"))
            continue;
        const rp_record *sz = rp_find(in, "sizes", NULL);
        char missing[256] = "";
        rd_cell_text(t, "%s", in->key);
        if (!sz || !sz->json) {
            no_sizes(x, t, in, sz, 10);
            continue;
        }
        rd_last_note(t, rs_note_verdict(x->doc, sz));
        num_cell(t, sz, "claimed.passes", missing, sizeof missing);
        pair_cell(t, sz, "pk", missing, sizeof missing);
        pair_cell(t, sz, "sk", missing, sizeof missing);
        pair_cell(t, sz, "sta", missing, sizeof missing);
        pair_cell(t, sz, "stb", missing, sizeof missing);
        pair_cell(t, sz, "ss", missing, sizeof missing);
        num_cell(t, sz, "observed.m1", missing, sizeof missing);
        num_cell(t, sz, "observed.m2", missing, sizeof missing);
        num_cell(t, sz, "observed.m3", missing, sizeof missing);
        pair_cell(t, sz, "total_msg", missing, sizeof missing);
        rd_row_gaps(x->doc, t, "%s has no usable value for %s.", sz->file, missing);
    }
}

static void hash_sizes_table(rs_ctx *x)
{
    rd_para(x->doc, "Hash: the digest length (DIGEST_BIT_LENGTH, bits) and the instance library's static image "
                    "(sum of its loadable ELF segments).");
    rd_table *t = rd_table_new(x->doc, "lrrr", "Instance", "Digest (bits)", "Digest (bytes)", "Static image");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        if (!is_type(in, "HASH"))
            continue;
        const rp_record *sz = rp_find(in, "sizes", NULL);
        char missing[256] = "", b[NGCC_FMT_MAX];
        rd_cell_text(t, "%s", in->key);
        if (!sz || !sz->json) {
            no_sizes(x, t, in, sz, 3);
            continue;
        }
        rd_last_note(t, rs_note_verdict(x->doc, sz));
        double d;
        num_cell(t, sz, "claimed.digest_bits", missing, sizeof missing);
        if (rj_num(sz->json, "claimed.digest_bits", &d))
            rd_cell_text(t, "%s", ngcc_fmt_int(b, ceil(d / 8)));
        else
            rd_cell_text(t, "%s", NGCC_FMT_GAP);
        rs_cell_num(t, sz, "static.loadable_total", ngcc_fmt_bytes, missing, sizeof missing);
        rd_row_gaps(x->doc, t, "%s has no usable value for %s.", sz->file, missing);
    }
}

void rs_section_sizes(rs_ctx *x)
{
    rd_heading(x->doc, 2, "6. Sizes");
    int kex = cand_has_type(x, "KEX"), hash = cand_has_type(x, "HASH");
    if (cand_has_type(x, "SIG") || cand_has_type(x, "KEM") || (!kex && !hash)) {
        rd_para(x->doc, "Bytes, as claimed by the API getters (signature: claimed maximum; observed: shortest and "
                        "longest signature produced while timing).");
        sizes_table(x);
    }
    if (kex)
        kex_sizes_table(x);
    if (hash)
        hash_sizes_table(x);
    symmetric_table(x);
}
