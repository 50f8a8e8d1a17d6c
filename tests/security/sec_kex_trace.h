/* ngcc-security: one honest KEX session in the official call order (seed,
 * init_a, init_b, passes until one returns 1 or after pass 3 (after the
 * claimed pass when the claim is above 3, as the package's extended driver), derive_a,
 * derive_b), keeping every call's inputs, so that a check can repeat any
 * one call from the honest state before it (malformed_input, stale_state)
 * and memcheck can replay it. Calls go through the sec_call.h wrappers. */
#ifndef SEC_KEX_TRACE_H
#define SEC_KEX_TRACE_H

#include "ngcc_kex_pass.h"
#include "sec_call.h"

#define SEC_KEX_MAXP NGCC_KEX_MAXP
/* the call numbers of the derives, after the passes 1..SEC_KEX_MAXP */
#define SEC_KEX_DERIVE_A (SEC_KEX_MAXP + 1)
#define SEC_KEX_DERIVE_B (SEC_KEX_MAXP + 2)
#define SEC_KEX_NOT_CALLED (-1000)

typedef struct {
    unsigned char *pk[2], *sk[2]; /* [0] = A, [1] = B */
    ull pk_len[2], sk_len[2];
    /* 1-based: message k and its sender's state before pass k */
    unsigned char *m[SEC_KEX_MAXP + 1], *st_before[SEC_KEX_MAXP + 1];
    ull m_len[SEC_KEX_MAXP + 1], st_before_len[SEC_KEX_MAXP + 1];
    unsigned char *st_end[2]; /* each party's state after its last pass (derive's input) */
    ull st_end_len[2];
    unsigned char *ss[2];
    ull ss_len[2];
    int passes;                   /* passes that returned 0 or 1 */
    int last_a, last_b;           /* the last pass each party sent (0: none) */
    int rc[SEC_KEX_DERIVE_B + 1]; /* [1..MAXP] passes, [DERIVE_A], [DERIVE_B]: return codes, or SEC_KEX_NOT_CALLED */
    int derived;                  /* both derives returned 0 */
    char error[300];              /* the first error return */
} sec_kex_trace;

/* 0 if the whole session ran (derives included), else -1 with t->error (the
 * first error; both derives are tried once the passes are done) */
int sec_kex_trace_run(const sec_claims *c, sec_kex_trace *t, const unsigned char *seed, const char *what);
void sec_kex_trace_free(sec_kex_trace *t);
/* call c of the session again from the honest state before it (c 1..MAXP:
 * that pass, with its sender's state before it; SEC_KEX_DERIVE_A/B, with the
 * party's state after its last pass), on the given peer key pk and incoming
 * message in; st has room for the larger state, out for the message or
 * secret. Returns the call's return code; *out_len its output length. */
int sec_kex_trace_repeat(const sec_kex_trace *t, int c, const char *what, const unsigned char *pk, ull pk_len,
                         const unsigned char *in, ull in_len, unsigned char *st, unsigned char *out, ull *out_len);

#endif
