#define _GNU_SOURCE
#include "ngcc_child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double ngcc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

pid_t ngcc_child_start(int (*fn)(void *, int), void *arg, const ngcc_child_opts *opts, int *rfd)
{
    int p[2] = {-1, -1};
    if (rfd && pipe(p))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* die with the harness: a killed test must not leave a spinning child */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (rfd)
            close(p[0]);
        if (opts && opts->log_path) {
            int fd = open(opts->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
        }
        if (opts && opts->mem_limit_mb) {
            struct rlimit rl;
            rl.rlim_cur = rl.rlim_max = (rlim_t)opts->mem_limit_mb << 20;
            setrlimit(RLIMIT_AS, &rl);
        }
        int rc = fn(arg, rfd ? p[1] : -1);
        fflush(NULL);
        _exit(rc & 0xff);
    }
    if (rfd) {
        close(p[1]);
        *rfd = p[0];
    }
    return pid;
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
            return;
        }
        if (deadline > 0 && ngcc_now() >= deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            res->end = NGCC_CHILD_TIMEDOUT;
            res->seconds = ngcc_now() - t0;
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
}

void ngcc_child_run(int (*fn)(void *, int), void *arg, const ngcc_child_opts *opts, ngcc_child_result *res)
{
    pid_t pid = ngcc_child_start(fn, arg, opts, NULL);
    if (pid < 0) {
        res->end = NGCC_CHILD_SIGNALED;
        res->code = 0;
        res->seconds = 0;
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
        long left = max_bytes;
        size_t n;
        while (left > 0 && (n = fread(buf, 1, left < (long)sizeof buf ? (size_t)left : sizeof buf, f)) > 0) {
            fwrite(buf, 1, n, stderr);
            left -= (long)n;
        }
        if (size > max_bytes)
            fprintf(stderr, "\n[... %ld more bytes of submission output truncated]\n", size - max_bytes);
        fprintf(stderr, "---- end of submission output ----\n");
    }
    fclose(f);
}
