#include "sec_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_kex_pass.h"
#include "sec_check.h"

enum {
    KEYGEN,
    SIGN,
    VERIFY,
    VERIFY_CHANGED,
    VERIFY_CUT,
    ENC,
    DEC,
    DEC_CHANGED,
    DEC_CUT,
    EXCHANGE,
    EXCHANGE_TAMPERED,
    HASH,
    HASH_PARTIAL,
    HASH_BAD_LENGTH
};

static const sec_op sig_ops[] = {
    {"sig_keygen", KEYGEN},
    {"sig_sign", SIGN},
    {"sig_verify on a valid signature", VERIFY},
    {"sig_verify on a signature with one byte changed", VERIFY_CHANGED},
    {"sig_verify on a signature with its last byte cut", VERIFY_CUT},
};
static const sec_op kem_ops[] = {
    {"kem_keygen", KEYGEN},
    {"kem_enc", ENC},
    {"kem_dec on a valid ciphertext", DEC},
    {"kem_dec on a ciphertext with one byte changed", DEC_CHANGED},
    {"kem_dec on a ciphertext with its last byte cut", DEC_CUT},
};
static const sec_op kex_ops[] = {
    {"an honest exchange (init_a .. derive_b)", EXCHANGE},
    {"an exchange with a bit of m1 flipped in transit", EXCHANGE_TAMPERED},
};
static const sec_op hash_ops[] = {
    {"CryptHash of a 1000-bit message", HASH},
    {"CryptHash of a 1001-bit message", HASH_PARTIAL},
    {"CryptHash with a digest length 8 bits above its own", HASH_BAD_LENGTH},
};

#define HASH_MSG_BYTES 126

static double op_cost[3];

void sec_ops_costs(const double op_seconds[3])
{
    memcpy(op_cost, op_seconds, sizeof op_cost);
}

double sec_op_seconds(const sec_op *op)
{
    switch (op->kind) {
    case KEYGEN:
        return op_cost[0];
    case SIGN:
    case ENC:
        return op_cost[1];
    case VERIFY:
    case VERIFY_CHANGED:
    case VERIFY_CUT:
    case DEC:
    case DEC_CHANGED:
    case DEC_CUT:
        return op_cost[2];
    default:
        return 0;
    }
}

int sec_ops_of(const sec_job *j, const sec_op **ops)
{
    switch (sec_call_instance()->type) {
    case NGCC_TYPE_KEX:
        *ops = kex_ops;
        return (int)(sizeof kex_ops / sizeof kex_ops[0]);
    case NGCC_TYPE_HASH:
        *ops = hash_ops;
        return (int)(sizeof hash_ops / sizeof hash_ops[0]);
    default:
        *ops = j->plan->is_kem ? kem_ops : sig_ops;
        return 5;
    }
}

int sec_ops_item(const sec_job *j)
{
    for (int i = 0; i < j->plan->nitems; i++)
        if (j->mat->item_ok[i] && j->mat->out_len[i] > 1 && j->mat->key_ok[j->plan->item[i].key])
            return i;
    return -1;
}

size_t sec_op_out_cap(const sec_job *j)
{
    const sec_claims *c = &j->claims;
    ull n = c->pk + c->sk + c->sig + c->ct + c->ss + 2 * c->ss + 3 * c->msg + (ull)(c->digest_bits + 15) / 8;
    return (size_t)n + 64;
}

static void *zalloc(ull n)
{
    void *p = calloc(1, (size_t)n + 64);
    if (!p) {
        fprintf(stderr, "ngcc-security: out of memory (%llu bytes)\n", n);
        exit(3);
    }
    return p;
}

static void enter(const sec_job *j, const char *what)
{
    snprintf(j->res->where, sizeof j->res->where, "%s (%s)", what, j->check->name);
}

/* a copy of item's signature/ciphertext, one byte changed or the last cut */
static unsigned char *input_of(const sec_job *j, int item, int kind, ull *len)
{
    ull n = j->mat->out_len[item];
    unsigned char *in = zalloc(n);
    memcpy(in, j->mat->out[item], (size_t)n);
    if (kind == VERIFY_CHANGED || kind == DEC_CHANGED)
        in[n / 2] ^= 0x01;
    *len = kind == VERIFY_CUT || kind == DEC_CUT ? n - 1 : n;
    return in;
}

