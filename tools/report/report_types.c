/* What a candidate page shows per NGCC type beyond the SIG/KEM columns:
 * the basic facts of KEX and hash instances (section 1), the hash KAT files
 * (section 3), and the labels that have no test for an instance's type (read
 * from its build record: not run, never shown as passed). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_fmt.h"
#include "report_sections.h"

const char *rs_inst_type(const rp_instance *in)
{
    const cJSON *m = rp_meta(in);
    return m ? rj_str(m, "type") : NULL;
}

int rs_cand_has_type(const rp_candidate *cand, const char *type)
{
    for (size_t i = 0; i < cand->ninst; i++) {
        const char *t = rs_inst_type(&cand->inst[i]);
        if (t && strcmp(t, type) == 0)
            return 1;
    }
    return 0;
}

size_t rs_not_for_type(const rp_instance *in, char *list, size_t cap)
{
    list[0] = 0;
    const rp_record *b = rp_find(in, "build", "plain");
    const cJSON *a = b && b->json ? rj_get(b->json, "labels_not_for_type") : NULL;
    const cJSON *l;
    size_t n = 0;
    cJSON_ArrayForEach(l, a)
    {
        if (cJSON_IsString(l) && l->valuestring[0]) {
            rs_list_add(list, cap, l->valuestring);
            n++;
        }
    }
    return n;
}

int rs_label_not_for_type(const rp_instance *in, const char *label)
{
    const rp_record *b = rp_find(in, "build", "plain");
    const cJSON *a = b && b->json ? rj_get(b->json, "labels_not_for_type") : NULL;
    const cJSON *l;
    cJSON_ArrayForEach(l, a)
    {
        if (cJSON_IsString(l) && strcmp(l->valuestring, label) == 0)
            return 1;
    }
    return 0;
}

int rs_cell_not_for_type(rd_table *t, const rp_instance *in, const char *label)
{
    if (!rs_label_not_for_type(in, label))
        return 0;
    const char *type = rs_inst_type(in);
    rd_cell_text(t, "not run (no %s test for %s yet)", label, type ? type : "this type");
    return 1;
}

/* a numeric fact from the first record whose "meta" has one of the keys
 * (kat.json first: rp_meta's order, then every record of the instance) */
static int meta_num(const rp_instance *in, const char *const *keys, double *out, const char **from)
{
    const cJSON *m = rp_meta(in);
    for (size_t r = 0; r <= in->nrecs; r++) {
        if (r > 0) {
            const rp_record *rec = in->recs[r - 1];
            m = rec->json ? rj_get(rec->json, "meta") : NULL;
        }
        for (size_t k = 0; m && keys[k]; k++) {
            if (rj_num(m, keys[k], out)) {
                if (from)
                    *from = r > 0 ? rp_basename(in->recs[r - 1]) : "meta";
                return 1;
            }
        }
    }
    return 0;
}

static void fact_cell(rd_table *t, const rp_instance *in, const char *const *keys, char *missing, size_t cap)
{
    double v;
    char b[NGCC_FMT_MAX];
    if (meta_num(in, keys, &v, NULL))
        rd_cell_text(t, "%s", ngcc_fmt_int(b, v));
    else {
        rd_cell_gap(t);
        rs_list_add(missing, cap, keys[0]);
    }
}

static void kex_facts(rs_ctx *x)
{
    static const char *const passes[] = {"passes", "claimed_passes", "pass_num", NULL};
    static const char *const pk[] = {"claimed_pk", NULL}, *const sk[] = {"claimed_sk", NULL};
    static const char *const sta[] = {"claimed_sta", NULL}, *const stb[] = {"claimed_stb", NULL};
    static const char *const ss[] = {"claimed_ss", NULL};
    static const char *const msg[] = {"claimed_total_msg", "claimed_msg", NULL};
    rd_heading(x->doc, 3, "Key exchange (KEX)");
    rd_para(x->doc, "Passes as claimed by kex_get_passes_num(); bytes as claimed by the kex_get_*_len_bytes() "
                    "getters (states: maximum sizes; all messages: the total of every pass).");
    rd_table *t = rd_table_new(x->doc, "llrrrrrr", "Instance", "Passes", "Public key", "Secret key", "State A (max)",
                               "State B (max)", "Shared secret", "All messages");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        const char *type = rs_inst_type(in);
        if (!type || strcmp(type, "KEX") != 0)
            continue;
        char missing[256] = "";
        double p;
        rd_cell_text(t, "%s", in->key);
        if (meta_num(in, passes, &p, NULL))
            rd_cell_text(t, "%.0f (%s)", p,
                         p == 3   ? "A\xE2\x86\x92"
                                    "B, B\xE2\x86\x92"
                                    "A, A\xE2\x86\x92"
                                    "B"
                         : p == 2 ? "A\xE2\x86\x92"
                                    "B, B\xE2\x86\x92"
                                    "A"
                         : p == 1 ? "A\xE2\x86\x92"
                                    "B"
                                  : "not a 1-, 2- or 3-pass exchange: the official driver cannot run it");
        else {
            rd_cell_gap(t);
            rs_list_add(missing, sizeof missing, "passes");
        }
        fact_cell(t, in, pk, missing, sizeof missing);
        fact_cell(t, in, sk, missing, sizeof missing);
        fact_cell(t, in, sta, missing, sizeof missing);
        fact_cell(t, in, stb, missing, sizeof missing);
        fact_cell(t, in, ss, missing, sizeof missing);
        fact_cell(t, in, msg, missing, sizeof missing);
        rd_row_gaps(x->doc, t, "%s: no record's meta has %s (written by the kat and prof tests).", rs_inst_dir(x, in),
                    missing);
    }
}

