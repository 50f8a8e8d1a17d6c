/* ngcc-security: the KEX checks (iccs-kex-hash.md §1-2). A session is the
 * official KAT_KEX.c flow: init_random_number(&drng_algorithm, seed), then
 * init_a, init_b, pass 1, 2 (, 3), derive_a, derive_b on that one stream.
 * A pass returning 1 ends the exchange (KAT_KEX.c fails with -5 when that
 * is before Pass_Num); the sequence always stops after pass 3; errors are
 * return values < 0. derive_a gets the last message B sent, derive_b the
 * last one A sent. Every call goes through the guarded wrappers of
 * sec_call.c (buffer_safety, claimed_lengths). */
#define _GNU_SOURCE /* memmem */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ngcc_kex_pass.h"
#include "sec_check.h"

#define KEX_MAXP NGCC_KEX_MAXP
#define FLIP_POSITIONS 8 /* bytes of each message flipped by modified_message */
#define REUSE_SESSIONS 3 /* sessions per group in ephemeral_reuse */
#define REUSE_MIN_RUN 8  /* bytes: a repeat this long is a reused value */

typedef struct {
    unsigned char *pk[2], *sk[2], *st[2]; /* [0] = A, [1] = B */
    ull pk_len[2], sk_len[2], st_len[2];
    unsigned char *m[KEX_MAXP + 1], *pst[KEX_MAXP + 1]; /* 1-based: message k and its sender's state after pass k */
    ull m_len[KEX_MAXP + 1], pst_len[KEX_MAXP + 1];
    unsigned char *ss[2];
    ull ss_len[2];
    int passes;      /* passes called */
    int keys_ok, ok; /* init succeeded; the whole session (derives included) succeeded */
    int early;       /* a pass returned 1 before Pass_Num */
    int late;        /* the last pass run returned 0 (never 1) */
    char error[300]; /* the first error return */
    char what[120];  /* the session's name in messages */
} kex_session;

/* a bit flipped in transit: message `pass`, byte `byte`, bit `bit` (MSB = 0) */
typedef struct {
    int pass;
    ull byte;
    int bit;
} kex_tamper;

static void *zalloc(ull n)
{
    void *p = calloc(1, (size_t)n + 1);
    if (!p) {
        fprintf(stderr, "ngcc-security: out of memory (%llu bytes)\n", n);
        exit(3);
    }
    return p;
}

static void session_new(const sec_job *j, kex_session *s, const char *what)
{
    const sec_claims *c = &j->claims;
    memset(s, 0, sizeof *s);
    for (int p = 0; p < 2; p++) {
        s->pk[p] = zalloc(c->pk);
        s->sk[p] = zalloc(c->sk);
        s->st[p] = zalloc(p ? c->stb : c->sta);
        s->ss[p] = zalloc(c->ss);
    }
    for (int k = 1; k <= KEX_MAXP; k++) {
        s->m[k] = zalloc(c->msg);
        s->pst[k] = zalloc(c->sta > c->stb ? c->sta : c->stb);
    }
    snprintf(s->what, sizeof s->what, "%s", what);
}

static void session_free(kex_session *s)
{
    for (int p = 0; p < 2; p++) {
        free(s->pk[p]);
        free(s->sk[p]);
        free(s->st[p]);
        free(s->ss[p]);
    }
    for (int k = 1; k <= KEX_MAXP; k++) {
        free(s->m[k]);
        free(s->pst[k]);
    }
    memset(s, 0, sizeof *s);
}

static void session_error(kex_session *s, const char *api, int rc)
{
    if (!s->error[0])
        snprintf(s->error, sizeof s->error, "%s returned %d at %s", api, rc, s->what);
}

/* init_a, init_b (after seeding, when seed is not NULL) */
static int session_keys(kex_session *s, const unsigned char *seed)
{
    if (seed)
        sec_call_seed(seed, s->what);
    int rc = sec_kex_init(s->what, 0, s->pk[0], &s->pk_len[0], s->sk[0], &s->sk_len[0], s->st[0], &s->st_len[0]);
    if (rc < 0) {
        session_error(s, "kex_init_a", rc);
        return -1;
    }
    rc = sec_kex_init(s->what, 1, s->pk[1], &s->pk_len[1], s->sk[1], &s->sk_len[1], s->st[1], &s->st_len[1]);
    if (rc < 0) {
        session_error(s, "kex_init_b", rc);
        return -1;
    }
    s->keys_ok = 1;
    return 0;
}

