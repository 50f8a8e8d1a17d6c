#define _GNU_SOURCE
#include "ngcc_child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ngcc_allocenv.h"
#include "ngcc_sandbox.h"

/* A child's evidence channel: a memfd the child (and the instance library's
 * allocation wrappers, through $NGCC_ALLOC_WATCH_FD) append lines to:
 *   sandbox <description>      alloc <function> <bytes>                    */
#define WATCH_ENV "NGCC_ALLOC_WATCH_FD"
#define MAX_CHILDREN 16
#define AUTO_LOG_SHOW 2048   /* bytes of an automatic log shown per child */
#define AUTO_LOG_BUDGET 8192 /* ... and per harness process */
#define DEFAULT_LOG_LIMIT_MB 16

typedef struct {
    pid_t pid;
    int watch;
    int auto_log;
    unsigned long mem_mb;
    char log[PATH_MAX];
} child_slot;

static child_slot slots[MAX_CHILDREN];
static long auto_log_shown;

double ngcc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static child_slot *slot_find(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (slots[i].pid == pid)
            return &slots[i];
    return NULL;
}

static long long log_limit_bytes(void)
{
    const char *e = getenv("NGCC_LOG_LIMIT_MB");
    long long mb = e && *e ? atoll(e) : DEFAULT_LOG_LIMIT_MB;
    return mb > 0 ? mb << 20 : 0;
}

static void watch_write(const char *line)
{
    const char *e = getenv(WATCH_ENV);
    if (e && *e) {
        ssize_t w = write(atoi(e), line, strlen(line));
        (void)w;
    }
}

/* In the child: output capture, sandbox, evidence channel; then fn. */
static void child_main(int (*fn)(void *, int), void *arg, int wfd, const char *log, const char *scratch,
                       const ngcc_child_opts *opts, int watch)
{
    /* die with the harness: a killed test must not leave a spinning child */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    char num[16];
    snprintf(num, sizeof num, "%d", watch);
    setenv(WATCH_ENV, num, 1);
    ngcc_sandbox_spec spec = {scratch, opts ? opts->mem_limit_mb : 0, log_limit_bytes()};
    char note[256], line[300];
    unsigned long applied = 0;
    ngcc_sandbox_enter(&spec, note, sizeof note, &applied);
    snprintf(line, sizeof line, "sandbox %s\nmemlimit %lu\n", note, applied);
    watch_write(line);
    int rc = fn(arg, wfd);
    fflush(NULL);
    _exit(rc & 0xff);
}

pid_t ngcc_child_start(int (*fn)(void *, int), void *arg, const ngcc_child_opts *opts, int *rfd)
{
    char scratch[PATH_MAX], log[PATH_MAX];
    if (ngcc_sandbox_scratch(scratch, sizeof scratch))
        return -1;
    ngcc_allocenv_warn();
    int auto_log = !opts || !opts->log_path;
    snprintf(log, sizeof log, "%s", auto_log ? scratch : opts->log_path);
    if (auto_log)
        strncat(log, "/child.log", sizeof log - strlen(log) - 1);
    int p[2] = {-1, -1};
    if (rfd && pipe(p))
        return -1;
    /* no CLOEXEC: a child that execs (valgrind) keeps reporting into it */
    int watch = memfd_create("ngcc-watch", 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        if (rfd) {
            close(p[0]);
            close(p[1]);
        }
        if (watch >= 0)
            close(watch);
        return -1;
    }
    if (pid == 0) {
        if (rfd)
            close(p[0]);
        child_main(fn, arg, rfd ? p[1] : -1, log, scratch, opts, watch);
    }
    if (rfd) {
        close(p[1]);
        *rfd = p[0];
    }
    child_slot *s = slot_find(0);
    if (s) {
        *s = (child_slot){pid, watch, auto_log, opts ? opts->mem_limit_mb : 0, ""};
        snprintf(s->log, sizeof s->log, "%s", log);
    } else if (watch >= 0) {
        close(watch);
    }
    return pid;
}

