#include "report_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_buf.h"
#include "report_fmt.h"

enum { W = 900, LABEL_W = 250, VALUE_W = 90, ROW_H = 20, TOP = 46, AXIS_H = 28 };

static const char *series_colour(const char *s)
{
    static const char *names[] = {"keygen", "sign", "verify", "enc", "dec"};
    static const char *colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"};
    for (int i = 0; i < 5; i++)
        if (s && strcmp(s, names[i]) == 0)
            return colours[i];
    return "#7f7f7f";
}

static void open_svg(rb_buf *b, const char *title, int height)
{
    rb_printf(b,
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
              "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
              W, height, W, height);
    rb_add_markup_text(b, title);
    rb_add(b, "\">\n<title>");
    rb_add_markup_text(b, title);
    rb_printf(b, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, height);
    rb_add(b, "<text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"600\">");
    rb_add_markup_text(b, title);
    rb_add(b, "</text>\n");
}

static void legend_item(rb_buf *b, int *x, const char *colour, const char *name)
{
    rb_printf(b,
              "<rect x=\"%d\" y=\"24\" width=\"12\" height=\"12\" fill=\"%s\"/>"
              "<text x=\"%d\" y=\"34\" font-size=\"12\">",
              *x, colour, *x + 16);
    rb_add_markup_text(b, name);
    rb_add(b, "</text>\n");
    *x += 28 + 7 * (int)strlen(name);
}

/* "1", "10", "100", "1 k", "10 k", ... for 10^k */
static void decade_label(char *out, size_t n, int k)
{
    static const char *units[] = {"", " k", " M", " G", " T", " P"};
    static const int mant[] = {1, 10, 100};
    if (k < 0 || k >= 18) {
        snprintf(out, n, "1e%d", k);
        return;
    }
    snprintf(out, n, "%d%s", mant[k % 3], units[k / 3]);
}

static void bars_legend(rb_buf *b, const rs_bar *bars, size_t n)
{
    int x = LABEL_W;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(bars[j].series, bars[i].series) == 0;
        if (!seen)
            legend_item(b, &x, series_colour(bars[i].series), bars[i].series);
    }
}

static void bars_axis(rb_buf *b, int lo, int hi, int y0, int y1, const char *unit)
{
    double x0 = LABEL_W, x1 = W - VALUE_W;
    for (int k = lo; k <= hi; k++) {
        double x = x0 + (x1 - x0) * (k - lo) / (hi - lo);
        char lab[32];
        decade_label(lab, sizeof lab, k);
        rb_printf(b,
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d0d7de\"/>"
                  "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
                  x, y0, x, y1, x, y1 + 14, lab);
    }
    rb_printf(b, "<text x=\"%d\" y=\"34\" font-size=\"11\" text-anchor=\"end\">", W - 4);
    rb_add_markup_text(b, unit);
    rb_add(b, ", log scale</text>\n");
}

char *rs_log_bars(const char *title, const char *unit, const rs_bar *bars, size_t n)
{
    double mn = INFINITY, mx = 0;
    for (size_t i = 0; i < n; i++)
        if (bars[i].value > 0 && !isinf(bars[i].value)) {
            mn = fmin(mn, bars[i].value);
            mx = fmax(mx, bars[i].value);
        }
    /* one decade below the smallest value, so that every bar has a visible length */
    int lo = mx > 0 ? (int)floor(log10(mn)) - 1 : 0, hi = mx > 0 ? (int)ceil(log10(mx)) : 1;
    if (hi <= lo)
        hi = lo + 1;
    int height = TOP + (int)n * ROW_H + AXIS_H;
    rb_buf b = {0};
    open_svg(&b, title, height);
    bars_legend(&b, bars, n);
    int y1 = TOP + (int)n * ROW_H;
    bars_axis(&b, lo, hi, TOP - 4, y1, unit);
    double x0 = LABEL_W, x1 = W - VALUE_W;
    for (size_t i = 0; i < n; i++) {
        int y = TOP + (int)i * ROW_H;
        rb_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">", LABEL_W - 6, y + 14);
        rb_add_markup_text(&b, bars[i].label);
        rb_add(&b, "</text>\n");
        char val[NGCC_FMT_MAX];
        if (!(bars[i].value > 0) || isinf(bars[i].value)) {
            rb_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", LABEL_W + 4, y + 14, NGCC_FMT_GAP);
            continue;
        }
        double w = (x1 - x0) * (log10(bars[i].value) - lo) / (hi - lo);
        ngcc_fmt_count(val, bars[i].value);
        rb_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", LABEL_W, y + 3,
                  w < 1 ? 1.0 : w, ROW_H - 6, series_colour(bars[i].series));
        rb_add_markup_text(&b, bars[i].label);
        rb_printf(&b, ": %s</title></rect>\n<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>\n", val,
                  x0 + (w < 1 ? 1.0 : w) + 4, y + 14, val);
    }
    rb_add(&b, "</svg>\n");
    return rb_take(&b);
}

