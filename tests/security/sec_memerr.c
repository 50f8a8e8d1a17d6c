#define _GNU_SOURCE
#include "sec_memerr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ngcc_util.h"

#define REPORT_MAX_LINES 60

/* ---- line helpers over a NUL-terminated log text ---- */

static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : NULL;
}

static int line_len(const char *p)
{
    return (int)strcspn(p, "\n");
}

/* s inside the line at p, or NULL (searched within the line only: a log of
 * a chatty instance has hundreds of thousands of lines) */
static const char *in_line(const char *p, const char *s)
{
    return memmem(p, (size_t)line_len(p), s, strlen(s));
}

static const char *prev_line(const char *text, const char *p)
{
    if (p <= text)
        return NULL;
    const char *q = p - 1; /* the '\n' ending the previous line */
    while (q > text && q[-1] != '\n')
        q--;
    return q;
}

static char *copy_lines(const char *from, const char *to)
{
    size_t n = to ? (size_t)(to - from) : strlen(from);
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, from, n);
        s[n] = 0;
    }
    return s;
}

/* ---- sanitizers ---- */

/* the last path component of the n bytes at p (paths may hold spaces) */
static void base_name(const char *p, int n, char *out, size_t cap)
{
    const char *b = p;
    for (int i = 0; i < n; i++)
        if (p[i] == '/')
            b = p + i + 1;
    snprintf(out, cap, "%.*s", (int)(p + n - b), b);
}

/* "    #0 0x7f.. in sig_sign /path with spaces/wots_scheme.c:384" -> fn
 * "sig_sign", loc "wots_scheme.c:384": the location is the rest of the line,
 * so a folder name with spaces stays whole ("(module+0x..)" loses its
 * parentheses) */
static int asan_frame(const char *line, char *fn, size_t fcap, char *loc, size_t lcap)
{
    const char *in = in_line(line, " in ");
    if (line[strspn(line, " \t")] != '#' || !in)
        return 0;
    const char *f = in + 4;
    int fl = (int)strcspn(f, " \n");
    const char *l = f + fl + (f[fl] == ' ');
    int ll = line_len(l);
    if (fl == 0 || ll == 0)
        return 0;
    if (l[0] == '(' && l[ll - 1] == ')')
        l++, ll -= 2;
    snprintf(fn, fcap, "%.*s", fl, f);
    base_name(l, ll, loc, lcap);
    return 1;
}

static ngcc_verdict asan_verdict(const char *kind)
{
    static const char *const access[] = {"buffer-overflow",
                                         "buffer-underflow",
                                         "container-overflow",
                                         "use-after-",
                                         "double-free",
                                         "bad-free",
                                         "alloc-dealloc-mismatch",
                                         "param-overlap",
                                         "negative-size-param",
                                         "invalid-pointer-pair"};
    for (size_t i = 0; i < sizeof access / sizeof access[0]; i++)
        if (strstr(kind, access[i]))
            return NGCC_OVERFLOW;
    return NGCC_CRASH; /* SEGV, stack-overflow (recursion), FPE, ... */
}

/* "WRITE of size 1" (bad accesses) or "WRITE access" (SEGV), if reported */
static void asan_access(const char *p, const char *end, char *out, size_t cap)
{
    for (; p && p < end; p = next_line(p)) {
        const char *at = in_line(p, " at ");
        if ((!strncmp(p, "READ of size", 12) || !strncmp(p, "WRITE of size", 13)) && at) {
            snprintf(out, cap, "%.*s", (int)(at - p), p);
            return;
        }
        const char *c = in_line(p, "caused by a ");
        if (c) {
            snprintf(out, cap, "%.*s access", (int)strcspn(c + 12, " \n"), c + 12);
            return;
        }
    }
}

/* "    #3 0x..." */
static int frame_line(const char *p)
{
    const char *t = p + strspn(p, " ");
    return t[0] == '#' && t[1] >= '0' && t[1] <= '9';
}

