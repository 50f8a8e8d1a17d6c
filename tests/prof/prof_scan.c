#define _GNU_SOURCE
#include "prof_scan.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const sym_names[NGCC_PROF_NSYM] = NGCC_PROF_SYM_NAMES;

/* what one object says about the five symbols */
typedef struct {
    int def_global[NGCC_PROF_NSYM], def_local[NGCC_PROF_NSYM], undef[NGCC_PROF_NSYM], reloc[NGCC_PROF_NSYM];
    int glue, lto;
    char other_global_fn[128]; /* first global function that is not an ICCS symbol */
} obj_info;

static int sym_index(const char *name, size_t len)
{
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        if (strlen(sym_names[s]) == len && strncmp(name, sym_names[s], len) == 0)
            return s;
    return -1;
}

/* runs argv, returns its stdout (caller frees) or NULL */
static char *run_capture(char *const argv[], int *status)
{
    int p[2];
    if (pipe(p))
        return NULL;
    pid_t pid = fork();
    if (pid < 0)
        return NULL;
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    ssize_t n;
    while (buf && (n = read(p[0], buf + used, cap - used - 1)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        used += (size_t)n;
        if (cap - used < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    close(p[0]);
    waitpid(pid, status, 0);
    if (buf)
        buf[used] = 0;
    return buf;
}

/* symbol table line: "<value> <7 flag chars> <section>\t<size> [.hidden ]<name>" */
static void parse_symbol(const char *l, obj_info *o)
{
    const char *sp = strchr(l, ' ');
    if (!sp || strlen(sp) < 9)
        return;
    const char *flags = sp + 1;
    const char *sect = flags + 8;
    const char *tab = strchr(sect, '\t');
    if (!tab)
        return;
    const char *name = strchr(tab + 1, ' ');
    if (!name)
        return;
    name++;
    static const char *const vis[] = {".hidden ", ".protected ", ".internal "};
    for (int v = 0; v < 3; v++)
        if (strncmp(name, vis[v], strlen(vis[v])) == 0)
            name += strlen(vis[v]);
    size_t nl = strcspn(name, " \r\n");
    int undef = strncmp(sect, "*UND*", 5) == 0;
    int global = flags[0] == 'g' || flags[1] == 'w' || flags[0] == 'u' || flags[0] == '!';
    int func = flags[6] == 'F';
    if (strncmp(name, "__wrap_", 7) == 0 || (nl == 13 && strncmp(name, "ngcc_meta_get", 13) == 0))
        o->glue = 1;
    if (strncmp(name, "__gnu_lto_", 10) == 0)
        o->lto = 1;
    /* a local copy may carry a compiler clone suffix: sm3hash.constprop.0 */
    int s = sym_index(name, global || undef ? nl : strcspn(name, ". \r\n"));
    if (s >= 0) {
        if (undef)
            o->undef[s] = 1;
        else if (global)
            o->def_global[s] = 1;
        else
            o->def_local[s] = 1;
    } else if (!undef && global && func && !o->other_global_fn[0]) {
        snprintf(o->other_global_fn, sizeof o->other_global_fn, "%.*s", (int)nl, name);
    }
}

/* relocation line: "<offset> <type> <symbol>[+-0x...]" */
static void parse_reloc(const char *l, obj_info *o)
{
    char type[64], value[256];
    if (sscanf(l, "%*s %63s %255s", type, value) != 2 || strncmp(type, "R_", 2) != 0)
        return;
    size_t n = strcspn(value, "+-");
    const char *dot = memchr(value, '.', n);
    if (dot && dot != value && strncmp(dot, ".localalias", 11) == 0)
        n = (size_t)(dot - value);
    int s = sym_index(value, n);
    if (s >= 0)
        o->reloc[s] = 1;
}

static void parse_objdump(char *text, obj_info *o)
{
    enum { NONE, SYMS, RELOCS } mode = NONE;
    if (strstr(text, ".gnu.lto_"))
        o->lto = 1;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        if (strncmp(l, "SYMBOL TABLE:", 13) == 0)
            mode = SYMS;
        else if (strncmp(l, "RELOCATION RECORDS FOR", 22) == 0)
            mode = RELOCS;
        else if (mode == SYMS)
            parse_symbol(l, o);
        else if (mode == RELOCS)
            parse_reloc(l, o);
    }
}

static void add_reason(prof_scan_result *r, const char *fmt, ...)
{
    r->may_miss = 1;
    if (r->nreasons >= PROF_SCAN_MAX_REASONS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reasons[r->nreasons++], sizeof r->reasons[0], fmt, ap);
    va_end(ap);
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* the verdict on one (non-glue) object */
static void judge_object(const char *path, const obj_info *o, prof_scan_result *r)
{
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        r->used[s] |= o->undef[s];
        r->defined[s] |= o->def_global[s] | o->def_local[s];
        if (o->def_global[s] && o->reloc[s]) {
            r->missable[s] = 1;
            add_reason(r, "%s defines %s and calls it inside the same object: those calls bypass --wrap", base(path),
                       sym_names[s]);
        } else if (o->def_global[s] && o->other_global_fn[0]) {
            r->missable[s] = 1;
            add_reason(r,
                       "%s defines %s next to other code (%s): calls inlined or bound inside that "
                       "object are not seen",
                       base(path), sym_names[s], o->other_global_fn);
        } else if (o->def_local[s]) {
            r->missable[s] = 1;
            add_reason(r, "%s has a static %s of its own: its calls are never counted", base(path), sym_names[s]);
        }
    }
    if (o->lto)
        r->lto = 1;
}

int prof_scan_objects(const char *objdump, char *const *objects, int n, const char *flags, prof_scan_result *r)
{
    memset(r, 0, sizeof *r);
    if (flags && strstr(flags, "-flto"))
        r->lto = 1;
    for (int i = 0; i < n; i++) {
        char *argv[] = {(char *)objdump, "-rthw", objects[i], NULL};
        int status = 0;
        char *text = run_capture(argv, &status);
        if (!text || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            snprintf(r->error, sizeof r->error,
                     "'%s -rthw %s' failed (exit %d); install binutils or pass "
                     "--objdump",
                     objdump, objects[i], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            free(text);
            break;
        }
        obj_info o;
        memset(&o, 0, sizeof o);
        parse_objdump(text, &o);
        free(text);
        if (o.glue)
            continue;
        r->objects++;
        judge_object(objects[i], &o, r);
    }
    if (!r->error[0] && r->objects == 0)
        snprintf(r->error, sizeof r->error, "no object files of the instance found to scan");
    if (r->lto) {
        for (int s = 0; s < NGCC_PROF_NSYM; s++)
            r->missable[s] = 1;
        add_reason(r, "LTO build: --wrap is applied before link-time optimisation can inline or bind calls");
    }
    if (r->error[0]) {
        add_reason(r, "object scan failed: %s", r->error);
        return -1;
    }
    return 0;
}

/* ---- collecting *.o files (nftw has no user pointer: file-scope list) ---- */
static char **coll;
static int ncoll, capcoll;

static int collect_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    size_t l = strlen(path);
    if (flag != FTW_F || l < 3 || strcmp(path + l - 2, ".o") != 0)
        return 0;
    if (ncoll == capcoll) {
        capcoll = capcoll ? 2 * capcoll : 32;
        char **nc = realloc(coll, (size_t)capcoll * sizeof *coll);
        if (!nc)
            return -1;
        coll = nc;
    }
    coll[ncoll++] = strdup(path);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int prof_scan_collect(const char *dir, char ***objects)
{
    coll = NULL;
    ncoll = capcoll = 0;
    if (nftw(dir, collect_one, 16, FTW_PHYS) != 0) {
        prof_scan_free(coll, ncoll);
        *objects = NULL;
        return -1;
    }
    if (ncoll)
        qsort(coll, (size_t)ncoll, sizeof *coll, cmp_str);
    *objects = coll;
    return ncoll;
}

void prof_scan_free(char **objects, int n)
{
    for (int i = 0; i < n; i++)
        free(objects[i]);
    free(objects);
}