char *rs_share_bars(const char *title, const rs_share *rows, size_t n)
{
    int height = TOP + (int)n * ROW_H + AXIS_H;
    rb_buf b = {0};
    open_svg(&b, title, height);
    int x = LABEL_W;
    legend_item(&b, &x, "#c2410c", "hash (sm3hash, pseudohash, pseudoXOF)");
    legend_item(&b, &x, "#0f766e", "DRNG");
    legend_item(&b, &x, "#e5e7eb", "other");
    double x0 = LABEL_W, x1 = W - 2 * VALUE_W;
    int y1 = TOP + (int)n * ROW_H;
    for (int p = 0; p <= 100; p += 25) {
        double gx = x0 + (x1 - x0) * p / 100.0;
        rb_printf(&b,
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d0d7de\"/>"
                  "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d%%</text>\n",
                  gx, TOP - 4, gx, y1, gx, y1 + 14, p);
    }
    for (size_t i = 0; i < n; i++) {
        int y = TOP + (int)i * ROW_H;
        rb_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">", LABEL_W - 6, y + 14);
        rb_add_markup_text(&b, rows[i].label);
        rb_add(&b, "</text>\n");
        double h = isnan(rows[i].hash) ? 0 : fmin(fmax(rows[i].hash, 0), 1);
        double d = isnan(rows[i].drng) ? 0 : fmin(fmax(rows[i].drng, 0), 1 - h);
        double wh = (x1 - x0) * h, wd = (x1 - x0) * d;
        rb_printf(&b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#e5e7eb\"/>\n", x0, y + 3, x1 - x0,
                  ROW_H - 6);
        rb_printf(&b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#c2410c\"/>\n", x0, y + 3, wh,
                  ROW_H - 6);
        rb_printf(&b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#0f766e\"/>\n", x0 + wh, y + 3, wd,
                  ROW_H - 6);
        char hs[NGCC_FMT_MAX], ds[NGCC_FMT_MAX];
        ngcc_fmt_percent(hs, rows[i].hash);
        ngcc_fmt_percent(ds, rows[i].drng);
        rb_printf(&b, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">hash %s \xC2\xB7 DRNG %s</text>\n", x1 + 6, y + 14,
                  hs, ds);
    }
    rb_add(&b, "</svg>\n");
    return rb_take(&b);
}

/* ---- line plot (hash cost per byte over the message length) ---- */

enum { LP_H = 360, LP_LEFT = 70, LP_RIGHT = 30, LP_TOP = 46, LP_BOTTOM = 48, LP_MAX_X = 64 };

static const char *line_colour(size_t i)
{
    static const char *colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
    return colours[i % 6];
}

/* "16 B", "1 KiB", "64 KiB", "1 MiB" for powers of two, else ngcc_fmt_bytes */
static void bytes_label(char *out, size_t n, double v)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB"};
    double e = log2(v);
    if (v >= 1 && fabs(e - round(e)) < 1e-9 && e < 40) {
        int k = (int)round(e);
        snprintf(out, n, "%d %s", 1 << (k % 10), units[k / 10]);
        return;
    }
    char b[NGCC_FMT_MAX];
    snprintf(out, n, "%s", ngcc_fmt_bytes(b, v));
}

