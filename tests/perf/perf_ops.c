#include "perf_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_verdict.h"

/* Buffers get slack past the claimed length: an instance timed anyway after
 * an OVERFLOW verdict must not corrupt the harness heap (guards are the KAT
 * and security tests' job, not the timer's). */
#define PERF_SLACK 4096

static const char *const op_names[] = {"keygen", "sign",     "verify",   "enc",      "dec",   "init_a", "init_b",
                                       "pass1",  "pass2",    "pass3",    "pass4",    "pass5", "pass6",  "pass7",
                                       "pass8",  "derive_a", "derive_b", "exchange", "hash"};

int perf_op_parse(const char *name, int is_kem)
{
    static const perf_op sig_ops[] = {PERF_KEYGEN, PERF_SIGN, PERF_VERIFY};
    static const perf_op kem_ops[] = {PERF_KEYGEN, PERF_ENC, PERF_DEC};
    const perf_op *ops = is_kem ? kem_ops : sig_ops;
    for (int i = 0; i < 3; i++)
        if (name && strcmp(name, op_names[ops[i]]) == 0)
            return (int)ops[i];
    return -1;
}

int perf_op_parse_inst(const char *name, const ngcc_instance *inst, ull *hash_bytes)
{
    if (!name)
        return -1;
    if (inst->type == NGCC_TYPE_KEX) {
        for (int i = PERF_KEX_INIT_A; i <= PERF_KEX_EXCHANGE; i++)
            if (strcmp(name, op_names[i]) == 0)
                return i;
        return -1;
    }
    if (inst->type == NGCC_TYPE_HASH) {
        char *end;
        if (strncmp(name, "hash-", 5) != 0 || name[5] < '0' || name[5] > '9')
            return -1;
        unsigned long long n = strtoull(name + 5, &end, 10);
        if (*end || n > (1ull << 30))
            return -1;
        *hash_bytes = n;
        return PERF_HASH;
    }
    return perf_op_parse(name, inst->is_kem);
}

const char *perf_op_list(const ngcc_instance *inst)
{
    switch (inst->type) {
    case NGCC_TYPE_KEX:
        return "init_a init_b pass1 pass2 pass3 (pass4 .. pass8) derive_a derive_b exchange";
    case NGCC_TYPE_HASH:
        return "hash-<bytes>, e.g. hash-64";
    case NGCC_TYPE_KEM:
        return "keygen enc dec";
    default:
        return "keygen sign verify";
    }
}

const char *perf_op_name(perf_op op)
{
    return op_names[op];
}

static unsigned char *buf(ull len)
{
    return calloc(1, (size_t)len + PERF_SLACK);
}

static ull max3(ull a, ull b, ull c)
{
    ull m = a > b ? a : b;
    return m > c ? m : c;
}

static void seen_len(perf_ctx *c, ull len)
{
    if (len < c->out_min)
        c->out_min = len;
    if (len > c->out_max)
        c->out_max = len;
}

static int fail(int *verdict, int v, char *err, size_t errlen, const char *what, int r, int rc)
{
    *verdict = v;
    snprintf(err, errlen, "%s returned %d on KAT record %d while preparing the inputs", what, rc, r);
    return -1;
}

static int alloc_record(perf_ctx *c, int r)
{
    perf_record_io *io = &c->rec[r];
    io->pk = buf(c->claimed_pk);
    io->sk = buf(c->claimed_sk);
    io->sn = buf(c->claimed_sn);
    io->ct = buf(c->claimed_ct);
    io->ss = buf(c->claimed_ss);
    return io->pk && io->sk && io->sn && io->ct && io->ss ? 0 : -1;
}

/* the official flow's first step for record r: fresh DRNG from its seed,
 * then keygen; the DRNG is left where the KAT's sign / enc found it */
