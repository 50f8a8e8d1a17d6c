#define _GNU_SOURCE
#include "report_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rb_addn(rb_buf *b, const char *text, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            fprintf(stderr, "ngcc-report: out of memory\n");
            exit(2);
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = 0;
}

void rb_add(rb_buf *b, const char *text)
{
    rb_addn(b, text, strlen(text));
}

void rb_printf(rb_buf *b, const char *fmt, ...)
{
    char *s;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fprintf(stderr, "ngcc-report: out of memory\n");
        exit(2);
    }
    rb_addn(b, s, (size_t)n);
    free(s);
}

char *rb_take(rb_buf *b)
{
    char *s = b->s ? b->s : strdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void rb_add_markup_text(rb_buf *b, const char *text)
{
    for (const char *s = text; *s; s++) {
        switch (*s) {
        case '&':
            rb_add(b, "&amp;");
            break;
        case '<':
            rb_add(b, "&lt;");
            break;
        case '>':
            rb_add(b, "&gt;");
            break;
        case '"':
            rb_add(b, "&quot;");
            break;
        case '\'':
            rb_add(b, "&#39;");
            break;
        default:
            rb_addn(b, s, 1);
        }
    }
}
