#include "ngcc_loader.h"

#include "ngcc_kex_pass.h"

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
    if (strcmp(inst->meta->type, "KEM") == 0)
        inst->type = NGCC_TYPE_KEM;
    else if (strcmp(inst->meta->type, "KEX") == 0)
        inst->type = NGCC_TYPE_KEX;
    else if (strcmp(inst->meta->type, "HASH") == 0)
        inst->type = NGCC_TYPE_HASH;
    else
        inst->type = NGCC_TYPE_SIG;
    inst->is_kem = inst->type == NGCC_TYPE_KEM;
    switch (inst->type) {
    case NGCC_TYPE_KEM:
        RESOLVE(inst->kem.keygen, "kem_keygen");
        RESOLVE(inst->kem.enc, "kem_enc");
        RESOLVE(inst->kem.dec, "kem_dec");
        RESOLVE(inst->kem.pk_len, "kem_get_pk_len_bytes");
        RESOLVE(inst->kem.sk_len, "kem_get_sk_len_bytes");
        RESOLVE(inst->kem.ss_len, "kem_get_ss_len_bytes");
        RESOLVE(inst->kem.ct_len, "kem_get_ct_len_bytes");
        break;
    case NGCC_TYPE_KEX:
        RESOLVE(inst->kex.init_a, "kex_init_a");
        RESOLVE(inst->kex.init_b, "kex_init_b");
        RESOLVE(inst->kex.pass1_a, "kex_generate_pass1_msg_a");
        RESOLVE(inst->kex.pass2_b, "kex_generate_pass2_msg_b");
        RESOLVE(inst->kex.derive_a, "kex_derive_ss_a");
        RESOLVE(inst->kex.derive_b, "kex_derive_ss_b");
        RESOLVE(inst->kex.passes_num, "kex_get_passes_num");
        RESOLVE(inst->kex.pk_len, "kex_get_pk_len_bytes");
        RESOLVE(inst->kex.sk_len, "kex_get_sk_len_bytes");
        RESOLVE(inst->kex.sta_len, "kex_get_sta_len_bytes");
        RESOLVE(inst->kex.stb_len, "kex_get_stb_len_bytes");
        RESOLVE(inst->kex.ss_len, "kex_get_ss_len_bytes");
        RESOLVE(inst->kex.total_msg_len, "kex_get_total_msg_len_bytes");
        if (ngcc_kex_resolve_passes(h, &inst->kex, path, err, errlen)) {
            dlclose(h);
            return -1;
        }
        break;
    case NGCC_TYPE_HASH:
        RESOLVE(inst->hash.hash, "CryptHash");
        inst->hash.digest_bits = inst->meta->digest_bits;
        break;
    default:
        RESOLVE(inst->sig.keygen, "sig_keygen");
        RESOLVE(inst->sig.sign, "sig_sign");
        RESOLVE(inst->sig.verify, "sig_verify");
        RESOLVE(inst->sig.pk_len, "sig_get_pk_len_bytes");
        RESOLVE(inst->sig.sk_len, "sig_get_sk_len_bytes");
        RESOLVE(inst->sig.sn_len, "sig_get_sn_len_bytes");
        break;
    }
    inst->handle = h;
    return 0;
}

const char *ngcc_type_name(ngcc_type t)
{
    static const char *const names[] = {"SIG", "KEM", "KEX", "HASH"};
    return (unsigned)t < 4 ? names[t] : "?";
}

void *ngcc_instance_sym(ngcc_instance *inst, const char *name)
{
    return inst->handle ? dlsym(inst->handle, name) : NULL;
}
