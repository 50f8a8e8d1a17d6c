/* ngcc-ctest: the memory of a hang. When the kat test of an instance ends
 * TIMEOUT (a call that never returned while replaying the official, honest
 * flow), it leaves <records>/<cand>/<inst>/hung.json saying where and after
 * how long. The instance's later tests (security, memcheck, ct, perf, prof,
 * icount: they all call the same honest operations first) then SKIP naming
 * that TIMEOUT instead of each waiting out its own timeout. The marker only
 * counts while the plain library that hung is unchanged (a rebuild runs again),
 * and NGCC_RETRY_HUNG=1 ignores it. A hang in a security check's crafted
 * input leaves no marker: the honest flow may still run. */
#ifndef NGCC_HANG_H
#define NGCC_HANG_H

#include <stddef.h>

/* writes the marker beside record_out: the test, the call (may be ""), the
 * seconds waited and the verdict's detail */
void ngcc_hang_note(const char *record_out, const char *label, const char *test, const char *call, double seconds,
                    const char *detail, const char *lib);
/* removes the marker beside record_out if label wrote it (the test ran again
 * and did not hang) */
void ngcc_hang_clear(const char *record_out, const char *label);
/* 1 with why set when another label's marker lies beside record_out and the
 * library it names is unchanged (and NGCC_RETRY_HUNG is not 1); 0 to run */
int ngcc_hang_seen(const char *record_out, const char *label, char *why, size_t len);

#endif
