#include "kat_replay.h"
#include "kat_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ngcc_child.h"
#include "ngcc_guard.h"
#include "ngcc_katgen.h"
#include "ngcc_loader.h"
#include "ngcc_util.h"

/* official fprintlen: "<Name>_Len = %llu", or "<Name>_Len = " in blank mode */
void kw_len(kat_writer *w, const char *name, ull v)
{
    if (w->blank)
        fprintf(w->out, "%s_Len = \n", name);
    else
        fprintf(w->out, "%s_Len = %llu\n", name, v);
}

/* official fprintstr: "<Name> = " then %02X of each byte. Never reads past
 * the buffer we own: a length above it was reported as lenover already. */
void kw_hex(kat_writer *w, const char *name, const ngcc_gbuf *g, ull len)
{
    if (len > g->len)
        len = g->len;
    if (2 * len + 1 > w->hexcap) {
        free(w->hexbuf);
        w->hexcap = 2 * len + 1;
        w->hexbuf = malloc(w->hexcap);
    }
    ngcc_hex_upper(w->hexbuf, g->p, len);
    fprintf(w->out, "%s = ", name);
    fwrite(w->hexbuf, 1, 2 * len, w->out);
    fputc('\n', w->out);
}

void kw_event(kat_writer *w, const char *kind, const char *fmt, const char *a, long b)
{
    fprintf(w->meta, "#EV %d %s ", w->record, kind);
    fprintf(w->meta, fmt, a, b);
    fputc('\n', w->meta);
}

/* after every call: guards of every buffer, returned length vs claimed */
void kw_check_guards(kat_writer *w, const char *call, ngcc_gbuf *const *bufs, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        long where;
        if (ngcc_gbuf_check(bufs[i], &where)) {
            char what[96];
            snprintf(what, sizeof what, "%s wrote outside %s", call, names[i]);
            kw_event(w, "overflow", "%s at offset %ld", what, where);
            /* re-arm so one overflow is reported once */
            memcpy(bufs[i]->base, bufs[i]->pattern, NGCC_GUARD_LEN);
            memcpy(bufs[i]->p + bufs[i]->len, bufs[i]->pattern + NGCC_GUARD_LEN, NGCC_GUARD_LEN);
        }
    }
}

void kw_check_len(kat_writer *w, const char *what, ull got, ull claimed)
{
    if (got > claimed) {
        char t[64];
        snprintf(t, sizeof t, "%s %llu", what, got);
        kw_event(w, "lenover", "%s > claimed %ld", t, (long)claimed);
    }
}

void kw_call_rc(kat_writer *w, const char *call, int rc)
{
    if (rc != 0)
        kw_event(w, "call", "%s returned %ld", call, rc);
}

/* Operation timing (wall seconds around each API call): "#B <record> <op>"
 * just before the call (flushed, so the parent knows what is running when a
 * record hangs) and "#T <record> <op> <seconds>" after it. */
static double kw_wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double kw_op_begin(kat_writer *w, const char *op)
{
    fprintf(w->meta, "#B %d %s\n", w->record, op);
    fflush(w->out);
    return kw_wall_now();
}

void kw_op_end(kat_writer *w, const char *op, double t0)
{
    double s = kw_wall_now() - t0;
    fprintf(w->meta, "#T %d %s %.6f\n", w->record, op, s);
}

/* end of a record: "#R <record>", flushed */
void kw_record_end(kat_writer *w)
{
    fprintf(w->meta, "#R %d\n", w->record);
    fflush(w->out);
}

/* The part every record shares, SIG and KEM alike: Count, the record seed,
 * instantiating drng_algorithm, keygen, then PK_Len/PK/SK_Len/SK. */
typedef int (*keygen_fn)(unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len);

static void record_keygen(kat_writer *w, ngcc_instance *in, keygen_fn keygen, const char *call, const char *op,
                          ngcc_gbuf *const *bufs, const char *const *names, int nbufs, ngcc_gbuf *seed, ngcc_gbuf *pk,
                          ull *pk_len, ull pk_claim, ngcc_gbuf *sk, ull *sk_len, ull sk_claim)
{
    fprintf(w->out, "Seed_Len = %d\n", NGCC_KAT_SEED_BYTES);
    kw_hex(w, "Seed", seed, NGCC_KAT_SEED_BYTES);
    in->seed(seed->p, NGCC_KAT_SEED_BYTES);
    fflush(w->out);
    double t0 = kw_op_begin(w, op);
    int rc = keygen(pk->p, pk_len, sk->p, sk_len);
    kw_op_end(w, op, t0);
    kw_call_rc(w, call, rc);
    kw_check_guards(w, call, bufs, names, nbufs);
    kw_check_len(w, "pk_len", *pk_len, pk_claim);
    kw_check_len(w, "sk_len", *sk_len, sk_claim);
    kw_len(w, "PK", *pk_len);
    kw_hex(w, "PK", pk, *pk_len);
    kw_len(w, "SK", *sk_len);
    kw_hex(w, "SK", sk, *sk_len);
}