/* the end of a report: after its SUMMARY line (ASan) or its stack (UBSan;
 * before the stack, UBSan may print a "note: pointer points here" and a
 * memory dump) */
static const char *report_end(const char *head, int ubsan)
{
    const char *p = next_line(head);
    int frames = 0;
    for (int n = 0; p && n < REPORT_MAX_LINES; n++, p = next_line(p)) {
        if (ubsan && frame_line(p)) {
            frames++;
            continue;
        }
        if (ubsan && !frames && n < 4 && p[0] != '#' && !in_line(p, "runtime error: ") && !in_line(p, "ERROR: "))
            continue;
        if (ubsan)
            return p;
        if (!ubsan && in_line(p, "SUMMARY: "))
            return next_line(p);
    }
    return p;
}

/* The ICCS template's known UB, recognised by its site (an edited copy of
 * the official drng.c has another SHA-256, so configure cannot recognise
 * it): UBSan's "shift exponent 32" in sm3_bit_compress of a file named
 * drng.c; when the stack is printed, reached from init_random_number. */
static int template_ub_site(const char *fn, const char *loc, const char *msg, const char *end)
{
    size_t fl = strcspn(loc, ":");
    if (strcmp(fn, "sm3_bit_compress") != 0 || fl != 6 || strncasecmp(loc, "drng.c", 6) != 0 ||
        !in_line(msg, "shift exponent 32 "))
        return 0;
    int frames = 0, from_init = 0;
    char f[160], l[320];
    for (const char *p = next_line(msg); p && p < end; p = next_line(p))
        if (asan_frame(p, f, sizeof f, l, sizeof l)) {
            frames++;
            from_init |= strcmp(f, "init_random_number") == 0;
        }
    return frames == 0 || from_init;
}

static void sanitizer_summary(const char *head, const char *end, int ubsan, sec_memerr *e)
{
    char fn[160] = "", loc[320] = "", access[64] = "", what[240];
    for (const char *p = next_line(head); p && p < end; p = next_line(p))
        if (asan_frame(p, fn, sizeof fn, loc, sizeof loc))
            break;
    if (ubsan) {
        /* "<path>:<line>:<col>: runtime error: <what>": the head's own
         * location is the exact one (the frame has no column) */
        const char *r = in_line(head, ": runtime error: ");
        base_name(head, (int)(r - head), loc, sizeof loc);
        snprintf(what, sizeof what, "UBSan: %.*s", line_len(r + 17), r + 17);
        /* a load or store through a null pointer is the SIGSEGV the plain run
         * gets: CRASH; an index past an array's end or an access with no
         * room for its object reads or writes outside a buffer: OVERFLOW, as
         * ASan's reports; any other undefined behaviour is UNDEFINED */
        const char *np = in_line(r, " null pointer");
        int oob = in_line(r, " out of bounds for type ") || in_line(r, "with insufficient space for an object");
        e->verdict = np ? NGCC_CRASH : oob ? NGCC_OVERFLOW : NGCC_UNDEFINED;
        /* the kind: the message up to its first value */
        snprintf(e->kind, sizeof e->kind, "UBSan: %.*s", (int)strcspn(r + 17, "0123456789'\n"), r + 17);
        snprintf(e->first_line, sizeof e->first_line, "%s: runtime error: %.*s", loc, line_len(r + 17), r + 17);
        e->template_ub = template_ub_site(fn, loc, r, end);
    } else {
        const char *k = in_line(head, "AddressSanitizer: ") + 18;
        char kind[64];
        snprintf(kind, sizeof kind, "%.*s", (int)strcspn(k, " \n"), k);
        asan_access(head, end, access, sizeof access);
        snprintf(what, sizeof what, "AddressSanitizer %s%s%s", kind, access[0] ? ": " : "", access);
        e->verdict = asan_verdict(kind);
        e->fatal = 1;
        snprintf(e->kind, sizeof e->kind, "AddressSanitizer %s%s%.*s", kind, access[0] ? ": " : "",
                 (int)strcspn(access, " "), access);
        const char *h = in_line(head, "ERROR: AddressSanitizer: ");
        snprintf(e->first_line, sizeof e->first_line, "%.*s", line_len(h), h);
    }
    int kl = (int)strlen(e->kind);
    while (kl > 0 && (e->kind[kl - 1] == ' ' || e->kind[kl - 1] == ':'))
        e->kind[--kl] = 0;
    snprintf(e->site, sizeof e->site, "%s (%s)", fn[0] ? fn : "?", loc[0] ? loc : "?");
    if (fn[0] || loc[0])
        snprintf(e->summary, sizeof e->summary, "%s in %s (%s)", what, fn[0] ? fn : "?", loc[0] ? loc : "?");
    else
        snprintf(e->summary, sizeof e->summary, "%s", what);
}

