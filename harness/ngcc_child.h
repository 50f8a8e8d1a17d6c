/* ngcc-ctest: runs untrusted submission code in a child process, so a crash,
 * hang or memory blow-up becomes a verdict for that case and nothing else.
 *
 * The child is sandboxed before fn runs:
 *  - working directory: the scratch folder $NGCC_SCRATCH_DIR (each CTest test
 *    of an instance gets its own inside the build tree; default
 *    ./ngcc-scratch), the only folder it may write to (Landlock, when the
 *    kernel has it; /dev and the folders in $NGCC_SANDBOX_WRITABLE, colon-
 *    separated, are also allowed); TMPDIR points there too;
 *  - no network: a fresh network namespace (only a down loopback) when the
 *    harness runs as root; otherwise skipped, and result.sandbox says so;
 *  - memory: RLIMIT_AS = what the harness already mapped + mem_limit_mb (so
 *    an ASan harness's shadow does not count); not applied under valgrind;
 *  - output: stdout+stderr go to a log file capped at $NGCC_LOG_LIMIT_MB
 *    (default 16) MiB; ngcc_child_show_log prints its head and a count.
 * NGCC_SANDBOX=off in the environment turns the file and network isolation
 * off (for debugging a submission; the selftests use it to prove the
 * isolation is what stops a hostile fixture).
 *
 * MEMLIMIT rule: result.memlimit is 1 iff a memory limit was applied AND the
 * child showed an allocation failure: a malloc/calloc/realloc/aligned_alloc/
 * posix_memalign/mmap of the instance library that failed (the library's
 * allocation wrappers report it), an allocation of the harness in the child
 * that failed (ngcc_child_note_alloc_failure), or "std::bad_alloc" / "out of
 * memory" / "Cannot allocate memory" in the captured output. A driver turns a
 * non-PASS verdict into MEMLIMIT when memlimit is set: the failure was caused
 * by the limit, whatever it looked like afterwards (crash, error code, wrong
 * output). A failed allocation that the instance survived correctly changes
 * nothing. */
#ifndef NGCC_CHILD_H
#define NGCC_CHILD_H
#include <sys/types.h>

typedef enum { NGCC_CHILD_EXITED, NGCC_CHILD_SIGNALED, NGCC_CHILD_TIMEDOUT } ngcc_child_end;

typedef struct {
    ngcc_child_end end;
    int code; /* exit code, or signal number */
    double seconds;
    /* evidence collected by ngcc_child_wait (see the MEMLIMIT rule above) */
    unsigned long alloc_failures;        /* failed allocations reported from inside the child */
    unsigned long long alloc_fail_bytes; /* the largest failed request */
    int oom_text;                        /* the captured output names an allocation failure */
    int memlimit;                        /* limit applied and an allocation failed */
    unsigned long mem_limit_mb;          /* the limit the child ran under (0: none) */
    char sandbox[256];                   /* one line: the isolation the child actually got */
} ngcc_child_result;

typedef struct {
    double timeout_s;           /* <= 0: none */
    unsigned long mem_limit_mb; /* 0: none (RLIMIT_AS on top of the harness's own mappings) */
    const char *log_path;       /* child's stdout+stderr go here; NULL: <scratch>/child.log,
                                   shown truncated by ngcc_child_wait */
} ngcc_child_opts;

/* Forks; the child runs fn(arg, wfd) with wfd the write end of a pipe whose
 * read end is returned in *rfd, then _exit()s with fn's return value. */
pid_t ngcc_child_start(int (*fn)(void *arg, int wfd), void *arg, const ngcc_child_opts *opts, int *rfd);
/* Waits for the child until the deadline (absolute, CLOCK_MONOTONIC seconds;
 * <= 0: forever), killing it on timeout, then collects the evidence above. */
void ngcc_child_wait(pid_t pid, double deadline, ngcc_child_result *res);
/* How ngcc_child_read_lines ended. */
typedef enum { NGCC_LINES_EOF = 0, NGCC_LINES_TIMEOUT = 1, NGCC_LINES_STOPPED = 2 } ngcc_lines_end;
/* Called per line of the child's stream, NUL-terminated without its '\n';
 * a nonzero return stops the reading (the rest of the stream is dropped). */
typedef int (*ngcc_line_fn)(char *line, size_t len, void *ctx);
/* Reads fd line by line until EOF, the deadline (absolute ngcc_now() seconds;
 * <= 0: none) or on_line asking to stop. A last line without '\n' is not
 * given (the child died mid-line). Does not close fd. */
ngcc_lines_end ngcc_child_read_lines(int fd, double deadline, ngcc_line_fn on_line, void *ctx);
/* The same with a deadline on_line may move (re-read before every wait):
 * a driver that decides mid-run to allow more time (ngcc-kat's cap). */
ngcc_lines_end ngcc_child_read_lines_moving(int fd, const double *deadline, ngcc_line_fn on_line, void *ctx);
/* CLOCK_MONOTONIC in seconds */
double ngcc_now(void);
/* Runs fn in a child without a pipe and waits: the simple isolated call. */
void ngcc_child_run(int (*fn)(void *arg, int wfd), void *arg, const ngcc_child_opts *opts, ngcc_child_result *res);
/* Prints at most max_bytes of a child log to stderr, then how many bytes and
 * lines were left out and where the whole log is. */
void ngcc_child_show_log(const char *log_path, long max_bytes);
/* In the child: reports an allocation of the harness itself that failed
 * (counts as MEMLIMIT evidence). */
void ngcc_child_note_alloc_failure(const char *what, unsigned long long bytes);
/* One line for a record: "MEMLIMIT: malloc of N bytes failed under the M MB
 * limit (k failed allocations)"; empty when res->memlimit is 0. */
void ngcc_child_memlimit_detail(const ngcc_child_result *res, char *out, unsigned long len);

#endif