/* the message k as its receiver gets it (a copy, tampered if asked) */
static unsigned char *delivered(const kex_session *s, int k, const kex_tamper *t)
{
    unsigned char *d = zalloc(s->m_len[k]);
    memcpy(d, s->m[k], (size_t)s->m_len[k]);
    if (t && t->pass == k && t->byte < s->m_len[k])
        d[t->byte] ^= (unsigned char)(0x80u >> t->bit);
    return d;
}

/* the passes and both derives on the session's keys, in the driver's order */
static int session_exchange(const sec_job *j, kex_session *s, const kex_tamper *t)
{
    ull passes = j->claims.passes;
    int last_rc = 0;
    for (int k = 1; k <= ngcc_kex_last_pass(passes); k++) {
        const char *api = ngcc_kex_pass_symbol(k);
        int b = k % 2 == 0;
        unsigned char *in = k > 1 ? delivered(s, k - 1, t) : NULL;
        s->m_len[k] = 0;
        int rc = sec_kex_pass(s->what, k, s->sk[b], s->sk_len[b], s->pk[!b], s->pk_len[!b], in,
                              k > 1 ? s->m_len[k - 1] : 0, s->st[b], &s->st_len[b], s->m[k], &s->m_len[k]);
        free(in);
        if (rc == -100) {
            snprintf(s->error, sizeof s->error, "pass %d returned %d (not finished) but the library has no %s, at %s",
                     k - 1, last_rc, api, s->what);
            return -1;
        }
        if (rc < 0) {
            session_error(s, api, rc);
            return -1;
        }
        s->passes = k;
        memcpy(s->pst[k], s->st[b], (size_t)s->st_len[b]);
        s->pst_len[k] = s->st_len[b];
        last_rc = rc;
        if (rc == 1) {
            if (passes != (ull)k) {
                s->early = k;
                snprintf(s->error, sizeof s->error,
                         "%s returned 1 (exchange finished) but kex_get_passes_num() is %llu: KAT_KEX.c stops with "
                         "-5 (pass error), at %s",
                         api, passes, s->what);
                return -1;
            }
            break;
        }
    }
    if (last_rc != 1)
        s->late = s->passes;                            /* the driver goes on silently (after pass 3: to derive) */
    int la = s->passes % 2 ? s->passes : s->passes - 1; /* the last pass A sent */
    int lb = s->passes % 2 ? s->passes - 1 : s->passes; /* the last pass B sent, 0: none */
    unsigned char *mb = lb > 0 ? delivered(s, lb, t) : NULL;
    int rc = sec_kex_derive(s->what, 0, s->sk[0], s->sk_len[0], s->pk[1], s->pk_len[1], mb, lb > 0 ? s->m_len[lb] : 0,
                            s->st[0], s->st_len[0], s->ss[0], &s->ss_len[0]);
    free(mb);
    if (rc < 0) {
        session_error(s, "kex_derive_ss_a", rc);
        return -1;
    }
    unsigned char *ma = delivered(s, la, t);
    rc = sec_kex_derive(s->what, 1, s->sk[1], s->sk_len[1], s->pk[0], s->pk_len[0], ma, s->m_len[la], s->st[1],
                        s->st_len[1], s->ss[1], &s->ss_len[1]);
    free(ma);
    if (rc < 0) {
        session_error(s, "kex_derive_ss_b", rc);
        return -1;
    }
    s->ok = 1;
    return 0;
}

static int session_run(const sec_job *j, kex_session *s, const unsigned char *seed, const kex_tamper *t)
{
    return session_keys(s, seed) ? -1 : session_exchange(j, s, t);
}

static int agree(const kex_session *s)
{
    return s->ok && s->ss_len[0] == s->ss_len[1] && memcmp(s->ss[0], s->ss[1], (size_t)s->ss_len[0]) == 0;
}

