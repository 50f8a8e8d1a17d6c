/* ngcc-security: memory_leaks. Each case of sec_ops.h (honest, rejected and
 * malformed inputs) runs in a child of its own with the allocation watch
 * tracking the candidate's live heap blocks: the same call LEAK_CALLS times,
 * the live bytes read after each.
 *
 * The rule (issue 21 item 4, quirk class 7 of real-submissions.md: real
 * candidates allocate megabytes per call by design and some keep a table
 * built once):
 *   - the live bytes grow with every call after the first: a leak without
 *     bound, the check fails (LEAK) naming the bytes lost per call, the case
 *     and the allocation site (function, file:line);
 *   - they grow after the first call but not with every call: a FINDING (a
 *     bounded cache, or a leak on some calls only);
 *   - bytes kept by the first call alone (a cache, a table built once) are
 *     no leak: the note names them.
 * Only the candidate's own allocations are seen (the watch wraps the
 * library's calls, not those inside OpenSSL or another shared library); a
 * case that crashes is left to the checks that judge crashes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ngcc_child.h"
#include "sec_check.h"
#include "sec_memwatch.h"
#include "sec_ops.h"

#define LEAK_CALLS 4    /* the first, and three to see growth in */
#define LEAK_SLOW_S 5.0 /* a first call slower than this: one call less */
#define LEAK_SITES 8

typedef struct {
    int calls;
    unsigned long long live[LEAK_CALLS];
    ngcc_memwatch_totals totals;
    int nsites;
    ngcc_memwatch_site sites[LEAK_SITES];
} leak_case;

typedef struct {
    const sec_job *j;
    const sec_op *op;
    int item;
    int calls; /* LEAK_CALLS, or one less for a slow operation */
    sec_memwatch *w;
    leak_case *out;
} leak_arg;

static void run_case(void *arg)
{
    leak_arg *a = arg;
    leak_case *o = a->out;
    size_t len, cap = sec_op_out_cap(a->j);
    unsigned char *buf = malloc(cap);
    int calls = a->calls;
    if (!buf)
        exit(3);
    a->w->track(1);
    for (int i = 0; i < calls; i++) {
        a->w->epoch(0); /* the harness's seeding: not tracked */
        sec_op_prepare(a->j, a->op, a->item);
        double t0 = ngcc_now();
        a->w->epoch((unsigned)i + 1);
        sec_op_call(a->j, a->op, a->item, buf, &len);
        if (i == 0 && ngcc_now() - t0 > LEAK_SLOW_S)
            calls = LEAK_CALLS - 1;
        a->w->totals(&o->totals);
        o->live[i] = o->totals.live_bytes;
        o->calls = i + 1;
    }
    /* the blocks of the later calls when it grew, else the first call's */
    o->nsites = a->w->sites(o->live[o->calls - 1] > o->live[0] ? 2 : 1, o->sites, LEAK_SITES);
    a->w->track(0);
    free(buf);
}

static int more_bytes(const void *x, const void *y)
{
    const ngcc_memwatch_site *a = x, *b = y;
    return (a->bytes < b->bytes) - (a->bytes > b->bytes);
}

/* "kem_dec (KEM_AlgorithmInstance.c:283)" and the next site, by bytes */
static void name_sites(leak_case *o, char *out, size_t cap)
{
    qsort(o->sites, (size_t)o->nsites, sizeof o->sites[0], more_bytes);
    out[0] = 0;
    for (int s = 0; s < o->nsites && s < 2; s++) {
        char name[300];
        size_t l = strlen(out);
        sec_memwatch_site_name(o->sites[s].site, name, sizeof name);
        snprintf(out + l, cap - l, "%s%s (%llu bytes in %llu blocks)", s ? "; " : "", name, o->sites[s].bytes,
                 o->sites[s].blocks);
    }
    if (o->nsites > 2) {
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "; %d more sites", o->nsites - 2);
    }
}

/* "+32, +32, +32" */
static void name_growth(const leak_case *o, char *out, size_t cap)
{
    out[0] = 0;
    for (int i = 1; i < o->calls; i++) {
        size_t l = strlen(out);
        long long d = (long long)(o->live[i] - o->live[i - 1]);
        snprintf(out + l, cap - l, "%s%+lld", i > 1 ? ", " : "", d);
    }
}