/* "std::bad_alloc" & co. anywhere in the captured output */
static int log_names_oom(const char *path)
{
    static const char *const pats[] = {"std::bad_alloc", "out of memory", "Cannot allocate memory"};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[65536 + 64];
    size_t keep = 0, n;
    int found = 0;
    while (!found && (n = fread(buf + keep, 1, 65536, f)) > 0) {
        size_t total = keep + n;
        for (size_t i = 0; i < sizeof pats / sizeof pats[0] && !found; i++)
            found = memmem(buf, total, pats[i], strlen(pats[i])) != NULL;
        /* carry a tail so a pattern split across two reads is still seen */
        keep = total < 32 ? total : 32;
        memmove(buf, buf + total - keep, keep);
    }
    fclose(f);
    return found;
}

static void read_watch(child_slot *s, ngcc_child_result *res)
{
    char buf[8192];
    ssize_t n = s->watch >= 0 ? pread(s->watch, buf, sizeof buf - 1, 0) : -1;
    if (n <= 0)
        return;
    buf[n] = 0;
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned long long bytes;
        char fn[32];
        if (strncmp(l, "sandbox ", 8) == 0) {
            snprintf(res->sandbox, sizeof res->sandbox, "%s", l + 8);
        } else if (sscanf(l, "memlimit %lu", &res->mem_limit_mb) == 1) {
            continue;
        } else if (sscanf(l, "alloc %31s %llu", fn, &bytes) == 2) {
            res->alloc_failures++;
            if (bytes > res->alloc_fail_bytes)
                res->alloc_fail_bytes = bytes;
        }
    }
}

static void collect_evidence(pid_t pid, ngcc_child_result *res)
{
    res->alloc_failures = 0;
    res->alloc_fail_bytes = 0;
    res->oom_text = 0;
    res->memlimit = 0;
    res->mem_limit_mb = 0;
    res->sandbox[0] = 0;
    child_slot *s = slot_find(pid);
    if (!s)
        return;
    read_watch(s, res);
    if (res->mem_limit_mb)
        res->oom_text = log_names_oom(s->log);
    res->memlimit = res->mem_limit_mb && (res->alloc_failures || res->oom_text);
    if (s->auto_log) {
        long room = AUTO_LOG_BUDGET - auto_log_shown;
        long show = room < AUTO_LOG_SHOW ? (room > 0 ? room : 0) : AUTO_LOG_SHOW;
        struct stat st;
        if (stat(s->log, &st) == 0 && st.st_size > 0) {
            ngcc_child_show_log(s->log, show);
            auto_log_shown += show < st.st_size ? show : (long)st.st_size;
        }
    }
    if (s->watch >= 0)
        close(s->watch);
    memset(s, 0, sizeof *s);
}

void ngcc_child_wait(pid_t pid, double deadline, ngcc_child_result *res)
{
    double t0 = ngcc_now();
    int status = 0;
    res->end = NGCC_CHILD_EXITED;
    res->code = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, deadline > 0 ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            res->end = NGCC_CHILD_SIGNALED;
            res->code = 0;
            res->seconds = ngcc_now() - t0;
            collect_evidence(pid, res);
            return;
        }
        if (deadline > 0 && ngcc_now() >= deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            res->end = NGCC_CHILD_TIMEDOUT;
            res->seconds = ngcc_now() - t0;
            collect_evidence(pid, res);
            return;
        }
        if (deadline > 0) {
            struct timespec ts = {0, 2000000}; /* 2 ms */
            nanosleep(&ts, NULL);
        }
    }
    res->seconds = ngcc_now() - t0;
    if (WIFSIGNALED(status)) {
        res->end = NGCC_CHILD_SIGNALED;
        res->code = WTERMSIG(status);
    } else {
        res->end = NGCC_CHILD_EXITED;
        res->code = WEXITSTATUS(status);
    }
    collect_evidence(pid, res);
}

