/* ngcc-security: what the CryptHash checks share (sec_hash_checks.c,
 * sec_hash_sweep.c, sec_hash_widths.c): our deterministic messages, hex for
 * details, and CryptHash at the header's digest length. */
#ifndef SEC_HASH_UTIL_H
#define SEC_HASH_UTIL_H

#include <stddef.h>

#include "sec_check.h"

#define SEC_HASH_MAX_MSG 512 /* bytes of the longest message built here */
#define SEC_HASH_HEX_MAX 16  /* message bytes shown in a detail */

/* ceil(d/8) for the header's DIGEST_BIT_LENGTH d (0 if it has none) */
unsigned long long sec_hash_dbytes(const sec_job *j);
/* no digest length, nothing to compare: the check is "not run" (the
 * instance's verdict is then ERROR, naming the header macro); 1 if so */
int sec_hash_no_digest(sec_job *j);
/* the first n bits of our message stream `tag` in m (SEC_HASH_MAX_MSG bytes),
 * unused bits and everything past them cleared */
void sec_hash_message(unsigned char *m, unsigned long long n, unsigned tag);
/* up to max bytes of p as hex ("..." when cut, "(empty)" when n is 0) */
void sec_hash_hex(char *out, size_t cap, const unsigned char *p, unsigned long long n, unsigned long long max);
/* CryptHash with the header's digest length; 0, or sec_fail and -1 */
int sec_hash_digest_of(sec_job *j, const unsigned char *m, unsigned long long n, unsigned char *d, const char *what);
/* the two digests are equal */
int sec_hash_same(const sec_job *j, const unsigned char *a, const unsigned char *b);

/* the plain run's digests of the determinism messages (ok[i]: message i
 * gave one digest) into the check's log, for hash-widths (sec_hash_widths.c) */
void sec_hash_widths_write(sec_job *j, const unsigned long long *bits, const unsigned char *digests, const int *ok,
                           int count);

#endif