static void hex(char *out, size_t cap, const unsigned char *p, ull n, ull max)
{
    size_t o = 0;
    for (ull i = 0; i < n && i < max && o + 3 < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%02X", p[i]);
    if (n > max && o + 4 < cap)
        snprintf(out + o, cap - o, "...");
    if (o == 0 && cap)
        out[0] = 0;
}

/* ---- honest ---- */

void sec_kex_honest(sec_job *j)
{
    const sec_claims *c = &j->claims;
    int late = 0;
    for (int r = 0; r < j->plan->nkeys; r++) {
        kex_session s;
        char what[64];
        snprintf(what, sizeof what, "record %d", r);
        session_new(j, &s, what);
        j->res->tried++;
        if (session_run(j, &s, j->plan->key_seed[r], NULL)) {
            sec_fail(j, "%s", s.error);
        } else if (!agree(&s)) {
            char a[80], b[80];
            hex(a, sizeof a, s.ss[0], s.ss_len[0], 16);
            hex(b, sizeof b, s.ss[1], s.ss_len[1], 16);
            sec_fail(j,
                     "the parties disagree at %s: kex_derive_ss_a gave %llu bytes %s, kex_derive_ss_b %llu bytes %s "
                     "(KAT_KEX.c stops with -6)",
                     what, s.ss_len[0], a, s.ss_len[1], b);
        } else if (s.ss_len[0] != c->ss) {
            sec_fail(j, "the shared secret has %llu bytes, kex_get_ss_len_bytes() claims %llu, at %s", s.ss_len[0],
                     c->ss, what);
        } else {
            ull total = 0;
            for (int k = 1; k <= s.passes; k++)
                total += s.m_len[k];
            if (total > c->msg)
                sec_issue_add(&j->res->length,
                              "the %d messages have %llu bytes together, above kex_get_total_msg_len_bytes() = %llu, "
                              "at %s",
                              s.passes, total, c->msg, what);
            for (int p = 0; p < 2; p++)
                if (s.pk_len[p] != c->pk || s.sk_len[p] != c->sk)
                    sec_finding(j,
                                "kex_init_%c returned a %llu-byte public and %llu-byte secret key, the getters claim "
                                "%llu and %llu, at %s",
                                p ? 'b' : 'a', s.pk_len[p], s.sk_len[p], c->pk, c->sk, what);
            if (s.late && !late++)
                sec_finding(j,
                            "pass %d (the last one run) returned 0, never 1 (finished); Pass_Num is %llu: KAT_KEX.c "
                            "%s, at %s",
                            s.late, c->passes, s.late == 3 ? "stops after pass 3 anyway" : "would call the next pass",
                            what);
        }
        session_free(&s);
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu exchanges (KAT record seeds, %llu passes): both parties derived the same %llu-byte secret",
             j->res->tried, c->passes, c->ss);
}

/* ---- seed_dependence ---- */

static int same(const unsigned char *a, ull al, const unsigned char *b, ull bl)
{
    return al == bl && al > 0 && memcmp(a, b, (size_t)al) == 0;
}

/* Sessions under the seeds of records 0, 1 and 2 (a seed of our own when
 * the plan has two keys): a key repeated under any two of them is publicly
 * reproducible, also when keygen cycles between a few fixed keys (kex-08-2). */
#define SEED_SESSIONS 3

void sec_kex_seed_dependence(sec_job *j)
{
    kex_session s[SEED_SESSIONS];
    int ok[SEED_SESSIONS], keys = 1;
    for (int r = 0; r < SEED_SESSIONS; r++) {
        char what[32];
        unsigned char own[SEC_SEED_BYTES];
        snprintf(what, sizeof what, "record %d", r);
        session_new(j, &s[r], what);
        if (r >= j->plan->nkeys)
            sec_plan_bytes(own, SEC_SEED_BYTES, 0x5EED0000u + (unsigned)r);
        ok[r] = session_run(j, &s[r], r < j->plan->nkeys ? j->plan->key_seed[r] : own, NULL) == 0;
        keys &= s[r].keys_ok;
    }
    if (!keys) {
        j->res->notrun = 1;
        for (int r = 0; r < SEED_SESSIONS; r++)
            if (!s[r].keys_ok) {
                snprintf(j->res->note, sizeof j->res->note, "no keys: %s", s[r].error);
                break;
            }
    } else {
        static const char *const pk[2] = {"kex_init_a's public key", "kex_init_b's public key"};
        static const char *const sk[2] = {"kex_init_a's secret key", "kex_init_b's secret key"};
        for (int x = 0; x < SEED_SESSIONS; x++)
            for (int y = x + 1; y < SEED_SESSIONS; y++) {
                const kex_session *a = &s[x], *b = &s[y];
                for (int p = 0; p < 2; p++) {
                    j->res->tried += 2;
                    if (same(a->pk[p], a->pk_len[p], b->pk[p], b->pk_len[p]))
                        sec_fail(j,
                                 "publicly reproducible keys: %s is the same under the DRNG seeds of KAT records %d "
                                 "and %d",
                                 pk[p], x, y);
                    else if (same(a->sk[p], a->sk_len[p], b->sk[p], b->sk_len[p]))
                        sec_fail(j, "%s is the same under the DRNG seeds of KAT records %d and %d", sk[p], x, y);
                }
                if (a->passes && b->passes) {
                    j->res->tried++;
                    if (same(a->m[1], a->m_len[1], b->m[1], b->m_len[1]))
                        sec_fail(j,
                                 "m1 is the same under the DRNG seeds of KAT records %d and %d: the exchange does "
                                 "not depend on the seed",
                                 x, y);
                }
                if (ok[x] && ok[y]) {
                    j->res->tried++;
                    if (same(a->ss[0], a->ss_len[0], b->ss[0], b->ss_len[0]))
                        sec_fail(j, "the shared secret is the same under the DRNG seeds of KAT records %d and %d", x,
                                 y);
                }
            }
        snprintf(j->res->note, sizeof j->res->note,
                 "keys, first message and shared secret under the seeds of records 0, 1 and 2 differ pairwise");
    }
    for (int r = 0; r < SEED_SESSIONS; r++)
        session_free(&s[r]);
}

/* ---- modified_message ---- */

void sec_kex_modified_message(sec_job *j)
{
    kex_session h;
    session_new(j, &h, "record 0");
    /* an honest exchange that ends in disagreement (honest fails) still
     * gives two secrets a modified exchange must not agree on */
    if (session_run(j, &h, j->plan->key_seed[0], NULL)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "record 0's honest exchange failed (honest): %s", h.error);
        session_free(&h);
        return;
    }
    unsigned long rejected = 0, disagreed = 0, other = 0;
    for (int k = 1; k <= h.passes; k++) {
        ull pos[FLIP_POSITIONS];
        int np = sec_sample(h.m_len[k], FLIP_POSITIONS, 1, pos);
        for (int p = 0; p < np; p++) {
            kex_tamper t = {k, pos[p], (int)(pos[p] % 8)};
            char what[120];
            snprintf(what, sizeof what, "record 0, m%d byte %llu bit %d flipped in transit", k, t.byte, t.bit);
            kex_session s;
            session_new(j, &s, what);
            j->res->tried++;
            if (session_run(j, &s, j->plan->key_seed[0], &t))
                rejected++;
            else if (!agree(&s))
                disagreed++;
            else if (same(s.ss[0], s.ss_len[0], h.ss[0], h.ss_len[0]) ||
                     same(s.ss[0], s.ss_len[0], h.ss[1], h.ss_len[1]))
                sec_fail(j,
                         "both parties accepted m%d (%llu bytes) with bit %d of byte %llu flipped in transit and "
                         "agreed on the honest shared secret (record 0): that part of the message is not "
                         "authenticated",
                         k, h.m_len[k], t.bit, t.byte);
            else
                other++;
            session_free(&s);
        }
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu messages changed in transit (%d passes): %lu rejected by an error return, %lu disagreements, %lu "
             "agreements on another secret",
             j->res->tried, h.passes, rejected, disagreed, other);
    session_free(&h);
}

