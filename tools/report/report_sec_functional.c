/* Section 3: functional testing (build, KAT) and the security checks. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_buf.h"
#include "report_fmt.h"
#include "report_sections.h"

static void kat_row(rs_ctx *x, rd_table *t, const rp_instance *in, const rp_record *kat, const char *label)
{
    const rp_record *build = rp_find(in, "build", "plain");
    const cJSON *m = rp_meta(in);
    const char *dir = rs_inst_dir(x, in);
    rd_cell_text(t, "%s", label);
    const char *fs = build && build->json ? rj_str(build->json, "flagset") : NULL;
    if (!fs && m)
        fs = rj_str(m, "flagset");
    rd_cell_text(t, "%s", fs ? fs : "");
    rs_cell_verdict(x->doc, t, build, dir, "build-plain.json", "build");
    if (kat || !rs_cell_not_for_type(t, in, "kat"))
        rs_cell_verdict(x->doc, t, kat, dir, "kat.json", "kat");
    int ta = rs_note_timed_anyway(x->doc, x, in);
    if (ta) {
        rd_cell *c = rd_at(t, t->nrows - 1, 3);
        char *s = NULL;
        if (asprintf(&s, "%s, timed anyway", c->text) > 0) {
            free(c->text);
            c->text = s;
        }
        rd_add_note(c, ta);
    }
    double done, req;
    if (kat && kat->json && rj_num(kat->json, "records_complete", &done) &&
        rj_num(kat->json, "records_requested", &req))
        rd_cell_text(t, "%.0f/%.0f", done, req);
    else
        rd_cell_text(t, "%s", NGCC_FMT_GAP);
}

static void kat_table(rs_ctx *x)
{
    rd_table *t = rd_table_new(x->doc, "llllr", "Instance", "Flag set", "Build", "KAT verdict", "KAT records");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        const char *type = rs_inst_type(in);
        int hash = type && strcmp(type, "HASH") == 0;
        if (hash) /* four official files, each with its own verdict */
            rs_hash_kat_rows(x, t, in);
        else
            kat_row(x, t, in, rp_find(in, "kat", NULL), in->key);
        /* further records of kind kat (e.g. kat-template.json) get rows of their own */
        for (size_t k = 0; k < in->nrecs; k++) {
            const rp_record *r = in->recs[k];
            if (strcmp(r->kind, "kat") == 0 && (hash ? !rs_hash_kat_matched(in, r) : r != rp_find(in, "kat", NULL))) {
                char label[300];
                snprintf(label, sizeof label, "%s (%s)", in->key, rp_basename(r));
                kat_row(x, t, in, r, label);
            }
        }
    }
}

/* the compiler flags of each flag set, once per distinct text, with its instances */
static void flags_table(rs_ctx *x)
{
    rd_table *t = NULL;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const cJSON *m = rp_meta(&x->cand->inst[i]);
        const char *flags = m ? rj_str(m, "flags") : NULL, *fs = m ? rj_str(m, "flagset") : NULL;
        int seen = 0;
        for (size_t k = 0; k < i && flags; k++) {
            const cJSON *mk = rp_meta(&x->cand->inst[k]);
            const char *fk = mk ? rj_str(mk, "flags") : NULL, *fsk = mk ? rj_str(mk, "flagset") : NULL;
            seen |= fk && !strcmp(fk, flags) && !strcmp(fsk ? fsk : "", fs ? fs : "");
        }
        if (!flags || seen)
            continue;
        char insts[2048] = "";
        for (size_t k = i; k < x->cand->ninst; k++) {
            const cJSON *mk = rp_meta(&x->cand->inst[k]);
            const char *fk = mk ? rj_str(mk, "flags") : NULL, *fsk = mk ? rj_str(mk, "flagset") : NULL;
            if (fk && !strcmp(fk, flags) && !strcmp(fsk ? fsk : "", fs ? fs : ""))
                rs_list_add(insts, sizeof insts, x->cand->inst[k].key);
        }
        if (!t)
            t = rd_table_new(x->doc, "llll", "Flag set", "Compiler", "Compiler flags", "Instances");
        const char *comp = rj_str(m, "compiler");
        rd_cell_text(t, "%s", fs ? fs : NGCC_FMT_GAP);
        rd_cell_text(t, "%s", comp ? comp : NGCC_FMT_GAP);
        rd_cell_text(t, "%s", flags);
        rd_cell_text(t, "%s", insts);
    }
}

/* ---- security checks: one row per instance, one column per check ---- */

#define MAX_CHECKS 64

static size_t check_names(rs_ctx *x, const char **names)
{
    size_t n = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_record *r = rp_find(&x->cand->inst[i], "security", NULL);
        const cJSON *checks = r && r->json ? rj_get(r->json, "checks") : NULL;
        const cJSON *c;
        cJSON_ArrayForEach(c, checks)
        {
            const char *name = rj_str(c, "name");
            int seen = 0;
            for (size_t k = 0; k < n && name; k++)
                seen |= strcmp(names[k], name) == 0;
            if (name && !seen && n < MAX_CHECKS)
                names[n++] = name;
        }
    }
    return n;
}