static int sig_or_kem(const sec_job *j, const sec_op *op, int item, unsigned char *out, size_t *out_len)
{
    ngcc_instance *in = sec_call_instance();
    const sec_item *it = &j->plan->item[item];
    const sec_claims *c = &j->claims;
    const sec_material *m = j->mat;
    int k = it->key, rc;
    ull a = c->pk, b = c->sk, len;
    unsigned char *x;
    *out_len = 0;
    switch (op->kind) {
    case KEYGEN:
        rc = j->plan->is_kem ? in->kem.keygen(out, &a, out + c->pk, &b) : in->sig.keygen(out, &a, out + c->pk, &b);
        memmove(out + (a < c->pk ? a : c->pk), out + c->pk, (size_t)(b < c->sk ? b : c->sk));
        *out_len = (size_t)((a < c->pk ? a : c->pk) + (b < c->sk ? b : c->sk));
        return rc;
    case SIGN:
        x = zalloc(m->sk_len[k] + it->mlen);
        memcpy(x, m->sk[k], (size_t)m->sk_len[k]);
        memcpy(x + m->sk_len[k], it->m, (size_t)it->mlen);
        a = c->sig;
        rc = in->sig.sign(x, m->sk_len[k], x + m->sk_len[k], it->mlen, out, &a);
        *out_len = (size_t)(a < c->sig ? a : c->sig);
        free(x);
        return rc;
    case ENC:
        x = zalloc(m->pk_len[k]);
        memcpy(x, m->pk[k], (size_t)m->pk_len[k]);
        a = c->ss;
        b = c->ct;
        rc = in->kem.enc(x, m->pk_len[k], out, &a, out + c->ss, &b);
        memmove(out + (a < c->ss ? a : c->ss), out + c->ss, (size_t)(b < c->ct ? b : c->ct));
        *out_len = (size_t)((a < c->ss ? a : c->ss) + (b < c->ct ? b : c->ct));
        free(x);
        return rc;
    case VERIFY:
    case VERIFY_CHANGED:
    case VERIFY_CUT: {
        unsigned char *sn = input_of(j, item, op->kind, &len), *pk = zalloc(m->pk_len[k]), *msg = zalloc(it->mlen);
        memcpy(pk, m->pk[k], (size_t)m->pk_len[k]);
        memcpy(msg, it->m, (size_t)it->mlen);
        rc = in->sig.verify(pk, m->pk_len[k], sn, len, msg, it->mlen);
        free(sn);
        free(pk);
        free(msg);
        return rc;
    }
    default: { /* DEC, DEC_CHANGED, DEC_CUT */
        unsigned char *ct = input_of(j, item, op->kind, &len), *sk = zalloc(m->sk_len[k]);
        memcpy(sk, m->sk[k], (size_t)m->sk_len[k]);
        a = c->ss;
        rc = in->kem.dec(sk, m->sk_len[k], ct, len, out, &a);
        *out_len = (size_t)(a < c->ss ? a : c->ss);
        free(ct);
        free(sk);
        return rc;
    }
    }
}

