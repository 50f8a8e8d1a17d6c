/* ngcc-report: number formatting in the style of the published NICCS
 * self-assessment pages ("95.61 M", "11.2 k", "4.17 µs", "2.4e+05").
 * Every function writes into out (at least NGCC_FMT_MAX bytes) and returns it;
 * a NaN or infinite value gives the gap mark "—". Only the C locale is used,
 * so the same value always gives the same bytes. */
#ifndef REPORT_FMT_H
#define REPORT_FMT_H
#include <stddef.h>

#define NGCC_FMT_MAX 48
#define NGCC_FMT_GAP "\xE2\x80\x94" /* U+2014 EM DASH: no value */

/* cycles and other counts: < 1000 as is ("523", "2.5"), then "11.2 k",
 * "95.61 M", "10.40 G", "6.20 T" (1 decimal for k, 2 above) */
char *ngcc_fmt_count(char *out, double v);
/* calls per operation: 3 significant figures ("75.6", "2", "1.07 k", "16.1 k") */
char *ngcc_fmt_calls(char *out, double v);
/* a duration given in ns, 3 significant figures: "523 ns", "4.17 µs", "14.2 ms", "1.50 s" */
char *ngcc_fmt_time_ns(char *out, double ns);
/* operations per second, 2 significant figures as %.2g: "2.4e+05", "71" */
char *ngcc_fmt_rate(char *out, double v);
/* a fraction as a percentage with one decimal: 0.6204 -> "62.0%" */
char *ngcc_fmt_percent(char *out, double fraction);
/* a signed relative change: 0.031 -> "+3.1%" */
char *ngcc_fmt_change(char *out, double fraction);
/* bytes in binary units, 3 significant figures: "512 B", "12.3 KiB", "1.23 MiB" */
char *ngcc_fmt_bytes(char *out, double bytes);
/* an exact integer ("2308"); non-integers are rounded */
char *ngcc_fmt_int(char *out, double v);
/* a frequency in Hz, 3 significant figures: "2.59 GHz" */
char *ngcc_fmt_freq(char *out, double hz);
/* a ratio: 1.7312 -> "1.73×" */
char *ngcc_fmt_ratio(char *out, double r);

#endif
