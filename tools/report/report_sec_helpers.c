/* Section 3's "Exported helpers": the global functions the candidate's own
 * objects define beyond the official API (build-plain.json
 * "exported_helpers", read with nm before the version script hides them),
 * one row per distinct list with the instances that have it. Those drawing
 * randomness outside the DRNG are findings (report_sec_findings.c); a helper
 * that makes keys from a constant is for the evaluator to spot here. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_sections.h"

/* the helper names as one comma list; -1 if the record has no list */
static int helper_list(const rp_instance *in, char *out, size_t cap)
{
    const rp_record *b = rp_find(in, "build", "plain");
    const cJSON *arr = b && b->json ? rj_get(b->json, "exported_helpers") : NULL;
    if (!cJSON_IsArray(arr))
        return -1;
    out[0] = 0;
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsString(e)) {
            rs_list_add(out, cap, e->valuestring);
            n++;
        }
    }
    return n;
}

void rs_exported_helpers(rs_ctx *x)
{
    static char lists[2][8192];
    rd_table *t = NULL;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        int n = helper_list(&x->cand->inst[i], lists[0], sizeof lists[0]);
        if (n < 0)
            continue;
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = helper_list(&x->cand->inst[k], lists[1], sizeof lists[1]) >= 0 && !strcmp(lists[0], lists[1]);
        if (seen)
            continue;
        char insts[2048] = "";
        for (size_t k = i; k < x->cand->ninst; k++)
            if (helper_list(&x->cand->inst[k], lists[1], sizeof lists[1]) >= 0 && !strcmp(lists[0], lists[1]))
                rs_list_add(insts, sizeof insts, x->cand->inst[k].key);
        if (!t) {
            rd_heading(x->doc, 3, "Exported helpers");
            t = rd_table_new(x->doc, "lrl", "Instances", "Helpers", "Global functions beyond the official API");
        }
        rd_cell_text(t, "%s", insts);
        rd_cell_text(t, "%d", n);
        rd_cell_text(t, "%s", n ? lists[0] : "none");
    }
    if (t)
        rd_para(x->doc, "Global functions the candidate's own objects define besides the official API and the ICCS "
                        "functions (nm, before the version script hides them): any code linked with the objects can "
                        "call them. One whose calls reach another random generator than the DRNG (rand(), "
                        "getrandom(), RAND_bytes()...) is also a static finding below; one that makes keys from a "
                        "constant is only listed here.");
}