static int replay_sig(kat_writer *w, ngcc_instance *in, int records)
{
    ngcc_sig_api *a = &in->sig;
    ull pk_len = a->pk_len(), sk_len = a->sk_len(), sn_len = a->sn_len();
    const ull pk_claim = pk_len, sk_claim = sk_len, sn_claim = sn_len;
    fprintf(w->meta, "#META claimed_pk %llu\n#META claimed_sk %llu\n#META claimed_sn %llu\n", pk_len, sk_len, sn_len);
    ngcc_gbuf pk, sk, sn, m, seed;
    if (ngcc_gbuf_alloc(&pk, pk_len, 1, 0) || ngcc_gbuf_alloc(&sk, sk_len, 2, 0) ||
        ngcc_gbuf_alloc(&sn, sn_len, 3, 0) || ngcc_gbuf_alloc(&m, NGCC_KAT_MSG_MAX, 4, 0) ||
        ngcc_gbuf_alloc(&seed, NGCC_KAT_SEED_BYTES, 5, 0)) {
        ngcc_child_note_alloc_failure("claimed buffers", pk_len + sk_len + sn_len);
        fprintf(w->meta, "#LOADFAIL cannot allocate the claimed buffer sizes\n");
        return 1;
    }
    ngcc_gbuf *bufs[] = {&pk, &sk, &sn, &m, &seed};
    const char *names[] = {"pk", "sk", "sn", "m", "seed"};
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, 0);
    for (int i = 0; i < records; i++) {
        ull m_len = ngcc_katgen_mlen(i);
        w->record = i;
        fprintf(w->out, "Count = %d\n", i);
        ngcc_katgen_next(&gen, seed.p, m.p);
        record_keygen(w, in, a->keygen, "sig_keygen", "keygen", bufs, names, 5, &seed, &pk, &pk_len, pk_claim, &sk,
                      &sk_len, sk_claim);
        fprintf(w->out, "M_Len = %d\n", (int)m_len);
        kw_hex(w, "M", &m, m_len);
        fflush(w->out);
        double t0 = kw_op_begin(w, "sign");
        int rc = a->sign(sk.p, sk_len, m.p, m_len, sn.p, &sn_len);
        kw_op_end(w, "sign", t0);
        kw_call_rc(w, "sig_sign", rc);
        kw_check_guards(w, "sig_sign", bufs, names, 5);
        kw_check_len(w, "sn_len", sn_len, sn_claim);
        kw_len(w, "Sn", sn_len);
        kw_hex(w, "Sn", &sn, sn_len);
        fflush(w->out);
        t0 = kw_op_begin(w, "verify");
        rc = a->verify(pk.p, pk_len, sn.p, sn_len > sn_claim ? sn_claim : sn_len, m.p, m_len);
        kw_op_end(w, "verify", t0);
        kw_call_rc(w, "sig_verify", rc);
        kw_check_guards(w, "sig_verify", bufs, names, 5);
        fputc('\n', w->out);
        kw_record_end(w);
        fflush(w->out);
    }
    return 0;
}

