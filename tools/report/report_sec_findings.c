/* Section 3's "Security findings": one row per distinct finding of the
 * candidate, with the instances it affects. Sources: the failed checks and
 * reported FINDINGs of security.json and sanitizer.json, every distinct
 * sanitizer report a sanitizer record lists, a memcheck.json and a ct.json
 * that did not pass, and the exported helpers a build record finds drawing
 * randomness elsewhere than the DRNG (kind "static"). Rows are grouped by (check, verdict, title with its
 * counts and record numbers blanked): the same flaw in WOTS-128 and WOTS-192
 * is one row naming both. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_sections.h"

#define MAX_FINDINGS 256

typedef struct {
    char files[64]; /* the records it is in: "security.json, sanitizer.json" */
    char check[64]; /* check name, or the record kind for a whole-record finding */
    char verdict[24];
    char title[600]; /* as on the first instance */
    char key[600];   /* the title with counts blanked: the grouping key */
    char insts[2048];
    char first_inst[256];
    int titles_differ;
} finding;

typedef struct {
    finding *f;
    size_t n;
} finding_set;

/* the first clause of a check's failure text: up to ": ", "; " or " (" */
static void first_clause(const char *d, char *out, size_t cap)
{
    size_t n = strlen(d);
    static const char *const stops[] = {": ", "; ", " ("};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        const char *p = strstr(d, stops[i]);
        if (p && (size_t)(p - d) < n)
            n = (size_t)(p - d);
    }
    snprintf(out, cap, "%.*s", (int)n, d);
}

/* "UBSan: ...", "AddressSanitizer: ...": a sanitizer report's text */
static int is_sanitizer_text(const char *d)
{
    const char *colon = strstr(d, ": ");
    if (!colon || colon - d > 24)
        return 0;
    for (const char *p = d; p < colon; p++)
        if (!isalpha((unsigned char)*p))
            return 0;
    return memmem(d, (size_t)(colon - d), "San", 3) != NULL;
}

/* a sanitizer report's first line and site: up to the ")" closing the
 * "(file:line)" after " in <function> "; 0 if the text names no site */
static int sanitizer_title(const char *d, char *out, size_t cap)
{
    const char *in = strstr(d, " in ");
    const char *open = in ? strstr(in, " (") : NULL;
    const char *close = open ? strchr(open, ')') : NULL;
    const char *nl = strchr(d, '\n');
    if (!close || (nl && nl < close))
        return 0;
    snprintf(out, cap, "%.*s", (int)(close + 1 - d), d);
    return 1;
}

/* a hash collision's title names both inputs and the digest: the whole
 * detail but its trailing " (N of M cases)"; a sanitizer report keeps its
 * first line and site (the record's first_report when the detail has none) */
static void finding_title(const char *d, const cJSON *rec, char *out, size_t cap)
{
    static const char collision[] = "CryptHash collision: ";
    if (strncmp(d, collision, sizeof collision - 1) == 0) {
        const char *end = NULL;
        for (const char *p = strstr(d, " ("); p; p = strstr(p + 1, " ("))
            end = p;
        int n = end && strstr(end, " cases)") ? (int)(end - d) : (int)strlen(d);
        snprintf(out, cap, "%.*s", n, d);
        return;
    }
    if (is_sanitizer_text(d)) {
        const char *fr = rec ? rj_str(rec, "first_report") : NULL;
        if (sanitizer_title(d, out, cap) || (fr && sanitizer_title(fr, out, cap)))
            return;
        snprintf(out, cap, "%s", fr && strlen(fr) > strlen(d) ? fr : d);
        char *nl = strchr(out, '\n');
        if (nl)
            *nl = 0;
        return;
    }
    first_clause(d, out, cap);
}

/* the grouping key: numbers blanked ("2712 of 2712", "record 3"), except
 * those of a file:line and inside names (WOTS_128, sha3) */
static void normalise(const char *title, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = title; *p && o + 2 < cap;) {
        int in_name = p > title && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == ':');
        if (isdigit((unsigned char)*p) && !in_name) {
            out[o++] = '#';
            int hex = p[0] == '0' && p[1] == 'x'; /* an address */
            p += hex ? 2 : 0;
            while (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p) || *p == '.')
                p++;
        } else {
            int digits = isdigit((unsigned char)*p);
            out[o++] = *p++;
            while (digits && isdigit((unsigned char)*p) && o + 2 < cap)
                out[o++] = *p++;
        }
    }
    out[o] = 0;
}