int sec_memerr_sanitizer(const char *log_path, sec_memerr *e)
{
    memset(e, 0, sizeof *e);
    size_t len;
    char *text = ngcc_read_file(log_path, &len);
    if (!text)
        return -1;
    int found = sec_memerr_sanitizer_text(text, e);
    free(text);
    return found;
}

/* the next report at or after *pos (updated past it), with the last
 * "#CALL " line before it as context; 1 if found */
static int next_report(const char *text, const char **pos, char *call, size_t ccap, sec_memerr *e)
{
    memset(e, 0, sizeof *e);
    for (const char *p = *pos; p; p = next_line(p)) {
        if (!strncmp(p, "#CALL ", 6))
            snprintf(call, ccap, "%.*s", line_len(p + 6), p + 6);
        int asan = in_line(p, "ERROR: AddressSanitizer: ") != NULL;
        int ubsan = !asan && in_line(p, ": runtime error: ") != NULL;
        if (!asan && !ubsan)
            continue;
        const char *end = report_end(p, ubsan);
        const char *start = prev_line(text, p);
        if (!start || strncmp(start, "=====", 5) != 0) /* ASan's rule above the report */
            start = p;
        e->found = 1;
        snprintf(e->context, sizeof e->context, "%s", call);
        sanitizer_summary(p, end, ubsan, e);
        e->report = copy_lines(start, end);
        *pos = end;
        return 1;
    }
    *pos = NULL;
    return 0;
}

int sec_memerr_sanitizer_text(const char *text, sec_memerr *e)
{
    char call[200] = "";
    const char *pos = text;
    return next_report(text, &pos, call, sizeof call, e);
}

int sec_memerr_sanitizer_each(const char *text, void (*fn)(sec_memerr *e, void *arg), void *arg)
{
    char call[200] = "";
    const char *pos = text;
    sec_memerr e;
    int n = 0;
    while (pos && next_report(text, &pos, call, sizeof call, &e)) {
        n++;
        fn(&e, arg);
        sec_memerr_free(&e);
    }
    return n;
}

int sec_memerr_sanitizer_fatal(const char *text, sec_memerr *e)
{
    char call[200] = "";
    const char *pos = text;
    sec_memerr next;
    memset(e, 0, sizeof *e);
    while (pos && next_report(text, &pos, call, sizeof call, &next)) {
        sec_memerr_free(e);
        *e = next;
    }
    if (e->found && !e->fatal)
        sec_memerr_free(e);
    return e->found;
}

/* ---- valgrind ---- */

/* the text after the "==PID== " prefix, or NULL for other lines */
static const char *vg_text(const char *line)
{
    if (strncmp(line, "==", 2) != 0)
        return NULL;
    const char *q = in_line(line + 2, "==");
    if (!q)
        return NULL;
    return q[2] == ' ' ? q + 3 : q + 2;
}

static int vg_blank(const char *line)
{
    const char *t = vg_text(line);
    return !t || line_len(t) == 0;
}

static ngcc_verdict vg_verdict(const char *headline)
{
    if (in_line(headline, "uninitialised"))
        return NGCC_CRYPTOFAIL;
    if (!strncmp(headline, "Invalid", 7) || !strncmp(headline, "Mismatched", 10) || in_line(headline, "overlap") ||
        !strncmp(headline, "Argument", 8))
        return NGCC_OVERFLOW;
    return NGCC_CRASH;
}

