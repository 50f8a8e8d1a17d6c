/* Coverage builds only (cmake/NgccCoverage.cmake): children of the harness
 * end with _exit(), which skips gcov's exit-time dump, so the code that runs
 * only in children (the loader, the replay, the instance library itself)
 * would show as never executed. Linked with --wrap=_exit, this dumps the
 * executable's counters first. An instance library carries its own hidden
 * copy of libgcov (its version script exports only the API), which writes
 * its counters from its destructors: unloading it runs them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

extern void __gcov_dump(void);
extern void __real__exit(int status) __attribute__((noreturn));

#define MAX_LIBS 16

typedef struct {
    int n;
    char names[MAX_LIBS][512];
} lib_list;

/* instance libraries are named libngcc_<variant>.so */
static int collect(struct dl_phdr_info *info, size_t size, void *data)
{
    lib_list *l = data;
    (void)size;
    if (info->dlpi_name && strstr(info->dlpi_name, "/libngcc_") && l->n < MAX_LIBS)
        snprintf(l->names[l->n++], sizeof l->names[0], "%s", info->dlpi_name);
    return 0;
}

static void unload_instances(void)
{
    lib_list l = {0};
    dl_iterate_phdr(collect, &l);
    for (int i = 0; i < l.n; i++)
        for (int k = 0; k < 8; k++) { /* drop every reference, at most a few */
            void *h = dlopen(l.names[i], RTLD_LAZY | RTLD_NOLOAD);
            if (!h)
                break;
            dlclose(h);
            dlclose(h);
        }
}

void __wrap__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status)
{
    __gcov_dump();
    unload_instances();
    __real__exit(status);
}