void sec_memory_leaks(sec_job *j)
{
    sec_memwatch w;
    const sec_op *ops;
    int nops = sec_ops_of(j, &ops), item = sec_ops_item(j);
    int sigkem = sec_call_instance()->type == NGCC_TYPE_SIG || sec_call_instance()->type == NGCC_TYPE_KEM;
    if (sec_memwatch_open(&w) != 0 || (sigkem && item < 0)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "%s",
                 item < 0 && sigkem ? "no signature/ciphertext was made to call verify/dec on"
                                    : "the library has no allocation watch (ngcc_memwatch_*)");
        return;
    }
    leak_case *o = mmap(NULL, sizeof *o, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (o == MAP_FAILED) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map shared memory for the case children");
        return;
    }
    unsigned long long allocs = 0, untracked = 0;
    int calls = 0;
    char once[SEC_DETAIL] = "", unjudged[SEC_DETAIL] = "", skipped[200] = "";
    double start = ngcc_now();
    for (int c = 0; c < nops; c++) {
        char ended[300], sites[400], growth[120];
        double left = SEC_OPS_BUDGET_S - (ngcc_now() - start), t = sec_op_seconds(&ops[c]);
        int ncalls = t * LEAK_CALLS <= left ? LEAK_CALLS : LEAK_CALLS - 1;
        if (t * ncalls > left) {
            size_t l = strlen(skipped);
            snprintf(skipped + l, sizeof skipped - l, "%s%s (%.0f s per call)",
                     l ? ", "
                       : "; not repeated (over the "
                         "check's budget): ",
                     ops[c].what, t);
            continue;
        }
        memset(o, 0, sizeof *o);
        leak_arg a = {j, &ops[c], item, ncalls, &w, o};
        sec_memwatch_fork(j, run_case, &a, 0, ended, sizeof ended);
        if (ended[0]) {
            if (!unjudged[0])
                snprintf(unjudged, sizeof unjudged, "; %s %s (left to the checks that judge crashes)", ops[c].what,
                         ended);
            continue;
        }
        j->res->tried++;
        calls += o->calls;
        allocs += o->totals.allocs;
        untracked += o->totals.untracked;
        int grew_every = o->calls > 1, n = o->calls;
        for (int i = 1; i < n; i++)
            grew_every &= o->live[i] > o->live[i - 1];
        int named = grew_every || o->live[n - 1] > o->live[0] || (o->live[0] > 0 && !once[0]);
        if (named) /* the symbolizer runs only for what is reported */
            name_sites(o, sites, sizeof sites);
        name_growth(o, growth, sizeof growth);
        if (grew_every) {
            sec_fail(j,
                     "memory leak: %s loses %llu bytes per call (live bytes %s over %d calls after the first), "
                     "allocated at %s",
                     ops[c].what, (o->live[n - 1] - o->live[0]) / (unsigned long long)(n - 1), growth, n - 1, sites);
        } else if (o->live[n - 1] > o->live[0]) {
            sec_finding(j,
                        "%s kept %llu more bytes over %d calls after the first, not in every call (%s: a bounded "
                        "cache, or a leak on some calls), allocated at %s",
                        ops[c].what, o->live[n - 1] - o->live[0], n - 1, growth, sites);
        } else if (o->live[0] > 0 && !once[0]) {
            snprintf(once, sizeof once,
                     "; one-time: %s kept %llu bytes after its first call, not grown by %d more calls (a table "
                     "or cache, not a leak), allocated at %.200s",
                     ops[c].what, o->live[0], n - 1, sites);
        }
    }
    munmap(o, sizeof *o);
    if (j->res->tried == 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no case could be judged%s%s", unjudged, skipped);
        return;
    }
    char what[200];
    if (allocs == 0)
        snprintf(what, sizeof what, "no allocation by the candidate's code in %d calls", calls);
    else
        snprintf(what, sizeof what, "%llu allocations in %d calls, none lost%s", allocs, calls,
                 untracked ? " (some blocks untracked: the watch's table was full)" : "");
    snprintf(j->res->note, sizeof j->res->note, "%lu cases: %s%s%s%s", j->res->tried, what, once, unjudged, skipped);
}