static int keygen_record(perf_ctx *c, int r)
{
    perf_record_io *io = &c->rec[r];
    io->pk_len = c->claimed_pk;
    io->sk_len = c->claimed_sk;
    c->inst->seed(io->seed, NGCC_KAT_SEED_BYTES);
    return c->inst->is_kem ? c->inst->kem.keygen(io->pk, &io->pk_len, io->sk, &io->sk_len)
                           : c->inst->sig.keygen(io->pk, &io->pk_len, io->sk, &io->sk_len);
}

/* verify's input: the KAT signature of record r (sign checked by verify) */
static int sign_record(perf_ctx *c, int r, int *verdict, char *err, size_t errlen)
{
    ngcc_sig_api *a = &c->inst->sig;
    perf_record_io *io = &c->rec[r];
    io->sn_len = c->claimed_sn;
    int rc = a->sign(io->sk, io->sk_len, io->m, io->m_len, io->sn, &io->sn_len);
    if (rc)
        return fail(verdict, NGCC_CRYPTOFAIL, err, errlen, "sig_sign", r, rc);
    if (io->sn_len > c->claimed_sn) {
        *verdict = NGCC_OVERFLOW;
        snprintf(err, errlen, "sig_sign returned sn_len %llu > claimed %llu on KAT record %d", io->sn_len,
                 c->claimed_sn, r);
        return -1;
    }
    seen_len(c, io->sn_len);
    rc = a->verify(io->pk, io->pk_len, io->sn, io->sn_len, io->m, io->m_len);
    if (rc)
        return fail(verdict, NGCC_CRYPTOFAIL, err, errlen, "sig_verify of the honest signature", r, rc);
    return 0;
}

/* dec's input: the KAT ciphertext of record r (dec checked against enc's secret) */
static int enc_record(perf_ctx *c, int r, int *verdict, char *err, size_t errlen)
{
    ngcc_kem_api *a = &c->inst->kem;
    perf_record_io *io = &c->rec[r];
    io->ct_len = c->claimed_ct;
    io->ss_len = c->claimed_ss;
    int rc = a->enc(io->pk, io->pk_len, io->ss, &io->ss_len, io->ct, &io->ct_len);
    if (rc)
        return fail(verdict, NGCC_CRYPTOFAIL, err, errlen, "kem_enc", r, rc);
    if (io->ct_len > c->claimed_ct || io->ss_len > c->claimed_ss) {
        *verdict = NGCC_OVERFLOW;
        snprintf(err, errlen,
                 "kem_enc returned ct_len %llu / ss_len %llu above the claimed %llu / %llu "
                 "on KAT record %d",
                 io->ct_len, io->ss_len, c->claimed_ct, c->claimed_ss, r);
        return -1;
    }
    seen_len(c, io->ct_len);
    c->out_b_len = c->claimed_ss;
    rc = a->dec(io->sk, io->sk_len, io->ct, io->ct_len, c->out_b, &c->out_b_len);
    if (rc || c->out_b_len != io->ss_len || memcmp(c->out_b, io->ss, (size_t)io->ss_len) != 0)
        return fail(verdict, NGCC_CRYPTOFAIL, err, errlen, "kem_dec (or its shared secret differs from kem_enc's)", r,
                    rc);
    return 0;
}

/* record r's inputs for op: verify / dec need the whole flow up to their
 * input; keygen, sign and enc redo theirs before every call (perf_op_prepare) */
static int setup_record(perf_ctx *c, int r, int *verdict, char *err, size_t errlen)
{
    if (alloc_record(c, r))
        return fail(verdict, NGCC_ERROR, err, errlen, "calloc of the claimed sizes", r, -1);
    if (c->op != PERF_VERIFY && c->op != PERF_DEC)
        return 0;
    int rc = keygen_record(c, r);
    if (rc)
        return fail(verdict, NGCC_CRYPTOFAIL, err, errlen, c->inst->is_kem ? "kem_keygen" : "sig_keygen", r, rc);
    return c->op == PERF_VERIFY ? sign_record(c, r, verdict, err, errlen) : enc_record(c, r, verdict, err, errlen);
}

