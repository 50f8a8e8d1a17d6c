/* ngcc-report: a growable text buffer for the emitters. */
#ifndef REPORT_BUF_H
#define REPORT_BUF_H
#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
} rb_buf;

void rb_add(rb_buf *b, const char *text);
void rb_addn(rb_buf *b, const char *text, size_t n);
void rb_printf(rb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* text escaped for HTML and SVG (XML) content and attribute values:
 * & < > " and ' become entities */
void rb_add_markup_text(rb_buf *b, const char *text);
/* returns the text (never NULL) and leaves the buffer empty; caller frees */
char *rb_take(rb_buf *b);

#endif
