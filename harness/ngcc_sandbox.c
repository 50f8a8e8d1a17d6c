#define _GNU_SOURCE
#include "ngcc_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ngcc_util.h"

#if defined(SYS_landlock_create_ruleset) && __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#define NGCC_HAVE_LANDLOCK 1
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 (Linux 6.2) */
#endif
#endif

int ngcc_sandbox_scratch(char *out, size_t len)
{
    const char *dir = getenv("NGCC_SCRATCH_DIR");
    char cwd[PATH_MAX];
    if (!dir || !*dir) {
        if (!getcwd(cwd, sizeof cwd))
            return -1;
        snprintf(out, len, "%s/ngcc-scratch", cwd);
    } else if (dir[0] != '/' && getcwd(cwd, sizeof cwd)) {
        snprintf(out, len, "%s/%s", cwd, dir);
    } else {
        snprintf(out, len, "%s", dir);
    }
    if (ngcc_mkdirs(out, 1)) {
        fprintf(stderr,
                "ngcc: cannot create the scratch folder %s: %s; set NGCC_SCRATCH_DIR to a writable "
                "folder inside the build tree\n",
                out, strerror(errno));
        return -1;
    }
    return 0;
}

static void appendf(char *note, size_t len, const char *fmt, ...)
{
    size_t used = strlen(note);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, len - used, fmt, ap);
    va_end(ap);
}

/* a fresh network namespace holds only a loopback interface that is down */
static void isolate_network(char *note, size_t len)
{
    if (geteuid() != 0) {
        appendf(note, len, "; network shared (not root: no network namespace)");
        return;
    }
    if (unshare(CLONE_NEWNET) != 0)
        appendf(note, len, "; network shared (unshare: %s)", strerror(errno));
    else
        appendf(note, len, "; network none (own namespace)");
}

#ifdef NGCC_HAVE_LANDLOCK
static int allow_beneath(int ruleset, const char *path, unsigned long long rights)
{
    struct landlock_path_beneath_attr pb = {.allowed_access = rights};
    pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
    if (pb.parent_fd < 0)
        return errno == ENOENT ? 0 : -1; /* nothing to allow there */
    int rc = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
    close(pb.parent_fd);
    return rc;
}

static int extra_writable(int ruleset, unsigned long long rights)
{
    const char *env = getenv("NGCC_SANDBOX_WRITABLE");
    if (!env || !*env)
        return 0;
    char *list = strdup(env), *save = NULL;
    int rc = 0;
    for (char *p = strtok_r(list, ":", &save); p && rc == 0; p = strtok_r(NULL, ":", &save))
        rc = allow_beneath(ruleset, p, rights);
    free(list);
    return rc;
}
#endif

/* Landlock: every write-like access is denied outside the scratch folder
 * (reads stay allowed: the instance may read its own data files). */
static void isolate_files(const ngcc_sandbox_spec *s, char *note, size_t len)
{
#ifdef NGCC_HAVE_LANDLOCK
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        appendf(note, len, "; files: cwd only (Landlock unavailable: %s)", strerror(errno));
        return;
    }
    unsigned long long w = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                           LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |
                           LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                           LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2)
        w |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        w |= LANDLOCK_ACCESS_FS_TRUNCATE;
    struct landlock_ruleset_attr attr = {.handled_access_fs = w};
    int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    int ok =
        rs >= 0 && allow_beneath(rs, s->scratch, w) == 0 &&
        allow_beneath(rs, "/dev", LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0)) == 0 &&
        extra_writable(rs, w) == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
        syscall(SYS_landlock_restrict_self, rs, 0) == 0;
    int err = errno;
    if (rs >= 0)
        close(rs);
    if (ok)
        appendf(note, len, "; files: writes only in the scratch folder (Landlock ABI %ld)", abi);
    else
        appendf(note, len, "; files: cwd only (Landlock rules failed: %s)", strerror(err));
#else
    (void)s;
    appendf(note, len, "; files: cwd only (built without Landlock)");
#endif
}

/* current address space of this process (the child is a copy of the harness) */
static unsigned long long mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    unsigned long long kb = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb << 10;
}

static void limit_memory(const ngcc_sandbox_spec *s, char *note, size_t len, unsigned long *applied)
{
    *applied = 0;
    if (!s->mem_limit_mb) {
        appendf(note, len, "; memory unlimited");
        return;
    }
    const char *pre = getenv("LD_PRELOAD");
    if (pre && strstr(pre, "vgpreload")) {
        appendf(note, len, "; memory unlimited (under valgrind)");
        return;
    }
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = (rlim_t)(mapped_bytes() + ((unsigned long long)s->mem_limit_mb << 20));
    if (setrlimit(RLIMIT_AS, &rl) == 0) {
        *applied = s->mem_limit_mb;
        appendf(note, len, "; memory +%lu MB (RLIMIT_AS)", s->mem_limit_mb);
    } else {
        appendf(note, len, "; memory unlimited (setrlimit: %s)", strerror(errno));
    }
}

void ngcc_sandbox_enter(const ngcc_sandbox_spec *s, char *note, size_t len, unsigned long *mem_applied_mb)
{
    snprintf(note, len, "cwd %s", s->scratch);
    if (chdir(s->scratch) != 0)
        appendf(note, len, " (chdir failed: %s)", strerror(errno));
    setenv("TMPDIR", s->scratch, 1);
    const char *mode = getenv("NGCC_SANDBOX");
    if (mode && strcmp(mode, "off") == 0) {
        appendf(note, len, "; network and files NOT isolated (NGCC_SANDBOX=off)");
    } else {
        isolate_network(note, len);
        isolate_files(s, note, len);
    }
    if (s->log_limit_bytes > 0) {
        /* past the cap, writes fail with EFBIG instead of killing the child */
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit fl = {(rlim_t)s->log_limit_bytes, (rlim_t)s->log_limit_bytes};
        setrlimit(RLIMIT_FSIZE, &fl);
    }
    limit_memory(s, note, len, mem_applied_mb);
}
