/* Markdown rendering of a report page (GitHub-flavoured: pipe tables, [^n] notes). */
#include <string.h>

#include "report_buf.h"
#include "report_emit.h"

/* escapes the characters that Markdown (or a table) would interpret */
static void md_text(rb_buf *b, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\|*_`<>[]~#", *s))
            rb_addn(b, "\\", 1);
        if (*s == '\n' || *s == '\r')
            rb_add(b, " ");
        else
            rb_addn(b, s, 1);
    }
}

static void md_cell(rb_buf *b, const rd_cell *c)
{
    if (c->href) {
        rb_add(b, "[");
        md_text(b, c->text);
        rb_printf(b, "](%s.md)", c->href);
    } else {
        md_text(b, c->text ? c->text : "");
    }
    for (int i = 0; i < RD_MAX_NOTES; i++)
        if (c->notes[i] > 0)
            rb_printf(b, "[^%d]", c->notes[i]);
}

static void md_table(rb_buf *b, const rd_table *t)
{
    rb_add(b, "|");
    for (int i = 0; i < t->ncols; i++) {
        rb_add(b, " ");
        md_cell(b, &t->head[i]);
        rb_add(b, " |");
    }
    rb_add(b, "\n|");
    for (int i = 0; i < t->ncols; i++)
        rb_add(b, t->align[i] == 'r' ? "---:|" : t->align[i] == 'c' ? ":---:|" : "---|");
    rb_add(b, "\n");
    for (size_t r = 0; r < t->nrows; r++) {
        rb_add(b, "|");
        for (int i = 0; i < t->ncols; i++) {
            rb_add(b, " ");
            md_cell(b, &t->cells[r * (size_t)t->ncols + (size_t)i]);
            rb_add(b, " |");
        }
        rb_add(b, "\n");
    }
}

char *re_markdown(const rd_doc *d)
{
    rb_buf b = {0};
    rb_add(&b, "# ");
    md_text(&b, d->title);
    rb_add(&b, "\n");
    for (size_t i = 0; i < d->n; i++) {
        const rd_block *k = &d->blocks[i];
        switch (k->kind) {
        case RD_HEADING:
            rb_add(&b, "\n");
            for (int l = 0; l < k->level; l++)
                rb_add(&b, "#");
            rb_add(&b, " ");
            md_text(&b, k->text);
            rb_add(&b, "\n");
            break;
        case RD_PARA:
            rb_add(&b, "\n");
            md_text(&b, k->text);
            rb_add(&b, "\n");
            break;
        case RD_TABLE:
            rb_add(&b, "\n");
            md_table(&b, k->table);
            break;
        case RD_LINKS:
            rb_add(&b, "\n");
            for (size_t l = 0; l < k->nlinks; l++) {
                if (l)
                    rb_add(&b, " \xC2\xB7 ");
                md_cell(&b, &k->links[l]);
            }
            rb_add(&b, "\n");
            break;
        case RD_SVG:
            break; /* charts only in the HTML version */
        }
    }
    if (d->nnotes) {
        rb_add(&b, "\n## Notes\n\n");
        for (size_t i = 0; i < d->nnotes; i++) {
            rb_printf(&b, "[^%zu]: ", i + 1);
            md_text(&b, d->notes[i]);
            rb_add(&b, "\n");
        }
    }
    return rb_take(&b);
}