/* the official KAT_KEX.c order on one DRNG stream (sec_kex_checks.c's session) */
static int exchange(const sec_job *j, int tamper, unsigned char *out, size_t *out_len)
{
    ngcc_instance *in = sec_call_instance();
    const sec_claims *c = &j->claims;
    unsigned char *pk[2], *sk[2], *st[2], *msg[NGCC_KEX_MAXP + 1] = {NULL};
    ull pk_len[2], sk_len[2], st_len[2], m_len[NGCC_KEX_MAXP + 1] = {0}, ss_len[2] = {c->ss, c->ss};
    int rc = 0, passes = (int)(c->passes > NGCC_KEX_MAXP ? NGCC_KEX_MAXP : c->passes);
    for (int p = 0; p < 2; p++) {
        pk[p] = zalloc(c->pk);
        sk[p] = zalloc(c->sk);
        st[p] = zalloc(p ? c->stb : c->sta);
        pk_len[p] = c->pk;
        sk_len[p] = c->sk;
        st_len[p] = p ? c->stb : c->sta;
    }
    for (int k = 1; k <= passes; k++)
        msg[k] = zalloc(c->msg);
    *out_len = 0;
    rc = in->kex.init_a(pk[0], &pk_len[0], sk[0], &sk_len[0], st[0], &st_len[0]);
    if (rc >= 0)
        rc = in->kex.init_b(pk[1], &pk_len[1], sk[1], &sk_len[1], st[1], &st_len[1]);
    int last = 0; /* the last pass run */
    for (int k = 1; rc >= 0 && k <= passes; k++) {
        m_len[k] = c->msg;
        if (k == 1) {
            rc = in->kex.pass1_a(sk[0], sk_len[0], pk[1], pk_len[1], st[0], &st_len[0], msg[1], &m_len[1]);
        } else {
            if (k == 2 && tamper && m_len[1])
                msg[1][0] ^= 0x80;
            int s = k % 2 == 0; /* B sends the even passes */
            if (in->kex.pass[k])
                rc = in->kex.pass[k](sk[s], sk_len[s], pk[!s], pk_len[!s], msg[k - 1], m_len[k - 1], st[s], &st_len[s],
                                     msg[k], &m_len[k]);
        }
        last = k;
        if (rc == 1)
            break;
    }
    if (rc >= 0) {
        if (tamper && last == 1 && m_len[1])
            msg[1][0] ^= 0x80; /* a 1-pass exchange: B derives from the tampered m1 */
        int from_b = last % 2 ? last - 1 : last, from_a = last % 2 ? last : last - 1; /* the last each sent */
        int rca = in->kex.derive_a(sk[0], sk_len[0], pk[1], pk_len[1], from_b ? msg[from_b] : NULL,
                                   from_b ? m_len[from_b] : 0, st[0], st_len[0], out, &ss_len[0]);
        ss_len[0] = ss_len[0] < c->ss ? ss_len[0] : c->ss;
        int rcb = in->kex.derive_b(sk[1], sk_len[1], pk[0], pk_len[0], msg[from_a], m_len[from_a], st[1], st_len[1],
                                   out + ss_len[0], &ss_len[1]);
        ss_len[1] = ss_len[1] < c->ss ? ss_len[1] : c->ss;
        *out_len = (size_t)(ss_len[0] + ss_len[1]);
        rc = rca < 0 ? rca : rcb < 0 ? rcb : 0;
    }
    for (int p = 0; p < 2; p++) {
        free(pk[p]);
        free(sk[p]);
        free(st[p]);
    }
    for (int k = 1; k <= passes; k++)
        free(msg[k]);
    return rc < 0 ? rc : 0;
}

static int hash(const sec_job *j, int kind, unsigned char *out, size_t *out_len)
{
    ngcc_instance *in = sec_call_instance();
    unsigned char msg[HASH_MSG_BYTES + 1];
    int d = j->claims.digest_bits + (kind == HASH_BAD_LENGTH ? 8 : 0);
    sec_plan_bytes(msg, sizeof msg, 0xA11Cu);
    *out_len = (size_t)(d + 7) / 8;
    return in->hash.hash(d, msg, kind == HASH ? 1000 : 1001, out);
}

void sec_op_prepare(const sec_job *j, const sec_op *op, int item)
{
    int key = op->kind >= EXCHANGE || item < 0 ? 0 : j->plan->item[item].key;
    if (op->kind < HASH) {
        enter(j, "init_random_number");
        sec_call_instance()->seed(j->plan->key_seed[key], SEC_SEED_BYTES);
    }
}

int sec_op_call(const sec_job *j, const sec_op *op, int item, unsigned char *out, size_t *out_len)
{
    int rc;
    enter(j, op->what);
    memset(out, 0, sec_op_out_cap(j));
    if (op->kind == EXCHANGE || op->kind == EXCHANGE_TAMPERED)
        rc = exchange(j, op->kind == EXCHANGE_TAMPERED, out, out_len);
    else if (op->kind >= HASH)
        rc = hash(j, op->kind, out, out_len);
    else
        rc = sig_or_kem(j, op, item, out, out_len);
    j->res->progress++;
    return rc;
}

int sec_op_signature_verifies(const sec_job *j, int item, const unsigned char *sn, size_t sn_len)
{
    ngcc_instance *in = sec_call_instance();
    const sec_item *it = &j->plan->item[item];
    int k = it->key;
    unsigned char *pk = zalloc(j->mat->pk_len[k]), *s = zalloc(sn_len), *msg = zalloc(it->mlen);
    memcpy(pk, j->mat->pk[k], (size_t)j->mat->pk_len[k]);
    memcpy(s, sn, sn_len);
    memcpy(msg, it->m, (size_t)it->mlen);
    int rc = in->sig.verify(pk, j->mat->pk_len[k], s, sn_len, msg, it->mlen);
    free(pk);
    free(s);
    free(msg);
    j->res->progress++;
    return rc == 0;
}