/* ---- ephemeral_reuse ----
 * Sessions under different DRNG seeds must not repeat an ephemeral value.
 * Group 1: one key pair per party (init once, under record 0's seed), then
 * REUSE_SESSIONS exchanges, each reseeded with a seed of our own. Group 2:
 * each session re-initialises the keys under its own seed. All run in one
 * process, so an ephemeral value kept in a static survives. Messages and
 * the sender's state after each pass are compared at equal offsets: a run
 * of REUSE_MIN_RUN or more equal bytes is a candidate, unless it is a copy
 * of a long-term key (messages may carry pk, states sk) or a single repeated
 * byte value (padding).
 * What the repeated bytes depend on decides the verdict. Two sessions run
 * first, each in a fresh process (nothing kept yet) under other seeds and
 * keys: bytes the same there too are a constant (an identity, a label, a
 * version field), not counted. Bytes that differ there but repeat in this
 * process across other long-term keys were drawn once per process and kept
 * (kex-02-1): CRYPTOFAIL. Bytes that repeat only with the same long-term
 * keys (a key fingerprint, or an ephemeral derived from the key alone), or
 * with no fresh sessions to compare against, are a FINDING showing them. */

static int in_key(const kex_session *s, const unsigned char *p, ull n)
{
    for (int q = 0; q < 2; q++) {
        const unsigned char *keys[2] = {s->pk[q], s->sk[q]};
        ull lens[2] = {s->pk_len[q], s->sk_len[q]};
        for (int i = 0; i < 2; i++)
            if (lens[i] >= n && memmem(keys[i], (size_t)lens[i], p, (size_t)n))
                return 1;
    }
    return 0;
}

/* a run [o, o + n) not explained by keys or padding */
static int unexplained(const kex_session *a, const kex_session *b, const unsigned char *p, ull n)
{
    int uniform = 1;
    for (ull i = 1; i < n; i++)
        uniform &= p[i] == p[0];
    if (uniform)
        return 0;
    if (in_key(a, p, n) || in_key(b, p, n))
        return 0;
    /* a mix of key copies and other bytes: look at each REUSE_MIN_RUN window */
    for (ull o = 0; o + REUSE_MIN_RUN <= n; o += REUSE_MIN_RUN / 2) {
        int u = 1;
        for (ull i = 1; i < REUSE_MIN_RUN; i++)
            u &= p[o + i] == p[o];
        if (!u && !in_key(a, p + o, REUSE_MIN_RUN) && !in_key(b, p + o, REUSE_MIN_RUN))
            return 1;
    }
    return 0;
}