static int setup_impl(perf_ctx *c, ngcc_instance *inst, perf_op op, ull hash_bytes, int records, int *verdict,
                      char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->inst = inst;
    c->op = op;
    c->records = records < 1 ? 1 : records > NGCC_KAT_RECORDS ? NGCC_KAT_RECORDS : records;
    c->out_min = ~0ull;
    if (inst->type == NGCC_TYPE_HASH) {
        c->hash.bytes = hash_bytes; /* one message per length: every "record" hashes it */
        return perf_hash_setup(c, verdict, err, errlen);
    }
    if (inst->type == NGCC_TYPE_KEX) {
        ngcc_katgen gen;
        ngcc_katgen_init(&gen, 1); /* KAT_KEX.c: the seed DRNG only */
        for (int r = 0; r < c->records; r++)
            ngcc_katgen_next(&gen, c->rec[r].seed, NULL);
        return perf_kex_setup(c, verdict, err, errlen);
    }
    int kem = inst->is_kem;
    c->claimed_pk = kem ? inst->kem.pk_len() : inst->sig.pk_len();
    c->claimed_sk = kem ? inst->kem.sk_len() : inst->sig.sk_len();
    if (kem) {
        c->claimed_ct = inst->kem.ct_len();
        c->claimed_ss = inst->kem.ss_len();
    } else {
        c->claimed_sn = inst->sig.sn_len();
    }
    /* timed outputs: a = pk / sn / ss, b = sk / ct / ss of setup's dec check */
    ull a_len = op == PERF_KEYGEN ? c->claimed_pk : kem ? c->claimed_ss : c->claimed_sn;
    ull b_len = op == PERF_KEYGEN ? c->claimed_sk : 0;
    if (kem) /* also setup's dec check */
        b_len = max3(c->claimed_sk, c->claimed_ct, c->claimed_ss);
    c->out_a = buf(a_len);
    c->out_b = buf(b_len);
    if (!c->out_a || !c->out_b)
        return fail(verdict, NGCC_ERROR, err, errlen, "calloc of the claimed sizes", 0, -1);
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, kem);
    for (int r = 0; r < c->records; r++) {
        c->rec[r].m_len = kem ? 0 : ngcc_katgen_mlen(r);
        ngcc_katgen_next(&gen, c->rec[r].seed, c->rec[r].m);
        if (setup_record(c, r, verdict, err, errlen))
            return -1;
    }
    return 0;
}

int perf_ctx_setup(perf_ctx *c, ngcc_instance *inst, perf_op op, int records, int *verdict, char *err, size_t errlen)
{
    return setup_impl(c, inst, op, 0, records, verdict, err, errlen);
}

int perf_ctx_setup_op(perf_ctx *c, ngcc_instance *inst, const char *op_name, int records, int *verdict, char *err,
                      size_t errlen)
{
    ull bytes = 0;
    int op = perf_op_parse_inst(op_name, inst, &bytes);
    if (op < 0) {
        memset(c, 0, sizeof *c);
        *verdict = NGCC_ERROR;
        snprintf(err, errlen, "--op %s is not an operation of a %s instance (%s)", op_name ? op_name : "(none)",
                 ngcc_type_name(inst->type), perf_op_list(inst));
        return -1;
    }
    return setup_impl(c, inst, (perf_op)op, bytes, records, verdict, err, errlen);
}

void perf_ctx_free(perf_ctx *c)
{
    if (c->inst && c->inst->type == NGCC_TYPE_KEX)
        perf_kex_free(c);
    if (c->inst && c->inst->type == NGCC_TYPE_HASH)
        perf_hash_free(c);
    for (int r = 0; r < NGCC_KAT_RECORDS; r++) {
        perf_record_io *io = &c->rec[r];
        free(io->pk);
        free(io->sk);
        free(io->sn);
        free(io->ct);
        free(io->ss);
    }
    free(c->out_a);
    free(c->out_b);
    memset(c, 0, sizeof *c);
}

