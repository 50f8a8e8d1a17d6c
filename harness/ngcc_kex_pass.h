/* ngcc-ctest: KEX passes beyond 3. The official KAT_KEX.c stops after pass 3;
 * a protocol claiming more passes extends its driver (iccs-kex-hash.md §1.2a)
 * with pass k = kex_generate_pass<k>_msg_a for odd k (A sends), _msg_b for
 * even k (B sends), each taking m(k-1). These helpers give every flow of the
 * suite that one rule. */
#ifndef NGCC_KEX_PASS_H
#define NGCC_KEX_PASS_H
#include "ngcc_loader.h"

/* "kex_generate_pass<k>_msg_<a|b>" (static storage; "?" outside 1..MAXP) */
const char *ngcc_kex_pass_symbol(int k);
/* "pass<k>": the op name of pass k in records and options */
const char *ngcc_kex_pass_op(int k);
/* "m<k>": the message pass k sends ("" for k = 0, "?" above MAXP) */
const char *ngcc_kex_msg_name(int k);
/* the last pass a flow runs when no pass returns 1: 3 as the official driver
 * for claims up to 3, else the claim (at most NGCC_KEX_MAXP) */
int ngcc_kex_last_pass(ull passes);
/* pass k >= 2 of a, or -100 when the library does not export it */
int ngcc_kex_call_pass(const ngcc_kex_api *a, int k, unsigned char *sk, ull sk_len, unsigned char *pk, ull pk_len,
                       unsigned char *m_in, ull m_in_len, unsigned char *st, ull *st_len, unsigned char *m_out,
                       ull *m_out_len);
/* loader: resolves pass[2..MAXP] from handle h; 0, or -1 with a one-line
 * reason in err when the claimed passes exceed NGCC_KEX_MAXP or a pass from 4
 * up to the claim is not exported */
int ngcc_kex_resolve_passes(void *h, ngcc_kex_api *a, const char *path, char *err, int errlen);

#endif
