/* ngcc-report: a page as a list of blocks (headings, paragraphs, tables,
 * charts) plus numbered notes, built once and emitted twice (Markdown and
 * HTML), so both versions always say the same thing. */
#ifndef REPORT_DOC_H
#define REPORT_DOC_H
#include <stddef.h>

#define RD_MAX_NOTES 3

typedef struct {
    char *text;              /* plain text; the emitters escape it */
    char *href;              /* link target without extension ("x86/fx-wots"), or NULL */
    int notes[RD_MAX_NOTES]; /* note numbers, 0 = none, -1 = pending (see rd_row_gaps) */
} rd_cell;

typedef struct {
    int ncols;
    char *align; /* one of 'l' 'r' 'c' per column */
    rd_cell *head;
    rd_cell *cells; /* row-major */
    size_t nrows;
    int cur; /* cells filled in the current row */
} rd_table;

typedef enum { RD_HEADING, RD_PARA, RD_TABLE, RD_SVG, RD_LINKS } rd_kind;

typedef struct {
    rd_kind kind;
    int level;  /* heading level */
    char *text; /* heading/paragraph text, or inline SVG */
    rd_table *table;
    rd_cell *links; /* RD_LINKS: a line of links */
    size_t nlinks;
} rd_block;

typedef struct {
    char *title;
    char *root; /* relative path back to the output folder ("" or "../") */
    rd_block *blocks;
    size_t n;
    char **notes; /* notes[i] is note number i + 1 */
    size_t nnotes;
} rd_doc;

rd_doc *rd_new(const char *title, const char *root);
void rd_free(rd_doc *d);
/* a note (deduplicated by text); returns its number */
int rd_note(rd_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rd_heading(rd_doc *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rd_para(rd_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rd_svg(rd_doc *d, char *svg);                           /* takes ownership; HTML only */
void rd_link(rd_doc *d, const char *href, const char *text); /* appends to a links line */
/* a table; align is e.g. "llrr"; then the header cells as ncols strings */
rd_table *rd_table_new(rd_doc *d, const char *align, ...);
/* the same with the header cells from an array */
rd_table *rd_table_newv(rd_doc *d, const char *align, const char *const *heads);
/* cells fill the current row left to right; a full row starts the next */
void rd_cell_text(rd_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rd_cell_note(rd_table *t, int note, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rd_cell_link(rd_table *t, const char *href, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* the gap mark "—" with a pending note (-1), resolved by rd_row_gaps */
void rd_cell_gap(rd_table *t);
/* resolves the pending notes of the last row to one note with this text
 * (nothing if the row has no pending gap) */
void rd_row_gaps(rd_doc *d, rd_table *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* attaches a note to the last cell added */
void rd_last_note(rd_table *t, int note);
/* attaches a note to a cell (ignored when 0, already there or no room) */
void rd_add_note(rd_cell *c, int note);
/* the cell at (row, col) */
rd_cell *rd_at(rd_table *t, size_t row, int col);

#endif
