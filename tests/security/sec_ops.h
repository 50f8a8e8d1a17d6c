/* ngcc-security: the call cases of memory_leaks and alloc_failure. Per type,
 * each operation on an honest input and the verifying operation on a
 * rejected and a malformed input:
 *   SIG   sig_keygen, sig_sign, sig_verify (valid / one byte changed / last byte cut)
 *   KEM   kem_keygen, kem_enc, kem_dec (valid / one byte changed / last byte cut)
 *   KEX   one whole exchange (init_a ... derive_b), honest and with m1 tampered
 *   HASH  CryptHash of 1000 and 1001 bits, and with a digest length it must refuse
 * A case is one direct call into the library (a KEX exchange: its whole
 * sequence) on plain harness buffers (these checks look at the candidate's
 * heap, not at buffer bounds), the DRNG seeded first (sec_op_prepare), so
 * that calling it again repeats the same work. */
#ifndef SEC_OPS_H
#define SEC_OPS_H

#include <stddef.h>

#include "sec_job.h"

#define SEC_OPS_MAX 5

typedef struct {
    const char *what; /* "kem_dec on a modified ciphertext" */
    int kind;         /* sec_ops.c's case */
} sec_op;

/* each of memory_leaks and alloc_failure fits its cases into this many
 * seconds: a case whose calls would not fit (a 60-s keygen called 4 times)
 * is left out, and the note says so */
#define SEC_OPS_BUDGET_S 60.0

/* the operation times of the budget (sec_budget.h: keygen, sign|enc,
 * verify|dec, s per call), set by the driver before the checks run */
void sec_ops_costs(const double op_seconds[3]);
/* s one call of the case should take; 0 when unknown (KEX, hash, no budget) */
double sec_op_seconds(const sec_op *op);
/* the cases of the instance's type; returns how many */
int sec_ops_of(const sec_job *j, const sec_op **ops);
/* SIG/KEM: the item the cases use (a made signature/ciphertext and its key);
 * -1 if none was made (the check then has nothing to work on) */
int sec_ops_item(const sec_job *j);
/* bytes every output of one call needs at most */
size_t sec_op_out_cap(const sec_job *j);
/* seeds the DRNG as the case needs it (init_random_number inside the
 * library, which may allocate: call it before tracking or arming a failure) */
void sec_op_prepare(const sec_job *j, const sec_op *op, int item);
/* one call of the case (after sec_op_prepare): its return code (a KEX exchange: the first error,
 * else 0) and its outputs, concatenated, in out (sec_op_out_cap bytes);
 * *out_len 0 for verify. item: sec_ops_item's. */
int sec_op_call(const sec_job *j, const sec_op *op, int item, unsigned char *out, size_t *out_len);
/* SIG: sig_verify of a signature made by the sig_sign case (1 if accepted) */
int sec_op_signature_verifies(const sec_job *j, int item, const unsigned char *sn, size_t sn_len);

#endif