static void hash_facts(rs_ctx *x)
{
    static const char *const bits[] = {"digest_bits", "claimed_digest_bits", "digest_bit_length", NULL};
    rd_heading(x->doc, 3, "Hash function (CryptHash)");
    rd_para(x->doc, "Digest length: DIGEST_BIT_LENGTH of the header, the length the official driver passes to "
                    "every CryptHash call.");
    rd_table *t = rd_table_new(x->doc, "lr", "Instance", "Digest bits");
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        const char *type = rs_inst_type(in);
        if (!type || strcmp(type, "HASH") != 0)
            continue;
        char missing[128] = "";
        rd_cell_text(t, "%s", in->key);
        fact_cell(t, in, bits, missing, sizeof missing);
        rd_row_gaps(x->doc, t, "%s: no record's meta has %s (written by the kat and prof tests).", rs_inst_dir(x, in),
                    missing);
    }
}

void rs_type_facts(rs_ctx *x)
{
    if (rs_cand_has_type(x->cand, "KEX"))
        kex_facts(x);
    if (rs_cand_has_type(x->cand, "HASH"))
        hash_facts(x);
    char all[4096] = "";
    for (size_t i = 0; i < x->cand->ninst; i++) {
        char list[512], one[700];
        const rp_instance *in = &x->cand->inst[i];
        if (!rs_not_for_type(in, list, sizeof list))
            continue;
        const char *type = rs_inst_type(in);
        snprintf(one, sizeof one, "%s (%s): %s", in->key, type ? type : "type unknown", list);
        size_t l = strlen(all);
        snprintf(all + l, sizeof all - l, "%s%s", l ? "; " : "", one);
    }
    if (all[0])
        rd_para(x->doc, "Not run (the label has no test for the instance's type yet; no verdict, not a pass): %s.",
                all);
}

/* ---- section 3: the four KAT files of a hash instance ---- */

static const char *const hash_files[] = {"KAT_2_12", "KAT_2_23", "KAT_2_33", "KAT_Loop"};

/* lower-case s contains the tag's distinctive part ("2_12", "loop"), with
 * '-' read as '_' */