static int replay_kem(kat_writer *w, ngcc_instance *in, int records)
{
    ngcc_kem_api *a = &in->kem;
    ull pk_len = a->pk_len(), sk_len = a->sk_len(), ss_len = a->ss_len(), ct_len = a->ct_len();
    const ull pk_claim = pk_len, sk_claim = sk_len, ss_claim = ss_len, ct_claim = ct_len;
    fprintf(w->meta, "#META claimed_pk %llu\n#META claimed_sk %llu\n#META claimed_ss %llu\n#META claimed_ct %llu\n",
            pk_len, sk_len, ss_len, ct_len);
    ngcc_gbuf pk, sk, ss, ss1, ct, seed;
    if (ngcc_gbuf_alloc(&pk, pk_len, 1, 0) || ngcc_gbuf_alloc(&sk, sk_len, 2, 0) ||
        ngcc_gbuf_alloc(&ss, ss_len, 3, 0) || ngcc_gbuf_alloc(&ss1, ss_len, 4, 0) ||
        ngcc_gbuf_alloc(&ct, ct_len, 5, 0) || ngcc_gbuf_alloc(&seed, NGCC_KAT_SEED_BYTES, 6, 0)) {
        ngcc_child_note_alloc_failure("claimed buffers", pk_len + sk_len + 2 * ss_len + ct_len);
        fprintf(w->meta, "#LOADFAIL cannot allocate the claimed buffer sizes\n");
        return 1;
    }
    ngcc_gbuf *bufs[] = {&pk, &sk, &ss, &ss1, &ct, &seed};
    const char *names[] = {"pk", "sk", "ss", "ss1", "ct", "seed"};
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, 1);
    for (int i = 0; i < records; i++) {
        w->record = i;
        fprintf(w->out, "Count = %d\n", i);
        ngcc_katgen_next(&gen, seed.p, NULL);
        record_keygen(w, in, a->keygen, "kem_keygen", "keygen", bufs, names, 6, &seed, &pk, &pk_len, pk_claim, &sk,
                      &sk_len, sk_claim);
        fflush(w->out);
        double t0 = kw_op_begin(w, "enc");
        int rc = a->enc(pk.p, pk_len, ss.p, &ss_len, ct.p, &ct_len);
        kw_op_end(w, "enc", t0);
        kw_call_rc(w, "kem_enc", rc);
        kw_check_guards(w, "kem_enc", bufs, names, 6);
        kw_check_len(w, "ct_len", ct_len, ct_claim);
        kw_check_len(w, "ss_len", ss_len, ss_claim);
        kw_len(w, "CT", ct_len);
        kw_hex(w, "CT", &ct, ct_len);
        kw_len(w, "SS", ss_len);
        kw_hex(w, "SS", &ss, ss_len);
        fflush(w->out);
        /* official: dec writes into the same ss_len variable */
        t0 = kw_op_begin(w, "dec");
        rc = a->dec(sk.p, sk_len, ct.p, ct_len > ct_claim ? ct_claim : ct_len, ss1.p, &ss_len);
        kw_op_end(w, "dec", t0);
        kw_call_rc(w, "kem_dec", rc);
        kw_check_guards(w, "kem_dec", bufs, names, 6);
        kw_check_len(w, "ss_len", ss_len, ss_claim);
        if (memcmp(ss.p, ss1.p, ss_len > ss_claim ? ss_claim : ss_len) != 0)
            kw_event(w, "ssdiff", "%s at record %ld", "kem_dec shared secret differs from kem_enc's", (long)i);
        fputc('\n', w->out);
        kw_record_end(w);
        fflush(w->out);
    }
    return 0;
}

static int valid_instance_name(const char *s)
{
    size_t n = strlen(s);
    if (n > 64)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

int kat_replay_child(void *vargs, int wfd)
{
    kat_replay_args *args = vargs;
    kat_writer w = {0};
    w.out = fdopen(wfd, "w");
    if (!w.out)
        return 2;
    setvbuf(w.out, NULL, _IOFBF, 1 << 20);
    w.meta = args->text_only ? fopen("/dev/null", "w") : w.out;
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(args->lib, &in, err, sizeof err)) {
        fprintf(w.meta, "#LOADFAIL %s\n", err);
        fclose(w.out);
        return 1;
    }
    if (in.type == NGCC_TYPE_HASH) {
        fprintf(w.meta, "#LOADFAIL %s is a hash instance: its KAT files are replayed by ngcc-kat-hash\n", args->lib);
        fclose(w.out);
        return 1;
    }
    const ngcc_meta *mt = in.meta;
    w.blank = mt->blank;
    fprintf(w.meta, "#META type %s\n#META algorithm_instance %s\n#META blank %d\n", mt->type, mt->algorithm_instance,
            mt->blank);
    fprintf(w.meta, "#META impl_variant %s\n#META flagset %s\n#META compiler %s\n#META flags %s\n", mt->impl_variant,
            mt->flagset, mt->compiler, mt->flags);
    fprintf(w.meta, "#META name_valid %d\n", valid_instance_name(mt->algorithm_instance));
    int rc = in.type == NGCC_TYPE_KEX ? kat_replay_kex(&w, &in, args->records)
             : in.is_kem              ? replay_kem(&w, &in, args->records)
                                      : replay_sig(&w, &in, args->records);
    if (rc == 0)
        fprintf(w.meta, "#DONE\n");
    if (rc == 2)
        rc = 0; /* KEX: stopped as the official driver does (#STOP) */
    if (w.meta != w.out)
        fclose(w.meta);
    fclose(w.out);
    return rc;
}
