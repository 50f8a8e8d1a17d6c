/* ngcc-prof: what link-time wrapping can and cannot see, from the object
 * files of a prof build (objdump -rthw of each object).
 *
 * -Wl,--wrap=X redirects only undefined references to X, i.e. calls that
 * cross object files. Calls escape the wrapper when
 *   - an object defines X and also calls it (relocation against X or its
 *     .localalias inside the defining object),
 *   - an object defines X next to other global functions (a call there may be
 *     inlined or bound without any relocation left to see),
 *   - an object holds a static (local) X of its own,
 *   - the build uses LTO (-flto, .gnu.lto_ sections): wrapping happens before
 *     link-time optimisation can inline across files.
 * Glue objects (those defining __wrap_* or ngcc_meta_get) are ignored. */
#ifndef PROF_SCAN_H
#define PROF_SCAN_H

#include "ngcc_control.h"

#define PROF_SCAN_MAX_REASONS 8

typedef struct {
    int objects;                  /* objects scanned (glue excluded) */
    int used[NGCC_PROF_NSYM];     /* referenced across objects: the calls go through __wrap_ */
    int defined[NGCC_PROF_NSYM];  /* defined by some object of the library */
    int missable[NGCC_PROF_NSYM]; /* some calls may bypass the wrapper */
    int lto;
    int may_miss;
    int nreasons;
    char reasons[PROF_SCAN_MAX_REASONS][320];
    char error[320]; /* non-empty: the scan itself failed */
} prof_scan_result;

/* Scans the given objects; flags = the compile flags of the build (for
 * -flto). A scan that cannot run sets error and may_miss (nothing verified).
 * Returns 0, or -1 on a scan error. */
int prof_scan_objects(const char *objdump, char *const *objects, int n, const char *flags, prof_scan_result *r);

/* Collects the *.o files below dir (sorted); caller frees with
 * prof_scan_free. Returns the count, or -1 if dir cannot be read. */
int prof_scan_collect(const char *dir, char ***objects);
void prof_scan_free(char **objects, int n);

#endif
