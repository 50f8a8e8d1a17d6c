#define _GNU_SOURCE
#include "sec_memwatch.h"

#include "sec_child.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sec_memerr.h"

int sec_memwatch_open(sec_memwatch *w)
{
    ngcc_instance *in = sec_call_instance();
    w->track = (ngcc_memwatch_track_fn)ngcc_instance_sym(in, "ngcc_memwatch_track");
    w->epoch = (ngcc_memwatch_epoch_fn)ngcc_instance_sym(in, "ngcc_memwatch_epoch");
    w->totals = (ngcc_memwatch_totals_fn)ngcc_instance_sym(in, "ngcc_memwatch_totals_read");
    w->sites = (ngcc_memwatch_sites_fn)ngcc_instance_sym(in, "ngcc_memwatch_sites");
    w->fail = (ngcc_memwatch_fail_fn)ngcc_instance_sym(in, "ngcc_memwatch_fail");
    return w->track && w->epoch && w->totals && w->sites && w->fail ? 0 : -1;
}

/* One symbolizer run: "function\nfile:line[:column]\n" for the offset.
 * llvm-symbolizer first: GNU addr2line 2.40 names the wrong file for code
 * #included from another .c file under DWARF 5 (the including file, with
 * the included file's line). 0 if it answered. */
static int symbolize(int llvm, const char *lib, unsigned long off, char *fn, size_t fn_cap, char *loc, size_t loc_cap)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    char addr[32], obj[1100];
    snprintf(addr, sizeof addr, "0x%lx", off);
    snprintf(obj, sizeof obj, "--obj=%s", lib);
    char *llvm_argv[] = {"llvm-symbolizer", obj, addr, NULL};
    char *gnu_argv[] = {"addr2line", "-f", "-e", (char *)lib, addr, NULL};
    char *envp[] = {"PATH=/usr/bin:/bin", NULL}; /* no LD_PRELOAD of the ASan runtime */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, llvm ? llvm_argv[0] : gnu_argv[0], &fa, NULL, llvm ? llvm_argv : gnu_argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    char text[1024];
    size_t got = 0;
    ssize_t r;
    while (rc == 0 && got + 1 < sizeof text && (r = read(pipefd[0], text + got, sizeof text - 1 - got)) > 0)
        got += (size_t)r;
    text[got] = 0;
    close(pipefd[0]);
    int st = 1;
    if (rc == 0)
        waitpid(pid, &st, 0);
    char *nl = strchr(text, '\n');
    if (rc != 0 || st != 0 || !nl || text[0] == '?')
        return -1;
    *nl = 0;
    snprintf(fn, fn_cap, "%s", text);
    char *file = nl + 1, *end = strchr(file, '\n'); /* folder names may hold spaces */
    if (end)
        *end = 0;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    char *colon = strchr(base, ':'), *col = colon ? strchr(colon + 1, ':') : NULL;
    if (col)
        *col = 0; /* llvm's column */
    snprintf(loc, loc_cap, "%s", base);
    return loc[0] == '?' ? -1 : 0;
}

static void name_site(const void *site, char *out, size_t cap);

void sec_memwatch_site_name(const void *site, char *out, size_t cap)
{
    static struct {
        const void *site;
        char name[300];
    } cache[16];
    static int cached;
    for (int i = 0; i < cached; i++)
        if (cache[i].site == site) {
            snprintf(out, cap, "%s", cache[i].name);
            return;
        }
    name_site(site, out, cap);
    if (cached < 16) {
        cache[cached].site = site;
        snprintf(cache[cached++].name, sizeof cache[0].name, "%s", out);
    }
}

/* the name of a site, from the symbolizer */
static void name_site(const void *site, char *out, size_t cap)
{
    Dl_info info;
    char fn[256], loc[256];
    if (!dladdr(site, &info) || !info.dli_fname) {
        snprintf(out, cap, "%p", site);
        return;
    }
    /* the return address is after the call: its line is the byte before */
    unsigned long off = (unsigned long)((const char *)site - (const char *)info.dli_fbase) - 1;
    const char *lib = strrchr(info.dli_fname, '/');
    if (symbolize(1, info.dli_fname, off, fn, sizeof fn, loc, sizeof loc) == 0 ||
        symbolize(0, info.dli_fname, off, fn, sizeof fn, loc, sizeof loc) == 0)
        snprintf(out, cap, "%s (%s)", fn, loc);
    else if (info.dli_sname)
        snprintf(out, cap, "%s+0x%lx", info.dli_sname,
                 (unsigned long)((const char *)site - (const char *)info.dli_saddr));
    else
        snprintf(out, cap, "%s+0x%lx", lib ? lib + 1 : info.dli_fname, off + 1);
}

void sec_memwatch_fork(const sec_job *j, void (*fn)(void *arg), void *arg, unsigned timeout_s, char *ended, size_t cap)
{
    volatile int *done = mmap(NULL, sizeof *done, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ended[0] = 0;
    if (done == MAP_FAILED) {
        snprintf(ended, cap, "could not be tried (no shared memory)");
        return;
    }
    *done = 0;
    int out = memfd_create("ngcc-memwatch-case", 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        if (timeout_s)
            alarm(timeout_s);
        fn(arg);
        *done = 1;
        fflush(NULL);
        _exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        snprintf(ended, cap, "could not be tried (no child process)");
    else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM && timeout_s)
        snprintf(ended, cap, "did not return within %u s", timeout_s);
    else if (WIFSIGNALED(st))
        snprintf(ended, cap, "crashed (%s, signal %d)", sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?",
                 WTERMSIG(st));
    else if (!*done)
        snprintf(ended, cap, "ended the process (exit code %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    char *text = sec_child_take_output(out);
    sec_memerr me;
    if (ended[0] && j->opt->sanitizer && text && sec_memerr_sanitizer_text(text, &me) == 1) {
        snprintf(ended, cap, "%.*s", (int)cap - 1, me.summary);
        sec_memerr_free(&me);
    }
    free(text);
    if (out >= 0)
        close(out);
    munmap((void *)done, sizeof *done);
}
