#include "report_fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int bad(double v)
{
    return isnan(v) || isinf(v);
}

static char *gap(char *out)
{
    snprintf(out, NGCC_FMT_MAX, "%s", NGCC_FMT_GAP);
    return out;
}

/* "sig3" body of a non-negative value known to be below 999.5 */
static void sig3(char *out, size_t n, double v, const char *unit)
{
    int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
    snprintf(out, n, "%.*f%s", decimals, v, unit);
}

/* value scaled by 1000^k so that it prints below the next step (limit,
 * already rounded to the printed precision); returns the unit index */
static int scale(double *v, double step, const double *limits, int nunits)
{
    int u = 0;
    while (u < nunits - 1 && *v >= limits[u]) {
        *v /= step;
        u++;
    }
    return u;
}

char *ngcc_fmt_count(char *out, double v)
{
    if (bad(v))
        return gap(out);
    const char *sign = v < 0 ? "-" : "";
    double a = fabs(v);
    if (a < 999.5) {
        if (a == floor(a))
            snprintf(out, NGCC_FMT_MAX, "%s%.0f", sign, a);
        else {
            char body[NGCC_FMT_MAX - 1];
            sig3(body, sizeof body, a, "");
            snprintf(out, NGCC_FMT_MAX, "%s%s", sign, body);
        }
        return out;
    }
    static const char *units[] = {"", " k", " M", " G", " T"};
    /* k keeps one decimal (999.95 k rounds up to M), M and above two */
    static const double limits[] = {999.5, 999950.0 / 1000, 999.995, 999.995, 1e300};
    int u = scale(&a, 1000, limits, 5);
    snprintf(out, NGCC_FMT_MAX, "%s%.*f%s", sign, u == 1 ? 1 : 2, a, units[u]);
    return out;
}

char *ngcc_fmt_calls(char *out, double v)
{
    if (bad(v))
        return gap(out);
    const char *sign = v < 0 ? "-" : "";
    double a = fabs(v);
    if (a < 999.5 && a == floor(a)) {
        snprintf(out, NGCC_FMT_MAX, "%s%.0f", sign, a);
        return out;
    }
    static const char *units[] = {"", " k", " M", " G", " T"};
    static const double limits[] = {999.5, 999.5, 999.5, 999.5, 1e300};
    int u = scale(&a, 1000, limits, 5);
    char body[NGCC_FMT_MAX - 1];
    sig3(body, sizeof body, a, units[u]);
    snprintf(out, NGCC_FMT_MAX, "%s%s", sign, body);
    return out;
}

char *ngcc_fmt_time_ns(char *out, double ns)
{
    if (bad(ns))
        return gap(out);
    if (ns < 0)
        ns = 0;
    if (ns >= 999.5e9) {
        snprintf(out, NGCC_FMT_MAX, "%.0f s", ns / 1e9);
        return out;
    }
    static const char *units[] = {" ns", " \xC2\xB5s", " ms", " s"};
    static const double limits[] = {999.5, 999.5, 999.5, 1e300};
    int u = scale(&ns, 1000, limits, 4);
    sig3(out, NGCC_FMT_MAX, ns, units[u]);
    return out;
}

char *ngcc_fmt_rate(char *out, double v)
{
    if (bad(v))
        return gap(out);
    snprintf(out, NGCC_FMT_MAX, "%.2g", v);
    return out;
}

char *ngcc_fmt_percent(char *out, double fraction)
{
    if (bad(fraction))
        return gap(out);
    snprintf(out, NGCC_FMT_MAX, "%.1f%%", fraction * 100.0);
    return out;
}

char *ngcc_fmt_change(char *out, double fraction)
{
    if (bad(fraction))
        return gap(out);
    snprintf(out, NGCC_FMT_MAX, "%+.1f%%", fraction * 100.0);
    return out;
}

char *ngcc_fmt_bytes(char *out, double bytes)
{
    if (bad(bytes))
        return gap(out);
    if (bytes < 0)
        bytes = 0;
    if (bytes < 1023.5) {
        snprintf(out, NGCC_FMT_MAX, "%.0f B", bytes);
        return out;
    }
    static const char *units[] = {" B", " KiB", " MiB", " GiB", " TiB"};
    static const double limits[] = {1023.5, 999.5, 999.5, 999.5, 1e300};
    int u = scale(&bytes, 1024, limits, 5);
    sig3(out, NGCC_FMT_MAX, bytes, units[u]);
    return out;
}

char *ngcc_fmt_int(char *out, double v)
{
    if (bad(v))
        return gap(out);
    snprintf(out, NGCC_FMT_MAX, "%.0f", v);
    return out;
}

char *ngcc_fmt_freq(char *out, double hz)
{
    if (bad(hz) || hz <= 0)
        return gap(out);
    static const char *units[] = {" Hz", " kHz", " MHz", " GHz", " THz"};
    static const double limits[] = {999.5, 999.5, 999.5, 999.5, 1e300};
    int u = scale(&hz, 1000, limits, 5);
    sig3(out, NGCC_FMT_MAX, hz, units[u]);
    return out;
}

char *ngcc_fmt_ratio(char *out, double r)
{
    if (bad(r))
        return gap(out);
    snprintf(out, NGCC_FMT_MAX, "%.2f\xC3\x97", r);
    return out;
}