static void add(finding_set *s, const char *source, const char *check, const char *verdict, const char *title,
                const char *inst)
{
    char key[600], file[32];
    normalise(title, key, sizeof key);
    snprintf(file, sizeof file, "%s.json", source);
    for (size_t i = 0; i < s->n; i++) {
        finding *f = &s->f[i];
        if (strcmp(f->check, check) || strcmp(f->verdict, verdict) || strcmp(f->key, key))
            continue;
        if (!strstr(f->files, file))
            rs_list_add(f->files, sizeof f->files, file);
        char wrapped[2100], probe[300]; /* (an instance is listed once) */
        snprintf(wrapped, sizeof wrapped, ", %s,", f->insts);
        snprintf(probe, sizeof probe, ", %s,", inst);
        if (!strstr(wrapped, probe))
            rs_list_add(f->insts, sizeof f->insts, inst);
        f->titles_differ |= strcmp(f->title, title) != 0;
        return;
    }
    if (s->n == MAX_FINDINGS)
        return;
    finding *f = &s->f[s->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->files, sizeof f->files, "%s", file);
    snprintf(f->check, sizeof f->check, "%s", check);
    snprintf(f->verdict, sizeof f->verdict, "%s", verdict);
    snprintf(f->title, sizeof f->title, "%s", title);
    snprintf(f->key, sizeof f->key, "%s", key);
    snprintf(f->first_inst, sizeof f->first_inst, "%s", inst);
    rs_list_add(f->insts, sizeof f->insts, inst);
}

/* failed checks and FINDINGs of a security or sanitizer record; with
 * skip_reports, not the checks whose detail is a sanitizer report (the
 * record's list of reports has each, with its first line and site) */
static void from_checks(finding_set *s, const rp_record *r, const char *kind, const char *inst, int skip_reports)
{
    const cJSON *checks = r && r->json ? rj_get(r->json, "checks") : NULL, *c;
    cJSON_ArrayForEach(c, checks)
    {
        const char *v = rj_str(c, "verdict"), *name = rj_str(c, "name"), *d = rj_str(c, "detail");
        if (!v || !name || !strcmp(v, "PASS") || !strcmp(v, "NOTRUN"))
            continue;
        if (skip_reports && d && is_sanitizer_text(d))
            continue;
        const char *fa = !strcmp(v, "FAIL") ? rj_str(c, "fails_as") : NULL;
        char title[600];
        finding_title(d ? d : "no detail recorded", r->json, title, sizeof title);
        add(s, kind, name, fa ? fa : v, title, inst);
    }
}

/* a sanitizer record's list of every distinct report ("reports": objects
 * with first_line, site, class, check; strings tolerated); the number of
 * reports taken, -1 if the record has no list */
static int from_report_list(finding_set *s, const rp_record *r, const char *inst)
{
    const cJSON *arr = r && r->json ? rj_get(r->json, "reports") : NULL, *e;
    if (!cJSON_IsArray(arr))
        return -1;
    const char *v = rs_rec_verdict(r);
    int n = 0;
    cJSON_ArrayForEach(e, arr)
    {
        const char *text = cJSON_IsString(e) ? e->valuestring : NULL;
        static const char *const texts[] = {"first_line", "summary", "title"};
        for (size_t k = 0; !text && cJSON_IsObject(e) && k < sizeof texts / sizeof texts[0]; k++)
            text = rj_str(e, texts[k]);
        const char *cls = cJSON_IsObject(e) ? rj_str(e, "class") : NULL;
        if (!text || (cls && !strcmp(cls, "NOTE"))) /* (NOTE: the ICCS template's UB, not the candidate's) */
            continue;
        const char *site = cJSON_IsObject(e) ? rj_str(e, "site") : NULL;
        const char *check = cJSON_IsObject(e) ? rj_str(e, "check") : NULL;
        char title[600];
        int len = (int)strcspn(text, "\n");
        const char *ub = strstr(text, ": runtime error: "); /* "<file:line>: runtime error: <what>" */
        if (!strncmp(text, "ERROR: ", 7)) {                 /* ASan's "ERROR: AddressSanitizer: ..." */
            text += 7;
            len -= 7;
        }
        if (ub && site && ub - text < len)
            snprintf(title, sizeof title, "UBSan: %.*s in %.200s", (int)(len - (ub + 17 - text)), ub + 17, site);
        else if (site && !strstr(text, site))
            snprintf(title, sizeof title, "%.*s, at %.200s", len < 380 ? len : 380, text, site);
        else
            snprintf(title, sizeof title, "%.*s", len < 590 ? len : 590, text);
        add(s, "sanitizer", check ? check : "sanitizer report", cls ? cls : v ? v : "FAIL", title, inst);
        n++;
    }
    return n;
}

/* a memcheck or ct record that found something in the candidate's code
 * (PASS, SKIP, TIMEOUT and ERROR, a harness problem, are no finding) */