/* which bytes of a session to compare: message k or the sender's state after pass k */
typedef struct {
    int k, state;
} reuse_field;

static const unsigned char *field_of(const kex_session *s, reuse_field f, ull *len)
{
    if (f.k > s->passes) {
        *len = 0;
        return NULL;
    }
    *len = f.state ? s->pst_len[f.k] : s->m_len[f.k];
    return f.state ? s->pst[f.k] : s->m[f.k];
}

/* s holds x's bytes [o, o + n) at the same offsets (count of equal bytes) */
static ull equal_at(const kex_session *s, reuse_field f, const unsigned char *x, ull o, ull n)
{
    ull len, eq = 0;
    const unsigned char *y = field_of(s, f, &len);
    for (ull i = o; i < o + n && i < len; i++)
        eq += y[i] == x[i];
    return eq;
}

/* the bytes [o, o + n) of x that are not the same in both fresh-process
 * sessions: what a constant does not explain */
static ull not_constant(const kex_session *fresh, int nfresh, reuse_field f, const unsigned char *x, ull o, ull n)
{
    ull len0, len1, c = 0;
    if (nfresh < 2)
        return n;
    const unsigned char *y0 = field_of(&fresh[0], f, &len0), *y1 = field_of(&fresh[1], f, &len1);
    for (ull i = o; i < o + n; i++)
        c += !(i < len0 && i < len1 && y0[i] == x[i] && y1[i] == x[i]);
    return c;
}

/* the first unexplained repeat of x and y at equal offsets; 1 if found */
static int repeat(const kex_session *a, const kex_session *b, const unsigned char *x, ull xl, const unsigned char *y,
                  ull yl, ull from, ull *off, ull *len)
{
    ull n = xl < yl ? xl : yl;
    for (ull i = from; i < n;) {
        if (x[i] != y[i]) {
            i++;
            continue;
        }
        ull e = i;
        while (e < n && x[e] == y[e])
            e++;
        if (e - i >= REUSE_MIN_RUN && unexplained(a, b, x + i, e - i)) {
            *off = i;
            *len = e - i;
            return 1;
        }
        i = e;
    }
    return 0;
}

static int same_keys(const kex_session *a, const kex_session *b)
{
    for (int p = 0; p < 2; p++)
        if (!same(a->pk[p], a->pk_len[p], b->pk[p], b->pk_len[p]))
            return 0;
    return 1;
}

/* "4944..." and its printable form "ID_A..." */
static void hex_ascii(char *out, size_t cap, const unsigned char *p, ull n)
{
    char h[80], a[40];
    size_t o = 0;
    hex(h, sizeof h, p, n, 16);
    for (ull i = 0; i < n && i < 16; i++)
        a[o++] = p[i] >= 0x20 && p[i] < 0x7F && p[i] != '"' ? (char)p[i] : '.';
    a[o] = 0;
    snprintf(out, cap, "%s, ASCII \"%s%s\"", h, a, n > 16 ? "..." : "");
}

typedef struct {
    kex_session *all; /* every session of this process */
    int nall;
    kex_session *fresh; /* the fresh-process sessions */
    int nfresh;
    unsigned long constants; /* repeats explained as constants */
    char constant[300];      /* the first one */
} reuse_ctx;

