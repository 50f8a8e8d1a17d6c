/* ngcc-security: the keys and signatures (SIG) or ciphertexts and shared
 * secrets (KEM) of the plan, made in child processes into shared memory.
 * An item whose making crashes or hangs is left out (and reported by the
 * honest check); making resumes with the next item in a fresh child. */
#ifndef SEC_MATERIAL_H
#define SEC_MATERIAL_H

#include <stddef.h>

#include "sec_call.h"
#include "sec_plan.h"

typedef struct {
    unsigned char *pk[SEC_MAX_KEYS], *sk[SEC_MAX_KEYS];
    ull pk_len[SEC_MAX_KEYS], sk_len[SEC_MAX_KEYS];
    int key_ok[SEC_MAX_KEYS];
    unsigned char *out[SEC_MAX_ITEMS]; /* signature (SIG) or ciphertext (KEM) */
    unsigned char *ss[SEC_MAX_ITEMS];  /* KEM: shared secret from kem_enc */
    ull out_len[SEC_MAX_ITEMS], ss_len[SEC_MAX_ITEMS];
    int item_ok[SEC_MAX_ITEMS];
    size_t map_len;
} sec_material;

/* shared memory sized from the claims; NULL if it cannot be had */
sec_material *sec_material_map(const sec_plan *p, const sec_claims *c);
void sec_material_unmap(sec_material *m);

#endif
