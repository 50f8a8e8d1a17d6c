/* ngcc-memcheck: the KEX and hash flows valgrind runs (memcheck_flow.h).
 * KEX: one KAT record's session in the official call order (sec_kex_trace),
 * then every call that takes a peer message again from the honest state
 * before it with that message malformed (all-0x00, empty, its last byte
 * cut, a zero byte appended), each announced by a "#CASE" line: with
 * exact-size buffers, a read past a declared length is an invalid read
 * (valgrind's default --partial-loads-ok=yes lets an aligned word load that
 * is partly inside pass: the empty message catches those). Hash: messages
 * of lengths around byte and block boundaries, each in an exact-size
 * buffer of ceil(n/8) bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcheck_flow.h"
#include "sec_kex_trace.h"

static void kex_case(const char *cls, const char *what)
{
    printf("#CASE %s: %s\n", cls, what);
    fflush(stdout);
}

enum { KNEG_ZERO, KNEG_EMPTY, KNEG_CUT, KNEG_APPEND, KNEG_CLASSES };

/* calls 2..SEC_KEX_MAXP: passes; SEC_KEX_DERIVE_A, SEC_KEX_DERIVE_B */
static void kex_negatives(const sec_claims *c, const sec_kex_trace *t)
{
    static const char *const cls[KNEG_CLASSES] = {"malformed_input (all-0x00)", "malformed_input (empty)",
                                                  "malformed_input (last byte cut)",
                                                  "malformed_input (a zero byte appended)"};
    ull st_max = c->sta > c->stb ? c->sta : c->stb, out_max = c->msg > c->ss ? c->msg : c->ss;
    for (int call = 2; call <= SEC_KEX_DERIVE_B; call++) {
        int side = call <= SEC_KEX_MAXP ? call % 2 == 0 : call == SEC_KEX_DERIVE_B;
        int from = call <= SEC_KEX_MAXP       ? (call <= t->passes ? call - 1 : 0)
                   : call == SEC_KEX_DERIVE_A ? t->last_b
                                              : t->last_a;
        const char *api = call <= SEC_KEX_MAXP       ? ngcc_kex_pass_symbol(call)
                          : call == SEC_KEX_DERIVE_A ? "kex_derive_ss_a"
                                                     : "kex_derive_ss_b";
        if (from == 0)
            continue;
        ull len = t->m_len[from];
        for (int k = 0; k < KNEG_CLASSES; k++) {
            if (k == KNEG_CUT && len == 0)
                continue;
            ull n = k == KNEG_EMPTY ? 0 : k == KNEG_CUT ? len - 1 : k == KNEG_APPEND ? len + 1 : len;
            unsigned char *in = malloc((size_t)len + 1), *st = malloc((size_t)st_max + 1);
            unsigned char *out = malloc((size_t)out_max + 1);
            memcpy(in, t->m[from], (size_t)len);
            in[len] = 0;
            if (k == KNEG_ZERO)
                memset(in, 0, (size_t)len);
            char what[200], step[160];
            snprintf(what, sizeof what, "the memcheck record, %s to %s (%s_len %llu)", cls[k], api,
                     ngcc_kex_msg_name(from), n);
            kex_case(cls[k], what);
            ull out_len = 0, st_len;
            int rc;
            if (call <= SEC_KEX_MAXP) {
                st_len = t->st_before_len[call];
                memcpy(st, t->st_before[call], (size_t)st_len);
                rc = sec_kex_pass(what, call, t->sk[side], t->sk_len[side], t->pk[!side], t->pk_len[!side], in, n, st,
                                  &st_len, out, &out_len);
            } else {
                st_len = t->st_end_len[side];
                memcpy(st, t->st_end[side], (size_t)st_len);
                rc = sec_kex_derive(what, side, t->sk[side], t->sk_len[side], t->pk[!side], t->pk_len[!side], in, n, st,
                                    st_len, out, &out_len);
            }
            snprintf(step, sizeof step, "%s[%s]", api, cls[k]);
            printf("#STEP %s %d\n", step, rc);
            fflush(stdout);
            free(in);
            free(st);
            free(out);
        }
    }
}

void memcheck_flow_kex(const sec_claims *c, const unsigned char *seed)
{
    sec_kex_trace t;
    int rc = sec_kex_trace_run(c, &t, seed, "the memcheck record");
    printf("#STEP kex_session %d%s%s\n", rc, rc ? " " : "", rc ? t.error : "");
    if (t.derived)
        printf("#STEP shared_secret %s\n",
               t.ss_len[0] == t.ss_len[1] && memcmp(t.ss[0], t.ss[1], (size_t)t.ss_len[0]) == 0 ? "same" : "differs");
    fflush(stdout);
    if (t.passes)
        kex_negatives(c, &t);
    sec_kex_trace_free(&t);
}

static const unsigned long long hash_bits[] = {0, 1, 7, 8, 9, 255, 256, 257, 440, 448, 512, 1003, 4096};

void memcheck_flow_hash(const sec_claims *c)
{
    unsigned char *d = malloc((size_t)(c->digest_bits > 0 ? (c->digest_bits + 7) / 8 : 1));
    for (size_t i = 0; i < sizeof hash_bits / sizeof hash_bits[0]; i++) {
        ull n = hash_bits[i], nb = (n + 7) / 8;
        unsigned char *m = malloc((size_t)(nb ? nb : 1));
        for (ull b = 0; b < nb; b++)
            m[b] = (unsigned char)(0x61 + b * 7);
        if (n % 8)
            m[nb - 1] &= (unsigned char)(0xFF00u >> (n % 8));
        char what[80];
        snprintf(what, sizeof what, "a %llu-bit message in a %llu-byte buffer", n, nb);
        kex_case("message", what);
        int rc = sec_hash(what, c->digest_bits, m, n, d, 0);
        printf("#STEP CryptHash[%llu bits] %d\n", n, rc);
        fflush(stdout);
        free(m);
    }
    free(d);
}