static void judge_repeat(sec_job *j, reuse_ctx *c, const kex_session *a, const kex_session *b, reuse_field f,
                         const unsigned char *x, ull off, ull len, const char *how)
{
    char where[120], bytes[200];
    if (f.state)
        snprintf(where, sizeof where, "the %s state after pass %d", f.k % 2 ? "initiator's" : "responder's", f.k);
    else
        snprintf(where, sizeof where, "%s", ngcc_kex_msg_name(f.k));
    hex_ascii(bytes, sizeof bytes, x + off, len);
    if (c->nfresh == 2 && not_constant(c->fresh, c->nfresh, f, x, off, len) < REUSE_MIN_RUN / 2) {
        if (!c->constants++)
            snprintf(c->constant, sizeof c->constant, "%.60s bytes %llu..%llu (%.150s)", where, off, off + len - 1,
                     bytes);
        return;
    }
    const kex_session *other = NULL; /* a session with other long-term keys holding the same bytes */
    for (int i = 0; i < c->nall && !other; i++)
        if (!same_keys(&c->all[i], a) && equal_at(&c->all[i], f, x, off, len) == len)
            other = &c->all[i];
    if (c->nfresh == 2 && (other || !same_keys(a, b))) {
        sec_fail(j,
                 "ephemeral value reused: %s bytes %llu..%llu (%llu bytes, %s) are the same in %s and %s, %s, and in "
                 "%s (other long-term keys), but differ in two fresh processes under other seeds: a value drawn "
                 "once per process and kept (an ephemeral reused across sessions), not a constant or a copy of a "
                 "long-term key",
                 where, off, off + len - 1, len, bytes, a->what, b->what, how, other ? other->what : b->what);
    } else {
        sec_finding(j,
                    "%s bytes %llu..%llu (%llu bytes, %s) are the same in %s and %s, %s; %s: a value derived from the "
                    "long-term keys alone (a key fingerprint, or an ephemeral not drawn from the DRNG), not judged",
                    where, off, off + len - 1, len, bytes, a->what, b->what, how,
                    c->nfresh < 2 ? "no fresh-process session could be run to tell it from a constant"
                                  : "they differ in sessions with other long-term keys and in fresh processes");
    }
}

static void compare_sessions(sec_job *j, reuse_ctx *c, const kex_session *a, const kex_session *b, const char *how)
{
    int np = a->passes < b->passes ? a->passes : b->passes;
    for (int k = 1; k <= np; k++)
        for (int st = 0; st < 2; st++) {
            reuse_field f = {k, st};
            ull xl, yl, off, len;
            const unsigned char *x = field_of(a, f, &xl), *y = field_of(b, f, &yl);
            j->res->tried++;
            for (ull from = 0; repeat(a, b, x, xl, y, yl, from, &off, &len); from = off + len)
                judge_repeat(j, c, a, b, f, x, off, len, how);
        }
}

static void session_seed(unsigned char seed[SEC_SEED_BYTES], unsigned tag)
{
    sec_plan_bytes(seed, SEC_SEED_BYTES, 0xE9E30000u + tag);
}

/* one session with keys of its own under seed `tag`, run in a fresh child
 * process (before this process made any call): its messages and states */
static int fresh_session(const sec_job *j, kex_session *s, unsigned tag)
{
    const sec_claims *c = &j->claims;
    ull st_max = c->sta > c->stb ? c->sta : c->stb;
    size_t size = sizeof(ull) + KEX_MAXP * (2 * sizeof(ull) + (size_t)(c->msg + st_max));
    unsigned char *sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        return -1;
    memset(sh, 0, size);
    int *passes = (int *)sh;
    ull *lens = (ull *)(sh + sizeof(ull));
    unsigned char *data = sh + sizeof(ull) + 2 * KEX_MAXP * sizeof(ull);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        unsigned char seed[SEC_SEED_BYTES];
        session_seed(seed, tag);
        session_run(j, s, seed, NULL);
        for (int k = 1; k <= s->passes; k++) {
            unsigned char *d = data + (size_t)(k - 1) * (size_t)(c->msg + st_max);
            lens[2 * (k - 1)] = s->m_len[k];
            lens[2 * (k - 1) + 1] = s->pst_len[k];
            memcpy(d, s->m[k], (size_t)s->m_len[k]);
            memcpy(d + c->msg, s->pst[k], (size_t)s->pst_len[k]);
        }
        *passes = s->passes;
        fflush(NULL);
        _exit(0);
    }
    int st = 0;
    int ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && *passes > 0;
    if (ok) {
        s->passes = *passes;
        for (int k = 1; k <= s->passes; k++) {
            const unsigned char *d = data + (size_t)(k - 1) * (size_t)(c->msg + st_max);
            s->m_len[k] = lens[2 * (k - 1)];
            s->pst_len[k] = lens[2 * (k - 1) + 1];
            memcpy(s->m[k], d, (size_t)s->m_len[k]);
            memcpy(s->pst[k], d + c->msg, (size_t)s->pst_len[k]);
        }
    }
    munmap(sh, size);
    return ok ? 0 : -1;
}

