#include "sec_call.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sec_buf.h"

static struct {
    ngcc_instance *in;
    sec_result *res;
    sec_claims cl;
    unsigned tag; /* per buffer: guards and fill patterns differ from call to call */
    int pattern;  /* 0: per-call fills; 1, 2: the fixed patterns of sec_call_pattern */
    int stale;    /* 0, or the stale_state fill of sec_call_stale */
} S;

/* one argument of a call: an input (must come back unchanged) or an output
 * (claimed size; bytes past the returned length must stay untouched) */
typedef struct {
    const char *name;
    sec_buf b;
    unsigned tag;
    const unsigned char *orig; /* inputs: the caller's data; NULL for outputs */
    ull claimed;               /* outputs */
    ull *len;                  /* outputs: the in/out length variable */
} arg;

void sec_claims_read(const ngcc_instance *in, sec_claims *cl)
{
    memset(cl, 0, sizeof *cl);
    if (in->is_kem) {
        cl->pk = in->kem.pk_len();
        cl->sk = in->kem.sk_len();
        cl->ct = in->kem.ct_len();
        cl->ss = in->kem.ss_len();
    } else {
        cl->pk = in->sig.pk_len();
        cl->sk = in->sig.sk_len();
        cl->sig = in->sig.sn_len();
    }
}

void sec_call_begin(ngcc_instance *in, sec_result *res, const sec_claims *cl)
{
    S.in = in;
    S.res = res;
    S.cl = *cl;
    S.tag = 0x5EC0u;
}

/* a buffer of the claimed size cannot be had: the harness, not the
 * submission, is out of memory; the parent reports the exit */
static void need(int ok, const char *name, ull len)
{
    if (!ok) {
        fprintf(stderr, "ngcc-security: cannot allocate %llu bytes for %s; raise \"memory_limit_mb\"\n", len, name);
        _exit(3);
    }
}

static void input(arg *a, const char *name, const unsigned char *data, ull len)
{
    memset(a, 0, sizeof *a);
    a->name = name;
    a->orig = data;
    a->tag = ++S.tag;
    need(sec_buf_alloc(&a->b, (size_t)len, a->tag, data) == 0, name, len);
}

static void output(arg *a, const char *name, ull claimed, ull *len)
{
    memset(a, 0, sizeof *a);
    a->name = name;
    a->claimed = claimed;
    a->len = len;
    *len = claimed; /* in/out: enters holding the claimed maximum */
    a->tag = ++S.tag;
    need(sec_buf_alloc(&a->b, (size_t)claimed, a->tag, NULL) == 0, name, claimed);
    if (S.pattern)
        for (ull i = 0; i < claimed; i++)
            a->b.g.p[i] = sec_call_pattern_byte(S.pattern, i);
}

void sec_call_pattern(int which)
{
    S.pattern = which;
}

unsigned char sec_call_pattern_byte(int which, ull i)
{
    unsigned char b = sec_buf_fill_byte(0xF111u, (size_t)i);
    return which == 2 ? (unsigned char)~b : b; /* the two patterns differ in every byte */
}

void sec_call_stale(int which)
{
    S.stale = which;
    /* M_PERTURB b: malloc fills new blocks with b ^ 0xFF, free fills with b */
    mallopt(M_PERTURB, which == 1 ? 0xFF : which == 2 ? 0x5A : 0);
}

/* fills the stack the next call's frames will occupy; called right before
 * the call, from the wrapper's frame, so nothing runs in between */
static __attribute__((noinline)) void stale_stack(int which)
{
    volatile unsigned char pad[SEC_STALE_STACK];
    unsigned char b = which == 1 ? 0x00 : 0xA5;
    for (size_t i = 0; i < sizeof pad; i++)
        pad[i] = b;
}

static void enter(const char *api, const char *what)
{
    snprintf(S.res->where, sizeof S.res->where, "%s at %s", api, what);
}

/* the first changed byte of an input, or -1 */
static long changed_at(const arg *a)
{
    for (size_t i = 0; i < a->b.g.len; i++)
        if (a->b.g.p[i] != a->orig[i])
            return (long)i;
    return -1;
}

static void check_output(const char *api, const char *what, arg *a)
{
    if (*a->len > a->claimed) {
        sec_issue_add(&S.res->length, "%s returned %s_len %llu, above the claimed maximum %llu, at %s", api, a->name,
                      *a->len, a->claimed, what);
        *a->len = a->claimed;
        return;
    }
    for (ull i = *a->len; i < a->claimed; i++)
        if (a->b.g.p[i] != (S.pattern ? sec_call_pattern_byte(S.pattern, i) : sec_buf_fill_byte(a->tag, (size_t)i))) {
            sec_issue_add(&S.res->buffer, "%s wrote past the returned %s_len %llu (byte %llu of %llu changed) at %s",
                          api, a->name, *a->len, i, a->claimed, what);
            return;
        }
}

/* after every call: guards, unchanged inputs, outputs within the claims */
static void after(const char *api, const char *what, arg *args, int n)
{
    for (int i = 0; i < n; i++) {
        arg *a = &args[i];
        long where;
        if (sec_buf_guard_broken(&a->b, &where))
            sec_issue_add(&S.res->buffer, "%s wrote outside %s (byte %ld of a %zu-byte buffer) at %s", api, a->name,
                          where, a->b.g.len, what);
        if (a->orig) {
            long c = changed_at(a);
            if (c >= 0)
                sec_issue_add(&S.res->buffer, "%s changed its input %s (byte %ld) at %s", api, a->name, c, what);
        } else {
            check_output(api, what, a);
        }
    }
    S.res->calls_checked++;
    S.res->progress++;
}

