/* HTML rendering of a report page: one self-contained file (inline CSS and
 * SVG, no script, no external resource), valid HTML5. */
#include <stdio.h>
#include <string.h>

#include "report_buf.h"
#include "report_emit.h"

static const char *css =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1b1f24;background:#fff}\n"
    "main{max-width:1200px;margin:0 auto;padding:1.5em 2em 3em}\n"
    "h1{font-size:1.6em;border-bottom:2px solid #1f4e79;padding-bottom:.3em}\n"
    "h2{font-size:1.25em;margin-top:1.8em;color:#1f4e79}\n"
    "h3{font-size:1.05em;margin-top:1.4em}\n"
    "table{border-collapse:collapse;margin:.6em 0;font-size:.9em}\n"
    "th,td{border:1px solid #c9d1d9;padding:.25em .55em;vertical-align:top}\n"
    "th{background:#eef3f8;text-align:left}\n"
    "td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td.c,th.c{text-align:center}\n"
    "td.nw{white-space:nowrap}\n"
    "td.ok{color:#166534}\n"
    "td.warn{color:#a16207;font-weight:600}\n"
    "td.bad{color:#b91c1c;font-weight:600}\n"
    "tbody tr:nth-child(even){background:#f8fafc}\n"
    /* line-height 0: a footnote mark must not push its cell's text (a gap's dash) down */
    "sup.fn{line-height:0;margin-left:.1em}\n"
    "sup.fn a{text-decoration:none;color:#9a3412;font-weight:600}\n"
    "ol.notes{font-size:.85em;color:#374151}\n"
    "ol.notes li{margin:.2em 0}\n"
    ".links{margin:.6em 0}\n"
    ".tw{overflow-x:auto;max-width:100%}\n"
    "figure{margin:1em 0}\n"
    "svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\n"
    "code{font-size:.9em}\n";

static void html_cell_body(rb_buf *b, const rd_cell *c)
{
    if (c->href) {
        rb_printf(b, "<a href=\"%s.html\">", c->href);
        rb_add_markup_text(b, c->text);
        rb_add(b, "</a>");
    } else {
        rb_add_markup_text(b, c->text ? c->text : "");
    }
    for (int i = 0; i < RD_MAX_NOTES && c->notes[i] > 0; i++)
        rb_printf(b, "%s<a href=\"#note-%d\">%d</a>", i ? "," : "<sup class=\"fn\">", c->notes[i], c->notes[i]);
    if (c->notes[0] > 0)
        rb_add(b, "</sup>");
}

/* colour of a verdict cell ("MISMATCH, timed anyway" counts as MISMATCH) */
static const char *verdict_class(const char *text)
{
    static const char *ok[] = {"PASS", "BUILDOK", "RECORDED"}, *warn[] = {"FINDING", "NOKAT", "SKIP", "NOBASELINE"},
                      *bad[] = {"MISMATCH", "REGRESSION", "MALLEABLE", "CRYPTOFAIL", "OVERFLOW", "UNDEFINED", "TIMEOUT",
                                "CRASH",    "MEMLIMIT",   "LOADFAIL",  "BUILDFAIL",  "ERROR",    "FAIL",      "LEAK"};
    size_t n = text ? strcspn(text, ",") : 0;
    for (size_t i = 0; n && i < sizeof ok / sizeof *ok; i++)
        if (strlen(ok[i]) == n && !strncmp(text, ok[i], n))
            return "ok";
    for (size_t i = 0; n && i < sizeof warn / sizeof *warn; i++)
        if (strlen(warn[i]) == n && !strncmp(text, warn[i], n))
            return "warn";
    for (size_t i = 0; n && i < sizeof bad / sizeof *bad; i++)
        if (strlen(bad[i]) == n && !strncmp(text, bad[i], n))
            return "bad";
    return "";
}

/* short cells (names, numbers, verdicts) never wrap: "WOTS-128" stays whole */
static void open_cell(rb_buf *b, const char *tag, char align, const char *text)
{
    const char *a = align == 'r' ? "r" : align == 'c' ? "c" : "", *v = verdict_class(text);
    const char *nw = text && strlen(text) <= 28 ? "nw" : "";
    char cls[32];
    snprintf(cls, sizeof cls, "%s%s%s%s%s", a, a[0] && v[0] ? " " : "", v, (a[0] || v[0]) && nw[0] ? " " : "", nw);
    if (!cls[0])
        rb_printf(b, "<%s>", tag);
    else
        rb_printf(b, "<%s class=\"%s\">", tag, cls);
}

static void html_table(rb_buf *b, const rd_table *t)
{
    rb_add(b, "<div class=\"tw\"><table>\n<thead><tr>");
    for (int i = 0; i < t->ncols; i++) {
        open_cell(b, "th", t->align[i], NULL);
        html_cell_body(b, &t->head[i]);
        rb_add(b, "</th>");
    }
    rb_add(b, "</tr></thead>\n<tbody>\n");
    for (size_t r = 0; r < t->nrows; r++) {
        rb_add(b, "<tr>");
        for (int i = 0; i < t->ncols; i++) {
            const rd_cell *c = &t->cells[r * (size_t)t->ncols + (size_t)i];
            open_cell(b, "td", t->align[i], c->text);
            html_cell_body(b, c);
            rb_add(b, "</td>");
        }
        rb_add(b, "</tr>\n");
    }
    rb_add(b, "</tbody>\n</table></div>\n");
}

static void html_block(rb_buf *b, const rd_block *k)
{
    switch (k->kind) {
    case RD_HEADING:
        rb_printf(b, "<h%d>", k->level);
        rb_add_markup_text(b, k->text);
        rb_printf(b, "</h%d>\n", k->level);
        break;
    case RD_PARA:
        rb_add(b, "<p>");
        rb_add_markup_text(b, k->text);
        rb_add(b, "</p>\n");
        break;
    case RD_TABLE:
        html_table(b, k->table);
        break;
    case RD_LINKS:
        rb_add(b, "<p class=\"links\">");
        for (size_t l = 0; l < k->nlinks; l++) {
            if (l)
                rb_add(b, " \xC2\xB7 ");
            html_cell_body(b, &k->links[l]);
        }
        rb_add(b, "</p>\n");
        break;
    case RD_SVG:
        rb_add(b, "<figure>\n");
        rb_add(b, k->text);
        rb_add(b, "</figure>\n");
        break;
    }
}

char *re_html(const rd_doc *d)
{
    rb_buf b = {0};
    rb_add(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    rb_add_markup_text(&b, d->title);
    rb_printf(&b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>", css);
    rb_add_markup_text(&b, d->title);
    rb_add(&b, "</h1>\n");
    for (size_t i = 0; i < d->n; i++)
        html_block(&b, &d->blocks[i]);
    if (d->nnotes) {
        rb_add(&b, "<h2>Notes</h2>\n<ol class=\"notes\">\n");
        for (size_t i = 0; i < d->nnotes; i++) {
            rb_printf(&b, "<li id=\"note-%zu\">", i + 1);
            rb_add_markup_text(&b, d->notes[i]);
            rb_add(&b, "</li>\n");
        }
        rb_add(&b, "</ol>\n");
    }
    rb_add(&b, "</main>\n</body>\n</html>\n");
    return rb_take(&b);
}
