/* ngcc-ctest: loads one instance library (dlopen RTLD_NOW|RTLD_LOCAL) and
 * resolves the official API and the control surface. Call only in a child
 * process: loading runs submission constructors. */
#ifndef NGCC_LOADER_H
#define NGCC_LOADER_H
#include "ngcc_control.h"

typedef unsigned long long ull;
typedef ull (*ngcc_len_fn)(void);

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

typedef struct {
    void *handle;
    int is_kem;
    const ngcc_meta *meta;
    ngcc_seed_fn seed;
    ngcc_sig_api sig;
    ngcc_kem_api kem;
} ngcc_instance;

/* 0 on success; else -1 and a one-line reason in err */
int ngcc_instance_open(const char *path, ngcc_instance *inst, char *err, int errlen);
/* optional symbol of the control surface (NULL when absent) */
void *ngcc_instance_sym(ngcc_instance *inst, const char *name);

#endif
