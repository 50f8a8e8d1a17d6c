#define _GNU_SOURCE
#include "perf_child.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_verdict.h"

typedef struct {
    perf_child_fn fn;
    void *arg;
} trampoline_arg;

static int trampoline(void *varg, int wfd)
{
    trampoline_arg *t = varg;
    FILE *out = fdopen(wfd, "w");
    if (!out)
        return 2;
    int rc = t->fn(t->arg, out);
    fclose(out);
    return rc;
}

static void on_line(perf_child_run *r, char *line)
{
    if (strncmp(line, "#PHASE ", 7) == 0) {
        snprintf(r->phase, sizeof r->phase, "%s", line + 7);
    } else if (strncmp(line, "#ERROR ", 7) == 0) {
        char *msg = strchr(line + 7, ' ');
        if (msg)
            *msg++ = 0;
        r->error_verdict = ngcc_verdict_parse(line + 7);
        if (r->error_verdict < 0)
            r->error_verdict = NGCC_ERROR;
        snprintf(r->error, sizeof r->error, "%s", msg ? msg : "");
    } else if (strncmp(line, "#RESULT ", 8) == 0) {
        cJSON_Delete(r->result);
        r->result = cJSON_Parse(line + 8);
    }
}

/* reads lines until EOF or the deadline; 1 if the deadline passed */
static int read_lines(int rfd, double deadline, perf_child_run *r)
{
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    int timed_out = 0;
    for (;;) {
        double left = deadline > 0 ? deadline - ngcc_now() : 1;
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pfd = {rfd, POLLIN, 0};
        int pr = poll(&pfd, 1, deadline > 0 ? (int)(left * 1000) + 1 : -1);
        if (pr <= 0) {
            if (pr < 0 && errno != EINTR)
                break;
            continue;
        }
        if (used + 1 >= cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(rfd, buf + used, cap - used - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
        buf[used] = 0;
        char *start = buf, *nl;
        while ((nl = strchr(start, '\n')) != NULL) {
            *nl = 0;
            on_line(r, start);
            start = nl + 1;
        }
        used -= (size_t)(start - buf);
        memmove(buf, start, used);
    }
    free(buf);
    return timed_out;
}

int perf_child_exec(perf_child_fn fn, void *arg, double timeout_s, unsigned long mem_mb, const char *log_path,
                    perf_child_run *r)
{
    memset(r, 0, sizeof *r);
    r->error_verdict = -1;
    snprintf(r->phase, sizeof r->phase, "starting");
    trampoline_arg t = {fn, arg};
    ngcc_child_opts opts = {timeout_s, mem_mb, log_path};
    int rfd = -1;
    double deadline = timeout_s > 0 ? ngcc_now() + timeout_s : 0;
    pid_t pid = ngcc_child_start(trampoline, &t, &opts, &rfd);
    if (pid < 0)
        return -1;
    int timed_out = read_lines(rfd, deadline, r);
    close(rfd);
    ngcc_child_wait(pid, timed_out ? ngcc_now() : deadline, &r->child);
    if (timed_out)
        r->child.end = NGCC_CHILD_TIMEDOUT;
    return 0;
}

int perf_child_verdict(const perf_child_run *r, double timeout_s, char *detail, size_t len)
{
    if (r->child.memlimit) { /* an allocation failed under the limit: that caused what followed */
        ngcc_child_memlimit_detail(&r->child, detail, (unsigned long)len);
        return NGCC_MEMLIMIT;
    }
    if (r->child.end == NGCC_CHILD_TIMEDOUT) {
        snprintf(detail, len,
                 "no result after %.0f s while %s; raise the \"timeouts\" override or lower the "
                 "time budget",
                 timeout_s, r->phase);
        return NGCC_TIMEOUT;
    }
    if (r->error_verdict >= 0) {
        snprintf(detail, len, "%s", r->error);
        return r->error_verdict;
    }
    if (r->child.end == NGCC_CHILD_SIGNALED) {
        snprintf(detail, len, "killed by signal %d (%s) while %s", r->child.code, strsignal(r->child.code), r->phase);
        return NGCC_CRASH;
    }
    snprintf(detail, len, "the instance ended the process (exit code %d) while %s", r->child.code, r->phase);
    return NGCC_CRASH;
}

void perf_child_free(perf_child_run *r)
{
    cJSON_Delete(r->result);
    r->result = NULL;
}

void perf_child_phase(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("#PHASE ", out);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    va_end(ap);
    fflush(out);
}

void perf_child_error(FILE *out, int verdict, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(out, "#ERROR %s ", ngcc_verdict_name((ngcc_verdict)verdict));
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    va_end(ap);
    fflush(out);
}

void perf_child_result(FILE *out, const cJSON *result)
{
    char *text = cJSON_PrintUnformatted(result);
    if (text) {
        fprintf(out, "#RESULT %s\n", text);
        free(text);
    }
    fflush(out);
}
