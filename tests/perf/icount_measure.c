#define _GNU_SOURCE
#include "icount_measure.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef NGCC_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#else /* no valgrind headers: only the hardware counter counts */
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(s) (void)(s)
#endif

#include "ngcc_counter.h"
#include "ngcc_util.h"
#include "ngcc_verdict.h"
#include "perf_ops.h"

static int hw_open(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static int hw_read(int fd, long long *v)
{
    uint64_t x = 0;
    if (read(fd, &x, sizeof x) != (ssize_t)sizeof x)
        return -1;
    *v = (long long)x;
    return 0;
}

int icount_hw_probe(char *why, size_t len)
{
    int fd = hw_open();
    if (fd < 0) {
        snprintf(why, len, "perf_event_open(PERF_COUNT_HW_INSTRUCTIONS, user mode): %s", strerror(errno));
        return -1;
    }
    /* it must also count: some hypervisors open the event and count nothing */
    volatile unsigned s = 0;
    long long v = 0;
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    for (unsigned i = 0; i < 10000; i++)
        s += i;
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    int rc = hw_read(fd, &v);
    close(fd);
    if (rc || v < 10000) {
        snprintf(why, len,
                 "the hardware instruction counter opened but counted %lld instructions of a 10000-step "
                 "loop",
                 v);
        return -1;
    }
    return 0;
}

/* the counted call on record r; its count (method perf) in *count */
static int counted_call(perf_ctx *c, int r, icount_method method, int fd, long long *count)
{
    int rc;
    if (method == ICOUNT_PERF) {
        ioctl(fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        rc = perf_op_run(c, r);
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        if (hw_read(fd, count))
            *count = -1;
    } else {
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;
        rc = perf_op_run(c, r);
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT("ngcc-icount");
        *count = -1;
    }
    return rc;
}

int icount_count_main(const char *lib, const char *op, int records, icount_method method)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    ngcc_instance in;
    char err[600];
    printf("#PHASE loading the instance library\n");
    if (ngcc_instance_open(lib, &in, err, sizeof err)) {
        printf("#ERROR LOADFAIL %s\n", err);
        return 1;
    }
    ull hash_bytes = 0;
    if (perf_op_parse_inst(op, &in, &hash_bytes) < 0) {
        printf("#ERROR ERROR --op %s is not an operation of a %s instance (%s)\n", op, in.meta->type,
               perf_op_list(&in));
        return 1;
    }
    printf("#META flagset %s\n#META compiler %s\n#META flags %s\n#META algorithm_instance %s\n", in.meta->flagset,
           in.meta->compiler, in.meta->flags, in.meta->algorithm_instance);
    int fd = -1;
    if (method == ICOUNT_PERF && (fd = hw_open()) < 0) {
        printf("#ERROR ERROR perf_event_open(PERF_COUNT_HW_INSTRUCTIONS) failed in the counted process: %s\n",
               strerror(errno));
        return 1;
    }
    printf("#PHASE preparing the inputs of %d KAT records\n", records);
    perf_ctx c;
    int verdict;
    if (perf_ctx_setup_op(&c, &in, op, records, &verdict, err, sizeof err)) {
        printf("#ERROR %s %s\n", ngcc_verdict_name(verdict), err);
        return 1;
    }
    /* one uncounted call: one-time initialisation is not the operation's */
    printf("#PHASE one uncounted call on record 0\n");
    int bad = perf_op_prepare(&c, 0, err, sizeof err);
    if (!bad)
        bad = perf_op_check(&c, 0, perf_op_run(&c, 0), err, sizeof err);
    for (int r = 0; r < c.records && !bad; r++) {
        printf("#PHASE counting record %d\n", r);
        if ((bad = perf_op_prepare(&c, r, err, sizeof err)) != 0)
            break;
        long long n = -1;
        uint64_t w0 = ngcc_wall_ns();
        int rc = counted_call(&c, r, method, fd, &n);
        uint64_t ns = ngcc_wall_ns() - w0;
        if ((bad = perf_op_check(&c, r, rc, err, sizeof err)) != 0)
            break;
        printf("#COUNT %d %lld %llu\n", r, n, (unsigned long long)ns);
    }
    if (bad) {
        printf("#ERROR %s %s\n", ngcc_verdict_name(bad), err);
        return 1;
    }
    printf("#DONE\n");
    perf_ctx_free(&c);
    if (fd >= 0)
        close(fd);
    return 0;
}

long long icount_callgrind_dump(const char *prefix, int k)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.%d", prefix, k);
    size_t len;
    char *text = ngcc_read_file(path, &len);
    if (!text)
        return -1;
    long long v = -1;
    for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (!strncmp(l, "summary:", 8) || (v < 0 && !strncmp(l, "totals:", 7))) {
            char *e;
            long long x = strtoll(strchr(l, ':') + 1, &e, 10);
            if (e != strchr(l, ':') + 1)
                v = x;
        }
    }
    free(text);
    return v;
}
