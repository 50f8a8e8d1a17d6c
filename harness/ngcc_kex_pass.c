#include "ngcc_kex_pass.h"

#include <dlfcn.h>
#include <stdio.h>

const char *ngcc_kex_pass_symbol(int k)
{
    static char names[NGCC_KEX_MAXP + 1][32];
    if (k < 1 || k > NGCC_KEX_MAXP)
        return "?";
    if (!names[k][0])
        snprintf(names[k], sizeof names[k], "kex_generate_pass%d_msg_%c", k, k % 2 ? 'a' : 'b');
    return names[k];
}

const char *ngcc_kex_pass_op(int k)
{
    static char ops[NGCC_KEX_MAXP + 1][8];
    if (k < 1 || k > NGCC_KEX_MAXP)
        return "?";
    if (!ops[k][0])
        snprintf(ops[k], sizeof ops[k], "pass%d", k);
    return ops[k];
}

const char *ngcc_kex_msg_name(int k)
{
    static const char *const names[NGCC_KEX_MAXP + 1] = {"", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"};
    return k >= 0 && k <= NGCC_KEX_MAXP ? names[k] : "?";
}

int ngcc_kex_last_pass(ull passes)
{
    return passes <= 3 ? 3 : passes > NGCC_KEX_MAXP ? NGCC_KEX_MAXP : (int)passes;
}

int ngcc_kex_call_pass(const ngcc_kex_api *a, int k, unsigned char *sk, ull sk_len, unsigned char *pk, ull pk_len,
                       unsigned char *m_in, ull m_in_len, unsigned char *st, ull *st_len, unsigned char *m_out,
                       ull *m_out_len)
{
    if (k < 2 || k > NGCC_KEX_MAXP || !a->pass[k])
        return -100;
    return a->pass[k](sk, sk_len, pk, pk_len, m_in, m_in_len, st, st_len, m_out, m_out_len);
}

int ngcc_kex_resolve_passes(void *h, ngcc_kex_api *a, const char *path, char *err, int errlen)
{
    *(void **)(&a->pass3_a) = dlsym(h, ngcc_kex_pass_symbol(3)); /* a 2-pass protocol need not define it */
    a->pass[2] = a->pass2_b;
    a->pass[3] = a->pass3_a;
    for (int k = 4; k <= NGCC_KEX_MAXP; k++)
        *(void **)(&a->pass[k]) = dlsym(h, ngcc_kex_pass_symbol(k));
    const ull passes = a->passes_num();
    if (passes > NGCC_KEX_MAXP) {
        snprintf(err, (size_t)errlen, "%s: kex_get_passes_num() = %llu, above the %d passes the suite runs", path,
                 passes, NGCC_KEX_MAXP);
        return -1;
    }
    /* pass 3 of a 3-pass claim stays optional here: each flow names it when
     * it is reached, as before */
    for (int k = 4; k <= (int)passes; k++)
        if (!a->pass[k]) {
            snprintf(err, (size_t)errlen, "%s: kex_get_passes_num() = %llu but the library does not export %s", path,
                     passes, ngcc_kex_pass_symbol(k));
            return -1;
        }
    return 0;
}
