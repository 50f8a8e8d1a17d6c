#define _GNU_SOURCE
#include "report_doc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_fmt.h"

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "ngcc-report: out of memory\n");
        exit(2);
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "ngcc-report: out of memory\n");
        exit(2);
    }
    return p;
}

static char *vfmt(const char *fmt, va_list ap)
{
    char *s;
    if (vasprintf(&s, fmt, ap) < 0) {
        fprintf(stderr, "ngcc-report: out of memory\n");
        exit(2);
    }
    return s;
}

rd_doc *rd_new(const char *title, const char *root)
{
    rd_doc *d = xcalloc(1, sizeof *d);
    d->title = strdup(title);
    d->root = strdup(root);
    return d;
}

static void free_cell(rd_cell *c)
{
    free(c->text);
    free(c->href);
}

void rd_free(rd_doc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        rd_block *b = &d->blocks[i];
        free(b->text);
        if (b->table) {
            for (int c = 0; c < b->table->ncols; c++)
                free_cell(&b->table->head[c]);
            for (size_t c = 0; c < b->table->nrows * (size_t)b->table->ncols; c++)
                free_cell(&b->table->cells[c]);
            free(b->table->head);
            free(b->table->cells);
            free(b->table->align);
            free(b->table);
        }
        for (size_t k = 0; k < b->nlinks; k++)
            free_cell(&b->links[k]);
        free(b->links);
    }
    for (size_t i = 0; i < d->nnotes; i++)
        free(d->notes[i]);
    free(d->notes);
    free(d->blocks);
    free(d->title);
    free(d->root);
    free(d);
}

static rd_block *add_block(rd_doc *d, rd_kind kind)
{
    d->blocks = xrealloc(d->blocks, (d->n + 1) * sizeof *d->blocks);
    rd_block *b = &d->blocks[d->n++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    return b;
}

static int add_note(rd_doc *d, char *text)
{
    for (size_t i = 0; i < d->nnotes; i++)
        if (strcmp(d->notes[i], text) == 0) {
            free(text);
            return (int)i + 1;
        }
    d->notes = xrealloc(d->notes, (d->nnotes + 1) * sizeof *d->notes);
    d->notes[d->nnotes++] = text;
    return (int)d->nnotes;
}

int rd_note(rd_doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *t = vfmt(fmt, ap);
    va_end(ap);
    return add_note(d, t);
}

void rd_heading(rd_doc *d, int level, const char *fmt, ...)
{
    rd_block *b = add_block(d, RD_HEADING);
    b->level = level;
    va_list ap;
    va_start(ap, fmt);
    b->text = vfmt(fmt, ap);
    va_end(ap);
}

void rd_para(rd_doc *d, const char *fmt, ...)
{
    rd_block *b = add_block(d, RD_PARA);
    va_list ap;
    va_start(ap, fmt);
    b->text = vfmt(fmt, ap);
    va_end(ap);
}

void rd_svg(rd_doc *d, char *svg)
{
    rd_block *b = add_block(d, RD_SVG);
    b->text = svg;
}

void rd_link(rd_doc *d, const char *href, const char *text)
{
    rd_block *b = d->n && d->blocks[d->n - 1].kind == RD_LINKS ? &d->blocks[d->n - 1] : add_block(d, RD_LINKS);
    b->links = xrealloc(b->links, (b->nlinks + 1) * sizeof *b->links);
    b->links[b->nlinks++] = (rd_cell){strdup(text), strdup(href), {0}};
}

rd_table *rd_table_new(rd_doc *d, const char *align, ...)
{
    rd_block *b = add_block(d, RD_TABLE);
    rd_table *t = xcalloc(1, sizeof *t);
    t->ncols = (int)strlen(align);
    t->align = strdup(align);
    t->head = xcalloc((size_t)t->ncols, sizeof *t->head);
    va_list ap;
    va_start(ap, align);
    for (int i = 0; i < t->ncols; i++)
        t->head[i].text = strdup(va_arg(ap, const char *));
    va_end(ap);
    b->table = t;
    return t;
}

rd_table *rd_table_newv(rd_doc *d, const char *align, const char *const *heads)
{
    rd_block *b = add_block(d, RD_TABLE);
    rd_table *t = xcalloc(1, sizeof *t);
    t->ncols = (int)strlen(align);
    t->align = strdup(align);
    t->head = xcalloc((size_t)t->ncols, sizeof *t->head);
    for (int i = 0; i < t->ncols; i++)
        t->head[i].text = strdup(heads[i]);
    b->table = t;
    return t;
}

static rd_cell *next_cell(rd_table *t)
{
    if (t->nrows == 0 || t->cur == t->ncols) {
        t->cells = xrealloc(t->cells, (t->nrows + 1) * (size_t)t->ncols * sizeof *t->cells);
        memset(&t->cells[t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof *t->cells);
        t->nrows++;
        t->cur = 0;
    }
    return &t->cells[(t->nrows - 1) * (size_t)t->ncols + (size_t)t->cur++];
}

void rd_cell_text(rd_table *t, const char *fmt, ...)
{
    rd_cell *c = next_cell(t);
    va_list ap;
    va_start(ap, fmt);
    c->text = vfmt(fmt, ap);
    va_end(ap);
}

void rd_cell_note(rd_table *t, int note, const char *fmt, ...)
{
    rd_cell *c = next_cell(t);
    va_list ap;
    va_start(ap, fmt);
    c->text = vfmt(fmt, ap);
    va_end(ap);
    rd_add_note(c, note);
}

void rd_cell_link(rd_table *t, const char *href, const char *fmt, ...)
{
    rd_cell *c = next_cell(t);
    va_list ap;
    va_start(ap, fmt);
    c->text = vfmt(fmt, ap);
    va_end(ap);
    c->href = strdup(href);
}

void rd_cell_gap(rd_table *t)
{
    rd_cell *c = next_cell(t);
    c->text = strdup(NGCC_FMT_GAP);
    c->notes[0] = -1;
}

void rd_row_gaps(rd_doc *d, rd_table *t, const char *fmt, ...)
{
    if (!t->nrows)
        return;
    rd_cell *row = &t->cells[(t->nrows - 1) * (size_t)t->ncols];
    int pending = 0;
    for (int i = 0; i < t->ncols; i++)
        pending |= row[i].notes[0] == -1;
    if (!pending)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = add_note(d, vfmt(fmt, ap));
    va_end(ap);
    for (int i = 0; i < t->ncols; i++)
        if (row[i].notes[0] == -1)
            row[i].notes[0] = n;
}

void rd_add_note(rd_cell *c, int note)
{
    for (int i = 0; note > 0 && i < RD_MAX_NOTES; i++) {
        if (c->notes[i] == note)
            return;
        if (c->notes[i] == 0) {
            c->notes[i] = note;
            return;
        }
    }
}

void rd_last_note(rd_table *t, int note)
{
    if (t->nrows && t->cur > 0)
        rd_add_note(&t->cells[(t->nrows - 1) * (size_t)t->ncols + (size_t)t->cur - 1], note);
}

rd_cell *rd_at(rd_table *t, size_t row, int col)
{
    return &t->cells[row * (size_t)t->ncols + (size_t)col];
}