static int usable(const rs_point *p)
{
    return p->x > 0 && p->y > 0 && !isinf(p->x) && !isinf(p->y);
}

char *rs_log_lines(const char *title, const char *x_unit, const char *y_unit, const rs_series *s, size_t ns)
{
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    double xs[LP_MAX_X];
    size_t nx = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t k = 0; k < s[i].n; k++) {
            const rs_point *p = &s[i].pts[k];
            if (!usable(p))
                continue;
            xmin = fmin(xmin, p->x);
            xmax = fmax(xmax, p->x);
            ymin = fmin(ymin, p->y);
            ymax = fmax(ymax, p->y);
            size_t j = 0;
            while (j < nx && xs[j] != p->x)
                j++;
            if (j == nx && nx < LP_MAX_X)
                xs[nx++] = p->x;
        }
    rb_buf b = {0};
    open_svg(&b, title, LP_H);
    int lx = LP_LEFT;
    for (size_t i = 0; i < ns; i++)
        legend_item(&b, &lx, line_colour(i), s[i].label);
    if (!(xmax > 0)) {
        rb_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"12\">no values</text>\n", LP_LEFT, LP_TOP + 20);
        rb_add(&b, "</svg>\n");
        return rb_take(&b);
    }
    double lx0 = log2(xmin), lx1 = log2(xmax);
    if (lx1 <= lx0) {
        lx0 -= 1;
        lx1 += 1;
    }
    int lo = (int)floor(log10(ymin)), hi = (int)ceil(log10(ymax));
    if (hi <= lo)
        hi = lo + 1;
    double x0 = LP_LEFT, x1 = W - LP_RIGHT, y0 = LP_H - LP_BOTTOM, y1 = LP_TOP;
#define PX(v) (x0 + (x1 - x0) * (log2(v) - lx0) / (lx1 - lx0))
#define PY(v) (y0 - (y0 - y1) * (log10(v) - lo) / (hi - lo))
    for (int k = lo; k <= hi; k++) {
        double y = y0 - (y0 - y1) * (k - lo) / (hi - lo);
        char lab[32];
        decade_label(lab, sizeof lab, k);
        rb_printf(&b,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d0d7de\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
                  x0, y, x1, y, x0 - 6, y + 4, lab);
    }
    for (size_t j = 0; j < nx; j++) {
        double x = PX(xs[j]);
        char lab[32];
        bytes_label(lab, sizeof lab, xs[j]);
        rb_printf(&b,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eef1f4\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
                  x, y0, x, y1, x, y0 + 16, lab);
    }
    rb_printf(&b, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", (x0 + x1) / 2, LP_H - 8);
    rb_add_markup_text(&b, x_unit);
    rb_add(&b, ", log scale</text>\n");
    rb_printf(&b, "<text x=\"%d\" y=\"34\" font-size=\"11\" text-anchor=\"end\">", W - 4);
    rb_add_markup_text(&b, y_unit);
    rb_add(&b, ", log scale</text>\n");
    for (size_t i = 0; i < ns; i++) {
        const char *c = line_colour(i);
        rb_printf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
        int first = 1;
        for (size_t k = 0; k < s[i].n; k++)
            if (usable(&s[i].pts[k])) {
                rb_printf(&b, "%s%.1f,%.1f", first ? "" : " ", PX(s[i].pts[k].x), PY(s[i].pts[k].y));
                first = 0;
            }
        rb_add(&b, "\"/>\n");
        for (size_t k = 0; k < s[i].n; k++) {
            const rs_point *p = &s[i].pts[k];
            if (!usable(p))
                continue;
            char xl[32], yl[NGCC_FMT_MAX];
            bytes_label(xl, sizeof xl, p->x);
            snprintf(yl, sizeof yl, "%.3g", p->y);
            rb_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>", PX(p->x), PY(p->y), c);
            rb_add_markup_text(&b, s[i].label);
            rb_printf(&b, " at %s: %s ", xl, yl);
            rb_add_markup_text(&b, y_unit);
            rb_add(&b, "</title></circle>\n");
        }
    }
#undef PX
#undef PY
    rb_add(&b, "</svg>\n");
    return rb_take(&b);
}
