/* ngcc-memcheck: the program valgrind runs. One KAT record of the instance,
 * exactly as the official driver makes it (seed, keygen, sign and verify, or
 * keygen, enc and dec), with every buffer allocated at its exact size so
 * memcheck sees any access past it; then one case of every negative class of
 * verify (SIG) or dec (KEM), each announced by a "#CASE class: what" line.
 * Prints "#META key value", "#STEP call rc" and "#LOADFAIL reason" lines on
 * stdout. */
#define MEMCHECK_NEGATIVE_CASES 8     /* verify calls after the record's (dec: 7) */
#define MEMCHECK_KEX_NEGATIVE_CASES 4 /* per KEX pass or derive taking a peer message */
#ifndef MEMCHECK_FLOW_H
#define MEMCHECK_FLOW_H

/* returns the process exit code: 0 done (whatever the results), 2 not loaded */
int memcheck_flow(const char *lib, int record);

/* KEX and hash (memcheck_flow_kex_hash.c), after the library is set up */
#include "sec_call.h"
void memcheck_flow_kex(const sec_claims *c, const unsigned char *seed);
void memcheck_flow_hash(const sec_claims *c);

#endif
