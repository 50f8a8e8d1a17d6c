/* ngcc-icount: the counted run. ngcc-icount re-executes itself in a hidden
 * mode (--count) with LD_BIND_NOW=1 (no lazy PLT binding inside a counted
 * call) and GLIBC_TUNABLES masking the CPU features glibc's ifuncs choose
 * memcpy/memset/strlen by (ICOUNT_TUNABLES: every x86-64 CPU then runs the
 * same SSE2 variants, so a count does not depend on the CPU model), either
 * directly (method "perf": a hardware instruction counter, perf_event_open
 * PERF_COUNT_HW_INSTRUCTIONS, user mode only, enabled around each call) or
 * under valgrind --tool=callgrind --collect-atstart=no (method "valgrind":
 * collection is switched on around each call with client requests, and each
 * call's count is dumped to a file of its own).
 *
 * The counted process prepares records 0..N-1 of the official KAT flow
 * (perf_ops.h: the inputs perf uses), makes one uncounted call (one-time
 * initialisation is not the operation's), then for each record: the
 * untimed preparation, the counted API call, the untimed check. It prints,
 * one line each, on stdout:
 *   #PHASE <text>          what it is doing now
 *   #ERROR <VERDICT> <msg> it stopped with that verdict
 *   #META <key> <value>    the library's self-description
 *   #COUNT <r> <n> <ns>    record r's count (valgrind: -1, see the dump) and wall time
 *   #DONE                  all records counted */
#ifndef ICOUNT_MEASURE_H
#define ICOUNT_MEASURE_H
#include <stddef.h>

/* the hwcaps masked in the counted process (glibc >= 2.26 tunable syntax) */
#define ICOUNT_TUNABLES                                                                                                \
    "glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512BW,-AVX512VL,-AVX512DQ,-AVX512CD,-ERMS,-FSRM,-SSSE3,"                 \
    "-SSE4_1,-SSE4_2,-BMI1,-BMI2,-LZCNT,-MOVBE,-RTM,-AVX_Fast_Unaligned_Load,-Fast_Unaligned_Copy,"                    \
    "-Prefer_ERMS,-Prefer_FSRM,-Prefer_No_VZEROUPPER,-Fast_Rep_String"

typedef enum { ICOUNT_PERF, ICOUNT_VALGRIND } icount_method;

/* Whether a hardware instruction counter counts here: 0, or -1 with the
 * reason (e.g. "perf_event_open(PERF_COUNT_HW_INSTRUCTIONS): No such file or
 * directory") */
int icount_hw_probe(char *why, size_t len);

/* the hidden mode: counts op of lib over records 0..records-1; exit code 0
 * when every record was counted */
int icount_count_main(const char *lib, const char *op, int records, icount_method method);

/* The callgrind dump <prefix>.<k> (k = 1..): its "summary:" (or "totals:")
 * Ir count; -1 when the file is missing or has none. */
long long icount_callgrind_dump(const char *prefix, int k);

#endif
