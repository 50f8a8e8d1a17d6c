#include "sec_material.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ngcc_child.h"
#include "sec_job.h"

/* one arena: the struct, then every key and item buffer at claimed size */
sec_material *sec_material_map(const sec_plan *p, const sec_claims *c)
{
    ull out_claim = p->is_kem ? c->ct : c->sig;
    ull ss_claim = p->is_kem ? c->ss : 0;
    size_t len = sizeof(sec_material) + (size_t)p->nkeys * (size_t)(c->pk + c->sk) +
                 (size_t)p->nitems * (size_t)(out_claim + ss_claim);
    void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    sec_material *m = base;
    memset(m, 0, sizeof *m);
    m->map_len = len;
    unsigned char *next = (unsigned char *)base + sizeof *m;
    for (int k = 0; k < p->nkeys; k++) {
        m->pk[k] = next;
        m->sk[k] = next + c->pk;
        next += c->pk + c->sk;
    }
    for (int i = 0; i < p->nitems; i++) {
        m->out[i] = next;
        m->ss[i] = next + out_claim;
        next += out_claim + ss_claim;
    }
    return m;
}

void sec_material_unmap(sec_material *m)
{
    if (m)
        munmap(m, m->map_len);
}

/* keygen for the item's key, as the KAT driver does for its record */
static int make_key(sec_job *j, const sec_item *it)
{
    sec_material *m = j->mat;
    int k = it->key;
    sec_call_seed(j->plan->key_seed[k], it->label);
    int rc = sec_keygen(it->label, m->pk[k], &m->pk_len[k], m->sk[k], &m->sk_len[k]);
    if (rc != 0) {
        sec_issue_add(&j->res->failure, "%s returned %d for the seed of record %d",
                      j->plan->is_kem ? "kem_keygen" : "sig_keygen", rc, k);
        return -1;
    }
    m->key_ok[k] = 1;
    return 0;
}

static void make_item(sec_job *j, int i)
{
    const sec_item *it = &j->plan->item[i];
    sec_material *m = j->mat;
    int k = it->key, rc;
    double t0 = ngcc_now();
    if (it->kat_flow) {
        if (make_key(j, it))
            return;
        if (j->time_first)
            j->res->op_seconds[0] = ngcc_now() - t0;
    } else {
        if (!m->key_ok[k])
            return; /* its key failed: reported once, at the key's record */
        sec_call_seed(it->seed, it->label);
    }
    if (j->plan->is_kem) {
        rc = sec_enc(it->label, m->pk[k], m->pk_len[k], m->ss[i], &m->ss_len[i], m->out[i], &m->out_len[i]);
    } else {
        rc = sec_sign(it->label, m->sk[k], m->sk_len[k], it->m, it->mlen, m->out[i], &m->out_len[i]);
    }
    if (rc != 0) {
        sec_issue_add(&j->res->failure, "%s returned %d at %s", j->plan->is_kem ? "kem_enc" : "sig_sign", rc,
                      it->label);
        return;
    }
    m->item_ok[i] = 1;
    if (j->time_first) { /* the budget's costs: this item's sign/enc, then one verify/dec of it */
        double t1 = ngcc_now();
        j->res->op_seconds[1] = t1 - t0 - j->res->op_seconds[0];
        if (j->plan->is_kem) {
            unsigned long long len = 0;
            unsigned char *ss = malloc(j->claims.ss + 1);
            sec_dec("record 0, timing", m->sk[k], m->sk_len[k], m->out[i], m->out_len[i], ss, &len);
            free(ss);
        } else {
            sec_verify("record 0, timing", m->pk[k], m->pk_len[k], m->out[i], m->out_len[i], it->m, it->mlen);
        }
        j->res->op_seconds[2] = ngcc_now() - t1;
    }
}

int sec_material_child(void *arg, int unused_fd)
{
    (void)unused_fd;
    sec_job *j = arg;
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(j->opt->lib, &in, err, sizeof err)) {
        sec_issue_add(&j->res->failure, "cannot load %s", err);
        j->res->finished = 1;
        return 0;
    }
    sec_call_begin(&in, j->res, &j->claims);
    int end = j->end > 0 && j->end < j->plan->nitems ? j->end : j->plan->nitems;
    for (int i = j->start; i < end; i++) {
        j->res->step = i;
        make_item(j, i);
    }
    j->res->finished = 1;
    return 0;
}
