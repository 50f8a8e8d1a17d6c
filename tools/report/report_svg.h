/* ngcc-report: inline SVG charts for the HTML pages (deterministic text:
 * coordinates printed with one decimal, no random ids). */
#ifndef REPORT_SVG_H
#define REPORT_SVG_H
#include <stddef.h>

typedef struct {
    const char *label;  /* row label, e.g. "WOTS-128 sign" */
    const char *series; /* colour group, e.g. the operation */
    double value;       /* > 0, else the row shows no bar */
} rs_bar;

/* horizontal bars on a log10 scale with decade grid lines */
char *rs_log_bars(const char *title, const char *unit, const rs_bar *bars, size_t n);

typedef struct {
    const char *label;
    double hash, drng; /* fractions of operation time; NaN = unknown */
} rs_share;

/* one 0-100% bar per row: hash share, then DRNG share, stacked */
char *rs_share_bars(const char *title, const rs_share *rows, size_t n);

typedef struct {
    double x, y; /* both > 0 (log scales); a point with y <= 0 or NaN is left out */
} rs_point;

typedef struct {
    const char *label; /* legend, e.g. the instance */
    const rs_point *pts;
    size_t n; /* in ascending x */
} rs_series;

/* lines over a log2 x axis (a tick at every x of the data, labelled in
 * bytes: "16 B", "1 KiB", "1 MiB") and a log10 y axis with decade grid
 * lines; a marker per point with its value as a tooltip */
char *rs_log_lines(const char *title, const char *x_unit, const char *y_unit, const rs_series *s, size_t ns);

#endif
