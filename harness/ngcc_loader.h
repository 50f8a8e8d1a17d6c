/* ngcc-ctest: loads one instance library (dlopen RTLD_NOW|RTLD_LOCAL) and
 * resolves the official API and the control surface. Call only in a child
 * process: loading runs submission constructors. */
#ifndef NGCC_LOADER_H
#define NGCC_LOADER_H
#include "ngcc_control.h"

typedef unsigned long long ull;
typedef ull (*ngcc_len_fn)(void);

/* the most passes a KEX exchange may claim (kex_get_passes_num()) */
#define NGCC_KEX_MAXP 8
/* pass k >= 2: kex_generate_pass<k>_msg_a (odd k, sender A) or _msg_b (even
 * k, sender B): the sender's sk, the peer's pk, m(k-1) in, its state in/out,
 * m(k) out */
typedef int (*ngcc_kex_pass_fn)(unsigned char *sk, ull sk_len, unsigned char *pk, ull pk_len, unsigned char *m_in,
                                ull m_in_len, unsigned char *st, ull *st_len, unsigned char *m_out, ull *m_out_len);

typedef struct {
    int (*keygen)(unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len);
    int (*sign)(unsigned char *sk, ull sk_len, unsigned char *m, ull m_len, unsigned char *sn, ull *sn_len);
    int (*verify)(unsigned char *pk, ull pk_len, unsigned char *sn, ull sn_len, unsigned char *m, ull m_len);
    ngcc_len_fn pk_len, sk_len, sn_len;
} ngcc_sig_api;

typedef struct {
    int (*keygen)(unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len);
    int (*enc)(unsigned char *pk, ull pk_len, unsigned char *ss, ull *ss_len, unsigned char *ct, ull *ct_len);
    int (*dec)(unsigned char *sk, ull sk_len, unsigned char *ct, ull ct_len, unsigned char *ss, ull *ss_len);
    ngcc_len_fn pk_len, sk_len, ss_len, ct_len;
} ngcc_kem_api;

/* KEX_AlgorithmInstance.h (iccs-kex-hash.md §1): pass k returns 1 when the
 * exchange is finished, 0 when not, < 0 on error; derive gets the peer's last
 * message. Every pointer is non-const in the official header. */
typedef struct {
    int (*init_a)(unsigned char *pka, ull *pka_len, unsigned char *ska, ull *ska_len, unsigned char *sta, ull *sta_len);
    int (*init_b)(unsigned char *pkb, ull *pkb_len, unsigned char *skb, ull *skb_len, unsigned char *stb, ull *stb_len);
    int (*pass1_a)(unsigned char *ska, ull ska_len, unsigned char *pkb, ull pkb_len, unsigned char *sta, ull *sta_len,
                   unsigned char *m1, ull *m1_len);
    int (*pass2_b)(unsigned char *skb, ull skb_len, unsigned char *pka, ull pka_len, unsigned char *m1, ull m1_len,
                   unsigned char *stb, ull *stb_len, unsigned char *m2, ull *m2_len);
    /* optional: NULL when the library has no kex_generate_pass3_msg_a */
    int (*pass3_a)(unsigned char *ska, ull ska_len, unsigned char *pkb, ull pkb_len, unsigned char *m2, ull m2_len,
                   unsigned char *sta, ull *sta_len, unsigned char *m3, ull *m3_len);
    /* pass[k] for 2 <= k <= NGCC_KEX_MAXP, resolved by name; NULL when not
     * exported (pass[2] == pass2_b, pass[3] == pass3_a); every pass up to a
     * claimed number above 3 is there, else the library does not load */
    ngcc_kex_pass_fn pass[NGCC_KEX_MAXP + 1];
    int (*derive_a)(unsigned char *ska, ull ska_len, unsigned char *pkb, ull pkb_len, unsigned char *mb, ull mb_len,
                    unsigned char *sta, ull sta_len, unsigned char *ssa, ull *ssa_len);
    int (*derive_b)(unsigned char *skb, ull skb_len, unsigned char *pka, ull pka_len, unsigned char *ma, ull ma_len,
                    unsigned char *stb, ull stb_len, unsigned char *ssb, ull *ssb_len);
    ngcc_len_fn passes_num, pk_len, sk_len, sta_len, stb_len, ss_len, total_msg_len;
} ngcc_kex_api;

/* CryptHash_AlgorithmInstance.h (iccs-kex-hash.md §3.1): lengths in bits,
 * a partial last byte MSB-first; 0 on success. digest_bits is the header's
 * DIGEST_BIT_LENGTH (the driver always passes it). */
typedef struct {
    int (*hash)(int digest_len_bits, const unsigned char *msg, ull msg_len_bits, unsigned char *digest);
    int digest_bits;
} ngcc_hash_api;

/* the four NGCC types, from the library's metadata */
typedef enum { NGCC_TYPE_SIG, NGCC_TYPE_KEM, NGCC_TYPE_KEX, NGCC_TYPE_HASH } ngcc_type;

typedef struct {
    void *handle;
    ngcc_type type;
    int is_kem; /* type == NGCC_TYPE_KEM (kept for the SIG/KEM drivers) */
    const ngcc_meta *meta;
    ngcc_seed_fn seed;
    ngcc_sig_api sig;
    ngcc_kem_api kem;
    ngcc_kex_api kex;
    ngcc_hash_api hash;
} ngcc_instance;

/* "SIG", "KEM", "KEX" or "HASH" */
const char *ngcc_type_name(ngcc_type t);

/* 0 on success; else -1 and a one-line reason in err */
int ngcc_instance_open(const char *path, ngcc_instance *inst, char *err, int errlen);
/* optional symbol of the control surface (NULL when absent) */
void *ngcc_instance_sym(ngcc_instance *inst, const char *name);

#endif