static void check_cell(rs_ctx *x, rd_table *t, const rp_record *r, const char *name)
{
    const cJSON *checks = r && r->json ? rj_get(r->json, "checks") : NULL;
    const cJSON *c;
    cJSON_ArrayForEach(c, checks)
    {
        const char *cn = rj_str(c, "name");
        if (!cn || strcmp(cn, name) != 0)
            continue;
        const char *v = rj_str(c, "verdict");
        const char *d = rj_str(c, "detail");
        if (!v) {
            rd_cell_note(t, rd_note(x->doc, "%s: check %s has no verdict.", r->file, name), "%s", NGCC_FMT_GAP);
            return;
        }
        /* a failed check shows the class it fails as (CRYPTOFAIL, MALLEABLE,
         * OVERFLOW...; records before "fails_as" existed: FAIL) */
        const char *fa = strcmp(v, "FAIL") == 0 ? rj_str(c, "fails_as") : NULL;
        int note = strcmp(v, "PASS") ? rd_note(x->doc, "%s: check %s: %s: %s", r->file, name, fa ? fa : v,
                                               d ? d : "no detail recorded")
                                     : 0;
        rd_cell_note(t, note, "%s", fa ? fa : v);
        return;
    }
    if (r && r->json)
        rd_cell_text(t, "not run");
    else
        rd_cell_text(t, "%s", NGCC_FMT_GAP);
}

static void security_row(rs_ctx *x, rd_table *t, const rp_instance *in, const char **names, size_t n, int san, int mem)
{
    const char *dir = rs_inst_dir(x, in);
    const rp_record *r = rp_find(in, "security", NULL);
    rd_cell_text(t, "%s", in->key);
    if (r || !rs_cell_not_for_type(t, in, "security"))
        rs_cell_verdict(x->doc, t, r, dir, "security.json", "security");
    if (r && r->json && !cJSON_IsArray(rj_get(r->json, "checks")))
        rd_last_note(t, rd_note(x->doc, "%s has no \"checks\" array: its checks are not shown.", r->file));
    for (size_t k = 0; k < n; k++)
        check_cell(x, t, r, names[k]);
    if (san)
        rs_cell_verdict(x->doc, t, rp_find(in, "sanitizer", NULL), dir, "sanitizer.json", "security");
    if (mem)
        rs_cell_verdict(x->doc, t, rp_find(in, "memcheck", NULL), dir, "memcheck.json", "memcheck");
}

static void return_codes(rs_ctx *x)
{
    rd_table *t = NULL;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_record *r = rp_find(&x->cand->inst[i], "security", NULL);
        const cJSON *v = r && r->json ? rj_get(r->json, "verify_return_codes") : NULL;
        if (!v)
            continue;
        if (!t)
            t = rd_table_new(x->doc, "ll", "Instance", "Verify return codes observed");
        /* {"0": 12, "-1": 2410} read as "0 in 12 calls, -1 in 2410 calls", not as JSON */
        rb_buf text = {0};
        const cJSON *code;
        cJSON_ArrayForEach(code, v)
        {
            rb_printf(&text, "%s%s in %.0f call%s", text.len ? ", " : "", code->string ? code->string : "?",
                      code->valuedouble, code->valuedouble == 1 ? "" : "s");
        }
        char *s = rb_take(&text);
        rd_cell_text(t, "%s", x->cand->inst[i].key);
        rd_cell_text(t, "%s", s);
        free(s);
    }
}

static void security_table(rs_ctx *x)
{
    rd_heading(x->doc, 3, "Security checks");
    int sec = rp_has_kind(x->sys, x->cand, "security"), san = rp_has_kind(x->sys, x->cand, "sanitizer"),
        mem = rp_has_kind(x->sys, x->cand, "memcheck");
    if (!sec && !san && !mem) {
        rd_para(x->doc, "No security, sanitizer or memcheck records for %s: the security label was not run.",
                x->cand->id);
        return;
    }
    const char *names[MAX_CHECKS];
    size_t n = check_names(x, names);
    const char *heads[MAX_CHECKS + 4];
    char align[MAX_CHECKS + 5] = "ll";
    size_t h = 0;
    heads[h++] = "Instance";
    heads[h++] = "Security";
    for (size_t k = 0; k < n; k++) {
        heads[h++] = names[k];
        strcat(align, "c");
    }
    if (san) {
        heads[h++] = "Sanitizer";
        strcat(align, "c");
    }
    if (mem) {
        heads[h++] = "Memcheck";
        strcat(align, "c");
    }
    rd_table *t = rd_table_newv(x->doc, align, heads);
    for (size_t i = 0; i < x->cand->ninst; i++)
        security_row(x, t, &x->cand->inst[i], names, n, san, mem);
    rd_para(x->doc, "Each check is one CMocka case of the security test; \"not run\" means the record lists no such "
                    "check for that instance.");
    rs_findings_list(x);
    return_codes(x);
}

void rs_section_functional(rs_ctx *x)
{
    rd_heading(x->doc, 2, "3. Functional testing");
    rd_para(x->doc, "The KAT test replays the official KAT driver bit for bit and compares the produced text with "
                    "the submitted KAT file or a kat.sha256 manifest.");
    if (rs_cand_has_type(x->cand, "HASH"))
        rd_para(x->doc, "A hash instance has four official KAT files (KAT_2_12, KAT_2_23, KAT_2_33, KAT_Loop), one row "
                        "and one verdict each.");
    kat_table(x);
    flags_table(x);
    rs_exported_helpers(x);
    security_table(x);
}