static int names_file(const char *s, const char *tag)
{
    if (!s)
        return 0;
    char a[512], b[16];
    snprintf(a, sizeof a, "%s", s);
    snprintf(b, sizeof b, "%s", tag + 4);
    for (char *p = a; *p; p++)
        *p = *p == '-' ? '_' : (char)tolower((unsigned char)*p);
    for (char *p = b; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return strstr(a, b) != NULL;
}

static int is_kat_kind(const char *kind)
{
    return strcmp(kind, "kat") == 0 || strncmp(kind, "kat-", 4) == 0 || strncmp(kind, "kat_", 4) == 0;
}

/* the record of one hash KAT file: kind kat whose op, file name or
 * "katfile"/"kat_file"/"file" names it */
static const rp_record *hash_file_record(const rp_instance *in, const char *tag)
{
    for (size_t k = 0; k < in->nrecs; k++) {
        const rp_record *r = in->recs[k];
        if (!is_kat_kind(r->kind))
            continue;
        const cJSON *j = r->json;
        if (names_file(r->op, tag) || names_file(rp_basename(r), tag) ||
            (j && (names_file(rj_str(j, "katfile"), tag) || names_file(rj_str(j, "kat_file"), tag) ||
                   names_file(rj_str(j, "file"), tag))))
            return r;
    }
    return NULL;
}

/* an entry of a "files" array in one kat record ({"file"|"name", "verdict", "detail"}) */
static const cJSON *hash_file_entry(const rp_instance *in, const char *tag, const rp_record **from)
{
    for (size_t k = 0; k < in->nrecs; k++) {
        const rp_record *r = in->recs[k];
        const cJSON *files = is_kat_kind(r->kind) && r->json ? rj_get(r->json, "files") : NULL;
        const cJSON *f;
        cJSON_ArrayForEach(f, files)
        {
            if (names_file(rj_str(f, "file"), tag) || names_file(rj_str(f, "name"), tag)) {
                *from = r;
                return f;
            }
        }
    }
    return NULL;
}

int rs_hash_kat_matched(const rp_instance *in, const rp_record *r)
{
    const rp_record *from = NULL;
    for (size_t f = 0; f < sizeof hash_files / sizeof hash_files[0]; f++)
        if (hash_file_record(in, hash_files[f]) == r || (hash_file_entry(in, hash_files[f], &from) && from == r))
            return 1;
    return 0;
}

void rs_hash_kat_rows(rs_ctx *x, rd_table *t, const rp_instance *in)
{
    const char *dir = rs_inst_dir(x, in);
    const rp_record *build = rp_find(in, "build", "plain");
    const cJSON *m = rp_meta(in);
    const char *ai = m ? rj_str(m, "algorithm_instance") : NULL;
    const char *fs = build && build->json ? rj_str(build->json, "flagset") : NULL;
    if (!fs && m)
        fs = rj_str(m, "flagset");
    /* a zoo variant replays only the files its entry expects (the kat label
     * registers no other): rows for the files it has, none without any */
    const int zoo = strchr(in->key, '~') != NULL;
    int have = 0;
    for (size_t f = 0; f < sizeof hash_files / sizeof hash_files[0]; f++) {
        const rp_record *from = NULL;
        have += hash_file_record(in, hash_files[f]) || hash_file_entry(in, hash_files[f], &from);
    }
    if (zoo && !have)
        return;
    for (size_t f = 0; f < sizeof hash_files / sizeof hash_files[0]; f++) {
        if (zoo && !hash_file_record(in, hash_files[f])) {
            const rp_record *from = NULL;
            if (!hash_file_entry(in, hash_files[f], &from))
                continue;
        }
        rd_cell_text(t, "%s (%s_%s.txt)", in->key, hash_files[f], ai ? ai : "<ALGORITHM_INSTANCE>");
        rd_cell_text(t, "%s", fs ? fs : "");
        rs_cell_verdict(x->doc, t, build, dir, "build-plain.json", "build");
        const rp_record *r = hash_file_record(in, hash_files[f]);
        const rp_record *from = NULL;
        const cJSON *e = r ? NULL : hash_file_entry(in, hash_files[f], &from);
        double done, req;
        if (r) {
            rs_cell_verdict(x->doc, t, r, dir, rp_basename(r), "kat");
            if (r->json && rj_num(r->json, "records_complete", &done) && rj_num(r->json, "records_requested", &req))
                rd_cell_text(t, "%.0f/%.0f", done, req);
            else
                rd_cell_text(t, "%s", NGCC_FMT_GAP);
        } else if (e) {
            const char *v = rj_str(e, "verdict"), *d = rj_str(e, "detail");
            int note = !v ? rd_note(x->doc, "%s: the %s entry has no verdict.", from->file, hash_files[f])
                       : rs_verdict_ok(v) ? 0
                                          : rd_note(x->doc, "%s, %s: %s: %s", from->file, hash_files[f], v,
                                                    d ? d : "no detail recorded");
            rd_cell_note(t, note, "%s", v ? v : NGCC_FMT_GAP);
            if (rj_num(e, "records_complete", &done) && rj_num(e, "records_requested", &req))
                rd_cell_text(t, "%.0f/%.0f", done, req);
            else
                rd_cell_text(t, "%s", NGCC_FMT_GAP);
        } else if (rs_label_not_for_type(in, "kat")) {
            rd_cell_text(t, "not run (no kat test for HASH yet)");
            rd_cell_text(t, "%s", NGCC_FMT_GAP);
        } else {
            rd_cell_note(t,
                         rd_note(x->doc,
                                 "%s: no KAT record for %s_%s.txt (the kat test of that file did not run or "
                                 "wrote no record; run ctest -L kat).",
                                 dir, hash_files[f], ai ? ai : "<ALGORITHM_INSTANCE>"),
                         "%s", NGCC_FMT_GAP);
            rd_cell_text(t, "%s", NGCC_FMT_GAP);
        }
    }
}

void rs_cell_hash_kat(rd_doc *d, rd_table *t, const rp_instance *in, const char *dir)
{
    char text[256] = "";
    int missing = 0;
    for (size_t f = 0; f < sizeof hash_files / sizeof hash_files[0]; f++) {
        const rp_record *r = hash_file_record(in, hash_files[f]), *from = NULL;
        const cJSON *e = r ? NULL : hash_file_entry(in, hash_files[f], &from);
        const char *v = r ? rs_rec_verdict(r) : e ? rj_str(e, "verdict") : NULL;
        size_t l = strlen(text);
        snprintf(text + l, sizeof text - l, "%s%s %s", l ? " \xC2\xB7 " : "", hash_files[f] + 4, v ? v : NGCC_FMT_GAP);
        missing += !v;
    }
    if (missing && rs_label_not_for_type(in, "kat")) {
        rs_cell_not_for_type(t, in, "kat");
        return;
    }
    int note = missing ? rd_note(d, "%s: %d of the 4 hash KAT files have no record with a verdict (run ctest -L kat).",
                                 dir, missing)
                       : 0;
    rd_cell_note(t, note, "%s", text);
}
