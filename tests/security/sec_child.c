#define _GNU_SOURCE
#include "sec_child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ngcc_child.h"
#include "ngcc_util.h"

enum { ENDED, STALLED, OUT_OF_BUDGET };

/* Watches the child without reaping it (ngcc_child_wait reaps it and
 * collects the sandbox's evidence); kills it when one call stalls or the
 * budget ends. */
static int watch(pid_t pid, sec_result *res, const sec_child_opts *o)
{
    unsigned long seen = res->progress;
    double last = ngcc_now();
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
            return ENDED;
        double now = ngcc_now();
        if (res->progress != seen) {
            seen = res->progress;
            last = now;
        }
        int why = (o->call_timeout > 0 && now - last > o->call_timeout) ? STALLED
                  : (o->deadline > 0 && now > o->deadline)              ? OUT_OF_BUDGET
                                                                        : ENDED;
        if (why != ENDED) {
            kill(pid, SIGKILL);
            return why;
        }
        struct timespec ts = {0, 2000000}; /* 2 ms */
        nanosleep(&ts, NULL);
    }
}

static void describe_end(const ngcc_child_result *cr, const sec_result *res, const char *where, sec_end *end)
{
    end->verdict = NGCC_CRASH;
    if (cr->end == NGCC_CHILD_SIGNALED)
        snprintf(end->detail, sizeof end->detail, "%s was killed by signal %d (%s)", where, cr->code,
                 strsignal(cr->code));
    else if (!res->finished)
        snprintf(end->detail, sizeof end->detail, "the process ended (exit code %d) in %s", cr->code, where);
    else
        snprintf(end->detail, sizeof end->detail, "the process exited with code %d after %s", cr->code, where);
}

/* the ASan report that ended the child, if any */
static int fatal_report(const char *log_path, sec_memerr *e)
{
    size_t len;
    char *text = ngcc_read_file(log_path, &len);
    int found = text && sec_memerr_sanitizer_fatal(text, e) == 1;
    free(text);
    return found;
}

void sec_child_run(int (*fn)(void *, int), void *arg, sec_result *res, const sec_child_opts *o, sec_end *end)
{
    memset(end, 0, sizeof *end);
    ngcc_child_opts co = {0, o->mem_mb, o->log_path};
    double t0 = ngcc_now();
    pid_t pid = ngcc_child_start(fn, arg, &co, NULL);
    if (pid < 0) {
        end->verdict = NGCC_CRASH;
        snprintf(end->detail, sizeof end->detail, "cannot start a child process: %s", strerror(errno));
        return;
    }
    int why = watch(pid, res, o);
    ngcc_child_result cr;
    ngcc_child_wait(pid, 0, &cr);
    end->seconds = ngcc_now() - t0;
    end->memlimit = cr.memlimit;
    end->alloc_fail_bytes = cr.alloc_fail_bytes;
    end->mem_limit_mb = cr.mem_limit_mb;
    snprintf(end->sandbox, sizeof end->sandbox, "%s", cr.sandbox);
    ngcc_child_memlimit_detail(&cr, end->memlimit_detail, sizeof end->memlimit_detail);
    const char *where = res->where[0] ? res->where : "loading the library";
    if (why != ENDED) {
        end->verdict = NGCC_TIMEOUT;
        if (why == STALLED)
            snprintf(end->detail, sizeof end->detail, "%s did not return within %.0f s", where, o->call_timeout);
        else
            snprintf(end->detail, sizeof end->detail, "the test's time budget ran out during %s", where);
        return;
    }
    if (res->finished && cr.end == NGCC_CHILD_EXITED && cr.code == 0) {
        end->verdict = NGCC_PASS;
        return;
    }
    if (o->sanitizer && o->log_path && fatal_report(o->log_path, &end->memerr)) {
        /* a report of a crash (SEGV) is the check's CRASH; bad accesses
         * (OVERFLOW) fail the check as such (UBSan recovers: its reports
         * never end the child, sec_run collects them from the log) */
        end->verdict = end->memerr.verdict;
        snprintf(end->detail, sizeof end->detail, "%.280s, during %.190s", end->memerr.summary, where);
        return;
    }
    describe_end(&cr, res, where, end);
}

char *sec_child_take_output(int fd)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0)
        return NULL;
    char *text = malloc((size_t)st.st_size + 1);
    ssize_t got = text ? pread(fd, text, (size_t)st.st_size, 0) : -1;
    if (got < 0) {
        free(text);
        return NULL;
    }
    text[got] = 0;
    fputs(text, stderr);
    return text;
}