void sec_kex_ephemeral_reuse(sec_job *j)
{
    kex_session all[2 * REUSE_SESSIONS], fresh[2];
    kex_session *g1 = all, *g2 = all + REUSE_SESSIONS;
    int n1 = 0, n2 = 0, nfresh = 0;
    char why[300] = "";
    /* first, before this process calls the library: the fresh-process sessions */
    for (int i = 0; i < 2; i++) {
        char what[64];
        snprintf(what, sizeof what, "a fresh process with new keys (%d)", i + 1);
        session_new(j, &fresh[nfresh], what);
        if (fresh_session(j, &fresh[nfresh], 0x200u + (unsigned)i) == 0)
            nfresh++;
        else
            session_free(&fresh[nfresh]);
    }
    /* group 1: the same long-term keys */
    kex_session keys;
    session_new(j, &keys, "record 0's keys");
    if (session_keys(&keys, j->plan->key_seed[0]) == 0) {
        for (int i = 0; i < REUSE_SESSIONS; i++) {
            char what[96];
            unsigned char seed[SEC_SEED_BYTES];
            snprintf(what, sizeof what, "session %d on record 0's keys", i + 1);
            session_new(j, &g1[n1], what);
            kex_session *s = &g1[n1];
            for (int p = 0; p < 2; p++) { /* the same keys and initial states */
                memcpy(s->pk[p], keys.pk[p], (size_t)keys.pk_len[p]);
                memcpy(s->sk[p], keys.sk[p], (size_t)keys.sk_len[p]);
                memcpy(s->st[p], keys.st[p], (size_t)keys.st_len[p]);
                s->pk_len[p] = keys.pk_len[p];
                s->sk_len[p] = keys.sk_len[p];
                s->st_len[p] = keys.st_len[p];
            }
            s->keys_ok = 1;
            session_seed(seed, (unsigned)i);
            sec_call_seed(seed, what);
            if (session_exchange(j, s, NULL) && !s->passes) {
                snprintf(why, sizeof why, "%s", s->error);
                session_free(s);
                continue;
            }
            n1++;
        }
    } else {
        snprintf(why, sizeof why, "%s", keys.error);
    }
    session_free(&keys);
    /* group 2: keys re-initialised per session */
    for (int i = 0; i < REUSE_SESSIONS; i++) {
        char what[96];
        unsigned char seed[SEC_SEED_BYTES];
        snprintf(what, sizeof what, "session %d with new keys", i + 1);
        session_new(j, &g2[n2], what);
        session_seed(seed, 0x100u + (unsigned)i);
        if (session_run(j, &g2[n2], seed, NULL) && !g2[n2].passes) {
            snprintf(why, sizeof why, "%s", g2[n2].error);
            session_free(&g2[n2]);
            continue;
        }
        n2++;
    }
    /* every session of this process, for "the same bytes under other keys" */
    kex_session packed[2 * REUSE_SESSIONS];
    int nall = 0;
    for (int i = 0; i < n1; i++)
        packed[nall++] = g1[i];
    for (int i = 0; i < n2; i++)
        packed[nall++] = g2[i];
    reuse_ctx c = {packed, nall, fresh, nfresh, 0, ""};
    for (int a = 0; a < n1; a++)
        for (int b = a + 1; b < n1; b++)
            compare_sessions(j, &c, &g1[a], &g1[b], "sessions with the same long-term keys under different DRNG seeds");
    for (int a = 0; a < n2; a++)
        for (int b = a + 1; b < n2; b++)
            compare_sessions(j, &c, &g2[a], &g2[b], "sessions with re-initialised keys under different DRNG seeds");
    if (n1 < 2 && n2 < 2) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "fewer than two sessions could be run: %.400s", why);
    } else {
        char consts[400] = "";
        if (c.constants)
            snprintf(consts, sizeof consts,
                     "; %lu repeat(s) of protocol constants (the same in fresh processes "
                     "under other seeds and keys), e.g. %.250s",
                     c.constants, c.constant);
        snprintf(j->res->note, sizeof j->res->note,
                 "%d sessions on the same keys and %d with new keys, under different seeds: no message or state "
                 "repeats %d+ bytes at one offset (key copies and one-byte padding aside)%s",
                 n1, n2, REUSE_MIN_RUN, consts);
    }
    for (int i = 0; i < n1; i++)
        session_free(&g1[i]);
    for (int i = 0; i < n2; i++)
        session_free(&g2[i]);
    for (int i = 0; i < nfresh; i++)
        session_free(&fresh[i]);
}

/* ---- determinism ----
 * Record 0's session twice in one process, under two output fill patterns:
 * every key, state, message and secret must be the same (a byte inside a
 * returned length that no call wrote shows up as a difference too). */

typedef struct {
    const char *name;
    const unsigned char *x, *y;
    ull xl, yl;
} field;