/* copies an output to the caller and frees every argument */
static void finish(arg *args, int n, unsigned char *const *dest)
{
    for (int i = 0; i < n; i++) {
        if (!args[i].orig && dest[i] && *args[i].len)
            memcpy(dest[i], args[i].b.g.p, (size_t)*args[i].len);
        sec_buf_free(&args[i].b);
    }
}

/* verify/dec: the API documents 0, -1 and -2..-99 */
static void note_rc(const char *api, const char *what, int rc)
{
    sec_rc_add(&S.res->rc, rc);
    if (rc > 0 || rc < -99)
        sec_issue_add(&S.res->odd_rc, "%s returned %d at %s (the API documents 0, -1 and -2..-99)", api, rc, what);
}

void sec_call_seed(const unsigned char *seed, const char *what)
{
    enter("init_random_number", what);
    S.in->seed(seed, 64);
    S.res->progress++;
}

int sec_call_drng_draw(unsigned char *out, ull len, const char *what)
{
    ngcc_drng_draw_fn draw = (ngcc_drng_draw_fn)ngcc_instance_sym(S.in, "ngcc_drng_draw");
    if (!draw)
        return -1;
    enter("get_random_number", what);
    int rc = draw(out, len);
    S.res->progress++;
    return rc;
}

int sec_keygen(const char *what, unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len)
{
    const char *api = S.in->is_kem ? "kem_keygen" : "sig_keygen";
    arg a[2];
    output(&a[0], "pk", S.cl.pk, pk_len);
    output(&a[1], "sk", S.cl.sk, sk_len);
    enter(api, what);
    int rc = S.in->is_kem ? S.in->kem.keygen(a[0].b.g.p, pk_len, a[1].b.g.p, sk_len)
                          : S.in->sig.keygen(a[0].b.g.p, pk_len, a[1].b.g.p, sk_len);
    after(api, what, a, 2);
    unsigned char *dest[2] = {pk, sk};
    finish(a, 2, dest);
    return rc;
}

int sec_sign(const char *what, const unsigned char *sk, ull sk_len, const unsigned char *m, ull m_len,
             unsigned char *sn, ull *sn_len)
{
    arg a[3];
    input(&a[0], "sk", sk, sk_len);
    input(&a[1], "m", m, m_len);
    output(&a[2], "sn", S.cl.sig, sn_len);
    enter("sig_sign", what);
    int rc = S.in->sig.sign(a[0].b.g.p, sk_len, a[1].b.g.p, m_len, a[2].b.g.p, sn_len);
    after("sig_sign", what, a, 3);
    unsigned char *dest[3] = {NULL, NULL, sn};
    finish(a, 3, dest);
    return rc;
}

int sec_verify(const char *what, const unsigned char *pk, ull pk_len, const unsigned char *sn, ull sn_len,
               const unsigned char *m, ull m_len)
{
    arg a[3];
    input(&a[0], "pk", pk, pk_len);
    input(&a[1], "sn", sn, sn_len);
    input(&a[2], "m", m, m_len);
    enter("sig_verify", what);
    if (S.stale)
        stale_stack(S.stale);
    int rc = S.in->sig.verify(a[0].b.g.p, pk_len, a[1].b.g.p, sn_len, a[2].b.g.p, m_len);
    after("sig_verify", what, a, 3);
    note_rc("sig_verify", what, rc);
    unsigned char *dest[3] = {NULL, NULL, NULL};
    finish(a, 3, dest);
    return rc;
}

int sec_enc(const char *what, const unsigned char *pk, ull pk_len, unsigned char *ss, ull *ss_len, unsigned char *ct,
            ull *ct_len)
{
    arg a[3];
    input(&a[0], "pk", pk, pk_len);
    output(&a[1], "ss", S.cl.ss, ss_len);
    output(&a[2], "ct", S.cl.ct, ct_len);
    enter("kem_enc", what);
    int rc = S.in->kem.enc(a[0].b.g.p, pk_len, a[1].b.g.p, ss_len, a[2].b.g.p, ct_len);
    after("kem_enc", what, a, 3);
    unsigned char *dest[3] = {NULL, ss, ct};
    finish(a, 3, dest);
    return rc;
}

int sec_dec(const char *what, const unsigned char *sk, ull sk_len, const unsigned char *ct, ull ct_len,
            unsigned char *ss, ull *ss_len)
{
    arg a[3];
    input(&a[0], "sk", sk, sk_len);
    input(&a[1], "ct", ct, ct_len);
    output(&a[2], "ss", S.cl.ss, ss_len);
    enter("kem_dec", what);
    if (S.stale)
        stale_stack(S.stale);
    int rc = S.in->kem.dec(a[0].b.g.p, sk_len, a[1].b.g.p, ct_len, a[2].b.g.p, ss_len);
    after("kem_dec", what, a, 3);
    note_rc("kem_dec", what, rc);
    unsigned char *dest[3] = {NULL, NULL, ss};
    finish(a, 3, dest);
    return rc;
}
