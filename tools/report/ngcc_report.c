/* ngcc-report: turns the JSON records of a campaign into the published
 * pages (Markdown and self-contained HTML): one page per candidate and
 * system, an index, and a comparison page when several systems are given.
 * The same records always give the same bytes: no clock is read here.
 * Several --records folders of one machine class (the shards of a campaign,
 * NGCC_SHARD=K/N) are joined into one system: the pages are those of one
 * folder holding all their records. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_util.h"
#include "report_emit.h"
#include "report_pages.h"

static void usage(FILE *to)
{
    fprintf(to, "usage: ngcc-report --records <build>/records [--records <other records folder> ...]\n"
                "                   --out <folder> [--reference <system id>] [--strict]\n"
                "  writes <out>/index.{md,html}, <out>/<system>/<candidate>.{md,html} and, with several\n"
                "  systems, <out>/compare.{md,html}; --strict exits 1 when a record is missing or malformed\n"
                "  folders of one machine class (equal system_id: shards of a campaign) are joined into one\n"
                "  system; a record in two of them with different content is a conflict, shown as a gap\n");
}

/* writes <out>/<name>.md and .html; 0 or -1 (message on stderr) */
static int write_page(const char *out, const char *name, rd_doc *d, int *pages)
{
    char *md = re_markdown(d), *html = re_html(d);
    int rc = 0;
    const char *ext[2] = {"md", "html"};
    char *text[2] = {md, html};
    for (int i = 0; i < 2 && rc == 0; i++) {
        char *path;
        if (asprintf(&path, "%s/%s.%s", out, name, ext[i]) < 0)
            return -1;
        if (ngcc_mkdirs(path, 0) != 0 || ngcc_write_atomic(path, text[i], strlen(text[i])) != 0) {
            fprintf(stderr, "ngcc-report: cannot write %s; check that the folder is writable\n", path);
            rc = -1;
        }
        free(path);
    }
    free(md);
    free(html);
    rd_free(d);
    *pages += rc == 0;
    return rc;
}

/* every candidate page; a page that cannot be written does not stop the others */
static int write_candidates(const char *out, const rp_campaign *c, int *pages)
{
    int rc = 0;
    for (size_t i = 0; i < c->nsys; i++) {
        char *ss = rpg_slug(c->sys[i].id);
        for (size_t k = 0; k < c->sys[i].ncand; k++) {
            char *cs = rpg_slug(c->sys[i].cand[k].id), name[600];
            snprintf(name, sizeof name, "%s/%s", ss, cs);
            free(cs);
            if (write_page(out, name, rpg_candidate(&c->sys[i], &c->sys[i].cand[k]), pages) != 0)
                rc = -1;
        }
        free(ss);
    }
    return rc;
}

/* one line per system joined from several folders (shards); a missing or
 * repeated shard K of N is named on stderr (the pages show what there is) */
static void report_join(const rp_system *s)
{
    if (s->nroots < 2 && s->nshards < 2)
        return;
    printf("ngcc-report: system %s joined from %zu records folders (shards:", s->id, s->nroots);
    for (size_t i = 0; i < s->nshards; i++)
        printf(" %s", s->shards[i]);
    printf("%s)\n", s->nshards ? "" : " none recorded");
    int n = 0;
    for (size_t i = 0; i < s->nshards; i++) {
        int k, m;
        if (sscanf(s->shards[i], "%d/%d", &k, &m) == 2 && (n == 0 || m > n))
            n = m;
    }
    for (int k = 1; k <= n && n < 10000; k++) {
        char want[32];
        snprintf(want, sizeof want, "%d/%d", k, n);
        int seen = 0;
        for (size_t i = 0; i < s->nshards; i++)
            seen += strcmp(s->shards[i], want) == 0;
        if (seen == 0)
            fprintf(stderr, "ngcc-report: system %s: shard %s is missing; pass its records with another --records\n",
                    s->id, want);
        else if (seen > 1)
            fprintf(stderr, "ngcc-report: system %s: shard %s given %d times; pass each shard's records once\n", s->id,
                    want, seen);
    }
}

static const rp_system *reference(const rp_campaign *c, const char *id)
{
    for (size_t i = 0; id && i < c->nsys; i++)
        if (strcmp(c->sys[i].id, id) == 0)
            return &c->sys[i];
    if (id)
        fprintf(stderr, "ngcc-report: --reference %s: no such system; using %s\n", id, c->sys[0].id);
    return &c->sys[0];
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"records", 1, 0, 'r'}, {"out", 1, 0, 'o'},  {"reference", 1, 0, 'R'},
                                       {"strict", 0, 0, 's'},  {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    rp_campaign c = {0};
    const char *out = NULL, *ref = NULL;
    int strict = 0, c_opt, nroots = 0, bad_roots = 0;
    while ((c_opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c_opt) {
        case 'r':
            nroots++;
            bad_roots += rp_load(&c, optarg) != 0;
            break;
        case 'o':
            out = optarg;
            break;
        case 'R':
            ref = optarg;
            break;
        case 's':
            strict = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default: /* getopt named the option */
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "ngcc-report: '%s': unexpected argument (every input is an option)\n", argv[optind]);
        return 2;
    }
    if (!out || !nroots) {
        fprintf(stderr, "ngcc-report: %s is required\n", !nroots ? "--records <build>/records" : "--out <folder>");
        usage(stderr);
        return 2;
    }
    if (c.nsys == 0) {
        fprintf(stderr, "ngcc-report: no readable records folder; nothing written\n");
        return 2;
    }
    rp_finish(&c);
    for (size_t i = 0; i < c.nsys; i++)
        report_join(&c.sys[i]);
    int pages = 0;
    int rc = write_candidates(out, &c, &pages);
    rc |= write_page(out, "index", rpg_index(&c, c.nsys > 1), &pages);
    if (c.nsys > 1)
        rc |= write_page(out, "compare", rpg_compare(&c, reference(&c, ref)), &pages);
    if (rc == 0)
        printf("ngcc-report: %d pages (Markdown + HTML) from %zu system%s in %s; open %s/index.html%s\n", pages, c.nsys,
               c.nsys == 1 ? "" : "s", out, out,
               c.conflicts ? " (some records conflict between shards: see stderr and the notes on the pages)"
               : c.gaps    ? " (some records are missing or malformed: see the notes on the pages)"
                           : "");
    int gaps = c.gaps + bad_roots;
    rp_free(&c);
    if (rc != 0)
        return 2;
    return strict && gaps ? 1 : 0;
}
