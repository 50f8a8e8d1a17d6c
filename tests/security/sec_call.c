#include "sec_call.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngcc_kex_pass.h"
#include "sec_buf.h"

static struct {
    ngcc_instance *in;
    sec_result *res;
    sec_claims cl;
    unsigned tag;   /* per buffer: guards and fill patterns differ from call to call */
    int pattern;    /* 0: per-call fills; 1, 2: the fixed patterns of sec_call_pattern */
    int stale;      /* 0, or the stale_state fill of sec_call_stale */
    int direct;     /* KEX incoming messages passed as they are (sec_call_kex_direct) */
    int mark_calls; /* "#CALL <where>" on stderr before every call */
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
    ull in_len;                /* in/out outputs (KEX state): bytes of caller data it entered with */
    int scratch;               /* inputs the callee may overwrite (KEX derive's state) */
} arg;

void sec_claims_read(const ngcc_instance *in, sec_claims *cl)
{
    memset(cl, 0, sizeof *cl);
    if (in->type == NGCC_TYPE_KEX) {
        cl->passes = in->kex.passes_num();
        cl->pk = in->kex.pk_len();
        cl->sk = in->kex.sk_len();
        cl->sta = in->kex.sta_len();
        cl->stb = in->kex.stb_len();
        cl->ss = in->kex.ss_len();
        cl->msg = in->kex.total_msg_len();
    } else if (in->type == NGCC_TYPE_HASH) {
        cl->digest_bits = in->hash.digest_bits;
    } else if (in->is_kem) {
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

ngcc_instance *sec_call_instance(void)
{
    return S.in;
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
    if (S.mark_calls) /* sanitizer runs: a report names the call it happened in */
        dprintf(2, "#CALL %s\n", S.res->where);
}

void sec_call_mark_calls(int on)
{
    S.mark_calls = on;
}

/* a rerun's call that ended an earlier child (sec_result.skip_call): counted,
 * not made */
static int skipped(void)
{
    for (int i = 0; i < S.res->nskip; i++)
        if (S.res->skip_call[i] == S.res->progress) {
            S.res->progress++;
            return 1;
        }
    return 0;
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
    for (ull i = *a->len > a->in_len ? *a->len : a->in_len; i < a->claimed; i++)
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
        if (a->orig && a->scratch) {
            continue; /* may be overwritten; guards checked above */
        } else if (a->orig) {
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
    if (skipped()) {
        unsigned char *none[3] = {NULL, NULL, NULL};
        finish(a, 3, none);
        return -1;
    }
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
    if (skipped()) {
        unsigned char *none[3] = {NULL, NULL, NULL};
        finish(a, 3, none);
        return -1;
    }
    if (S.stale)
        stale_stack(S.stale);
    int rc = S.in->kem.dec(a[0].b.g.p, sk_len, a[1].b.g.p, ct_len, a[2].b.g.p, ss_len);
    after("kem_dec", what, a, 3);
    note_rc("kem_dec", what, rc);
    unsigned char *dest[3] = {NULL, NULL, ss};
    finish(a, 3, dest);
    return rc;
}

/* ---- KEX and hash ---- */

/* passes: 1 finished, 0 not yet; init and derive 0; all: -1..-99 errors */
static void note_kex_rc(const char *api, const char *what, int rc, int pass)
{
    sec_rc_add(&S.res->rc, rc);
    if (rc > (pass ? 1 : 0) || rc < -99)
        sec_issue_add(&S.res->odd_rc, "%s returned %d at %s (the API documents %s and -1..-99)", api, rc, what,
                      pass ? "1 (finished), 0 (not finished)" : "0");
}

void sec_call_kex_direct(int on)
{
    S.direct = on;
}

/* a KEX state: claimed size, the caller's *len bytes first, the rest filled */
static void inout(arg *a, const char *name, ull claimed, const unsigned char *data, ull *len)
{
    ull have = *len < claimed ? *len : claimed;
    output(a, name, claimed, len);
    if (have && data)
        memcpy(a->b.g.p, data, (size_t)have);
    a->in_len = have;
    *len = have;
}

/* NULL stays NULL (no buffer); else as input() */
static unsigned char *in_or_null(arg *a, const char *name, const unsigned char *data, ull len)
{
    input(a, name, data ? data : (const unsigned char *)"", data ? len : 0);
    return data ? a->b.g.p : NULL;
}

int sec_kex_init(const char *what, int side, unsigned char *pk, ull *pk_len, unsigned char *sk, ull *sk_len,
                 unsigned char *st, ull *st_len)
{
    const char *api = side ? "kex_init_b" : "kex_init_a";
    arg a[3];
    output(&a[0], side ? "pkb" : "pka", S.cl.pk, pk_len);
    output(&a[1], side ? "skb" : "ska", S.cl.sk, sk_len);
    output(&a[2], side ? "stb" : "sta", side ? S.cl.stb : S.cl.sta, st_len);
    enter(api, what);
    int rc = (side ? S.in->kex.init_b : S.in->kex.init_a)(a[0].b.g.p, pk_len, a[1].b.g.p, sk_len, a[2].b.g.p, st_len);
    after(api, what, a, 3);
    note_kex_rc(api, what, rc, 0);
    unsigned char *dest[3] = {pk, sk, st};
    finish(a, 3, dest);
    return rc;
}

int sec_kex_pass(const char *what, int k, const unsigned char *sk, ull sk_len, const unsigned char *pk, ull pk_len,
                 const unsigned char *in, ull in_len, unsigned char *st, ull *st_len, unsigned char *m, ull *m_len)
{
    const char *api = ngcc_kex_pass_symbol(k);
    int b = k % 2 == 0; /* B sends the even passes */
    if (k > 1 && (k > NGCC_KEX_MAXP || !S.in->kex.pass[k]))
        return -100;
    arg a[5];
    int n = 0;
    input(&a[n++], b ? "skb" : "ska", sk, sk_len);
    input(&a[n++], b ? "pka" : "pkb", pk, pk_len);
    unsigned char *inp = NULL;
    if (k > 1)
        inp = in_or_null(&a[n++], ngcc_kex_msg_name(k - 1), in, in_len);
    if (S.direct && in)
        inp = (unsigned char *)in;
    int sti = n;
    inout(&a[n++], b ? "stb" : "sta", b ? S.cl.stb : S.cl.sta, st, st_len);
    output(&a[n++], ngcc_kex_msg_name(k), S.cl.msg, m_len);
    enter(api, what);
    if (S.stale)
        stale_stack(S.stale);
    int rc;
    if (k == 1)
        rc = S.in->kex.pass1_a(a[0].b.g.p, sk_len, a[1].b.g.p, pk_len, a[2].b.g.p, st_len, a[3].b.g.p, m_len);
    else
        rc = S.in->kex.pass[k](a[0].b.g.p, sk_len, a[1].b.g.p, pk_len, inp, in_len, a[3].b.g.p, st_len, a[4].b.g.p,
                               m_len);
    after(api, what, a, n);
    note_kex_rc(api, what, rc, 1);
    unsigned char *dest[5] = {NULL, NULL, NULL, NULL, NULL};
    dest[sti] = st;
    dest[sti + 1] = m;
    finish(a, n, dest);
    return rc;
}

int sec_kex_derive(const char *what, int side, const unsigned char *sk, ull sk_len, const unsigned char *pk, ull pk_len,
                   const unsigned char *in, ull in_len, const unsigned char *st, ull st_len, unsigned char *ss,
                   ull *ss_len)
{
    const char *api = side ? "kex_derive_ss_b" : "kex_derive_ss_a";
    arg a[5];
    input(&a[0], side ? "skb" : "ska", sk, sk_len);
    input(&a[1], side ? "pka" : "pkb", pk, pk_len);
    unsigned char *inp = in_or_null(&a[2], side ? "ma" : "mb", in, in_len);
    if (S.direct && in)
        inp = (unsigned char *)in;
    input(&a[3], side ? "stb" : "sta", st, st_len);
    a[3].scratch = 1;
    output(&a[4], side ? "ssb" : "ssa", S.cl.ss, ss_len);
    enter(api, what);
    if (S.stale)
        stale_stack(S.stale);
    int rc = (side ? S.in->kex.derive_b : S.in->kex.derive_a)(a[0].b.g.p, sk_len, a[1].b.g.p, pk_len, inp, in_len,
                                                              a[3].b.g.p, st_len, a[4].b.g.p, ss_len);
    after(api, what, a, 5);
    note_kex_rc(api, what, rc, 0);
    unsigned char *dest[5] = {NULL, NULL, NULL, NULL, ss};
    finish(a, 5, dest);
    return rc;
}

int sec_hash(const char *what, int digest_bits, const unsigned char *msg, ull msg_bits, unsigned char *digest,
             int direct)
{
    arg a[2];
    int n = 0;
    ull dlen = digest_bits > 0 ? ((ull)digest_bits + 7) / 8 : 0, mbytes = (msg_bits + 7) / 8;
    if (!direct)
        input(&a[n++], "msg", msg, mbytes);
    ull len = dlen;
    output(&a[n++], "digest", dlen, &len);
    enter("CryptHash", what);
    int rc = S.in->hash.hash(digest_bits, direct ? msg : a[0].b.g.p, msg_bits, a[n - 1].b.g.p);
    len = dlen; /* no returned length: the whole buffer is the digest */
    after("CryptHash", what, a, n);
    unsigned char *dest[2] = {NULL, digest};
    if (direct)
        dest[0] = digest;
    finish(a, n, dest);
    return rc;
}
