/* ngcc-report: the pages, built from the loaded records. */
#ifndef REPORT_PAGES_H
#define REPORT_PAGES_H
#include "report_doc.h"
#include "report_model.h"

/* page of one candidate on one system (NICCS self-assessment guide
 * §3.5 (1)-(7)); written as <system>/<candidate>.{md,html} */
rd_doc *rpg_candidate(const rp_system *s, const rp_candidate *cand);
/* index across candidates and systems: one line per instance */
rd_doc *rpg_index(const rp_campaign *c, int with_compare);
/* ratios per operation of every system against the reference system */
rd_doc *rpg_compare(const rp_campaign *c, const rp_system *ref);
/* file-name-safe form of an id ([A-Za-z0-9._~-] kept, others '_', at most
 * 80 characters); caller frees */
char *rpg_slug(const char *id);

#endif
