/* Helpers shared by the section builders: verdict cells, gaps and notes. */
#include <stdio.h>
#include <string.h>

#include "report_fmt.h"
#include "report_sections.h"

const char *rs_rec_verdict(const rp_record *r)
{
    return r && r->json ? rj_str(r->json, "verdict") : NULL;
}

int rs_verdict_ok(const char *v)
{
    /* RECORDED, NOBASELINE: passing, nothing committed to gate against (prof; perf on a
     * machine class without baselines); FINDING: reported, passing (a declared claim
     * allows it); the tables note it */
    return v && (strcmp(v, "PASS") == 0 || strcmp(v, "BUILDOK") == 0 || strcmp(v, "RECORDED") == 0 ||
                 strcmp(v, "NOBASELINE") == 0 || strcmp(v, "FINDING") == 0);
}

int rs_note_malformed(rd_doc *d, const rp_record *r)
{
    if (!r || r->json)
        return 0;
    return rd_note(d, "%s %s; rerun the test that writes it (the figures it should hold are missing).", r->file,
                   r->error ? r->error : "cannot be read");
}

int rs_note_verdict(rd_doc *d, const rp_record *r)
{
    const char *v = rs_rec_verdict(r);
    if (!v || rs_verdict_ok(v))
        return 0;
    const char *detail = rj_str(r->json, "detail");
    /* prof records keep the expectation file entry in "expected" and the verdict in "expected_verdict" */
    const char *expected = rj_str(r->json, "expected");
    if (!expected)
        expected = rj_str(r->json, "expected_verdict");
    const char *err = rj_str(r->json, "first_error");
    if (!detail)
        detail = err;
    if (expected && strcmp(expected, v) == 0)
        return rd_note(d, "%s: %s, as expected (%s): %s", r->file, v, "declared in the override's \"expect\" map",
                       detail ? detail : "no detail recorded");
    return rd_note(d, "%s: %s%s%s: %s", r->file, v, expected ? ", expected " : "", expected ? expected : "",
                   detail ? detail : "no detail recorded");
}

void rs_cell_verdict(rd_doc *d, rd_table *t, const rp_record *r, const char *dir, const char *file, const char *label)
{
    if (!r) {
        rd_cell_note(t, rd_note(d, "%s/%s: no such record (run ctest -L %s).", dir, file, label), "%s", NGCC_FMT_GAP);
        return;
    }
    if (!r->json) {
        rd_cell_note(t, rs_note_malformed(d, r), "%s", NGCC_FMT_GAP);
        return;
    }
    const char *v = rs_rec_verdict(r);
    if (!v) {
        rd_cell_note(t, rd_note(d, "%s has no \"verdict\" field.", r->file), "%s", NGCC_FMT_GAP);
        return;
    }
    rd_cell_note(t, rs_note_verdict(d, r), "%s", v);
}

void rs_list_add(char *list, size_t cap, const char *name)
{
    size_t l = strlen(list);
    snprintf(list + l, cap - l, "%s%s", l ? ", " : "", name);
}

void rs_cell_missing(rd_table *t, const rp_record *r, const char *field, char *missing, size_t cap)
{
    if (r && r->json) {
        rd_cell_gap(t);
        rs_list_add(missing, cap, field);
    } else
        rd_cell_text(t, "%s", NGCC_FMT_GAP);
}

void rs_cell_num(rd_table *t, const rp_record *r, const char *path, char *(*fmt)(char *, double), char *missing,
                 size_t cap)
{
    double v;
    if (r && r->json && rj_num(r->json, path, &v)) {
        char buf[NGCC_FMT_MAX];
        rd_cell_text(t, "%s", fmt(buf, v));
        return;
    }
    rs_cell_missing(t, r, path, missing, cap);
}

int rs_is_zoo(const char *key)
{
    return strchr(key, '~') != NULL;
}

const char *rs_inst_dir(const rs_ctx *x, const rp_instance *in)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", x->cand->id, in->key);
    return buf;
}

int rs_timed_anyway(const rp_instance *in)
{
    for (size_t i = 0; i < in->nrecs; i++) {
        int b;
        if (strcmp(in->recs[i]->kind, "perf") == 0 && in->recs[i]->json &&
            rj_bool(in->recs[i]->json, "timed_anyway", &b) && b)
            return 1;
    }
    return 0;
}

int rs_note_timed_anyway(rd_doc *d, const rs_ctx *x, const rp_instance *in)
{
    if (!rs_timed_anyway(in))
        return 0;
    const char *kv = rs_rec_verdict(rp_find(in, "kat", NULL));
    return rd_note(d,
                   "%s was timed anyway: its KAT verdict is %s, so its figures describe an implementation that "
                   "does not reproduce its own test vectors.",
                   rs_inst_dir(x, in), kv ? kv : "missing");
}
