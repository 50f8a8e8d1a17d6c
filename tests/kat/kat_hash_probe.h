/* ngcc-kat-hash: a short speed probe of CryptHash in a child, for the
 * predictions of kat_hash_speed.h when the instance has no KAT_2_12/2_23
 * records: 1 KiB messages (KAT_Loop's length) for ~0.2 s, then longer ones
 * (up to 1 MiB, as many bytes as ~0.1 s allows at the 1 KiB speed) for
 * ~0.2 s, and 1 MiB of the ICCS DRNG (KAT_2_33 draws 1 GiB). */
#ifndef KAT_HASH_PROBE_H
#define KAT_HASH_PROBE_H
#include <stddef.h>

typedef struct {
    double small_calls, small_seconds;           /* 1 KiB messages */
    double bulk_bytes, bulk_calls, bulk_seconds; /* bulk_bytes a message */
    double drng_bytes, drng_seconds;
} kat_hash_probe_result;

/* 0 and r filled; else -1 and why says what went wrong (no result within
 * timeout seconds, a crash, a load failure, a CryptHash error) */
int kat_hash_probe(const char *lib, double timeout, kat_hash_probe_result *r, char *why, size_t why_cap);

#endif
