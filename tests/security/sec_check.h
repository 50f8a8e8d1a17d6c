/* ngcc-security: the checks. Each one with a run function is a CMocka case
 * run in a child of its own; the others are judged from what every call of
 * every child observed (guards, inputs, lengths, return codes). */
#ifndef SEC_CHECK_H
#define SEC_CHECK_H

#include "sec_child.h"
#include "sec_job.h"

typedef struct sec_check {
    const char *name;
    void (*run)(sec_job *j);   /* NULL: judged from the observations */
    ngcc_verdict fail_verdict; /* the test's verdict when this check fails */
} sec_check;

/* the check list of a SIG or KEM instance, in report order */
const sec_check *sec_checks(int is_kem, int *n);
/* the check list of an instance of any type (ngcc_type: SIG, KEM, KEX, HASH) */
const sec_check *sec_checks_for(int type, int *n);

/* for the run functions: one failure (the first one's text is kept) */
void sec_fail(sec_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* one failure of a check whose inputs fail in different ways (CRASH,
 * OVERFLOW, ...): the gravest one's text and verdict are kept */
void sec_fail_as(sec_job *j, ngcc_verdict v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* one tolerated deviation, reported as a FINDING */
void sec_finding(sec_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* one changed valid signature that verified for its own message and key
 * (bit flips, a few bytes cut or appended): malleability, not a forgery */
void sec_malleable(sec_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* at the end of a check with malleable cases: the summary that replaces the
 * first case's text (what was accepted and how often) */
void sec_malleable_summary(sec_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* up to max distinct positions in [0, n): all if n <= max, else 0, n-1, the
 * last tail positions and evenly spread ones; returns how many */
int sec_sample(unsigned long long n, int max, int tail, unsigned long long *out);

void sec_sig_honest(sec_job *j);
void sec_sig_modified_message(sec_job *j);
void sec_sig_modified_signature(sec_job *j);
void sec_sig_wrong_public_key(sec_job *j);
void sec_sig_truncated(sec_job *j);
void sec_sig_extended(sec_job *j);
void sec_sig_zero_ff(sec_job *j);
void sec_sig_determinism(sec_job *j);
void sec_kem_honest(sec_job *j);
void sec_kem_modified_ciphertext(sec_job *j);
void sec_kem_wrong_secret_key(sec_job *j);
void sec_kem_rejection_quality(sec_job *j);
void sec_kem_determinism(sec_job *j);
void sec_seed_dependence(sec_job *j); /* SIG and KEM (sec_seed.c) */
void sec_stale_state(sec_job *j);     /* SIG and KEM (sec_stale.c) */
void sec_malformed_input(sec_job *j); /* SIG and KEM (sec_malformed.c) */
/* unwritten_output's observation for one output of two calls made under
 * sec_call_pattern 1 (a) and 2 (b): bytes that kept the pattern (sec_determinism.c) */
void sec_unwritten_compare(sec_job *j, const char *api, const char *name, const unsigned char *a,
                           unsigned long long alen, const unsigned char *b, unsigned long long blen);
void sec_memory_leaks(sec_job *j);  /* every type (sec_leaks.c) */
void sec_alloc_failure(sec_job *j); /* every type (sec_allocfail.c) */
/* KEX (sec_kex_checks.c) */
void sec_kex_honest(sec_job *j);
void sec_kex_seed_dependence(sec_job *j);
void sec_kex_modified_message(sec_job *j);
void sec_kex_ephemeral_reuse(sec_job *j);
void sec_kex_determinism(sec_job *j);
void sec_kex_malformed_input(sec_job *j); /* sec_kex_malformed.c */
void sec_kex_stale_state(sec_job *j);     /* sec_kex_stale.c */
/* HASH (sec_hash_checks.c) */
void sec_hash_determinism(sec_job *j);
void sec_hash_digest_length(sec_job *j);
void sec_hash_message_bounds(sec_job *j);
void sec_hash_bit_lengths(sec_job *j);
void sec_hash_unused_bits(sec_job *j);
void sec_hash_collision_probes(sec_job *j);

#endif