static const char *first_diff(const kex_session *a, const kex_session *b, char *buf, size_t cap)
{
    field f[4 * 2 + 2 * KEX_MAXP + 2];
    int n = 0;
    for (int p = 0; p < 2; p++) {
        f[n++] = (field){p ? "pkb" : "pka", a->pk[p], b->pk[p], a->pk_len[p], b->pk_len[p]};
        f[n++] = (field){p ? "skb" : "ska", a->sk[p], b->sk[p], a->sk_len[p], b->sk_len[p]};
    }
    static char sn[KEX_MAXP + 1][24];
    for (int k = 1; k <= a->passes && k <= b->passes; k++) {
        snprintf(sn[k], sizeof sn[k], "state after pass %d", k);
        f[n++] = (field){ngcc_kex_msg_name(k), a->m[k], b->m[k], a->m_len[k], b->m_len[k]};
        f[n++] = (field){sn[k], a->pst[k], b->pst[k], a->pst_len[k], b->pst_len[k]};
    }
    f[n++] = (field){"ssa", a->ss[0], b->ss[0], a->ss_len[0], b->ss_len[0]};
    f[n++] = (field){"ssb", a->ss[1], b->ss[1], a->ss_len[1], b->ss_len[1]};
    for (int i = 0; i < n; i++) {
        if (f[i].xl != f[i].yl) {
            snprintf(buf, cap, "%s length (%llu, then %llu bytes)", f[i].name, f[i].xl, f[i].yl);
            return buf;
        }
        for (ull o = 0; o < f[i].xl; o++)
            if (f[i].x[o] != f[i].y[o] && /* bytes never written: unwritten_output's */
                !(f[i].x[o] == sec_call_pattern_byte(1, o) && f[i].y[o] == sec_call_pattern_byte(2, o))) {
                snprintf(buf, cap, "%s byte %llu of %llu", f[i].name, o, f[i].xl);
                return buf;
            }
    }
    if (a->passes != b->passes) {
        snprintf(buf, cap, "the number of passes (%d, then %d)", a->passes, b->passes);
        return buf;
    }
    return NULL;
}

/* unwritten_output: every output of the two runs (pattern 1, then 2) */
static void unwritten_runs(sec_job *j, const kex_session *a, const kex_session *b)
{
    for (int p = 0; p < 2; p++) {
        const char *init = p ? "kex_init_b" : "kex_init_a";
        sec_unwritten_compare(j, init, p ? "pkb" : "pka", a->pk[p], a->pk_len[p], b->pk[p], b->pk_len[p]);
        sec_unwritten_compare(j, init, p ? "skb" : "ska", a->sk[p], a->sk_len[p], b->sk[p], b->sk_len[p]);
    }
    for (int k = 1; k <= a->passes && k <= b->passes; k++) {
        const char *api = ngcc_kex_pass_symbol(k);
        sec_unwritten_compare(j, api, ngcc_kex_msg_name(k), a->m[k], a->m_len[k], b->m[k], b->m_len[k]);
        sec_unwritten_compare(j, api, k % 2 ? "sta" : "stb", a->pst[k], a->pst_len[k], b->pst[k], b->pst_len[k]);
    }
    if (a->ok && b->ok)
        for (int p = 0; p < 2; p++)
            sec_unwritten_compare(j, p ? "kex_derive_ss_b" : "kex_derive_ss_a", p ? "ssb" : "ssa", a->ss[p],
                                  a->ss_len[p], b->ss[p], b->ss_len[p]);
}

void sec_kex_determinism(sec_job *j)
{
    kex_session s[2];
    char what[64];
    for (int t = 0; t < 2; t++) {
        snprintf(what, sizeof what, "record 0, run %d", t + 1);
        session_new(j, &s[t], what);
        sec_call_pattern(t + 1);
        session_run(j, &s[t], j->plan->key_seed[0], NULL);
    }
    sec_call_pattern(0);
    char buf[160];
    if (s[0].keys_ok && s[1].keys_ok)
        unwritten_runs(j, &s[0], &s[1]);
    if (!s[0].keys_ok || !s[1].keys_ok) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no keys: %.400s", s[0].error[0] ? s[0].error : s[1].error);
    } else {
        j->res->tried = 1;
        const char *d = first_diff(&s[0], &s[1], buf, sizeof buf);
        if (d)
            sec_fail(j,
                     "two runs under record 0's seed differ in %s (the two runs fill output buffers with different "
                     "patterns, so a byte never written shows as a difference too): the KAT cannot be reproduced",
                     d);
        else if (s[0].ok != s[1].ok)
            sec_fail(j, "one of two runs under record 0's seed failed: %s", s[0].ok ? s[1].error : s[0].error);
        snprintf(j->res->note, sizeof j->res->note,
                 "two runs under record 0's seed (two fill patterns): the same keys, states, %d messages and secrets",
                 s[0].passes);
    }
    session_free(&s[0]);
    session_free(&s[1]);
}
