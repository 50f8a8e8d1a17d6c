/* ngcc-report: the two renderings of a page. Both return a malloc'd text. */
#ifndef REPORT_EMIT_H
#define REPORT_EMIT_H
#include "report_doc.h"

/* GitHub-flavoured Markdown; charts are left out (they are in the HTML) */
char *re_markdown(const rd_doc *d);
/* one self-contained HTML file: inline CSS and SVG, no script, no external resource */
char *re_html(const rd_doc *d);

#endif
