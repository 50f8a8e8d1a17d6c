/* ngcc-security: every call into the submission goes through these
 * wrappers. Each one hands the submission fresh copies of its inputs in
 * guarded (or exact-size) buffers, claimed-size output buffers with the
 * length variables set to the claimed values, and afterwards records in the
 * child's sec_result: writes outside any buffer, changed inputs, bytes
 * written past the returned length, lengths above the claimed ones and
 * verify/dec return codes. "what" names the case in every message, e.g.
 * "record 3" or "record 3, modified message". Call only in a child. */
#ifndef SEC_CALL_H
#define SEC_CALL_H

#include "ngcc_loader.h"
#include "sec_result.h"

typedef struct {
    ull pk, sk, sig, ct, ss;   /* the getters' claimed lengths (KEX: pk, sk, ss too) */
    ull passes, sta, stb, msg; /* KEX: Pass_Num, state maxima, total message length */
    int digest_bits;           /* HASH: the header's DIGEST_BIT_LENGTH */
} sec_claims;

/* the claimed lengths, from the library's getters */
void sec_claims_read(const ngcc_instance *in, sec_claims *cl);
void sec_call_begin(ngcc_instance *in, sec_result *res, const sec_claims *cl);
/* sanitizer runs: "#CALL <api> at <what>" on stderr before every call, so
 * a recovered report in the log names its call (sec_memerr context) */
void sec_call_mark_calls(int on);
/* the instance of sec_call_begin (for checks that call it directly) */
ngcc_instance *sec_call_instance(void);
/* init_random_number(&drng_algorithm, seed, 64) inside the library */
void sec_call_seed(const unsigned char *seed, const char *what);
/* len bytes from drng_algorithm inside the library (its get_random_number);
 * -1 if the library has no ngcc_drng_draw */
int sec_call_drng_draw(unsigned char *out, ull len, const char *what);

/* from now on (this child) every output buffer enters filled with fixed
 * pattern 1 or 2 (differing in every byte), 0: per-call fills again; for
 * telling bytes a call never wrote (unwritten_output, determinism) */
void sec_call_pattern(int which);
unsigned char sec_call_pattern_byte(int which, ull i);

/* stale_state: from now on (this child) every verify/dec call (KEX: pass
 * and derive) enters with
 * the stack below it (SEC_STALE_STACK bytes) and fresh malloc blocks
 * (glibc M_PERTURB) filled with 0x00 (which 1) or 0xA5 (which 2); 0: off.
 * Under ASan its allocator ignores M_PERTURB: only the stack differs. */
#define SEC_STALE_STACK (64 * 1024)
void sec_call_stale(int which);

/* outputs go to the caller's buffers of (at least) the claimed lengths; the
 * returned lengths are clamped to the claimed ones */
int sec_keygen(const char *what, unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len);
int sec_sign(const char *what, const unsigned char *sk, ull sk_len, const unsigned char *m, ull m_len,
             unsigned char *sn, ull *sn_len);
int sec_verify(const char *what, const unsigned char *pk, ull pk_len, const unsigned char *sn, ull sn_len,
               const unsigned char *m, ull m_len);
int sec_enc(const char *what, const unsigned char *pk, ull pk_len, unsigned char *ss, ull *ss_len, unsigned char *ct,
            ull *ct_len);
int sec_dec(const char *what, const unsigned char *sk, ull sk_len, const unsigned char *ct, ull ct_len,
            unsigned char *ss, ull *ss_len);

/* KEX (iccs-kex-hash.md §1.2; side 0 = A, 1 = B). State buffers have the
 * claimed maximum size; an in/out state enters with *st_len bytes of the
 * caller's state and may grow up to the claim. Every message buffer holds
 * the claimed total message length, as in KAT_KEX.c. A NULL incoming
 * message is passed as NULL (derive_a of a 1-pass protocol). Derive's state
 * is input only but may be wiped: it is not checked for changes. */
int sec_kex_init(const char *what, int side, unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len,
                 unsigned char *st, ull *st_len);
/* from now on (this child) the incoming message of a pass or derive is
 * passed as it is, not as a guarded copy: malformed_input puts it right
 * before an unreadable page to catch reads past its declared length */
void sec_call_kex_direct(int on);
/* pass k = 1..NGCC_KEX_MAXP; -100 when the library does not export it */
int sec_kex_pass(const char *what, int k, const unsigned char *sk, ull sk_len, const unsigned char *pk, ull pk_len,
                 const unsigned char *in, ull in_len, unsigned char *st, ull *st_len, unsigned char *m, ull *m_len);
int sec_kex_derive(const char *what, int side, const unsigned char *sk, ull sk_len, const unsigned char *pk, ull pk_len,
                   const unsigned char *in, ull in_len, const unsigned char *st, ull st_len, unsigned char *ss,
                   ull *ss_len);
/* CryptHash(digest_bits, msg, msg_bits, digest) with a guarded copy of the
 * ceil(msg_bits / 8) message bytes (direct: msg is passed as it is, e.g. at
 * the end of a readable page) and a guarded digest buffer of
 * ceil(digest_bits / 8) bytes, copied to digest */
int sec_hash(const char *what, int digest_bits, const unsigned char *msg, ull msg_bits, unsigned char *digest,
             int direct);

#endif