ngcc_lines_end ngcc_child_read_lines(int fd, double deadline, ngcc_line_fn on_line, void *ctx)
{
    return ngcc_child_read_lines_moving(fd, &deadline, on_line, ctx);
}

ngcc_lines_end ngcc_child_read_lines_moving(int fd, const double *deadline_at, ngcc_line_fn on_line, void *ctx)
{
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    ngcc_lines_end end = NGCC_LINES_EOF;
    while (buf && end == NGCC_LINES_EOF) {
        int wait_ms = -1;
        double deadline = *deadline_at;
        if (deadline > 0) {
            double left = deadline - ngcc_now();
            if (left <= 0) {
                end = NGCC_LINES_TIMEOUT;
                break;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, wait_ms) <= 0)
            continue; /* EINTR or the deadline: re-checked above */
        if (used == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger)
                break;
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + used, cap - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
        size_t start = 0;
        char *nl;
        while ((nl = memchr(buf + start, '\n', used - start)) != NULL) {
            char *line = buf + start;
            size_t len = (size_t)(nl - line);
            *nl = 0;
            start += len + 1;
            if (on_line(line, len, ctx)) {
                end = NGCC_LINES_STOPPED;
                break;
            }
        }
        memmove(buf, buf + start, used - start);
        used -= start;
    }
    free(buf);
    return end;
}

void ngcc_child_run(int (*fn)(void *, int), void *arg, const ngcc_child_opts *opts, ngcc_child_result *res)
{
    pid_t pid = ngcc_child_start(fn, arg, opts, NULL);
    if (pid < 0) {
        memset(res, 0, sizeof *res);
        res->end = NGCC_CHILD_SIGNALED;
        return;
    }
    double deadline = (opts && opts->timeout_s > 0) ? ngcc_now() + opts->timeout_s : 0;
    ngcc_child_wait(pid, deadline, res);
}

void ngcc_child_show_log(const char *log_path, long max_bytes)
{
    FILE *f = log_path ? fopen(log_path, "rb") : NULL;
    if (!f)
        return;
    struct stat st;
    long size = fstat(fileno(f), &st) == 0 ? (long)st.st_size : 0;
    if (size > 0) {
        fprintf(stderr, "---- submission output (%s) ----\n", log_path);
        char buf[4096];
        long left = max_bytes, lines = 0;
        size_t n;
        while (left > 0 && (n = fread(buf, 1, left < (long)sizeof buf ? (size_t)left : sizeof buf, f)) > 0) {
            fwrite(buf, 1, n, stderr);
            left -= (long)n;
        }
        if (size > max_bytes) {
            while ((n = fread(buf, 1, sizeof buf, f)) > 0)
                for (size_t i = 0; i < n; i++)
                    lines += buf[i] == '\n';
            fprintf(stderr, "\n[... %ld more bytes (%ld lines) of submission output truncated; all of it is in %s%s]\n",
                    size - max_bytes, lines, log_path,
                    size >= log_limit_bytes() && log_limit_bytes() ? ", which stopped at its size cap" : "");
        }
        fprintf(stderr, "---- end of submission output ----\n");
    }
    fclose(f);
}

void ngcc_child_note_alloc_failure(const char *what, unsigned long long bytes)
{
    char line[128];
    snprintf(line, sizeof line, "alloc %s %llu\n", what, bytes);
    watch_write(line);
}

void ngcc_child_memlimit_detail(const ngcc_child_result *res, char *out, unsigned long len)
{
    if (!res->memlimit) {
        if (len)
            out[0] = 0;
        return;
    }
    if (res->alloc_failures)
        snprintf(out, len,
                 "an allocation of %llu bytes failed under the %lu MB memory limit (%lu failed "
                 "allocations); raise \"memory_limit_mb\" in the override file",
                 res->alloc_fail_bytes, res->mem_limit_mb, res->alloc_failures);
    else
        snprintf(out, len,
                 "the instance ran out of memory under the %lu MB memory limit (its output names an "
                 "allocation failure); raise \"memory_limit_mb\" in the override file",
                 res->mem_limit_mb);
}
