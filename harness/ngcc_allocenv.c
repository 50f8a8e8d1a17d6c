#include "ngcc_allocenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the variables glibc's malloc reads at start-up, and what each costs */
static const struct {
    const char *name;
    const char *cost;
} settings[] = {
    {"MALLOC_PERTURB_", "every block is filled on malloc and on free"},
    {"MALLOC_CHECK_", "every call is checked"},
    {"MALLOC_MMAP_THRESHOLD_", "the mmap threshold stops adapting: large blocks are mapped and faulted in anew"},
    {"MALLOC_TRIM_THRESHOLD_", "the mmap threshold stops adapting: large blocks are mapped and faulted in anew"},
    {"MALLOC_TOP_PAD_", "the mmap threshold stops adapting: large blocks are mapped and faulted in anew"},
    {"MALLOC_MMAP_MAX_", "the mmap threshold stops adapting"},
};

void ngcc_allocenv_warn(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        const char *v = getenv(settings[i].name);
        if (v && *v)
            fprintf(stderr,
                    "ngcc: warning: %s=%s is set: the instance runs with glibc malloc tuned (%s); its operation "
                    "times are not those of a plain process\n",
                    settings[i].name, v, settings[i].cost);
    }
    const char *t = getenv("GLIBC_TUNABLES");
    if (t && strstr(t, "glibc.malloc."))
        fprintf(stderr,
                "ngcc: warning: GLIBC_TUNABLES=%s tunes glibc malloc; the instance's operation times are not "
                "those of a plain process\n",
                t);
}
