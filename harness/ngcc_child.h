/* ngcc-ctest: runs untrusted submission code in a child process, so a crash,
 * hang or memory blow-up becomes a verdict for that case and nothing else. */
#ifndef NGCC_CHILD_H
#define NGCC_CHILD_H
#include <sys/types.h>

typedef enum { NGCC_CHILD_EXITED, NGCC_CHILD_SIGNALED, NGCC_CHILD_TIMEDOUT } ngcc_child_end;

typedef struct {
    ngcc_child_end end;
    int code;   /* exit code, or signal number */
    double seconds;
} ngcc_child_result;

typedef struct {
    double timeout_s;        /* <= 0: none */
    unsigned long mem_limit_mb; /* 0: none (RLIMIT_AS) */
    const char *log_path;    /* child's stdout+stderr go here (NULL: inherit) */
} ngcc_child_opts;

/* Forks; the child runs fn(arg, wfd) with wfd the write end of a pipe whose
 * read end is returned in *rfd, then _exit()s with fn's return value. */
pid_t ngcc_child_start(int (*fn)(void *arg, int wfd), void *arg,
                       const ngcc_child_opts *opts, int *rfd);
/* Waits for the child until the deadline (absolute, CLOCK_MONOTONIC seconds;
 * <= 0: forever), killing it on timeout. */
void ngcc_child_wait(pid_t pid, double deadline, ngcc_child_result *res);
/* CLOCK_MONOTONIC in seconds */
double ngcc_now(void);
/* Runs fn in a child without a pipe and waits: the simple isolated call. */
void ngcc_child_run(int (*fn)(void *arg, int wfd), void *arg,
                    const ngcc_child_opts *opts, ngcc_child_result *res);
/* Prints at most max_bytes of a child log to stderr, then a truncation note. */
void ngcc_child_show_log(const char *log_path, long max_bytes);

#endif