static void from_record(finding_set *s, const rp_record *r, const char *kind, const char *inst)
{
    const char *v = rs_rec_verdict(r);
    if (!v || !strcmp(v, "PASS") || !strcmp(v, "SKIP") || !strcmp(v, "TIMEOUT") || !strcmp(v, "ERROR") ||
        !strcmp(v, "NOTRUN"))
        return;
    const char *d = rj_str(r->json, "detail");
    char title[600];
    if (!strcmp(kind, "memcheck")) {
        const char *fe = rj_str(r->json, "valgrind.first_error");
        snprintf(title, sizeof title, "%s", fe ? fe : d ? d : "no detail recorded");
    } else {
        /* "N secret-dependent site(s), M occurrence(s) in candidate code: <first sites>; ..." */
        static const char marker[] = " in candidate code: ";
        const char *p = d ? strstr(d, marker) : NULL;
        if (p) {
            p += sizeof marker - 1;
            size_t n = strcspn(p, ";");
            snprintf(title, sizeof title, "secret-dependent %.*s", (int)n, p);
        } else
            first_clause(d ? d : "no detail recorded", title, sizeof title);
    }
    add(s, kind, kind, v, title, inst);
}

/* the exported helpers a build record found drawing randomness elsewhere
 * than the DRNG (build-plain.json "exported_helper_findings") */
static void from_build(finding_set *s, const rp_record *r, const char *inst)
{
    const cJSON *arr = r && r->json ? rj_get(r->json, "exported_helper_findings") : NULL, *e;
    cJSON_ArrayForEach(e, arr)
    {
        const char *d = rj_str(e, "detail");
        if (d)
            add(s, "build-plain", "exported_helper_findings", "FINDING", d, inst);
    }
}

/* the record(s) and the check; a whole-record finding (memcheck, ct) its
 * verdict, a build record's its field */
static void evidence(rd_table *t, const rs_ctx *x, const finding *f)
{
    int whole = !strcmp(f->check, "memcheck") || !strcmp(f->check, "ct");
    int field = !strcmp(f->check, "exported_helper_findings");
    const char *what = whole ? "" : field ? "field " : "check ", *name = whole ? "verdict" : f->check;
    if (!strchr(f->insts, ',') && !strchr(f->files, ','))
        rd_cell_text(t, "%s/%s/%s, %s%s", x->cand->id, f->first_inst, f->files, what, name);
    else
        rd_cell_text(t, "%s of %s, %s%s", f->files, strchr(f->insts, ',') ? "each instance" : f->first_inst, what,
                     name);
}

void rs_findings_list(rs_ctx *x)
{
    static finding_set s;
    static finding all[MAX_FINDINGS];
    s.f = all;
    s.n = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        const rp_record *san = rp_find(in, "sanitizer", NULL);
        from_checks(&s, rp_find(in, "security", NULL), "security", in->key, 0);
        int listed = from_report_list(&s, san, in->key);
        from_checks(&s, san, "sanitizer", in->key, listed >= 0);
        const rp_record *mc = rp_find(in, "memcheck", NULL), *ct = rp_find(in, "ct", NULL);
        if (mc && mc->json)
            from_record(&s, mc, "memcheck", in->key);
        if (ct && ct->json)
            from_record(&s, ct, "ct", in->key);
        from_build(&s, rp_find(in, "build", "plain"), in->key);
    }
    if (!s.n)
        return;
    rd_heading(x->doc, 3, "Security findings");
    rd_table *t = rd_table_new(x->doc, "llllll", "ID", "Kind", "Instances", "Verdict", "Title", "Evidence");
    for (size_t i = 0; i < s.n; i++) {
        const finding *f = &s.f[i];
        rd_cell_text(t, "F-%s-%zu", x->cand->id, i + 1);
        rd_cell_text(t, "%s", strcmp(f->check, "exported_helper_findings") ? "runtime" : "static");
        rd_cell_text(t, "%s", f->insts);
        rd_cell_text(t, "%s", f->verdict);
        int note = f->titles_differ ? rd_note(x->doc,
                                              "The instances' texts differ in their numbers (counts, record "
                                              "numbers); the title is %s's.",
                                              f->first_inst)
                                    : 0;
        rd_cell_note(t, note, "%s", f->title);
        evidence(t, x, f);
    }
    rd_para(x->doc, "Runtime findings: found by running the instance; static ones: read from the candidate's "
                    "objects at build time. One row per distinct finding with the "
                    "instances it affects (the title is the first clause of the check's detail, a sanitizer "
                    "report's first line and site, valgrind's first error, or the first secret-dependent sites; "
                    "the evidence is the record and its check).");
}
