#include "ngcc_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define RESOLVE(field, name)                                                                                           \
    do {                                                                                                               \
        *(void **)(&(field)) = dlsym(h, name);                                                                         \
        if (!(field)) {                                                                                                \
            snprintf(err, (size_t)errlen, "%s: missing symbol %s", path, name);                                        \
            dlclose(h);                                                                                                \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)

int ngcc_instance_open(const char *path, ngcc_instance *inst, char *err, int errlen)
{
    memset(inst, 0, sizeof *inst);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, (size_t)errlen, "%s", dlerror());
        return -1;
    }
    ngcc_meta_fn meta;
    RESOLVE(meta, "ngcc_meta_get");
    RESOLVE(inst->seed, "ngcc_seed");
    inst->meta = meta();
    if (!inst->meta || inst->meta->abi != NGCC_CONTROL_ABI) {
        snprintf(err, (size_t)errlen, "%s: control surface ABI mismatch (rebuild the instance)", path);
        dlclose(h);
        return -1;
    }
    inst->is_kem = strcmp(inst->meta->type, "KEM") == 0;
    if (inst->is_kem) {
        RESOLVE(inst->kem.keygen, "kem_keygen");
        RESOLVE(inst->kem.enc, "kem_enc");
        RESOLVE(inst->kem.dec, "kem_dec");
        RESOLVE(inst->kem.pk_len, "kem_get_pk_len_bytes");
        RESOLVE(inst->kem.sk_len, "kem_get_sk_len_bytes");
        RESOLVE(inst->kem.ss_len, "kem_get_ss_len_bytes");
        RESOLVE(inst->kem.ct_len, "kem_get_ct_len_bytes");
    } else {
        RESOLVE(inst->sig.keygen, "sig_keygen");
        RESOLVE(inst->sig.sign, "sig_sign");
        RESOLVE(inst->sig.verify, "sig_verify");
        RESOLVE(inst->sig.pk_len, "sig_get_pk_len_bytes");
        RESOLVE(inst->sig.sk_len, "sig_get_sk_len_bytes");
        RESOLVE(inst->sig.sn_len, "sig_get_sn_len_bytes");
    }
    inst->handle = h;
    return 0;
}

void *ngcc_instance_sym(ngcc_instance *inst, const char *name)
{
    return inst->handle ? dlsym(inst->handle, name) : NULL;
}
