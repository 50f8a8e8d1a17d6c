/* Section 7: the raw evidence, every record file behind the page with its SHA-256. */
#include <string.h>

#include "report_fmt.h"
#include "report_sections.h"

static void evidence_row(rs_ctx *x, rd_table *t, const rp_record *r)
{
    rd_cell_text(t, "%s", r->file);
    rd_cell_text(t, "%s", r->kind);
    if (!r->json)
        rd_cell_note(t, rs_note_malformed(x->doc, r), "malformed");
    else {
        const char *v = rs_rec_verdict(r);
        rd_cell_text(t, "%s", v ? v : NGCC_FMT_GAP);
    }
    rd_cell_text(t, "%s", r->sha256);
}

void rs_section_evidence(rs_ctx *x)
{
    rd_heading(x->doc, 2, "7. Raw evidence");
    rd_para(x->doc,
            "Every figure above comes from one of these record files (paths relative to the records "
            "folder of system %s); the SHA-256 identifies the exact file.",
            x->sys->id);
    rd_table *t = rd_table_new(x->doc, "llll", "Record", "Kind", "Verdict", "SHA-256");
    if (x->sys->system)
        evidence_row(x, t, x->sys->system);
    for (size_t i = 0; i < x->cand->ninst; i++)
        for (size_t k = 0; k < x->cand->inst[i].nrecs; k++)
            evidence_row(x, t, x->cand->inst[i].recs[k]);
}
