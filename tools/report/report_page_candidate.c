/* The page of one candidate on one system, in the section order of the
 * NICCS self-assessment guide §3.5 (1)-(7). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_pages.h"
#include "report_sections.h"

char *rpg_slug(const char *id)
{
    char *s = strndup(id, 80); /* a file name, whatever a record claims */
    for (char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._~-", *p))
            *p = '_';
    if (s[0] == '.')
        s[0] = '_';
    return s;
}

rd_doc *rpg_candidate(const rp_system *s, const rp_candidate *cand)
{
    char title[512];
    snprintf(title, sizeof title, "%s on %s: NGCC self-assessment", cand->id, s->id);
    rd_doc *d = rd_new(title, "../");
    rd_link(d, "../index", "Index of all candidates");
    rs_ctx x = {d, s, cand};
    rs_section_basic(&x);
    rs_section_environment(&x);
    rs_section_functional(&x);
    rs_section_performance(&x);
    rs_section_resources(&x);
    rs_section_sizes(&x);
    rs_section_evidence(&x);
    return d;
}
