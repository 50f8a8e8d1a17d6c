/* ngcc-report: internals shared by the page builders (one file per group
 * of sections of the candidate page). */
#ifndef REPORT_SECTIONS_H
#define REPORT_SECTIONS_H
#include "report_doc.h"
#include "report_json.h"
#include "report_model.h"

typedef struct {
    rd_doc *doc;
    const rp_system *sys;
    const rp_candidate *cand;
} rs_ctx;

void rs_section_basic(rs_ctx *x);       /* 1 */
void rs_section_environment(rs_ctx *x); /* 2 */
void rs_section_functional(rs_ctx *x);  /* 3 (KAT and security checks) */
void rs_section_performance(rs_ctx *x); /* 4 */
void rs_section_resources(rs_ctx *x);   /* 5 */
void rs_section_sizes(rs_ctx *x);       /* 6 (sizes and symmetric primitives) */
void rs_section_evidence(rs_ctx *x);    /* 7 */

/* section 3: one row per distinct security finding (report_sec_findings.c) */
void rs_findings_list(rs_ctx *x);
/* section 3: the candidate's exported helpers (report_sec_helpers.c) */
void rs_exported_helpers(rs_ctx *x);

/* a record's verdict ("PASS", ...) or NULL */
const char *rs_rec_verdict(const rp_record *r);
/* 1 if the verdict is one that needs no note (PASS, BUILDOK) */
int rs_verdict_ok(const char *v);
/* the note explaining a record's non-PASS verdict (0 if PASS or no record) */
int rs_note_verdict(rd_doc *d, const rp_record *r);
/* the note for a record that exists but could not be read (0 if readable) */
int rs_note_malformed(rd_doc *d, const rp_record *r);
/* one cell: the verdict of r, a gap with a note if r is missing or malformed */
void rs_cell_verdict(rd_doc *d, rd_table *t, const rp_record *r, const char *inst_dir, const char *file,
                     const char *label);
/* a gap for a field that r (a readable record) lacks: pending note, field
 * appended to missing; for an absent or unreadable r a plain gap (another
 * cell of the row explains it) */
void rs_cell_missing(rd_table *t, const rp_record *r, const char *field, char *missing, size_t cap);
/* a numeric cell formatted by fmt, or a pending gap (rd_row_gaps); the field
 * name is appended to missing (a comma list) */
void rs_cell_num(rd_table *t, const rp_record *r, const char *path, char *(*fmt)(char *, double), char *missing,
                 size_t cap);
/* 1 if the instance key names a zoo variant (key~variant) */
int rs_is_zoo(const char *key);
/* "<candidate>/<instance>" of an instance, in a static buffer */
const char *rs_inst_dir(const rs_ctx *x, const rp_instance *in);
/* 1 if a perf record of the instance was timed although its KAT did not pass */
int rs_timed_anyway(const rp_instance *in);
/* the note for "timed anyway" of this instance (0 if not) */
int rs_note_timed_anyway(rd_doc *d, const rs_ctx *x, const rp_instance *in);
/* appends ", name" to a comma list */
void rs_list_add(char *list, size_t cap, const char *name);

/* report_types.c: per-type facts and cells (KEX, HASH) */
/* the instance's type from its meta ("SIG", "KEM", "KEX", "HASH") or NULL */
const char *rs_inst_type(const rp_instance *in);
int rs_cand_has_type(const rp_candidate *cand, const char *type);
/* labels with no test for the instance's type (build-plain.json
 * "labels_not_for_type") as a comma list; returns their number */
size_t rs_not_for_type(const rp_instance *in, char *list, size_t cap);
int rs_label_not_for_type(const rp_instance *in, const char *label);
/* a "not run (no <label> test for <type> yet)" cell; 0 (nothing added) if the label covers the type */
int rs_cell_not_for_type(rd_table *t, const rp_instance *in, const char *label);
/* section 1: the KEX and hash facts tables and the not-run labels */
void rs_type_facts(rs_ctx *x);
/* section 3: one KAT row per official hash file (a missing one is a named gap) */
void rs_hash_kat_rows(rs_ctx *x, rd_table *t, const rp_instance *in);
/* the index's KAT cell of a hash instance: "2_12 PASS · 2_23 PASS · 2_33 SKIP · Loop —" */
void rs_cell_hash_kat(rd_doc *d, rd_table *t, const rp_instance *in, const char *dir);
/* 1 if r is the record (or holds the entry) of one of the four hash files */
int rs_hash_kat_matched(const rp_instance *in, const rp_record *r);

#endif