int perf_op_prepare(perf_ctx *c, int r, char *err, size_t errlen)
{
    int rc = 0;
    if (c->op >= PERF_KEX_INIT_A && c->op <= PERF_KEX_EXCHANGE)
        return perf_kex_prepare(c, r, err, errlen);
    if (c->op == PERF_HASH)
        return perf_hash_prepare(c, err, errlen);
    switch (c->op) {
    case PERF_KEYGEN:
        c->out_a_len = c->claimed_pk;
        c->out_b_len = c->claimed_sk;
        c->inst->seed(c->rec[r].seed, NGCC_KAT_SEED_BYTES);
        return 0;
    case PERF_SIGN:
        c->out_a_len = c->claimed_sn;
        rc = keygen_record(c, r);
        break;
    case PERF_ENC:
        c->out_a_len = c->claimed_ss;
        c->out_b_len = c->claimed_ct;
        rc = keygen_record(c, r);
        break;
    case PERF_DEC:
        c->out_a_len = c->claimed_ss;
        return 0;
    default:
        return 0;
    }
    if (rc) {
        snprintf(err, errlen, "%s returned %d on KAT record %d (untimed, before the timed %s)",
                 c->inst->is_kem ? "kem_keygen" : "sig_keygen", rc, r, perf_op_name(c->op));
        return NGCC_CRYPTOFAIL;
    }
    return 0;
}

int perf_op_run(perf_ctx *c, int r)
{
    perf_record_io *io = &c->rec[r];
    ngcc_instance *in = c->inst;
    switch (c->op) {
    case PERF_KEYGEN:
        return in->is_kem ? in->kem.keygen(c->out_a, &c->out_a_len, c->out_b, &c->out_b_len)
                          : in->sig.keygen(c->out_a, &c->out_a_len, c->out_b, &c->out_b_len);
    case PERF_SIGN:
        return in->sig.sign(io->sk, io->sk_len, io->m, io->m_len, c->out_a, &c->out_a_len);
    case PERF_VERIFY:
        return in->sig.verify(io->pk, io->pk_len, io->sn, io->sn_len, io->m, io->m_len);
    case PERF_ENC:
        return in->kem.enc(io->pk, io->pk_len, c->out_a, &c->out_a_len, c->out_b, &c->out_b_len);
    case PERF_DEC:
        return in->kem.dec(io->sk, io->sk_len, io->ct, io->ct_len, c->out_a, &c->out_a_len);
    case PERF_HASH:
        return perf_hash_run(c);
    default:
        return perf_kex_run(c, r);
    }
}

int perf_op_check(perf_ctx *c, int r, int rc, char *err, size_t errlen)
{
    if (c->op >= PERF_KEX_INIT_A && c->op <= PERF_KEX_EXCHANGE)
        return perf_kex_check(c, r, rc, err, errlen);
    if (c->op == PERF_HASH)
        return perf_hash_check(c, rc, err, errlen);
    const char *op = perf_op_name(c->op);
    if (rc != 0) {
        snprintf(err, errlen, "%s returned %d on KAT record %d during the measurement", op, rc, r);
        return NGCC_CRYPTOFAIL;
    }
    ull len = c->op == PERF_SIGN ? c->out_a_len : c->op == PERF_ENC ? c->out_b_len : 0;
    ull claimed = c->op == PERF_SIGN ? c->claimed_sn : c->claimed_ct;
    if (len > claimed) {
        snprintf(err, errlen, "%s returned a length of %llu bytes > claimed %llu on KAT record %d", op, len, claimed,
                 r);
        return NGCC_OVERFLOW;
    }
    if (c->op == PERF_SIGN || c->op == PERF_ENC)
        seen_len(c, len);
    if (c->op == PERF_DEC &&
        (c->out_a_len != c->rec[r].ss_len || memcmp(c->out_a, c->rec[r].ss, (size_t)c->rec[r].ss_len) != 0)) {
        snprintf(err, errlen, "dec of KAT record %d's ciphertext returned a shared secret other than enc's", r);
        return NGCC_CRYPTOFAIL;
    }
    return 0;
}