static int vg_is_headline(const char *t)
{
    static const char *const heads[] = {"Invalid ",         "Mismatched free",
                                        "Conditional jump", "Use of uninitialised",
                                        "Syscall param",    "Source and destination overlap",
                                        "Argument '",       "Jump to the invalid address"};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        if (strncmp(t, heads[i], strlen(heads[i])) == 0)
            return 1;
    return 0;
}

/* "   at 0x4857712: sig_verify (wots_scheme.c:471)" -> "sig_verify (wots_scheme.c:471)";
 * 1 only for frames outside valgrind's own replacement libraries and the
 * suite's link-time wrappers (__wrap_malloc & co. in the instance library) */
static int vg_frame(const char *t, char *out, size_t cap)
{
    const char *s = t + strspn(t, " ");
    const char *c = in_line(s, ": ");
    if ((strncmp(s, "at 0x", 5) && strncmp(s, "by 0x", 5)) || !c)
        return 0;
    char f[300];
    snprintf(f, sizeof f, "%.*s", line_len(c + 2), c + 2);
    if (strstr(f, "vgpreload") || strstr(f, "vg_replace") || !strncmp(f, "__wrap_", 7))
        return 0;
    snprintf(out, cap, "%s", f);
    return 1;
}

/* headline, first own frame, then the address or the origin of the value */
static void vg_summary(const char *head, sec_memerr *e)
{
    const char *t = vg_text(head);
    char frame[300] = "", extra[300] = "", origin[300] = "";
    int in_origin = 0;
    for (const char *p = next_line(head); p && !vg_blank(p); p = next_line(p)) {
        const char *s = vg_text(p);
        const char *s0 = s + strspn(s, " ");
        const char *by = in_line(s0, "was created by ");
        if (!strncmp(s0, "Address ", 8)) {
            snprintf(extra, sizeof extra, "; %.*s", line_len(s0), s0);
        } else if (by) {
            in_origin = 1;
            snprintf(extra, sizeof extra, "; origin: %.*s", line_len(by + 15), by + 15);
        } else if (in_origin ? !origin[0] : !frame[0]) {
            vg_frame(s0, in_origin ? origin : frame, 300);
        }
    }
    snprintf(e->summary, sizeof e->summary, "valgrind: %.*s%s%s%s%s%s", line_len(t), t, frame[0] ? " in " : "", frame,
             extra, origin[0] ? " in " : "", origin);
    e->verdict = vg_verdict(t);
    /* an invalid access in the first page is a null-pointer dereference: the
     * plain run's SIGSEGV (as UBSan's null load/store), not an overflow */
    unsigned long long addr;
    if (e->verdict == NGCC_OVERFLOW && !strncmp(t, "Invalid ", 8) && sscanf(extra, "; Address %llx ", &addr) == 1 &&
        addr < 4096)
        e->verdict = NGCC_CRASH;
}

int sec_memerr_valgrind(const char *log_path, sec_memerr *e)
{
    memset(e, 0, sizeof *e);
    size_t len;
    char *text = ngcc_read_file(log_path, &len);
    if (!text)
        return -1;
    for (const char *p = text; p; p = next_line(p)) {
        const char *t = vg_text(p);
        if (!strncmp(p, "#CASE ", 6))
            snprintf(e->context, sizeof e->context, "%.*s", line_len(p + 6), p + 6);
        if (!t || !vg_is_headline(t))
            continue;
        const char *end = next_line(p);
        for (int n = 0; end && !vg_blank(end) && n < REPORT_MAX_LINES; n++)
            end = next_line(end);
        e->found = 1;
        vg_summary(p, e);
        e->report = copy_lines(p, end);
        break;
    }
    free(text);
    return e->found;
}

void sec_memerr_free(sec_memerr *e)
{
    free(e->report);
    memset(e, 0, sizeof *e);
}
